// Gunnery calculator: tell the server which field changed, and a Copy button for the
// "Link to this calculation" box (without JavaScript the box is there to copy by hand).
(function () {
  "use strict";

  function reveal(root) {
    root.querySelectorAll("[data-copy][hidden]").forEach(function (button) {
      if (navigator.clipboard) button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    navigator.clipboard.writeText(input.value).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    });
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.id === "gunnery-link-input") event.target.select();
  });

  // The form carries hx-get, so htmx names the form as the trigger; the server needs the field
  // that changed to refresh the ship and weapon selects when the faction or the ship changes.
  document.addEventListener("htmx:configRequest", function (event) {
    var changed = event.detail.triggeringEvent && event.detail.triggeringEvent.target;
    if (event.detail.elt.matches(".gunnery-form") && changed && changed.name) {
      event.detail.headers["HX-Trigger-Name"] = changed.name;
    }
  });

  document.addEventListener("htmx:afterSettle", function () { reveal(document); });
  reveal(document);
})();
