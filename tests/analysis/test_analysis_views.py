"""Which ship matters? through the test client, tasks played eagerly or held: the table's
numbers against a hand computation from the stored per-battle results, common random numbers,
repeating an analysis, opening a version in the builder, the limits, and who may do what."""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.analysis.models import Analysis, AnalysisChunk
from fleetbuilder.analysis.tasks import play_analysis_chunk
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from rules_core.sim import play_battle

pytestmark = pytest.mark.django_db


def _stored(analysis: Analysis, variant: int) -> tuple[list[int], list[int]]:
    """A variant's half-points and VP margins per battle, read straight from its chunks."""
    chunks = AnalysisChunk.objects.filter(analysis=analysis, variant=variant).order_by("index")
    hp = [int(c) for chunk in chunks for c in chunk.scores]
    margin = [a - b for chunk in chunks for a, b in zip(chunk.vp_a, chunk.vp_b, strict=True)]
    return hp, margin


def test_the_table_is_the_hand_computed_paired_interval(
    start_analysis: Callable[..., Analysis], client: Client
) -> None:
    analysis = start_analysis(battles="8")
    assert analysis.status == "done" and analysis.done == 8 * analysis.variant_count
    base_hp, base_margin = _stored(analysis, 0)
    assert len(base_hp) == 8
    rows = {r["variant"]: r for r in analysis.results()["rows"]}
    for v in range(1, analysis.variant_count):
        hp, margin = _stored(analysis, v)
        d = [(x - y) / 2 for x, y in zip(hp, base_hp, strict=True)]  # per battle, score 0..1
        mean = sum(d) / len(d)
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (len(d) - 1))
        row = rows[v]
        assert row["battles"] == 8
        assert row["delta"] == pytest.approx(mean)
        assert row["half_width"] == pytest.approx(1.96 * sd / math.sqrt(8))
        vd = [x - y for x, y in zip(margin, base_margin, strict=True)]
        assert row["vp_delta"] == pytest.approx(sum(vd) / 8)
    deltas = [r["delta"] for r in analysis.results()["rows"]]
    assert deltas == sorted(deltas, reverse=True)  # sorted by effect, best first
    page = client.get(analysis.get_absolute_url()).content.decode()
    row = analysis.results()["rows"][0]
    line = f"{row['label']}: {row['delta'] * 100:+.1f} % (±{row['half_width'] * 100:.1f})"
    assert line in page


def test_every_version_fights_battle_i_with_the_same_dice(
    start_analysis: Callable[..., Analysis], catalog: Any
) -> None:
    analysis = start_analysis(battles="4")
    for v in (0, 1, analysis.variant_count - 1):
        hp, _ = _stored(analysis, v)
        for i in range(4):
            r = play_battle(
                catalog,
                analysis.variant_fleet(v),
                analysis.core_opponent(),
                seed=analysis.seed,
                index=i,
                options=analysis.sim_options,
            )
            assert hp[i] == (2 if r.winner == "a" else 1 if r.winner is None else 0)


def test_run_again_gives_the_same_numbers(
    start_analysis: Callable[..., Analysis], outsider: Client
) -> None:
    first = start_analysis(battles="4")
    response = outsider.post(f"/analysis/a/{first.public_id}/again/")
    assert response.status_code == 302
    second = Analysis.objects.exclude(pk=first.pk).get()
    assert second.owner is None and second.session_key != first.session_key
    assert second.seed == first.seed and second.variants == first.variants
    assert [(r["key"], r["delta"], r["vp_delta"]) for r in second.results()["rows"]] == [
        (r["key"], r["delta"], r["vp_delta"]) for r in first.results()["rows"]
    ]


