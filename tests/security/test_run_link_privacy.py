"""Issue 34 §6 (smaller): a run's id shows a private fleet's list, by design (R-99), and the
page that makes the link says so before the run starts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.test import Client

from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup

from .conftest import CsrfClient


def test_the_form_that_makes_a_runs_link_says_who_can_read_the_fleets(owner: CsrfClient) -> None:
    page = owner.get("/simulator/").content.decode()
    assert 'id="sim-link-privacy"' in page
    assert "a private saved fleet of yours too" in page
    assert "anyone you give the run's link to can read both lists" in page
    assert "(R-99)" in page


def test_a_runs_link_reads_the_private_fleet_it_played(
    owner: CsrfClient,
    make_fleet: Callable[..., Fleet],
    make_run: Callable[..., Matchup],
    catalog: Any,
) -> None:
    fleet = make_fleet(owner)
    assert not fleet.share_enabled  # private: its own page is the owner's alone
    run = make_run(owner, fleet.to_core())
    stranger = Client()
    assert stranger.get(f"/fleets/{fleet.pk}/").status_code == 404
    response = stranger.get(f"/simulator/m/{run.public_id}/fleet-a.json")
    assert response.status_code == 200  # the run's copy, for whoever holds the link
    assert response.json()["units"]
