// On every page: Copy buttons and forms that must not be sent twice.
// - <button data-copy="#input-id" hidden> copies that field's value; it is shown only where the
//   Clipboard API exists (without it the field is there to copy by hand). A field marked
//   data-copy-source selects its text when it takes focus.
// - <form data-submit-once>: a double click sends it once (a second "delete forever" would find
//   nothing; the server also saves an import or a copy once per token).
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

  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-copy-source]")) event.target.select();
  });

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
