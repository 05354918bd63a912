// On every page: Copy buttons and forms that must not be sent twice.
// - <button data-copy="#input-id" hidden> copies that field's value; it is shown only where the
//   Clipboard API exists (without it the field is there to copy by hand). A field marked
//   data-copy-source selects its text when it takes focus.
// - <form data-submit-once>: a double click sends it once (a second "delete forever" would find
//   nothing; the server also saves an import or a copy once per token).
// - .table-scroll: a table wider than the screen scrolls sideways; such a box takes keyboard
//   focus (arrow keys scroll it) and is named after its table's caption or the heading above.
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
  function scrollables(root) {
    root.querySelectorAll(".table-scroll").forEach(function (box) {
      var scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        var caption = box.querySelector("caption");
        var heading = box.closest("section, article, main");
        heading = heading && heading.querySelector("h2, h3, h1");
        var name = (caption || heading || {}).textContent || "Table";
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", name.trim().replace(/\s+/g, " ") + " (scrolls sideways)");
      } else if (!scrolls && box.getAttribute("role") === "region") {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    });
  }

  // The navigations' Menu (base.html): Escape closes it; on wide screens it is always open
  // where CSS cannot show a closed <details>' content (no ::details-content).
  var menu = document.querySelector("[data-site-menu]");
  if (menu) {
    menu.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && menu.open && !window.matchMedia("(min-width: 75rem)").matches) {
        menu.open = false;
        menu.querySelector("summary").focus();
      }
    });
    if (!(window.CSS && CSS.supports && CSS.supports("selector(::details-content)"))) {
      var wide = window.matchMedia("(min-width: 75rem)");
      var sync = function () { menu.open = wide.matches; };
      sync();
      wide.addEventListener("change", sync);
    }
  }

  wire(document);
  scrollables(document);
  document.body.addEventListener("htmx:afterSwap", function (event) {
    wire(event.target);
    scrollables(event.target);
  });
  // A region that refreshes itself on a timer (hx-trigger="every …") and is marked
  // data-hold-refresh skips a refresh while focus is in it or one of its fields has unsent
  // input: the swap would wipe what the player is choosing or typing (the event dashboard).
  function unsent(field) {
    if (field.tagName === "SELECT") {  // its default: the option marked selected, else the first
      var marked = Array.prototype.findIndex.call(field.options, function (o) { return o.defaultSelected; });
      return field.selectedIndex !== Math.max(marked, 0);
    }
    return field.type === "checkbox" || field.type === "radio"
      ? field.checked !== field.defaultChecked : field.value !== field.defaultValue;
  }
  document.body.addEventListener("htmx:beforeRequest", function (event) {
    var region = event.detail.elt;
    if (!region.matches("[data-hold-refresh]")) return;
    if (region.contains(document.activeElement) ||
        Array.prototype.some.call(region.querySelectorAll("input, select, textarea"), unsent)) {
      event.preventDefault();
    }
  });
  var resizing;
  window.addEventListener("resize", function () {
    clearTimeout(resizing);
    resizing = setTimeout(function () { scrollables(document); }, 150);
  });

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
