// A button with data-copy="ID" copies the text of the element #ID to the clipboard and says so
// in the [data-copied] element beside it. Where the page may not write to the clipboard (plain
// HTTP on another host than localhost), the text is opened and selected for Ctrl+C instead.
(function () {
  "use strict";

  function say(button, words) {
    var status = button.parentElement && button.parentElement.querySelector("[data-copied]");
    if (status) {
      status.textContent = words;
    }
  }

  function selectForCopy(source, button) {
    var details = source.closest("details");
    if (details) {
      details.open = true;
    }
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    say(button, "Selected: press Ctrl+C (⌘C) to copy.");
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (!button) {
      return;
    }
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) {
      return;
    }
    event.preventDefault();
    var text = source.textContent;
    if (!navigator.clipboard || !window.isSecureContext) {
      selectForCopy(source, button);
      return;
    }
    navigator.clipboard.writeText(text).then(
      function () {
        say(button, "Copied.");
      },
      function () {
        selectForCopy(source, button);
      }
    );
  });
})();
