// Import and Saved Fleets helpers (copy buttons and submit-once forms are site.js's).

// Import: a pasted text refused at a line shows that line, selected, in the box.
(function () {
  "use strict";
  var box = document.querySelector("textarea[data-error-line]");
  if (!box) return;
  var line = parseInt(box.dataset.errorLine, 10);
  var lines = box.value.split("\n");
  if (!(line >= 1 && line <= lines.length)) return;
  var start = 0;
  for (var i = 0; i < line - 1; i++) start += lines[i].length + 1;
  box.setSelectionRange(start, start + lines[line - 1].length);
  var height = parseFloat(getComputedStyle(box).lineHeight) || 18;
  box.scrollTop = Math.max(0, (line - 3) * height);
})();

// Saved Fleets: opening Rename puts the cursor in the name (selected); Escape closes it again.
(function () {
  "use strict";
  document.addEventListener("toggle", function (event) {
    var details = event.target;
    if (!details.matches || !details.matches(".library-rename") || !details.open) return;
    var input = details.querySelector("input[name=name]");
    if (input) { input.focus(); input.select(); }
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !event.target.closest) return;
    var details = event.target.closest(".library-rename[open]");
    if (!details) return;
    details.open = false;
    details.querySelector("summary").focus();
  });
})();
