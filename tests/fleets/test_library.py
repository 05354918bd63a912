"""Saved Fleets and the trash through the test client: contents, search, changes and access."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from pytest_django.asserts import assertInHTML

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.library import PER_PAGE
from fleetbuilder.fleets.models import Fleet
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def rows(html: str) -> list[str]:
    """The fleet names of the Saved Fleets (or trash) table, top to bottom."""
    return [
        re.sub(r"<[^>]+>", "", m).strip()
        for m in re.findall(r'<th scope="row" class="library-table__name">(.*?)</th>', html, re.S)
    ]


def row(html: str, fleet: Fleet) -> str:
    match = re.search(rf'<tr id="fleet-{fleet.pk}">(.*?)</tr>', html, re.S)
    assert match, f"fleet {fleet.pk} is not listed"
    return match.group(1)


def lunar_price(catalog) -> int:
    """A Lunar's price in the loaded catalogue (prices are calibrated; tests don't copy them)."""
    return catalog.faction("imperial-navy").ship("lunar-class-cruiser").points


def age(fleet: Fleet, minutes: int) -> None:
    """Pretend the fleet last changed ``minutes`` ago (``updated`` is auto_now on save)."""
    Fleet.objects.filter(pk=fleet.pk).update(updated=timezone.now() - timedelta(minutes=minutes))


@pytest.fixture
def library(client: Client, start_fleet: Callable[..., Fleet], catalog) -> dict[str, Fleet]:
    """Three fleets of one browser: a legal Ork Battle fleet, and two Imperial Navy drafts."""
    orks = start_fleet(client, name="Waaagh Gitsmasha", faction="orks", game_size="battle")
    orks.store(sample_fleet(catalog, "orks", "battle"), catalog)
    orks.save()
    orks.rename("Waaagh Gitsmasha")
    gothic = start_fleet(client, name="Gothic Patrol", faction="imperial-navy")
    gothic.add_ship(catalog, "lunar-class-cruiser")
    bakka = start_fleet(client, name="Bakka Reserve", faction="imperial-navy", game_size="armada")
    age(orks, 90)
    age(gothic, 30)
    age(bakka, 5)
    return {"orks": orks, "gothic": gothic, "bakka": bakka}


# --- the list -------------------------------------------------------------------------------


def test_every_fleet_is_listed_with_its_columns_newest_change_first(
    client: Client, library, catalog
) -> None:
    html = client.get("/fleets/").content.decode()
    assert rows(html) == ["Bakka Reserve", "Gothic Patrol", "Waaagh Gitsmasha"]
    headings = re.findall(r'<th scope="col"[^>]*>([^<]+)</th>', html)
    assert headings == ["Name", "Faction", "Game size", "Points", "Legal", "Edition", "Last change"]
    orks = row(html, library["orks"])
    assert "Orks" in orks and ">Battle<" in orks
    assert f">{library['orks'].points}<" in orks and library["orks"].points > 1000
    assert "verdict--legal" in orks and ">Legal<" in orks
    assert "1\xa0hour ago" in orks
    gothic = row(html, library["gothic"])
    assert "Imperial Navy" in gothic and ">Skirmish<" in gothic
    assert f">{lunar_price(catalog)}<" in gothic and ">Not legal<" in gothic
    assert "30\xa0minutes ago" in gothic
    assert f'href="/fleets/{library["gothic"].pk}/"' in gothic
    assert "3 fleets" in html


def test_an_empty_library_invites_a_first_fleet(client: Client, db) -> None:
    html = client.get("/fleets/").content.decode()
    assert "No fleets yet." in html
    assert 'role="search"' not in html


def test_search_by_name_ignores_case(client: Client, library) -> None:
    assert rows(client.get("/fleets/?q=GOTHIC").content.decode()) == ["Gothic Patrol"]
    assert rows(client.get("/fleets/?q=a").content.decode()) == [
        "Bakka Reserve",
        "Gothic Patrol",
        "Waaagh Gitsmasha",
    ]
    html = client.get("/fleets/?q=Eldar").content.decode()
    assert rows(html) == []
    assert "No saved fleet has “Eldar” in its name." in html


def test_filter_by_faction_offers_the_factions_with_fleets(client: Client, library) -> None:
    html = client.get("/fleets/").content.decode()
    assertInHTML('<option value="imperial-navy">Imperial Navy (2)</option>', html)
    assertInHTML('<option value="orks">Orks (1)</option>', html)
    assert 'value="necrons"' not in html
    html = client.get("/fleets/?faction=imperial-navy").content.decode()
    assert rows(html) == ["Bakka Reserve", "Gothic Patrol"]
    assertInHTML('<option value="imperial-navy" selected>Imperial Navy (2)</option>', html)
    assert rows(client.get("/fleets/?faction=imperial-navy&q=bakka").content.decode()) == [
        "Bakka Reserve"
    ]
    assert rows(client.get("/fleets/?faction=necrons").content.decode()) == []


def test_sort_by_name_or_points(client: Client, library) -> None:
    assert rows(client.get("/fleets/?sort=name").content.decode()) == [
        "Bakka Reserve",
        "Gothic Patrol",
        "Waaagh Gitsmasha",
    ]
    assert rows(client.get("/fleets/?sort=points").content.decode())[0] == "Waaagh Gitsmasha"


def test_a_bad_filter_says_so_and_shows_every_fleet(client: Client, library) -> None:
    html = client.get("/fleets/?faction=../../etc&sort=cheapest").content.decode()
    assert len(rows(html)) == 3
    assert "Showing every fleet instead." in html


def test_htmx_search_answers_with_the_results_only(client: Client, library) -> None:
    response = client.get("/fleets/?q=patrol", headers=HTMX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="library-results"')
    assert "<html" not in html
    assert rows(html) == ["Gothic Patrol"]


def test_the_search_form_works_without_javascript(client: Client, library) -> None:
    html = client.get("/fleets/").content.decode()
    form = re.search(r'<form class="filter library-filter" method="get" action="/fleets/"', html)
    assert form
    assert 'name="q"' in html and 'name="faction"' in html
    assertInHTML('<label for="library-q">Search by name</label>', html)


def test_fifty_fleets_a_page_and_the_pages_keep_the_search(
    client: Client, django_user_model, catalog
) -> None:
    user = django_user_model.objects.create_user("armada", password="x")
    for n in range(PER_PAGE + 1):
        Fleet.start(
            name=f"Fleet {n:02}",
            faction="orks",
            variant=None,
            game_size="patrol",
            points_limit=None,
            catalog=catalog,
            owner=user,
        )
    Fleet.start(
        name="Odd One",
        faction="necrons",
        variant=None,
        game_size="patrol",
        points_limit=None,
        catalog=catalog,
        owner=user,
    )
    client.force_login(user)
    first = client.get("/fleets/?faction=orks&sort=name").content.decode()
    assert len(rows(first)) == PER_PAGE
    assert "1–50 of 51 fleets" in first
    assert "Page 1 of 2" in first
    assert 'href="/fleets/?faction=orks&amp;sort=name&amp;page=2"' in first
    second = client.get("/fleets/?faction=orks&sort=name&page=2").content.decode()
    assert rows(second) == ["Fleet 50"]
    assert rows(client.get("/fleets/?faction=orks&sort=name&page=99").content.decode()) == [
        "Fleet 50"
    ]


def test_the_list_costs_the_same_queries_for_many_fleets(
    client: Client, library, start_fleet, django_assert_max_num_queries
) -> None:
    with django_assert_max_num_queries(8):
        client.get("/fleets/")
    for n in range(10):
        start_fleet(client, name=f"More {n}")
    # The editions list is kept per process for MEMO_SECONDS; on a slow machine the ten fleets
    # above outlast it, and the list's own read must not count against the page's.
    editions.known()
    with django_assert_max_num_queries(8):
        assert len(rows(client.get("/fleets/").content.decode())) == 13


# --- rename, duplicate ----------------------------------------------------------------------


def test_rename_changes_the_name_and_the_fleet_file(client: Client, library, catalog) -> None:
    gothic = library["gothic"]
    response = client.post(
        f"/fleets/{gothic.pk}/rename-fleet/",
        {"name": "  Battlefleet Gothic  ", "next": "/fleets/?q=gothic"},
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/fleets/?q=gothic"
    gothic.refresh_from_db()
    assert gothic.name == gothic.document["name"] == "Battlefleet Gothic"
    assert gothic.points == lunar_price(catalog)
    html = client.get("/fleets/?q=gothic").content.decode()
    assert "Renamed to “Battlefleet Gothic”." in html
    assert rows(html) == ["Battlefleet Gothic"]


def test_rename_to_nothing_gives_the_default_name(client: Client, library) -> None:
    client.post(f"/fleets/{library['bakka'].pk}/rename-fleet/", {"name": "   "})
    library["bakka"].refresh_from_db()
    assert library["bakka"].name == "Untitled Fleet"


def test_a_too_long_name_is_refused_and_changes_nothing(client: Client, library) -> None:
    response = client.post(
        f"/fleets/{library['bakka'].pk}/rename-fleet/", {"name": "x" * 101}, headers=HTMX
    )
    html = response.content.decode()
    assert "“Bakka Reserve” keeps its name: Ensure this value has at most 100 characters" in html
    library["bakka"].refresh_from_db()
    assert library["bakka"].name == "Bakka Reserve"


def test_rename_keeps_undo_of_the_last_removal(client: Client, library, catalog) -> None:
    gothic = library["gothic"]
    gothic.remove(catalog, 0)
    client.post(f"/fleets/{gothic.pk}/rename-fleet/", {"name": "Renamed"})
    gothic.refresh_from_db()
    assert gothic.last_removed is not None
    gothic.undo_remove(catalog)
    assert gothic.points == lunar_price(catalog)


def test_duplicate_makes_an_independent_copy(client: Client, library) -> None:
    orks = library["orks"]
    response = client.post(f"/fleets/{orks.pk}/copy/", headers=HTMX)
    assert response.status_code == 200
    copy = Fleet.objects.exclude(pk__in=[f.pk for f in library.values()]).get()
    assert copy.name == "Copy of Waaagh Gitsmasha"
    assert copy.session_key == orks.session_key and copy.owner is None
    assert copy.document["units"] == orks.document["units"]
    assert (copy.points, copy.legal, copy.faction, copy.game_size) == (
        orks.points,
        True,
        "orks",
        "battle",
    )
    html = response.content.decode()
    assert "Saved a copy: “Copy of Waaagh Gitsmasha”." in html
    assert rows(html)[0] == "Copy of Waaagh Gitsmasha"
    # Editing the copy leaves the original alone.
    client.post(f"/fleets/{copy.pk}/units/0/remove/", {})
    orks.refresh_from_db()
    copy.refresh_from_db()
    assert copy.points < orks.points


def test_a_copy_of_a_full_length_name_still_fits(client: Client, library) -> None:
    long = "L" * 100
    client.post(f"/fleets/{library['bakka'].pk}/rename-fleet/", {"name": long})
    client.post(f"/fleets/{library['bakka'].pk}/copy/")
    copy = Fleet.objects.get(name__startswith="Copy of ")
    assert len(copy.name) == 100 and copy.name == "Copy of " + "L" * 92


# --- trash, restore, delete forever ---------------------------------------------------------


def test_delete_moves_to_the_trash_with_an_undo(client: Client, library) -> None:
    gothic = library["gothic"]
    response = client.post(f"/fleets/{gothic.pk}/trash/", {"next": "/fleets/"})
    assert response.status_code == 302
    gothic.refresh_from_db()
    assert gothic.in_trash
    html = client.get("/fleets/").content.decode()
    assert "Gothic Patrol" not in rows(html)
    assert "“Gothic Patrol” is in the trash." in html
    assert f'action="/fleets/{gothic.pk}/restore/"' in html
    assert "Trash (1)" in html
    assert client.get(gothic.get_absolute_url()).status_code == 404  # not editable there
    # The offer to undo is made once.
    assert "is in the trash." not in client.get("/fleets/").content.decode()
    trash = client.get("/fleets/trash/").content.decode()
    assert rows(trash) == ["Gothic Patrol"]
    assert "just now" in row(trash, gothic)


def test_restore_brings_the_fleet_back_as_it_was(client: Client, library) -> None:
    gothic = library["gothic"]
    gothic.refresh_from_db()
    before = (gothic.document, gothic.points, gothic.updated)
    client.post(f"/fleets/{gothic.pk}/trash/")
    response = client.post(f"/fleets/{gothic.pk}/restore/", {"next": "/fleets/trash/"})
    assert response.headers["Location"] == "/fleets/trash/"
    gothic.refresh_from_db()
    assert not gothic.in_trash
    assert (gothic.document, gothic.points, gothic.updated) == before
    assert (
        "“Gothic Patrol” is back in your saved fleets."
        in client.get("/fleets/trash/").content.decode()
    )
    assert "Gothic Patrol" in rows(client.get("/fleets/").content.decode())
    assert client.get(gothic.get_absolute_url()).status_code == 200


def test_htmx_delete_and_undo_answer_with_the_list_for_the_same_search(
    client: Client, library
) -> None:
    bakka = library["bakka"]
    html = client.post(
        f"/fleets/{bakka.pk}/trash/", {"next": "/fleets/?faction=imperial-navy"}, headers=HTMX
    ).content.decode()
    assert rows(html) == ["Gothic Patrol"]
    assert "“Bakka Reserve” is in the trash." in html
    html = client.post(
        f"/fleets/{bakka.pk}/restore/", {"next": "/fleets/?faction=imperial-navy"}, headers=HTMX
    ).content.decode()
    assert rows(html) == ["Bakka Reserve", "Gothic Patrol"]
    trash_html = client.post(
        f"/fleets/{bakka.pk}/trash/", {"next": "/fleets/trash/"}, headers=HTMX
    ).content.decode()
    assert trash_html.lstrip().startswith('<div id="trash-results"')
    assert rows(trash_html) == ["Bakka Reserve"]


def test_delete_forever_asks_first_then_deletes(client: Client, library) -> None:
    gothic = library["gothic"]
    assert client.get(f"/fleets/{gothic.pk}/delete-forever/").status_code == 404  # not in trash
    client.post(f"/fleets/{gothic.pk}/trash/")
    confirm = client.get(f"/fleets/{gothic.pk}/delete-forever/").content.decode()
    assert "Delete “Gothic Patrol” forever?" in confirm
    assert "This cannot be undone." in confirm
    assert Fleet.objects.filter(pk=gothic.pk).exists()  # asking deletes nothing
    response = client.post(f"/fleets/{gothic.pk}/delete-forever/")
    assert response.headers["Location"] == "/fleets/trash/"
    assert not Fleet.objects.filter(pk=gothic.pk).exists()
    assert "“Gothic Patrol” is deleted forever." in client.get("/fleets/trash/").content.decode()


def test_empty_the_trash_asks_then_deletes_only_the_trash(
    client: Client, library, outsider, start_fleet
) -> None:
    theirs = start_fleet(outsider, name="Theirs")
    outsider.post(f"/fleets/{theirs.pk}/trash/")
    for key in ("gothic", "bakka"):
        client.post(f"/fleets/{library[key].pk}/trash/")
    confirm = client.get("/fleets/trash/empty/").content.decode()
    assert "Delete all 2 fleets in the trash forever?" in confirm
    assert Fleet.objects.count() == 4
    client.post("/fleets/trash/empty/")
    assert set(Fleet.objects.values_list("name", flat=True)) == {"Waaagh Gitsmasha", "Theirs"}
    assert "Deleted 2 fleets forever." in client.get("/fleets/trash/").content.decode()


def test_changes_go_back_only_to_our_own_pages(client: Client, library) -> None:
    response = client.post(
        f"/fleets/{library['bakka'].pk}/copy/", {"next": "https://evil.example/phish"}
    )
    assert response.headers["Location"] == "/fleets/"


# --- access ---------------------------------------------------------------------------------


def mutations(fleet: Fleet) -> list[tuple[str, dict[str, str]]]:
    return [
        (f"/fleets/{fleet.pk}/rename-fleet/", {"name": "Stolen"}),
        (f"/fleets/{fleet.pk}/copy/", {}),
        (f"/fleets/{fleet.pk}/trash/", {}),
        (f"/fleets/{fleet.pk}/restore/", {}),
        (f"/fleets/{fleet.pk}/delete-forever/", {}),
    ]


@pytest.mark.parametrize("who", ["another browser", "another account"])
def test_nobody_else_sees_or_changes_the_fleets(
    client: Client, library, who: str, django_user_model
) -> None:
    other = Client()
    if who == "another account":
        other.force_login(django_user_model.objects.create_user("voss", password="x"))
    client.post(f"/fleets/{library['bakka'].pk}/trash/")  # one alive, one in the trash
    before = {f.pk: (f.name, f.deleted_at is None, f.document) for f in Fleet.objects.all()}
    for fleet in (library["gothic"], library["bakka"]):
        for url, data in mutations(fleet):
            assert other.post(url, data).status_code == 404, url
            assert other.post(url, data, headers=HTMX).status_code == 404, url
        assert other.get(f"/fleets/{fleet.pk}/delete-forever/").status_code == 404
    other.post("/fleets/trash/empty/")
    after = {f.pk: (f.name, f.deleted_at is None, f.document) for f in Fleet.objects.all()}
    assert after == before
    assert rows(other.get("/fleets/").content.decode()) == []
    assert rows(other.get("/fleets/trash/").content.decode()) == []
    for name in ("Gothic Patrol", "Bakka Reserve", "Waaagh Gitsmasha"):
        assert name not in other.get("/fleets/?q=a").content.decode()


def test_changes_are_post_only(client: Client, library) -> None:
    fleet = library["gothic"]
    for url, _ in mutations(fleet)[:4]:
        assert client.get(url).status_code == 405, url
    assert Fleet.objects.alive().filter(pk=fleet.pk, name="Gothic Patrol").exists()


def test_changes_need_the_csrf_token(library, django_user_model, catalog) -> None:
    user = django_user_model.objects.create_user("voss", password="x")
    fleet = Fleet.start(
        name="Guarded",
        faction="orks",
        variant=None,
        game_size="patrol",
        points_limit=None,
        catalog=catalog,
        owner=user,
    )
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    for url, data in mutations(fleet):
        assert browser.post(url, data).status_code == 403, url
    fleet.refresh_from_db()
    assert fleet.name == "Guarded" and not fleet.in_trash


def test_the_builder_page_duplicates_and_deletes_too(client: Client, library) -> None:
    gothic = library["gothic"]
    page = client.get(gothic.get_absolute_url()).content.decode()
    assert f'action="/fleets/{gothic.pk}/copy/"' in page
    assert f'action="/fleets/{gothic.pk}/trash/"' in page
    response = client.post(f"/fleets/{gothic.pk}/copy/", {"open": "copy"})
    copy = Fleet.objects.get(name="Copy of Gothic Patrol")
    assert response.headers["Location"] == copy.get_absolute_url()
    response = client.post(f"/fleets/{copy.pk}/trash/", {"next": "/fleets/"})
    assert response.headers["Location"] == "/fleets/"
    assert "“Copy of Gothic Patrol” is in the trash." in client.get("/fleets/").content.decode()


def test_htmx_answers_tell_screen_readers_what_changed(client: Client, library) -> None:
    page = client.get("/fleets/").content.decode()
    status = '<div id="library-status" class="visually-hidden" role="status"{}>{}</div>'
    assertInHTML(status.format("", ""), page)
    html = client.get("/fleets/?q=patrol", headers=HTMX).content.decode()
    assertInHTML(status.format(' hx-swap-oob="innerHTML"', "1 fleet found."), html)
    html = client.post(
        f"/fleets/{library['gothic'].pk}/trash/", {"next": "/fleets/"}, headers=HTMX
    ).content.decode()
    assertInHTML(
        status.format(' hx-swap-oob="innerHTML"', "“Gothic Patrol” is in the trash. 2 fleets."),
        html,
    )
    assertInHTML(
        '<a id="trash-link" class="button button--ghost" href="/fleets/trash/" '
        'hx-swap-oob="true">Trash (1)</a>',
        html,
    )


# --- shared fleets, faction counts after changes, clean addresses -----------------------------


def test_a_shared_fleet_is_marked_with_a_link_to_its_share_page(client: Client, library) -> None:
    gothic, bakka = library["gothic"], library["bakka"]
    gothic.share()
    bakka.share()
    bakka.unshare()  # a link turned off is not shared
    html = client.get("/fleets/").content.decode()
    assert f'<a class="badge badge--shared" href="/fleets/{gothic.pk}/share/"' in row(html, gothic)
    assert "Shared" in row(html, gothic)
    assert "badge--shared" not in row(html, bakka)
    assert "badge--shared" not in row(html, library["orks"])


def faction_option(html: str, slug: str) -> str:
    match = re.search(rf'<option value="{slug}"[^>]*>([^<]*)</option>', html)
    return match.group(1) if match else ""


@pytest.mark.parametrize("change", ["trash", "restore", "copy"])
def test_the_faction_counts_follow_htmx_changes(client: Client, library, change: str) -> None:
    bakka = library["bakka"]
    if change == "restore":
        client.post(f"/fleets/{bakka.pk}/trash/")
    html = client.post(
        f"/fleets/{bakka.pk}/{change}/", {"next": "/fleets/"}, headers=HTMX
    ).content.decode()
    expected = {
        "trash": "Imperial Navy (1)",
        "restore": "Imperial Navy (2)",
        "copy": "Imperial Navy (3)",
    }[change]
    assert '<div id="library-filter-slot" hx-swap-oob="true">' in html
    assert faction_option(html, "imperial-navy") == expected
    assert faction_option(html, "orks") == "Orks (1)"


def test_searching_leaves_the_search_form_where_it_is(client: Client, library) -> None:
    html = client.get("/fleets/?q=patrol", headers=HTMX).content.decode()
    assert "library-filter-slot" not in html  # the field being typed in is never swapped


@pytest.mark.parametrize(
    ("query", "clean"),
    [
        ("?q=&faction=&sort=recent", "/fleets/"),
        ("?q=gothic&faction=&sort=recent", "/fleets/?q=gothic"),
        ("?q=&faction=orks&sort=name", "/fleets/?faction=orks&sort=name"),
        ("?q=&faction=&sort=points&page=1", "/fleets/?sort=points"),
        ("?q=a+b&faction=&sort=recent", "/fleets/?q=a+b"),
    ],
)
def test_the_address_bar_gets_the_clean_address(
    client: Client, library, query: str, clean: str
) -> None:
    response = client.get("/fleets/" + query, headers=HTMX)
    pushed = response.headers.get("HX-Push-Url") or response.headers.get("HX-Replace-Url")
    assert pushed == clean
    assert "hx-push-url" not in client.get("/fleets/").content.decode()
    assert "HX-Request" in response.headers["Vary"]


def test_typing_replaces_the_history_entry_and_menus_add_one(client: Client, library) -> None:
    typed = client.get(
        "/fleets/?q=go&faction=&sort=recent",
        headers={**HTMX, "HX-Current-URL": "http://testserver/fleets/?q=g"},
    )
    assert typed.headers["HX-Replace-Url"] == "/fleets/?q=go"
    assert "HX-Push-Url" not in typed.headers
    chose = client.get(
        "/fleets/?q=go&faction=orks&sort=recent",
        headers={**HTMX, "HX-Current-URL": "http://testserver/fleets/?q=go"},
    )
    assert chose.headers["HX-Push-Url"] == "/fleets/?q=go&faction=orks"


def test_htmx_restoring_history_gets_the_whole_page(client: Client, library) -> None:
    html = client.get(
        "/fleets/?q=patrol", headers={**HTMX, "HX-History-Restore-Request": "true"}
    ).content.decode()
    assert html.lstrip().startswith("<!doctype html>")
    assert rows(html) == ["Gothic Patrol"]


def test_after_a_change_keyboard_focus_lands_on_what_it_says(client: Client, library) -> None:
    html = client.post(
        f"/fleets/{library['bakka'].pk}/trash/", {"next": "/fleets/"}, headers=HTMX
    ).content.decode()
    assert re.search(r'<button type="submit" class="button button--small" autofocus>Undo', html)
    html = client.post(
        f"/fleets/{library['orks'].pk}/copy/", {"next": "/fleets/"}, headers=HTMX
    ).content.decode()
    assert '<div class="messages" tabindex="-1" autofocus>' in html
    # A plain page load steals no focus.
    assert "autofocus" not in client.get("/fleets/").content.decode()


# --- download all ---------------------------------------------------------------------------


def test_download_all_is_a_zip_of_every_saved_fleets_file(
    client: Client, library, outsider, start_fleet
) -> None:
    import io
    import zipfile

    start_fleet(client, name="Gothic Patrol", faction="orks")  # a second of the same name
    client.post(f"/fleets/{library['bakka'].pk}/trash/")  # the trash is not included
    start_fleet(outsider, name="Theirs")  # nor anyone else's fleets
    assert (
        'href="/fleets/export.zip" download>Download all 3 saved fleets</a>'
        in client.get("/fleets/").content.decode()
    )
    response = client.get("/fleets/export.zip")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "application/zip"
    assert re.fullmatch(
        r'attachment; filename="void-command-fleets-\d{4}-\d\d-\d\d\.zip"',
        response.headers["Content-Disposition"],
    )
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    assert sorted(archive.namelist()) == [
        "gothic-patrol-2.json",
        "gothic-patrol.json",
        "waaagh-gitsmasha.json",
    ]
    orks = library["orks"]
    assert (
        archive.read("waaagh-gitsmasha.json")
        == client.get(f"/fleets/{orks.pk}/export.json").content
    )
    # Each file imports back as the same list.
    page = client.post(
        "/fleets/import/", {"text": archive.read("waaagh-gitsmasha.json").decode()}
    ).content.decode()
    assert "Save to my fleets" in page and f">{orks.points}<" in page


def test_download_all_with_no_fleets_says_so(outsider: Client, db) -> None:
    response = outsider.get("/fleets/export.zip", follow=True)
    assert response.redirect_chain == [("/fleets/", 302)]
    assert "There are no saved fleets to download." in response.content.decode()
