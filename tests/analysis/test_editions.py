"""Which ship matters? across editions (R-163): the analysed fleet's versions are made and priced
under its own edition, the opponent plays its own; both are recorded and shown (R-160)."""

from __future__ import annotations

import html
from dataclasses import replace
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.analysis.models import Analysis, bound_variants, variant_records
from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core.sim import play_battle
from rules_core.validator import validate
from rules_core.whatif import what_if_variants

from .conftest import FORM, save_fleet, whatif_fleet

pytestmark = pytest.mark.django_db

OLD = 1  # the original conversion: the Lunar and the Dauntless cost less than today


def test_the_versions_are_the_fleets_editions_and_the_opponent_plays_its_own(
    client: Client, settings: Any
) -> None:
    settings.ANALYSIS_CHUNK_BATTLES = 2
    old = editions.catalog_for(OLD)
    current = editions.current_number()
    today = editions.catalog_for(current)
    doc = replace(whatif_fleet(), edition=OLD)
    assert validate(doc, old).points != validate(doc, today).points  # the premise
    saved = save_fleet(client, old, doc)
    response = client.post("/analysis/", {**FORM, "a_fleet": str(saved.pk), "battles": "2"})
    assert response.status_code == 302, response.content.decode()[:2000]
    analysis = Analysis.objects.get()
    assert (analysis.edition_a, analysis.edition_b) == (OLD, current)
    assert (analysis.fleet["edition"], analysis.opponent["edition"]) == (OLD, current)

    # The versions (removals, and swaps for alternatives of equal or lower points) are the
    # old edition's, each naming it.
    variants, _ = bound_variants(*what_if_variants(old, doc))
    assert analysis.variants == variant_records(variants)
    assert {v["fleet"]["edition"] for v in analysis.variants} == {OLD}

    # Played on the (eager) workers: each version under edition 1, the opponent under today's.
    assert analysis.status == "done"
    chunk = analysis.played_chunks.get(variant=0, index=0)
    for i in range(2):
        r = play_battle(
            old,
            analysis.variant_fleet(0),
            analysis.core_opponent(),
            seed=analysis.seed,
            index=i,
            options=analysis.sim_options,
            catalog_b=today,
        )
        assert (chunk.vp_a[i], chunk.vp_b[i]) == (r.vp["a"], r.vp["b"])

    page = html.unescape(client.get(analysis.get_absolute_url()).content.decode())
    assert f"your fleet: edition {OLD}" in page
    assert (
        f"What If Patrol (edition {OLD}) against Orks Patrol Fleet (sample) "
        f"(edition {current}): each side plays its own edition's points and profiles, "
        "R-163."
    ) in page
    data = client.get(f"/analysis/a/{analysis.public_id}/results.json").json()
    assert data["editions"] == {"a": OLD, "b": current}

    # A version opened in the builder keeps the fleet's edition and its prices.
    response = client.post(f"/analysis/a/{analysis.public_id}/v/1/open/")
    assert response.status_code == 302
    opened = Fleet.objects.order_by("-pk").first()
    assert opened is not None and opened.edition == OLD
    assert opened.points == validate(analysis.variant_fleet(1), old).points
