"""An open unit's editor in pieces, so that an edit made in it sends only the pieces it changed.

A player works in an open editor: every tick, rename or +1 there is an edit, and its answer
(views._edit_answer) would draw the whole unit again. For a squadron of four escorts that is its
summary, four cards of upgrade boxes with their tools, the squadron-wide refits, what the escorts
cannot take and Add escort: more than the 12 KB an answer may weigh. So the
unit is rendered in pieces before and after the edit (the pieces of builder.html#unit, each with
an id of its own), and only the pieces that read differently go out, out of band: a tick sends
the summary, the cards whose boxes changed and the squadron-wide refits. An escort added at the
end of the squadron comes as a new row of the list, one removed from the end goes.

The page shows the editor as it was rendered before the edit (the version check makes sure of
it), so the pieces that read the same need no swap.

Escorts alike read alike: four escorts of one type with the same boxes differ only in their
number. An answer to htmx sends the first escort, and for each other one that reads as an
earlier one sent whole would with its number (``as_escort``) a mark, ``<template
data-copy="unit-0-ship-0" data-as="unit-0-ship-2">`` (``data-part``: which piece of it, its card
or its tools), that static/js/builder.js turns into the copy before htmx swaps the answer; with
``data-page`` the copy is of the page's piece (escorts moved one place by an escort added or
removed before them). A squadron of four T'au escorts, the catalogue's largest, opens in 8.5 KB
rather than 16.5 KB. The page as served (and without JavaScript) has every escort whole.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .models import Fleet
from .sheet import Sheet, ShipCard, UnitCard

PAGE = "fleets/builder.html"


@dataclass
class Pieces:
    """One open unit, rendered piece by piece (each piece out of band, lean: for htmx)."""

    anchor: str  # the unit's id on the page
    shell: tuple[str, bool]  # what its <article> says: kind, open (the flag: builder.js)
    parts: dict[str, str]  # piece id -> its HTML, in page order (escorts' pieces included)
    escorts: list[str] = field(default_factory=list)  # each escort's whole <li>, in order
    no_escorts: str = ""  # the list's row when it has none
    ships: list[str] = field(default_factory=list)  # each escort's anchor, in order


def unit_pieces(request: HttpRequest, fleet: Fleet, sheet: Sheet, unit: UnitCard) -> Pieces:
    ctx = {"fleet": fleet, "sheet": sheet, "unit": unit, "lean": True}

    def render(name: str, **extra: object) -> str:
        return render_to_string(f"{PAGE}#{name}", {**ctx, **extra}, request)

    def piece(name: str, **extra: object) -> str:
        return render(name, part_oob=True, **extra)

    parts = {f"{unit.anchor}-summary": piece("unit_summary")}
    escorts = []
    if unit.is_squadron:
        parts[f"{unit.anchor}-controls"] = piece("unit_controls")
        for ship in unit.ships:
            parts[f"{ship.anchor}-card"] = piece("shipcard", ship=ship)
            parts[f"{ship.anchor}-tools"] = piece("ship_tools", ship=ship)
            escorts.append(render("escort", ship=ship))
        for name, suffix in (
            ("squadron_wide", "wide"),
            ("refused", "refused"),
            ("add_escort", "adding"),
        ):
            parts[f"{unit.anchor}-{suffix}"] = piece(name)
        no_escorts = render("no_escorts")
    else:
        ship = unit.ship_card
        parts[f"{ship.anchor}-card"] = piece("shipcard", ship=ship)
        parts[f"{ship.anchor}-tools"] = piece("ship_tools", ship=ship)
        parts[f"{unit.anchor}-controls"] = piece("unit_controls")
        no_escorts = ""
    return Pieces(
        unit.anchor,
        (unit.kind, unit.open),
        parts,
        escorts,
        no_escorts=no_escorts,
        ships=[ship.anchor for ship in unit.ships] if unit.is_squadron else [],
    )


def changed_pieces(before: Pieces, after: Pieces) -> list[SafeString] | None:
    """The out-of-band HTML that turns the unit ``before`` into ``after`` on the page, or None
    when it must be drawn whole (its row's own classes changed; the flagship's class follows
    the badge in its summary, static/js/builder.js)."""
    if before.anchor != after.anchor or before.shell != after.shell:
        return None
    changed = {
        key: html
        for key, html in after.parts.items()
        if key in before.parts and before.parts[key] != html
    }
    out = _copies(changed, after.ships, before)
    n_b, n_a = len(before.escorts), len(after.escorts)
    if n_a > n_b:
        if n_b == 0:
            out.append(_delete(f"{after.anchor}-no-escorts"))
        out.append(_append(after, "".join(after.escorts[n_b:])))
    elif n_a < n_b:
        out.extend(_delete(f"{after.anchor}-ship-{j}") for j in range(n_a, n_b))
        if n_a == 0:
            out.append(_append(after, after.no_escorts))
    return out


def _append(unit: Pieces, rows: str) -> SafeString:
    """Rows added at the end of the unit's list of escorts."""
    return format_html(
        '<div hx-swap-oob="beforeend:#{}-escorts">{}</div>', unit.anchor, mark_safe(rows)
    )


