"""What the results page shows of a run: the verdict, the numbers, the charts and one battle.

Pure functions of a ``Matchup``, each side read under its own edition's catalogue (R-163), so
views stay thin and tests can read the same values the page prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_core import fleet as rf
from rules_core.sim import SimError
from rules_core.validator import catalog_index, validate

from . import charts
from .editions import SideEdition, differ_sentence, side_edition
from .forms import SCORING_CHOICES, TERRAIN_CHOICES
from .models import Matchup

SCORING_LABELS = {"core": "core rules (§14)", "faq": "the FAQ's scoring"}
TERRAIN_LABELS = dict(TERRAIN_CHOICES)
assert set(SCORING_LABELS) == {k for k, _ in SCORING_CHOICES}


@dataclass(frozen=True)
class SideInfo:
    key: str  # "a" | "b"
    label: str
    faction: str
    size: str
    points: int
    legal: bool
    problems: int
    source: str  # "fleet" | "sample" | "shared"
    policy: str  # how the side is played, when not the standard way ("" if standard)
    edition: SideEdition  # the edition it is priced, judged and played under
    note: str = ""  # why it is read under that edition, when its list named none


@dataclass(frozen=True)
class ShipRow:
    label: str
    note: str  # the class when the ship has its own name; "squadron, per ship" for escorts
    count: int  # ships the row stands for (escorts of one class in one squadron)
    rates: dict[str, float]
    segments: tuple[charts.FateSegment, ...]
    title: str


def side_info(run: Matchup, side: str) -> SideInfo:
    fleet = run.core_fleet(side)
    catalog = run.catalog(side)
    report = validate(fleet, catalog)
    faction = catalog.faction(fleet.faction)
    source = (run.sources or {}).get(side) or {}
    return SideInfo(
        key=side,
        label=run.label(side),
        faction=faction.name if faction else fleet.faction,
        size=fleet.game_size.label,
        points=report.points,
        legal=report.legal,
        problems=len(report.errors),
        source=source.get("kind", ""),
        policy=_policy_word(run.options.get(f"policy_{side}", "standard")),
        edition=side_edition(run.edition(side)),
        note=source.get("note", ""),
    )


def editions_note(a: SideInfo, b: SideInfo) -> str:
    """What the page says when the sides play different editions (R-163); "" otherwise."""
    return differ_sentence((a.faction, a.edition), (b.faction, b.edition))


def points_note(a: SideInfo, b: SideInfo) -> str:
    """What the headline says when the fleets' points differ; "" when equal."""
    if a.points == b.points:
        return ""
    more, less = (a, b) if a.points > b.points else (b, a)
    gap = more.points - less.points
    share = gap / max(less.points, 1)
    close = (
        "within 5\u00a0%, a close match"
        if share <= 0.05
        else "the odds lean its way for that alone"
    )
    return (
        f"The points differ: fleet {more.key.upper()} has {gap} more ({more.points} against "
        f"{less.points}, {share * 100:.1f}\u00a0%); {close}."
    )


def _policy_word(name: str) -> str:
    return "" if name == "standard" else name


def verdict(summary: dict[str, Any], a: str, b: str) -> tuple[str, str]:
    """("a" | "b" | "even", the sentence a player reads). Favoured only when the two win
    rates' 95 % intervals do not overlap."""
    a_lo, a_hi = summary["a_win_ci95"]
    b_lo, b_hi = summary["b_win_ci95"]
    a_rate, b_rate = summary["a_win_rate"], summary["b_win_rate"]
    battles = summary["battles"]
    if a_lo > b_hi:
        return "a", (
            f"{a} is favoured: it wins {charts.pct(a_rate)} of {battles} battles, "
            f"{b} {charts.pct(b_rate)}."
        )
    if b_lo > a_hi:
        return "b", (
            f"{b} is favoured: it wins {charts.pct(b_rate)} of {battles} battles, "
            f"{a} {charts.pct(a_rate)}."
        )
    return "even", (
        f"No clear favourite after {battles} battles: {a} wins "
        f"{charts.pct(a_rate)}, {b} {charts.pct(b_rate)}, and the 95 % intervals "
        f"overlap."
    )


