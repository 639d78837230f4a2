/*
 * The board editor's page.  It draws the board and the forms, and asks the
 * server for everything else: which positions are possible, which moves are
 * legal, which claims hold, the preview and the save.  It never decides
 * legality itself.  Text from the author or the server goes in with
 * textContent; only the server's figure and table, which the server escaped,
 * go in as HTML.
 */
(function () {
  "use strict";

  var START = "W:W21-32:B1-12";
  var EMPTY = "W:W:B";
  var state = {
    fen: START, turn: "white", squares: {}, legal: [], move: null, claims: [],
    draft: null, flip: false, clicks: [], focus: 1, name: null, opened: null,
  };
  var $ = function (id) { return document.getElementById(id); };
  var previewTimer = null;

  /* Material's page hook, for the site's figure scripts (step controls): called after a preview. */
  var pageHooks = [];
  window.document$ = { subscribe: function (run) { pageHooks.push(run); } };

  function post(path, data) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(data),
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) throw new Error(body.error || "the editor refused the request");
        return body;
      });
    });
  }

  function say(text) { $("status").textContent = text; }

  /* A select's options, replaced: each item is [value, label]. */
  function fillSelect(select, items) {
    select.textContent = "";
    items.forEach(function (item) {
      var element = document.createElement("option");
      element.value = item[0];
      element.textContent = item[1];
      select.appendChild(element);
    });
  }

  /* -- the board ---------------------------------------------------------- */

  function squareAt(row, column) {
    if ((row + column) % 2) return null;
    return row * 4 + Math.floor(column / 2) + 1;
  }

  function place(square) {  /* the square's row and column on screen */
    var row = Math.floor((square - 1) / 4);
    var column = 2 * ((square - 1) % 4) + (row % 2);
    return state.flip ? [7 - row, 7 - column] : [row, column];
  }

  function atPlace(row, column) {
    return state.flip ? squareAt(7 - row, 7 - column) : squareAt(row, column);
  }

  function buildBoard() {
    var board = $("board");
    board.textContent = "";
    for (var row = 0; row < 8; row++) {
      var line = document.createElement("div");
      line.setAttribute("role", "row");
      line.className = "board-row";
      for (var column = 0; column < 8; column++) {
        var square = atPlace(row, column);
        var cell = document.createElement("div");
        if (square === null) {
          cell.className = "light";
          cell.setAttribute("aria-hidden", "true");
        } else {
          cell.className = "dark";
          cell.setAttribute("role", "gridcell");
          cell.dataset.square = String(square);
          cell.tabIndex = square === state.focus ? 0 : -1;
          var number = document.createElement("span");
          number.className = "number";
          number.setAttribute("aria-hidden", "true");
          number.textContent = String(square);
          var piece = document.createElement("span");
          piece.className = "piece";
          piece.setAttribute("aria-hidden", "true");
          cell.appendChild(number);
          cell.appendChild(piece);
        }
        line.appendChild(cell);
      }
      board.appendChild(line);
    }
    drawPieces();
  }

  function cell(square) { return $("board").querySelector('[data-square="' + square + '"]'); }

  function drawPieces() {
    for (var square = 1; square <= 32; square++) {
      var element = cell(square);
      var content = state.squares[String(square)] || "empty";
      var piece = element.querySelector(".piece");
      piece.className = "piece " + content.replace(" ", "-");
      piece.textContent = content.indexOf("king") >= 0 ? "K" : "";
      var clicked = state.clicks.indexOf(square) >= 0;
      element.setAttribute("aria-selected", clicked ? "true" : "false");
      element.setAttribute(
        "aria-label", "square " + square + ", " + content + (clicked ? ", chosen" : ""));
    }
  }

  function focusSquare(square) {
    var old = cell(state.focus);
    if (old) old.tabIndex = -1;
    state.focus = square;
    var element = cell(square);
    element.tabIndex = 0;
    element.focus();
  }

  function moveFocus(key, ctrl) {
    var here = place(state.focus);
    var row = here[0], column = here[1], found = null, step;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      step = key === "ArrowLeft" ? -1 : 1;
      for (var c = column + step; c >= 0 && c < 8 && found === null; c += step) {
        found = atPlace(row, c);
      }
    } else if (key === "ArrowUp" || key === "ArrowDown") {
      var next = row + (key === "ArrowUp" ? -1 : 1);
      if (next >= 0 && next < 8) {
        found = atPlace(next, column - 1);
        if (found === null) found = atPlace(next, column + 1);
      }
    } else if (key === "Home" || key === "End") {
      var rowOf = ctrl ? (key === "Home" ? 0 : 7) : row;
      var columns = key === "Home" ? [0, 1] : [7, 6];
      found = atPlace(rowOf, columns[0]);
      if (found === null) found = atPlace(rowOf, columns[1]);
    }
    if (found !== null) focusSquare(found);
  }

  function mode() { return document.querySelector('input[name="mode"]:checked').value; }

  /* Board actions one after another: each starts from the position the last one made. */
  var queue = Promise.resolve();
  function act(square) {
    queue = queue.then(function () { return actNow(square); });
  }

  function actNow(square) {
    if (mode() === "setup") {
      return post("/api/position", { position: state.fen, cycle: square })
        .then(function (answer) {
          showPosition(answer);
          var now = answer.squares[String(square)] || "empty";
          var refused = answer.refused.length ? answer.refused.join("; ") + ". " : "";
          say(refused + "Square " + square + ": " + now + ".");
        })
        .catch(function (error) { say(error.message); });
      return;
    }
    if (state.clicks.length && state.clicks[0] === square && state.clicks.length === 1) {
      state.clicks = [];
      drawPieces();
      say("Move cancelled.");
      return;
    }
    state.clicks.push(square);
    drawPieces();
    if (state.clicks.length === 1) {
      say("From " + square + ": now the square where it lands.");
      return;
    }
    return post("/api/resolve", { position: state.fen, squares: state.clicks })
      .then(function (answer) {
        if (answer.status === "more") {
          say(answer.message);
          return;
        }
        state.clicks = [];
        if (answer.status === "move" || (answer.status === "illegal" && answer.move)) {
          state.move = answer.move;
          showAnalysis(answer.analysis);
        } else {
          drawPieces();
        }
        say(answer.status === "move" ? "Move " + answer.move + " chosen." : answer.message);
      })
      .catch(function (error) {
        state.clicks = [];
        drawPieces();
        say(error.message);
      });
  }

  /* -- what the engine says ----------------------------------------------- */

  function setPosition(fen, move) {
    return post("/api/position", { position: fen, move: move || null })
      .then(function (answer) { showPosition(answer, move); })
      .catch(function (error) { say(error.message); throw error; });
  }

  function showPosition(answer, move) {
    state.move = move || null;
    state.clicks = [];
    showAnalysis(answer);
  }

  function showAnalysis(answer) {
    state.fen = answer.fen;
    state.turn = answer.turn;
    state.squares = answer.squares;
    state.legal = answer.legal;
    state.claims = answer.claims;
    $("fen").value = answer.fen;
    $("turn-now").textContent = (answer.turn === "white" ? "White" : "Black") + " to move.";
    drawPieces();
    var over = $("game-over");
    over.hidden = !answer.game_over;
    if (answer.game_over) {
      over.textContent = "The game is over: " + answer.game_over.winner + " wins (" +
        answer.game_over.reason + ").";
    }
    var list = $("moves");
    list.textContent = "";
    answer.legal.forEach(function (move) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = move;
      button.setAttribute("aria-pressed", move === state.move ? "true" : "false");
      button.addEventListener("click", function () { setPosition(state.fen, move); });
      item.appendChild(button);
      list.appendChild(item);
    });
    if (!answer.legal.length) {
      var none = document.createElement("li");
      none.textContent = "none";
      list.appendChild(none);
    }
    var chosen = answer.move;
    $("chosen").textContent = !chosen ? "No move chosen: the diagram shows the position." :
      chosen.legal ? "Chosen: " + chosen.move + "." :
      "Chosen: " + chosen.move + ", which is not legal: " + chosen.detail;
    var side = answer.turn === "white" ? "White" : "Black";
    var count = answer.legal.length;
    $("engine-summary").textContent = answer.game_over ? over.textContent :
      side + " to move, " + count + (count === 1 ? " legal move" : " legal moves") +
      (answer.explain_summary ? "; " + answer.explain_summary : ".");
    /* the server's table: every text in it escaped there */
    $("explain").innerHTML = answer.explain || "";
    showClaims();
  }

  function claimLabel(option) {
    var words = option.claim;
    if (option.rule) words += ", " + ruleName(option.rule);
    if (option.reason) words += ", " + option.reason;
    if (option.move) words += ": " + option.move;
    else if (option.moves) words += ": " + option.moves.join(", ");
    return words;
  }

  function ruleName(value) {
    var found = choices.rules.filter(function (rule) { return rule.value === value; })[0];
    return found ? found.label : value;
  }

  function showClaims(kept) {
    var select = $("claim");
    select.textContent = "";
    var options = state.claims.slice();
    if (kept) {
      var same = options.filter(function (option) { return sameClaim(option, kept); })[0];
      if (!same) {
        options.unshift(Object.assign({}, kept, { summary: "as in the file" }));
      }
    }
    fillSelect(select, options.map(function (option, index) {
      return [String(index), claimLabel(option)];
    }));
    state.options = options;
    var chosen = 0;
    if (kept) {
      options.forEach(function (option, index) { if (sameClaim(option, kept)) chosen = index; });
    } else {
      options.forEach(function (option, index) {
        if (state.draft && sameClaim(option, state.draft)) chosen = index;
      });
    }
    select.value = String(chosen);
    chooseClaim(kept);
  }

  function sameClaim(a, b) {
    return a.claim === b.claim && (a.rule || null) === (b.rule || null) &&
      (a.reason || null) === (b.reason || null) && (a.move || null) === (b.move || null);
  }

  function chooseClaim(kept) {
    var select = $("claim");
    var option = (state.options || [])[Number(select.value)];
    state.draft = option ? Object.assign({}, kept && sameClaim(option, kept) ? kept : option) : null;
    $("claim-summary").textContent = option ? "The engine: " + option.summary : "";
    $("rule-row").hidden = !(state.draft && state.draft.claim === "priority");
    $("reason-row").hidden = !(state.draft && state.draft.reason);
    if (state.draft && state.draft.rule) $("rule").value = state.draft.rule;
    if (state.draft && state.draft.reason) fillReasons(state.draft);
    schedulePreview();
  }

  function fillReasons(draft) {
    var select = $("reason");
    var list = draft.claim === "game-over" ? choices.game_over_reasons : choices.illegal_reasons;
    fillSelect(select, list.map(function (reason) { return [reason, reason]; }));
    select.value = draft.reason;
  }

  /* -- the diagram -------------------------------------------------------- */

  function diagram() {
    if (!state.draft) return null;
    var fields = Object.assign({}, state.draft);
    delete fields.summary;
    fields.position = state.fen;
    fields.title = $("title").value;
    fields.caption = $("caption").value;
    fields.exercise = $("is-exercise").checked ?
      { ask: $("ask").value, question: $("question").value } : null;
    return fields;
  }

  function request(extra) {
    var data = { diagram: diagram(), name: $("name").value.trim() || null };
    if (state.opened && data.name === state.name) data.opened = state.opened;
    return Object.assign(data, extra || {});
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(showPreview, 250);
  }

  var previews = 0;  /* only the answer to the latest preview is shown, whatever their order */

  function showPreview() {
    var data = request();
    if (!data.diagram) return;
    var mine = ++previews;
    if (data.name && !/^[a-z0-9][a-z0-9-]*$/.test(data.name)) data.name = null;
    if (data.name === null) delete data.opened;
    post("/api/preview", data)
      .then(function (answer) {
        if (mine !== previews) return;
        $("preview-error").textContent = "";
        /* the site's own figure, made and escaped by the server */
        $("preview").innerHTML = answer.figure;
        $("yaml").textContent = answer.yaml;
        $("preview-summary").textContent = "dama-diagrams verify: holds. " + answer.summary;
        pageHooks.forEach(function (run) { run(); });
      })
      .catch(function (error) {
        if (mine !== previews) return;
        $("preview").textContent = "";
        $("preview-summary").textContent = "";
        $("preview-error").textContent = "The engine refuses this diagram: " + error.message;
      });
  }

  function save(event) {
    event.preventDefault();
    $("save-result").textContent = "";
    $("save-error").textContent = "";
    var data = request();
    if (!data.diagram) {
      $("save-error").textContent = "Set up a position first: there is no claim to save.";
      return;
    }
    post("/api/save", data)
      .then(function (answer) {
        state.name = data.name;
        state.opened = answer.opened;
        $("opened").textContent = "Editing " + answer.saved + ".";
        $("save-result").textContent = answer.message;
        $("yaml").textContent = answer.yaml;
        loadNames();
      })
      .catch(function (error) {
        $("save-error").textContent = "Not saved: " + error.message;
      });
  }

  function open(event) {
    event.preventDefault();
    var name = $("open-name").value;
    $("save-result").textContent = "";
    $("save-error").textContent = "";
    post("/api/open", { name: name })
      .then(function (answer) {
        var fields = answer.diagram;
        state.name = answer.name;
        state.opened = answer.opened;
        $("name").value = answer.name;
        $("title").value = fields.title || "";
        $("caption").value = fields.caption || "";
        $("is-exercise").checked = !!fields.exercise;
        $("exercise-row").hidden = !fields.exercise;
        if (fields.exercise) {
          $("ask").value = fields.exercise.ask;
          $("question").value = fields.exercise.question;
        }
        $("opened").textContent = "Editing diagrams/" + answer.name + ".yaml.";
        var kept = {
          claim: fields.claim, move: fields.move, moves: fields.moves, rule: fields.rule,
          rejected: fields.rejected, reason: fields.reason,
        };
        return post("/api/position", { position: fields.position, move: fields.move })
          .then(function (analysis) {
            state.move = fields.move;
            state.clicks = [];
            state.draft = kept;
            showAnalysis(analysis);
            showClaims(kept);
            say("Opened diagrams/" + answer.name + ".yaml.");
          });
      })
      .catch(function (error) { $("save-error").textContent = "Not opened: " + error.message; });
  }

  var choices = { rules: [], illegal_reasons: [], game_over_reasons: [], asks: [] };

  function loadNames() {
    return fetch("/api/start").then(function (response) { return response.json(); })
      .then(function (answer) {
        choices = answer;
        var select = $("open-name");
        var current = select.value;
        fillSelect(select, answer.diagrams.map(function (name) { return [name, name]; }));
        if (current) select.value = current;
      });
  }

  function fillStatic() {
    var pair = function (each) { return [each.value, each.label]; };
    fillSelect($("rule"), choices.rules.map(pair));
    fillSelect($("ask"), choices.asks.map(pair));
  }

  /* -- wiring ------------------------------------------------------------- */

  function start() {
    buildBoard();
    var board = $("board");
    board.addEventListener("click", function (event) {
      var target = event.target.closest("[data-square]");
      if (!target) return;
      var square = Number(target.dataset.square);
      focusSquare(square);
      act(square);
    });
    board.addEventListener("keydown", function (event) {
      var target = event.target.closest("[data-square]");
      if (!target) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        act(Number(target.dataset.square));
      } else if (event.key === "Escape") {
        state.clicks = [];
        drawPieces();
        say("Move cancelled.");
      } else if (/^(Arrow|Home|End)/.test(event.key)) {
        event.preventDefault();
        moveFocus(event.key, event.ctrlKey);
      }
    });
    $("start-position").addEventListener("click", function () { setPosition(START); });
    $("empty-board").addEventListener("click", function () { setPosition(EMPTY); });
    $("no-move").addEventListener("click", function () { setPosition(state.fen); });
    $("turn").addEventListener("click", function () {
      setPosition((state.turn === "white" ? "B" : "W") + state.fen.slice(1)).then(function () {
        say((state.turn === "white" ? "White" : "Black") + " to move.");
      });
    });
    $("flip").addEventListener("click", function () {
      state.flip = !state.flip;
      $("flip").setAttribute("aria-pressed", state.flip ? "true" : "false");
      buildBoard();
    });
    var typing = null;
    $("fen-form").addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(typing);
      setPosition($("fen").value).then(function () { say("Position shown."); });
    });
    $("fen").addEventListener("input", function () {
      clearTimeout(typing);
      typing = setTimeout(function () {
        if ($("fen").value === state.fen) return;
        post("/api/position", { position: $("fen").value })
          .then(function (answer) { showPosition(answer); say("Position shown."); })
          .catch(function (error) { say(error.message); });
      }, 400);
    });
    $("claim").addEventListener("change", function () { chooseClaim(); });
    $("rule").addEventListener("change", function () {
      if (state.draft) state.draft.rule = $("rule").value;
      schedulePreview();
    });
    $("reason").addEventListener("change", function () {
      if (state.draft) state.draft.reason = $("reason").value;
      schedulePreview();
    });
    ["title", "caption", "question", "ask", "name"].forEach(function (id) {
      $(id).addEventListener("input", schedulePreview);
    });
    $("is-exercise").addEventListener("change", function () {
      $("exercise-row").hidden = !$("is-exercise").checked;
      schedulePreview();
    });
    $("diagram-form").addEventListener("submit", function (event) { event.preventDefault(); });
    $("save-form").addEventListener("submit", save);
    $("open-form").addEventListener("submit", open);
    loadNames().then(function () {
      fillStatic();
      return setPosition(START);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
