"""The editions' pages: every edition, newest first, and what one changed against the one before
or any other (R-160: an edition is a published catalogue that never changes).

The test database holds the shipped editions 1–7 and its data files are edition 7."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertInHTML, assertNotContains

pytestmark = pytest.mark.django_db

FEED_LINK = (
    '<link rel="alternate" type="application/atom+xml" title="Catalogue editions" '
    'href="/editions/feed/">'
)


def text(response) -> str:  # type: ignore[no-untyped-def]
    """The page's words, as a reader sees them."""
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&nbsp;", " ")


def test_the_list_shows_every_edition_newest_first_and_the_one_served(client: Client) -> None:
    response = client.get("/editions/")
    assert response.status_code == 200
    html = response.content.decode()
    numbers = [int(n) for n in re.findall(r'<a href="/editions/(\d+)/">Edition \d+</a>', html)]
    assert numbers == [7, 6, 5, 4, 3, 2, 1]
    assertContains(
        response,
        "This server serves "
        '<a href="/editions/7/">Edition 7 (2026-12, Necrons&#x27; Battle ships)</a>.',
        html=False,
    )
    # Edition 5 changed ten prices (the Astartes by ship); edition 1 is the first.
    assertInHTML('<td class="num">10</td>', html)  # edition 5's row
    row5 = html.split('href="/editions/5/"', 1)[1].split("</tr>", 1)[0]
    assert '<td class="num">10</td>' in row5 and "2026-12-02, Astartes by ship" in row5
    row1 = html.split('href="/editions/1/"', 1)[1].split("</tr>", 1)[0]
    assert "the first edition" in row1
    assertContains(response, FEED_LINK, html=True)
    # The site's navigation has the entry, marked as the current page.
    assertContains(response, '<a href="/editions/" aria-current="page">editions</a>', html=True)


def test_a_development_state_is_said_as_such(client: Client, monkeypatch) -> None:
    from fleetbuilder.editions import views

    monkeypatch.setattr(views.editions, "current", lambda request=None: None)
    page = text(client.get("/editions/"))
    assert "This server serves a development state : unpublished changes since edition 7" in page


def test_an_edition_shows_its_price_changes_against_the_previous_by_faction(client: Client) -> None:
    """Edition 5 priced the Astartes by ship: escorts x1.25 (30 to 40 points for the smallest),
    strike cruisers x0.85 (R-160: the changelog is what a player needs to re-cost a list)."""
    response = client.get("/editions/5/")
    assert response.status_code == 200
    page = text(response)
    assert "What changed since edition 4" in page
    assert "10 prices changed (10 ships)" in page
    assertContains(
        response,
        "<caption>Adeptus Astartes: 10 of 22 ships repriced (45&nbsp;%)</caption>",
        html=True,
    )
    assertContains(
        response,
        '<tr><th scope="row">Cobra Rapid Strike Vessel</th>'
        '<td class="num">30</td><td class="num">40</td>'
        '<td class="num">+10</td></tr>',
        html=True,
    )
    assertContains(
        response,
        '<tr><th scope="row">Strike Cruiser</th>'
        '<td class="num">130</td><td class="num">110</td>'
        '<td class="num">\u221220</td></tr>',
        html=True,
    )
    assert "Craftworld Eldar" not in page  # untouched factions are not listed
    # The form offers the other editions, the previous one chosen.
    assertContains(
        response,
        '<option value="4" selected>Edition 4 (2026-12-01, third calibration)</option>',
        html=True,
    )
    assertNotContains(response, '<option value="5"')
    assertContains(response, FEED_LINK, html=True)


def test_an_edition_against_any_other_chosen_on_the_page(client: Client) -> None:
    response = client.get("/editions/7/", {"against": "5"})
    assert response.status_code == 200
    page = text(response)
    assert "Compared with edition 5" in page
    # Edition 6's Eldar and edition 7's Necrons prices, each old -> new under its column.
    assertContains(
        response,
        '<tr><th scope="row">Harbinger-class Heavy Cruiser</th>'
        '<td class="num">300</td><td class="num">315</td>'
        '<td class="num">+15</td></tr>',
        html=True,
    )
    assert "Necrons: 2 of 8 ships repriced" in page
    assert "Craftworld Eldar: 4 of 10 ships repriced" in page
    assertContains(
        response,
        '<option value="5" selected>Edition 5 (2026-12-02, Astartes by ship)</option>',
        html=True,
    )
    # Older against newer works too: the columns say which edition is which.
    back = client.get("/editions/5/", {"against": "7"})
    assertContains(
        back,
        '<tr><th scope="row">Harbinger-class Heavy Cruiser</th>'
        '<td class="num">315</td><td class="num">300</td>'
        '<td class="num">\u221215</td></tr>',
        html=True,
    )


