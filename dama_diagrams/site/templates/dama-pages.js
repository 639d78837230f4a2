/*
 * What the site's scripts share: each page element that carries its data as
 * JSON in an attribute is set up once, on every page, Material's instant
 * navigation included.  An element whose data cannot be read stays as it is,
 * as without the scripts.  Loaded before dama-steps.js and dama-exercises.js.
 */
(function () {
  "use strict";

  /* Calls setUp(element, data) for each element with `attribute` not set up yet. */
  function each(attribute, setUp) {
    var elements = document.querySelectorAll("[" + attribute + "]");
    Array.prototype.forEach.call(elements, function (element) {
      var data;
      if (element.hasAttribute(attribute + "-ready")) return;
      try {
        data = JSON.parse(element.getAttribute(attribute));
      } catch (error) {
        return;
      }
      element.setAttribute(attribute + "-ready", "");
      setUp(element, data);
    });
  }

  /* Runs `run` on each page the reader opens. */
  function onEachPage(run) {
    if (window.document$ && typeof window.document$.subscribe === "function") {
      window.document$.subscribe(run);  // Material's page loads, instant navigation too
    } else if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", run);
    } else {
      run();
    }
  }

  window.damaPages = { each: each, onEachPage: onEachPage };
})();
