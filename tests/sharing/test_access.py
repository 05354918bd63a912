"""A visitor and another account can read a shared fleet, never change it: every URL of the
fleets app that names a fleet (found from its URLconf, so new ones are covered) answers them 403,
404 or, for a view that takes no POST at all, 405; and the fleet is untouched afterwards."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from fleetbuilder.fleets import urls as fleet_urls
from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db

FLEET_URLS = [
    p for p in fleet_urls.urlpatterns if isinstance(p, URLPattern) and "pk" in p.pattern.converters
]


def url_for(pattern: URLPattern, fleet: Fleet) -> str:
    kwargs = {name: fleet.pk if name == "pk" else 0 for name in pattern.pattern.converters}
    return reverse(f"fleets:{pattern.name}", kwargs=kwargs)


def snapshot(fleet: Fleet) -> tuple:
    fleet.refresh_from_db()
    return (
        fleet.document,
        fleet.name,
        fleet.deleted_at,
        fleet.share_id,
        fleet.share_enabled,
        fleet.owner_id,
        fleet.session_key,
        fleet.updated,
    )


def test_the_fleet_urls_are_found() -> None:
    names = {p.name for p in FLEET_URLS}
    # The builder's edits and the sharing switch at least; the rest is whatever exists today.
    assert {
        "detail",
        "settings",
        "add_ship",
        "remove",
        "share",
        "share_link",
        "export_file",
    } <= names


@pytest.mark.parametrize("who", ["visitor", "other_account"])
def test_nobody_else_can_change_a_shared_fleet(
    request: pytest.FixtureRequest, shared: Fleet, client: Client, who: str
) -> None:
    outsider: Client = request.getfixturevalue(who)
    before = snapshot(shared)
    refused = []
    for pattern in FLEET_URLS:
        url = url_for(pattern, shared)
        for data in (
            {},
            {
                "action": "off",
                "name": "Pwned",
                "ship": "sword-class-frigate",
                "upgrade": "veteran-crew",
                "admiral": "commodore",
                "to": "new",
                "confirm": "yes",
                "game_size": "armada",
                "variant": "",
            },
        ):
            response = outsider.post(url, data)
            status = response.status_code
            if status == 405:
                # Only a view that takes no POST at all may say so, and then for its owner too.
                owner_status = client.post(url, data).status_code
                assert owner_status == 405, f"{url}: 405 for {who}, {owner_status} for the owner"
            else:
                assert status in (403, 404), f"POST {url} gave {who} {status}"
            refused.append(url)
        assert outsider.get(url).status_code in (403, 404, 405), f"GET {url} for {who}"
    assert snapshot(shared) == before
    assert Fleet.objects.count() == 1  # no copy of someone's fleet through its pk either
    # ...while the shared page itself is open to them.
    assert outsider.get(shared.share_url_path()).status_code == 200
    assert len(refused) == 2 * len(FLEET_URLS)


def test_an_outsider_cannot_turn_sharing_on(make_fleet, visitor: Client) -> None:
    fleet = make_fleet()
    assert visitor.post(f"/fleets/{fleet.pk}/share/link/", {"action": "on"}).status_code == 404
    fleet.refresh_from_db()
    assert fleet.share_id is None and not fleet.share_enabled


def test_the_link_switch_refuses_an_unknown_action_and_get(client: Client, shared: Fleet) -> None:
    url = f"/fleets/{shared.pk}/share/link/"
    assert client.post(url, {"action": "explode"}).status_code == 400
    assert client.get(url).status_code == 405
    before = snapshot(shared)
    assert before[4] is True
