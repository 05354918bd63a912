"""Players read plain words: a walk over the pages a player reaches finds no
developer word: no "issue N" or "contract N", no source document called "seed 00N", no
``manage.py`` command. The walk starts from the home page and from the pages a player makes
(a fleet with problems in the builder, its shared page, a matchup's and an analysis's results)
and follows the links it finds. The API's docs page is for developers and is not walked.

Problem codes (``points.under_band``) stay in the page for the curious, behind a "Details"
toggle that is closed at first; a matchup's command line waits behind its own closed toggle
(``<details data-curious>``, which the walk does not read)."""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import urldefrag, urlparse

import pytest
from django.test import Client

from fleetbuilder.analysis.models import Analysis
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from rules_core import fleet as rf
from tests.analysis.conftest import FORM, save_fleet, whatif_fleet

pytestmark = pytest.mark.django_db

DEVELOPER_WORDS = re.compile(
    r"\b(?:issue|contract)\s+#?\d+|\bseed\s+0\d\d\b|manage\.py", re.IGNORECASE
)
SKIP = re.compile(
    r"^/(?:api/|admin/|static/|accounts/logout)|\.(?:pdf|json|zip|txt|png|svg"
    r"|atom|xml|ico)$|/(?:feed|trash/empty)/?$"
)
MAX_PAGES = 160
MAX_PER_SHAPE = 4  # pages whose paths differ only in their last part (ships, editions, …)


class Page(HTMLParser):
    """A page's words a player reads (text, titles, labels, placeholders, options) and its
    links."""

    SHOWN_ATTRS = ("title", "aria-label", "placeholder", "alt", "aria-description")

    def __init__(self, html: str) -> None:
        super().__init__()
        self.words: list[str] = []
        self.links: list[str] = []
        self.hidden = 0
        self.curious = 0  # open <details data-curious> (none nest another <details>)
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag in ("script", "style", "template") or (tag == "details" and "data-curious" in a):
            self.hidden += 1
            self.curious += tag == "details"
        if tag == "a" and a.get("href") and "download" not in a:
            self.links.append(a["href"] or "")
        self.words += [a[k] or "" for k in self.SHOWN_ATTRS if a.get(k)]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") or (tag == "details" and self.curious):
            self.hidden -= 1
            if tag == "details":
                self.curious -= 1

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.words.append(data)


def _shape(path: str) -> str:
    """``/ships/orks/kill-kroozer/`` → ``/ships/orks/*``; a top-level page is its own shape."""
    path = path.split("?", 1)[0]
    return re.sub(r"[^/]+/?$", "*", path) if path.strip("/").count("/") else path


def _player_pages(client: Client, catalog: object) -> list[str]:
    """Make what a player makes: a fleet with problems, shared; a matchup; an analysis."""
    fleet = save_fleet(
        client,
        catalog,
        rf.Fleet(
            faction="imperial-navy",
            game_size=rf.GameSize.SKIRMISH,
            name="Problem Patrol",
            units=(
                rf.ShipUnit("lunar-class-cruiser"),
                rf.Squadron((rf.SquadronShip("sword-class-frigate"),)),
            ),
        ),
    )
    fleet.share()
    client.post(
        "/simulator/",
        {
            "a_source": "fleet",
            "a_fleet": str(fleet.pk),
            "b_source": "sample",
            "b_faction": "orks",
            "b_size": "patrol",
            "b_variant": "",
            "battles": "2",
            "max_rounds": "10",
            "table": "",
            "scoring": "core",
            "terrain": "voidscape",
            "movement": "advanced",
            "seed": "1",
        },
    )
    good = save_fleet(client, catalog, whatif_fleet())
    client.post("/analysis/", {**FORM, "a_fleet": str(good.pk), "battles": "2"})
    pages = [
        "/",
        fleet.get_absolute_url(),
        Matchup.objects.get().get_absolute_url(),
        Analysis.objects.get().get_absolute_url(),
        "/fleets/import/",
        "/pack/",
    ]
    return [*pages, fleet.share_url_path()]


def test_no_page_a_player_reaches_shows_developer_words(client: Client, catalog) -> None:
    queue = _player_pages(client, catalog)
    seen: set[str] = set()
    shapes: Counter[str] = Counter()
    found: list[str] = []
    while queue and len(seen) < MAX_PAGES:
        path = queue.pop(0)
        if path in seen or SKIP.search(path) or shapes[_shape(path)] >= MAX_PER_SHAPE:
            continue
        seen.add(path)
        shapes[_shape(path)] += 1
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        page = Page(response.content.decode())
        text = " ".join(" ".join(page.words).split())
        for match in DEVELOPER_WORDS.finditer(text):
            found.append(f"{path}: …{text[max(0, match.start() - 60) : match.end() + 40]}…")
        for href in page.links:
            url = urlparse(urldefrag(href)[0])
            if not url.netloc and url.path.startswith("/"):
                queue.append(url.path + (f"?{url.query}" if url.query else ""))
    assert len(seen) > 40, sorted(seen)
    for must in ("/rules/", "/simulator/", "/balance/", "/gunnery/", "/analysis/"):
        assert must in seen, must
    assert not found, "Developer words on players' pages:\n" + "\n".join(found)


def test_problem_codes_wait_behind_a_closed_details_toggle(client: Client, catalog) -> None:
    fleet = save_fleet(
        client,
        catalog,
        rf.Fleet(
            faction="imperial-navy",
            game_size=rf.GameSize.SKIRMISH,
            name="Problem Patrol",
            units=(
                rf.ShipUnit("lunar-class-cruiser"),
                rf.Squadron((rf.SquadronShip("sword-class-frigate"),)),
            ),
        ),
    )
    page = client.get(fleet.get_absolute_url()).content.decode()
    panel = page[page.index('id="problems-heading"') :]
    panel = panel[: panel.index("</ul>")]
    assert "squadron.too_small" in panel  # still there for the curious, …
    toggle = re.search(r'<details class="problem-codes"[^>]*>\s*<summary[^>]*>([^<]*)<', panel)
    assert toggle and toggle.group(1).strip() == "Details"  # … behind a closed toggle
    assert panel.index('class="problem-codes"') < panel.index('<ul class="problems"')
    assert Fleet.objects.filter(pk=fleet.pk).exists()
