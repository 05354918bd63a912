"""A hostile fleet file is printed as text and makes the printer fetch nothing."""

from __future__ import annotations

import http.server
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rules_core.cards import AssetFetcher, RefusedURL, render_cards
from rules_core.cards.fetcher import ASSETS, asset_path
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip

from .conftest import Pdf


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:
        _Counter.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"body { background: red }")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    """A real HTTP server on 127.0.0.1 that records every request it gets."""
    _Counter.hits = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Counter)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def hostile_fleet(base: str) -> Fleet:
    return Fleet(
        faction="imperial-navy",
        game_size=GameSize.PATROL,
        name=f'<img src="{base}/fleet.png"><b>Raiders</b>',
        units=(
            ShipUnit(
                "lunar-class-cruiser",
                flagship=True,
                name=f'<link rel="stylesheet" href="{base}/x.css">',
            ),
            ShipUnit("lunar-class-cruiser", name='<style>@import "file:///etc/passwd";</style>'),
            ShipUnit("gothic-class-cruiser", name=f"<svg><image href='{base}/i.svg'/></svg>"),
            Squadron(
                (SquadronShip("sword-class-frigate"),) * 2,
                name=f"<iframe src='{base}/frame'></iframe> & co",
            ),
        ),
    )


@pytest.mark.parametrize("layout", ["poker", "a4"])
def test_markup_in_names_is_printed_literally_and_fetches_nothing(
    real_catalog: Catalog, server: str, layout: str
) -> None:
    fetcher = AssetFetcher()
    pdf = Pdf(render_cards(real_catalog, hostile_fleet(server), layout=layout, fetcher=fetcher))
    # Names may wrap round the points: compare without spaces, in layout and drawing order.
    text = re.sub(r"\s+", "", pdf.text + "".join(pdf.raw_texts))
    for name in (
        f'<img src="{server}/fleet.png"><b>Raiders</b>',
        f'<link rel="stylesheet" href="{server}/x.css">',
        '<style>@import "file:///etc/passwd";</style>',
        f"<iframe src='{server}/frame'></iframe> & co",
    ):
        assert re.sub(r"\s+", "", name) in text
    assert _Counter.hits == []
    assert fetcher.refused == []  # the names never became URLs at all
    # What the document did ask for: drawings made in code (the stat cells, the critical
    # checklist, the arcs and row rules of each weapons list) and, on sheets, the cut marks.
    assert all(s.startswith("drawing:") or s == "cutmarks-a4.svg" for s in fetcher.served)
    assert "drawing:criticals" in fetcher.served


def test_a_url_in_the_share_link_is_text_not_a_fetch(real_catalog: Catalog, server: str) -> None:
    url = f'{server}/shared/"><img src="{server}/qr.png">'
    pdf = Pdf(render_cards(real_catalog, hostile_fleet(server), share_url=url))
    assert re.sub(r"\s+", "", url) in re.sub(r"\s+", "", pdf.page_texts[0])
    assert _Counter.hits == []


def test_the_fetcher_refuses_the_network_and_other_files(server: str) -> None:
    fetcher = AssetFetcher()
    for url in (
        f"{server}/x.css",
        "https://example.org/x.css",
        "ftp://example.org/x",
        "file:///etc/passwd",
        "data:text/css,body{}",
        (ASSETS / "markup.py").as_uri(),  # a project file, but not an asset
        ASSETS.as_uri() + "/../catalog.py",
        ASSETS.as_uri() + "/assets/../../catalog.py",
        "drawing:arc-l-f-r",
        "drawing:../../etc/passwd",
        "drawing:stat-cells-x",
        # arcs and rules only in their exact shape, sizes within a card's
        "drawing:arcs-315-300-0-g1",
        "drawing:arcs-999-300-0-11",
        "drawing:arcs-315-300-0-11/../x",
        "drawing:rules-315-0-0",
        "drawing:rules-315-0-" + "1" * 61,
        "drawing:rules-315-0-" + "9" * 7,
        "drawing:arcs-315-300-0-" + ".".join(["f9"] * 7),
    ):
        with pytest.raises(RefusedURL):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 18
    assert _Counter.hits == []


def test_the_fetcher_serves_the_cards_own_assets() -> None:
    fetcher = AssetFetcher()
    css = fetcher.fetch((ASSETS / "cards.css").as_uri())
    assert css.read().startswith(b"/* Ship cards for print")
    assert asset_path((ASSETS / "assets" / "cutmarks-a4.svg").as_uri()).name == "cutmarks-a4.svg"
    checklist = fetcher.fetch("drawing:criticals")
    assert checklist.read().startswith(b"\x89PNG")
    assert checklist.content_type == "image/png"
    assert fetcher.fetch("drawing:stat-cells").read().startswith(b"\x89PNG")
    # a weapons list's arcs (front-only, then all round over two lines) and its row rules
    assert fetcher.fetch("drawing:arcs-315-300-0-11.f2").read().startswith(b"\x89PNG")
    assert fetcher.fetch("drawing:rules-315-1-12").read().startswith(b"\x89PNG")


def test_assets_are_all_inside_the_package() -> None:
    assert ASSETS == Path(__file__).resolve().parents[2] / "rules_core" / "cards"


def test_control_the_server_does_see_a_fetch_weasyprint_makes(server: str) -> None:
    """Without the cards' fetcher WeasyPrint would fetch a URL in markup: the counter works."""
    from weasyprint import HTML

    HTML(string=f'<img src="{server}/control.png">').write_pdf()
    assert _Counter.hits == ["/control.png"]


def test_a_name_without_spaces_wraps_inside_its_card(real_catalog: Catalog) -> None:
    long = "W" * 100  # the longest name a fleet file allows, with nowhere to break
    fleet = Fleet(
        "imperial-navy",
        GameSize.PATROL,
        (
            ShipUnit("lunar-class-cruiser", flagship=True, name=long),
            Squadron((SquadronShip("sword-class-frigate"),) * 2, name=long),
        ),
        name=long,
    )
    for layout in ("poker", "a4"):
        pdf = Pdf(render_cards(real_catalog, fleet, layout=layout))
        assert len(pdf.card_pages) == (2 if layout == "poker" else 1)
        assert pdf.text.count("W" * 20) >= 3
        for page in pdf.card_pages:
            assert long in re.sub(r"\s+", "", "".join(pdf.raw_texts[page]))
