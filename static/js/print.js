// The print options page (templates/cards/options.html, issue 13 §7): while the PDF is made the
// page says so and the button waits; then the PDF downloads and the page says it did. Without
// this script the form is a plain GET and the browser shows its own progress. A print too big
// for one request answers with its print job's page: the browser goes there.
(function () {
  "use strict";
  var form = document.querySelector("form[data-print-form]");
  if (!form || !window.fetch || !window.URL || !URL.createObjectURL) return;
  var button = form.querySelector("button[type=submit]");
  var status = form.querySelector("[data-print-status]");
  var label = button.textContent;

  function busy(on, text) {
    form.setAttribute("aria-busy", on ? "true" : "false");
    form.classList.toggle("print-options--busy", on);
    button.disabled = on;
    button.textContent = on ? "Making the PDF…" : label;
    status.textContent = text;
  }

  function filename(response) {
    var header = response.headers.get("Content-Disposition") || "";
    var utf8 = /filename\*=utf-8''([^;]+)/i.exec(header);
    if (utf8) return decodeURIComponent(utf8[1]);
    var plain = /filename="?([^";]+)"?/i.exec(header);
    return plain ? plain[1] : "cards.pdf";
  }

  // The preview (issue 29 §10): one whole page of the same PDF, as a print dialog shows it;
  // Previous and Next turn the pages, and it follows the options.
  var preview = document.querySelector("[data-print-preview]");
  var picture = preview && preview.querySelector("img");
  if (picture) {
    var sheet = preview.querySelector("[data-print-sheet]");
    var prev = preview.querySelector("[data-print-prev]");
    var next = preview.querySelector("[data-print-next]");
    var full = preview.querySelector("[data-print-full]");
    var pageNumber = 1;
    var layout = function () { return new FormData(form).get("layout") || "poker"; };
    var pages = function () { return Number(preview.getAttribute("data-pages-" + layout())) || 1; };
    var show = function () {
      var query = new URLSearchParams(new FormData(form));
      query.set("preview", "1");
      query.set("page", String(pageNumber));
      var url = form.action + "?" + query.toString();
      preview.classList.add("print-preview--busy");
      picture.src = url;
      picture.alt = "Page " + pageNumber + " of the PDF as it will print, in the layout chosen above.";
      full.href = url;
      sheet.className = "print-preview__sheet print-preview__sheet--" + layout();
      preview.querySelector("[data-print-page]").textContent = String(pageNumber);
      preview.querySelector("[data-print-pages]").textContent = String(pages());
      prev.disabled = pageNumber <= 1;
      next.disabled = pageNumber >= pages();
    };
    picture.addEventListener("load", function () { preview.classList.remove("print-preview--busy"); });
    picture.addEventListener("error", function () {
      if (pageNumber > 1) {  // past the last page (a long roster counted short): back one
        pageNumber -= 1;
        preview.setAttribute("data-pages-" + layout(), String(pageNumber));
        show();
      } else {
        preview.hidden = true;
      }
    });
    prev.addEventListener("click", function () { if (pageNumber > 1) { pageNumber -= 1; show(); } });
    next.addEventListener("click", function () { if (pageNumber < pages()) { pageNumber += 1; show(); } });
    preview.querySelector("[data-print-turn]").hidden = false;
    form.addEventListener("change", function () { pageNumber = 1; show(); });
    show();
  }

  form.addEventListener("submit", function (event) {
    if (form.getAttribute("aria-busy") === "true") {
      event.preventDefault();
      return;
    }
    event.preventDefault();
    var query = new URLSearchParams(new FormData(form)).toString();
    var url = form.action + (query ? "?" + query : "");
    busy(true, "Making the PDF: the cards are being drawn…");
    fetch(url, {credentials: "same-origin"}).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (response.redirected && type.indexOf("text/html") === 0) {
        window.location.assign(response.url);  // a big print: its job page follows it
        return null;
      }
      if (!response.ok || type.indexOf("application/pdf") !== 0) {
        return response.text().then(function (text) {
          throw new Error(text.slice(0, 300) || ("The server answered " + response.status + "."));
        });
      }
      var name = filename(response);
      return response.blob().then(function (blob) {
        var link = document.createElement("a");
        link.href = URL.createObjectURL(blob);
        link.download = name;
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
        busy(false, "Downloaded " + name + ".");
      });
    }).catch(function (error) {
      busy(false, "No PDF: " + error.message);
    });
  });
})();
