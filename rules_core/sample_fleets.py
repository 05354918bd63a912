"""Built-in sample fleets: a legal fleet for any faction and game size, built constructively.

The builder is deterministic (the same catalogue gives the same fleet): it meets every
``min_count`` rule (first adding the ships a ``max_per`` rule asks for, if need be; a unique
ship only when a rule names it), then adds capital ships and escort squadrons in turn, cheapest
first, while every other composition rule and the ceiling still hold, until the total reaches
the size's common target (:func:`sample_target`: the band's top less 1 %, the same for every
faction). Then it fills with smaller steps (an escort, a squadron, a capital ship, a refit or
upgrade, an admiral), each time the one that lands closest to the target, never above
``target + 2 %`` or the band. So every faction's sample of a size is within
:data:`MATCH_TOLERANCE` of the same total, and a matchup of samples is a points-matched one
. The result is checked with the validator.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from rules_core.catalog import AdmiralRank, Catalog, CompositionRule, RuleKind, ShipProfile, Upgrade
from rules_core.fleet import (
    POINTS_BANDS,
    Fleet,
    GameSize,
    PointsBand,
    ShipUnit,
    Squadron,
    SquadronShip,
    Unit,
)
from rules_core.validator import (
    SQUADRON_MAX,
    SQUADRON_MIN,
    CatalogIndex,
    catalog_index,
    past_limit,
    tally_rule,
    upgrade_refusal,
    upgrade_uses,
    validate,
)

STANDARD_SQUADRON = 3
# Every faction's sample of a size lands within this share of the size's common target.
MATCH_TOLERANCE = 0.02


def sample_target(band: PointsBand) -> int:
    """The total every faction's sample of ``band`` aims at: the band's top less 1 % (rounded
    down to a multiple of 5), so the tolerance above it still fits in the band."""
    target = (band.max - band.max // 100) // 5 * 5
    return max(band.min, target)


def _tolerance(target: int) -> int:
    return int(target * MATCH_TOLERANCE)


class SampleFleetError(ValueError):
    """No legal sample fleet could be built (a catalogue that cannot field one)."""


@dataclass
class _Ship:
    profile: ShipProfile
    upgrades: list[Upgrade] = field(default_factory=list)

    @property
    def cost(self) -> int:
        return self.profile.points + sum(u.points for u in self.upgrades)


@dataclass
class _Draft:
    """A fleet under construction: units are lists of ships (one capital or 2–4 escorts)."""

    units: list[list[_Ship]] = field(default_factory=list)
    admiral: AdmiralRank | None = None

    def copy(self) -> _Draft:
        return _Draft(
            [[_Ship(s.profile, list(s.upgrades)) for s in u] for u in self.units], self.admiral
        )

    @property
    def flagship(self) -> _Ship | None:
        return next((u[0] for u in self.units if u[0].profile.is_capital), None)

    @property
    def total(self) -> int:
        total = sum(s.cost for u in self.units for s in u)
        return total + (self.admiral.points if self.admiral else 0)

    def ships(self) -> list[tuple[str, int]]:
        flagship = self.flagship
        admiral = self.admiral.points if self.admiral else 0
        return [
            (s.profile.slug, s.cost + (admiral if s is flagship else 0))
            for u in self.units
            for s in u
        ]


class _Builder:
    def __init__(
        self, catalog: Catalog, faction_slug: str, band: PointsBand, variant: str | None
    ) -> None:
        idx = catalog_index(catalog)
        faction = idx.factions.get(faction_slug)
        if faction is None:
            raise SampleFleetError(f"the catalogue has no faction {faction_slug!r}")
        self.idx: CatalogIndex = idx
        self.faction = faction
        self.band = band
        self.variant = variant
        rules: list[CompositionRule] = list(faction.composition)
        forbidden: frozenset[str] = frozenset()
        if variant is not None:
            v = idx.variants.get((faction.slug, variant))
            if v is None:
                raise SampleFleetError(f"{faction.name} has no variant {variant!r}")
            rules += v.composition
            forbidden = v.forbidden_ships
        self.rules = rules
        allowed = sorted(
            (s for s in faction.ships if s.slug not in forbidden), key=lambda s: (s.points, s.slug)
        )
        # Unique ships join only when a rule demands them (a variant led by a named ship).
        self.uniques = [s for s in allowed if s.is_unique]
        usable = [s for s in allowed if not s.is_unique]
        self.capitals = [s for s in usable if s.is_capital]
        self.escorts = [s for s in usable if s.is_escort]
        self.upgrades = sorted(
            (*faction.upgrades, *catalog.refits), key=lambda u: (u.points, u.slug)
        )
        self.admirals = sorted(catalog.admirals, key=lambda a: (a.points, a.slug))
        if not self.capitals and not self.uniques:
            raise SampleFleetError(f"{faction.name} has no capital ship to be the flagship")

    # checks ------------------------------------------------------------------------------

    def fits(self, draft: _Draft) -> bool:
        """Within the band's maximum and every rule but ``min_count``.

        A share rule is judged against at least the band's minimum, which the finished fleet
        reaches, so a costly first ship is not refused for being most of a small fleet.
        """
        total = draft.total
        if total > self.band.max:
            return False
        ships = draft.ships()
        share_total = max(total, self.band.min)
        for rule in self.rules:
            if rule.kind is RuleKind.MIN_COUNT:
                continue
            t = tally_rule(rule, self.idx, ships, share_total, self.band)
            if not t.ok:
                return False
        return True

    def unmet_minimums(self, draft: _Draft) -> list[tuple[CompositionRule, int]]:
        ships = draft.ships()
        out = []
        for rule in self.rules:
            if rule.kind is RuleKind.MIN_COUNT:
                t = tally_rule(rule, self.idx, ships, draft.total, self.band)
                if not t.ok:
                    out.append((rule, int(t.limit) - t.actual))
        return out

    def done(self, draft: _Draft) -> bool:
        return draft.total >= self.band.min and not self.unmet_minimums(draft)

    # moves -------------------------------------------------------------------------------

    def with_unit(self, draft: _Draft, profile: ShipProfile, count: int = 1) -> _Draft:
        new = draft.copy()
        new.units.append([_Ship(profile) for _ in range(count)])
        return new

    @staticmethod
    def squadron_size(wanted: int) -> int:
        return max(SQUADRON_MIN, min(SQUADRON_MAX, wanted))

    def minimum_moves(self, draft: _Draft) -> list[_Draft]:
        moves = []
        present = {s.profile.slug for u in draft.units for s in u}
        uniques = [s for s in self.uniques if s.is_capital and s.slug not in present]
        for rule, missing in self.unmet_minimums(draft):
            subject = self.idx.selected(rule.subject)
            for s in (*self.capitals, *uniques):
                if s.slug in subject:
                    moves.append(self.with_unit(draft, s))
            for s in self.escorts:
                if s.slug in subject:
                    moves.append(self.with_unit(draft, s, self.squadron_size(missing)))
        return moves

    def standard_moves(self) -> list[tuple[ShipProfile, int]]:
        """Capital ships and escort squadrons interleaved, cheapest first."""
        caps = [(s, 1) for s in self.capitals]
        squads = [(s, STANDARD_SQUADRON) for s in self.escorts]
        out: list[tuple[ShipProfile, int]] = []
        for k in range(max(len(caps), len(squads))):
            out += caps[k : k + 1] + squads[k : k + 1]
        return out

    def small_moves(self, draft: _Draft) -> list[_Draft]:
        moves = []
        for i, unit in enumerate(draft.units):
            if unit[0].profile.is_escort and len(unit) < SQUADRON_MAX:
                new = draft.copy()
                new.units[i].append(_Ship(unit[0].profile))
                moves.append(new)
        moves += [self.with_unit(draft, s, SQUADRON_MIN) for s in self.escorts]
        moves += [self.with_unit(draft, s) for s in self.capitals]
        if draft.admiral is None and draft.flagship is not None:
            for rank in self.admirals:
                new = draft.copy()
                new.admiral = rank
                moves.append(new)
        uses = upgrade_uses((u.slug for u in s.upgrades) for unit in draft.units for s in unit)
        for i, unit in enumerate(draft.units):
            for j, s in enumerate(unit):
                for upgrade in self.upgrades:
                    if (
                        upgrade in s.upgrades
                        or past_limit(upgrade, uses[upgrade.slug] + 1)
                        or upgrade_refusal(
                            upgrade, s.profile, self.faction.slug, self.variant, self.idx
                        )
                    ):
                        continue
                    new = draft.copy()
                    new.units[i][j].upgrades.append(upgrade)
                    moves.append(new)
        return moves

    def enabling_move(self, draft: _Draft, blocked: _Draft) -> _Draft | None:
        """A ship that lets a needed but refused one in: a ``per`` ship of a broken max_per.

        E.g. a fleet that must field a battleship, one per three cruisers, first adds cruisers.
        """
        ships = blocked.ships()
        for rule in self.rules:
            if rule.kind is not RuleKind.MAX_PER or rule.per is None:
                continue
            if tally_rule(rule, self.idx, ships, blocked.total, self.band).ok:
                continue
            per = self.idx.selected(rule.per)
            moves = [self.with_unit(draft, s) for s in self.capitals if s.slug in per]
            moves += [self.with_unit(draft, s, SQUADRON_MIN) for s in self.escorts if s.slug in per]
            found = next((m for m in moves if self.fits(m)), None)
            if found is not None:
                return found
        return None

    # the build ---------------------------------------------------------------------------

    def build(self) -> _Draft:
        draft = _Draft()
        target = sample_target(self.band)
        ceiling = min(self.band.max, target + _tolerance(target))
        rotation = self.standard_moves()
        turn = 0
        while draft.total < target or self.unmet_minimums(draft):
            needed = self.minimum_moves(draft)
            chosen = next((m for m in needed if self.fits(m)), None)
            if chosen is None and needed:
                chosen = self.enabling_move(draft, needed[0])
            if chosen is None and draft.total < target:
                for k in range(len(rotation)):
                    profile, count = rotation[(turn + k) % len(rotation)]
                    candidate = self.with_unit(draft, profile, count)
                    if candidate.total <= ceiling and self.fits(candidate):
                        chosen = candidate
                        turn = (turn + k + 1) % len(rotation)
                        break
            if chosen is None:
                break
            draft = chosen
        while not self.done(draft) or draft.total < target:
            # Fill with the small step that lands closest to the target (minimums first).
            fitting = [
                m
                for m in self.small_moves(draft)
                if self.fits(m) and (m.total <= ceiling or not self.done(draft))
            ]
            if not fitting:
                break
            best = min(fitting, key=lambda m: (bool(self.unmet_minimums(m)), abs(target - m.total)))
            if self.done(draft) and abs(target - best.total) >= abs(target - draft.total):
                break
            draft = best
        return draft


def _to_fleet(
    draft: _Draft,
    faction: str,
    game_size: GameSize,
    band: PointsBand,
    variant: str | None,
    name: str,
) -> Fleet:
    capitals = [u for u in draft.units if u[0].profile.is_capital]
    squadrons = [u for u in draft.units if u[0].profile.is_escort]
    units: list[Unit] = []
    for n, (s,) in enumerate(capitals):
        first = n == 0
        units.append(
            ShipUnit(
                ship=s.profile.slug,
                flagship=first,
                admiral=draft.admiral.slug if first and draft.admiral else None,
                upgrades=tuple(u.slug for u in s.upgrades),
            )
        )
    for squadron in squadrons:
        units.append(
            Squadron(
                tuple(
                    SquadronShip(s.profile.slug, tuple(u.slug for u in s.upgrades))
                    for s in squadron
                )
            )
        )
    return Fleet(
        faction=faction,
        game_size=game_size,
        units=tuple(units),
        name=name,
        variant=variant,
        points_limit=band if game_size is GameSize.CUSTOM else None,
        notes="A sample fleet built from the catalogue.",
    )


# Samples already built, by catalogue object (catalogues are immutable values and the app keeps
# one per version; a tool that reprices ships makes a new object) and by what was asked. Building
# one takes 10-40 ms and the simulator's form, the balance round robin and the battle packs ask
# for the same few again and again. Bounded: the last few catalogues, the last requests of each
# (``points_limit`` comes from a player's form, so the keys are not a closed set).
_CACHED_CATALOGS = 4
_CACHED_PER_CATALOG = 256
_SampleKey = tuple[str, GameSize, "str | None", "PointsBand | None"]
_samples: OrderedDict[int, tuple[Catalog, OrderedDict[_SampleKey, Fleet]]] = OrderedDict()
_samples_lock = threading.Lock()


def sample_fleet(
    catalog: Catalog,
    faction_slug: str,
    game_size: GameSize | str,
    *,
    variant: str | None = None,
    points_limit: PointsBand | None = None,
) -> Fleet:
    """A legal fleet of ``faction_slug`` for ``game_size`` (``points_limit`` for custom).

    Raises :class:`SampleFleetError` if the catalogue cannot field one. The same catalogue
    object and arguments give the same fleet (built once, then kept: Fleet is immutable).
    """
    size = GameSize(game_size)
    key: _SampleKey = (
        faction_slug,
        size,
        variant,
        points_limit if size is GameSize.CUSTOM else None,
    )
    with _samples_lock:
        entry = _samples.get(id(catalog))
        if entry is not None and entry[0] is catalog:
            _samples.move_to_end(id(catalog))
            kept = entry[1].get(key)
            if kept is not None:
                entry[1].move_to_end(key)
                return kept
    fleet = _build_sample(catalog, faction_slug, size, variant, points_limit)
    with _samples_lock:
        entry = _samples.get(id(catalog))
        if entry is None or entry[0] is not catalog:
            entry = (catalog, OrderedDict())
            _samples[id(catalog)] = entry
            while len(_samples) > _CACHED_CATALOGS:
                _samples.popitem(last=False)
        entry[1][key] = fleet
        while len(entry[1]) > _CACHED_PER_CATALOG:
            entry[1].popitem(last=False)
    return fleet


def _build_sample(
    catalog: Catalog,
    faction_slug: str,
    size: GameSize,
    variant: str | None,
    points_limit: PointsBand | None,
) -> Fleet:
    if size is GameSize.CUSTOM:
        if points_limit is None:
            raise SampleFleetError("a custom game size needs a points_limit")
        band = PointsBand("custom", points_limit.min, points_limit.max)
    else:
        band = POINTS_BANDS[size]
    builder = _Builder(catalog, faction_slug, band, variant)
    draft = builder.build()
    name = f"{builder.faction.name} {band.label} Fleet"
    fleet = _to_fleet(draft, faction_slug, size, band, variant, name)
    report = validate(fleet, catalog)
    if not report.legal:
        why = "; ".join(p.message for p in report.errors)
        raise SampleFleetError(f"no legal {band.name} fleet for {faction_slug}: {why}")
    return fleet


# The points a sample is built to for a matchup against a given fleet keep within this share of
# that fleet's points; the builder itself lands within MATCH_TOLERANCE of its aim.
NEAR_TOLERANCE = 0.05
MIN_NEAR_POINTS = 100


def near_band(points: int) -> PointsBand:
    """The custom band whose sample aims at ``points``: its top is the least whose
    :func:`sample_target` reaches ``points`` (rounded to 5), its floor 5 % below."""
    aim = max(5, round(points / 5) * 5)
    top = aim
    while sample_target(PointsBand("custom", 0, top)) < aim:
        top += 1
    return PointsBand("custom", int(aim * (1 - NEAR_TOLERANCE)), top)


def sample_fleet_near(
    catalog: Catalog, faction_slug: str, points: int, *, variant: str | None = None
) -> Fleet:
    """A legal sample of ``faction_slug`` of about ``points`` (a custom game size), to fight a
    fleet of that many points on even terms. Raises :class:`SampleFleetError` if the catalogue
    cannot field one that close."""
    if points < MIN_NEAR_POINTS:
        raise SampleFleetError(f"a sample needs at least {MIN_NEAR_POINTS} points")
    band = near_band(points)
    fleet = sample_fleet(catalog, faction_slug, GameSize.CUSTOM, variant=variant, points_limit=band)
    faction = catalog.faction(faction_slug)
    name = f"{faction.name if faction else faction_slug} {points}-point Fleet"
    return Fleet(
        faction=fleet.faction,
        game_size=fleet.game_size,
        units=fleet.units,
        name=name,
        variant=fleet.variant,
        points_limit=fleet.points_limit,
        notes=fleet.notes,
    )
