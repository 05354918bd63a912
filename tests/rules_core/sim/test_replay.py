"""A replay records a battle without changing it: the same dice give the same battle, with or
without the recorder, and the recorded steps say what the map needs."""

from __future__ import annotations

import pytest

from rules_core.sim import SimOptions, play_battle
from rules_core.sim.replay import DESTROYED, DISENGAGED, frames_at, replay_battle

OPTIONS = [
    SimOptions(),
    SimOptions(terrain="voidscape", scoring="faq"),
    SimOptions(movement="advanced", terrain="section13"),
]


@pytest.mark.parametrize("options", OPTIONS, ids=["core", "voidscape", "advanced"])
def test_recording_a_battle_does_not_change_how_it_ends(real_catalog, fleets_real, options) -> None:
    a, b = fleets_real
    for index in range(4):
        plain = play_battle(real_catalog, a, b, seed=4242, index=index, options=options)
        logged = play_battle(real_catalog, a, b, seed=4242, index=index, options=options, log=True)
        recorded, data = replay_battle(real_catalog, a, b, seed=4242, index=index, options=options)
        for r in (logged, recorded):
            assert (r.winner, r.vp, r.rounds, r.ended_by, r.fates, r.first_player) == (
                plain.winner,
                plain.vp,
                plain.rounds,
                plain.ended_by,
                plain.fates,
                plain.first_player,
            )
        # One step per log line, in order.
        assert [s["t"] for s in data["steps"]] == [e.text for e in logged.log or []]
        assert data["result"] == {
            "winner": plain.winner,
            "rounds": plain.rounds,
            "vp": plain.vp,
            "ended_by": plain.ended_by,
        }


def test_the_steps_rebuild_every_ship_where_the_battle_left_it(real_catalog, fleets_real) -> None:
    a, b = fleets_real
    result, data = replay_battle(real_catalog, a, b, seed=11, index=3)
    frames = frames_at(data)
    width, depth = data["table"]
    # Set-up: every ship placed in its own deployment zone, facing the enemy edge.
    for info, state in zip(data["ships"], frames[0]["ships"], strict=True):
        x, y, heading = state[0], state[1], state[2]
        assert 0 <= x <= width
        if info["side"] == "a":
            assert y <= 30 and heading == 90
        else:
            assert y >= depth - 30 and heading == 270
    # The last step shows each ship's fate as the result gives it.
    final = frames[-1]["ships"]
    for fate, state in zip(result.fates, final, strict=True):
        status = state[6]
        assert (fate["fate"] == "destroyed") == (status == DESTROYED)
        assert (fate["fate"] == "disengaged") == (status == DISENGAGED)
    # Shots are drawn: each volley names a firing ship and a target on the map.
    volleys = [v for f in frames for v in f["volleys"] if v[2] == "volley"]
    assert volleys
    assert all(
        0 <= v[0] < len(data["ships"])
        and 0 <= v[1] < len(data["ships"])
        and data["ships"][v[0]]["side"] != data["ships"][v[1]]["side"]
        for v in volleys
    )


def test_a_step_carries_only_what_changed(real_catalog, fleets_real) -> None:
    a, b = fleets_real
    _, data = replay_battle(real_catalog, a, b, seed=5, index=0)
    steps = data["steps"]
    assert len(steps[0]["ships"]) == len(data["ships"])
    moved = [len(s.get("ships", {})) for s in steps[1:]]
    assert max(moved) < len(data["ships"])  # never the whole fleet again
    # Markers, ordnance and terrain (hulks become debris fields) only when they changed.
    frames = frames_at(data)
    for key in ("markers", "ordnance", "terrain"):
        for i, step in enumerate(steps[1:], start=1):
            if key in step:
                assert frames[i][key] != frames[i - 1][key]
