"""A battle as a map would show it, step by step: what a replay draws.

A run stores no battle, only counts. To watch battle ``index`` of a run seeded ``seed``, that
battle is played again with the same dice (SHA-256 of (seed, index), see
:func:`~rules_core.sim.battle.battle_dice`) and a :class:`Recorder` watching it. The recorder
only reads the battle, so the replay ends exactly as the run's battle did.

Each log line is one step. A step carries its line and, compactly, what changed since the
step before: the ships that moved or took damage, the blast markers, the ordnance and the
terrain when they changed, and a line per attack made since the last step (volleys,
ordnance, hazards). :func:`frames_at` turns the steps back into whole states.

Coordinates are the engine's: centimetres, x along the long edge, y from fleet A's edge;
headings in whole degrees counter-clockwise from +x.
"""

from __future__ import annotations

import math
from typing import Any

from ..catalog import Catalog
from ..damage import AttackReport
from ..fleet import Fleet
from .api import BattleResult, LogEntry, SimOptions
from .batch import DEFAULT_OPTIONS, fleet_specs
from .battle import SIDES, Battle, battle_dice
from .state import ALL_ARCS, FRONT, LEFT, REAR, RIGHT, Ship

FORMAT = 1
# A ship's status on the map.
ON_TABLE, CRIPPLED, DESTROYED, DISENGAGED = 0, 1, 2, 3
ARC_LETTERS = ((FRONT, "f"), (LEFT, "l"), (RIGHT, "r"), (REAR, "b"))


def _r(v: float) -> float:
    return round(v, 1)


def _ship_state(s: Ship) -> list[Any]:
    t = s.target
    if s.destroyed:
        status = DESTROYED
    elif s.disengaged:
        status = DISENGAGED
    else:
        status = CRIPPLED if s.crippled else ON_TABLE
    return [
        _r(s.x),
        _r(s.y),
        round(math.degrees(s.heading)) % 360,
        t.shields,
        max(0, t.hull),
        t.blast_markers,
        status,
        len(t.criticals),
    ]


class Recorder:
    """Watches one battle (``Battle(..., log=True, observer=Recorder())``)."""

    def __init__(self) -> None:
        self.steps: list[dict[str, Any]] = []
        self.index: dict[int, int] = {}  # id(ship) -> its number on the map
        self.last: list[list[Any]] = []
        self.last_markers: list[list[float]] = []
        self.last_ordnance: list[list[Any]] = []
        self.last_terrain: list[list[Any]] = []
        self.volleys: list[list[Any]] = []
        self.ships: list[Ship] = []

    def _ships(self, b: Battle) -> list[Ship]:
        if not self.ships:
            self.ships = [s for side in b.sides for s in side]
            self.index = {id(s): i for i, s in enumerate(self.ships)}
            self.last = [[] for _ in self.ships]
        return self.ships

    def attack(
        self,
        b: Battle,
        ship: Ship,
        source: Ship | None,
        source_xy: tuple[float, float] | None,
        ordnance: bool,
        report: AttackReport,
    ) -> None:
        self._ships(b)
        kind = "ordnance" if ordnance else ("volley" if source is not None else "hazard")
        origin: Any
        if source is not None:
            origin = self.index.get(id(source), -1)
        elif source_xy is not None:
            origin = [_r(source_xy[0]), _r(source_xy[1])]
        else:
            origin = -1
        self.volleys.append([origin, self.index[id(ship)], kind, report.hits, report.hull_lost])

    def step(self, b: Battle, entry: LogEntry) -> None:
        ships = self._ships(b)
        frame: dict[str, Any] = {
            "r": entry.round,
            "p": entry.phase,
            "s": entry.side,
            "t": entry.text,
        }
        changed: dict[str, list[Any]] = {}
        for i, s in enumerate(ships):
            state = _ship_state(s)
            if state != self.last[i]:
                self.last[i] = state
                changed[str(i)] = state
        if changed:
            frame["ships"] = changed
        markers = [[_r(m.x), _r(m.y)] for m in b.markers]
        if markers != self.last_markers:
            self.last_markers = markers
            frame["markers"] = markers
        ordnance: list[list[Any]] = [
            [
                "torpedoes",
                SIDES[v.side],
                _r(v.x),
                _r(v.y),
                round(math.degrees(math.atan2(v.hy, v.hx))) % 360,
                v.count,
            ]
            for v in b.salvos
        ]
        ordnance += [[w.role.value, SIDES[w.side], _r(w.x), _r(w.y), 0, w.count] for w in b.waves]
        if ordnance != self.last_ordnance:
            self.last_ordnance = ordnance
            frame["ordnance"] = ordnance
        terrain = [[t.kind, _r(t.x), _r(t.y), _r(t.r), t.name] for t in b.terrain]
        if terrain != self.last_terrain:
            self.last_terrain = terrain
            frame["terrain"] = terrain
        if self.volleys:
            frame["volleys"] = self.volleys
            self.volleys = []
        self.steps.append(frame)

    def setup_done(self, b: Battle) -> None:
        """Fold what set-up placed after its log lines (terrain, starting velocities) into the
        first step, so the map shows the table as the battle begins from its first line."""
        if not self.steps:
            return
        first = self.steps[0]
        self.step(b, LogEntry(first["r"], first["p"], first["s"], first["t"]))
        self.steps.pop()
        first["ships"] = {str(i): state for i, state in enumerate(self.last)}
        first["markers"] = self.last_markers
        first["ordnance"] = self.last_ordnance
        first["terrain"] = self.last_terrain


