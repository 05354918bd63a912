"""What a ship card says, as plain values: read from the catalogue and the validator's report.

Nothing here is drawn. Points and effective leadership are the validator's (R-24, R-25); the
rest is the profile with its upgrades' stat changes applied (R-60), the crippled threshold of
R-09, the base of R-10 and the All Ahead Full dice of R-16.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rules_core.catalog import (
    AdmiralRank,
    AttackCraft,
    Catalog,
    Faction,
    ShipClass,
    ShipProfile,
    Upgrade,
    Weapon,
    WeaponType,
    base_size_mm,
    crippled_threshold,
)
from rules_core.fleet import Fleet, ShipUnit
from rules_core.validator import Problem, ShipReport, ValidationReport, catalog_index

MAX_SPEED_CM = 40  # Improved Thrusters: "never above 40 cm"
BLAST_MARKER_BOXES = 6  # markers accumulate without limit; six boxes, tally beyond

WEAPON_TYPE_LABELS = {
    WeaponType.BATTERY: "Battery",
    WeaponType.LANCE: "Lance",
    WeaponType.TORPEDO: "Torpedoes",
    WeaponType.NOVA_CANNON: "Nova cannon",
    WeaponType.LAUNCH_BAY: "Launch bay",
    WeaponType.SPECIAL: "Special",
}
CRITICALS = (
    # (2d6, what it does, boxes) — R-64: every result of §8's table; a lasting one gets boxes
    # for its copies, Shields and Bulkhead Collapse none (events, R-48, R-49).
    (2, "Shields collapse: 0 now", 0),
    (3, "Thrusters: speed ½", 2),
    (4, "Armament: 1 weapon off", 3),
    (5, "Prow: F weapons off", 2),
    (6, "Starboard: R weapons off", 2),
    (7, "Port: L weapons off", 2),
    (8, "Dorsal: turrets ½", 2),
    (9, "Fire! 1 dmg/End Phase", 3),
    (10, "Hull breach: −1 Ld", 3),
    (11, "Bulkhead: d3 damage now", 0),
    (12, "Bridge: Ld 6 for good", 1),
)


SHORT_TYPE_LABELS = {
    WeaponType.BATTERY: "Battery",
    WeaponType.LANCE: "Lance",
    WeaponType.TORPEDO: "Torpedo",
    WeaponType.NOVA_CANNON: "Nova",
    WeaponType.LAUNCH_BAY: "Bay",
    WeaponType.SPECIAL: "Special",
}
ROLE_LABELS = {"fighter": "fighters", "bomber": "bombers", "assault_boat": "assault boats"}


@dataclass(frozen=True, slots=True)
class Stats:
    """A ship's stat line as it flies: the profile plus its upgrades' changes (R-60)."""

    speed_cm: int
    turns: int
    leadership: int
    shields: int
    hull: int
    armor: int
    turrets: int
    launch_capacity: int
    ship_class: ShipClass

    @property
    def base_mm(self) -> int:
        """R-10 on the upgraded values: a cruiser raised to 3 shields is on a 60 mm base (R-60)."""
        return base_size_mm(self.ship_class, self.shields, self.hull)

    @property
    def crippled_at(self) -> int | None:
        """R-09 on the upgraded hull: crippled at or below half of it; 1 hull never is."""
        return crippled_threshold(self.hull)


def effective_stats(profile: ShipProfile, report: ShipReport) -> Stats:
    """The profile with the summed ``effects`` of the ship's upgrades (the validator's)."""
    fx = report.effects
    return Stats(
        speed_cm=min(MAX_SPEED_CM, max(0, profile.speed_cm + fx.get("speed", 0))),
        turns=profile.turns,
        leadership=report.leadership if report.leadership is not None else profile.leadership,
        shields=max(0, profile.shields + fx.get("shields", 0)),
        hull=max(1, profile.hull + fx.get("hull", 0)),
        armor=min(6, max(2, profile.armor + fx.get("armor", 0))),
        turrets=max(0, profile.turrets + fx.get("turrets", 0)),
        launch_capacity=max(0, profile.launch_capacity + fx.get("launch_capacity", 0)),
        ship_class=profile.ship_class,
    )


@dataclass(frozen=True, slots=True)
class WeaponLine:
    weapon: Weapon
    note: int | None = None  # footnote number of a special weapon's rule

    @property
    def type_label(self) -> str:
        return WEAPON_TYPE_LABELS.get(self.weapon.type, self.weapon.type.value)

    @property
    def short_type(self) -> str:
        """At most 7 characters, for the weapons line."""
        return SHORT_TYPE_LABELS.get(self.weapon.type, self.weapon.type.value[:7])

    @property
    def range_label(self) -> str:
        # Launch bays have no range: their craft move 20 cm a Drift phase.
        return "—" if self.weapon.range_cm == 0 else f"{self.weapon.range_cm}"

    @property
    def crippled_strength(self) -> int:
        return self.weapon.strength // 2  # §9: every weapon strength halves, rounding down


@dataclass(frozen=True, slots=True)
class ShipBlock:
    """One kind of ship on a card: a capital ship, or identical escorts of a squadron."""

    profile: ShipProfile
    stats: Stats
    count: int
    points_each: int
    weapons: tuple[WeaponLine, ...]
    notes: tuple[tuple[int, str, str], ...]  # (number, weapon name, rule)
    craft: tuple[AttackCraft, ...]
    rules: tuple[str, ...]
    upgrades: tuple[Upgrade, ...]

    @property
    def crippled_summary(self) -> str:
        s = self.stats
        if s.crippled_at is None:
            return "1 hull: cannot be crippled (R-09)"
        parts = [
            f"speed {s.speed_cm // 2}",
            f"turrets {s.turrets // 2}",
            "weapons halved",
            "Ld −2 for checks",
        ]
        if any(
            w.weapon.type in (WeaponType.NOVA_CANNON, WeaponType.LAUNCH_BAY, WeaponType.TORPEDO)
            for w in self.weapons
        ):
            parts.append("no nova cannon or ordnance")
        return f"Crippled at hull ≤ {s.crippled_at}: " + ", ".join(parts)


@dataclass(frozen=True, slots=True)
class HullTrack:
    """Boxes to tick for one ship: hull (crippled threshold marked), shields, blast markers."""

    label: str
    hull: int
    crippled_at: int | None
    shields: int
    blast_markers: int = BLAST_MARKER_BOXES


@dataclass(frozen=True, slots=True)
class Card:
    kind: str  # "ship" or "squadron"
    unit: int  # index in fleet.units
    title: str
    subtitle: str
    faction: str
    points: int
    blocks: tuple[ShipBlock, ...]
    tracks: tuple[HullTrack, ...]
    flagship: bool = False
    admiral: AdmiralRank | None = None
    leadership: int | None = None  # effective Ld (a squadron: its highest, section 6)
    criticals: bool = True  # false when no ship on the card can take one
    unknown: tuple[str, ...] = ()  # slugs the catalogue lacks
    problems: tuple[Problem, ...] = ()
    edition: int | None = None  # the catalogue edition its values are from, footed

    @property
    def weapon_rows(self) -> int:
        return sum(len(b.weapons) for b in self.blocks)

    @property
    def text_length(self) -> int:
        """Characters of free text on the card, for choosing a denser type size."""
        n = sum(len(t) for b in self.blocks for (_, _, t) in b.notes)
        n += sum(len(r) for b in self.blocks for r in b.rules)
        n += sum(
            len(u.name) + (12 if u.effects else len(u.text) + 8)
            for b in self.blocks
            for u in b.upgrades
        )
        n += sum(len(c.name) + 12 for b in self.blocks for c in b.craft)
        n += sum(70 for b in self.blocks if b.craft or b.stats.launch_capacity)
        if self.admiral is not None:
            n += len(self.admiral.name) + len(self.admiral.rule) + 20
        return n


@dataclass(frozen=True, slots=True)
class RosterLine:
    unit: int
    label: str  # the unit's name, or its ship / "n × escort"
    detail: str  # class or the squadron's make-up
    points: int
    leadership: int | None
    flagship: bool
    admiral: str | None


@dataclass
class Roster:
    name: str
    faction: str
    variant: str | None
    game_size: str
    band: str  # "1500–2500"
    points: int
    legal: bool
    errors: tuple[Problem, ...]
    warnings: tuple[Problem, ...]
    command_leadership: int | None
    lines: list[RosterLine] = field(default_factory=list)
    faction_rules: tuple[tuple[str, str], ...] = ()
    share_url: str | None = None
    edition: int | None = None  # the catalogue edition of its prices


# --- building ------------------------------------------------------------------------------


def _craft(profile: ShipProfile, faction: Faction | None) -> tuple[AttackCraft, ...]:
    if faction is None:
        return ()
    known = {c.slug: c for c in faction.attack_craft}
    return tuple(known[s] for s in profile.attack_craft if s in known)


def _rules(profile: ShipProfile) -> tuple[str, ...]:
    """The ship's special rules, then its tags as rules a player looks up (R-63); a tag that
    names one of its rules already (the Hive Ship's Synapse) is printed once."""
    rules = list(profile.special_rules)
    seen = {rule.casefold() for rule in rules}
    for tag in profile.tags:
        name = tag.replace("-", " ").capitalize()
        if tag != "unique" and name.casefold() not in seen:
            rules.append(name)
            seen.add(name.casefold())
    return tuple(rules)


def _block(
    profile: ShipProfile, report: ShipReport, faction: Faction | None, count: int, note_start: int
) -> ShipBlock:
    lines: list[WeaponLine] = []
    notes: list[tuple[int, str, str]] = []
    for w in profile.weapons:
        # a special weapon's rule says how it fires, so it is printed; the rule of any
        # other weapon is a conversion note from the reference data and is left off.
        if w.type is WeaponType.SPECIAL and w.rule:
            number = note_start + len(notes)
            notes.append((number, w.name, w.rule))
            lines.append(WeaponLine(w, number))
        else:
            lines.append(WeaponLine(w))
    return ShipBlock(
        profile=profile,
        stats=effective_stats(profile, report),
        count=count,
        points_each=report.points,
        weapons=tuple(lines),
        notes=tuple(notes),
        craft=_craft(profile, faction),
        rules=_rules(profile),
        upgrades=report.upgrades,
    )


def build_cards(catalog: Catalog, fleet: Fleet, report: ValidationReport) -> list[Card]:
    """One card per capital-ship unit and one per escort squadron, in the fleet's order."""
    idx = catalog_index(catalog)
    faction = idx.factions.get(fleet.faction)
    faction_name = faction.name if faction else fleet.faction
    cards = []
    for i, (unit, unit_report) in enumerate(zip(fleet.units, report.units, strict=True)):
        problems = report.problems_for(i)
        if isinstance(unit, ShipUnit):
            cards.append(_ship_card(i, unit, unit_report.ships[0], faction, faction_name, problems))
        else:
            cards.append(
                _squadron_card(
                    i,
                    unit.name,
                    unit_report.ships,
                    unit_report.points,
                    faction,
                    faction_name,
                    problems,
                )
            )
    if fleet.edition is not None:  # every card says whose numbers it prints
        cards = [replace(card, edition=fleet.edition) for card in cards]
    return cards


def _ship_card(
    i: int,
    unit: ShipUnit,
    ship: ShipReport,
    faction: Faction | None,
    faction_name: str,
    problems: tuple[Problem, ...],
) -> Card:
    profile = ship.profile
    if profile is None:
        return Card(
            "ship",
            i,
            unit.name or ship.ship,
            "Not in the catalogue",
            faction_name,
            ship.points,
            (),
            (),
            unit.flagship,
            ship.admiral,
            None,
            False,
            (ship.ship,),
            problems,
        )
    block = _block(profile, ship, faction, 1, 1)
    label = profile.ship_class.label
    subtitle = f"{profile.name} · {label}" if unit.name else label
    track = HullTrack("", block.stats.hull, block.stats.crippled_at, block.stats.shields)
    return Card(
        kind="ship",
        unit=i,
        title=unit.name or profile.name,
        subtitle=subtitle,
        faction=faction_name,
        points=ship.points,
        blocks=(block,),
        tracks=(track,),
        flagship=ship.is_flagship,
        admiral=ship.admiral,
        leadership=ship.leadership,
        criticals=block.stats.hull > 1,
        problems=problems,
    )


def _squadron_card(
    i: int,
    name: str | None,
    ships: tuple[ShipReport, ...],
    points: int,
    faction: Faction | None,
    faction_name: str,
    problems: tuple[Problem, ...],
) -> Card:
    # Identical escorts (same ship, same upgrades) share one stat line and weapons table.
    groups: dict[tuple[str, tuple[str, ...]], list[ShipReport]] = {}
    for s in ships:
        groups.setdefault((s.ship, tuple(u.slug for u in s.upgrades)), []).append(s)
    blocks: list[ShipBlock] = []
    unknown: list[str] = []
    note = 1
    for members in groups.values():
        first = members[0]
        if first.profile is None:
            unknown.append(first.ship)
            continue
        block = _block(first.profile, first, faction, len(members), note)
        note += len(block.notes)
        blocks.append(block)
    tracks = []
    for n, s in enumerate(ships, start=1):
        if s.profile is None:
            continue
        stats = effective_stats(s.profile, s)
        tracks.append(HullTrack(f"{n}", stats.hull, stats.crippled_at, stats.shields))
    if len(blocks) == 1 and not unknown:
        subtitle = f"Escort squadron · {len(ships)} × {blocks[0].profile.name}"
    else:
        subtitle = f"Escort squadron · {len(ships)} escorts"
    title = name or (
        f"{blocks[0].profile.name} Squadron" if len(blocks) == 1 and not unknown else "Squadron"
    )
    lds = [s.leadership for s in ships if s.leadership is not None]
    return Card(
        kind="squadron",
        unit=i,
        title=title,
        subtitle=subtitle,
        faction=faction_name,
        points=points,
        blocks=tuple(blocks),
        tracks=tuple(tracks),
        leadership=max(lds, default=None),
        criticals=any(t.hull > 1 for t in tracks),
        unknown=tuple(unknown),
        problems=problems,
    )


def build_roster(
    catalog: Catalog,
    fleet: Fleet,
    report: ValidationReport,
    cards: list[Card],
    share_url: str | None = None,
) -> Roster:
    idx = catalog_index(catalog)
    faction = idx.factions.get(fleet.faction)
    variant = idx.variants.get((fleet.faction, fleet.variant)) if fleet.variant else None
    band = fleet.band
    lines = []
    for card in cards:
        if card.kind == "ship":
            detail = card.subtitle
            label = card.title
        else:
            detail = ", ".join(f"{b.count} × {b.profile.name}" for b in card.blocks) or "—"
            label = card.title
        lines.append(
            RosterLine(
                card.unit,
                label,
                detail,
                card.points,
                card.leadership,
                card.flagship,
                card.admiral.name if card.admiral else None,
            )
        )
    return Roster(
        name=fleet.name or "Untitled Fleet",
        faction=faction.name if faction else fleet.faction,
        variant=(variant.name if variant else fleet.variant),
        game_size=fleet.game_size.label,
        band=f"{band.min}–{band.max}",
        points=report.points,
        legal=report.legal,
        errors=report.errors,
        warnings=report.warnings,
        command_leadership=report.leadership,
        lines=lines,
        faction_rules=tuple((r.name, r.text) for r in faction.special_rules) if faction else (),
        share_url=share_url,
        edition=fleet.edition,
    )
