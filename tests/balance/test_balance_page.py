"""The Balance page: the newest published table of each setting as an accessible heat map,
without JavaScript or inline styles, cached per published table."""

from __future__ import annotations

import copy
import io
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client

from fleetbuilder.balance import views
from fleetbuilder.balance.models import BalanceTable

URL = "/balance/"


class Page(HTMLParser):
    """The cells of the pair matrix, every style attribute or element, and inline scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, str]] = []  # (class, text) of td.heat in the matrix
        self.styles: list[str] = []
        self.inline_scripts = 0
        self.legend: list[str] = []
        self._matrix = False
        self._cell: list[str] | None = None
        self._class = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if "style" in a or tag == "style":
            self.styles.append(tag)
        if tag == "script" and not a.get("src"):
            self.inline_scripts += 1
        cls = a.get("class") or ""
        if tag == "table":
            self._matrix = "balance-matrix" in cls
        if tag == "td" and self._matrix and "heat" in cls:
            self._cell, self._class = [], cls
        if tag == "span" and "balance-legend__swatch" in cls:
            self.legend.append(cls)

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.cells.append((self._class, "".join(self._cell).strip()))
            self._cell = None
        if tag == "table":
            self._matrix = False


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def publish(*args: str) -> BalanceTable:
    call_command(
        "balance",
        "--size",
        "patrol",
        "--battles",
        "4",
        "--seed",
        "5",
        "--factions",
        "orks,imperial-navy,necrons",
        "--publish",
        "--note",
        "A <b>note</b>.",
        *args,
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return BalanceTable.objects.order_by("-pk").first()  # type: ignore[return-value]


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


@pytest.mark.django_db
def test_no_table_yet_says_so_in_a_players_words(client: Client) -> None:
    """The administrator's command is no longer shown to players."""
    response = client.get(URL)
    assert response.status_code == 200
    assert b"No balance table has been published yet" in response.content
    assert b"manage.py" not in response.content


@pytest.mark.django_db
def test_the_published_table_as_a_heat_map(client: Client, catalog) -> None:
    table = publish()
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    page = parse(html)
    # Every pair's two cells carry their numbers and the colour band of their score.
    matrix = table.result["matrix"]
    expected = sorted(
        (f"heat heat-{views.heat_band(s)}", str(round(100 * s)))
        for row in matrix.values()
        for s in row.values()
    )
    assert sorted(c for c in page.cells if "heat-self" not in c[0]) == expected
    assert len(page.cells) == 9  # 3 × 3, the diagonal included
    assert len(page.legend) == len(views.BANDS)
    # What was played, when, on which catalogue, and the command that repeats it.
    for text in (
        table.catalog_version,
        table.command,
        "Patrol",
        "Standard, for both sides",
        "Open space",
        "4 a pair, 3 pairs, seed 5",
        table.created.strftime("%Y"),
        "A &lt;b&gt;note&lt;/b&gt;.",
    ):
        assert text in html, text
    assert 'aria-current="page">Balance</a>' in html  # the site nav's link
    # Works without JavaScript (all of it is in the HTML), and no inline style or script:
    # the CSP forbids them.
    assert page.styles == [] and page.inline_scripts == 0
    assert "Content-Security-Policy" in response.headers
    for row in table.result["factions"]:
        assert row["name"] in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    "beyond, words",
    [
        (0, "0 pairs are beyond 85/15"),
        (1, "1 pair is beyond 85/15"),
        (2, "2 pairs are beyond 85/15"),
    ],
)
def test_the_figures_count_the_lopsided_pairs_in_plain_english(
    client: Client, catalog, beyond: int, words: str
) -> None:
    table = publish()
    table.result["summary"]["pairs_beyond_85_15"] = beyond
    table.save()
    cache.clear()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", client.get(URL).content.decode()))
    assert words in text


@pytest.mark.django_db
def test_the_page_is_rendered_once_per_published_table(
    client: Client, catalog, monkeypatch
) -> None:
    first = publish()
    assert client.get(URL).status_code == 200

    def refuse(*args: Any) -> Any:
        raise AssertionError("rendered again")

    monkeypatch.setattr(views, "table_context", refuse)
    assert f"seed {first.seed}" in client.get(URL).content.decode()  # from the cache
    monkeypatch.undo()
    # A newer table of the same setting replaces it at once.
    newer = BalanceTable.publish({**copy.deepcopy(first.result), "seed": 6}, "the command 6")
    html = client.get(URL).content.decode()
    assert "seed 6" in html and "the command 6" in html and newer.pk != first.pk


@pytest.mark.django_db
def test_the_selector_shows_the_newest_table_of_each_setting(client: Client, catalog) -> None:
    patrol = publish()
    result = copy.deepcopy(patrol.result)
    BalanceTable.publish({**result, "size": "battle", "terrain": "section13"}, "battle cmd")
    # No Skirmish table in open space with the standard policy (the default): the newest.
    html = client.get(URL).content.decode()
    assert "battle cmd" in html
    link = "/balance/?size=patrol&amp;policy=standard&amp;terrain=none"
    assert link in html and "Patrol · standard policy · open space" in html
    chosen = client.get(link.replace("&amp;", "&")).content.decode()
    assert patrol.command in chosen and "battle cmd" not in chosen
    assert 'aria-current="page">Patrol · standard policy' in chosen
    assert client.get(URL + "?size=armada&policy=standard&terrain=none").status_code == 404
    assert client.post(URL).status_code == 405
