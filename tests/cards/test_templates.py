"""The cards' HTML comes from autoescaped Jinja2 templates: a name is printed as the characters
it is, markup and template syntax included, and the templates are compiled once a process."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from rules_core.cards import cards_html, markup
from rules_core.catalog import Catalog
from rules_core.fleet import Fleet, GameSize, ShipUnit, Squadron, SquadronShip

# Markup, both quotes, an ampersand, and Jinja's three kinds of tag: were any of it evaluated,
# the name would come out changed ("49", "evaluated" alone, the comment gone) or as elements.
HOSTILE = (
    "<script>alert(\"x\")</script> & 'q' {{ 7*7 }} {% if true %}evaluated{% endif %} "
    "{# gone #} {{ cards }} {% include 'card.html' %}"
)
SHARE_URL = f"https://example.org/s/{HOSTILE}"


class Page(HTMLParser):
    """The elements of a document, each with its attributes and the text directly inside."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None], list[str]]] = []
        self._open: list[int] = []
        self.feed(source)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs), []))
        if tag not in ("meta", "img", "br", "path"):
            self._open.append(len(self.elements) - 1)

    def handle_endtag(self, tag: str) -> None:
        while self._open and self.elements[self._open.pop()][0] != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._open:
            self.elements[self._open[-1]][2].append(data)

    def texts(self, tag: str) -> list[str]:
        return ["".join(text) for name, _, text in self.elements if name == tag]

    def tags(self) -> set[str]:
        return {name for name, _, _ in self.elements}


@pytest.fixture
def hostile() -> Fleet:
    return Fleet(
        faction="imperial-navy",
        game_size=GameSize.PATROL,
        name=HOSTILE,
        notes=HOSTILE,
        units=(
            ShipUnit("lunar-class-cruiser", flagship=True, name=HOSTILE),
            Squadron((SquadronShip("sword-class-frigate"),) * 2, name=HOSTILE),
        ),
    )


def test_a_hostile_name_is_printed_as_text_and_its_template_syntax_is_not_run(
    real_catalog: Catalog, hostile: Fleet
) -> None:
    source = cards_html(real_catalog, hostile, share_url=SHARE_URL)
    page = Page(source)
    assert page.tags().isdisjoint({"script", "iframe", "link", "style", "object"})
    assert "<script" not in source and "&lt;script&gt;" in source
    # The fleet's name heads the roster and names the document, unchanged.
    assert page.texts("title") == [f"{HOSTILE} · ship cards"]
    assert page.texts("h1") == [HOSTILE]
    # Each unit's name on its roster line and as its card's title.
    assert [t for t in page.texts("b") if t.endswith(HOSTILE)] == [f"1. {HOSTILE}", f"2. {HOSTILE}"]
    assert page.texts("h2") == [HOSTILE, HOSTILE]
    # The share link is printed under its QR code as it is.
    assert page.texts("figcaption") == [SHARE_URL]


def test_the_qr_code_is_the_only_markup_not_escaped_and_holds_no_text_of_the_link(
    real_catalog: Catalog, hostile: Fleet
) -> None:
    """markup.qr_svg is taken as markup: segno's drawing of the code, path data only."""
    svg = str(markup.qr_svg(SHARE_URL))
    assert re.fullmatch(
        r'<svg viewBox="[\d ]+" class="segno"><path class="qrline" '
        r'stroke="#000" d="[Mmhv\d .-]+"/></svg>',
        svg,
    )
    assert svg in cards_html(real_catalog, hostile, share_url=SHARE_URL)


def test_the_templates_are_compiled_once_a_process(
    real_catalog: Catalog, hostile: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = cards_html(real_catalog, hostile)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a card template was read or compiled again")

    monkeypatch.setattr(markup.ENV.loader, "get_source", refuse)
    monkeypatch.setattr(markup.ENV, "compile", refuse)
    assert cards_html(real_catalog, hostile) == first
