// Matchup results: a Copy button for the results link (without JavaScript the box is there to
// copy by hand). Progress and the battle log need no script of their own: htmx attributes do it.
(function () {
  "use strict";

  function reveal() {
    document.querySelectorAll(".sim-link [data-copy][hidden]").forEach(function (button) {
      if (navigator.clipboard) button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest(".sim-link [data-copy]");
    if (!button) return;
    var input = document.getElementById(button.dataset.copy);
    if (!input) return;
    navigator.clipboard.writeText(input.value).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy"; }, 1500);
    });
  });

  document.addEventListener("focusin", function (event) {
    if (event.target.id === "sim-link-input") event.target.select();
  });

  reveal();
})();
