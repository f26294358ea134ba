// Live updates without inline script: every element marked data-live is asked to refresh
// (an htmx "poll-tick" trigger) every two seconds, or every data-live-ms, but only while the tab
// is visible. The server leaves data-live off once nothing on the page can change any more,
// which ends the polling. A refresh keeps the boxes ticked in the element (by their id), and
// waits while a dialog is open or the editor is typing in the element.
(function () {
  "use strict";
  var PERIOD_MS = 2000;
  var TICK_MS = 250;
  var last = new WeakMap();

  // A dialog open (the bulk override, a confirmation) or a field being typed in would be
  // swapped away from under the editor: the refresh waits for them.
  function busy(element) {
    if (document.querySelector("dialog[open]")) {
      return true;
    }
    var focused = document.activeElement;
    return Boolean(focused && element.contains(focused) &&
      focused.matches("textarea, select, input:not([type=checkbox])"));
  }

  var ticked = [];

  // While the editor types, the element is not refreshed; it asks instead whether the thing it
  // shows changed (data-live-check: 204 when not, else a sentence), and says so in its notes
  // (data-live-note), so that a form is not sent on what is no longer there unawares.
  function check(element, now) {
    var url = element.getAttribute("data-live-check");
    if (!url || !window.fetch) {
      return;
    }
    last.set(element, now);
    window.fetch(url, {credentials: "same-origin", headers: {"HX-Request": "true"}})
      .then(function (response) {
        return response.status === 200 ? response.text() : "";
      })
      .then(function (words) {
        if (!words) {
          return;
        }
        element.querySelectorAll("[data-live-note]").forEach(function (note) {
          note.textContent = words;
          note.hidden = false;
        });
      })
      .catch(function () {
        // Offline for a moment: the next period asks again.
      });
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var element = event.detail.elt;
    ticked = element && element.hasAttribute && element.hasAttribute("data-live") ?
      Array.prototype.map.call(element.querySelectorAll("input[type=checkbox][id]:checked"),
        function (box) { return box.id; }) : [];
  });

  document.addEventListener("htmx:afterSwap", function () {
    ticked.forEach(function (id) {
      var box = document.getElementById(id);
      if (box && box.type === "checkbox") {
        box.checked = true;
      }
    });
    ticked = [];
  });

  function tick(force) {
    if (document.visibilityState !== "visible" || !window.htmx) {
      return;
    }
    var now = Date.now();
    document.querySelectorAll("[data-live]").forEach(function (element) {
      var period = parseInt(element.getAttribute("data-live-ms"), 10) || PERIOD_MS;
      if (force !== true && now - (last.get(element) || 0) < period) {
        return;
      }
      if (busy(element)) {
        check(element, now);
        return;
      }
      last.set(element, now);
      window.htmx.trigger(element, "poll-tick");
    });
  }

  // A new element (each refresh swaps one in) waits a period before its first poll.
  document.addEventListener("htmx:afterSettle", function () {
    var now = Date.now();
    document.querySelectorAll("[data-live]").forEach(function (element) {
      if (!last.has(element)) {
        last.set(element, now);
      }
    });
  });
  document.addEventListener("DOMContentLoaded", function () {
    var now = Date.now();
    document.querySelectorAll("[data-live]").forEach(function (element) {
      last.set(element, now);
    });
  });
  window.setInterval(tick, TICK_MS);
  // Coming back to the tab catches up at once instead of waiting for the next tick.
  document.addEventListener("visibilitychange", function () {
    tick(true);
  });

  // A refresh can bring several steps of a claim's timeline at once (a check against fast
  // sites takes well under a second): they appear one after another, in their order, and the
  // step counter counts along, instead of the page jumping from "Queued" to the verdict.
  var REVEAL_MS = 200;
  var shown = 0;

  function sequence(item) {
    return parseInt(item.id.slice("event-".length), 10) || 0;
  }

  function steps() {
    return Array.prototype.slice.call(document.querySelectorAll("li.tl[id^='event-']"));
  }

  document.addEventListener("DOMContentLoaded", function () {
    steps().forEach(function (item) {
      shown = Math.max(shown, sequence(item));
    });
  });

  // On the swap itself, before the new steps are painted.
  document.addEventListener("htmx:afterSwap", function () {
    var fresh = steps().filter(function (item) {
      return sequence(item) > shown;
    });
    if (!fresh.length) {
      return;
    }
    fresh.sort(function (a, b) {
      return sequence(a) - sequence(b);
    });
    shown = sequence(fresh[fresh.length - 1]);
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches || fresh.length < 2) {
      return;
    }
    // The counters in the status bar and the evidence table's count follow the steps shown:
    // each step carries its run's queries, pages and evidence as of that step.
    var counter = document.getElementById("claim-step");
    var final = counter ? counter.textContent : "";
    var counters = document.getElementById("claim-counters");
    var finalCounters = counters ? counters.textContent : "";
    var evidenceCount = document.getElementById("evidence-count");
    var finalEvidence = evidenceCount ? evidenceCount.textContent : "";
    function plural(n, one, many) {
      return n + " " + (n === 1 ? one : many);
    }
    function arrive(item, index) {
      item.classList.remove("tl-pending");
      item.classList.add("tl-arrived");
      var last = index === fresh.length - 1;
      var step = document.getElementById("claim-step");
      if (step) {
        step.textContent = last ? final :
          "Step " + item.getAttribute("data-step") + ": " + item.getAttribute("data-doing");
      }
      var queries = parseInt(item.getAttribute("data-queries"), 10) || 0;
      var pages = parseInt(item.getAttribute("data-pages"), 10) || 0;
      var evidence = parseInt(item.getAttribute("data-evidence"), 10) || 0;
      if (counters) {
        counters.textContent = last ? finalCounters :
          finalCounters.split(" · ")[0] + " · " + plural(queries, "query", "queries") + " · " +
          plural(pages, "page", "pages") + " read · " + evidence + " evidence";
        counters.setAttribute("data-shown-evidence", last ? "" : String(evidence));
      }
      if (evidenceCount) {
        evidenceCount.textContent = last ? finalEvidence :
          String(Math.min(evidence, parseInt(finalEvidence, 10) || 0));
      }
    }
    fresh.forEach(function (item, index) {
      if (index > 0) {
        item.classList.add("tl-pending");
      }
    });
    // Each step waits its own pause after the one before it, counted from when that one
    // appeared: a busy moment in the browser delays the rest, and never shows two at once.
    function next(index) {
      arrive(fresh[index], index);
      if (index + 1 < fresh.length) {
        window.setTimeout(function () {
          next(index + 1);
        }, REVEAL_MS);
      }
    }
    next(0);
  });
})();
