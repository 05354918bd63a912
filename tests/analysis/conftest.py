"""A player's browser with a saved Patrol fleet built for what-if questions, the analysis form's
fields, and a fixture that holds the analysis's chunks so a test plays them in its own order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.analysis.models import Analysis
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.ownership import new_owner_token
from rules_core import fleet as rf


def whatif_fleet() -> rf.Fleet:
    """A Lunar flagship with a Commodore, a Dauntless, two alike Swords squadrons."""
    swords = rf.Squadron((rf.SquadronShip("sword-class-frigate"),) * 2, name="Swords")
    return rf.Fleet(
        faction="imperial-navy",
        game_size=rf.GameSize.PATROL,
        name="What If Patrol",
        units=(
            rf.ShipUnit("lunar-class-cruiser", name="Wrath", flagship=True, admiral="commodore"),
            rf.ShipUnit("dauntless-class-light-cruiser", name="Dagger"),
            swords,
            rf.Squadron(swords.ships, name="More Swords"),
        ),
    )


FORM = {
    "a_source": "fleet",
    "a_policy": "standard",
    "b_source": "sample",
    "b_faction": "orks",
    "b_size": "patrol",
    "b_variant": "",
    "b_policy": "standard",
    "battles": "6",
    "max_rounds": "10",
    "table": "",
    "scoring": "core",
    "terrain": "none",
    "seed": "20261201",
}


def save_fleet(client: Client, catalog: Any, doc: rf.Fleet | None = None) -> Fleet:
    """Save ``doc`` as a fleet of this browser (its session's owner token)."""
    session = client.session
    token = session.get("fleet_owner_token") or new_owner_token()
    session["fleet_owner_token"] = token
    session.save()
    return Fleet.from_core(doc or whatif_fleet(), catalog, owner_token=token)


@pytest.fixture
def saved_fleet(client: Client, catalog: Any) -> Fleet:
    return save_fleet(client, catalog)


@pytest.fixture
def start_analysis(client: Client, saved_fleet: Fleet, settings: Any) -> Callable[..., Analysis]:
    """POST the analysis form for the saved fleet (3-battle chunks); the analysis must start."""
    settings.ANALYSIS_CHUNK_BATTLES = 3

    def start(as_client: Client | None = None, **fields: str) -> Analysis:
        response = (as_client or client).post(
            "/analysis/", {**FORM, "a_fleet": str(saved_fleet.pk), **fields}
        )
        assert response.status_code == 302, response.content.decode()[:3000]
        public_id = response.headers["Location"].rstrip("/").split("/")[-1]
        return Analysis.objects.get(public_id=public_id)

    return start


@pytest.fixture
def held_analysis_chunks(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int, int]]:
    """Analysis chunks sent to the queue are held; the test plays them with
    ``play_analysis_chunk(*args)``. Returns the sent (analysis, variant, chunk) triples."""
    from fleetbuilder.analysis.tasks import play_analysis_chunk

    sent: list[tuple[int, int, int]] = []
    monkeypatch.setattr(
        play_analysis_chunk, "apply_async", lambda args, **kwargs: sent.append(tuple(args))
    )
    return sent


@pytest.fixture
def outsider() -> Client:
    return Client()
