"""One battle from deployment to victory points (seed 000 §3 round by round).

:class:`Battle` holds the state and the rules that touch several parts at once (attacks and
their aftermath, catastrophic damage, leaving the table, scoring); movement, gunnery, ordnance
and command live in their own modules, and every decision a player would make is asked of the
side's :class:`~rules_core.sim.policy.Policy`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Any, Final

from .. import damage
from ..catalog import CraftRole
from ..dice import Dice, _stable_seed
from . import advanced_movement, factions, gunnery, ordnance
from . import orders as o
from .activation import activate, disengage, squadron_lead
from .api import BattleResult, LogEntry, SimOptions
from .geometry import hypot as _hypot
from .policy import Policy, get_policy
from .state import (
    MARKER_RADIUS,
    TABLE_SIZES,
    BlastMarker,
    FleetSpec,
    Memo,
    Rank,
    Salvo,
    Ship,
    Terrain,
    Unit,
    Wave,
)
from .terrain import (
    SEED001_TERRAINS,
    drift_bodies,
    in_well,
    orbit_explosion,
    place_terrain,
    well_edge,
    wreck_drifts,
)

SIDES: Final = ("a", "b")
ORDNANCE: Final = (damage.torpedo_salvo, damage.bomber_attack, damage.assault_boat_attack)
HULK_DEBRIS_R: Final = 4.0  # a drifting hulk is a debris field 8 cm across
RIFT_CLOUD_R: Final = 5.0  # a warp rift leaves a gas cloud 10 cm across
DEPLOY_DEPTH: Final = 30.0


class BattleDice:
    """Seeded dice with a faster roll: one float per die (the stream is still derived by
    SHA-256 from (seed, battle index) only, see :meth:`SeededDice.for_battle`).

    The generator is seeded as :class:`rules_core.dice.SeededDice` seeds it, and the named
    rolls are those of its mixin on this ``roll``, written out here rather than inherited so
    that mypyc compiles the class as a native one (``rules_core.dice`` stays interpreted)."""

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = random.Random(_stable_seed(seed) if seed is not None else None)
        self._float: Callable[[], float] = self._random.random

    @classmethod
    def for_battle(cls, seed: int | str, index: int) -> BattleDice:
        return cls(f"battle:{seed}:{index}")

    def __repr__(self) -> str:
        return f"SeededDice({self.seed!r})"

    def roll(self, sides: int) -> int:
        return int(self._float() * sides) + 1

    def d6(self) -> int:
        return int(self._float() * 6.0) + 1

    def d3(self) -> int:
        return self.roll(3)

    def d12(self) -> int:
        return self.roll(12)

    def two_d6(self) -> int:
        """The sum of two d6 (command checks, critical and catastrophic tables)."""
        return self.d6() + self.d6()

    def nd6(self, n: int) -> list[int]:
        """``n`` separate d6, in the order rolled."""
        if n < 0:
            raise ValueError(f"cannot roll {n} dice")
        return [self.d6() for _ in range(n)]

    def sum_d6(self, n: int) -> int:
        """The total of ``n`` d6 (``4d6`` cm of All Ahead Full, ``3d6`` cm explosion radius)."""
        return sum(self.nd6(n))

    def count_at_least(self, n: int, score: int) -> int:
        """``n`` d6 as :meth:`d6` rolls them, counting those at ``score`` or more: a die shows
        ``int(f * 6) + 1``, so it makes the score exactly when ``f * 6 >= score - 1``."""
        f = self._float
        k = score - 1
        c = 0
        for _ in range(n):
            if f() * 6.0 >= k:
                c += 1
        return c


class Battle:
    def __init__(
        self,
        fleet_a: FleetSpec,
        fleet_b: FleetSpec,
        dice: Any,
        options: SimOptions | None = None,
        *,
        log: bool = False,
        policies: tuple[Policy, Policy] | None = None,
        deploy: bool = True,
        observer: Any = None,
    ) -> None:
        options = options or SimOptions()
        self.options = options
        # Typed by the protocol (erased at run time, so any dice object still fits): the rolls
        # come back as ints, which compiled code then compares natively.
        self.dice: Dice = dice
        self.logging = log
        # A replay's recorder (rules_core.sim.replay.Recorder): told of every log line and
        # every attack; None in every ordinary battle, which then records nothing. It only
        # reads the battle, so a recorded battle plays exactly as an unrecorded one.
        self.observer = observer if log else None
        self.entries: list[LogEntry] = []
        self.round = 0
        self.phase = "setup"
        self.specs = (fleet_a, fleet_b)
        table = options.table or (
            fleet_a.game_size if fleet_a.game_size in TABLE_SIZES else "skirmish"
        )
        self.width, self.depth = TABLE_SIZES[table]
        self.units: tuple[list[Unit], list[Unit]] = (
            [Unit(u) for u in fleet_a.units],
            [Unit(u) for u in fleet_b.units],
        )
        self.sides: tuple[list[Ship], list[Ship]] = (
            [s for u in self.units[0] for s in u.ships],
            [s for u in self.units[1] for s in u.ships],
        )
        self.flagships: list[Ship | None] = [
            next((s for s in side if s.spec.flagship), None) for side in self.sides
        ]
        self.markers: list[BlastMarker] = []
        self.salvos: list[Salvo] = []
        self.waves: list[Wave] = []
        self.terrain: list[Terrain] = []
        self.seed001 = options.terrain in SEED001_TERRAINS  # seed 001's rules in play (R-130)
        self.policies = policies or (get_policy(options.policy_a), get_policy(options.policy_b))
        for i in (0, 1):
            if not self.policies[i].takes_faction_options():
                for ship in self.sides[i]:
                    ship.target.brace_rerolls = 0  # no Acts of Faith re-roll either
        self.fleet_captain_used = [False, False]
        self.rear_admiral_used = [0, 0]
        self.vice_admiral_used = [0, 0]
        self.initiative: list[str] = []
        self.ended_by = "time"
        self.memo = Memo()  # what the policies and the faction rules remember (state.Memo)
        # Seed 003's vector movement (R-140): each ship's velocity and course between rounds.
        self.advanced = options.movement == "advanced"
        self.helms: dict[Ship, advanced_movement.Helm] = {}
        # Seed 003's asteroids in motion (R-147): the hits each belt has taken, and the belts
        # that roll a new direction at their next move.
        self.asteroids_moving = options.asteroids == "moving"
        self.asteroid_hits: dict[Terrain, int] = {}
        self.asteroid_reroll: list[Terrain] = []
        if deploy:
            self.deploy()
            if options.terrain != "none":
                place_terrain(self, options.terrain)
            if self.advanced:
                for side in self.sides:
                    for s in side:
                        advanced_movement.helm(self, s)  # the starting velocity
                if self.asteroids_moving:
                    advanced_movement.set_asteroids_moving(self)

    # --- log ---------------------------------------------------------------------------------

    def log(self, side: int | None, text: str) -> None:
        if self.logging:
            entry = LogEntry(self.round, self.phase, None if side is None else SIDES[side], text)
            self.entries.append(entry)
            if self.observer is not None:
                self.observer.step(self, entry)

    # --- set-up ------------------------------------------------------------------------------

    def deploy(self) -> None:
        """R-70: each fleet deploys in a zone 30 cm deep along its own long table edge (A the
        near edge, B the far one), facing the enemy edge. Units stand in file order across the
        middle of the zone, evenly spaced along the edge; escorts of a squadron 4 cm apart
        side by side. Fleet B is placed as A's point reflection, so neither side gets the
        better ground."""
        for side in (0, 1):
            units = self.units[side]
            n = len(units)
            usable = self.width * 0.8
            for i, unit in enumerate(units):
                x = self.width * 0.1 + usable * (i + 0.5) / n
                y = DEPLOY_DEPTH / 2 + 5.0
                ships = unit.ships
                for j, ship in enumerate(ships):
                    dx = (j - (len(ships) - 1) / 2) * 4.0
                    sx, sy, heading = x + dx, y, math.pi / 2
                    if side == 1:
                        sx, sy, heading = self.width - sx, self.depth - sy, -math.pi / 2
                    ship.x, ship.y = sx, sy
                    ship.face(heading)
        if self.logging:
            for side in (0, 1):
                spec = self.specs[side]
                self.log(
                    side,
                    f"Fleet {SIDES[side].upper()}: {spec.name} ({spec.faction}), "
                    f"{sum(len(u.ships) for u in self.units[side])} ships, "
                    f"{spec.total_vp} points.",
                )

    # --- geometry helpers --------------------------------------------------------------------

    def on_table(self, x: float, y: float) -> bool:
        return 0.0 <= x <= self.width and 0.0 <= y <= self.depth

    def in_cover(self, ship: Ship) -> bool:
        """R-42's geometry (R-80, R-138): a ship any part of whose base is over an asteroid
        belt or a debris field is in cover."""
        x, y = ship.x, ship.y
        for t in self.terrain:
            reach = t.r + ship.radius
            if t.gives_cover and -reach <= x - t.x <= reach and _hypot(x - t.x, y - t.y) <= reach:
                return True
        return False

    def enemies(self, side: int) -> list[Ship]:
        return [s for s in self.sides[1 - side] if s.on_table]

    def friends(self, side: int) -> list[Ship]:
        return [s for s in self.sides[side] if s.on_table]

    # --- blast markers -----------------------------------------------------------------------

    def contact_markers(self, ship: Ship) -> list[BlastMarker]:
        reach = ship.radius + MARKER_RADIUS
        x, y = ship.x, ship.y
        x0, x1, y0, y1, r2 = x - reach, x + reach, y - reach, y + reach, reach * reach
        return [
            m
            for m in self.markers
            if x0 <= m.x <= x1
            and y0 <= m.y <= y1
            and (m.x - x) * (m.x - x) + (m.y - y) * (m.y - y) <= r2
        ]

    def settle(self, ship: Ship) -> None:
        """After a move: count the blast markers in contact; clear of all of them, the shields
        come back to full (§7, R-48)."""
        count = 0
        if self.markers:
            reach = ship.radius + MARKER_RADIUS
            x, y, r2 = ship.x, ship.y, reach * reach
            for m in self.markers:  # contact_markers, counted
                if (
                    x - reach <= m.x <= x + reach
                    and y - reach <= m.y <= y + reach
                    and (m.x - x) * (m.x - x) + (m.y - y) * (m.y - y) <= r2
                ):
                    count += 1
        t = ship.target
        if count == 0:
            if t.blast_markers or t.shields < (t.max_shields or 0):
                t.leave_blast_markers()
        else:
            t.blast_markers = count

    def place_marker(self, ship: Ship, sx: float, sy: float) -> None:
        """A blast marker in base contact on the side the attack came from (R-74)."""
        dx, dy = sx - ship.x, sy - ship.y
        d = _hypot(dx, dy)
        if d < 1e-9:
            dx, dy, d = ship.hx, ship.hy, 1.0
        r = ship.radius + MARKER_RADIUS * 0.5
        self.markers.append(BlastMarker(ship.x + dx / d * r, ship.y + dy / d * r, self.round))

    # --- attacks and their aftermath ---------------------------------------------------------

    def attack(
        self,
        ship: Ship,
        fn: Callable[..., damage.AttackReport],
        *args: Any,
        source: Ship | None = None,
        source_xy: tuple[float, float] | None = None,
        defer: bool = False,
        log_as: tuple[int, str] | None = None,
        react: bool = False,
        aboard: bool = False,
        **kwargs: Any,
    ) -> damage.AttackReport:
        """Every attack on a ship goes through here: bracing (§4's order for the round; §10's
        reaction, ``react``, for this attack only, R-85) and the orbit save (§13) as the
        resolver's 4+ save, the resolver itself, then blast markers, crippling and
        destruction (``defer``: the caller removes a destroyed ship itself, for simultaneous
        destruction). ``log_as`` (side, text) logs the text and what the attack did before
        any catastrophe that follows, so the log reads in the order things happen.

        The hot callers (a gun's volley) call :meth:`before_attack`, the resolver and
        :meth:`after_attack` themselves, which is this method without its generic call."""
        ordnance = fn in ORDNANCE
        hidden = self.before_attack(ship, source, react, ordnance, aboard)
        report = fn(ship.target, *args, **kwargs)
        return self.after_attack(ship, report, hidden, source, source_xy, defer, log_as, ordnance)

    def before_attack(
        self, ship: Ship, source: Ship | None, react: bool, ordnance: bool, aboard: bool = False
    ) -> int:
        """:meth:`attack`'s first half: bracing and the orbit save as the resolver's 4+ save,
        markers hidden from it; returns the markers hidden, for :meth:`after_attack`.
        ``aboard``: damage from aboard the ship (a fire), which §13's orbit save, against
        attacks from outside the orbit, does not meet (R-44)."""
        t = ship.target
        braced = react or ship.braced_round == self.round
        if (
            not braced
            and not aboard
            and ship.orbit is not None
            and ship.orbit.kind == "planet"
            and (source is None or source.orbit is not ship.orbit)
        ):
            # §13: in a planet's orbit, 4+ save against attacks from outside it; a
            # gravity well's orbit is fired at as normal (seed 001, R-133)
            braced = True
        t.braced = braced
        rules = ship.spec.rules
        hidden = 0
        if t.blast_markers and (rules.reactive_hulls or (rules.spore_clouds and ordnance)):
            # Necron reactive hulls are not suppressed by markers; Tyranid spore clouds are not
            # hampered by them: the resolver sees no markers for this attack.
            hidden, t.blast_markers = t.blast_markers, 0
        return hidden

    def after_attack(
        self,
        ship: Ship,
        report: damage.AttackReport,
        hidden: int,
        source: Ship | None,
        source_xy: tuple[float, float] | None,
        defer: bool,
        log_as: tuple[int, str] | None,
        ordnance: bool,
    ) -> damage.AttackReport:
        """:meth:`attack`'s second half, once the resolver has made ``report``."""
        t = ship.target
        rules = ship.spec.rules
        if hidden:
            t.blast_markers += hidden
        t.braced = False
        if self.observer is not None:
            self.observer.attack(self, ship, source, source_xy, ordnance, report)
        if report.shields_absorbed or report.hull_lost:
            ship.damaged_round = self.round
        if report.blast_markers_placed:
            sx, sy = (
                (source.x, source.y)
                if source is not None
                else (source_xy if source_xy is not None else (ship.x, ship.y))
            )
            self.place_marker(ship, sx, sy)
        if log_as is not None and self.logging:
            self.log(log_as[0], log_as[1] + gunnery.describe(report))
        if (
            rules.grudge
            and report.hull_lost
            and source is not None
            and self.policies[ship.side].takes_faction_options()
        ):
            factions.name_grudge(self, ship, source)  # Ancestral Grudge
        if report.destroyed and not defer:
            self.remove_destroyed(ship, report.catastrophe)
        return report

    def remove_destroyed(self, ship: Ship, catastrophe: damage.CatastrophicDamage | None) -> None:
        """A ship at 0 hull: off the table, its blast markers with it (§7); then what the
        catastrophic damage table says (R-56): hulk (a debris field), blazing wreck (a blast
        marker), explosions whose hits may destroy more ships in turn (chain reactions), a warp
        rift's gas cloud. A lost flagship shakes the fleet (§15)."""
        if not ship.on_table:
            return
        ship.on_table = False
        ship.destroyed = True
        for m in self.contact_markers(ship):
            self.markers.remove(m)
        if catastrophe is None:
            if self.logging:
                self.log(ship.side, f"{ship.label()} is destroyed.")
        else:
            self.catastrophe(ship, catastrophe)
        if self.sides[1 - ship.side][0].spec.rules.power_from_pain:
            factions.power_from_pain(self, ship)
        if ship is self.flagships[ship.side]:
            self.flagship_lost(ship)

    def catastrophe(self, ship: Ship, cat: damage.CatastrophicDamage) -> None:
        text = ""  # the log's line, made only when logging
        if self.logging:
            label = cat.result.value.replace("_", " ")
            text = f"{ship.label()} is destroyed: {label} (rolled {cat.roll})"
        if cat.leaves_debris_field:
            ship.hulk = True
            self.terrain.append(
                Terrain(
                    "debris",
                    ship.x,
                    ship.y,
                    max(HULK_DEBRIS_R, ship.radius),
                    name=f"hulk of {ship.name}",
                )
            )
            self.log(ship.side, text + "; its hulk drifts on as a debris field.")
            return
        if cat.leaves_blast_marker:
            self.markers.append(BlastMarker(ship.x, ship.y, self.round))
            self.log(ship.side, text + "; a blast marker marks the wreck.")
            return
        if cat.leaves_gas_cloud:
            self.terrain.append(Terrain("gas", ship.x, ship.y, RIFT_CLOUD_R, name="warp rift"))
        well = in_well(ship)
        if well is not None:
            # Seed 001, Exploding in Orbit: the wreck falls into the well, the other
            # orbiters roll instead of the blast, and ships outside are not affected.
            self.log(ship.side, text + f"; its wreck falls into the {well.name}.")
            orbit_explosion(self, ship)
            return
        radius = cat.roll_radius(self.dice, ship.spec.ship_class)
        hits = cat.roll_hits(self.dice)
        if self.logging:
            self.log(
                ship.side,
                text + f": the blast reaches {radius} cm with {hits} "
                f"hit{'s' if hits != 1 else ''}.",
            )
        if self.seed001:
            wreck_drifts(self, ship)  # seed 001
        if radius <= 0 or hits <= 0:
            return
        caught = []
        for side in self.sides:
            for s in side:
                if s.on_table:
                    d = _hypot(s.x - ship.x, s.y - ship.y) - well_edge(s)
                    if d - s.radius <= radius:  # the blast reaches the base
                        caught.append((d, s))
        caught.sort(key=lambda c: (c[0], c[1].side, c[1].spec.unit, c[1].spec.index))
        for _, s in caught:
            if not s.on_table or s.target.hull <= 0:  # gone, or about to go (simultaneous)
                continue
            self.attack(
                s,
                damage.resolve_hits,
                hits,
                self.dice,
                attack="explosion",
                source_xy=(ship.x, ship.y),
                log_as=(s.side, f"  the explosion of {ship.label()} hits {s.label()}: ")
                if self.logging
                else None,
            )

    def flagship_lost(self, ship: Ship) -> None:
        """§15 Priority Target: every friendly ship must pass a command check or be hesitant
        for its next activation."""
        if ship.spec.rules.unshakeable:
            self.log(ship.side, "The flagship is lost, but the Astartes are unshakeable.")
            return
        self.log(ship.side, "The flagship is lost! Every ship of the fleet tests its nerve.")
        for s in self.sides[ship.side]:
            if s.on_table and not o.command_check(
                self, s, reroll=False, what="command check (flagship lost)"
            ):
                s.hesitant_next = True

    def leave_table(self, ship: Ship) -> None:
        """§5: a ship that moves off the table has disengaged; with the FAQ, its escort
        squadron must try to disengage "immediately, and in subsequent turns" (R-87): the rest
        test at once and, failing, at each of their activations."""
        unit = ship.unit
        unit.note_disengaging()
        ship.on_table = False
        ship.disengaged = True
        ship.crippled_when_left = ship.crippled
        self.log(ship.side, f"{ship.label()} leaves the table and has disengaged.")
        if unit.spec.is_squadron:
            first = not unit.disengaging
            unit.disengaging = True
            rest = unit.alive_ships()
            if first and rest:
                disengage(self, unit, squadron_lead(self, rest))

    def asteroid_hazard(self, ship: Ship, t: Terrain) -> None:
        """§13: moving through an asteroid belt needs an Ld check or the ship takes d3 damage
        (damage: no armor save, R-43). A drifting body crossed counts as a belt (R-80).
        Advanced movement rolls seed 003's piloting roll instead (R-147)."""
        if self.advanced:
            advanced_movement.asteroid_roll(self, ship, t)
            return
        if o.command_check(self, ship, reroll=False, what=f"Ld check for the {t.name}"):
            return
        points = self.dice.d3()
        self.attack(
            ship,
            gunnery.damage_points,
            points,
            self.dice,
            attack="asteroids",
            source_xy=(t.x, t.y),
            log_as=(ship.side, f"{ship.label()} is struck in the {t.name} for {points} damage: ")
            if self.logging
            else None,
        )

    def ram(self, ship: Ship, enemy: Ship) -> None:
        """§11: both ships take d6 damage; the one with the better armor (the lower save,
        R-01) rolls twice and takes the lower. Damage: no armor save, shields and brace apply
        (R-77). Both take their damage before either explodes; ships destroyed together roll
        catastrophic damage in initiative order (§8 Simultaneous Destruction)."""
        rolls = {}
        for s in (ship, enemy):
            other = enemy if s is ship else ship
            r = self.dice.d6()
            if s.target.armor < other.target.armor:
                r = min(r, self.dice.d6())
            rolls[id(s)] = r
        self.log(ship.side, f"{ship.label()} rams {enemy.label()}!")
        reports = []
        for s in (ship, enemy):
            other = enemy if s is ship else ship
            report = self.attack(
                s,
                gunnery.damage_points,
                rolls[id(s)],
                self.dice,
                attack="ramming",
                source=other,
                defer=True,
            )
            reports.append((s, report))
            self.log(
                s.side,
                f"  {s.label()} takes {rolls[id(s)]} ramming damage: " + gunnery.describe(report),
            )
        first = SIDES.index(self.initiative[-1]) if self.initiative else ship.side
        reports.sort(key=lambda sr: sr[0].side != first)
        for s, report in reports:
            if report.destroyed:
                self.remove_destroyed(s, report.catastrophe)

    # --- reactions (§10) ---------------------------------------------------------------------

    def brace_reaction(self, ship: Ship, strength: int, kind: int) -> bool:
        """A unit that has not activated this round may spend its activation to brace (§10):
        "a 4+ invulnerable save against the current attack" — this attack only, not the
        round's later ones (R-85) — and hesitant at its next activation. Returns whether it
        braced; the caller passes that to :meth:`attack` as ``react``."""
        unit = ship.unit
        if unit.activated_round >= self.round or ship.braced_round == self.round:
            return False
        if not self.policies[ship.side].wants_brace(self, ship, strength, kind):
            return False
        unit.activated_round = self.round
        for s in unit.ships:
            if s.on_table:
                s.hesitant_next = True
        self.log(
            ship.side,
            f"{unit.spec.name} braces for impact against this attack, giving up its activation.",
        )
        return True

    def scramble(self, ship: Ship, role: CraftRole | None = None, count: int = 1) -> bool:
        """Interceptor Scramble (§10): a carrier with fighters that has not activated this
        round launches one fighter wing at incoming torpedoes (``role`` None) or bombers;
        it launches nothing else this round, but keeps its activation (R-85). Whether it does
        is the policy's choice (R-121)."""
        if (
            ship.unit.activated_round >= self.round
            or not ship.bays_ready
            or ship.no_launch_round == self.round
            or ship.crippled
            or not any(r is CraftRole.FIGHTER for r, _ in ship.spec.craft)
        ):
            return False
        if not self.policies[ship.side].wants_scramble(self, ship, role, count):
            return False
        ship.no_launch_round = self.round
        return True

    # --- the round ---------------------------------------------------------------------------

    def play(self) -> BattleResult:
        for rnd in range(1, self.options.max_rounds + 1):
            self.round = rnd
            self.phase = "drift"
            self.drift_phase()
            self.phase = "command"
            first = self.command_phase()
            self.phase = "activation"
            self.activation_phase(first)
            self.phase = "end"
            self.end_phase()
            if not self.friends(0) or not self.friends(1):
                self.ended_by = "annihilation"
                break
        return self.result()

    def drift_phase(self) -> None:
        if self.salvos or self.waves:
            ordnance.drift(self)
        if self.terrain:
            drift_bodies(self)
        # §3: a ship that neither took damage nor fired last round sheds one blast marker.
        if self.markers:
            last = self.round - 1
            for side in self.sides:
                for s in side:
                    if not s.on_table or not s.target.blast_markers:
                        continue
                    if s.fired_round == last or s.damaged_round == last:
                        continue
                    touching = self.contact_markers(s)
                    if touching:
                        self.markers.remove(min(touching, key=lambda m: m.born))
                    self.settle_markers_only(s)

    def settle_markers_only(self, ship: Ship) -> None:
        """Recount without moving: shields do not come back (they need a move, §7)."""
        ship.target.blast_markers = len(self.contact_markers(ship))

    def highest_leadership(self, side: int) -> int:
        best = 0
        for s in self.sides[side]:
            if s.on_table:
                ld = (
                    o.BRIDGE_DESTROYED_LD
                    if s.target.has(damage.Critical.BRIDGE_DESTROYED)
                    else s.spec.leadership
                )
                best = max(best, ld)
        return best

    def command_phase(self) -> int:
        """Emergency damage control (§8), then 1d6 + highest Ld each; the winner chooses who
        activates first (§3). A tie is rolled again (R-86); a Fleet Captain re-rolls one of its
        own dice once per game (§15)."""
        for side in self.sides:
            for s in side:
                if not s.on_table:
                    continue
                if s.target.criticals and (s.target.fires or s.target.hull_breaches):
                    o.emergency_damage_control(self, s)
                if s.spec.rules.living_metal:
                    self.regrow(s, "Living Metal")
        ld = (self.highest_leadership(0), self.highest_leadership(1))
        while True:
            rolls = [self.dice.d6(), self.dice.d6()]
            for si in (0, 1):
                flag = self.flagships[si]
                if (
                    flag is not None
                    and flag.on_table
                    and flag.spec.admiral == Rank.FLEET_CAPTAIN
                    and not self.fleet_captain_used[si]
                    and rolls[si] + ld[si] < rolls[1 - si] + ld[1 - si]
                    and self.policies[si].reroll_initiative(self, si, rolls[si])
                ):
                    self.fleet_captain_used[si] = True
                    old = rolls[si]
                    rolls[si] = self.dice.d6()
                    self.log(
                        si, f"The Fleet Captain re-rolls the command die: {old} → {rolls[si]}."
                    )
            a, b = rolls[0] + ld[0], rolls[1] + ld[1]
            if a != b:
                break
        winner = 0 if a > b else 1
        first = self.policies[winner].first_player(self, winner)
        self.initiative.append(SIDES[first])
        self.log(
            None,
            f"Command: A {a} (rolled {rolls[0]} + Ld {ld[0]}), B {b} (rolled "
            f"{rolls[1]} + Ld {ld[1]}); {SIDES[winner].upper()} wins and "
            f"{SIDES[first].upper()} activates first.",
        )
        return first

    def activation_phase(self, first: int) -> None:
        """Players alternate activating units; when one has none left, the other activates
        the rest (§3)."""
        rnd = self.round
        pending = [[u for u in self.units[s] if u.alive] for s in (0, 1)]
        turn = first
        while True:
            # Units leave the queue when they have activated (or braced, §10) or are gone.
            mine = pending[turn] = [u for u in pending[turn] if u.activated_round < rnd and u.alive]
            if not mine:
                other = pending[1 - turn] = [
                    u for u in pending[1 - turn] if u.activated_round < rnd and u.alive
                ]
                if not other:
                    return
                turn = 1 - turn
                mine = other
            unit = self.policies[turn].next_unit(self, turn, mine)
            self.activate(unit)
            turn = 1 - turn

    def activate(self, unit: Unit) -> None:
        activate(self, unit)

    def end_phase(self) -> None:
        """Fires (R-55), one repair per ship (§8), then d6 blast markers not touching any ship
        are removed, oldest first (R-75). Advanced movement starts it with gravity and
        accidental collisions (R-145, R-148)."""
        if self.advanced:
            advanced_movement.end_of_movement(self)
        for side in self.sides:
            for s in side:
                if s.on_table and s.target.fires:
                    self.attack(
                        s,
                        damage.resolve_fires,
                        self.dice,
                        source_xy=(s.x, s.y),
                        aboard=True,
                        log_as=(s.side, f"{s.label()} burns: ") if self.logging else None,
                    )
        for side in self.sides:
            for s in side:
                if s.on_table and s.target.criticals:
                    o.end_phase_repair(self, s)
        for side in self.sides:
            for s in side:
                if s.on_table and s.spec.rules.bio_regeneration:
                    self.regrow(s, "Bio-regeneration")
        if self.markers:
            n = self.dice.d6()
            ships = [s for side in self.sides for s in side if s.on_table]
            free = [m for m in self.markers if not _touches(m, ships)]
            free.sort(key=lambda m: m.born)
            for m in free[:n]:
                self.markers.remove(m)

    def regrow(self, ship: Ship, rule: str) -> None:
        """Necron Living Metal, Tyranid Bio-regeneration (R-89): a damaged ship regains one hull
        point on a 6, never above its starting hull."""
        t = ship.target
        if t.hull >= t.max_hull:
            return
        if self.dice.d6() == 6:
            t.hull += 1
            self.log(ship.side, f"{ship.label()} regains a hull point ({rule}).")

    # --- the result --------------------------------------------------------------------------

    def fate(self, ship: Ship) -> str:
        if ship.destroyed:
            return "destroyed"
        if ship.disengaged:
            return "disengaged"
        return "crippled" if ship.crippled else "intact"

    def victory_points(self) -> list[int]:
        """What each side scored from the other's ships (§14, R-13, R-88)."""
        vp = [0, 0]
        faq = self.options.scoring == "faq"
        hulk_value = [0, 0]
        for side in (0, 1):
            scorer = 1 - side
            if faq:
                for unit in self.units[side]:
                    if unit.spec.is_squadron and unit.lost_when_left >= 0:
                        # Seed 002: "An escort squadron gives 10% of the squadron's value, or
                        # 25% if at least half of it (rounded down) was destroyed first", half
                        # in whole escorts as its example counts it: 3 of 5, not 2.
                        whole = sum(s.spec.victory_points for s in unit.ships)
                        half = 2 * unit.lost_when_left >= len(unit.ships)
                        vp[scorer] += whole * (25 if half else 10) // 100
            for s in self.sides[side]:
                value = s.spec.victory_points
                if s.destroyed:
                    vp[scorer] += value
                    if s.hulk:
                        hulk_value[side] += value
                elif s.disengaged:
                    if faq:
                        if not s.unit.spec.is_squadron:  # a squadron scores as one, above
                            vp[scorer] += value * (25 if s.crippled_when_left else 10) // 100
                    elif s.crippled_when_left:
                        vp[scorer] += value // 2
                elif s.crippled:
                    vp[scorer] += value * 25 // 100 if faq else value // 2
        if faq:
            holder = self.field_holder()
            if holder is not None:
                vp[holder] += (hulk_value[0] + hulk_value[1]) // 2
        return vp

    def field_holder(self) -> int | None:
        """FAQ: the side holding the field gains half the value of every hulk (R-88): the side
        with more points of ships left on the table."""
        left = [sum(s.spec.victory_points for s in side if s.on_table) for side in self.sides]
        if left[0] == left[1]:
            return None
        return 0 if left[0] > left[1] else 1

    def result(self) -> BattleResult:
        vp = self.victory_points()
        winner = None if vp[0] == vp[1] else ("a" if vp[0] > vp[1] else "b")
        fates = [
            {
                "side": SIDES[s.side],
                "unit": s.spec.unit,
                "index": s.spec.index,
                "ship": s.spec.slug,
                "name": s.name,
                "unit_name": s.unit.spec.name,
                "fate": self.fate(s),
            }
            for side in self.sides
            for s in side
        ]
        if self.logging:
            self.phase = "result"
            text = (
                f"After {self.round} round{'s' if self.round != 1 else ''} "
                f"({'annihilation' if self.ended_by == 'annihilation' else 'time'}): "
                f"A {vp[0]} VP, B {vp[1]} VP — "
                + ("a draw." if winner is None else f"fleet {winner.upper()} wins.")
            )
            self.log(None, text)
        return BattleResult(
            winner=winner,
            rounds=self.round,
            vp={"a": vp[0], "b": vp[1]},
            fates=fates,
            log=self.entries if self.logging else None,
            ended_by=self.ended_by,
            first_player=list(self.initiative),
        )


def _touches(m: BlastMarker, ships: list[Ship]) -> bool:
    """Whether any of ``ships`` touches the marker (centres within radius + marker radius)."""
    mx, my = m.x, m.y
    for s in ships:
        x = s.x
        y = s.y
        if (
            mx - 4.0 <= x <= mx + 4.0
            and my - 4.0 <= y <= my + 4.0
            and _hypot(x - mx, y - my) <= s.radius + MARKER_RADIUS
        ):
            return True
    return False


def battle_dice(seed: int | str, index: int) -> BattleDice:
    """The dice of battle ``index`` of a run seeded ``seed``: the same derivation as
    :meth:`SeededDice.for_battle`."""
    return BattleDice(f"battle:{seed}:{index}")
