// Keyboard shortcuts. A page offers one by marking a link, button or field with data-key="j";
// the key then clicks the link or button, or moves focus to the field. "?" opens the list of
// shortcuts (the #shortcuts dialog). Keys typed into a field are never taken. (A button with
// data-confirm asks first: static/js/confirm.js.)
(function () {
  "use strict";

  function typing(target) {
    if (!target || !target.tagName) {
      return false;
    }
    var tag = target.tagName.toLowerCase();
    return tag === "input" || tag === "textarea" || tag === "select" || target.isContentEditable;
  }

  function visible(element) {
    return !!(element.offsetWidth || element.offsetHeight || element.getClientRects().length);
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    var dialog = document.getElementById("shortcuts");
    if (event.key === "?") {
      if (dialog && !dialog.open) {
        dialog.showModal();
      } else if (dialog) {
        dialog.close();
      }
      event.preventDefault();
      return;
    }
    if (document.querySelector("dialog[open]")) {
      return;
    }
    var candidates = document.querySelectorAll('[data-key="' + CSS.escape(event.key) + '"]');
    var target = Array.prototype.find.call(candidates, visible);
    if (!target) {
      return;
    }
    event.preventDefault();
    var tag = target.tagName.toLowerCase();
    if (tag === "a" || tag === "button") {
      target.click();
    } else {
      target.focus();
    }
  });
})();
