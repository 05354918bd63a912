// Battle replay: steps the map drawn by templates/simulator/replay.html through the battle's
// steps (the page's replay.json, see rules_core/sim/replay.py). Without this script the page
// shows each round as a still map. Keys: Space, arrows, Home/End, 1-9 and 0 for rounds, +/-.
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
    var ships = data.ships.map(function (info, i) {
      var g = svg.querySelector('[data-ship="' + i + '"]');
      return {
        info: info, g: g, body: g.querySelector(".rship__body"),
        title: g.querySelector("title"), pips: g.querySelectorAll(".pip"),
        bar: g.querySelector(".rship__hullbar"), base: g.getAttribute("class")
      };
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

    function clear(layer) { while (layer.firstChild) layer.removeChild(layer.firstChild); }

    function drawShip(s, st) {
      if (!st || st[6] === 2 || st[6] === 3) {
        s.g.setAttribute("display", "none");
        return;
      }
      s.g.removeAttribute("display");
      s.g.setAttribute("transform", "translate(" + st[0] + " " + (depth - st[1]).toFixed(1) + ")");
      s.body.setAttribute("transform", "rotate(" + (-st[2]) + ")");
      s.g.setAttribute("class", s.base.replace(/ rship--(crippled|destroyed|disengaged)/g, "") +
                       (st[6] === 1 ? " rship--crippled" : ""));
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
      var before = root.querySelector("[data-log] [aria-current]");
      if (before) before.removeAttribute("aria-current");
      var item = logItems[i];
      item.setAttribute("aria-current", "step");
      // Scroll the log, not the page.
      var top = item.offsetTop - logBox.offsetTop;
      if (top < logBox.scrollTop || top + item.offsetHeight > logBox.scrollTop + logBox.clientHeight) {
        logBox.scrollTop = Math.max(0, top - logBox.clientHeight / 3);
      }
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
    root.setAttribute("data-ready", "");
  }

  fetch(root.getAttribute("data-src"), {credentials: "same-origin"})
    .then(function (r) { if (!r.ok) throw new Error(r.status); return r.json(); })
    .then(start)
    .catch(function () { /* the still maps stay: the page reads without the player */ });
})();
