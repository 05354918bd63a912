// Gunnery calculator: tell the server which field changed. (The "Link to this calculation"
// Copy button is site.js's.)
(function () {
  "use strict";

  // The form carries hx-get, so htmx names the form as the trigger; the server needs the field
  // that changed to refresh the ship and weapon selects when the faction or the ship changes.
  document.addEventListener("htmx:configRequest", function (event) {
    var changed = event.detail.triggeringEvent && event.detail.triggeringEvent.target;
    if (event.detail.elt.matches(".gunnery-form") && changed && changed.name) {
      event.detail.headers["HX-Trigger-Name"] = changed.name;
    }
  });
})();
