/*
 * The board editor's page.  It draws the board and the forms, and asks the
 * server for everything else: which positions are possible, which moves are
 * legal, which claims hold, the preview and the save.  It never decides
 * legality itself.  Text from the author or the server goes in with
 * textContent; only the server's figure and table, which the server escaped,
 * go in as HTML.
 *
 * Nothing is lost: every change to the draft is a step of its history (undo,
 * redo), and the draft is kept in localStorage, under the key the server
 * names for its project folder, until it is saved.
 */
(function () {
  "use strict";

  var START = "W:W21-32:B1-12";
  var EMPTY = "W:W:B";
  var state = {
    fen: START, turn: "white", squares: {}, legal: [], move: null, claims: [],
    draft: null, flip: false, clicks: [], focus: 1, name: null, opened: null,
    /* how the file gives the board: null a FEN, {moves}, {game, number, after}, a mapping
       {turn, white, black}; undefined: as the opened file writes it (a mapping redrawn) */
    origin: null,
    pendingOrigin: null,  /* {value}: the origin of the board the next answer shows */
  };
  var $ = function (id) { return document.getElementById(id); };
  var previewTimer = null;

  /* The page's language, and its words for this script: the server writes them into the page
     as {"English": "translation"}.  Every sentence the page shows goes through t(). */
  var LANG = document.documentElement.getAttribute("lang") || "en";
  var WORDS = (function () {
    var element = document.getElementById("editor-words");
    try { return element ? JSON.parse(element.textContent) || {} : {}; } catch (error) { return {}; }
  })();

  /* the English sentence in the page's language, its {name} placeholders filled from values */
  function t(english, values) {
    var text = Object.prototype.hasOwnProperty.call(WORDS, english) && WORDS[english] ?
      WORDS[english] : english;
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ?
        String(values[name]) : whole;
    });
  }

  /* a square's content ("white man", as the server names it) in words of the page */
  function pieceName(content) {
    switch (content) {
      case "white man": return t("white man");
      case "white king": return t("white king");
      case "black man": return t("black man");
      case "black king": return t("black king");
      case "empty": return t("empty");
      default: return content;
    }
  }

  /* the same with its article, inside a sentence: "it holds a white man" */
  function pieceWithArticle(content) {
    switch (content) {
      case "white man": return t("a white man");
      case "white king": return t("a white king");
      case "black man": return t("a black man");
      case "black king": return t("a black king");
      default: return t("no piece");
    }
  }

  /* a claim of a diagram file ("multi-capture") in words */
  function claimName(claim) {
    switch (claim) {
      case "setup": return t("the position");
      case "move": return t("a move");
      case "capture": return t("a capture");
      case "multi-capture": return t("a multiple capture");
      case "illegal": return t("a move that is not allowed");
      case "priority": return t("priority");
      case "free-choice": return t("free choice");
      case "promotion": return t("promotion");
      case "game-over": return t("game over");
      default: return claim;
    }
  }

  /* why a move is not allowed, or why a game is over ("man-takes-king") in words */
  function reasonName(reason) {
    switch (reason) {
      case "backward": return t("a man never captures backwards");
      case "man-takes-king": return t("a man may not capture a king");
      case "capture-compulsory": return t("a capture is available, and capturing is compulsory");
      case "priority": return t("another capture has priority");
      case "occupied": return t("the landing square is not empty");
      case "not-diagonal": return t("pieces only move along the diagonals");
      case "no-piece": return t("there is no piece on the starting square");
      case "nothing-to-capture": return t("there is no opposing piece to capture");
      case "jumped-twice": return t("a piece cannot be captured twice");
      case "no-pieces": return t("the side to move has no pieces left");
      case "blocked": return t("the side to move has no legal move");
      default: return reason;
    }
  }

  /* "White to move." in words of the page */
  function toMove(turn) { return turn === "white" ? t("White to move.") : t("Black to move."); }

  /* Material's page hook, for the site's figure scripts (step controls): called after a preview. */
  var pageHooks = [];
  window.document$ = { subscribe: function (run) { pageHooks.push(run); } };

  function post(path, data) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(Object.assign({}, data, { lang: LANG })),
    }).then(function (response) {
      return response.json().then(function (body) {
        if (!response.ok) {
          var error = new Error(body.error || t("the editor refused the request"));
          error.status = response.status;
          error.body = body;
          throw error;
        }
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
      line.setAttribute("aria-label", t("row {number}", { number: row + 1 }));
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
      var words = { square: square, content: pieceName(content) };
      element.setAttribute("aria-label", clicked ? t("square {square}, {content}, chosen", words) :
        t("square {square}, {content}", words));
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

  /* the keys that put a piece on the focused square, as the on-page help lists them */
  var PIECE_KEYS = {
    w: "white man", W: "white king", b: "black man", B: "black king",
    1: "white man", 2: "white king", 3: "black man", 4: "black king",
    Delete: "empty", Backspace: "empty",
  };

  function mode() { return document.querySelector('input[name="mode"]:checked').value; }

  /* Board actions one after another: each starts from the position the last one made. */
  var queue = Promise.resolve();
  function act(square) {
    queue = queue.then(function () { return actNow(square); });
  }

  function palette() { return document.querySelector('input[name="palette"]:checked').value; }

  /* the position with one square's content changed: the engine still says whether it may be */
  function fenWith(square, content, also, alsoContent) {
    var sides = { white: [], black: [] };
    for (var n = 1; n <= 32; n++) {
      var here = n === square ? content : n === also ? alsoContent :
        state.squares[String(n)] || "empty";
      if (here === "empty") continue;
      var parts = here.split(" ");
      sides[parts[0]].push((parts[1] === "king" ? "K" : "") + n);
    }
    return (state.turn === "white" ? "W" : "B") + ":W" + sides.white.join(",") +
      ":B" + sides.black.join(",");
  }

  /* the same position with the sides exchanged: the board turned round (square n to 33 - n),
     each piece of the other colour, the other side to move */
  function swappedFen() {
    var sides = { white: [], black: [] };
    for (var n = 32; n >= 1; n--) {
      var here = state.squares[String(n)];
      if (!here) continue;
      var parts = here.split(" ");
      sides[parts[0] === "white" ? "black" : "white"].push(
        (parts[1] === "king" ? "K" : "") + (33 - n));
    }
    return (state.turn === "white" ? "B" : "W") + ":W" + sides.white.join(",") +
      ":B" + sides.black.join(",");
  }

  /* one square given one content (a palette click or a key): one step of the history */
  function put(square, content) {
    queue = queue.then(function () {
      return post("/api/position", { position: fenWith(square, content) })
        .then(function (answer) {
          showPosition(answer);
          say(t("Square {square}: {content}.", {
            square: square, content: pieceName(answer.squares[String(square)] || "empty"),
          }));
        })
        .catch(function (error) {
          say(t("Square {square} not changed: {error}", { square: square, error: error.message }));
        });
    });
  }

  /* a piece dragged to another square: one step, the square it left emptied */
  function drag(from, to) {
    queue = queue.then(function () {
      var piece = state.squares[String(from)];
      if (!piece) return;
      return post("/api/position", { position: fenWith(to, piece, from, "empty") })
        .then(function (answer) {
          showPosition(answer);
          say(t("The {piece} moved from {from} to {to}.", {
            piece: pieceName(piece), from: from, to: to,
          }));
        })
        .catch(function (error) { say(t("Not moved: {error}", { error: error.message })); });
    });
  }

  function actNow(square) {
    if (mode() === "setup" && palette() !== "cycle") {
      var chosen = palette();
      var now = state.squares[String(square)] || "empty";
      put(square, now === chosen ? "empty" : chosen);
      return;
    }
    if (mode() === "setup") {
      return post("/api/position", { position: state.fen, cycle: square })
        .then(function (answer) {
          showPosition(answer);
          var now = answer.squares[String(square)] || "empty";
          var refused = answer.refused.length ? answer.refused.join("; ") + ". " : "";
          say(refused + t("Square {square}: {content}.", { square: square, content: pieceName(now) }));
        })
        .catch(function (error) { say(error.message); });
      return;
    }
    if (state.clicks.length && state.clicks[0] === square && state.clicks.length === 1) {
      state.clicks = [];
      drawPieces();
      say(t("Move cancelled."));
      return;
    }
    var piece = state.squares[String(square)] || "";
    if (!state.clicks.length && piece.indexOf(state.turn) !== 0) {
      /* refused at the first click: a move starts from a piece of the side to move */
      var holds = { square: square, piece: pieceWithArticle(piece) };
      say(state.turn === "white" ?
        t("No move starts on {square}: it holds {piece}, and White is to move. Start on one of White's pieces.", holds) :
        t("No move starts on {square}: it holds {piece}, and Black is to move. Start on one of Black's pieces.", holds));
      return;
    }
    state.clicks.push(square);
    drawPieces();
    if (state.clicks.length === 1) {
      say(t("From {square}: now the square where it lands.", { square: square }));
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
        say(answer.status === "move" ? t("Move {move} chosen.", { move: answer.move }) :
          answer.message);
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

  /* the end of a game in words, not in the file's ids ("black wins (no-pieces)") */
  function gameOverWords(over) {
    var white = over.winner === "white";
    if (over.reason === "no-pieces") {
      return white ? t("The game is over: White wins; Black has no pieces left.") :
        t("The game is over: Black wins; White has no pieces left.");
    }
    if (over.reason === "blocked") {
      return white ? t("The game is over: White wins; Black has no move left.") :
        t("The game is over: Black wins; White has no move left.");
    }
    return white ? t("The game is over: White wins.") : t("The game is over: Black wins.");
  }

  function showAnalysis(answer) {
    $("fen").removeAttribute("aria-invalid");
    var dropped = false;
    if (state.pendingOrigin) {
      state.origin = state.pendingOrigin.value;
      state.pendingOrigin = null;
    } else if (answer.fen !== state.fen && state.origin) {
      /* a board set up by hand: moves or a game no longer give it */
      dropped = !isMapping(state.origin);
      state.origin = isMapping(state.origin) ? undefined : null;
    }
    state.fen = answer.fen;
    state.turn = answer.turn;
    state.squares = answer.squares;
    state.legal = answer.legal;
    state.claims = answer.claims;
    $("fen").value = answer.fen;
    $("turn-now").textContent = toMove(answer.turn);
    drawPieces();
    var over = $("game-over");
    over.hidden = !answer.game_over;
    if (answer.game_over) {
      over.textContent = gameOverWords(answer.game_over);
    }
    var list = $("moves");
    var listFocused = list.contains(document.activeElement);
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
    if (listFocused) {  /* the list rebuilt: the focus back on the move chosen, not the page */
      var pressed = list.querySelector('button[aria-pressed="true"]') ||
        list.querySelector("button");
      if (pressed) pressed.focus();
    }
    if (!answer.legal.length) {
      var none = document.createElement("li");
      none.textContent = t("none");
      list.appendChild(none);
    }
    var chosen = answer.move;
    $("chosen").textContent = !chosen ? t("No move chosen: the diagram shows the position.") :
      chosen.legal ? t("Chosen: {move}.", { move: chosen.move }) :
      t("Chosen: {move}, which is not legal: {detail}", { move: chosen.move, detail: chosen.detail });
    var count = { count: answer.legal.length };
    var white = answer.turn === "white";
    var moves = count.count === 1 ?
      (white ? t("White to move, 1 legal move") : t("Black to move, 1 legal move")) :
      (white ? t("White to move, {count} legal moves", count) :
        t("Black to move, {count} legal moves", count));
    $("engine-summary").textContent = answer.game_over ? over.textContent :
      moves + (answer.explain_summary ? "; " + answer.explain_summary : ".");
    /* the server's table: every text in it escaped there */
    $("explain").innerHTML = answer.explain || "";
    $("play-move").disabled = !(chosen && chosen.legal);
    showOrigin(dropped);
    showClaims();
  }

  function isMapping(origin) { return !!origin && !origin.moves && !origin.game; }

  /* how the file will give the board, in words; a board from moves or a game can become a FEN */
  function showOrigin(dropped) {
    var origin = state.origin;
    var words;
    if (origin && origin.moves) {
      words = t("The file gives this board as the moves from the start: {moves}.",
        { moves: origin.moves.join(" ") });
    } else if (origin && origin.game) {
      var where = { game: origin.game, number: origin.number || 1, after: origin.after };
      words = origin.after ?
        t("The file gives this board as game {number} of {game}, after move {after}.", where) :
        t("The file gives this board as the end of game {number} of {game}.", where);
      /* a move number ends in its own dot ("5.", "5..."): the sentence takes no second one */
      if (origin.after && /\.$/.test(origin.after) && words.endsWith(origin.after + ".")) {
        words = words.slice(0, -1);
      }
    } else if (origin || origin === undefined) {
      words = t("The file gives this board as the pieces of each side, square by square.");
    } else {
      words = t("The file gives this board as a position string (FEN).");
    }
    if (dropped) {
      words = t("The board was changed by hand, so moves no longer give it.") + " " + words;
    }
    $("origin-now").textContent = words;
    $("origin-fen").hidden = !(origin && (origin.moves || origin.game));
  }

  function claimLabel(option) {
    var words = claimName(option.claim);
    if (option.rule) {  /* "priority: 30x21x14x5 (rule 4 rules out 30x23x16x7)" */
      return words + ": " + option.move + " (" + t("rule {number} rules out {moves}", {
        number: ruleNumber(option.rule), moves: (option.rejected || []).join(", "),
      }) + ")";
    }
    if (option.reason) words += ", " + reasonName(option.reason);
    if (option.move) words += ": " + option.move;
    else if (option.moves) words += ": " + option.moves.join(", ");
    return words;
  }

  function ruleNumber(value) {
    var index = choices.rules.map(function (rule) { return rule.value; }).indexOf(value);
    return index < 0 ? value : String(index + 1);
  }

  function ruleName(value) {
    var found = choices.rules.filter(function (rule) { return rule.value === value; })[0];
    return found ? found.label : value;
  }

  function showClaims(kept, said) {
    var select = $("claim");
    select.textContent = "";
    var options = state.claims.slice();
    if (kept) {
      var same = options.filter(function (option) { return sameClaim(option, kept); })[0];
      if (!same) {
        options.unshift(Object.assign({}, kept, { summary: said || t("as in the file") }));
      }
    }
    fillSelect(select, options.map(function (option, index) {
      return [String(index), claimLabel(option)];
    }));
    /* each option names its claim as the file writes it, for tools that drive the page */
    Array.prototype.forEach.call(select.options, function (element, index) {
      var option = options[index];
      element.dataset.claim = option.claim;
      element.dataset.move = option.move || "";
      element.dataset.moves = (option.moves || []).join(" ");
      element.dataset.rule = option.rule || "";
      element.dataset.reason = option.reason || "";
    });
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
    $("claim-summary").textContent = option ?
      t("The engine: {summary}", { summary: option.summary }) : "";
    $("rule-row").hidden = !(state.draft && state.draft.claim === "priority");
    $("reason-row").hidden = !(state.draft && state.draft.reason);
    if (state.draft && state.draft.rule) fillRules(state.draft);
    if (state.draft && state.draft.reason) fillReasons(state.draft);
    showRejectable(option);
    showDisplayOptions(option);
    schedulePreview();
    record();
  }

  /* the claims of the same kind and move that hold here: a menu switches between them only */
  function holdingAlike(draft) {
    return (state.options || []).filter(function (option) {
      return option.claim === draft.claim && (option.move || null) === (draft.move || null);
    });
  }

  function fillRules(draft) {
    fillSelect($("rule"), holdingAlike(draft).filter(function (option) { return option.rule; })
      .map(function (option) { return [option.rule, ruleName(option.rule)]; }));
    $("rule").value = draft.rule;
  }

  function fillReasons(draft) {
    fillSelect($("reason"), holdingAlike(draft).filter(function (option) { return option.reason; })
      .map(function (option) { return [option.reason, reasonName(option.reason)]; }));
    $("reason").value = draft.reason;
  }

  /* the rule or reason menu chose another holding claim: the claim menu follows */
  function switchClaim(key, value) {
    var options = state.options || [];
    for (var index = 0; index < options.length; index++) {
      var option = options[index];
      if (option[key] === value && option.claim === state.draft.claim &&
          (option.move || null) === (state.draft.move || null)) {
        $("claim").value = String(index);
        chooseClaim();
        return;
      }
    }
  }

  /* a capture claim's steps that compulsory capture rules out: ticked ones are drawn refused */
  function showRejectable(option) {
    var steps = (option && option.may_reject) || [];
    var row = $("reject-row"), box = $("reject-steps");
    row.hidden = !steps.length;
    box.textContent = "";
    var ticked = (state.draft && state.draft.rejected) || [];
    steps.forEach(function (step) {
      var label = document.createElement("label");
      var input = document.createElement("input");
      input.type = "checkbox";
      input.value = step;
      input.checked = ticked.indexOf(step) >= 0;
      input.addEventListener("change", function () {
        state.draft.rejected = Array.prototype.filter.call(
          box.querySelectorAll("input:checked"), function () { return true; })
          .map(function (each) { return each.value; });
        schedulePreview();
        record();
      });
      label.appendChild(input);
      label.appendChild(document.createTextNode(" " + step));
      box.appendChild(label);
    });
  }

  /* -- display options ------------------------------------------------------ */

  var SHOW_DEFAULTS = { arrows: true, turn: true, flip: false, steps: true };

  /* only the options that apply to the claim are shown, and sent */
  function showDisplayOptions(option) {
    var applies = (option && option.show_options) || [];
    ["numbers", "arrows", "turn", "flip", "steps"].forEach(function (key) {
      $("show-" + key + "-row").hidden = applies.indexOf(key) < 0;
    });
  }

  function showFields() {
    var option = (state.options || [])[Number($("claim").value)];
    var applies = (option && option.show_options) || [];
    var show = {};
    if (applies.indexOf("numbers") >= 0 && $("show-numbers").value) {
      show.numbers = $("show-numbers").value;
    }
    Object.keys(SHOW_DEFAULTS).forEach(function (key) {
      if (applies.indexOf(key) >= 0 && $("show-" + key).checked !== SHOW_DEFAULTS[key]) {
        show[key] = $("show-" + key).checked;
      }
    });
    return Object.keys(show).length ? show : null;
  }

  /* the inputs set from a file's show (numbers: true is all) or from showInputs() */
  function setShowInputs(show) {
    show = show || {};
    var numbers = show.numbers === true ? "all" : show.numbers === false ? "none" : show.numbers;
    $("show-numbers").value = numbers || "";
    Object.keys(SHOW_DEFAULTS).forEach(function (key) {
      $("show-" + key).checked = key in show ? !!show[key] : SHOW_DEFAULTS[key];
    });
  }

  function showInputs() {
    var values = { numbers: $("show-numbers").value };
    Object.keys(SHOW_DEFAULTS).forEach(function (key) { values[key] = $("show-" + key).checked; });
    return values;
  }

  /* -- the diagram -------------------------------------------------------- */

  var CLAIM_FIELDS = ["claim", "move", "moves", "rule", "rejected", "reason"];

  function diagram() {
    if (!state.draft) return null;
    var fields = {};
    CLAIM_FIELDS.forEach(function (key) {
      if (state.draft[key] !== undefined) fields[key] = state.draft[key];
    });
    fields.position = state.fen;
    if (state.origin !== undefined) fields.origin = state.origin;
    fields.show = showFields();
    fields.note = $("note").value;
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
        $("preview-summary").textContent =
          t("dama-diagrams verify: holds. {summary}", { summary: answer.summary });
        pageHooks.forEach(function (run) { run(); });
      })
      .catch(function (error) {
        if (mine !== previews) return;
        $("preview").textContent = "";
        $("preview-summary").textContent = "";
        /* no stale file text under a refusal */
        $("yaml").textContent = t("None: this diagram cannot be saved as it is.");
        $("preview-error").textContent = /^the name/i.test(error.message) ?
          t("The name is refused: {error}", { error: error.message }) :
          t("The engine refuses this diagram: {error}", { error: error.message });
      });
  }

  function save(event) {
    event.preventDefault();
    saveAs(request());
  }

  /* Save as: a new file under the name typed; the opened one is left as it is. */
  function saveAsNew() {
    var data = request();
    delete data.opened;
    if (state.opened && data.name === state.name) {
      $("save-result").textContent = "";
      $("save-error").textContent = t("Save as writes a new file: type its new name first.");
      $("name").focus();
      return;
    }
    saveAs(data);
  }

  function saveAs(data) {
    $("save-result").textContent = "";
    $("save-error").textContent = "";
    if (!data.diagram) {
      $("save-error").textContent = t("Set up a position first: there is no claim to save.");
      return;
    }
    post("/api/save", data)
      .then(function (answer) {
        state.name = data.name;
        state.opened = answer.opened;
        $("opened").textContent = t("Editing {file}.", { file: answer.saved });
        $("save-result").textContent = answer.message;
        $("yaml").textContent = answer.yaml;
        flushTyping();
        baseline = JSON.stringify(snapshot());
        keep();
        note("");
        loadNames();
      })
      .catch(function (error) {
        var shown = "diagrams/" + data.name + ".yaml";
        if (error.status === 409 && error.body && error.body.exists) {
          /* another file has this name: replaced only if the author says so, here and now */
          confirmFirst(
            t("{error}. Replace {file} with this diagram? Its present text is lost.",
              { error: error.message, file: shown }),
            t("Replace {file}", { file: shown }),
            function () {
              var again = Object.assign({}, data, { replace: error.body.exists });
              delete again.opened;
              saveAs(again);
            },
            function () {
              $("save-error").textContent = t(
                "Not saved: {file} already exists and was not replaced; choose another name.",
                { file: shown });
              $("name").focus();
            });
          return;
        }
        $("save-error").textContent = t("Not saved: {error}", { error: error.message });
      });
  }

  function open(event) {
    event.preventDefault();
    var name = $("open-name").value;
    whenNothingIsLost(
      t("Open {file}? Your unsaved changes are lost.", { file: "diagrams/" + name + ".yaml" }),
      t("Open it"), function () { openNow(name); });
  }

  function openNow(name) {
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
        $("opened").textContent = t("Editing {file}.", { file: "diagrams/" + answer.name + ".yaml" });
        $("note").value = "";
        setShowInputs(fields.show);
        var kept = {
          claim: fields.claim, move: fields.move, moves: fields.moves, rule: fields.rule,
          rejected: fields.rejected, reason: fields.reason,
        };
        return post("/api/position", { position: fields.position, move: fields.move })
          .then(function (analysis) {
            state.move = fields.move;
            state.clicks = [];
            state.draft = kept;
            state.pendingOrigin = { value: "origin" in fields ? fields.origin : undefined };
            showAnalysis(analysis);
            showClaims(kept);
            resetHistory();
            note("");
            say(t("Opened {file}.", { file: "diagrams/" + answer.name + ".yaml" }));
          });
      })
      .catch(function (error) {
        $("save-error").textContent = t("Not opened: {error}", { error: error.message });
      });
  }

  /* -- nothing lost: the history, the kept draft, New ---------------------- */

  var history = [];      /* the draft after each change, as JSON; history[at] is now */
  var at = -1;
  var baseline = null;   /* the draft as last saved, opened or started: no unsaved work */
  var restoring = false; /* an undo or a restore is under way: it is no new step */
  var typingTimer = null;
  var storageKey = null;

  function snapshot() {
    var draft = state.draft ? Object.assign({}, state.draft) : null;
    if (draft) delete draft.summary;
    return {
      fen: state.fen, move: state.move || null, draft: draft, title: $("title").value,
      caption: $("caption").value, name: $("name").value,
      exercise: $("is-exercise").checked, ask: $("ask").value, question: $("question").value,
      origin: state.origin === undefined ? "as written" : state.origin, show: showInputs(),
      note: $("note").value,
    };
  }

  function unsaved() { return baseline !== null && JSON.stringify(snapshot()) !== baseline; }

  function record() {
    if (restoring || baseline === null) return;
    var now = JSON.stringify(snapshot());
    if (history[at] !== now) {
      history = history.slice(0, at + 1);
      history.push(now);
      if (history.length > 200) history.shift();
      at = history.length - 1;
    }
    keep();
    showHistory();
  }

  function resetHistory() {
    clearTimeout(typingTimer);
    baseline = JSON.stringify(snapshot());
    history = [baseline];
    at = 0;
    keep();
    showHistory();
  }

  /* what is typed is a step once the typing pauses; kept at once all the same */
  function typed() {
    keep();
    clearTimeout(typingTimer);
    typingTimer = setTimeout(record, 600);
  }

  function flushTyping() {
    if (typingTimer === null) return;
    clearTimeout(typingTimer);
    typingTimer = null;
    record();
  }

  function showHistory() {
    var undo = $("undo"), redo = $("redo");
    var focused = document.activeElement;
    undo.disabled = at <= 0;
    redo.disabled = at >= history.length - 1;
    /* the button pressed last turned off: the focus goes to its twin, not to the page */
    if (focused === undo && undo.disabled && !redo.disabled) redo.focus();
    if (focused === redo && redo.disabled && !undo.disabled) undo.focus();
  }

  /* after the board's actions still under way, so each undo takes back the latest */
  function step(by) {
    flushTyping();
    queue = queue.then(function () {
      flushTyping();
      if (at + by < 0 || at + by >= history.length) return;
      at += by;
      restoring = true;
      return restore(JSON.parse(history[at]), t("as before"))
        .then(function () { say(by < 0 ? t("Undone.") : t("Redone.")); },
          function (error) { say(error.message); })
        .then(function () { restoring = false; keep(); showHistory(); });
    });
  }

  /* a draft put back: its position and move asked of the engine, its fields filled */
  function restore(draft, said) {
    return post("/api/position", { position: draft.fen, move: draft.move })
      .then(function (analysis) {
        $("title").value = draft.title;
        $("caption").value = draft.caption;
        $("name").value = draft.name;
        $("is-exercise").checked = draft.exercise;
        $("exercise-row").hidden = !draft.exercise;
        if (draft.ask) $("ask").value = draft.ask;
        $("question").value = draft.question;
        $("note").value = draft.note || "";
        setShowInputs(draft.show);
        state.move = draft.move;
        state.clicks = [];
        state.draft = draft.draft;
        state.pendingOrigin = {
          value: draft.origin === "as written" ? undefined : draft.origin || null,
        };
        showAnalysis(analysis);
        if (draft.draft) showClaims(draft.draft, said);
      });
  }

  /* the draft in localStorage while it holds unsaved work; gone once saved or discarded */
  function keep() {
    if (!storageKey) return;
    try {
      if (unsaved()) {
        localStorage.setItem(storageKey, JSON.stringify({
          draft: snapshot(), baseline: baseline, name: state.name, opened: state.opened,
        }));
      } else {
        localStorage.removeItem(storageKey);
      }
    } catch (error) { /* no storage (a private window, full): the warning on leaving stays */ }
  }

  function storedDraft() {
    try {
      var kept = JSON.parse(localStorage.getItem(storageKey) || "null");
      return kept && kept.draft && typeof kept.draft.fen === "string" ? kept : null;
    } catch (error) { return null; }
  }

  function restoreStored(kept) {
    restoring = true;
    return restore(kept.draft, t("as in your draft"))
      .then(function () {
        state.name = kept.name || null;
        state.opened = kept.opened || null;
        $("opened").textContent = state.opened ?
          t("Editing {file}.", { file: "diagrams/" + state.name + ".yaml" }) : "";
        restoring = false;
        history = [JSON.stringify(snapshot())];
        at = 0;
        if (typeof kept.baseline === "string") baseline = kept.baseline;
        keep();
        showHistory();
        note(t("Restored your unsaved draft."), true);
      }, function () { restoring = false; });
  }

  function note(text, discard) {
    $("draft-note").textContent = text;
    $("discard").hidden = !discard;
  }

  function newDiagram() {
    queue = queue.then(newDiagramNow);
    return queue;
  }

  function newDiagramNow() {
    clearTimeout(typingTimer);
    restoring = true;
    state.name = null;
    state.opened = null;
    state.draft = null;
    ["title", "caption", "name", "question", "note"].forEach(function (id) { $(id).value = ""; });
    setShowInputs(null);
    state.pendingOrigin = { value: null };
    $("is-exercise").checked = false;
    $("exercise-row").hidden = true;
    $("opened").textContent = "";
    $("save-result").textContent = "";
    $("save-error").textContent = "";
    $("yaml").textContent = "";
    $("preview").textContent = "";
    return setPosition(START).then(function () {
      restoring = false;
      resetHistory();
      focusSquare(state.focus);
      say(t("A new diagram: the start position, no file opened."));
    }, function () { restoring = false; });
  }

  /* run now, or after the author confirms losing the unsaved work */
  function whenNothingIsLost(question, yes, run) {
    flushTyping();
    if (!unsaved()) {
      run();
      return;
    }
    confirmFirst(question, yes, run);
  }

  function confirmFirst(question, yes, run, otherwise) {
    var dialog = $("confirm");
    $("confirm-text").textContent = question;
    $("confirm-yes").textContent = yes;
    dialog.returnValue = "";
    dialog.onclose = function () {
      dialog.onclose = null;
      if (dialog.returnValue === "yes") run();
      else if (otherwise) otherwise();
    };
    dialog.showModal();
  }

  var choices = { rules: [], illegal_reasons: [], game_over_reasons: [], asks: [] };

  function loadNames() {
    return fetch("/api/start?lang=" + encodeURIComponent(LANG)).then(function (response) { return response.json(); })
      .then(function (answer) {
        choices = answer;
        var select = $("open-name");
        var current = select.value;
        fillSelect(select, answer.diagrams.map(function (name) { return [name, name]; }));
        if (current) select.value = current;
        var games = answer.games || [];
        fillSelect($("game-file"), games.length ?
          games.map(function (name) { return [name, name]; }) :
          [["", t("none: put a PDN file in games/ to take a position from it")]]);
        $("game-form").querySelectorAll("select, input, button").forEach(function (control) {
          control.disabled = !games.length;
        });
        if (!games.length) $("game-after").textContent = "";
      });
  }

  function fillStatic() {
    var pair = function (each) { return [each.value, each.label]; };
    fillSelect($("rule"), choices.rules.map(pair));
    fillSelect($("ask"), choices.asks.map(pair));
  }

  /* -- where the board comes from: moves played, a game's position ------- */

  /* the chosen move played: the board after it; from the start, the moves are kept */
  function playMove() {
    var move = state.move;
    if (!move) return;
    queue = queue.then(function () {
      var origin = state.origin === undefined ? null : state.origin;
      return post("/api/play", { position: state.fen, move: move, origin: origin })
        .then(function (answer) {
          state.pendingOrigin = { value: answer.origin };
          return setPosition(answer.position);
        })
        .then(function () {
          say(t("Played {move}: the board is the position after it.", { move: move }));
          var first = $("moves").querySelector("button");
          if (first) first.focus();
        })
        .catch(function (error) { say(error.message); });
    });
  }

  /* a game's moves listed to choose from; with show, the board after the move chosen */
  function readGame(after, show) {
    var number = Number($("game-number").value) || 1;
    var data = { game: $("game-file").value, number: number };
    if (after) data.after = after;
    queue = queue.then(function () {
      return post("/api/game", data)
        .then(function (answer) {
          var select = $("game-after");
          var chosen = select.value;
          fillSelect(select, [["", t("the last move (the final position)")]].concat(
            answer.moves.map(function (each) { return [each.after, each.after + " " + each.move]; })));
          select.value = show ? (after || "") : chosen;
          if (!show) {
            say(t("{game}, game {number}: {count} moves, {white} against {black}.", {
              game: answer.game, number: answer.number, count: answer.moves.length,
              white: answer.white, black: answer.black,
            }));
            return;
          }
          state.pendingOrigin = { value: answer.origin };
          return setPosition(answer.position).then(function () {
            say(t("The board is the game's position: {moves}.",
              { moves: answer.sequence.join(" ") || t("the start") }));
          });
        })
        .catch(function (error) { say(error.message); });
    });
  }

  /* the claim's suggested title and caption, to start from */
  function suggest() {
    var option = (state.options || [])[Number($("claim").value)];
    if (!option || !option.suggested) return;
    var played = state.origin && (state.origin.moves || state.origin.game);
    var words = played && option.suggested_played ? option.suggested_played : option.suggested;
    flushTyping();
    $("title").value = words.title;  /* English, as the file keeps it: the catalogs translate */
    $("caption").value = words.caption;
    schedulePreview();
    record();
    say(t("The suggested title and caption are in their boxes: rewrite them at will."));
  }

  /* -- the FEN box: what authors paste, and a copy ----------------------- */

  /* a FEN as pasted: in its quotes, as a PDN tag [FEN "…"], with lidraughts' :H0:F1 */
  function pastedFen(text) {
    var fen = text.trim();
    var tag = /^\[\s*FEN\s+["\u201c\u201d](.*)["\u201c\u201d]\s*\]$/i.exec(fen);
    if (tag) fen = tag[1].trim();
    fen = fen.replace(/^["'\u201c\u201d\u2018\u2019]+|["'\u201c\u201d\u2018\u2019]+$/g, "");
    fen = fen.trim().replace(/(\s*:\s*[HF]\s*\d+)+\s*\.?$/i, "");
    return fen;
  }

  /* a refused FEN stays in its box to be mended, marked invalid; the board keeps its own */
  function refusedFen(error) {
    $("fen").setAttribute("aria-invalid", "true");
    say(t("Not shown: {error}. The board still shows {fen}.", {
      error: error.message.replace(/\.$/, ""), fen: state.fen,
    }));
  }

  /* the copy made at once, in the click, through a box out of sight (the focus stays on the
     button); where the browser refuses that, through navigator.clipboard */
  function copyFen() {
    var fen = state.fen;
    var button = document.activeElement;
    var copied = function () { say(t("Copied: {fen}.", { fen: fen })); };
    var byHand = function () {
      var box = $("fen");
      box.value = fen;
      box.focus();
      box.select();
      say(t("Not copied: the position string is selected in its box, Ctrl+C copies it."));
    };
    var hidden = document.createElement("textarea");
    hidden.value = fen;
    hidden.setAttribute("readonly", "");
    hidden.setAttribute("aria-hidden", "true");
    hidden.style.position = "fixed";
    hidden.style.left = "-9999px";
    document.body.appendChild(hidden);
    hidden.select();
    var done = false;
    try { done = document.execCommand("copy"); } catch (error) { done = false; }
    document.body.removeChild(hidden);
    if (button && button.focus) button.focus();
    if (done) copied();
    else if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(fen).then(copied, byHand);
    } else byHand();
  }

  /* -- wiring ------------------------------------------------------------- */

  function keys(event) {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    var key = event.key.toLowerCase();
    if (key !== "z" && key !== "y") return;
    /* a text box keeps the browser's own undo of its typing */
    if (event.target.matches && event.target.matches("input[type=text], textarea")) return;
    if ($("confirm").open) return;
    event.preventDefault();
    step(key === "y" || event.shiftKey ? 1 : -1);
  }

  function start() {
    buildBoard();
    document.addEventListener("keydown", keys);
    /* another language: the draft is kept for the page in that language, nothing to ask */
    var switching = false;
    document.querySelectorAll("nav.languages a").forEach(function (link) {
      link.addEventListener("click", function () {
        flushTyping();
        keep();
        switching = true;
      });
    });
    window.addEventListener("beforeunload", function (event) {
      if (switching || !unsaved()) return;
      keep();
      event.preventDefault();
      event.returnValue = "";  /* the browser asks before leaving unsaved work */
    });
    $("undo").addEventListener("click", function () { step(-1); });
    $("redo").addEventListener("click", function () { step(1); });
    $("new-diagram").addEventListener("click", function () {
      whenNothingIsLost(t("Start a new diagram? Your unsaved changes to this one are lost."),
        t("Start a new diagram"), newDiagram);
    });
    $("discard").addEventListener("click", function () {
      newDiagram().then(function () { note(t("Your unsaved draft is discarded.")); });
    });
    $("confirm-yes").addEventListener("click", function () { $("confirm").close("yes"); });
    $("confirm-no").addEventListener("click", function () { $("confirm").close("no"); });
    $("save-as").addEventListener("click", saveAsNew);
    var board = $("board");
    board.addEventListener("click", function (event) {
      var target = event.target.closest("[data-square]");
      if (!target) return;
      var square = Number(target.dataset.square);
      focusSquare(square);
      act(square);
    });
    /* a drag with the mouse, a pen or a finger when setting up: the piece goes where it is let
       go; a press and release on one square stays a click.  While setting up, a finger on the
       board moves pieces rather than the page (the page scrolls beside the board). */
    var dragFrom = null;
    var touchForSetup = function () { board.style.touchAction = mode() === "setup" ? "none" : ""; };
    touchForSetup();
    document.querySelectorAll('input[name="mode"]').forEach(function (radio) {
      radio.addEventListener("change", touchForSetup);
    });
    board.addEventListener("pointerdown", function (event) {
      var target = event.target.closest("[data-square]");
      dragFrom = target && mode() === "setup" &&
        state.squares[target.dataset.square] ? Number(target.dataset.square) : null;
    });
    board.addEventListener("pointercancel", function () { dragFrom = null; });
    board.addEventListener("pointerup", function (event) {
      var from = dragFrom;
      dragFrom = null;
      if (from === null) return;
      var under = document.elementFromPoint(event.clientX, event.clientY);
      var target = under && under.closest("#board [data-square]");
      if (!target || Number(target.dataset.square) === from) return;
      focusSquare(Number(target.dataset.square));
      drag(from, Number(target.dataset.square));
    });
    board.addEventListener("keydown", function (event) {
      var target = event.target.closest("[data-square]");
      if (!target) return;
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        act(Number(target.dataset.square));
      } else if (PIECE_KEYS[event.key] && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        put(Number(target.dataset.square), PIECE_KEYS[event.key]);
      } else if (event.key === "Escape") {
        state.clicks = [];
        drawPieces();
        say(t("Move cancelled."));
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
        say(toMove(state.turn));
      });
    });
    $("flip").addEventListener("click", function () {
      state.flip = !state.flip;
      $("flip").setAttribute("aria-pressed", state.flip ? "true" : "false");
      buildBoard();
    });
    document.querySelectorAll('input[name="palette"]').forEach(function (radio) {
      radio.addEventListener("change", function () {
        /* a piece chosen is for setting up: a click then puts it, whatever the mode was */
        document.querySelector('input[name="mode"][value="setup"]').checked = true;
        touchForSetup();
        state.clicks = [];
        drawPieces();
      });
    });
    $("copy-fen").addEventListener("click", copyFen);
    $("swap").addEventListener("click", function () {
      var fen = swappedFen();
      queue = queue.then(function () {
        return setPosition(fen).then(function () {
          say(state.turn === "white" ?
            t("Colours swapped: White to move, each piece on the square across the board.") :
            t("Colours swapped: Black to move, each piece on the square across the board."));
        }, function () {});
      });
    });
    var typing = null;
    $("fen-form").addEventListener("submit", function (event) {
      event.preventDefault();
      clearTimeout(typing);
      setPosition(pastedFen($("fen").value)).then(function () { say(t("Position shown.")); },
        refusedFen);
    });
    $("fen").addEventListener("input", function () {
      clearTimeout(typing);
      typing = setTimeout(function () {
        if (pastedFen($("fen").value) === state.fen) return;
        post("/api/position", { position: pastedFen($("fen").value) })
          .then(function (answer) { showPosition(answer); say(t("Position shown.")); })
          .catch(refusedFen);
      }, 400);
    });
    $("claim").addEventListener("change", function () { chooseClaim(); });
    $("rule").addEventListener("change", function () { switchClaim("rule", $("rule").value); });
    $("reason").addEventListener("change", function () {
      switchClaim("reason", $("reason").value);
    });
    $("note").addEventListener("input", function () { schedulePreview(); typed(); });
    $("show-options").addEventListener("change", function () { schedulePreview(); record(); });
    $("suggest").addEventListener("click", suggest);
    $("play-move").addEventListener("click", playMove);
    $("origin-fen").addEventListener("click", function () {
      state.origin = null;
      showOrigin(false);
      schedulePreview();
      record();
      say(t("The file will give this board as a position string (FEN)."));
    });
    $("game-read").addEventListener("click", function () { readGame(null); });
    $("game-form").addEventListener("submit", function (event) {
      event.preventDefault();
      readGame($("game-after").value || null, true);
    });
    ["title", "caption", "question", "name"].forEach(function (id) {
      $(id).addEventListener("input", function () { schedulePreview(); typed(); });
    });
    $("ask").addEventListener("change", function () { schedulePreview(); record(); });
    $("is-exercise").addEventListener("change", function () {
      $("exercise-row").hidden = !$("is-exercise").checked;
      schedulePreview();
      record();
    });
    $("diagram-form").addEventListener("submit", function (event) { event.preventDefault(); });
    $("save-form").addEventListener("submit", save);
    $("open-form").addEventListener("submit", open);
    loadNames().then(function () {
      fillStatic();
      return setPosition(START).then(function () {
        resetHistory();
        storageKey = "dama-diagrams-editor:draft:" + choices.project;
        var kept = storedDraft();
        if (kept) return restoreStored(kept);
      });
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
