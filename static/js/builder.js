// The builder's edits, one fleet version at a time (fleetbuilder/fleets/views.py).
// - Every edit sends the version of the fleet the page shows: #fleet-version, which every answer
//   replaces out of band. It is read when the request leaves, so an Add queued behind another
//   (hx-sync on #fleet-builder) sends the version the previous answer brought, not a stale one.
// - An edit made against an old version (another tab changed the fleet) is answered 409 with
//   the page's regions at the current version and the reason: htmx does not swap a 4xx by
//   default, so it is told to here, and clicks still queued from before it are dropped: they
//   were made on a roster the player no longer sees.
// - Keyboard: an edit's answer redraws only the rows it changed; htmx puts the focus back on a
//   control with the same id. When that control is gone (the unit was removed, "Make flagship"
//   became the admiral select), the answer's fleetFocus event names where it goes instead, so
//   focus never falls to <body>. Escape in an open editor closes it (its Done link).
// - Rows are numbered by their place in the fleet (ids unit-<i>, URLs /units/<i>/). A removal or
//   an insertion moves the rows after it: rather than sending them all again, the answer's
//   fleetRows event (fired when it arrives, before the swap) says which rows are gone and from
//   which old place on (for a reorder, up to which) the rows move by how much; they are
//   renumbered here (a gone row is only renamed gone-unit-<i>: the answer deletes it), and its
//   out-of-band rows land on the new numbers. The version check still guards every edit.
// - An edit that only renumbers squadrons ("Squadron 4" is now "Squadron 3") sends their new
//   labels alone: every place a row says its label is a .unit-label, swapped out of band.
// - "Move to" (an escort's squadron choices) is read here from the roster on the page: rows sent
//   to htmx carry only "A new squadron", so a squadron's answer does not grow with the fleet.
//   The page as first served (and without JavaScript) has every choice from the server.
// - Escorts alike: an answer draws a squadron's first escort and, for each other escort that
//   reads the same but for its number, a mark <template data-copy="unit-0-ship-0"
//   data-as="unit-0-ship-2" [data-part="-card"]>. Before htmx swaps the answer, each mark
//   becomes a copy of that element of the answer (its id plus data-part), the first escort's
//   number in it replaced by the other's, as the server checked it reads (pieces.as_escort).
//   With data-page the element copied is the page's, as it is before the swap (an escort added
//   or removed in the middle of a squadron: the ones after it move one place).
// - Reordering: Move up / Move down are plain forms; dragging a row's handle (pointer) posts to
//   the same endpoint with the place it was dropped at.
(function () {
  "use strict";

  var conflicts = 0;
  var FLEET_CHANGED = "fleetChanged";

  function inBuilder(elt) {
    return elt && elt.closest && elt.closest("#fleet-builder, #fleet-head");
  }

  // Stamp each click when it happens (a queued request fires this again later: keep the first).
  document.body.addEventListener("htmx:confirm", function (event) {
    var trigger = event.detail.triggeringEvent;
    if (trigger && inBuilder(event.detail.elt) && trigger.fleetConflicts === undefined) {
      trigger.fleetConflicts = conflicts;
    }
  });

  document.body.addEventListener("htmx:configRequest", function (event) {
    var detail = event.detail;
    if (!inBuilder(detail.elt)) return;
    var trigger = detail.triggeringEvent;
    if (trigger && trigger.fleetConflicts !== undefined && trigger.fleetConflicts !== conflicts) {
      event.preventDefault();
      return;
    }
    var current = document.getElementById("fleet-version");
    // A GET (opening an editor) sends it too: from a tab left behind it refreshes the page.
    if (current) detail.parameters.version = current.value;
  });

  var NUMBERED = ["id", "for", "aria-labelledby", "href", "hx-get", "hx-post", "action",
                  "formaction"];

  function renumberRows(detail) {
    // A gone row stays until the answer's swap deletes it (it may hold the form whose request
    // this is: htmx still needs it); it only gives up its number.
    // Its controls give up theirs too: htmx would put the focus back on a control of the same
    // id, which the row renumbered into its place has (its Remove, after the row's Remove).
    (detail.gone || []).forEach(function (id) {
      var gone = document.getElementById(id);
      if (!gone) return;
      gone.id = "gone-" + id;
      gone.querySelectorAll("[id]").forEach(function (el) { el.id = "gone-" + el.id; });
    });
    var from = detail.from, by = detail.by, until = detail.until, moved = detail.moved;
    if (!by) return;
    function move(n) {
      n = Number(n);
      if (moved && n === moved[0]) return String(moved[1]);
      var shifted = n >= from && (until === null || until === undefined || n < until);
      return String(shifted ? n + by : n);
    }
    function rewrite(name, value) {
      value = value
        .replace(/unit-(\d+)/g, function (m, n) { return "unit-" + move(n); })
        .replace(/\/units\/(\d+)\//g, function (m, n) { return "/units/" + move(n) + "/"; });
      // ?edit=<unit> in the page's own link; in hx-get (/units/<i>/?edit=1) it is a flag.
      if (name !== "href") return value;
      return value.replace(/([?&]edit=)(\d+)/g, function (m, key, n) { return key + move(n); });
    }
    document.querySelectorAll("#unit-list > article.unit").forEach(function (row) {
      if (row.id.indexOf("gone-") === 0) return;
      [row].concat(Array.prototype.slice.call(row.querySelectorAll("*"))).forEach(function (el) {
        NUMBERED.forEach(function (name) {
          var value = el.getAttribute(name);
          if (value) {
            var next = rewrite(name, value);
            if (next !== value) el.setAttribute(name, next);
          }
        });
      });
      // "Move to" names other squadrons by their place.
      row.querySelectorAll('select[name="to"] option').forEach(function (option) {
        if (/^\d+$/.test(option.value)) option.value = move(option.value);
      });
      if (window.htmx) window.htmx.process(row);  // htmx reads hx-post and hx-get again
    });
    if (moved) placeMoved(moved);
  }

  // A reorder: the moved row keeps its place in the document (it holds the focus, which a
  // node taken out and put back would lose); the rows it passed move to its other side.
  function placeMoved(moved) {
    var row = document.getElementById("unit-" + moved[1]);
    if (!row) return;
    var passed = liveRows().filter(function (other) {
      var n = Number(other.id.slice("unit-".length));
      return other !== row && (moved[1] < moved[0] ? n > moved[1] && n <= moved[0]
                                                   : n >= moved[0] && n < moved[1]);
    });
    if (moved[1] < moved[0]) {  // moved up: the rows it passed go after it, in order
      var after = row.nextSibling;
      passed.forEach(function (other) { row.parentNode.insertBefore(other, after); });
    } else {  // moved down: they go before it
      passed.forEach(function (other) { row.parentNode.insertBefore(other, row); });
    }
  }

  // Laptop and wider: the ship list's column stays on the screen (sticky) and scrolls on its
  // own. Before the page has scrolled it to the top of the screen it is only as tall as what
  // is left of the screen below its top, so its last ships can be scrolled to without
  // scrolling the page (app.css reads --side-top).
  var side = document.querySelector(".builder__side");
  var fitting = false;
  function fitSide() {
    fitting = false;
    if (!side || getComputedStyle(side).position !== "sticky") return;
    var top = Math.max(side.getBoundingClientRect().top, 0);
    document.documentElement.style.setProperty("--side-top", Math.round(top) + "px");
  }
  function fitSoon() {
    if (!fitting) { fitting = true; window.requestAnimationFrame(fitSide); }
  }
  window.addEventListener("scroll", fitSoon, {passive: true});
  window.addEventListener("resize", fitSoon);
  document.body.addEventListener("htmx:afterSettle", fitSoon);  // the page head may change
  fitSide();

  // A phone (one column): a switch shows the roster or the ship list, not one after the
  // other. Each keeps where it was scrolled to; the focus stays on the switch.
  // A link to a place in the hidden one (the bar's problems, a problem's unit) shows it.
  var builder = document.getElementById("fleet-builder");
  var tabs = document.getElementById("builder-switch");
  var scrolled = {};

  function showPane(name) {
    var was = builder.getAttribute("data-showing");
    if (was === name) return;
    var pane = builder.querySelector('[data-pane="' + name + '"]');
    if (was) scrolled[was] = window.scrollY;
    builder.setAttribute("data-showing", name);
    tabs.querySelectorAll("[data-show]").forEach(function (tab) {
      tab.setAttribute("aria-pressed", String(tab.getAttribute("data-show") === name));
    });
    if (!was) return;
    // Back where it was; the first time, its top just under the switch (if that is above).
    var to = scrolled[name];
    if (to === undefined) {
      var under = tabs.getBoundingClientRect().bottom;
      var top = pane.getBoundingClientRect().top;
      to = top < under ? window.scrollY + top - under - 8 : window.scrollY;
    }
    window.scrollTo({top: to, behavior: "instant"});
  }

  if (builder && tabs) {
    tabs.hidden = false;
    builder.classList.add("builder--switch");
    showPane("roster");
    tabs.addEventListener("click", function (event) {
      var tab = event.target.closest("[data-show]");
      if (tab) showPane(tab.getAttribute("data-show"));
    });
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest('a[href^="#"]');
      var target = link && document.getElementById(link.getAttribute("href").slice(1));
      var pane = target && target.closest("[data-pane]");
      if (pane) showPane(pane.getAttribute("data-pane"));
    }, true);
  }

  document.body.addEventListener("fleetRows", function (event) {
    renumberRows(event.detail || {});
  });

  function fillMoveTo() {
    var selects = document.querySelectorAll("#unit-list select[data-move-to]");
    if (!selects.length) return;  // no squadron's editor is open
    var squadrons = liveRows().filter(function (row) {
      return row.classList.contains("unit--squadron");
    }).map(function (row) {
      var label = row.querySelector(".unit__title .unit-label");
      return {row: row, value: row.id.slice("unit-".length),
              label: label ? label.textContent : row.id};
    });
    selects.forEach(function (select) {
      var own = select.closest("article.unit");
      var choices = squadrons.filter(function (s) { return s.row !== own; });
      var options = Array.prototype.slice.call(select.options).filter(function (option) {
        return option.value !== "new";
      });
      var same = options.length === choices.length && choices.every(function (s, i) {
        return options[i].value === s.value && options[i].textContent === s.label;
      });
      if (same) return;
      var chosen = select.value;
      options.forEach(function (option) { option.remove(); });
      var last = select.querySelector('option[value="new"]');
      choices.forEach(function (s) {
        var option = document.createElement("option");
        option.value = s.value;
        option.textContent = s.label;
        select.insertBefore(option, last);
      });
      select.value = chosen;
      if (select.selectedIndex < 0) select.selectedIndex = 0;
    });
  }

  // An edit in an open editor sends only the pieces it changed, not the row itself: the
  // flagship's row takes its class from the Flagship badge in its summary.
  function markFlagship() {
    var flagged = document.querySelectorAll(
      "#unit-list > article.unit--flagship, #unit-list > article .unit__summary .badge--flag");
    Array.prototype.forEach.call(flagged, function (el) {
      var row = el.closest("article.unit");
      var flag = row.querySelector(".unit__summary .badge--flag") !== null;
      if (row.classList.contains("unit--flagship") !== flag) {
        row.classList.toggle("unit--flagship", flag);
      }
    });
  }

  function tidyRows() {
    fillMoveTo();
    markFlagship();
  }

  tidyRows();
  document.body.addEventListener("htmx:afterSettle", tidyRows);

  function focusFirst(ids) {
    for (var i = 0; i < ids.length; i++) {
      var target = document.getElementById(ids[i]);
      // Not a hidden control (Move up on the first row), though it may hold the focus still:
      // a reorder keeps the moved row, and its buttons, in place.
      if (target && !target.disabled && getComputedStyle(target).visibility !== "hidden") {
        if (!target.matches("a[href], button, input, select, textarea")) {
          target.setAttribute("tabindex", "-1");
        }
        target.focus();
        // A hidden control (Move up on the first row) takes no focus: try the next.
        if (document.activeElement === target) return;
      }
    }
  }

  document.body.addEventListener("fleetFocus", function (event) {
    var detail = event.detail || {};
    var active = document.activeElement;
    var kept = active && active !== document.body && document.body.contains(active);
    if (kept && !detail.move) return;
    focusFirst(detail.ids || []);
  });

  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || event.defaultPrevented) return;
    var unit = event.target.closest && event.target.closest("#units article.unit--open");
    var done = unit && unit.querySelector(".unit__toggle");
    if (done) {
      event.preventDefault();
      done.focus();
      done.click();
    }
  });

  // Drag to reorder (pointer): a row's handle is dragged over the others; on release the unit
  // goes to the place shown, through the same endpoint as its Move up / Move down buttons
  // (reorder/ with to=<place>), so the answer, the version check and the focus are theirs.
  var drag = null;

  function liveRows() {
    return Array.prototype.slice.call(
      document.querySelectorAll("#unit-list > article.unit")
    ).filter(function (row) { return row.id.indexOf("gone-") !== 0; });
  }

  function clearMarks() {
    document.querySelectorAll(".unit--drop-before, .unit--drop-after").forEach(function (row) {
      row.classList.remove("unit--drop-before", "unit--drop-after");
    });
  }

  document.addEventListener("pointerdown", function (event) {
    var handle = event.target.closest && event.target.closest("#unit-list [data-drag-handle]");
    if (!handle || event.button !== 0) return;
    var row = handle.closest("article.unit");
    if (!row) return;
    event.preventDefault();
    var from = liveRows().indexOf(row);
    drag = {row: row, from: from, to: from};
    row.classList.add("unit--dragging");
    if (handle.setPointerCapture) handle.setPointerCapture(event.pointerId);
  });

  document.addEventListener("pointermove", function (event) {
    if (!drag) return;
    var others = liveRows().filter(function (row) { return row !== drag.row; });
    var place = 0;
    others.forEach(function (row) {
      var box = row.getBoundingClientRect();
      if (event.clientY > box.top + box.height / 2) place += 1;
    });
    drag.to = place;
    clearMarks();
    if (place === drag.from) return;
    if (place < others.length) others[place].classList.add("unit--drop-before");
    else if (others.length) others[others.length - 1].classList.add("unit--drop-after");
  });

  function endDrag(event) {
    if (!drag) return;
    var done = drag;
    drag = null;
    clearMarks();
    done.row.classList.remove("unit--dragging");
    if (event.type !== "pointerup" || done.to === done.from) return;
    var form = done.row.querySelector("form.unit__order");
    if (!form || !window.htmx) return;
    var values = {to: String(done.to)};
    var open = form.querySelector('input[name="open"]');
    if (open) values.open = open.value;
    window.htmx.ajax("POST", form.getAttribute("hx-post"), {source: form, values: values});
  }

  document.addEventListener("pointerup", endDrag);
  document.addEventListener("pointercancel", endDrag);

  function copyEscorts(html) {
    var box = document.createElement("template");
    box.innerHTML = html;
    box.content.querySelectorAll("template[data-copy]").forEach(function (mark) {
      var first = mark.getAttribute("data-copy"), other = mark.getAttribute("data-as");
      var id = first + (mark.getAttribute("data-part") || "");
      var page = mark.hasAttribute("data-page");
      var source = page ? document.getElementById(id) : box.content.getElementById(id);
      if (!source) return;
      var was = first.slice(first.lastIndexOf("-") + 1);
      var now = other.slice(other.lastIndexOf("-") + 1);
      var copy = document.createElement("template");
      copy.innerHTML = source.outerHTML.split(first).join(other)
        .split('name="ship" value="' + was + '"').join('name="ship" value="' + now + '"');
      if (page) {  // a piece of the page as it is: swapped out of band, no request's classes
        var root = copy.content.firstElementChild;
        root.setAttribute("hx-swap-oob", "true");
        [root].concat(Array.prototype.slice.call(root.querySelectorAll("[class]")))
          .forEach(function (el) {
            el.classList.remove("htmx-request", "htmx-settling", "htmx-swapping", "htmx-added");
          });
      }
      mark.replaceWith(copy.content);
    });
    return box.innerHTML;
  }

  // A refused edit (fleetRefused, views._refused): its reason beside the control the player
  // used, styled as a refusal, until the next edit. The live region has already said it.
  function clearRefusals() {
    document.querySelectorAll("[data-refusal]").forEach(function (note) { note.remove(); });
  }

  document.body.addEventListener("fleetRefused", function (event) {
    clearRefusals();
    var source = event.target;
    if (!source || !source.closest || !document.body.contains(source)) return;
    var note = document.createElement("p");
    note.className = "refusal";
    note.setAttribute("data-refusal", "");
    note.textContent = (event.detail && event.detail.message) || "";
    var row = source.closest(".shiplist__row");
    if (row) {
      row.appendChild(note);
    } else {
      var form = source.closest("form") || source;
      form.parentNode.insertBefore(note, form.nextSibling);
    }
  });

  document.body.addEventListener(FLEET_CHANGED, clearRefusals);

  document.body.addEventListener("htmx:beforeSwap", function (event) {
    var answer = event.detail.serverResponse;
    if (typeof answer === "string" && answer.indexOf("<template data-copy=") >= 0) {
      event.detail.serverResponse = copyEscorts(answer);
    }
    if (event.detail.xhr.status === 409 && inBuilder(event.detail.requestConfig.elt)) {
      conflicts += 1;
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
