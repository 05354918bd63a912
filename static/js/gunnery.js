// Gunnery calculator: a Copy button for the "Link to this calculation" box.
// Without JavaScript the box is still there to select and copy by hand.
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

  document.addEventListener("htmx:afterSettle", function () { reveal(document); });
  reveal(document);
})();
