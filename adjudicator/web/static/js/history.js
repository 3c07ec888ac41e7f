// Back and Forward before the page's deferred scripts have run (a slow connection).
//
// htmx answers the browser's Back and Forward between the entries it pushed (an inline ruling's
// permalink) once it has loaded and the document is ready; until then nothing does, and the
// address would change while the page stayed. This file is loaded first and blocking (it is
// tiny), so from the start such a move reloads the page at its new address; a move within the
// page (an anchor: only the part after # differs) is left to the browser, and once htmx is
// ready every move is left to htmx.
(function () {
  "use strict";
  var ready = false;
  var shown = window.location.pathname + window.location.search;
  document.addEventListener("DOMContentLoaded", function () { ready = true; });
  window.addEventListener("popstate", function () {
    if (ready && window.htmx) { return; }
    if (window.location.pathname + window.location.search !== shown) {
      window.location.reload();
    }
  });
})();
