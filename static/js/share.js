// Copy buttons on the share page: shown only where the Clipboard API exists.
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
})();
