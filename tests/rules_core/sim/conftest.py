"""Rule tests for the simulator: a small catalogue built in code, ships placed by hand on the
table and dice rigged to the exact rolls a scenario needs (rules_core.dice.RiggedDice)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from rules_core.catalog import Catalog, catalog_from_dicts
from rules_core.dice import RiggedDice
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions
from rules_core.sim.battle import Battle
from rules_core.sim.movement import Plan
from rules_core.sim.policy import Policy
from rules_core.sim.state import Ship, fleet_spec

ADMIRALS = [
    {
        "slug": "fleet-captain",
        "name": "Fleet Captain",
        "points": 10,
        "leadership_bonus": 0,
        "command_radius": 30,
        "rule": "Re-roll one Command Phase die per game.",
    },
    {
        "slug": "commodore",
        "name": "Commodore",
        "points": 25,
        "leadership_bonus": 1,
        "command_radius": 45,
        "rule": "Command Radius extends to 45cm.",
    },
    {
        "slug": "rear-admiral",
        "name": "Rear Admiral",
        "points": 50,
        "leadership_bonus": 1,
        "command_radius": 30,
        "rule": "One free Special Order per turn.",
    },
    {
        "slug": "vice-admiral",
        "name": "Vice Admiral",
        "points": 75,
        "leadership_bonus": 2,
        "command_radius": 30,
        "rule": "Flagship ignores the first Hesitant result each turn.",
    },
    {
        "slug": "lord-admiral",
        "name": "Lord Admiral",
        "points": 100,
        "leadership_bonus": 2,
        "command_radius": 30,
        "rule": "All ships in Command Radius gain +1 Ld.",
    },
]


def weapon(name: str, type_: str, arcs: list[str], strength: int, range_: int) -> dict[str, Any]:
    return {"name": name, "type": type_, "arcs": arcs, "strength": strength, "range": range_}


def ship(
    slug: str,
    cls: str,
    points: int,
    *,
    ld: int = 8,
    speed: int = 20,
    turns: int = 45,
    shields: int = 2,
    hull: int = 8,
    armor: int = 5,
    turrets: int = 2,
    weapons: list[dict[str, Any]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "class": cls,
        "points": points,
        "speed": speed,
        "turns": turns,
        "leadership": ld,
        "shields": shields,
        "hull": hull,
        "armor": armor,
        "turrets": turrets,
        "weapons": weapons or [],
        **extra,
    }


BROADSIDES = [
    weapon("Port Battery", "battery", ["left"], 6, 45),
    weapon("Starboard Battery", "battery", ["right"], 6, 45),
    weapon("Prow Lance", "lance", ["front"], 2, 30),
]

NAVY = {
    "slug": "test-navy",
    "name": "Test Navy",
    "allegiance": "imperium",
    "description": "Ships for simulator rule tests.",
    "leadership": 8,
    "attack_craft": [
        {"slug": "test-fighter", "name": "Test Fighter", "role": "fighter"},
        {"slug": "test-bomber", "name": "Test Bomber", "role": "bomber"},
        {"slug": "test-boat", "name": "Test Boat", "role": "assault_boat"},
    ],
    "ships": [
        ship("gun-cruiser", "cruiser", 180, weapons=BROADSIDES),
        ship(
            "plain-cruiser",
            "cruiser",
            150,
            shields=1,
            turrets=1,
            weapons=[weapon("Dorsal Battery", "battery", ["left", "front", "right"], 4, 30)],
        ),
        ship(
            "torp-cruiser",
            "cruiser",
            170,
            turrets=1,
            weapons=[
                weapon("Prow Torpedoes", "torpedo", ["front"], 4, 30),
                weapon("Port Battery", "battery", ["left"], 4, 30),
            ],
        ),
        ship(
            "carrier",
            "cruiser",
            200,
            turrets=2,
            weapons=[weapon("Launch Bays", "launch_bay", ["left", "right"], 2, 30)],
            attack_craft=["test-fighter", "test-bomber", "test-boat"],
        ),
        ship(
            "nova-ship",
            "battleship",
            365,
            hull=12,
            shields=3,
            armor=5,
            weapons=[weapon("Nova Cannon", "nova_cannon", ["front"], 1, 150)],
        ),
        ship(
            "grand-cruiser",
            "grand_cruiser",
            300,
            hull=10,
            turns=45,
            armor=4,
            weapons=[weapon("Broadside", "battery", ["left", "right"], 8, 45)],
        ),
        ship(
            "frigate",
            "escort",
            35,
            ld=7,
            speed=25,
            turns=90,
            shields=1,
            hull=1,
            turrets=1,
            weapons=[weapon("Battery", "battery", ["left", "front", "right"], 3, 30)],
        ),
        ship(
            "big-escort",
            "escort",
            50,
            ld=7,
            speed=25,
            turns=90,
            shields=1,
            hull=2,
            turrets=1,
            weapons=[weapon("Battery", "battery", ["front"], 2, 30)],
        ),
        ship(
            "special-ship",
            "cruiser",
            160,
            weapons=[weapon("Bombardment Cannon", "special", ["front"], 3, 30)],
        ),
    ],
}

MARINES = {
    "slug": "adeptus-astartes",
    "name": "Test Marines",
    "allegiance": "imperium",
    "description": "Boarders.",
    "leadership": 8,
    "ships": [
        ship(
            "strike-cruiser",
            "cruiser",
            145,
            hull=6,
            shields=1,
            weapons=[weapon("Battery", "battery", ["left", "right"], 4, 30)],
        )
    ],
}


def faction(slug: str, *ships: dict[str, Any]) -> dict[str, Any]:
    return {
        "slug": slug,
        "name": slug.replace("-", " ").title(),
        "allegiance": "xenos",
        "description": "Faction-rule tests.",
        "leadership": 8,
        "ships": list(ships),
    }


LIGHT = [weapon("Prow Battery", "battery", ["front"], 4, 30)]
FACTIONS = [
    faction(
        "craftworld-eldar",
        ship(
            "eldar-cruiser",
            "light_cruiser",
            120,
            hull=4,
            shields=0,
            armor=6,
            turrets=0,
            speed=30,
            weapons=LIGHT,
        ),
    ),
    faction("necrons", ship("necron-cruiser", "cruiser", 200, shields=2, weapons=LIGHT)),
    faction("orks", ship("ork-kroozer", "cruiser", 150, ld=7, weapons=LIGHT)),
    faction(
        "tyranids",
        ship(
            "hive-ship",
            "battleship",
            300,
            hull=12,
            shields=0,
            special_rules=["Synapse"],
            weapons=LIGHT,
        ),
        ship("kraken", "escort", 30, hull=1, shields=0, speed=25, turns=90, weapons=LIGHT),
    ),
    faction("adeptus-mechanicus", ship("ark-cruiser", "cruiser", 200, weapons=BROADSIDES)),
    faction("drukhari", ship("torture-cruiser", "cruiser", 160, shields=1, weapons=LIGHT)),
    faction(
        "tau-empire", ship("tau-cruiser", "cruiser", 160, weapons=LIGHT, tags=["armoured-prow"])
    ),
    faction("adepta-sororitas", ship("sisters-cruiser", "cruiser", 180, weapons=LIGHT)),
    faction("archenemy", ship("chaos-cruiser", "cruiser", 180, weapons=LIGHT, tags=["nurgle"])),
]


@pytest.fixture(scope="session")
def sim_catalog() -> Catalog:
    return catalog_from_dicts([NAVY, MARINES, *FACTIONS], ADMIRALS, [], version="sim-test")


@pytest.fixture(scope="session")
def fleets_real(real_catalog: Catalog) -> tuple[Fleet, Fleet]:
    """Two built-in Skirmish fleets: Imperial Navy (A) and Orks (B)."""
    return (
        sample_fleet(real_catalog, "imperial-navy", "skirmish"),
        sample_fleet(real_catalog, "orks", "skirmish"),
    )


def cap(
    slug: str, *, flagship: bool = False, admiral: str | None = None, name: str | None = None
) -> ShipUnit:
    return ShipUnit(ship=slug, flagship=flagship, admiral=admiral, name=name)


def squadron(*slugs: str, name: str | None = None) -> Squadron:
    return Squadron(ships=tuple(SquadronShip(s) for s in slugs), name=name)


def fleet(*units: Any, faction: str = "test-navy") -> Fleet:
    return Fleet(faction=faction, game_size=GameSize.SKIRMISH, units=tuple(units))


class Scripted(Policy):
    """A policy that does exactly what the test says and nothing else."""

    def __init__(
        self,
        order: str | None = None,
        plan: Plan | None = None,
        brace: bool = False,
        torpedo: bool = True,
        craft: Any = None,
        nova: tuple[float, float] | None = None,
        board: bool = False,
        disengage: bool = False,
        slingshot: float = 0.0,
    ) -> None:
        self.order = order
        self.move = plan
        self.brace = brace
        self.torpedo = torpedo
        self.craft = craft
        self.nova = nova
        self.board = board
        self.disengage = disengage
        self.slingshot = slingshot

    def plan(self, b, unit, lead, may_order, hesitant):  # type: ignore[no-untyped-def]
        move = self.move if self.move is not None else Plan(0.0)
        return self.order, Plan(move.distance, move.turn, move.ram)

    def wants_disengage(self, b, unit):  # type: ignore[no-untyped-def]
        return self.disengage

    def wants_brace(self, b, ship, strength, kind):  # type: ignore[no-untyped-def]
        return self.brace

    def torpedo_heading(self, b, ship, tube):  # type: ignore[no-untyped-def]
        return ship.heading if self.torpedo else None

    def launch_plan(self, b, ship, count):  # type: ignore[no-untyped-def]
        return self.craft(b, ship, count) if self.craft else []

    def nova_target(self, b, ship, lo, hi):  # type: ignore[no-untyped-def]
        return self.nova

    def board_target(self, b, ship):  # type: ignore[no-untyped-def]
        if not self.board:
            return None
        from rules_core.sim.gunnery import in_contact

        return next((e for e in b.enemies(ship.side) if in_contact(ship, e)), None)

    def slingshot_turn(self, b, ship):  # type: ignore[no-untyped-def]
        return self.slingshot


def make_battle(
    catalog: Catalog,
    a: Fleet,
    b: Fleet,
    rolls: list[int],
    *,
    policy_a: Policy | None = None,
    policy_b: Policy | None = None,
    options: SimOptions | None = None,
    round_: int = 1,
) -> Battle:
    battle = Battle(
        fleet_spec(catalog, a, 0),
        fleet_spec(catalog, b, 1),
        RiggedDice(rolls),
        options or SimOptions(),
        log=True,
        policies=(policy_a or Scripted(), policy_b or Scripted()),
        deploy=False,
    )
    battle.round = round_
    battle.phase = "activation"
    # Park every ship far away in its own corner unless the test places it.
    for side, ships in enumerate(battle.sides):
        for i, s in enumerate(ships):
            put(s, 5.0 + 6.0 * i, 5.0 if side == 0 else 115.0, 90.0 if side == 0 else 270.0)
    return battle


def put(s: Ship, x: float, y: float, heading_deg: float) -> Ship:
    s.x, s.y = x, y
    s.face(math.radians(heading_deg))
    return s


def text(battle: Battle) -> str:
    return "\n".join(e.text for e in battle.entries)
