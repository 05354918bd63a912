// Battle replay: steps the map drawn by templates/simulator/replay.html through the battle's
// steps (the page's replay.json, see rules_core/sim/replay.py). Without this script the page
// shows each round as a still map. Keys: Space, arrows, Home/End, 1-9 and 0 for rounds, +/-,
// F (follow the ships) and W (whole table); on the focused map, arrows pan and +/- zoom.
// The map's view is its SVG viewBox: it follows the ships on the table unless the player moves
// it (drag, pinch, wheel, keys). Labels keep one size on screen and are placed where they cover
// no other label or ship; a ship's full name shows when it is pointed at or its entry in the
// ship list has focus.
(function () {
  "use strict";

  var root = document.querySelector("[data-replay]");
  if (!root || !window.fetch) return;
  var SVG = "http://www.w3.org/2000/svg";
  var STATUS = ["", "crippled", "destroyed", "disengaged"];

  function el(name, attrs, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(node);
    return node;
  }

  function start(data) {
    var depth = data.table[1];
    var svg = root.querySelector(".rmap");
    var layers = {};
    ["terrain", "markers", "ordnance", "volleys"].forEach(function (name) {
      layers[name] = svg.querySelector('[data-layer="' + name + '"]');
    });
    layers.labels = svg.querySelector('[data-layer="labels"]');
    var counted = {a: 0, b: 0};
    var ships = data.ships.map(function (info, i) {
      var g = svg.querySelector('[data-ship="' + i + '"]');
      counted[info.side] += 1;
      return {
        info: info, g: g, body: g.querySelector(".rship__body"),
        title: g.querySelector("title"), pips: g.querySelectorAll(".pip"),
        bar: g.querySelector(".rship__hullbar"), base: g.getAttribute("class"),
        tag: info.side.toUpperCase() + counted[info.side], index: i, shown: null
      };
    });
    ships.forEach(function (s) {
      s.g.style.setProperty("--r", String(s.info.radius));
      s.g.setAttribute("data-tag", s.tag);
    });
    // The ship list: each ship's tag, name and state; pointing at an entry or focusing it shows
    // the ship on the map, activating it brings the ship into view.
    ships.forEach(function (s) {
      var list = root.querySelector('[data-ships="' + s.info.side + '"]');
      if (!list) return;
      var li = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "rship-item";
      button.setAttribute("data-ship-ref", String(s.index));
      var tag = document.createElement("span");
      tag.className = "rship-item__tag";
      tag.textContent = s.tag;
      var name = document.createElement("span");
      name.className = "rship-item__name";
      name.textContent = s.info.label;
      var now = document.createElement("span");
      now.className = "rship-item__state";
      button.appendChild(tag);
      button.appendChild(name);
      button.appendChild(now);
      li.appendChild(button);
      list.appendChild(li);
      s.item = li;
      s.itemState = now;
    });
    // The log beside the map, one line a step (the page prints it once, in the rounds below).
    var logBox = root.querySelector("[data-log]");
    var lines = document.createDocumentFragment();
    data.steps.forEach(function (step, i) {
      var li = document.createElement("li");
      li.className = "sim-event sim-event--" + (step.s || "both");
      li.setAttribute("data-step", String(i));
      var phase = document.createElement("span");
      phase.className = "sim-event__phase";
      phase.textContent = (step.r ? "R" + step.r + " " : "") + step.p;
      var text = document.createElement("span");
      text.className = "sim-event__text";
      text.textContent = step.t;
      li.appendChild(phase);
      li.appendChild(text);
      lines.appendChild(li);
    });
    logBox.appendChild(lines);
    var logItems = logBox.querySelectorAll("[data-step]");
    var where = root.querySelector("[data-where]");
    var now = root.querySelector("[data-now]");
    var playButton = root.querySelector('[data-act="play"]');
    var speed = root.querySelector("[data-speed]");
    var roundButtons = root.querySelectorAll("[data-round]");
    var phases = {setup: "set-up", drift: "drift", command: "command",
                  activation: "activation", end: "end phase", result: "result"};

    // Whole states, one per step (the steps carry only what changed).
    var frames = [];
    var state = {ships: data.ships.map(function () { return null; }), markers: [], ordnance: [],
                 terrain: []};
    data.steps.forEach(function (step) {
      var ships = state.ships.slice();
      if (step.ships) Object.keys(step.ships).forEach(function (k) { ships[+k] = step.ships[k]; });
      state = {ships: ships, markers: step.markers || state.markers,
               ordnance: step.ordnance || state.ordnance, terrain: step.terrain || state.terrain};
      frames.push({round: step.r, phase: step.p, text: step.t, ships: ships,
                   markers: state.markers, ordnance: state.ordnance, terrain: state.terrain,
                   volleys: step.volleys || []});
    });
    var roundStart = {};
    frames.forEach(function (f, i) { if (!(f.round in roundStart)) roundStart[f.round] = i; });

    var current = -1;
    var drawn = {};
    var timer = null;
    var marked = null;  // the ship pointed at, or whose list entry has focus
    var pointed = null;
    var focused = null;

    // ---- The view: which part of the table the map shows (its viewBox, in centimetres).
    var width = data.table[0];
    var view = root.querySelector("[data-view]");
    var followButton = root.querySelector('[data-zoom="follow"]');
    var whole = {x: -2, y: -2, w: width + 4, h: depth + 4};
    var box = whole;
    var following = true;
    var anim = null;
    var reduceMotion = window.matchMedia &&
      window.matchMedia("(prefers-reduced-motion: reduce)").matches;

    function screen() {
      var r = view.getBoundingClientRect();
      return {w: r.width || 1, h: r.height || 1};
    }

    function fitted(b) {
      // The box grown to the view's shape around its centre, then held between 14 cm across
      // (closest) and the whole table with a margin (farthest), and kept on the table.
      var s = screen(), aspect = s.w / s.h;
      var w = b.w, h = b.h;
      if (w / h < aspect) w = h * aspect; else h = w / aspect;
      var farthest = Math.max(whole.w / w, whole.h / h) * 1.15;
      var k = Math.min(Math.max(1, 14 / Math.min(w, h)), farthest);
      w *= k; h *= k;
      // Wider than the table: the table in the middle; narrower: no further off it than its
      // edge, so no view is spent on what lies beyond.
      function centre(c, size, lo, span) {
        if (size >= span) return lo + span / 2;
        return Math.max(lo + size / 2, Math.min(lo + span - size / 2, c));
      }
      var cx = centre(b.x + b.w / 2, w, whole.x, whole.w);
      var cy = centre(b.y + b.h / 2, h, whole.y, whole.h);
      return {x: cx - w / 2, y: cy - h / 2, w: w, h: h};
    }

    function apply(b) {
      box = b;
      svg.setAttribute("viewBox", [b.x, b.y, b.w, b.h].map(function (n) {
        return n.toFixed(2);
      }).join(" "));
      svg.style.setProperty("--u", (b.w / screen().w).toFixed(4));  // centimetres a pixel
      placeLabels();
    }

    function moveTo(b, smooth) {
      b = fitted(b);
      if (anim) cancelAnimationFrame(anim);
      anim = null;
      if (!smooth || reduceMotion) { apply(b); return; }
      var from = box, t0 = null;
      function frame(now) {
        if (t0 === null) t0 = now;
        var k = Math.min(1, (now - t0) / 280);
        k = 1 - Math.pow(1 - k, 3);
        apply({x: from.x + (b.x - from.x) * k, y: from.y + (b.y - from.y) * k,
               w: from.w + (b.w - from.w) * k, h: from.h + (b.h - from.h) * k});
        anim = k < 1 ? requestAnimationFrame(frame) : null;
      }
      anim = requestAnimationFrame(frame);
    }

    function actionBox(f) {
      // Every ship on the table, the ordnance in flight and this step's shots, with room
      // around them for the weapon arcs and the labels.
      var x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
      function add(x, y) {
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
      f.ships.forEach(function (st) { if (st && st[6] < 2) add(st[0], depth - st[1]); });
      f.ordnance.forEach(function (o) { add(o[2], depth - o[3]); });
      f.volleys.forEach(function (v) { if (Array.isArray(v[0])) add(v[0][0], depth - v[0][1]); });
      if (x0 === Infinity) return whole;
      var pad = 9 + 0.06 * Math.max(x1 - x0, y1 - y0);
      return {x: x0 - pad, y: y0 - pad, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad};
    }

    function inside(inner, outer) {
      return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w &&
        inner.y + inner.h <= outer.y + outer.h;
    }

    function follow(f) {
      // Move only when a ship would leave the view or the action has shrunk well inside it,
      // so the map does not twitch at every step.
      var want = fitted(actionBox(f));
      if (inside(want, box) && want.w > box.w * 0.7) { placeLabels(); return; }
      moveTo(want, current >= 0);
    }

    function setFollowing(on) {
      following = on;
      followButton.setAttribute("aria-pressed", String(on));
      if (on && current >= 0) moveTo(actionBox(frames[current]), true);
    }

    function zoomAt(factor, px, py) {
      var s = screen();
      var cx = box.x + box.w * px / s.w, cy = box.y + box.h * py / s.h;
      var w = box.w / factor, h = box.h / factor;
      if (following) setFollowing(false);
      moveTo({x: cx - w * px / s.w, y: cy - h * py / s.h, w: w, h: h}, false);
    }

    function panBy(dx, dy) {
      var u = box.w / screen().w;
      if (following) setFollowing(false);
      moveTo({x: box.x - dx * u, y: box.y - dy * u, w: box.w, h: box.h}, false);
    }

    function showShip(i) {
      var st = current >= 0 ? frames[current].ships[i] : null;
      if (!st || st[6] >= 2) return;
      if (following) setFollowing(false);
      var w = Math.min(box.w, 60), h = Math.min(box.h, 60);
      moveTo({x: st[0] - w / 2, y: depth - st[1] - h / 2, w: w, h: h}, true);
    }

    // ---- Labels, in screen pixels: a tag by each ship (A1, B3 …), the terrain's names, and the
    // full name of the ship marked. Greedy: the marked ship, then capital ships, terrain and
    // escorts each take the first place that covers no label or ship already there, or none.
    var TAG_PX = 12, NAME_PX = 13, TERRAIN_PX = 12, GLYPH_PX = 6;

    function placeLabels() {
      var layer = layers.labels;
      if (!layer || current < 0) return;
      clear(layer);
      var f = frames[current], s = screen(), u = box.w / s.w;
      var taken = [];
      function px(x, y) { return [(x - box.x) / u, (y - box.y) / u]; }
      function free(r) {
        if (r[0] < 2 || r[1] < 2 || r[2] > s.w - 2 || r[3] > s.h - 2) return false;
        for (var k = 0; k < taken.length; k++) {
          var t = taken[k];
          if (r[0] < t[2] && r[2] > t[0] && r[1] < t[3] && r[3] > t[1]) return false;
        }
        return true;
      }
      var onTable = [];
      f.ships.forEach(function (st, i) {
        if (!st || st[6] >= 2) return;
        var p = px(st[0], depth - st[1]);
        // A ship is drawn at least GLYPH_PX in radius (replay.css); its shield dots and hull
        // bar reach 1.6 cm further.
        var rad = ships[i].info.radius;
        var r = Math.max(rad / u, GLYPH_PX) * (rad + 1.6) / rad;
        if (p[0] < -r || p[1] < -r || p[0] > s.w + r || p[1] > s.h + r) return;
        onTable.push({ship: ships[i], p: p, r: r});
        taken.push([p[0] - r, p[1] - r, p[0] + r, p[1] + r]);
      });
      function put(text, p, r, size, cls, places, always) {
        var w = text.length * size * 0.58 + 8, h = size * 1.25, gap = 2;
        var spots = places ? places(w, h) : [[0, r + gap + h / 2], [0, -(r + gap + h / 2)],
                               [r + gap + w / 2, 0], [-(r + gap + w / 2), 0],
                               [r + w / 2, r + h / 2], [-(r + w / 2), r + h / 2],
                               [r + w / 2, -(r + h / 2)], [-(r + w / 2), -(r + h / 2)]];
        function at(cx, cy) {
          var rect = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2];
          taken.push(rect);
          var t = el("text", {"class": "rlabel " + cls, x: (box.x + cx * u).toFixed(2),
                              y: (box.y + (cy + size * 0.36) * u).toFixed(2),
                              "font-size": (size * u).toFixed(3)}, layer);
          t.textContent = text;
          return t;
        }
        for (var k = 0; k < spots.length; k++) {
          var cx = p[0] + spots[k][0], cy = p[1] + spots[k][1];
          if (free([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2])) return at(cx, cy);
        }
        // The marked ship's name is shown even over a crowd (it is placed first, so the other
        // labels keep clear of it), kept inside the view.
        if (always) {
          return at(Math.max(w / 2 + 2, Math.min(s.w - w / 2 - 2, p[0] + spots[0][0])),
                    Math.max(h / 2 + 2, Math.min(s.h - h / 2 - 2, p[1] + spots[0][1])));
        }
        return null;
      }
      var first = onTable.filter(function (o) { return o.ship.index === marked; });
      first.forEach(function (o) {
        put(o.ship.tag + " " + o.ship.info.label, o.p, o.r, NAME_PX,
            "rlabel--name rlabel--" + o.ship.info.side, null, true);
      });
      function tags(escorts) {
        onTable.forEach(function (o) {
          if (o.ship.index === marked || o.ship.info.escort !== escorts) return;
          put(o.ship.tag, o.p, o.r, TAG_PX, "rlabel--tag rlabel--" + o.ship.info.side);
        });
      }
      tags(false);
      f.terrain.forEach(function (t) {
        var p = px(t[1], depth - t[2]), r = t[3] / u;
        // Inside the piece first, then just outside it, all the way round.
        put(t[4], p, r, TERRAIN_PX, "rlabel--terrain", function (w, h) {
          var spots = [[0, 0], [0, -r * 0.55], [0, r * 0.55], [-r * 0.45, 0], [r * 0.45, 0]];
          for (var a = 0; a < 8; a++) {
            var turn = (a + 2) * Math.PI / 4;  // below first, then round
            spots.push([Math.cos(turn) * (r + w / 2 + 2), Math.sin(turn) * (r + h / 2 + 2)]);
          }
          return spots;
        });
      });
      tags(true);
    }

    function mark(i) {
      if (i === marked) return;
      if (marked !== null) ships[marked].g.classList.remove("rship--marked");
      marked = i;
      if (marked !== null) ships[marked].g.classList.add("rship--marked");
      placeLabels();
    }

    function remark() { mark(pointed !== null ? pointed : focused); }

    function clear(layer) { while (layer.firstChild) layer.removeChild(layer.firstChild); }

    function listShip(s, st) {
      if (!s.item || s.shown === st) return;
      s.shown = st;
      var words;
      if (!st) words = "not on the table yet";
      else if (st[6] === 2 || st[6] === 3) words = STATUS[st[6]];
      else {
        words = "hull " + st[4] + "/" + s.info.hull + " · shields " + st[3] + "/" + s.info.shields;
        if (st[6] === 1) words += " · crippled";
      }
      s.itemState.textContent = words;
      s.item.className = "rship-list__item" + (st && st[6] ? " rship-list__item--" + STATUS[st[6]] : "");
    }

    function drawShip(s, st) {
      listShip(s, st);
      if (!st || st[6] === 2 || st[6] === 3) {
        s.g.setAttribute("display", "none");
        return;
      }
      s.g.removeAttribute("display");
      s.g.setAttribute("transform", "translate(" + st[0] + " " + (depth - st[1]).toFixed(1) + ")");
      s.body.setAttribute("transform", "rotate(" + (-st[2]) + ")");
      s.g.setAttribute("class", s.base.replace(/ rship--(crippled|destroyed|disengaged)/g, "") +
                       (st[6] === 1 ? " rship--crippled" : "") +
                       (marked === s.index ? " rship--marked" : ""));
      for (var k = 0; k < s.pips.length; k++) {
        s.pips[k].setAttribute("class", k < st[3] ? "pip pip--up" : "pip");
      }
      s.bar.setAttribute("width", s.info.hull ? (6 * st[4] / s.info.hull).toFixed(2) : "0");
      var words = [s.info.label + " (fleet " + s.info.side.toUpperCase() + ")",
                   "hull " + st[4] + "/" + s.info.hull, "shields " + st[3] + "/" + s.info.shields];
      if (st[5]) words.push(st[5] + " blast marker" + (st[5] > 1 ? "s" : ""));
      if (st[7]) words.push(st[7] + " critical" + (st[7] > 1 ? "s" : ""));
      if (STATUS[st[6]]) words.push(STATUS[st[6]]);
      s.title.textContent = words.join(", ");
    }

    function draw(i) {
      i = Math.max(0, Math.min(frames.length - 1, i));
      if (i === current) return;
      var f = frames[i];
      current = i;
      f.ships.forEach(function (st, k) { drawShip(ships[k], st); });
      if (drawn.terrain !== f.terrain) {
        clear(layers.terrain);
        f.terrain.forEach(function (t) {
          var c = el("circle", {"class": "terrain terrain--" + t[0], cx: t[1],
                                cy: (depth - t[2]).toFixed(1), r: t[3]}, layers.terrain);
          el("title", {}, c).textContent = t[4];
        });
        drawn.terrain = f.terrain;
      }
      if (drawn.markers !== f.markers) {
        clear(layers.markers);
        f.markers.forEach(function (m) {
          el("circle", {"class": "blast", cx: m[0], cy: (depth - m[1]).toFixed(1), r: 1},
             layers.markers);
        });
        drawn.markers = f.markers;
      }
      if (drawn.ordnance !== f.ordnance) {
        clear(layers.ordnance);
        f.ordnance.forEach(function (o) {
          var g = el("g", {"class": "ord ord--" + o[0] + " ord--" + o[1],
                           transform: "translate(" + o[2] + " " + (depth - o[3]).toFixed(1) + ")"},
                     layers.ordnance);
          el("circle", {r: 1}, g);
          el("text", {y: 0.5}, g).textContent = o[5];
          el("title", {}, g).textContent = o[5] + " " + o[0] + " (fleet " + o[1].toUpperCase() + ")";
        });
        drawn.ordnance = f.ordnance;
      }
      clear(layers.volleys);
      f.volleys.forEach(function (v) {
        var target = f.ships[v[1]];
        var from = Array.isArray(v[0]) ? v[0] : (v[0] >= 0 ? f.ships[v[0]] : null);
        if (!target || !from) return;
        el("line", {"class": "volley volley--" + v[2] + (v[4] > 0 ? " volley--hit" : ""),
                    x1: from[0], y1: (depth - from[1]).toFixed(1),
                    x2: target[0], y2: (depth - target[1]).toFixed(1)}, layers.volleys);
      });
      if (following) follow(f);
      else placeLabels();
      var before = root.querySelector("[data-log] [aria-current]");
      if (before) before.removeAttribute("aria-current");
      var item = logItems[i];
      item.setAttribute("aria-current", "step");
      // Scroll the log, not the page.
      var top = item.offsetTop - logBox.offsetTop;
      if (top < logBox.scrollTop || top + item.offsetHeight > logBox.scrollTop + logBox.clientHeight) {
        logBox.scrollTop = Math.max(0, top - logBox.clientHeight / 3);
      }
      // On a narrow screen the log is under the map: the step's line is repeated under it.
      if (now) now.textContent = f.text;
      where.textContent = (f.round ? "Round " + f.round + " · " : "") + phases[f.phase] +
        " · step " + (i + 1) + " of " + frames.length;
      roundButtons.forEach(function (b) {
        b.setAttribute("aria-pressed", String(+b.getAttribute("data-round") === f.round));
      });
      if (!timer && history.replaceState) {
        history.replaceState(null, "", "#step-" + (i + 1));
      }
    }

    function pause() {
      if (timer) clearInterval(timer);
      timer = null;
      playButton.textContent = "Play";
      playButton.setAttribute("aria-pressed", "false");
      where.setAttribute("aria-live", "polite");
      if (history.replaceState) history.replaceState(null, "", "#step-" + (current + 1));
    }

    function play() {
      if (current >= frames.length - 1) draw(0);
      playButton.textContent = "Pause";
      playButton.setAttribute("aria-pressed", "true");
      where.setAttribute("aria-live", "off");  // no announcement per step while playing
      timer = setInterval(function () {
        if (current >= frames.length - 1) { pause(); return; }
        draw(current + 1);
      }, +speed.value);
    }

    function toggle() { if (timer) pause(); else play(); }

    function go(i) { if (timer) pause(); draw(i); }

    function jumpRound(n) { if (n in roundStart) go(roundStart[n]); }

    function faster(by) {
      var next = speed.selectedIndex + by;
      if (next < 0 || next >= speed.options.length) return;
      speed.selectedIndex = next;
      if (timer) { pause(); play(); }
    }

    root.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !root.contains(button)) return;
      var act = button.getAttribute("data-act");
      if (act === "play") toggle();
      else if (act === "step") go(current + 1);
      else if (act === "back") go(current - 1);
      else if (act === "first") go(0);
      else if (act === "last") go(frames.length - 1);
      else if (button.hasAttribute("data-round")) jumpRound(+button.getAttribute("data-round"));
    });
    speed.addEventListener("change", function () { if (timer) { pause(); play(); } });
    logBox.addEventListener("click", function (event) {
      var item = event.target.closest("[data-step]");
      if (item) go(+item.getAttribute("data-step"));
    });

    root.querySelectorAll("[data-zoom]").forEach(function (button) {
      button.addEventListener("click", function () {
        var how = button.getAttribute("data-zoom"), s = screen();
        if (how === "in") zoomAt(1.4, s.w / 2, s.h / 2);
        else if (how === "out") zoomAt(1 / 1.4, s.w / 2, s.h / 2);
        else if (how === "follow") setFollowing(!following);
        else { setFollowing(false); moveTo(whole, true); }
      });
    });

    // Mouse, pen and touch: one pointer drags the map, two pinch it; the wheel zooms where the
    // pointer is.
    var pointers = {};
    var travelled = 0;
    function count() { return Object.keys(pointers).length; }
    view.addEventListener("pointerdown", function (event) {
      if (event.pointerType === "mouse" && event.button !== 0) return;
      pointers[event.pointerId] = {x: event.clientX, y: event.clientY};
      travelled = 0;
      try { view.setPointerCapture(event.pointerId); } catch (e) { /* a synthetic pointer */ }
    });
    view.addEventListener("pointermove", function (event) {
      var was = pointers[event.pointerId];
      if (!was) return;
      var now = {x: event.clientX, y: event.clientY};
      var n = count();
      if (n === 1) {
        travelled += Math.abs(now.x - was.x) + Math.abs(now.y - was.y);
        if (travelled > 3) panBy(now.x - was.x, now.y - was.y);
        else return;  // a click, not yet a drag
      } else if (n === 2) {
        var other = null;
        Object.keys(pointers).forEach(function (id) {
          if (+id !== event.pointerId) other = pointers[id];
        });
        var r = view.getBoundingClientRect();
        var d0 = Math.hypot(was.x - other.x, was.y - other.y);
        var d1 = Math.hypot(now.x - other.x, now.y - other.y);
        var m0 = {x: (was.x + other.x) / 2 - r.left, y: (was.y + other.y) / 2 - r.top};
        var m1 = {x: (now.x + other.x) / 2 - r.left, y: (now.y + other.y) / 2 - r.top};
        if (d0 > 0 && d1 > 0) zoomAt(d1 / d0, m0.x, m0.y);
        panBy(m1.x - m0.x, m1.y - m0.y);
      }
      pointers[event.pointerId] = now;
      view.classList.add("rmap-view--dragging");
    });
    function lift(event) {
      delete pointers[event.pointerId];
      if (!count()) view.classList.remove("rmap-view--dragging");
    }
    view.addEventListener("pointerup", lift);
    view.addEventListener("pointercancel", lift);
    view.addEventListener("wheel", function (event) {
      var r = view.getBoundingClientRect();
      var dy = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      var factor = Math.exp(-Math.max(-300, Math.min(300, dy)) * 0.002);
      // Zoomed out as far as it goes, the wheel scrolls the page on to the ship list.
      if (factor < 1 && fitted({x: box.x, y: box.y, w: box.w / factor, h: box.h / factor}).w <=
          box.w + 0.01) return;
      event.preventDefault();
      zoomAt(factor, event.clientX - r.left, event.clientY - r.top);
    }, {passive: false});
    view.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var s = screen(), step = Math.min(s.w, s.h) / 5;
      var moves = {ArrowLeft: [step, 0], ArrowRight: [-step, 0], ArrowUp: [0, step],
                   ArrowDown: [0, -step]};
      if (moves[event.key]) panBy(moves[event.key][0], moves[event.key][1]);
      else if (event.key === "+" || event.key === "=") zoomAt(1.4, s.w / 2, s.h / 2);
      else if (event.key === "-" || event.key === "_") zoomAt(1 / 1.4, s.w / 2, s.h / 2);
      else return;
      event.preventDefault();
      event.stopPropagation();  // not a step or a speed: the replay's own keys stay as they are
    });
    svg.addEventListener("pointerover", function (event) {
      var g = event.target.closest && event.target.closest("[data-ship]");
      pointed = g ? +g.getAttribute("data-ship") : null;
      remark();
    });
    svg.addEventListener("pointerleave", function () { pointed = null; remark(); });
    root.querySelectorAll("[data-ships]").forEach(function (list) {
      list.addEventListener("focusin", function (event) {
        var b = event.target.closest("[data-ship-ref]");
        focused = b ? +b.getAttribute("data-ship-ref") : null;
        remark();
      });
      list.addEventListener("focusout", function () { focused = null; remark(); });
      list.addEventListener("pointerover", function (event) {
        var b = event.target.closest("[data-ship-ref]");
        pointed = b ? +b.getAttribute("data-ship-ref") : null;
        remark();
      });
      list.addEventListener("pointerleave", function () { pointed = null; remark(); });
      list.addEventListener("click", function (event) {
        var b = event.target.closest("[data-ship-ref]");
        if (b) showShip(+b.getAttribute("data-ship-ref"));
      });
    });
    if (window.ResizeObserver) {
      new ResizeObserver(function () {
        if (current < 0) return;
        if (following) moveTo(actionBox(frames[current]), false);
        else moveTo(box, false);
      }).observe(view);
    }

    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      var t = event.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      var key = event.key;
      if (key === " " || key === "Spacebar") {
        // Space on a focused button other than Play would press it as well: play/pause only.
        event.preventDefault();
        toggle();
      } else if (key === "ArrowRight") { event.preventDefault(); go(current + 1); }
      else if (key === "ArrowLeft") { event.preventDefault(); go(current - 1); }
      else if (key === "Home") { event.preventDefault(); go(0); }
      else if (key === "End") { event.preventDefault(); go(frames.length - 1); }
      else if (/^[0-9]$/.test(key)) { jumpRound(key === "0" ? 10 : +key); }
      else if (key === "+" || key === "=") { faster(1); }
      else if (key === "-") { faster(-1); }
      else if (key === "f" || key === "F") { setFollowing(true); }
      else if (key === "w" || key === "W") { setFollowing(false); moveTo(whole, true); }
    });

    // A focused button would also take Space as a click on key-up: the replay has it already.
    document.addEventListener("keyup", function (event) {
      var t = event.target;
      if ((event.key === " " || event.key === "Spacebar") && t &&
          !(t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) {
        event.preventDefault();
      }
    });

    var wanted = /^#step-(\d+)$/.exec(location.hash);
    var stills = document.querySelector("[data-replay-rounds]");
    if (stills) stills.hidden = true;
    root.hidden = false;  // before the first step, so the log can scroll to it
    current = -1;
    draw(wanted ? +wanted[1] - 1 : 0);
    moveTo(actionBox(frames[current]), false);
    root.setAttribute("data-ready", "");
  }

  fetch(root.getAttribute("data-src"), {credentials: "same-origin"})
    .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
    .then(start)
    .catch(function () { /* the still maps stay: the page reads without the player */ });
})();
