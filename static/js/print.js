// The print options page (templates/cards/options.html): while the PDF is made the
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

  // One request at a time: the server makes one address's card PDFs and previews one at
  // a time, so the page asks for the preview it shows, or for the PDF, never for both at once.
  // A 429 that still comes (another tab of the same player) is waited out and asked again.
  var turn = Promise.resolve();
  function inTurn(task) {
    var done = turn.then(task, task);
    turn = done.catch(function () {});
    return done;
  }
  function fetchPatiently(url, tries) {
    return fetch(url, {credentials: "same-origin"}).then(function (response) {
      if (response.status !== 429 || tries <= 1) return response;
      var wait = Math.min(Number(response.headers.get("Retry-After")) || 2, 10);
      return new Promise(function (resolve) { setTimeout(resolve, wait * 1000); })
        .then(function () { return fetchPatiently(url, tries - 1); });
    });
  }

  // The preview: one whole page of the same PDF, as a print dialog shows it;
  // Previous and Next turn the pages, and it follows the options. Only the latest page asked
  // for is fetched: options changed quickly cost one preview, not one each.
  var preview = document.querySelector("[data-print-preview]");
  var picture = preview && preview.querySelector("img");
  if (picture) {
    var sheet = preview.querySelector("[data-print-sheet]");
    var prev = preview.querySelector("[data-print-prev]");
    var next = preview.querySelector("[data-print-next]");
    var full = preview.querySelector("[data-print-full]");
    var pageNumber = 1;
    var wanted = null;     // the URL of the page to show
    var asking = false;    // a preview is queued or being fetched
    var shownUrl = null;   // an object URL of the page shown
    var layout = function () { return new FormData(form).get("layout") || "poker"; };
    var pages = function () { return Number(preview.getAttribute("data-pages-" + layout())) || 1; };
    var fetchPreview = function () {
      var url = wanted;
      return fetchPatiently(url, 4).then(function (response) {
        if (response.status === 404 && pageNumber > 1) {
          // past the last page (a long roster counted short): back one
          pageNumber -= 1;
          preview.setAttribute("data-pages-" + layout(), String(pageNumber));
          show();
          return null;
        }
        if (!response.ok) throw new Error(String(response.status));
        return response.blob().then(function (blob) {
          if (url !== wanted) return;  // the options changed meanwhile: the next one follows
          if (shownUrl) URL.revokeObjectURL(shownUrl);
          shownUrl = URL.createObjectURL(blob);
          return new Promise(function (resolve) {  // shown, not only fetched
            picture.addEventListener("load", resolve, {once: true});
            picture.addEventListener("error", resolve, {once: true});
            picture.setAttribute("data-page-url", url);
            picture.src = shownUrl;
          });
        });
      }).catch(function () {
        if (url === wanted) preview.hidden = true;
      }).then(function () {
        if (url !== wanted) return fetchPreview();
        asking = false;
        preview.classList.remove("print-preview--busy");
        return null;
      });
    };
    var show = function () {
      var query = new URLSearchParams(new FormData(form));
      query.set("preview", "1");
      query.set("page", String(pageNumber));
      wanted = form.action + "?" + query.toString();
      preview.classList.add("print-preview--busy");
      picture.alt = "Page " + pageNumber + " of the PDF as it will print, in the layout chosen above.";
      full.href = wanted;
      sheet.className = "print-preview__sheet print-preview__sheet--" + layout();
      preview.querySelector("[data-print-page]").textContent = String(pageNumber);
      preview.querySelector("[data-print-pages]").textContent = String(pages());
      prev.disabled = pageNumber <= 1;
      next.disabled = pageNumber >= pages();
      if (!asking) {
        asking = true;
        inTurn(fetchPreview);
      }
    };
    prev.addEventListener("click", function () { if (pageNumber > 1) { pageNumber -= 1; show(); } });
    next.addEventListener("click", function () { if (pageNumber < pages()) { pageNumber += 1; show(); } });
    preview.querySelector("[data-print-turn]").hidden = false;
    form.addEventListener("change", function () { pageNumber = 1; show(); });
    // The page's own first preview (in its HTML, for a browser without this script) is the
    // first turn: nothing else is asked for until it has come.
    picture.setAttribute("data-page-url", picture.getAttribute("src"));
    if (!picture.complete) {
      inTurn(function () {
        return new Promise(function (resolve) {
          picture.addEventListener("load", resolve, {once: true});
          picture.addEventListener("error", function () {
            preview.hidden = true;
            resolve();
          }, {once: true});
        });
      });
    } else if (!picture.naturalWidth) {
      preview.hidden = true;
    }
    // A form the browser filled in again (Back) may ask for another layout than the HTML's.
    var first = new URL(picture.getAttribute("src"), window.location.href);
    if (first.searchParams.get("layout") !== layout()) show();
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
    inTurn(function () { return fetchPatiently(url, 6); }).then(function (response) {
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