def ship_rows(summary: dict[str, Any], run: Matchup) -> dict[str, list[ShipRow]]:
    """Each ship's fates, by side, named as in its fleet list (and its edition). The escorts of
    one class in one squadron share a row (their rates averaged: the chance for any one)."""
    indexes = {side: catalog_index(run.catalog(side)) for side in ("a", "b")}
    fleets = {"a": _played_units(run.core_fleet("a")), "b": _played_units(run.core_fleet("b"))}
    groups: dict[tuple[str, int, str], list[dict[str, Any]]] = {}
    for entry in summary.get("ships", []):
        units = fleets[entry["side"]]
        unit_i = entry["unit"]
        squadron = 0 <= unit_i < len(units) and isinstance(units[unit_i], rf.Squadron)
        key = (
            (entry["side"], unit_i, entry["ship"])
            if squadron
            else (entry["side"], unit_i, f"{entry['ship']}#{len(groups)}")
        )
        groups.setdefault(key, []).append(entry)
    rows: dict[str, list[ShipRow]] = {"a": [], "b": []}
    for (side, unit_i, _), entries in groups.items():
        slug = entries[0]["ship"]
        ship_name = indexes[side].ship_name(slug)
        units = fleets[side]
        unit = units[unit_i] if 0 <= unit_i < len(units) else None
        count = len(entries)
        if isinstance(unit, rf.Squadron):
            label = f"{ship_name} ×{count}" if count > 1 else ship_name
            note = f"{unit.name}, per ship" if unit.name else "squadron, per ship"
        elif isinstance(unit, rf.ShipUnit) and unit.name:
            label, note = unit.name, ship_name
        else:
            label, note = ship_name, ""
        rates = {
            fate: sum(e.get(f"{fate}_rate", 0.0) for e in entries) / count for fate in charts.FATES
        }
        words = ", ".join(f"{fate} {charts.pct(rates[fate])}" for fate in charts.FATES)
        rows[side].append(
            ShipRow(
                label=label,
                note=note,
                count=count,
                rates=rates,
                segments=charts.fate_segments(rates),
                title=f"{label}: {words}",
            )
        )
    return rows


def command_line(run: Matchup) -> list[str]:
    """The ``manage.py simulate`` call that plays this run (contract 3), given its two fleet
    files saved as fleet-a.json and fleet-b.json; in parts that a line may not break."""
    options = run.options or {}
    parts = [
        "python",
        "manage.py",
        "simulate",
        "fleet-a.json",
        "fleet-b.json",
        f"--battles {run.battles}",
        f"--seed {run.seed}",
        f"--rounds {options.get('max_rounds', 10)}",
        f"--scoring {options.get('scoring', 'core')}",
        f"--terrain {options.get('terrain', 'none')}",
    ]
    if options.get("table"):
        parts.append(f"--table {options['table']}")
    return [*parts, "--json"]


def _played_units(fleet: rf.Fleet) -> list[rf.Unit]:
    """The units the engine numbers: all but squadrons without ships (it skips those)."""
    return [u for u in fleet.units if not (isinstance(u, rf.Squadron) and not u.ships)]


