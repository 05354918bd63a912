// Filters a faction's ship tables by name, class or tag as you type; hides empty class groups.
// Progressive: without JavaScript the form stays hidden and every ship is listed.
(function () {
  "use strict";
  var form = document.querySelector("[data-ship-filter]");
  if (!form) return;
  var input = form.querySelector("input[type=search]");
  var status = form.querySelector("[aria-live]");
  var empty = document.querySelector("[data-ship-filter-empty]");
  var groups = Array.prototype.slice.call(document.querySelectorAll("[data-filter-group]"));

  function apply() {
    var terms = input.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
    var shown = 0;
    groups.forEach(function (group) {
      var inGroup = 0;
      group.querySelectorAll("[data-filter-row]").forEach(function (row) {
        var hay = row.getAttribute("data-search").toLowerCase();
        var hit = terms.every(function (t) { return hay.indexOf(t) !== -1; });
        row.hidden = !hit;
        if (hit) inGroup += 1;
      });
      group.hidden = inGroup === 0;
      shown += inGroup;
    });
    empty.hidden = shown !== 0;
    status.textContent = terms.length ? shown + (shown === 1 ? " ship" : " ships") + " shown" : "";
  }

  input.addEventListener("input", apply);
  // Enter in the box filters; it never reloads the page.
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  form.hidden = false;
  if (input.value) apply();
})();
