"""A small catalogue built in code, so rules_core tests never depend on the real data."""

from __future__ import annotations

from typing import Any

import pytest

from rules_core.catalog import Catalog, catalog_from_dicts

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
        "slug": "vice-admiral",
        "name": "Vice Admiral",
        "points": 75,
        "leadership_bonus": 2,
        "command_radius": 30,
        "rule": "Flagship ignores the first Hesitant result each turn.",
    },
]

REFITS = [
    {
        "slug": "improved-thrusters",
        "name": "Improved Thrusters",
        "points": 5,
        "classes": ["escort", "light_cruiser", "cruiser", "battleship", "grand_cruiser"],
        "text": "+5cm speed.",
        "effects": {"speed": 5},
    },
    {
        "slug": "veteran-crew",
        "name": "Veteran Crew",
        "points": 15,
        "classes": ["light_cruiser", "cruiser", "battleship", "grand_cruiser"],
        "text": "+2 Ld.",
        "effects": {"leadership": 2},
    },
]


def ship(slug: str, cls: str, points: int, ld: int = 8, **extra: Any) -> dict[str, Any]:
    hull = {"escort": 1, "light_cruiser": 4, "cruiser": 8, "grand_cruiser": 10, "battleship": 12}[
        cls
    ]
    return {
        "slug": slug,
        "name": slug.replace("-", " ").title().replace(" Class ", "-class "),
        "class": cls,
        "points": points,
        "speed": 20 if cls != "escort" else 30,
        "turns": 45 if cls != "escort" else 90,
        "leadership": ld,
        "shields": 1 if cls in ("escort", "light_cruiser") else 2,
        "hull": hull,
        "armor": 5,
        "turrets": 2,
        "weapons": [
            {
                "name": "Port Battery",
                "type": "battery",
                "arcs": ["left"],
                "strength": 4,
                "range": 45,
            }
        ],
        **extra,
    }


IMPERIAL = {
    "slug": "imperial-navy",
    "name": "Imperial Navy",
    "allegiance": "imperium",
    "description": "Test list.",
    "leadership": 8,
    "variants": [
        {
            "slug": "bastion-fleet",
            "name": "Bastion Fleet",
            "text": "Test variant.",
            "forbidden_ships": ["dauntless-class-light-cruiser"],
            "composition": [
                {
                    "code": "bastion_escorts",
                    "text": "A Bastion Fleet takes at most 4 escorts.",
                    "kind": "max_count",
                    "subject": {"classes": ["escort"]},
                    "max": 4,
                },
            ],
        },
        {
            "slug": "battle-group",
            "name": "Battle Group",
            "text": "Built round a battleship.",
            "composition": [
                {
                    "code": "battleship_required",
                    "text": "A Battle Group fields a battleship.",
                    "kind": "min_count",
                    "subject": {"classes": ["battleship"]},
                    "min": 1,
                },
            ],
        },
    ],
    "upgrades": [
        {
            "slug": "nova-refit",
            "name": "Nova Refit",
            "points": 20,
            "classes": ["cruiser", "battleship"],
            "text": "A nova cannon.",
            "max_per_fleet": 1,
        },
        {
            "slug": "bastion-armour",
            "name": "Bastion Armour",
            "points": 10,
            "classes": ["cruiser"],
            "text": "Thicker prow.",
            "variants": ["bastion-fleet"],
        },
        {
            "slug": "command-bridge",
            "name": "Command Bridge",
            "points": 15,
            "classes": ["light_cruiser", "cruiser", "battleship", "grand_cruiser"],
            "text": "+1 Ld.",
            "effects": {"leadership": 1},
        },
    ],
    "composition": [
        {
            "code": "battleships_per_cruisers",
            "text": "Up to one battleship for every two cruisers.",
            "kind": "max_per",
            "subject": {"classes": ["battleship"]},
            "per": {"classes": ["cruiser"]},
            "per_count": 2,
            "max": 1,
        },
        {
            "code": "grand_cruisers_per_points",
            "text": "Up to one grand cruiser for every full 750 points of the game size.",
            "kind": "max_per_points",
            "subject": {"classes": ["grand_cruiser"]},
            "per_points": 750,
            "max": 1,
        },
        {
            "code": "light_cruisers_limit",
            "text": "At most two light cruisers.",
            "kind": "max_count",
            "subject": {"classes": ["light_cruiser"]},
            "max": 2,
        },
        {
            "code": "cruiser_required",
            "text": "At least one cruiser.",
            "kind": "min_count",
            "subject": {"classes": ["cruiser"]},
            "min": 1,
        },
        {
            "code": "escort_share",
            "text": "Escorts may not cost more than half the fleet.",
            "kind": "max_points_share",
            "subject": {"classes": ["escort"]},
            "share": 0.5,
        },
    ],
    "ships": [
        ship("lunar-class-cruiser", "cruiser", 180),
        ship("dominator-class-cruiser", "cruiser", 190, 7),
        ship("dauntless-class-light-cruiser", "light_cruiser", 110),
        ship("retribution-class-battleship", "battleship", 345, 9),
        ship("vengeance-class-grand-cruiser", "grand_cruiser", 230),
        ship("emperors-fist", "grand_cruiser", 300, 9, tags=["unique"]),
        ship("sword-class-frigate", "escort", 35, 7),
        ship("cobra-class-destroyer", "escort", 30, 7),
    ],
}

ORKS = {
    "slug": "orks",
    "name": "Orks",
    "allegiance": "xenos",
    "description": "Test list.",
    "leadership": 7,
    "upgrades": [
        {
            "slug": "big-gunz",
            "name": "Big Gunz",
            "points": 10,
            "classes": ["cruiser"],
            "text": "More dakka.",
        },
    ],
    "composition": [],
    "ships": [
        ship("kill-kroozer", "cruiser", 150, 7),
        ship("ravager-attack-ship", "escort", 30, 6),
    ],
}


def build_catalog() -> Catalog:
    return catalog_from_dicts([IMPERIAL, ORKS], ADMIRALS, REFITS, version="test")


@pytest.fixture(scope="session")
def catalog() -> Catalog:
    return build_catalog()
