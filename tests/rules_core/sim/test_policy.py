"""The standard policy plays like a sensible player (docs/simulator.md), and policies are
swappable by name."""

from __future__ import annotations

import math

import pytest

from rules_core.sim import POLICIES, Policy, SimOptions, register_policy
from rules_core.sim import orders as o
from rules_core.sim.geometry import arc_of
from rules_core.sim.gunnery import sightings
from rules_core.sim.movement import end_point, limits
from rules_core.sim.policy import StandardPolicy, get_policy
from rules_core.sim.state import FRONT, LEFT, RIGHT

from .conftest import cap, fleet, make_battle, put


def scene(sim_catalog, mine, theirs, **kw):
    b = make_battle(
        sim_catalog,
        fleet(*[cap(s) for s in mine]),
        fleet(*[cap(s) for s in theirs]),
        [],
        policy_a=StandardPolicy(),
        policy_b=StandardPolicy(),
        **kw,
    )
    return b


def test_a_broadside_ship_turns_to_bring_the_enemy_into_a_broadside(sim_catalog):
    b = scene(sim_catalog, ["gun-cruiser"], ["plain-cruiser"])
    a = put(b.sides[0][0], 90, 40, 90)
    e = put(b.sides[1][0], 90, 75, 270)  # dead ahead, 35 cm
    order, plan = b.policies[0].plan(b, b.units[0][0], a, False, False)
    x, y, h = end_point(a, plan, limits(b, a, order, False))
    bits = arc_of(x, y, math.cos(h), math.sin(h), e.x, e.y)
    assert bits & (LEFT | RIGHT)  # its 6-strength batteries bear, not just the prow lance


def test_a_battery_ship_closes_towards_point_blank(sim_catalog):
    b = scene(sim_catalog, ["plain-cruiser"], ["plain-cruiser"])
    a = put(b.sides[0][0], 90, 30, 90)
    e = put(b.sides[1][0], 90, 75, 270)
    order, plan = b.policies[0].plan(b, b.units[0][0], a, False, False)
    x, y, h = end_point(a, plan, limits(b, a, order, False))
    assert math.hypot(e.x - x, e.y - y) < 45 - 10  # moved in, not away
    assert arc_of(x, y, math.cos(h), math.sin(h), e.x, e.y) & FRONT  # dorsal battery bears


def test_all_ahead_full_when_the_enemy_is_out_of_reach(sim_catalog):
    b = scene(sim_catalog, ["plain-cruiser"], ["plain-cruiser"])
    a = put(b.sides[0][0], 90, 10, 90)
    put(b.sides[1][0], 90, 112, 270)
    order, _ = b.policies[0].plan(b, b.units[0][0], a, True, False)
    assert order == o.AAF


def test_reload_when_the_tubes_are_spent_and_nothing_is_in_range(sim_catalog):
    b = scene(sim_catalog, ["torp-cruiser"], ["plain-cruiser"])
    a = put(b.sides[0][0], 90, 40, 90)
    put(b.sides[1][0], 90, 90, 270)
    a.torpedoes_ready = False
    order, _ = b.policies[0].plan(b, b.units[0][0], a, True, False)
    assert order == o.RELOAD


def test_guns_that_bear_on_the_focus_target_fire_at_it(sim_catalog):
    b = scene(sim_catalog, ["gun-cruiser"], ["plain-cruiser", "carrier"])
    a = put(b.sides[0][0], 90, 50, 90)
    cheap = put(b.sides[1][0], 75, 50, 90)  # 15 cm to port
    rich = put(b.sides[1][1], 60, 52, 90)  # 30 cm to port, worth more, crippled
    rich.target.hull = 3
    policy = b.policies[0]
    assert policy.focus(b, 0) is rich
    port = next(g for g in a.spec.guns if g.name == "Port Battery")
    options = [s for s in sightings(b, a) if s.arcs & port.arcs]
    assert policy.gun_target(b, a, port, options).ship is rich
    assert cheap in [s.ship for s in options]


def test_the_policy_braces_a_capital_ship_that_would_otherwise_die(sim_catalog):
    b = scene(sim_catalog, ["plain-cruiser"], ["gun-cruiser"])
    a = put(b.sides[0][0], 90, 50, 90)
    a.target.hull = 2
    assert b.policies[0].wants_brace(b, a, 12, 0)
    a.target.hull = 8
    assert not b.policies[0].wants_brace(b, a, 2, 0)


def test_policies_are_swappable_by_name(sim_catalog):
    class Idle(Policy):
        """Never moves more than it must and never fires."""

        name = "idle-test"

        def gun_target(self, b, ship, gun, options):  # type: ignore[no-untyped-def]
            return None

    register_policy("idle-test", Idle)
    try:
        assert isinstance(get_policy("idle-test"), Idle)
        opts = SimOptions(policy_b="idle-test")
        assert SimOptions.from_dict(opts.to_dict()).policy_b == "idle-test"
        from rules_core.sim import play_battle

        f = fleet(cap("gun-cruiser"))
        result = play_battle(sim_catalog, f, f, seed=4, options=opts)
        assert result.vp["b"] == 0  # the idle side never hurt anyone
    finally:
        POLICIES.pop("idle-test")
    with pytest.raises(ValueError):
        SimOptions(policy_a="idle-test")