def test_a_rule_change_shows_old_and_new_text(client: Client) -> None:
    response = client.get("/editions/6/")
    page = text(response)
    assert "Profiles and rules" in page
    assert "Faction rule: Holofields" in page
    assert "is ignored on a 2+ unless it comes from within 15 cm" in page  # edition 5
    assert "is ignored on a 2+, or on a 5+ if it comes from within 15 cm" in page  # edition 6


def test_the_first_edition_says_there_is_nothing_before_it(client: Client) -> None:
    response = client.get("/editions/1/")
    assert response.status_code == 200
    assert "Edition 1 is the first edition: there is no edition before it" in text(response)
    assertContains(response, '<option value="" selected>Choose an edition</option>', html=True)
    # Chosen from the form, another edition compares as usual.
    assert "Compared with edition 2" in text(client.get("/editions/1/", {"against": "2"}))
    assert "is the first edition" in text(client.get("/editions/1/", {"against": ""}))


def test_an_unknown_edition_is_not_found(client: Client) -> None:
    assert client.get("/editions/99/").status_code == 404
    assert client.get("/editions/0/").status_code == 404


@pytest.mark.parametrize("against", ["abc", "99", "5", "-1", "4.5"])
def test_a_bad_comparison_is_refused_with_the_editions_to_choose_from(
    client: Client, against: str
) -> None:
    response = client.get("/editions/5/", {"against": against})
    assert response.status_code == 400
    assertContains(
        response,
        f'<p class="alert" role="alert" id="against-error">“{against}” is '
        "not an edition to compare edition 5 with: choose one of editions "
        "1, 2, 3, 4, 6 and 7.</p>",
        status_code=400,
        html=True,
    )
    assert 'aria-invalid="true"' in response.content.decode()
    # The select still shows the edition compared by default, the previous one.
    assertContains(
        response,
        '<option value="4" selected>Edition 4 (2026-12-01, third calibration)</option>',
        status_code=400,
        html=True,
    )


def test_htmx_swaps_only_the_comparison(client: Client) -> None:
    response = client.get("/editions/5/", {"against": "3"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="comparison"') and "<html" not in html
    assert "Compared with edition 3" in text(response)
    assert "HX-Request" in response["Vary"]


def test_only_get_is_answered(client: Client) -> None:
    assert client.post("/editions/").status_code == 405
    assert client.post("/editions/5/").status_code == 405


def test_refits_admiral_ranks_and_ships_added_or_removed_have_their_own_sections(
    client: Client, monkeypatch
) -> None:
    """The shipped editions only repriced ships; an edition that changes a refit's and an
    admiral rank's price and adds and removes a ship shows each where a player looks for it."""
    from dataclasses import replace

    from django.core.cache import cache

    from fleetbuilder.catalog import editions
    from fleetbuilder.editions import changelog

    real = editions.catalog_for
    six = real(6)
    refit, admiral = six.refits[0], six.admirals[0]
    orks = six.faction("orks")
    assert orks is not None
    gone, kept = orks.ships[0], orks.ships[1:]
    newcomer = replace(kept[0], slug="rok-of-tests", name="Rok of Tests", points=155)
    changed = replace(
        six,
        refits=(replace(refit, points=refit.points + 5), *six.refits[1:]),
        admirals=(replace(admiral, points=admiral.points - 10), *six.admirals[1:]),
        factions=tuple(
            replace(f, ships=(*kept, newcomer)) if f is orks else f for f in six.factions
        ),
    )
    monkeypatch.setattr(changelog.editions, "catalog_for", lambda n: changed if n == 7 else real(n))
    cache.clear()  # the real changelog of 6 -> 7 may be kept: this one is made up
    try:
        response = client.get("/editions/7/")
        page = text(response)
    finally:
        cache.clear()
    assert "Refits and admiral ranks" in page
    assertContains(
        response,
        f'<tr><th scope="row">{refit.name} <span class="muted small">'
        f'(refit)</span></th><td class="num">{refit.points}</td>'
        f'<td class="num">{refit.points + 5}</td><td class="num">+5</td>'
        "</tr>",
        html=True,
    )
    assertContains(
        response,
        f'<tr><th scope="row">{admiral.name} <span class="muted small">'
        f'(admiral rank)</span></th><td class="num">{admiral.points}</td>'
        f'<td class="num">{admiral.points - 10}</td>'
        '<td class="num">\u221210</td></tr>',
        html=True,
    )
    assertContains(
        response,
        '<tr><th scope="row">Rok of Tests</th><td>Ship</td><td>Orks</td>'
        '<td class="num">155</td></tr>',
        html=True,
    )
    assert "Added in edition 7" in page and "Removed since edition 6" in page
    assertContains(
        response,
        f'<tr><th scope="row">{gone.name}</th><td>Ship</td><td>Orks</td>'
        f'<td class="num">{gone.points}</td></tr>',
        html=True,
    )