def results_context(run: Matchup) -> dict[str, Any]:
    sides = {s: side_info(run, s) for s in ("a", "b")}
    options = run.options or {}
    table = options.get("table") or run.core_fleet("a").game_size.value
    ctx: dict[str, Any] = {
        "side_a": sides["a"],
        "side_b": sides["b"],
        "sides": [sides["a"], sides["b"]],
        "points_note": points_note(sides["a"], sides["b"]),
        "editions_note": editions_note(sides["a"], sides["b"]),
        "scoring_label": SCORING_LABELS.get(options.get("scoring", "core"), ""),
        "terrain_label": TERRAIN_LABELS.get(options.get("terrain", "none"), ""),
        "table_label": table.capitalize() if table != "custom" else "Skirmish",
        "max_rounds": options.get("max_rounds", 10),
        "summary": None,
    }
    ctx["command_parts"] = command_line(run)
    summary = run.summary()
    if summary is None:
        return ctx
    vp_a, vp_b = charts.vp_histograms(summary["vp"]["a"], summary["vp"]["b"], summary["battles"])
    favoured, sentence = verdict(summary, sides["a"].label, sides["b"].label)
    ctx.update(
        summary=summary,
        favoured=favoured,
        verdict=sentence,
        outcome_chart=charts.outcome_chart(summary),
        vp_charts=(
            ("a", sides["a"], summary["vp"]["a"], vp_a),
            ("b", sides["b"], summary["vp"]["b"], vp_b),
        ),
        rounds_chart=charts.rounds_histogram(
            summary.get("rounds_histogram", {}), summary["battles"], ctx["max_rounds"]
        ),
        ships=ship_rows(summary, run),
        ended=_ended(summary),
    )
    return ctx


@dataclass(frozen=True)
class LogRound:
    number: int
    entries: list[Any]


def battle_number(wanted: str | None) -> int:
    """The battle a results page asks for (``?battle=``, 1-based): the first when not given,
    0 when it is not a plain number (ASCII digits only: int() would read "٣" as 3)."""
    if not wanted:
        return 1
    return int(wanted) if wanted.isascii() and wanted.isdigit() and len(wanted) < 10 else 0


def battle_context(run: Matchup, wanted: str | None) -> dict[str, Any]:
    """One battle of the run with its log: battle ``wanted`` (1-based; the first by default)."""
    ctx: dict[str, Any] = {
        "log_error": "",
        "log_battle": None,
        "log_result": None,
        "log_rounds": [],
    }
    number = battle_number(wanted)
    if not 1 <= number <= run.battles:
        ctx["log_error"] = f"There is no battle {wanted}: this run has battles 1 to {run.battles}."
        return ctx
    try:
        result = run.battle(number - 1, log=True)
    except SimError as exc:
        ctx["log_error"] = str(exc)
        return ctx
    rounds: dict[int, list[Any]] = {}
    for entry in result.log or []:
        rounds.setdefault(entry.round, []).append(entry)
    ctx.update(
        log_battle=number,
        log_result=result,
        log_rounds=[LogRound(n, entries) for n, entries in sorted(rounds.items())],
        log_fates={s: _fates_by_kind(result.fates, s) for s in ("a", "b")},
    )
    return ctx


ENDED_BY = {"annihilation": "by annihilation", "time": "after the last round"}


def _ended(summary: dict[str, Any]) -> list[tuple[str, float]]:
    """How the battles ended, as shares: [("by annihilation", 0.59), …] (if the engine says)."""
    counts = summary.get("ended_by") or {}
    total = sum(counts.values())
    return [(ENDED_BY.get(how, how), n / total) for how, n in counts.items() if n and total]


def _fates_by_kind(fates: list[dict[str, Any]], side: str) -> list[tuple[str, list[str]]]:
    """One side's ships of one battle grouped by fate, alike ones counted:
    [("destroyed", ["Sword Frigate ×2", "Lunar Class Cruiser"]), …]."""
    groups: dict[str, dict[str, int]] = {}
    for fate in fates:
        if fate["side"] == side:
            names = groups.setdefault(fate["fate"], {})
            name = fate.get("name") or fate["ship"]
            names[name] = names.get(name, 0) + 1
    return [
        (kind, [f"{name} ×{n}" if n > 1 else name for name, n in groups[kind].items()])
        for kind in charts.FATES
        if kind in groups
    ]