def test_a_line_opens_its_version_in_the_builder_as_a_new_fleet(
    start_analysis: Callable[..., Analysis], outsider: Client
) -> None:
    analysis = start_analysis(battles="2")
    v = next(
        i for i, m in enumerate(analysis.variants) if m["key"] == "swap-0-gothic-class-cruiser"
    )
    before = Fleet.objects.count()
    response = outsider.post(f"/analysis/a/{analysis.public_id}/v/{v}/open/")
    assert response.status_code == 302 and Fleet.objects.count() == before + 1
    fleet = Fleet.objects.order_by("-pk").first()
    assert response.headers["Location"] == fleet.get_absolute_url()
    assert fleet.session_key == outsider.session["fleet_owner_token"]
    assert fleet.name == "What If Patrol (swap Lunar for Gothic)"
    first = fleet.to_core().units[0]
    assert isinstance(first, rf.ShipUnit) and first.ship == "gothic-class-cruiser"
    assert first.flagship and first.admiral == "commodore"
    assert outsider.get(response.headers["Location"]).status_code == 200
    assert outsider.post(f"/analysis/a/{analysis.public_id}/v/999/open/").status_code == 400


def test_a_chunk_is_written_once_whatever_the_order(
    start_analysis: Callable[..., Analysis], held_analysis_chunks: list[Any]
) -> None:
    analysis = start_analysis(battles="6")
    assert analysis.status == "queued" and len(held_analysis_chunks) == 2 * analysis.variant_count
    for task in reversed(held_analysis_chunks):
        assert play_analysis_chunk(*task) == 3
    assert play_analysis_chunk(*held_analysis_chunks[0]) == 0  # delivered again: nothing
    analysis.refresh_from_db()
    assert analysis.status == "done" and analysis.done == 6 * analysis.variant_count
    assert analysis.record_chunk(0, 0, "222", [1, 1, 1], [0, 0, 0], 0.1) is False