def _arcs(s: Ship) -> str:
    """The arcs the ship's guns and ordnance cover, as letters: "flr" (prow, port, starboard)."""
    bits = 0
    for g in s.spec.guns:
        bits |= g.arcs
    for o in s.spec.torpedoes + s.spec.bays:
        bits |= o.arcs
    if s.spec.nova is not None:
        bits |= s.spec.nova.arcs
    bits &= ALL_ARCS
    return "".join(letter for bit, letter in ARC_LETTERS if bits & bit)


def replay_battle(
    catalog: Catalog,
    fleet_a: Fleet,
    fleet_b: Fleet,
    *,
    seed: int,
    index: int,
    options: SimOptions = DEFAULT_OPTIONS,
    catalog_b: Catalog | None = None,
) -> tuple[BattleResult, dict[str, Any]]:
    """Battle ``index`` of a run seeded ``seed`` played again with a recorder: its result (the
    run's own, the dice being the same) and the replay's data (JSON-ready). ``catalog_b``:
    fleet B's catalogue when its edition is not fleet A's (R-163)."""
    a, b = fleet_specs(catalog, fleet_a, fleet_b, catalog_b=catalog_b)
    recorder = Recorder()
    battle = Battle(a, b, battle_dice(seed, index), options, log=True, observer=recorder)
    recorder.setup_done(battle)
    result = battle.play()
    ships = recorder._ships(battle)
    data = {
        "format": FORMAT,
        "seed": seed,
        "index": index,
        "table": [battle.width, battle.depth],
        "fleets": [{"name": spec.name, "faction": spec.faction} for spec in battle.specs],
        "ships": [
            {
                "side": SIDES[s.side],
                "label": s.label(),
                "class": s.spec.name,
                "radius": s.radius,
                "hull": s.target.max_hull,
                "shields": s.spec.shields,
                "escort": s.spec.is_escort,
                "arcs": _arcs(s),
            }
            for s in ships
        ],
        "steps": recorder.steps,
        "result": {
            "winner": result.winner,
            "rounds": result.rounds,
            "vp": dict(result.vp),
            "ended_by": result.ended_by,
        },
    }
    return result, data


def frames_at(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every step as a whole state: ``ships`` (one state per ship, or None before it has
    one), ``markers``, ``ordnance``, ``terrain`` and the step's own ``volleys``."""
    ships: list[Any] = [None] * len(data["ships"])
    markers: list[Any] = []
    ordnance: list[Any] = []
    terrain: list[Any] = []
    out = []
    for step in data["steps"]:
        for key, state in step.get("ships", {}).items():
            ships[int(key)] = state
        markers = step.get("markers", markers)
        ordnance = step.get("ordnance", ordnance)
        terrain = step.get("terrain", terrain)
        out.append(
            {
                "round": step["r"],
                "phase": step["p"],
                "side": step["s"],
                "text": step["t"],
                "ships": list(ships),
                "markers": markers,
                "ordnance": ordnance,
                "terrain": terrain,
                "volleys": step.get("volleys", []),
            }
        )
    return out
