// Filters the rules reference as you type: whole sections, and table rows inside them.
// Progressive: without JavaScript the form stays hidden and every section is shown.
(function () {
  "use strict";
  var form = document.querySelector("[data-rules-search]");
  if (!form) return;
  var input = form.querySelector("input[type=search]");
  var status = form.querySelector("[aria-live]");
  var empty = document.querySelector("[data-rules-empty]");
  var sections = Array.prototype.slice.call(document.querySelectorAll(".rules-section"));
  var tocLinks = {};
  document.querySelectorAll(".toc a[href^='#']").forEach(function (a) {
    tocLinks[a.getAttribute("href").slice(1)] = a.parentElement;
  });

  function text(el) { return el.textContent.toLowerCase().replace(/\s+/g, " "); }
  function matches(haystack, terms) {
    return terms.every(function (t) { return haystack.indexOf(t) !== -1; });
  }

  function apply() {
    var terms = input.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
    var shown = 0;
    sections.forEach(function (section) {
      var hit = !terms.length || matches(text(section), terms);
      var headingHit = !terms.length || matches(text(section.querySelector("h2")), terms);
      section.hidden = !hit;
      if (tocLinks[section.id]) tocLinks[section.id].hidden = !hit;
      // Inside a matching section, narrow each table to its matching rows, unless the heading
      // itself matched or no row of that table does (then the table is context: keep it whole).
      section.querySelectorAll("table").forEach(function (table) {
        var trs = Array.prototype.slice.call(table.querySelectorAll("tbody tr"));
        var rowHits = trs.map(function (tr) { return matches(text(tr), terms); });
        var narrow = hit && !headingHit && rowHits.some(Boolean);
        trs.forEach(function (tr, i) { tr.hidden = narrow && !rowHits[i]; });
      });
      if (hit) shown += 1;
    });
    empty.hidden = shown !== 0;
    status.textContent = terms.length
      ? shown + (shown === 1 ? " section matches" : " sections match")
      : "";
  }

  var timer;
  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(apply, 80);
  });
  form.addEventListener("submit", function (e) { e.preventDefault(); apply(); });
  form.hidden = false;
  if (input.value) apply();
})();
