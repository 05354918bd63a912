"""A big fleet for the builder's benchmark and its tests, and every kind of edit made on it.

``armada_units(catalog, ships)`` builds a legal-looking Imperial Navy Armada list of ``ships``
ships: a light cruiser for every three escorts, escorts in squadrons of three (80 ships make
40 units). ``edit_cases`` lists the builder's edits on such a fleet, as the page posts them.

An open editor weighs what its unit may take: ``largest_units`` puts every ship of the
catalogue in the largest unit it can fly in (a capital ship alone, an escort four to a
squadron), ``editor_cases`` are the builder's GETs on it (Edit and Done), and
``largest_fleet`` is a fleet of the heaviest squadron and capital ship found so, for every
kind of edit on them.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rules_core import catalog as core
from rules_core.limits import MAX_FLEET_SHIPS, MAX_UNITS
from rules_core.validator import SQUADRON_MAX

if TYPE_CHECKING:
    from .models import Fleet

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
            units.append(
                {
                    "kind": "ship",
                    "ship": ship.slug,
                    "name": None,
                    "flagship": not units,
                    "admiral": None,
                    "upgrades": [],
                }
            )
            count += 1
        else:
            escort = escorts[n % len(escorts)]
            units.append(
                {
                    "kind": "squadron",
                    "name": None,
                    "ships": [{"ship": escort.slug, "upgrades": []}] * 3,
                }
            )
            count += 3
        n += 1
    return units


def bound_fleet_units(catalog: core.Catalog) -> list[dict[str, Any]]:
    """The heaviest builder page the bounds allow (``rules_core.limits``): MAX_UNITS units of
    MAX_FLEET_SHIPS ships, three quarters of the units named capital ships each with ten
    upgrades and refits ticked (whether or not the rules allow them: the page lists the
    problems too), the rest squadrons of escorts."""
    faction = catalog.faction(FACTION)
    assert faction is not None
    capitals = [s for s in faction.ships if not s.is_escort]
    escorts = [s for s in faction.ships if s.is_escort]
    upgrades = [u.slug for u in faction.upgrades][:6] + [u.slug for u in catalog.refits][:4]
    squadrons = MAX_UNITS // 4
    ship_units = MAX_UNITS - squadrons
    per_squadron = (MAX_FLEET_SHIPS - ship_units) // squadrons
    units: list[dict[str, Any]] = [
        {
            "kind": "ship",
            "ship": capitals[i % len(capitals)].slug,
            "name": f"Ship {i + 1}",
            "flagship": i == 0,
            "admiral": None,
            "upgrades": list(upgrades),
        }
        for i in range(ship_units)
    ]
    units += [
        {
            "kind": "squadron",
            "name": None,
            "ships": [{"ship": escorts[i % len(escorts)].slug, "upgrades": []}] * per_squadron,
        }
        for i in range(squadrons)
    ]
    return units


class QueryCounter:
    """Counts the SQL statements run inside it (``django.test``'s capture is reset per request)."""

    def __init__(self) -> None:
        self.statements: list[str] = []

    def __call__(
        self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any
    ) -> Any:
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


# --- every kind of roster edit, for the answer-size goal -----------------------------------

ANSWER_GOAL = 12 * 1024  # bytes: an edit's htmx answer, at any fleet size
PAGE_GOAL_MS = 300  # the builder page of the heaviest fleet the bounds allow


@dataclass(frozen=True)
class EditCase:
    """One roster edit as the page posts it: ``kind`` groups the variants of one control."""

    kind: str
    where: str  # which unit, for the report
    path: str  # after /fleets/<pk>/
    data: dict[str, Any]
    first: tuple[str, dict[str, Any]] | None = None  # an edit made before (undo needs a removal)
    method: str = "post"  # "get": Edit or Done, as htmx asks for a unit's row


def request(client: Any, fleet: Fleet, case: EditCase) -> Any:
    """Make ``case`` (and the edit it needs first) on ``fleet`` as htmx does; its answer."""
    headers = {"HX-Request": "true"}
    if case.first is not None:
        client.post(f"/fleets/{fleet.pk}/{case.first[0]}", case.first[1], headers=headers)
    send = client.get if case.method == "get" else client.post
    return send(f"/fleets/{fleet.pk}/{case.path}", case.data, headers=headers)


def edit_cases(fleet: Fleet, catalog: core.Catalog) -> list[EditCase]:
    """Every kind of edit the builder answers, each on the first, a middle and the last unit it
    applies to, with the unit's editor open (``open=1``, as its controls post it) and, for the
    controls on the summary row, closed. ``fleet`` is an ``armada_units`` fleet, as stored."""
    from .sheet import build_sheet

    doc = fleet.document["units"]
    report = fleet.report(catalog)

    def spread(indexes: list[int]) -> list[int]:
        return sorted({indexes[0], indexes[len(indexes) // 2], indexes[-1]}) if indexes else []

    capitals = spread([i for i, u in enumerate(doc) if u["kind"] == "ship"])
    squadrons = spread([i for i, u in enumerate(doc) if u["kind"] == "squadron"])
    flagship = next(i for i, u in enumerate(doc) if u["kind"] == "ship" and u["flagship"])
    others = [i for i in capitals if i != flagship]
    faction = catalog.faction(fleet.faction)
    assert faction is not None
    escort = next(s.slug for s in faction.ships if s.is_escort)
    capital = next(s.slug for s in faction.ships if s.is_capital)
    last = len(doc) - 1
    opened = {"open": "1"}
    cases = [
        EditCase("add ship", "capital", "add-ship/", {"ship": capital}),
        EditCase("add ship", "escort", "add-ship/", {"ship": escort}),
        EditCase("new squadron", "at the end", "new-squadron/", {"name": ""}),
    ]
    for i in capitals:
        sheet = build_sheet(fleet, catalog, report, indexes=[i], open_unit=i)
        tick = next(t.slug for t in sheet.units[0].ship_card.toggles if not t.reason)
        cases += [
            EditCase("+1 of this", f"unit {i}", f"units/{i}/duplicate/", {}),
            EditCase("+1 of this", f"unit {i}, open", f"units/{i}/duplicate/", opened),
            EditCase(
                "upgrade tick",
                f"unit {i}",
                f"units/{i}/upgrades/",
                {"ship": "", "upgrade": [tick], **opened},
            ),
            EditCase("rename", f"unit {i}", f"units/{i}/rename/", {"name": "Renamed", **opened}),
            EditCase("remove", f"unit {i}", f"units/{i}/remove/", opened),
        ]
    for i in others:
        cases.append(EditCase("flagship", f"unit {i}", f"units/{i}/flagship/", opened))
    cases += [
        EditCase(
            "admiral",
            f"unit {flagship}",
            f"units/{flagship}/admiral/",
            {"admiral": rank.slug, **opened},
        )
        for rank in catalog.admirals[-1:]
    ]
    for i in squadrons:
        sheet = build_sheet(fleet, catalog, report, indexes=[i], open_unit=i)
        unit = sheet.units[0]
        tick = next(t.slug for t in unit.ships[0].toggles if not t.reason)
        wide = next(t.slug for t in unit.squadron_toggles if not t.reason)
        other = next(j for j in squadrons if j != i)
        own = doc[i]["ships"][0]["ship"]
        cases += [
            EditCase("add escort", f"unit {i}", f"units/{i}/add-escort/", {"ship": own}),
            EditCase(
                "add escort",
                f"unit {i}, open",
                f"units/{i}/add-escort/",
                {"ship": escort, **opened},
            ),
            EditCase(
                "+1 of this",
                f"unit {i}, escort 1",
                f"units/{i}/duplicate/",
                {"ship": "0", **opened},
            ),
            EditCase(
                "upgrade tick",
                f"unit {i}, escort 1",
                f"units/{i}/upgrades/",
                {"ship": "0", "upgrade": [tick], **opened},
            ),
            EditCase(
                "squadron-wide tick",
                f"unit {i}",
                f"units/{i}/upgrades/",
                {"ship": "all", "upgrade": [wide], **opened},
            ),
            EditCase("rename", f"unit {i}", f"units/{i}/rename/", {"name": "Renamed", **opened}),
            EditCase("remove", f"unit {i}", f"units/{i}/remove/", opened),
            EditCase(
                "remove", f"unit {i}, escort 1", f"units/{i}/remove/", {"ship": "0", **opened}
            ),
            EditCase(
                "move escort",
                f"unit {i} to unit {other}",
                f"units/{i}/move/",
                {"ship": "0", "to": str(other), **opened},
            ),
            EditCase(
                "move escort",
                f"unit {i} to a new squadron",
                f"units/{i}/move/",
                {"ship": "0", "to": "new", **opened},
            ),
            EditCase("undo", f"unit {i}", "undo/", {}, (f"units/{i}/remove/", {})),
        ]
    for i in sorted({*capitals, *squadrons}):
        for state, extra in (("", {}), (", open", opened)):
            if i > 0:
                cases.append(
                    EditCase(
                        "reorder up/down",
                        f"unit {i} up{state}",
                        f"units/{i}/reorder/",
                        {"by": "-1", **extra},
                    )
                )
                cases.append(
                    EditCase(
                        "drag to top",
                        f"unit {i}{state}",
                        f"units/{i}/reorder/",
                        {"to": "0", **extra},
                    )
                )
            if i < last:
                cases.append(
                    EditCase(
                        "reorder up/down",
                        f"unit {i} down{state}",
                        f"units/{i}/reorder/",
                        {"by": "1", **extra},
                    )
                )
                cases.append(
                    EditCase(
                        "drag to bottom",
                        f"unit {i}{state}",
                        f"units/{i}/reorder/",
                        {"to": str(last), **extra},
                    )
                )
    return cases


def largest_units(
    catalog: core.Catalog,
) -> list[tuple[str, core.ShipProfile, list[dict[str, Any]]]]:
    """Every ship of every faction in the largest unit it flies in, as unit 0 of a fleet of
    that faction: (faction, ship, units). A capital ship alone (the flagship); an escort four
    to a squadron, another squadron of two after it ("Move to" has somewhere to go)."""
    found = []
    for faction in catalog.factions:
        for ship in faction.ships:
            if ship.is_escort:
                units = [_squadron(ship.slug, SQUADRON_MAX), _squadron(ship.slug, 2)]
            else:
                units = [_capital(ship.slug, flagship=True)]
            found.append((faction.slug, ship, units))
    return found


def _squadron(slug: str, escorts: int) -> dict[str, Any]:
    return {"kind": "squadron", "name": None, "ships": [{"ship": slug, "upgrades": []}] * escorts}


def _capital(slug: str, *, flagship: bool) -> dict[str, Any]:
    return {
        "kind": "ship",
        "ship": slug,
        "name": None,
        "flagship": flagship,
        "admiral": None,
        "upgrades": [],
    }


def editor_cases(where: str) -> list[EditCase]:
    """Opening unit 0's editor (Edit) and closing it (Done), as htmx asks for them."""
    return [
        EditCase("open editor", where, "units/0/", {"edit": "1"}, method="get"),
        EditCase("close editor", where, "units/0/", {}, method="get"),
    ]


def largest_fleet(escort: str, capital: str) -> list[dict[str, Any]]:
    """A fleet of the heaviest squadron and capital ship (``largest_units``, measured) of one
    faction, for ``edit_cases``: squadrons of four and of three (Add escort fills it), two of
    the capital ship, the first the flagship."""
    full = SQUADRON_MAX
    return [
        _capital(capital, flagship=True),
        _squadron(escort, full),
        _capital(capital, flagship=False),
        _squadron(escort, full - 1),
        _squadron(escort, full),
    ]


def armada_fleet_of(catalog: core.Catalog, units: int) -> list[dict[str, Any]]:
    """An ``armada_units`` list of (at least) ``units`` units."""
    ships = units
    while len(found := armada_units(catalog, ships)) < units:
        ships += 1
    return found


def answer_size(response: Any) -> int:
    """What an htmx answer weighs: its body and its HX-* headers (the events it carries)."""
    return len(response.content) + sum(
        len(k) + len(v) for k, v in response.headers.items() if k.lower().startswith("hx-")
    )


def store_units(fleet: Fleet, units: list[dict[str, Any]], catalog: core.Catalog) -> Fleet:
    """``fleet`` as saved, with ``units`` (document dicts) as its list, validated and saved:
    a measured fleet is set up in one write instead of one request per ship."""
    fleet.refresh_from_db()
    fleet.document = {**fleet.document, "units": units}
    fleet.store(fleet.to_core(), catalog)
    fleet.save()
    return fleet
