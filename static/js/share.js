// Sharing, Saved Fleets and account pages. Copy buttons (shown only where the Clipboard API
// exists), and forms marked data-submit-once, which a double click must not send twice (a second
// "delete forever" would find nothing; the server saves an import or a copy once per token too).
(function () {
  "use strict";
  function wire(root) {
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      if (!navigator.clipboard || button.dataset.copyWired) return;
      button.dataset.copyWired = "1";
      button.hidden = false;
      var label = button.textContent;
      button.addEventListener("click", function () {
        var source = document.querySelector(button.dataset.copy);
        if (!source) return;
        navigator.clipboard.writeText(source.value).then(function () {
          button.textContent = "Copied";
          setTimeout(function () { button.textContent = label; }, 1500);
        }, function () {
          source.select();
        });
      });
    });
  }
  wire(document);
  document.body.addEventListener("htmx:afterSwap", function (event) { wire(event.target); });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.matches || !form.matches("form[data-submit-once]")) return;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    form.setAttribute("aria-busy", "true");
  });
  // Coming back to the page (Back button) allows the form again.
  window.addEventListener("pageshow", function () {
    document.querySelectorAll("form[data-submit-once][data-sent]").forEach(function (form) {
      delete form.dataset.sent;
      form.removeAttribute("aria-busy");
    });
  });
})();

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
