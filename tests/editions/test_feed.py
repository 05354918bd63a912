"""The editions as an Atom feed: a feed reader tells a player when the points change (R-160)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def test_the_feed_is_atom_with_one_entry_per_edition_newest_first(client: Client) -> None:
    response = client.get("/editions/feed/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed"
    assert feed.findtext(f"{ATOM}title") == "Void Command Fleet Builder: catalogue editions"
    entries = feed.findall(f"{ATOM}entry")
    assert [e.findtext(f"{ATOM}title") for e in entries][:2] == [
        "Edition 7 (2026-12, Necrons' Battle ships)",
        "Edition 6 (2026-12-02, fourth calibration)",
    ]
    assert len(entries) == 7
    newest, first = entries[0], entries[-1]
    link = newest.find(f"{ATOM}link")
    assert link is not None and link.get("href") == "http://testserver/editions/7/"
    assert newest.findtext(f"{ATOM}updated") == "2026-12-02T03:35:22+00:00"
    assert feed.findtext(f"{ATOM}updated") == "2026-12-02T03:35:22+00:00"  # the newest's
    summary = newest.findtext(f"{ATOM}summary") or ""
    assert summary.startswith("The Necrons' two Battle-only ships x1.05")
    assert summary.endswith("2 prices changed since edition 6.")
    astartes = entries[2].findtext(f"{ATOM}summary") or ""
    assert "30 to 40 points for the smallest" in astartes
    assert astartes.endswith("10 prices changed since edition 4.")
    assert (first.findtext(f"{ATOM}summary") or "").endswith("The first edition.")
    # Every entry has its own id, kept for good (an edition never changes).
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == 7 and all(i and i.startswith("urn:void-command:edition:") for i in ids)


def test_the_pages_point_feed_readers_to_it(client: Client) -> None:
    for url in ("/editions/", "/editions/3/"):
        html = client.get(url).content.decode()
        assert (
            '<link rel="alternate" type="application/atom+xml" title="Catalogue editions" '
            'href="/editions/feed/">'
        ) in html, url
