/*
 * Step controls for the diagrams of captures that take two or more pieces.
 *
 * The page marks such a figure with data-steps: the text of each step (start,
 * each landing, final position) and the buttons' labels, in the page's
 * language.  The pictures are <id>.steps/<n>.svg next to the diagram.  Without
 * this script the figure shows the complete diagram, as it always did; the
 * script adds the buttons.  Keys: left and right arrows, Home and End.
 *
 * A capture's complete diagram draws the whole capture: its path, its order,
 * the men it takes.  A reader sees it as the answer, the end of the story, so
 * it is the LAST step, after the final position: the figure opens on it with
 * "first" and "previous" enabled (back to the start, back to the final
 * position), "next" and "last" disabled, and "last" (and End) come back to it.
 * Opening on it as a step before the start made the first "next" show the
 * start, which looked like going backwards.
 *
 * A game's figure also gives, for each step, the caption and the engine's
 * line of the position it shows (clean HTML, written when the site was
 * built), and "open": the step to start on, the start of the game.  The
 * caption then says what the step is, so the status line under the buttons
 * is only heard, not shown twice.  A game's complete diagram is its final
 * position, its last step already: it adds no step of its own.
 *
 * "pictures", when given, are the step pictures' addresses (a Markdown fence
 * writes them into the page); without it they are <id>.steps/<n>.svg.
 *
 * "legends" lists, for each step, the legend entries its picture shows.  The
 * page lists every entry of the figure and hides those its complete diagram
 * lacks; the script shows each step's own, and leaves the legend alone when
 * the data has none.
 */
(function () {
  "use strict";

  function button(label, symbol, onPress) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "dama-steps-button";
    element.setAttribute("aria-label", label);
    element.title = label;
    element.textContent = symbol;
    element.addEventListener("click", function () {
      if (element.getAttribute("aria-disabled") !== "true") onPress();
    });
    return element;
  }

  function showLegend(entries, keys) {
    for (var index = 0; index < entries.length; index += 1) {
      var key = /(?:^|\s)dama-legend-([a-z_]+)(?:\s|$)/.exec(entries[index].className);
      if (key) entries[index].hidden = keys.indexOf(key[1]) < 0;
    }
  }

  function setUp(figure, data) {
    var image = figure.querySelector("img.dama-board");
    var texts = data.texts, labels = data.labels, last = texts.length - 1;
    if (!image || last < 1) return;  // the complete diagram stays, as without the script
    var folder = image.getAttribute("src").replace(/\.svg(?=[?#]|$)/, ".steps/");
    var pictures = Array.isArray(data.pictures) && data.pictures.length === texts.length ?
      data.pictures : null;
    function picture(index) { return pictures ? pictures[index] : folder + index + ".svg"; }
    var loaded = false;
    var captions = data.captions, engines = data.engines;
    var caption = figure.querySelector(".dama-caption");
    var engine = figure.querySelector(".dama-engine-text");
    var follows = Array.isArray(captions) && Array.isArray(engines) && caption && engine &&
      captions.length === texts.length && engines.length === texts.length;
    var legends = Array.isArray(data.legends) && data.legends.length === texts.length ?
      data.legends : null;
    var entries = figure.querySelectorAll(".dama-legend li");
    var opensOnStart = follows && typeof data.open === "number";
    // A capture's complete diagram is one step more, after the last picture.
    var whole = {
      src: image.getAttribute("src"),
      alt: image.getAttribute("alt") || "",
      hidden: Array.prototype.map.call(entries, function (entry) { return entry.hidden; })
    };
    var lastStep = opensOnStart ? last : last + 1;  // the index of the last step
    var current = lastStep;  // as the page shows it: the complete diagram

    var bar = document.createElement("div");
    bar.className = "dama-steps";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", labels.group);
    var first = button(labels.first, "\u00ab", function () { show(0); });
    var previous = button(labels.previous, "\u2039", function () { show(current - 1); });
    var next = button(labels.next, "\u203a", function () { show(current + 1); });
    var end = button(labels.last, "\u00bb", function () { show(lastStep); });
    [first, previous, next, end].forEach(function (part) { bar.appendChild(part); });
    var status = document.createElement("p");
    status.className = follows ? "dama-steps-status dama-steps-heard" : "dama-steps-status";
    status.setAttribute("aria-live", "polite");

    bar.addEventListener("keydown", function (event) {
      var target = {
        ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: lastStep
      }[event.key];
      if (target === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      show(target);
    });

    function preload() {
      if (loaded) return;
      loaded = true;
      for (var index = 0; index <= last; index += 1) new Image().src = picture(index);
    }

    function show(index) {
      preload();
      display(index);
      status.textContent = current > last ? whole.alt : texts[current];
    }

    function display(index) {
      current = Math.max(0, Math.min(lastStep, index));
      if (current > last) {  // the complete diagram, and the legend the page gave it
        image.src = whole.src;
        image.alt = whole.alt;
        for (var at = 0; at < entries.length; at += 1) entries[at].hidden = whole.hidden[at];
        refresh();
        return;
      }
      image.src = picture(current);
      image.alt = texts[current];
      if (follows) {  // the build's clean HTML, in the page's language
        caption.innerHTML = captions[current];
        engine.innerHTML = engines[current];
      }
      if (legends) showLegend(entries, legends[current]);
      refresh();
    }

    function refresh() {
      var atStart = current <= 0, atEnd = current >= lastStep;
      first.setAttribute("aria-disabled", String(atStart));
      previous.setAttribute("aria-disabled", String(atStart));
      next.setAttribute("aria-disabled", String(atEnd));
      end.setAttribute("aria-disabled", String(atEnd));
    }

    if (opensOnStart) {
      display(data.open);  // a game starts at its start; the final position is one key away
    } else {
      refresh();
    }
    var holder = image.closest("p") || image;
    holder.parentNode.insertBefore(status, holder.nextSibling);
    holder.parentNode.insertBefore(bar, status);
  }

  window.damaPages.onEachPage(function () { window.damaPages.each("data-steps", setUp); });
})();
