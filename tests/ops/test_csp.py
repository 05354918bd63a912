"""Content-Security-Policy: every page says where its scripts and styles may come from, and
every page keeps to it (no inline style, script or event handler), so a browser refuses nothing.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.template.loader import get_template
from django.test import Client

from fleetbuilder.fleets.models import Fleet

pytestmark = pytest.mark.django_db

POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data: blob:",  # blob: the print preview (static/js/print.js)
    "object-src": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}


def directives(header: str) -> dict[str, str]:
    parts = (part.strip().split(None, 1) for part in header.split(";") if part.strip())
    return {name: (rest[0] if rest else "") for name, *rest in parts}


class InlineCode(HTMLParser):
    """Everything in a page that a strict CSP would refuse to apply or run."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower(): value or "" for name, value in attrs}
        if tag == "style":
            self.found.append("<style> element")
        if tag == "script":
            if "src" not in names:
                self.found.append("<script> without src")
        for name, value in names.items():
            if name == "style":
                self.found.append(f'style="{value}" on <{tag}>')
            elif name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"{name} handler on <{tag}>")
            elif value.strip().lower().startswith("javascript:"):
                self.found.append(f"javascript: URL in {name} on <{tag}>")


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    return parser.found


@pytest.fixture
def fleet(client: Client, catalog) -> Fleet:
    """An Imperial Navy fleet with a Lunar cruiser and a squadron of Swords, shared by link."""
    response = client.post(
        "/fleets/new/",
        {
            "name": "Gothic Patrol",
            "faction": "imperial-navy",
            "variant": "",
            "game_size": "skirmish",
        },
    )
    assert response.status_code == 302
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    for ship in ("lunar-class-cruiser", "sword-class-frigate"):
        added = client.post(f"/fleets/{fleet.pk}/add-ship/", {"ship": ship})
        assert added.status_code == 302
    fleet.refresh_from_db()
    fleet.share()
    return fleet


def test_every_page_carries_the_policy(client: Client, catalog) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert directives(response.headers["Content-Security-Policy"]) == POLICY
    # Nothing in it loosens the policy.
    assert "unsafe" not in response.headers["Content-Security-Policy"]


def test_the_main_pages_have_no_inline_style_or_script(client: Client, fleet: Fleet) -> None:
    pages = [
        "/",
        "/ships/",
        "/ships/imperial-navy/",
        "/ships/imperial-navy/lunar-class-cruiser/",
        "/rules/",
        "/fleets/new/",
        f"/fleets/{fleet.pk}/",
        "/fleets/",
        "/fleets/trash/",
        "/fleets/import/",
        f"/fleets/{fleet.pk}/share/",
        fleet.share_url_path(),
        "/gunnery/",
        "/no-such-page/",
    ]
    for path in pages:
        response = client.get(path)
        assert response.status_code in (200, 404), path
        assert "Content-Security-Policy" in response.headers, path
        assert inline_code(response.content.decode()) == [], path


def test_the_builder_regions_swapped_in_by_htmx_have_none_either(
    client: Client, fleet: Fleet
) -> None:
    htmx = {"HX-Request": "true"}
    for region in ("head/", "units/", "meter/", "problems/"):
        html = client.get(f"/fleets/{fleet.pk}/{region}", headers=htmx).content.decode()
        assert inline_code(html) == [], region
    added = client.post(
        f"/fleets/{fleet.pk}/add-ship/", {"ship": "dauntless-class-light-cruiser"}, headers=htmx
    )
    assert added.status_code == 200
    assert inline_code(added.content.decode()) == []


def test_the_account_pages_have_none_either(client: Client, catalog) -> None:
    for path in ("/accounts/login/", "/accounts/signup/", "/accounts/password/reset/"):
        response = client.get(path)
        assert response.status_code == 200, path
        assert inline_code(response.content.decode()) == [], path


def test_the_500_page_takes_its_style_from_a_file() -> None:
    html = get_template("500.html").render({})
    assert inline_code(html) == []
    assert 'href="/static/css/error.css"' in html


def test_the_points_meter_is_drawn_without_style_attributes(client: Client, fleet: Fleet) -> None:
    # A skirmish is 750–1000 points; the meter runs to 1200, so the band starts at 62.5% and is
    # 20.8% wide, and the bar is as long as the points.
    html = client.get(f"/fleets/{fleet.pk}/meter/").content.decode()
    assert "of 750–1000 points" in html
    points = fleet_points(html)
    assert 0 < points < 750
    assert f'<rect class="meter__fill" y="25%" width="{round(100 * points / 1200, 1)}%"' in html
    assert 'x="62.5%" width="20.8%"' in html


def fleet_points(html: str) -> int:
    start = html.index("<strong data-points>") + len("<strong data-points>")
    return int(html[start : html.index("</strong>", start)])