def test_the_page_polls_until_done_and_refreshes_without_js(
    start_analysis: Callable[..., Analysis], held_analysis_chunks: list[Any], client: Client
) -> None:
    analysis = start_analysis(battles="6")
    page = client.get(analysis.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 1s"' in page and 'http-equiv="refresh"' in page
    assert "Played <strong data-done>0</strong>" in page
    for task in held_analysis_chunks[: analysis.variant_count]:  # the first chunk of each
        play_analysis_chunk(*task)
    part = client.get(
        analysis.get_absolute_url(), headers={"HX-Request": "true", "HX-Target": "analysis-run"}
    )
    body = part.content.decode()
    assert body.lstrip().startswith('<section id="analysis-run"') and "so far" in body
    assert "<html" not in body
    for task in held_analysis_chunks[analysis.variant_count :]:
        play_analysis_chunk(*task)
    done = client.get(analysis.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 1s"' not in done and 'http-equiv="refresh"' not in done


def test_only_the_owner_may_cancel(
    start_analysis: Callable[..., Analysis],
    held_analysis_chunks: list[Any],
    client: Client,
    outsider: Client,
) -> None:
    analysis = start_analysis()
    assert outsider.get(analysis.get_absolute_url()).status_code == 200
    assert outsider.post(f"/analysis/a/{analysis.public_id}/cancel/").status_code == 403
    assert client.post(f"/analysis/a/{analysis.public_id}/cancel/").status_code == 302
    analysis.refresh_from_db()
    assert analysis.status == "cancelled"
    assert play_analysis_chunk(*held_analysis_chunks[0]) == 0
    assert client.get("/analysis/a/not-a-real-id/").status_code == 404


def test_the_owner_limit_counts_matchups_and_analyses(
    start_analysis: Callable[..., Analysis],
    held_analysis_chunks: list[Any],
    held_chunks: list[Any],
    client: Client,
    settings: Any,
    saved_fleet: Fleet,
) -> None:
    settings.SIM_MAX_ACTIVE_PER_OWNER = 2
    start_analysis()
    response = client.post(
        "/simulator/",
        {
            "a_source": "sample",
            "a_faction": "imperial-navy",
            "a_size": "patrol",
            "a_variant": "",
            "b_source": "sample",
            "b_faction": "orks",
            "b_size": "patrol",
            "b_variant": "",
            "battles": "4",
            "max_rounds": "10",
            "table": "",
            "scoring": "core",
            "terrain": "none",
            "seed": "1",
        },
    )
    assert response.status_code == 302 and Matchup.objects.count() == 1
    from .conftest import FORM

    refused = client.post("/analysis/", {**FORM, "a_fleet": str(saved_fleet.pk)})
    assert refused.status_code == 429 and Analysis.objects.count() == 1
    assert "already have 2" in refused.content.decode()


def test_the_queue_bound_counts_every_version(
    client: Client, saved_fleet: Fleet, held_analysis_chunks: list[Any], settings: Any
) -> None:
    from .conftest import FORM

    settings.SIM_MAX_QUEUED_BATTLES = 70  # 11 versions x 6 battles = 66 fit an empty queue
    Matchup.objects.create(
        public_id="waiting",
        fleet_a={},
        fleet_b={},
        battles=10,
        seed=1,
        status=Matchup.Status.QUEUED,
    )  # 10 waiting: 76 would not
    response = client.post("/analysis/", {**FORM, "a_fleet": str(saved_fleet.pk)})
    assert response.status_code == 503 and not Analysis.objects.exists()
    assert "The simulator is busy: 10 battles are waiting" in html.unescape(
        response.content.decode()
    )
    assert not held_analysis_chunks


def test_more_battles_than_the_queue_holds_is_refused_at_once_with_what_fits(
    client: Client, saved_fleet: Fleet, held_analysis_chunks: list[Any], settings: Any
) -> None:
    """R-153: waiting would never help, so the answer is no "busy" but how many would fit."""
    from .conftest import FORM

    settings.SIM_MAX_QUEUED_BATTLES = 50  # 11 versions x 6 battles = 66, on an empty queue
    response = client.post("/analysis/", {**FORM, "a_fleet": str(saved_fleet.pk)})
    assert response.status_code == 400 and not Analysis.objects.exists()
    text = html.unescape(response.content.decode())
    assert "asks for 66 battles (11 versions × 6)" in text
    assert "Ask for at most 4 battles a version." in text
    assert not held_analysis_chunks


def test_the_fleet_must_be_your_own(saved_fleet: Fleet, outsider: Client) -> None:
    from .conftest import FORM

    page = outsider.get(f"/analysis/?fleet={saved_fleet.pk}").content.decode()
    assert "What If Patrol" not in page
    response = outsider.post("/analysis/", {**FORM, "a_fleet": str(saved_fleet.pk)})
    assert response.status_code == 400 and not Analysis.objects.exists()


def test_the_builder_and_a_matchup_link_here(
    client: Client, saved_fleet: Fleet, held_chunks: list[Any]
) -> None:
    builder = client.get(f"/fleets/{saved_fleet.pk}/").content.decode()
    assert f'href="/analysis/?fleet={saved_fleet.pk}"' in builder
    form = client.get(f"/analysis/?fleet={saved_fleet.pk}").content.decode()
    assert f'<option value="{saved_fleet.pk}" selected>' in form
    response = client.post(
        "/simulator/",
        {
            "a_source": "fleet",
            "a_fleet": str(saved_fleet.pk),
            "b_source": "sample",
            "b_faction": "orks",
            "b_size": "patrol",
            "b_variant": "",
            "battles": "4",
            "max_rounds": "10",
            "table": "",
            "scoring": "core",
            "terrain": "none",
            "seed": "1",
        },
    )
    run = Matchup.objects.get()
    page = client.get(response.headers["Location"]).content.decode()
    assert f'href="/analysis/?from={run.public_id}"' in page
    form = client.get(f"/analysis/?from={run.public_id}").content.decode()
    assert 'value="orks" selected' in form
