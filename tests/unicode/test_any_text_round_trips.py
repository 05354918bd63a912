"""Any Unicode through import → save → export → share → cards, on the configured database: no
answer is a 500, text R-94 forbids is refused with a 400 and stores nothing, and text it allows
comes back exactly (notes with their line ends as LF)."""

from __future__ import annotations

import json
import re
import unicodedata
from html import unescape
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core import sharecode
from rules_core.sample_fleets import sample_fleet

pytestmark = pytest.mark.django_db

# Every code point, surrogates and controls included, with the edges drawn often.
EDGES = [
    "\ud800",
    "\udbff",
    "\udc00",
    "\udfff",
    "\x00",
    "\x01",
    "\x1f",
    "\x7f",
    "\x85",
    "\x9f",
    "\t",
    "\n",
    "\r",
    "\r\n",
    "\ufdd0",
    "\ufdef",
    "\ufffe",
    "\uffff",
    "\U0001fffe",
    "\U0010ffff",
    "\ufffd",
    "\u200d",
    "\u202e",
    "\u2028",
    "\u0301",
    "👩‍🚀",
    "\ue000",
    "\U0010fffd",
    " ",
    '"',
    "<",
    "&",
    "\\",
]
chars = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())
wild = st.lists(chars | st.sampled_from(EDGES), max_size=12).map("".join)
# Text of any script without controls or surrogates (noncharacters may still come).
tame = st.lists(
    st.characters(exclude_categories=("Cs", "Cc"))
    | st.sampled_from([e for e in EDGES if e.isprintable() or e in "\u200d\u202e"]),
    max_size=12,
).map("".join)


@st.composite
def three_texts(draw: st.DrawFn) -> tuple[str, str, str]:
    """A fleet name, a unit name and notes: all tame, or one of them wild."""
    wild_one = draw(st.integers(0, 3))
    return tuple(draw(wild if i == wild_one else tame) for i in (1, 2, 3))  # type: ignore[return-value]


def allowed(text: str, *, multiline: bool = False) -> bool:
    """R-94, written again here from the ruling's words (not from rules_core/text.py)."""
    for char in text:
        code = ord(char)
        if unicodedata.category(char) == "Cs":
            return False
        if unicodedata.category(char) == "Cc" and not (multiline and char in "\t\n"):
            return False
        if 0xFDD0 <= code <= 0xFDEF or code & 0xFFFF in (0xFFFE, 0xFFFF):
            return False
    return True


def preview(client: Client, text: str) -> Any:
    return client.post("/fleets/import/", {"text": text})


def saved_value(page: str) -> str:
    """The normalised fleet file the preview's Save button sends."""
    return unescape(re.search(r'name="save" value="([^"]*)"', page).group(1))


@settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(texts=three_texts())
def test_any_text_is_refused_or_round_trips_and_nothing_answers_500(
    catalog, texts: tuple[str, str, str]
) -> None:
    name, unit_name, notes = texts
    client = Client()  # raises the view's exception, so a 500 fails the test at once
    doc = rf.fleet_to_dict(sample_fleet(catalog, "imperial-navy", "patrol"))
    doc["units"] = doc["units"][:1]  # one card: the PDF stays quick
    doc["units"][0]["name"] = unit_name
    doc.update(name=name, notes=notes)
    file_text = json.dumps(doc, ensure_ascii=True)  # lone surrogates as "\ud800" escapes
    before = Fleet.objects.count()
    expected_notes = notes.replace("\r\n", "\n").replace("\r", "\n")
    ok = allowed(name) and allowed(unit_name) and allowed(expected_notes, multiline=True)

    response = preview(client, file_text)
    event("accepted" if ok else "refused")
    if not ok:
        assert response.status_code == 400
        assert "contains a" in unescape(response.content.decode())
        saved = client.post("/fleets/import/", {"save": file_text})
        assert saved.status_code == 302
        assert Fleet.objects.count() == before
        return
    assert response.status_code == 200
    saved = client.post("/fleets/import/", {"save": saved_value(response.content.decode())})
    assert saved.status_code == 302
    fleet = Fleet.objects.get(pk=int(saved.headers["Location"].strip("/").split("/")[-1]))

    exported = json.loads(client.get(f"/fleets/{fleet.pk}/export.json").content)
    assert (exported["name"], exported["units"][0]["name"], exported["notes"]) == (
        name,
        unit_name,
        expected_notes,
    )
    assert client.post(f"/fleets/{fleet.pk}/share/link/", {"action": "on"}).status_code == 302
    fleet.refresh_from_db()
    link = fleet.share_url_path()
    for url in (
        f"/fleets/{fleet.pk}/share/",
        f"/fleets/{fleet.pk}/",
        link,
        link + "fleet.txt",
        "/fleets/",
    ):
        assert client.get(url).status_code == 200, url
    assert json.loads(client.get(link + "fleet.json").content) == exported
    code = sharecode.encode(fleet.to_core())
    assert sharecode.decode(code) == fleet.to_core()
    assert client.get(f"/fleets/code/{code}/").status_code == 200
    text = client.get(f"/fleets/{fleet.pk}/export.txt").content.decode()
    again = preview(client, text)
    assert again.status_code == 200  # the text list reads back, to the same fleet
    assert json.loads(saved_value(again.content.decode())) == exported
    pdf = client.get(link + "cards.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
