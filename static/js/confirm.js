// Questions asked in the page, in the #confirm dialog, instead of the browser's confirm():
// - a button with data-confirm="Re-run {n} claim{s}?" asks before it submits; "{n}" is the
//   number of ticked boxes named by data-confirm-count (none ticked: the dialog says so);
// - a button with data-opens="ID" opens the dialog #ID (a form that asks more than yes or no),
//   once a box named by its data-confirm-count is ticked; data-closes="ID" closes it;
// - an htmx request with hx-confirm asks the same way.
(function () {
  "use strict";
  var onYes = null;

  function ticked(name) {
    return document.querySelectorAll('input[name="' + CSS.escape(name) + '"]:checked').length;
  }

  function ask(question, proceed) {
    var box = document.getElementById("confirm");
    if (!box) {
      return;
    }
    document.getElementById("confirm-question").textContent = question;
    var yes = document.getElementById("confirm-yes");
    yes.hidden = !proceed;
    document.getElementById("confirm-no").textContent = proceed ? "Cancel" : "OK";
    onYes = proceed;
    box.returnValue = "";
    box.showModal();
    (proceed ? yes : document.getElementById("confirm-no")).focus();
  }

  function noneTicked(button) {
    var counted = button.getAttribute("data-confirm-count");
    if (counted && ticked(counted) === 0) {
      ask("Tick at least one claim first.", null);
      return true;
    }
    return false;
  }

  document.addEventListener("close", function (event) {
    if (event.target.id !== "confirm") {
      return;
    }
    var proceed = onYes;
    onYes = null;
    if (event.target.returnValue === "yes" && proceed) {
      proceed();
    }
  }, true);

  document.addEventListener(
    "click",
    function (event) {
      var target = event.target.closest ? event.target : null;
      if (!target) {
        return;
      }
      var closes = target.closest("[data-closes]");
      if (closes) {
        document.getElementById(closes.getAttribute("data-closes")).close();
        return;
      }
      var opens = target.closest("[data-opens]");
      if (opens) {
        event.preventDefault();
        if (noneTicked(opens)) {
          return;
        }
        var form = document.getElementById(opens.getAttribute("data-opens"));
        var name = opens.getAttribute("data-confirm-count");
        if (name) {
          var count = ticked(name);
          form.querySelectorAll('[data-count-of="' + name + '"]').forEach(function (el) {
            el.textContent = String(count);
          });
          form.querySelectorAll('[data-plural-of="' + name + '"]').forEach(function (el) {
            el.hidden = count === 1;
          });
        }
        form.showModal();
        return;
      }
      var button = target.closest("[data-confirm]");
      if (!button) {
        return;
      }
      if (button.getAttribute("data-confirmed") === "yes") {
        button.removeAttribute("data-confirmed");
        return; // asked already: let it submit
      }
      event.preventDefault();
      event.stopImmediatePropagation();
      if (noneTicked(button)) {
        return;
      }
      var question = button.getAttribute("data-confirm");
      var counted = button.getAttribute("data-confirm-count");
      if (counted) {
        var n = ticked(counted);
        question = question.replace("{n}", String(n)).replace("{s}", n === 1 ? "" : "s");
      }
      ask(question, function () {
        button.setAttribute("data-confirmed", "yes");
        button.click();
      });
    },
    true
  );

  document.addEventListener("htmx:confirm", function (event) {
    if (!event.detail.question || !document.getElementById("confirm")) {
      return;
    }
    event.preventDefault();
    ask(event.detail.question, function () {
      event.detail.issueRequest(true);
    });
  });
})();
