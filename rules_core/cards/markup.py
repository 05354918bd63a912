"""The cards' HTML, built from :mod:`rules_core.cards.model` values.

Every piece of text from a fleet file or the catalogue passes through :func:`esc` (HTML-escaped,
quotes included), so a name holding markup or a URL is printed as the characters it is. Nothing
here names a URL but the stylesheet's own assets (see :mod:`rules_core.cards.fetcher`).
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from functools import lru_cache

from .drawings import CRITICALS_URL, arc_strip_width, arcs_url, rules_url
from .model import CRITICALS, ROLE_LABELS, Card, HullTrack, Roster, ShipBlock

LAYOUTS = ("poker", "a4", "letter")


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


# --- boxes to tick and arcs ------------------------------------------------------------------

# Boxes are the ballot-box glyph (U+2610) in a span: to WeasyPrint a row of them is one run of
# text, not one box per square, which keeps a 30-card fleet well inside its time budget.
BOX = "\u2610"


def boxes(n: int, cls: str = "bx") -> str:
    return f'<span class="{cls}">{BOX * n}</span>' if n > 0 else '<span class="none">–</span>'


def hull_boxes(track: HullTrack) -> str:
    """One box per hull point; the last ``crippled_at`` are shaded, so a ship is crippled once
    only shaded boxes are left unticked (R-09, R-65)."""
    c = track.crippled_at or 0
    out = boxes(track.hull - c) if track.hull > c else ""
    if c:
        out += f'<span class="bx crip">{BOX * c}</span>'
    return out


# --- a card ----------------------------------------------------------------------------------


# The stat line and the critical checklist are set in DejaVu Sans Mono on a fixed character grid
# (cards.css sizes the font so the grid spans the card): a line of text each, aligned without a
# table, where a table would cost WeasyPrint a laid-out cell per value.
STAT_LABEL_CHARS = 8
STAT_VALUE_CHARS = 4


def _centre(text: str, width: int) -> str:
    """Centred, an odd space going to the left (a lone digit sits right of centre, not left)."""
    pad = width - len(text)
    return " " * (pad - pad // 2) + text + " " * (pad // 2)


def stat_line(block: ShipBlock, leadership: int | None) -> str:
    s = block.stats
    ld = leadership if leadership is not None else s.leadership
    cells = (("SPEED", f"{s.speed_cm}"), ("TURNS", f"{s.turns}°"), ("LD", f"{ld}"),
             ("SHIELDS", f"{s.shields}"), ("HULL", f"{s.hull}"), ("ARMOR", f"{s.armor}+"),
             ("TURRETS", f"{s.turrets}"), ("BASE", f"{s.base_mm}"))
    labels = "".join(k.center(STAT_LABEL_CHARS) for k, _ in cells)
    values = "".join(_centre(v, STAT_VALUE_CHARS) for _, v in cells)
    return f'<p class="stats">{esc(labels)}\n<b>{esc(values)}</b></p>'


# The weapons list: the names in one block, and floated right, in DejaVu Sans Mono so every
# row's columns line up without a table, the type, arc, range and strength of every weapon in
# another; the arc diagrams and the rules between rows are the names block's backgrounds
# (drawings.arcs_url). A row's height is fixed (its lines times the pitch), so the drawings
# know where each row is; a name too long for its column is broken here, never by WeasyPrint.
ARC_GAP = "    "  # four mono characters where the arc diagram is drawn
TAIL_CHARS = 8 + len(ARC_GAP) + 16
MONO_ADVANCE = 0.602  # DejaVu Sans Mono's advance, in em
PT = 25.4 / 72  # millimetres per point
CARD_INNER_MM = 57.8
# Per density (card_html's class): names' size (pt), the tails' size (pt), a line's pitch and
# the arc diagram's diameter (mm). cards.css sets the same sizes and pitches.
WEAPON_METRICS = {"": (5.6, 4.8, 3.15, 3.0), "dense": (5.0, 4.8, 3.05, 3.0),
                  "tight": (4.5, 4.4, 2.55, 2.8), "max": (4.2, 4.2, 2.4, 2.4)}


def _tail(type_label: str, arc: str, rng: str, strength: str, gap: str = ARC_GAP) -> str:
    return f"{type_label:<7} {gap}{arc:<5} {rng:>3} {strength:>6}"


@lru_cache(maxsize=4096)
def _name_lines(name: str, size_pt: float, room_mm: float) -> tuple[str, ...]:
    """``name`` broken into lines that fit ``room_mm`` in DejaVu Sans Condensed Bold."""
    from PIL import ImageFont  # WeasyPrint's own dependency

    font = ImageFont.truetype("DejaVuSansCondensed-Bold.ttf", 100)
    scale = size_pt * PT / 100 * 1.04  # a margin for the shaping WeasyPrint does
    lines: list[str] = []
    for word in name.split(" "):
        line = f"{lines[-1]} {word}" if lines else word
        if lines and font.getlength(line) * scale <= room_mm:
            lines[-1] = line
        else:
            lines.append(word)
    return tuple(lines)


def squadron_stats(blocks: tuple[ShipBlock, ...]) -> str:
    """Escorts of several kinds: one mono row of stats per kind, under one set of labels."""
    head = f"{'ESCORT':<20}{'SPD TRN LD SH HL ARM TUR BASE':>29}"
    rows = [esc(head)]
    for b in blocks:
        s = b.stats
        name = f"{b.count}× {b.profile.name.replace(' Class ', ' ')}"
        name = name if len(name) <= 20 else name[:19] + "…"
        values = (f"{s.speed_cm:>3} {str(s.turns) + '°':>3} {s.leadership:>2} {s.shields:>2} "
                  f"{s.hull:>2} {str(s.armor) + '+':>3} {s.turrets:>3} {s.base_mm:>4}")
        rows.append(f"<b>{esc(f'{name:<20}')}</b>{esc(f'{values:>29}')}")
    return f'<p class="sqstats">{chr(10).join(rows)}</p>'


def weapons_table(block: ShipBlock, ink_saver: bool = False, *, header: bool = True,
                  caption: str = "", density: str = "") -> str:
    """One row per weapon: its name, then type, arc diagram and label, range and strength
    (crippled)."""
    if not block.weapons:
        return '<p class="line">No weapons.</p>'
    name_pt, tail_pt, pitch, arc_mm = WEAPON_METRICS[density]
    tail_mm = TAIL_CHARS * MONO_ADVANCE * tail_pt * PT
    room = CARD_INNER_MM - tail_mm - 1.0
    head = ""
    if header:
        gap = " " * len(ARC_GAP)
        head = (f'<p class="wh"><span class="tail">{_tail("TYPE", "ARC", "RNG", "STR(CR)", gap)}'
                "</span>OFF · WEAPON</p>")
    if caption:
        head += f'<p class="wcap">{esc(caption)}</p>'
    names, tails, rows = [], [], []
    for line in block.weapons:
        w = line.weapon
        lines = _name_lines(f"{BOX} {w.name}" + (f" {line.note}" if line.note else ""),
                            name_pt, room)
        if line.note:  # the note's number is a superscript after the name
            lines = (*lines[:-1], lines[-1].removesuffix(f" {line.note}"))
        text = esc("\n".join(lines))
        names.append(text + (f"<sup>{line.note}</sup>" if line.note else ""))
        tails.append(_tail(line.short_type, w.arc_label, line.range_label,
                           f"{w.strength} ({line.crippled_strength})")
                     + "\n" * (len(lines) - 1))
        rows.append((w.arcs, len(lines)))
    arc_x = CARD_INNER_MM - tail_mm + (8 + len(ARC_GAP) / 2) * MONO_ADVANCE * tail_pt * PT
    strip = arc_strip_width(arc_mm)
    height = sum(n for _, n in rows) * pitch
    arcs = arcs_url(rows, pitch=pitch, size=arc_mm, ink_saver=ink_saver)
    rules = rules_url((n for _, n in rows), pitch=pitch, ink_saver=ink_saver)
    # The row rules over the arcs: the names block's two backgrounds (drawings.arcs_url).
    backgrounds = (f"background-image:url({rules}),url({arcs});"
                   f"background-position:0 0,{arc_x - strip / 2:.2f}mm 0;"
                   f"background-size:100% {height:.3f}mm,{strip:.2f}mm {height:.3f}mm")
    return (f'{head}<p class="wt">{esc(chr(10).join(tails))}</p>'
            f'<p class="wn" style="{backgrounds}">{chr(10).join(names)}</p>')


def _line(label: str, items: Iterable[str], cls: str = "line") -> str:
    items = [i for i in items if i]
    if not items:
        return ""
    return f'<p class="{cls}"><b>{esc(label)}</b> {"; ".join(items)}</p>'


def block_details(block: ShipBlock, *, rules: bool = True) -> str:
    parts = []
    if block.craft or block.stats.launch_capacity:
        speeds = sorted({c.speed_cm for c in block.craft})
        craft = ", ".join(f"{esc(c.name)} ({esc(ROLE_LABELS.get(c.role.value, c.role.value))})"
                          for c in block.craft)
        moves = "/".join(str(v) for v in speeds)
        capacity = f"capacity {block.stats.launch_capacity}" + (f", {moves} cm" if moves else "")
        parts.append(_line("Attack craft", [f"{capacity}: {craft}" if craft else capacity]))
    if rules:
        parts.append(_line("Rules", [esc(r) for r in block.rules]))
    # an upgrade that only changes stats is in the stat line already; name it, no text.
    parts.append(_line("Upgrades", [
        f"<i>{esc(u.name)}</i> ({u.points} pts" + (", in the stats)" if u.effects else
                                                   f"): {esc(u.text)}")
        for u in block.upgrades]))
    for number, name, rule in block.notes:
        parts.append(f'<p class="line note"><sup>{number}</sup> <i>{esc(name)}:</i> '
                     f"{esc(rule)}</p>")
    return "".join(parts)


def criticals_list() -> str:
    """The checklist of R-64 is the same on every card, so it is one drawing (see drawings.py),
    embedded once per document, under a line of text that names it."""
    alt = "; ".join(f"{roll} {text}" for roll, text, _ in CRITICALS)
    return ('<p class="crits"><b>Critical hits </b>on a 6 per hull damage, 2d6 · '
            "End Phase: repair one on an Ld check</p>"
            f'<img class="checklist" src="{CRITICALS_URL}" alt="{esc(alt)}">')


def tracks(card: Card) -> str:
    rows = []
    for t in card.tracks:
        if card.kind == "squadron":
            rows.append(f'<p class="track"><b>#{esc(t.label)}</b> Hull {hull_boxes(t)} '
                        f"Shields {boxes(t.shields)} Blast {boxes(t.blast_markers)}</p>")
        else:
            # Past 12 boxes the note would not fit the line; the shading still shows it.
            crippled = (f"<small> crippled at ≤ {t.crippled_at}</small>"
                        if t.crippled_at is not None and t.hull <= 12 else "")
            many = " track--long" if t.hull > 14 else ""
            rows.append(f'<p class="track hull{many}"><b>Hull </b>{hull_boxes(t)}{crippled}</p>'
                        f'<p class="track"><b>Shields </b>{boxes(t.shields)}'
                        f"<b> Blast markers </b>{boxes(t.blast_markers)}</p>")
    # The first row keeps the tracks apart from what is above them: no wrapper needed.
    return "".join(rows).replace('class="track', 'class="track first', 1)


def density(card: Card) -> str:
    """A denser type size for a card with much to say. The weights are rough millimetres of
    height; the test that prints every catalogue ship checks that each still fits one card."""
    load: float = 52 if card.criticals else 30  # head, meta, tracks, the checklist or its note
    load += sum(17 + 3.3 * len(b.weapons) for b in card.blocks)  # stat line, orders, weapons
    load += len(card.title) // 26 * 4
    load += card.text_length * 0.045  # a 5.4 pt line holds about 70 characters
    if card.kind == "squadron":
        load += 3.2 * len(card.tracks) + 3 * len(card.blocks)
    if load > 100:
        return "max"
    if load > 86:
        return "tight"
    if load > 76:
        return "dense"
    return ""


DENSITY_CLASSES = {"": "", "dense": " card--dense", "tight": " card--tight",
                   "max": " card--tight card--max"}


def _thrust_sot(block: ShipBlock, leadership: int | None) -> str:
    from ..sim.advanced_movement import safe_operating_thrust, thrust_from_speed

    ld = leadership if leadership is not None else block.stats.leadership
    thrust = thrust_from_speed(block.stats.speed_cm)
    return f"thrust {thrust} · SOT {safe_operating_thrust(thrust, ld)}"


def thrust_line(block: ShipBlock, leadership: int | None) -> str:
    """Advanced movement's numbers (R-141): thrust rating (Speed ÷ 5 cm) and SOT (its average
    with the piloting skill, Ld − 3, rounded up), as the simulator plays them."""
    return f'<p class="line">Advanced movement: {_thrust_sot(block, leadership)}</p>'


def squadron_thrust_line(blocks: tuple[ShipBlock, ...]) -> str:
    """A squadron of several kinds: each kind's thrust and SOT, in the stat rows' order."""
    kinds = "; ".join(f"{esc(b.profile.name)} {_thrust_sot(b, None)}" for b in blocks)
    return f'<p class="line">Advanced movement: {kinds}</p>'


def card_html(card: Card, ink_saver: bool = False, advanced_movement: bool = False) -> str:
    dense = density(card)
    meta = [esc(card.faction), f"Unit {card.unit + 1}"]
    if card.flagship:
        meta.append('<b class="flag">★ Flagship</b>')
    if card.admiral is not None:
        a = card.admiral
        bonus = f" +{a.leadership_bonus} Ld" if a.leadership_bonus else ""
        meta.append(f"<b>{esc(a.name)}{bonus}</b>")
    if any(b.profile.is_unique for b in card.blocks):
        meta.append("<b>Unique</b>")
    body = []
    mixed = card.kind == "squadron" and len(card.blocks) > 1
    if mixed:
        body.append(squadron_stats(card.blocks))
        if advanced_movement:
            body.append(squadron_thrust_line(card.blocks))
        shared = len({b.rules for b in card.blocks}) == 1  # rules said once if all share them
        for n, block in enumerate(card.blocks):
            body.append(weapons_table(block, ink_saver, header=n == 0,
                                      caption=f"{block.count} × {block.profile.name}, "
                                              f"{block.points_each} pts each",
                                      density=dense))
            body.append(block_details(block, rules=not shared))
        if shared:
            body.append(_line("Rules", [esc(r) for r in card.blocks[0].rules]))
    for block in () if mixed else card.blocks:
        if card.kind == "squadron":
            body.append(f'<p class="group"><b>{block.count} × {esc(block.profile.name)}</b> '
                        f"{block.points_each} pts each</p>")
        body.append(stat_line(block, card.leadership if card.kind == "ship" else None))
        if advanced_movement:
            body.append(thrust_line(block, card.leadership if card.kind == "ship" else None))
        if card.kind == "ship":
            body.append(f'<p class="line">All Ahead Full +{esc(block.profile.all_ahead_full)} '
                        f"cm · {esc(block.crippled_summary)}</p>")
        elif block.stats.crippled_at is not None:
            body.append(f'<p class="line">{esc(block.crippled_summary)}</p>')
        body.append(weapons_table(block, ink_saver, density=dense))
        body.append(block_details(block))
    if card.admiral is not None:
        a = card.admiral
        body.append(_line("Admiral", [f"<i>{esc(a.name)}</i> ({a.command_radius_cm} cm "
                                      f"command radius): {esc(a.rule)}"]))
    if card.kind == "squadron" and card.blocks:
        dice = "/".join(sorted({b.profile.all_ahead_full for b in card.blocks}))
        body.append(f'<p class="line">One Command Check on the highest Ld ({card.leadership}); '
                    f"one All Ahead Full roll (+{esc(dice)} cm); coherency 10 cm.</p>")
    for slug in card.unknown:
        body.append(f'<p class="line alert">The catalogue has no ship {esc(repr(slug))}: '
                    "nothing to print for it.</p>")
    body.append(tracks(card))
    if card.criticals:
        body.append(criticals_list())
    elif card.tracks:
        body.append('<p class="line">1-hull escorts take no critical hits: the point that '
                    "takes the last hull destroys the ship (R-46).</p>")
    return (
        f'<article class="card card--{card.kind}{DENSITY_CLASSES[dense]}">'
        f'<header class="head"><b class="pts">{card.points}<small> pts</small></b>'
        f"<h2>{esc(card.title)}</h2><p>{esc(card.subtitle)}</p></header>"
        f'<p class="meta">{" · ".join(meta)}</p>'
        f'{"".join(body)}'
        "</article>"
    )


# --- the roster ----------------------------------------------------------------------------


def qr_svg(url: str) -> str:
    import segno

    return segno.make(url, error="m").svg_inline(border=2, omitsize=True, dark="#000")


def roster_html(roster: Roster) -> str:
    verdict = ("<b class=\"legal\">Legal</b>" if roster.legal else
               f"<b class=\"illegal\">Not legal</b> ({len(roster.errors)} "
               f"error{'s' if len(roster.errors) != 1 else ''})")
    variant = f" · {esc(roster.variant)}" if roster.variant else ""
    ld = roster.command_leadership if roster.command_leadership is not None else "–"
    qr = ""
    if roster.share_url:
        qr = (f'<figure class="qr">{qr_svg(roster.share_url)}'
              f'<figcaption>{esc(roster.share_url)}</figcaption></figure>')
    rows = []
    for line in roster.lines:
        marks = (["★ Flagship"] if line.flagship else []) + ([line.admiral] if line.admiral else [])
        mark = f" <i>{esc(' · '.join(marks))}</i>" if marks else ""
        unit_ld = f" · Ld {line.leadership}" if line.leadership else ""
        rows.append(f'<p class="unit"><span class="pts">{line.points}</span>'
                    f"<b>{line.unit + 1}. {esc(line.label)}</b>{mark}<br>"
                    f"{esc(line.detail)}{unit_ld}</p>")
    problems = ""
    if roster.errors or roster.warnings:
        items = "".join(f"<li>{esc(p.message)}</li>" for p in (*roster.errors, *roster.warnings))
        problems = f'<div class="problems"><h3>Problems</h3><ul>{items}</ul></div>'
    rules = ""
    if roster.faction_rules:
        items = "".join(f"<p><b>{esc(n)}.</b> {esc(t)}</p>" for n, t in roster.faction_rules)
        rules = f'<div class="faction-rules"><h3>{esc(roster.faction)} rules</h3>{items}</div>'
    return (
        '<section class="roster">'
        f'{qr}<h1>{esc(roster.name)}</h1>'
        f'<p class="sub">{esc(roster.faction)}{variant} · {esc(roster.game_size)} '
        f'({esc(roster.band)} points)</p>'
        f'<p class="verdict"><span class="total">{roster.points} pts</span> {verdict} · '
        f'Command Ld {ld}</p>'
        f'<div class="units">{"".join(rows)}</div>'
        f'{problems}{rules}'
        "</section>"
    )


def document_html(roster: Roster, cards: list[Card], *, layout: str, ink_saver: bool,
                  advanced_movement: bool = False) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}")
    classes = f"layout-{layout}" + (" ink-saver" if ink_saver else "")
    title = esc(f"{roster.name} · ship cards")
    cards_html = "".join(card_html(c, ink_saver, advanced_movement) for c in cards)
    return (
        f'<!doctype html><html lang="en" class="{classes}"><head><meta charset="utf-8">'
        f"<title>{title}</title></head><body>"
        f"{roster_html(roster)}"
        f'<div class="cards">{cards_html}</div>'
        "</body></html>"
    )
