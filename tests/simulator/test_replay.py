"""Watching one battle of a run: the replay page, its steps as JSON, the still maps without
JavaScript, and that a replay is the run's own battle, every time."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable

import pytest
from django.core.cache import cache
from django.test import Client

from fleetbuilder.simulator.models import Matchup
from rules_core.sim import replay as sim_replay
from rules_core.sim.replay import replay_battle

pytestmark = pytest.mark.django_db


def replay_url(run: Matchup, battle: int, *, json_: bool = False) -> str:
    return f"/simulator/m/{run.public_id}/battles/{battle}/" + ("replay.json" if json_ else "")


def test_two_fetches_of_a_replay_link_give_identical_steps(
    client: Client, outsider: Client, started: Callable[..., Matchup]
) -> None:
    run = started(battles="6", seed="31337")
    first = client.get(replay_url(run, 3, json_=True))
    assert first.status_code == 200
    cache.clear()  # the second one is played again, not read from the cache
    second = outsider.get(replay_url(run, 3, json_=True))
    assert second.status_code == 200
    assert first.content == second.content
    data = json.loads(first.content)
    assert data["seed"] == 31337 and data["index"] == 2
    assert data["steps"][0]["t"].startswith("Fleet A:")
    assert len(data["ships"]) == len(data["steps"][0]["ships"])  # every ship placed at once


def test_each_replayed_battle_ends_as_the_run_counted_it(
    client: Client, started: Callable[..., Matchup]
) -> None:
    """The run stores only counts: the replays of all its battles must add up to them."""
    run = started(battles="12", seed="2026")
    tally = run.current_tally()
    assert tally is not None and tally.battles == 12
    winners: Counter[str | None] = Counter()
    vp_a: Counter[int] = Counter()
    rounds: Counter[int] = Counter()
    for n in range(1, 13):
        result = json.loads(client.get(replay_url(run, n, json_=True)).content)["result"]
        winners[result["winner"]] += 1
        vp_a[result["vp"]["a"]] += 1
        rounds[result["rounds"]] += 1
    assert (winners["a"], winners["b"], winners[None]) == (tally.a_wins, tally.b_wins, tally.draws)
    assert vp_a == tally.vp[0]
    assert rounds == tally.rounds


def test_a_replay_is_the_battle_the_results_page_logs(
    client: Client, started: Callable[..., Matchup]
) -> None:
    run = started(battles="4", seed="99")
    page = client.get(f"/simulator/m/{run.public_id}/?battle=2").content.decode()
    data = json.loads(client.get(replay_url(run, 2, json_=True)).content)
    texts = [s["t"] for s in data["steps"]]
    # The results page's log is the same battle, line for line.
    for text in texts[:40]:
        assert text.replace("'", "&#x27;").replace('"', "&quot;") in page or text in page
    assert f'href="/simulator/m/{run.public_id}/battles/2/"' in page  # "Watch battle 2"


def test_the_replay_page_draws_every_ship_and_lists_every_step(
    client: Client, started: Callable[..., Matchup]
) -> None:
    run = started(battles="3", seed="5")
    response = client.get(replay_url(run, 1))
    assert response.status_code == 200
    html = response.content.decode()
    data = json.loads(client.get(replay_url(run, 1, json_=True)).content)
    player = html.split("data-replay ", 1)[1].split("data-replay-rounds", 1)[0]
    assert len(re.findall(r'data-ship="\d+"', player)) == len(data["ships"])
    # Every step's line is on the page once, in its round (the player lists them from the JSON).
    stills = html.split("data-replay-rounds", 1)[1]
    assert stills.count('<li class="sim-event') == len(data["steps"])
    r = data["result"]
    winner = {"a": "Fleet A won", "b": "Fleet B won", None: "A draw"}[r["winner"]]
    assert winner in html and f"{r['vp']['a']} to {r['vp']['b']} victory points" in html
    assert "<kbd>Space</kbd>" in html  # the keyboard shortcuts are written on the page
    assert 'src="/static/js/replay.js"' in html and "<script>" not in html  # CSP: no inline


def test_without_javascript_each_round_is_a_still_map_with_its_log(
    client: Client, started: Callable[..., Matchup]
) -> None:
    run = started(battles="2", seed="8")
    html = client.get(replay_url(run, 1)).content.decode()
    data = json.loads(client.get(replay_url(run, 1, json_=True)).content)
    rounds = sorted({s["r"] for s in data["steps"]})
    assert rounds[0] == 0 and rounds[-1] == data["result"]["rounds"]
    stills = html.split("data-replay-rounds", 1)[1]
    for n in rounds:
        section = stills.split(f'id="round-{n}"', 1)[1].split("</section>", 1)[0]
        assert "<svg" in section and 'class="rship' in section
        heading = "Set-up" if n == 0 else f"Round {n}"
        assert f">{heading}</h3>" in section
        first_line = next(s["t"] for s in data["steps"] if s["r"] == n)
        assert first_line.split("'")[0] in section
    assert f'id="round-{rounds[-1] + 1}"' not in stills


@pytest.mark.parametrize("battle", ["0", "4", "999999"])
def test_a_battle_outside_the_run_is_404(
    client: Client, started: Callable[..., Matchup], battle: str
) -> None:
    run = started(battles="3", seed="5")
    assert client.get(f"/simulator/m/{run.public_id}/battles/{battle}/").status_code == 404
    assert (
        client.get(f"/simulator/m/{run.public_id}/battles/{battle}/replay.json").status_code == 404
    )


def test_an_unknown_run_or_a_bad_number_is_404(client: Client) -> None:
    assert client.get("/simulator/m/nope/battles/1/").status_code == 404
    assert client.get("/simulator/m/nope/battles/1/replay.json").status_code == 404
    assert client.get("/simulator/m/nope/battles/-1/").status_code == 404
    assert client.get("/simulator/m/nope/battles/x/").status_code == 404


def test_a_ten_round_replay_is_played_once_then_cached(
    client: Client, started: Callable[..., Matchup], catalog, monkeypatch
) -> None:
    # How fast the page is belongs in a benchmark; here: the first view plays the battle,
    # the next one reads it from the cache (keyed on run, battle and catalogue version).
    run = started(battles="10", seed="77", a_size="skirmish", b_size="skirmish")
    long_one = None
    for i in range(run.battles):
        result, _ = replay_battle(
            catalog,
            run.core_fleet("a"),
            run.core_fleet("b"),
            seed=run.seed,
            index=i,
            options=run.sim_options,
        )
        if result.rounds == 10:
            long_one = i + 1
            break
    assert long_one is not None, "no battle went the distance"
    played: list[int] = []

    def counted(*args, **kwargs):
        played.append(kwargs["index"])
        return replay_battle(*args, **kwargs)

    monkeypatch.setattr(sim_replay, "replay_battle", counted)
    cache.clear()
    first = client.get(replay_url(run, long_one))
    assert first.status_code == 200
    assert played == [long_one - 1]
    # keyed on both sides' catalogues: here both are the loaded one (R-163)
    key = f"sim-replay:1:{run.public_id}:{long_one - 1}:{catalog.version}:{catalog.version}"
    assert cache.get(key) is not None
    again = client.get(replay_url(run, long_one))
    assert again.status_code == 200
    assert played == [long_one - 1], "the second view played the battle again"


def test_a_replay_stores_nothing_on_the_run(
    client: Client, started: Callable[..., Matchup]
) -> None:
    run = started(battles="3", seed="12")
    before = Matchup.objects.filter(pk=run.pk).values().get()
    client.get(replay_url(run, 2))
    assert Matchup.objects.filter(pk=run.pk).values().get() == before


def test_a_battle_the_engine_can_no_longer_play_says_why(
    client: Client, started: Callable[..., Matchup]
) -> None:
    """A run keeps its own fleet files; if the catalogue loses a ship they name, its battles
    cannot be played again: the page and the JSON say so (409), never a 500."""
    run = started(battles="2", seed="4")
    doc = dict(run.fleet_a)
    doc["units"] = [{**doc["units"][0], "ship": "no-such-ship"}, *doc["units"][1:]]
    Matchup.objects.filter(pk=run.pk).update(fleet_a=doc)
    page = client.get(replay_url(run, 1))
    assert page.status_code == 409
    assert "This battle cannot be replayed" in page.content.decode()
    assert "no-such-ship" in page.content.decode()
    answer = client.get(replay_url(run, 1, json_=True))
    assert answer.status_code == 409 and "no-such-ship" in answer.json()["error"]
