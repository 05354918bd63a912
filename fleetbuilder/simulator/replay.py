"""What a replay page draws: the table seen from above, as SVG, at any step of a battle.

The steps come from ``Matchup.replay`` (``rules_core.sim.replay``). The page draws the first
step's map with every ship in it; static/js/replay.js moves those same shapes step by step.
Without JavaScript the page shows each round's last step as a still map instead. Pure
functions of the replay's data, so tests read the values the page prints.

The map keeps the engine's centimetres; only y is turned over, so fleet A's edge is at the
bottom: a point (x, y) is drawn at (x, depth - y), and a heading h at rotate(-h).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from rules_core.sim.replay import CRIPPLED, DESTROYED, DISENGAGED, frames_at

STATUS_WORDS = {0: "", CRIPPLED: "crippled", DESTROYED: "destroyed", DISENGAGED: "disengaged"}
ARC_SPANS = {"f": (-45, 45), "l": (45, 135), "b": (135, 225), "r": (225, 315)}  # engine degrees
PHASE_WORDS = {
    "setup": "Set-up",
    "drift": "Drift",
    "command": "Command",
    "activation": "Activation",
    "end": "End phase",
    "result": "Result",
}


@dataclass(frozen=True)
class ShipShape:
    """A ship's parts that never change: its hull outline and arc wedges (local coordinates,
    prow along +x), its base and its label."""

    index: int
    side: str
    label: str
    radius: float
    hull_points: str  # the polygon
    arc_paths: tuple[str, ...]
    max_hull: int
    max_shields: int
    escort: bool

    @property
    def pip_y(self) -> float:
        return round(-self.radius - 1.0, 2)

    @property
    def bar_y(self) -> float:
        return round(self.radius + 0.6, 2)

    @property
    def label_y(self) -> float:
        return round(self.radius + 3.6, 2)


def _arc_path(r: float, span: tuple[int, int]) -> str:
    """A wedge from the ship's centre (screen coordinates, y down, before the ship's turn)."""
    a0, a1 = (math.radians(-a) for a in span)
    x0, y0 = r * math.cos(a0), r * math.sin(a0)
    x1, y1 = r * math.cos(a1), r * math.sin(a1)
    return f"M0 0L{x0:.2f} {y0:.2f}A{r:.2f} {r:.2f} 0 0 0 {x1:.2f} {y1:.2f}Z"


def ship_shapes(data: dict[str, Any]) -> list[ShipShape]:
    out = []
    for i, s in enumerate(data["ships"]):
        r = float(s["radius"])
        reach = max(6.0, r * 3.5)
        outline = (
            f"{r:.2f},0 {-r * 0.8:.2f},{r * 0.65:.2f} {-r * 0.45:.2f},0 "
            f"{-r * 0.8:.2f},{-r * 0.65:.2f}"
        )
        out.append(
            ShipShape(
                index=i,
                side=s["side"],
                label=s["label"],
                radius=r,
                hull_points=outline,
                arc_paths=tuple(_arc_path(reach, ARC_SPANS[a]) for a in s["arcs"]),
                max_hull=int(s["hull"]),
                max_shields=int(s["shields"]),
                escort=bool(s["escort"]),
            )
        )
    return out


@dataclass(frozen=True)
class ShipAt:
    shape: ShipShape
    x: float
    y: float
    rotate: int
    shields: int
    hull: int
    blast_markers: int
    status: str  # "" | "crippled" | "destroyed" | "disengaged"
    criticals: int
    hidden: bool  # off the table (or not yet placed)
    hull_width: float  # the hull bar's filled width, of 6
    shield_pips: tuple[tuple[float, bool], ...]  # (x, up) for each shield

    @property
    def title(self) -> str:
        s = self.shape
        words = [
            f"{s.label} (fleet {s.side.upper()})",
            f"hull {self.hull}/{s.max_hull}",
            f"shields {self.shields}/{s.max_shields}",
        ]
        if self.blast_markers:
            n = self.blast_markers
            words.append(f"{n} blast marker{'s' if n > 1 else ''}")
        if self.criticals:
            words.append(f"{self.criticals} critical{'s' if self.criticals > 1 else ''}")
        if self.status:
            words.append(self.status)
        return ", ".join(words)


def _ship_at(shape: ShipShape, state: list[Any] | None, depth: float) -> ShipAt:
    if state is None:
        return ShipAt(shape, 0.0, 0.0, 0, 0, 0, 0, "", 0, True, 0.0, ())
    x, y, heading, shields, hull, markers, status, crits = state
    pips = tuple(
        (-(shape.max_shields - 1) * 0.9 + 1.8 * k, k < shields) for k in range(shape.max_shields)
    )
    word = STATUS_WORDS.get(status, "")
    return ShipAt(
        shape,
        x,
        round(depth - y, 1),
        -int(heading),
        shields,
        hull,
        markers,
        word,
        crits,
        word in ("destroyed", "disengaged"),
        round(6.0 * hull / shape.max_hull, 2) if shape.max_hull else 0.0,
        pips,
    )


@dataclass(frozen=True)
class Volley:
    x1: float
    y1: float
    x2: float
    y2: float
    kind: str  # "volley" | "ordnance" | "hazard"
    hit: bool  # it took hull points


def map_at(data: dict[str, Any], frame: dict[str, Any], shapes: list[ShipShape]) -> dict[str, Any]:
    """Everything one still map draws, at one step (a frame of :func:`frames_at`)."""
    width, depth = data["table"]
    ships = [
        _ship_at(shape, state, depth) for shape, state in zip(shapes, frame["ships"], strict=True)
    ]
    volleys = []
    for origin, target, kind, _hits, lost in frame["volleys"]:
        t = ships[target]
        if isinstance(origin, list):
            x1, y1 = origin[0], depth - origin[1]
        elif 0 <= origin < len(ships) and frame["ships"][origin] is not None:
            o = frame["ships"][origin]
            x1, y1 = o[0], depth - o[1]
        else:
            continue
        volleys.append(Volley(x1, round(y1, 1), t.x, t.y, kind, lost > 0))
    return {
        "width": width,
        "depth": depth,
        "view_w": width + 4,
        "view_h": depth + 4,
        "zone_a_y": depth - 30,
        "terrain": [
            {"kind": k, "x": x, "y": round(depth - y, 1), "r": r, "name": n}
            for k, x, y, r, n in frame["terrain"]
        ],
        "markers": [(x, round(depth - y, 1)) for x, y in frame["markers"]],
        "ordnance": [
            {"kind": k, "side": s, "x": x, "y": round(depth - y, 1), "rotate": -h, "count": c}
            for k, s, x, y, h, c in frame["ordnance"]
        ],
        "ships": ships,
        "volleys": volleys,
    }


@dataclass(frozen=True)
class Line:
    step: int
    round: int
    phase: str
    side: str | None
    text: str


@dataclass(frozen=True)
class RoundStill:
    number: int
    heading: str
    map: dict[str, Any]
    lines: list[Line]

    @property
    def label(self) -> str:
        return f"{self.heading}: the table as it ends"


# A page draws at most this many ships in its round-by-round stills: a battle of
# two small fleets keeps every round on one page; one of two 150-ship fleets shows a round or
# two a page, with links to the others, so no page costs more than about 0.3 s and 500 KB.
STILL_SHIPS_PER_PAGE = 400


@dataclass(frozen=True)
class RoundPage:
    first: int  # the round the page starts at (its ?rounds=)
    last: int
    current: bool

    @property
    def label(self) -> str:
        name = "Set-up" if self.first == 0 else f"Round {self.first}"
        return name if self.first == self.last else f"{name}–{self.last}"


def _drawn(frame: dict[str, Any]) -> int:
    """Ships a still of ``frame`` draws: those on the table."""
    return sum(
        1
        for state in frame["ships"]
        if state is not None and STATUS_WORDS.get(state[6], "") not in ("destroyed", "disengaged")
    )


def replay_context(data: dict[str, Any], first_round: int = 0) -> dict[str, Any]:
    """The page: the first step's map (for the player), every log line, and the last step of
    each round from ``first_round`` as a still (for reading without JavaScript), as many
    rounds as STILL_SHIPS_PER_PAGE allows; ``round_pages`` leads to the others."""
    frames = frames_at(data)
    shapes = ship_shapes(data)
    lines = [Line(i, f["round"], f["phase"], f["side"], f["text"]) for i, f in enumerate(frames)]
    rounds: dict[int, list[Line]] = {}
    for line in lines:
        rounds.setdefault(line.round, []).append(line)
    # Cut the rounds into pages by the ships their stills draw.
    pages: list[list[int]] = []
    drawn = 0
    for number, round_lines in sorted(rounds.items()):
        cost = _drawn(frames[round_lines[-1].step])
        if not pages or drawn + cost > STILL_SHIPS_PER_PAGE:
            pages.append([])
            drawn = 0
        pages[-1].append(number)
        drawn += cost
    shown = next((page for page in pages if first_round in page), pages[0] if pages else [])
    stills = []
    for number in shown:
        round_lines = rounds[number]
        last = frames[round_lines[-1].step]
        heading = "Set-up" if number == 0 else f"Round {number}"
        # A still shows the round's end, with every shot of the round drawn on it.
        shots = [v for ln in round_lines for v in frames[ln.step]["volleys"]]
        stills.append(
            RoundStill(
                number, heading, map_at(data, {**last, "volleys": shots}, shapes), round_lines
            )
        )
    round_pages = (
        [RoundPage(page[0], page[-1], page is shown) for page in pages] if len(pages) > 1 else []
    )
    return {
        "shapes": shapes,
        "first_map": map_at(data, frames[0], shapes),
        "lines": lines,
        "stills": stills,
        "rounds": sorted(rounds),
        "round_pages": round_pages,
        "phase_words": PHASE_WORDS,
    }
