"""The permalink (R-92): random, read-only for everyone else, off means 404, copy forks it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db


def link(client: Client, fleet: Fleet, action: str, **headers: str) -> None:
    response = client.post(f"/fleets/{fleet.pk}/share/link/", {"action": action}, headers=headers)
    assert response.status_code in (200, 302)
    fleet.refresh_from_db()


def test_a_fleet_is_private_until_its_owner_makes_a_link(client: Client, make_fleet) -> None:
    fleet = make_fleet()
    assert fleet.share_url_path() is None
    page = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    assert "it has no link yet" in page and "qr__code" not in page
    link(client, fleet, "on")
    path = fleet.share_url_path()
    assert path == f"/s/{fleet.share_id}/"
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", fleet.share_id)  # 128 random bits
    page = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    assert f"http://testserver{path}" in page
    assert '<svg viewBox="0 0 ' in page and 'class="qr__code"' in page


def test_share_ids_are_random_not_sequential(client: Client, make_fleet) -> None:
    ids = set()
    for _ in range(5):
        fleet = make_fleet()
        fleet.share()
        ids.add(fleet.share_id)
    assert len(ids) == 5
    assert len({i[:6] for i in ids}) == 5  # no common prefix counting up


def test_anyone_can_read_the_shared_list(shared: Fleet, visitor: Client, catalog) -> None:
    page = visitor.get(shared.share_url_path())
    assert page.status_code == 200
    html = page.content.decode()
    report = shared.report(catalog)
    assert shared.name in html
    assertInHTML(f"<strong data-points>{report.points}</strong>", html)
    assert "Legal fleet" in html
    assert "Siluria Class Light Cruiser" in html and "Flagship" in html
    assert "Cobra Destroyer" in html
    assert "Copy to my fleets" in html
    assert 'name="robots" content="noindex"' in html
    assert "Edit in the builder" not in html  # only its owner gets the edit links
    assert page.headers["Cache-Control"].startswith("max-age=0")


def test_the_shared_page_shows_problems_of_an_illegal_list(
    client: Client, shared: Fleet, visitor: Client
) -> None:
    client.post(
        f"/fleets/{shared.pk}/settings/",
        {"name": shared.name, "variant": "", "game_size": "patrol"},
    )
    html = visitor.get(shared.share_url_path()).content.decode()
    assert "Not legal" in html
    assert 'data-code="points.over_band"' in html and "over the Patrol band" in html


def test_the_owner_sees_edit_links_on_the_public_page(client: Client, shared: Fleet) -> None:
    html = client.get(shared.share_url_path()).content.decode()
    assert f'href="/fleets/{shared.pk}/"' in html and "Edit in the builder" in html


def test_turning_the_link_off_makes_it_404_and_on_brings_the_same_link_back(
    client: Client, shared: Fleet, visitor: Client
) -> None:
    path = shared.share_url_path()
    link(client, shared, "off")
    assert shared.share_url_path() is None
    assert visitor.get(path).status_code == 404
    assert visitor.post(path + "copy/").status_code == 404
    assert visitor.get(path + "fleet.json").status_code == 404
    link(client, shared, "on")
    assert shared.share_url_path() == path
    assert visitor.get(path).status_code == 200


def test_a_new_link_kills_the_old_one_for_good(
    client: Client, shared: Fleet, visitor: Client
) -> None:
    old = shared.share_url_path()
    link(client, shared, "new", **{"HX-Request": "true"})
    new = shared.share_url_path()
    assert new != old
    assert visitor.get(old).status_code == 404
    assert visitor.get(new).status_code == 200
    link(client, shared, "off")
    link(client, shared, "on")
    assert shared.share_url_path() == new
    assert visitor.get(old).status_code == 404


def test_unknown_and_turned_off_links_give_the_same_404(
    client: Client, shared: Fleet, visitor: Client
) -> None:
    path = shared.share_url_path()
    link(client, shared, "off")
    off = visitor.get(path)
    unknown = visitor.get("/s/" + "A" * 22 + "/")
    assert off.status_code == unknown.status_code == 404
    assert without_tokens(off.content).replace(path, "LINK") == without_tokens(
        unknown.content
    ).replace("/s/" + "A" * 22 + "/", "LINK")
    page = off.content.decode()
    assert "This shared fleet is not here" in page and "turned it off" in page
    assert shared.name not in page


def without_tokens(html: bytes) -> str:
    """The page without its CSRF tokens (masked afresh on every page)."""
    import re

    return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", html.decode())


def test_a_trashed_fleet_is_not_shared_until_restored(shared: Fleet, visitor: Client) -> None:
    path = shared.share_url_path()
    shared.trash()
    assert visitor.get(path).status_code == 404
    assert shared.share_url_path() is None  # no QR code printed for it either
    shared.restore()
    assert shared.share_url_path() == path
    assert visitor.get(path).status_code == 200


def test_copy_to_my_fleets_forks_it_for_a_visitor(shared: Fleet, visitor: Client) -> None:
    before = dict(shared.document)
    response = visitor.post(shared.share_url_path() + "copy/")
    assert response.status_code == 302
    copy = Fleet.objects.exclude(pk=shared.pk).get()
    assert response.headers["Location"] == copy.get_absolute_url()
    assert copy.document == shared.document
    assert copy.owner is None and copy.session_key and copy.session_key != shared.session_key
    assert not copy.share_enabled and copy.share_id is None
    # The visitor owns the copy (edits work), and the original did not change.
    assert visitor.get(copy.get_absolute_url()).status_code == 200
    visitor.post(f"/fleets/{copy.pk}/units/0/remove/", {})
    shared.refresh_from_db()
    assert shared.document == before
    assert copy.name in visitor.get("/fleets/").content.decode()


def test_copy_to_my_fleets_for_another_account(shared: Fleet, other_account: Client) -> None:
    other_account.post(shared.share_url_path() + "copy/")
    copy = Fleet.objects.exclude(pk=shared.pk).get()
    assert copy.owner is not None and copy.owner.username == "rival"


def test_copy_needs_post(shared: Fleet, visitor: Client) -> None:
    assert visitor.get(shared.share_url_path() + "copy/").status_code == 405
    assert Fleet.objects.count() == 1


def test_the_shared_file_and_text_can_be_downloaded(shared: Fleet, visitor: Client) -> None:
    response = visitor.get(shared.share_url_path() + "fleet.json")
    assert response.status_code == 200
    assert response.json() == shared.document
    text = visitor.get(shared.share_url_path() + "fleet.txt")
    assert text.headers["Content-Type"] == "text/plain; charset=utf-8"
    assert text.content.decode().startswith(f"Fleet: {shared.name}\n")


def test_a_shared_fleet_of_an_unknown_faction_is_shown_but_not_copied(
    client: Client, shared: Fleet, visitor: Client
) -> None:
    Fleet.objects.filter(pk=shared.pk).update(
        document={**shared.document, "faction": "space-elves"}, faction="space-elves"
    )
    html = visitor.get(shared.share_url_path()).content.decode()
    assert "catalogue has no faction “space-elves”" in html and "Copy to my fleets" not in html
    response = visitor.post(shared.share_url_path() + "copy/", follow=True)
    assert response.redirect_chain[-1][0] == shared.share_url_path()
    assert "no faction &#x27;space-elves&#x27;" in response.content.decode()
    assert Fleet.objects.count() == 1


def test_the_builder_says_when_the_link_is_on(client: Client, make_fleet) -> None:
    fleet = make_fleet()
    assert "(link on)" not in client.get(fleet.get_absolute_url()).content.decode()
    fleet.share()
    html = client.get(fleet.get_absolute_url()).content.decode()
    assert (
        f'<a href="/fleets/{fleet.pk}/share/">Share</a> <span class="muted small">(link on)' in html
    )


def test_the_share_page_links_every_export(client: Client, make_fleet) -> None:
    fleet = make_fleet()
    html = client.get(f"/fleets/{fleet.pk}/share/").content.decode()
    for href in (
        f"/fleets/{fleet.pk}/export.json",
        f"/fleets/{fleet.pk}/export.txt",
        f"/cards/fleet/{fleet.pk}/print/",
        "/fleets/import/",
    ):
        assert f'href="{href}"' in html


def test_after_a_link_change_keyboard_focus_lands_in_the_new_panel(
    client: Client, make_fleet
) -> None:
    fleet = make_fleet()
    url = f"/fleets/{fleet.pk}/share/link/"
    on = client.post(url, {"action": "on"}, headers={"HX-Request": "true"}).content.decode()
    assert 'id="share-url" type="text" readonly' in on and "data-copy-source autofocus" in on
    off = client.post(url, {"action": "off"}, headers={"HX-Request": "true"}).content.decode()
    assertInHTML('<button type="submit" class="button" autofocus>Turn the link on</button>', off)
    assert "autofocus" not in client.get(f"/fleets/{fleet.pk}/share/").content.decode()