def _delete(element_id: str) -> SafeString:
    return format_html('<div id="{}" hx-swap-oob="delete"></div>', element_id)


def as_escort(html: str, first: str, other: str) -> str:
    """The HTML of escort ``first`` (its anchor, "unit-0-ship-0") as escort ``other``'s would
    read if they were alike: its anchor and the ship it posts for renumbered. builder.js makes
    the copy the same way."""
    was, now = first.rsplit("-", 1)[1], other.rsplit("-", 1)[1]
    return html.replace(first, other).replace(
        f'name="ship" value="{was}"', f'name="ship" value="{now}"'
    )


def _copy_mark(first: str, other: str, part: str = "", *, page: bool = False) -> SafeString:
    return format_html(
        '<template data-copy="{}" data-as="{}"{}{}></template>',
        first,
        other,
        format_html(' data-part="{}"', part) if part else "",
        mark_safe(" data-page") if page else "",
    )


def _copies(changed: dict[str, str], ships: list[str], before: Pieces) -> list[SafeString]:
    """The changed pieces, in order. An escort's card or tools that reads as an earlier
    escort's sent whole in this answer goes as a mark copying it; one that reads as an escort's
    the page shows now (the escorts after one added or removed in the middle move up or down
    one) as a mark copying that (``data-page``: builder.js copies it from the page before the
    swap, out of band)."""
    out = []
    whole: set[str] = set()
    for key, html in changed.items():
        mark = _copy_of(changed, key, ships, whole, before)
        out.append(mark or mark_safe(html))
        if mark is None:
            whole.add(key)
    return out


def _copy_of(
    changed: dict[str, str], key: str, ships: list[str], whole: set[str], before: Pieces
) -> SafeString | None:
    for j, other in enumerate(ships):
        part = key.removeprefix(other)
        if part != key and part in ("-card", "-tools"):
            for first in ships[:j]:
                source = first + part
                if source in whole and as_escort(changed[source], first, other) == changed[key]:
                    return _copy_mark(first, other, part)
            for first in before.ships:
                shown = before.parts.get(first + part)
                if shown is not None and as_escort(shown, first, other) == changed[key]:
                    return _copy_mark(first, other, part, page=True)
            return None
    return None


def mark_copies(request: HttpRequest, fleet: Fleet, sheet: Sheet, unit: UnitCard) -> None:
    """Mark the escorts of an open squadron, drawn whole in an answer to htmx, that read as an
    earlier escort drawn whole does (``ShipCard.copy_of``), and of the others those whose tools
    read as an earlier one's (``tools_copy_of``): the answer sends a mark for each."""
    if not (unit.open and unit.is_squadron and len(unit.ships) > 1):
        return
    ctx = {"fleet": fleet, "sheet": sheet, "unit": unit, "lean": True}

    def render(name: str, ship: ShipCard) -> str:
        return render_to_string(f"{PAGE}#{name}", {**ctx, "ship": ship}, request)

    rows = [render("escort", ship) for ship in unit.ships]
    tools = [render("ship_tools", ship) for ship in unit.ships]
    whole = [0]  # the escorts drawn whole
    for j, ship in enumerate(unit.ships[1:], 1):
        here = ship.anchor
        ship.copy_of = next(
            (
                unit.ships[i].anchor
                for i in whole
                if as_escort(rows[i], unit.ships[i].anchor, here) == rows[j]
            ),
            "",
        )
        if ship.copy_of:
            continue
        ship.tools_copy_of = next(
            (
                unit.ships[i].anchor
                for i in whole
                if not unit.ships[i].tools_copy_of
                and as_escort(tools[i], unit.ships[i].anchor, here) == tools[j]
            ),
            "",
        )
        whole.append(j)
