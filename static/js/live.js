// Live updates without inline script: every element marked data-live is asked to refresh
// (an htmx "poll-tick" trigger) every two seconds, but only while the tab is visible. The
// server leaves data-live off once nothing on the page is running, which ends the polling.
(function () {
  "use strict";
  var PERIOD_MS = 2000;

  function tick() {
    if (document.visibilityState !== "visible" || !window.htmx) {
      return;
    }
    document.querySelectorAll("[data-live]").forEach(function (element) {
      // A refresh would drop the boxes an editor is ticking for a bulk action: wait for it.
      if (element.querySelector("input[type=checkbox]:checked")) {
        return;
      }
      window.htmx.trigger(element, "poll-tick");
    });
  }

  window.setInterval(tick, PERIOD_MS);
  // Coming back to the tab catches up at once instead of waiting for the next tick.
  document.addEventListener("visibilitychange", tick);
})();
