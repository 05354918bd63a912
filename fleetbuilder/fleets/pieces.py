"""An open unit's editor in pieces, so that an edit made in it sends only the pieces it changed.

A player works in an open editor: every tick, rename or +1 there is an edit, and its answer
(views._edit_answer) would draw the whole unit again. For a squadron of four escorts that is its
summary, four cards of upgrade boxes with their tools, the squadron-wide refits, what the escorts
cannot take and Add escort: more than the 12 KB an answer may weigh (issue 13, Speed). So the
unit is rendered in pieces before and after the edit (the pieces of builder.html#unit, each with
an id of its own), and only the pieces that read differently go out, out of band: a tick sends
the summary, the cards whose boxes changed and the squadron-wide refits. An escort added at the
end of the squadron comes as a new row of the list, one removed from the end goes.

The page shows the editor as it was rendered before the edit (the version check makes sure of
it), so the pieces that read the same need no swap.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from .models import Fleet
from .sheet import Sheet, UnitCard

PAGE = "fleets/builder.html"


@dataclass
class Pieces:
    """One open unit, rendered piece by piece (each piece out of band, lean: for htmx)."""

    anchor: str  # the unit's id on the page
    shell: tuple[str, bool]  # what its <article> says: kind, open (the flag: builder.js)
    parts: dict[str, str]  # piece id -> its HTML, in page order (escorts' pieces included)
    escorts: list[str] = field(default_factory=list)  # each escort's whole <li>, in order
    no_escorts: str = ""  # the list's row when it has none


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
        for name, suffix in (("squadron_wide", "wide"), ("refused", "refused"),
                             ("add_escort", "adding")):
            parts[f"{unit.anchor}-{suffix}"] = piece(name)
        no_escorts = render("no_escorts")
    else:
        ship = unit.ship_card
        parts[f"{ship.anchor}-card"] = piece("shipcard", ship=ship)
        parts[f"{ship.anchor}-tools"] = piece("ship_tools", ship=ship)
        parts[f"{unit.anchor}-controls"] = piece("unit_controls")
        no_escorts = ""
    return Pieces(unit.anchor, (unit.kind, unit.open), parts, escorts,
                  no_escorts)


def changed_pieces(before: Pieces, after: Pieces) -> list[SafeString] | None:
    """The out-of-band HTML that turns the unit ``before`` into ``after`` on the page, or None
    when it must be drawn whole (its row's own classes changed; the flagship's class follows
    the badge in its summary, static/js/builder.js)."""
    if before.anchor != after.anchor or before.shell != after.shell:
        return None
    out = [mark_safe(html) for key, html in after.parts.items()
           if key in before.parts and before.parts[key] != html]
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
    return format_html('<div hx-swap-oob="beforeend:#{}-escorts">{}</div>', unit.anchor,
                       mark_safe(rows))


def _delete(element_id: str) -> SafeString:
    return format_html('<div id="{}" hx-swap-oob="delete"></div>', element_id)
