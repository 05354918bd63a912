"""The events' shared cast: an organiser and the event they made through the form."""

from __future__ import annotations

import pytest

from fleetbuilder.events.models import Event

from .test_events import form_data, player


@pytest.fixture
def organiser():
    return player("organiser")


@pytest.fixture
def event(organiser, catalog) -> Event:
    client, _ = organiser
    response = client.post("/events/new/", form_data())
    assert response.status_code == 302, response.content.decode()[:3000]
    return Event.objects.get()
