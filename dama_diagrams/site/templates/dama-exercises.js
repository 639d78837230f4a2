/*
 * Exercises: the reader plays the answer on the board.
 *
 * The page marks each exercise with data-exercise: every try the reader may
 * make (its squares) with the rules engine's verdict, worked out when the site
 * was built and written in the page's language; where each square sits on the
 * picture; and the words this script says.  So the script knows no rule and
 * asks no server: it compares the chosen squares with the tries.
 *
 * The reader chooses a piece, then each square it lands on, with the pointer
 * or the keyboard: the arrow keys move over the board, Enter or Space
 * chooses, Escape takes the last choice back.  A wrong answer says why and
 * offers "Try again"; the answer opens only when asked for, or once the move
 * is right.  Without this script the page shows the question and the answer
 * behind "show the answer", and the intro's words about playing on the board
 * (marked dama-needs-script) are hidden.  Solved
 * exercises are remembered in this browser's localStorage; nothing is sent.
 */
(function () {
  "use strict";

  var STORE = "dama-diagrams:solved-exercises";
  var refreshers = [];  // what shows progress on the current page: badges, the progress line

  document.addEventListener("dama-exercises-changed", function () {
    refreshers.forEach(function (refresh) { refresh(); });
  });

  function solvedSet() {
    try {
      var saved = JSON.parse(window.localStorage.getItem(STORE) || "{}");
      return saved && typeof saved === "object" ? saved : {};
    } catch (error) {
      return {};  // storage off or unreadable: progress is simply not kept
    }
  }

  function store(saved) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(saved));
    } catch (error) {
      /* storage full or off: the exercises still work */
    }
    document.dispatchEvent(new CustomEvent("dama-exercises-changed"));
  }

  function remember(id) {
    var saved = solvedSet();
    saved[id] = true;
    store(saved);
  }

  function pageIds() {
    return Array.prototype.map.call(
      document.querySelectorAll("[data-exercise-id]"),
      function (block) { return block.getAttribute("data-exercise-id"); }
    );
  }

  // "Solved in this browser: 3 of 12", with a button that forgets this page's exercises.
  function setUpProgress(line, words) {
    var text = element("span", "dama-exercise-progress-text");
    text.setAttribute("aria-live", "polite");
    var forget = element("button", "dama-exercise-button", words.forget);
    forget.type = "button";
    line.appendChild(text);
    line.appendChild(forget);
    forget.addEventListener("click", function () {
      var saved = solvedSet();
      pageIds().forEach(function (id) { delete saved[id]; });
      store(saved);
    });
    function count() {
      var saved = solvedSet(), ids = pageIds();
      var solved = ids.filter(function (id) { return saved[id]; }).length;
      text.textContent = fill(words.progress, { solved: String(solved), total: String(ids.length) });
      forget.disabled = solved === 0;
    }
    refreshers.push(count);
    count();
    line.hidden = false;
  }

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? values[name] : whole;
    });
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function setUp(block, data) {
    var image = block.querySelector("img.dama-exercise-board");
    if (!image) return;  // the question and the answer section stay, as without the script
    var id = block.getAttribute("data-exercise-id");
    var words = data.words;
    var answer = block.querySelector("details.dama-answer");
    var path = [];
    var finished = false;

    // The board: the picture, with a button on each dark square laid over it.
    var stage = element("div", "dama-exercise-stage");
    var holder = image.closest("p") || image;
    holder.parentNode.insertBefore(stage, holder);
    stage.appendChild(image);
    if (holder !== image && !holder.textContent.trim() && !holder.children.length) {
      holder.parentNode.removeChild(holder);
    }
    var grid = element("div", "dama-exercise-grid");
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", words.board);
    stage.appendChild(grid);

    var buttons = {};
    var squares = data.squares.map(function (info) {
      var button = element("button", "dama-exercise-square");
      var box = info.box;
      button.type = "button";
      button.tabIndex = -1;
      button.style.left = box[0] + "%";
      button.style.top = box[1] + "%";
      button.style.width = box[2] + "%";
      button.style.height = box[3] + "%";
      button.setAttribute("aria-label", info.label);
      button.setAttribute("data-square", String(info.square));
      button.addEventListener("click", function () {
        focusOn(info.square);
        goalLeft = info.box[0];
        choose(info.square);
      });
      grid.appendChild(button);
      buttons[info.square] = button;
      return info;
    });
    var pieces = {};
    squares.forEach(function (info) { pieces[info.square] = info.piece; });
    var focused = squares.filter(function (info) {
      return pieces[info.square].indexOf(data.side) === 0;
    })[0] || squares[0];
    buttons[focused.square].tabIndex = 0;
    var goalLeft = focused.box[0];

    // Controls, and the two live regions a screen reader announces.
    var controls = element("div", "dama-exercise-controls");
    var check = element("button", "dama-exercise-button", words.check);
    var undo = element("button", "dama-exercise-button", words.undo);
    var again = element("button", "dama-exercise-button", words.again);
    [check, undo, again].forEach(function (button) {
      button.type = "button";
      controls.appendChild(button);
    });
    again.hidden = true;
    var status = element("p", "dama-exercise-status");
    status.setAttribute("aria-live", "polite");
    var verdict = element("p", "dama-exercise-verdict");
    verdict.setAttribute("role", "status");
    stage.parentNode.insertBefore(controls, stage.nextSibling);
    controls.parentNode.insertBefore(status, controls.nextSibling);
    status.parentNode.insertBefore(verdict, status.nextSibling);

    var question = block.querySelector(".dama-exercise-question");
    var badge = element("span", "dama-exercise-solved", words.solved);
    function showBadge() { badge.hidden = !solvedSet()[id]; }
    showBadge();
    refreshers.push(showBadge);
    if (question) question.appendChild(badge);

    check.addEventListener("click", function () {
      var found = exactTry();
      if (found && !finished) judge(found);
    });
    undo.addEventListener("click", function () {
      takeBack();
      if (undo.disabled) buttons[focused.square].focus();  // never leave focus on nothing
    });
    again.addEventListener("click", function () {
      reset();
      if (answer) answer.open = false;  // a new try, with the answer closed again
      say(words.cleared);
      buttons[focused.square].focus();
    });
    block.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {
        event.preventDefault();
        takeBack();
      }
    });
    grid.addEventListener("keydown", onArrow);
    refresh();

    // The same words twice are not announced again unless the region empties first.
    var spoken = 0;
    function say(text) {
      var mine = (spoken += 1);
      if (text && status.textContent === text) {
        status.textContent = "";
        window.setTimeout(function () { if (mine === spoken) status.textContent = text; }, 100);
      } else {
        status.textContent = text;
      }
    }

    function written(squaresSoFar) {
      var capture = squaresSoFar.length > 1 && tries().some(function (each) {
        return each.capture && startsWith(each.path, squaresSoFar);
      });
      return squaresSoFar.join(capture ? "x" : "-");
    }

    function tries() { return data.tries; }

    function startsWith(full, part) {
      if (part.length > full.length) return false;
      for (var index = 0; index < part.length; index += 1) {
        if (full[index] !== part[index]) return false;
      }
      return true;
    }

    function exactTry() {
      return tries().filter(function (each) {
        return each.path.length === path.length && startsWith(each.path, path);
      })[0];
    }

    function longerTry() {
      return tries().some(function (each) {
        return each.path.length > path.length && startsWith(each.path, path);
      });
    }

    function own(square) { return pieces[square].indexOf(data.side) === 0; }

    function choose(square) {
      if (finished) reset();
      if (path.length === 0 || (own(square) && square !== path[0])) {
        if (own(square)) {
          path = [square];
          say(fill(words.chosen, { square: String(square) }));
        } else {
          say(words.choose);
        }
        refresh();
        return;
      }
      var longer = path.concat([square]);
      var reachable = tries().some(function (each) { return startsWith(each.path, longer); });
      if (!reachable) {
        var message = path.length > 1 ? words.only_jump : words.unreachable;
        say(fill(message, { square: String(square), from: String(path[path.length - 1]) }));
        return;
      }
      path = longer;
      var found = exactTry();
      if (found && !longerTry()) {
        judge(found);
        return;
      }
      var landed = fill(words.landed, { square: String(square), path: written(path) });
      say(landed + " " + words.go_on);
      refresh();
    }

    function judge(found) {
      finished = true;
      verdict.textContent = found.text;
      verdict.className = "dama-exercise-verdict " + (found.right ? "is-right" : "is-wrong");
      block.classList.toggle("is-solved", found.right);
      if (found.right) remember(id);
      say("");
      // Right: the answer opens, with the engine's proof.  Wrong: the verdict says
      // why, and "Try again" comes first; the answer stays closed until asked for.
      if (answer && found.right) answer.open = true;
      var wasOnCheck = document.activeElement === check;
      refresh();
      if (wasOnCheck || !found.right) again.focus();  // keep the keyboard in the exercise
    }

    function takeBack() {
      if (finished) {
        reset();
        say(words.cleared);
        return;
      }
      if (!path.length) return;
      path = path.slice(0, -1);
      say(path.length ? fill(words.taken_back, { path: written(path) }) : words.cleared);
      refresh();
    }

    function reset() {
      path = [];
      finished = false;
      verdict.textContent = "";
      verdict.className = "dama-exercise-verdict";
      refresh();
    }

    function refresh() {
      squares.forEach(function (info) {
        var button = buttons[info.square];
        var place = path.indexOf(info.square);
        button.classList.toggle("is-origin", place === 0);
        button.classList.toggle("is-landing", path.lastIndexOf(info.square) > 0);
        button.setAttribute("aria-pressed", String(place >= 0));
      });
      check.disabled = finished || !exactTry();
      undo.disabled = !path.length && !finished;
      again.hidden = !finished;
    }

    function focusOn(square) {
      buttons[focused.square].tabIndex = -1;
      focused = squares.filter(function (info) { return info.square === square; })[0];
      buttons[square].tabIndex = 0;
      buttons[square].focus();
    }

    // Arrow keys move over the dark squares as they are drawn (flipped boards
    // too): left and right along the row, up and down to the next row,
    // keeping close to the column the reader started from.
    function onArrow(event) {
      var key = event.key;
      var box = focused.box;
      var sideways = key === "ArrowLeft" || key === "ArrowRight";
      var upward = key === "ArrowUp";
      if (!sideways && !upward && key !== "ArrowDown") return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      var best = null;
      squares.forEach(function (info) {
        var other = info.box;
        var rowStep = Math.round((other[1] - box[1]) / box[3]);
        var columnStep = (other[0] - box[0]) / box[2];
        var score;
        if (sideways) {
          if (rowStep !== 0 || (key === "ArrowLeft" ? columnStep >= 0 : columnStep <= 0)) return;
          score = Math.abs(columnStep);
        } else {
          if (rowStep !== (upward ? -1 : 1)) return;
          score = Math.abs(other[0] - goalLeft) + 0.001 * other[0];
        }
        if (best === null || score < best.score) best = { info: info, score: score };
      });
      if (best === null) return;
      if (sideways) goalLeft = best.info.box[0];  // up and down keep the column; sideways sets it
      focusOn(best.info.square);
    }
  }

  window.damaPages.onEachPage(function () {
    refreshers = [];  // a new page (Material's instant navigation): the old nodes are gone
    window.damaPages.each("data-exercise", setUp);
    window.damaPages.each("data-progress", setUpProgress);
  });
})();
