"""A big fleet for the builder's benchmark and its query-count test.

``armada_units(catalog, ships)`` builds a legal-looking Imperial Navy Armada list of ``ships``
ships: a light cruiser for every three escorts, escorts in squadrons of three.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

from rules_core import catalog as core

FACTION = "imperial-navy"


def armada_units(catalog: core.Catalog, ships: int) -> list[dict[str, Any]]:
    faction = catalog.faction(FACTION)
    assert faction is not None
    capitals = [s for s in faction.ships if s.ship_class is core.ShipClass.LIGHT_CRUISER]
    escorts = [s for s in faction.ships if s.is_escort]
    units: list[dict[str, Any]] = []
    count = n = 0
    while count < ships:
        if n % 2 == 0 or ships - count < 3:
            ship = capitals[n % len(capitals)]
            units.append({"kind": "ship", "ship": ship.slug, "name": None,
                          "flagship": not units, "admiral": None, "upgrades": []})
            count += 1
        else:
            escort = escorts[n % len(escorts)]
            units.append({"kind": "squadron", "name": None,
                          "ships": [{"ship": escort.slug, "upgrades": []}] * 3})
            count += 3
        n += 1
    return units


class QueryCounter:
    """Counts the SQL statements run inside it (``django.test``'s capture is reset per request)."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool,
                 context: Any) -> Any:
        self.statements.append(sql)
        return execute(sql, params, many, context)

    def __enter__(self) -> QueryCounter:
        from django.db import connection

        self._cm = connection.execute_wrapper(self)
        self._cm.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._cm.__exit__(*exc)

    @property
    def count(self) -> int:
        return len(self.statements)


def median_ms(fn: Callable[[], Any], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)
