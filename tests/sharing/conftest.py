"""A shared fleet built from a sample list, its owner's browser, a visitor and another account."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet


@pytest.fixture
def make_fleet(catalog, client: Client) -> Callable[..., Fleet]:
    """Save ``doc`` (default: the Imperial Navy Skirmish sample) as the ``client``'s fleet, on
    the edition ``doc`` names, else the one a new fleet starts on (the current one)."""

    def make(doc: rf.Fleet | None = None, *, as_client: Client | None = None) -> Fleet:
        doc = doc or sample_fleet(catalog, "imperial-navy", "skirmish")
        owner = as_client or client
        owner.get("/fleets/")  # a session
        response = owner.post(
            "/fleets/new/",
            {"faction": doc.faction, "variant": "", "game_size": "patrol", "name": "tmp"},
        )
        assert response.status_code == 302
        pk = int(response.headers["Location"].strip("/").split("/")[-1])
        fleet = Fleet.objects.get(pk=pk)
        # On the edition the builder started it on, unless ``doc`` names one.
        doc = doc if doc.edition is not None else replace(doc, edition=fleet.edition)
        fleet.store(doc, editions.catalog_for(doc.edition))
        fleet.save()
        return fleet

    return make


@pytest.fixture
def shared(make_fleet: Callable[..., Fleet]) -> Fleet:
    fleet = make_fleet()
    fleet.share()
    return fleet


@pytest.fixture
def visitor() -> Client:
    return Client()


@pytest.fixture
def other_account(db) -> Client:
    user = get_user_model().objects.create_user("rival", password="a long password 123")
    c = Client()
    c.force_login(user)
    return c


def every_sample(catalog) -> list[rf.Fleet]:
    """A sample fleet of every faction at every standard game size."""
    sizes = [g for g in rf.GameSize if g is not rf.GameSize.CUSTOM]
    return [sample_fleet(catalog, f.slug, size) for f in catalog.factions for size in sizes]
