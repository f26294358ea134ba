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
  // page follows the step shown, never running ahead of it. Each step carries what the status
  // bar says once it is shown (its number, what the claim is doing, the run's counts and
  // weights); the evidence rows carry the step that reported them; what only the last step can
  // say (the outcome, the verdict card, the review) waits for it. One reveal runs at a time,
  // across refreshes: a refresh in the middle of one carries on from the step shown.
  var REVEAL_MS = 200;
  var shown = 0;
  var timer = null;

  function sequence(item) {
    return parseInt(item.id.slice("event-".length), 10) || 0;
  }

  function steps() {
    return Array.prototype.slice.call(document.querySelectorAll("li.tl[id^='event-']"))
      .sort(function (a, b) { return sequence(a) - sequence(b); });
  }

  function latest() {
    var all = steps();
    return all.length ? sequence(all[all.length - 1]) : 0;
  }

  function text(id) {
    var element = document.getElementById(id);
    return element ? element.textContent : null;
  }

  function setText(id, value) {
    var element = document.getElementById(id);
    if (element && value !== null) {
      element.textContent = value;
    }
  }

  function plural(n, one, many) {
    return n + " " + (n === 1 ? one : many);
  }

  function meter(side, value) {
    var fill = document.getElementById("meter-" + side);
    var words = document.getElementById("meter-" + side + "-value");
    if (!fill || !words) {
      return;
    }
    var threshold = parseFloat(document.getElementById("meter-support-value")
      .getAttribute("data-threshold")) || 0;
    var pct = threshold > 0 ? Math.min(100, Math.round(100 * value / threshold)) : 0;
    fill.style.width = pct + "%";
    words.textContent = value.toFixed(1) + " / " + threshold.toFixed(1);
  }

  // The page as of the step `upTo`: later steps and rows hidden, the status bar as that step
  // left it, the decision's parts waiting.
  function showUpTo(upTo) {
    var live = document.getElementById("claim-live");
    if (live) {
      live.classList.add("revealing");
    }
    var current = null;
    steps().forEach(function (item) {
      var later = sequence(item) > upTo;
      if (!later && item.classList.contains("tl-pending")) {
        item.classList.add("tl-arrived");
      }
      item.classList.toggle("tl-pending", later);
      if (!later) {
        current = item;
      }
    });
    var rows = 0;
    document.querySelectorAll("tbody.ev-row").forEach(function (row) {
      var later = (parseInt(row.getAttribute("data-seq"), 10) || 0) > upTo;
      row.classList.toggle("ev-later", later);
      rows += later ? 0 : 1;
    });
    setText("evidence-count", String(rows));
    if (!current) {
      return;
    }
    var step = parseInt(current.getAttribute("data-step"), 10) || 0;
    var doing = current.getAttribute("data-doing") || "";
    setText("claim-step", step ? "Step " + step + ": " + doing :
      doing.charAt(0).toUpperCase() + doing.slice(1));
    var counters = document.getElementById("claim-counters");
    if (counters) {
      var queries = parseInt(current.getAttribute("data-queries"), 10) || 0;
      var pages = parseInt(current.getAttribute("data-pages"), 10) || 0;
      var evidence = parseInt(current.getAttribute("data-evidence"), 10) || 0;
      counters.textContent = "Run " + counters.getAttribute("data-run") + " · " +
        plural(queries, "query", "queries") + " · " + plural(pages, "page", "pages") +
        " read · " + evidence + " evidence";
    }
    meter("support", parseFloat(current.getAttribute("data-support")) || 0);
    meter("refute", parseFloat(current.getAttribute("data-refute")) || 0);
  }

  // The latest step shown: the page as the server rendered it, which says what that step
  // carries, with the decision's parts in view.
  function finish() {
    timer = null;
    shown = latest();
    showUpTo(shown);
    var live = document.getElementById("claim-live");
    if (live) {
      live.classList.remove("revealing");
    }
  }

  // Shows the step after the one shown, then waits its pause before the next: a busy moment in
  // the browser delays the rest, and never shows two at once.
  function advance() {
    var next = steps().filter(function (item) {
      return sequence(item) > shown;
    })[0];
    if (!next) {
      finish();
      return;
    }
    shown = sequence(next);
    if (shown >= latest()) {
      finish();
      return;
    }
    showUpTo(shown);
    timer = window.setTimeout(advance, REVEAL_MS);
  }

  document.addEventListener("DOMContentLoaded", function () {
    shown = latest();
  });

  // htmx settles a swap a moment after it: the new page's elements first wear the classes of
  // the old ones with their ids, then their own; the step shown is put back on them after.
  document.addEventListener("htmx:afterSettle", function () {
    if (timer !== null && document.getElementById("claim-live")) {
      showUpTo(shown);
    }
  });

  // On the swap itself, before the new steps are painted.
  document.addEventListener("htmx:afterSwap", function () {
    if (!document.getElementById("claim-live")) {
      return;
    }
    var fresh = steps().filter(function (item) {
      return sequence(item) > shown;
    });
    var calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (timer !== null && !calm) {
      showUpTo(shown);  // a reveal under way carries on over the new page
      return;
    }
    if (calm || fresh.length < 2) {
      if (timer !== null) {
        window.clearTimeout(timer);
      }
      finish();
      return;
    }
    advance();
  });
})();
