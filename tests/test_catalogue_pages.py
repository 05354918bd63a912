"""The catalogue and rules pages show what a player looks for, in a fixed number of queries."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from django.test import Client
from pytest_django.asserts import assertInHTML

from rules_core import catalog as core

pytestmark = pytest.mark.django_db

SEED = Path("/work/shared/seeds/000_56e4a3a1deb4fecd.txt")


def page_text(response) -> str:
    """The visible words of a page, tags stripped and whitespace collapsed."""
    body = response.content.decode()
    body = re.sub(r"<(script|style|title)\b.*?</\1>", " ", body, flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", " ", body)).replace("\xa0", " ")
    return re.sub(r"\s+", " ", text)


def get_ok(client: Client, url: str):
    response = client.get(url)
    assert response.status_code == 200, url
    return response


def ship_url(faction: core.Faction, ship: core.ShipProfile) -> str:
    return f"/ships/{faction.slug}/{ship.slug}/"


def find_ship(catalog: core.Catalog, slug: str) -> tuple[core.Faction, core.ShipProfile]:
    for faction in catalog.factions:
        if (ship := faction.ship(slug)) is not None:
            return faction, ship
    raise LookupError(slug)


# --- site shell ------------------------------------------------------------------------------


def test_shell_serves_htmx_locally_with_csrf_header_skip_link_and_nav(client, catalog) -> None:
    body = get_ok(client, "/").content.decode()
    assert re.search(r'<script src="/static/django_htmx/htmx-2(\.min)?\.js"', body)
    assert not re.search(r'(src|href)="(https?:)?//', body), "nothing fetched from the network"
    assert re.search(r'<body hx-headers=\'\{"X-CSRFToken": "[^"]+"\}\'>', body)
    assertInHTML('<a class="skip-link" href="#main">Skip to content</a>', body)
    assert '<main id="main"' in body and "<footer" in body
    assert '<nav class="site-nav" aria-label="Main">' in body
    assert 'href="/ships/"' in body and 'href="/rules/"' in body


def test_stylesheet_and_scripts_are_served(client) -> None:
    for url in ("/static/css/app.css", "/static/js/rules-search.js", "/static/js/ship-filter.js"):
        response = client.get(url)
        assert response.status_code == 200, url
        b"".join(response.streaming_content) if response.streaming else response.content


def test_current_section_is_marked_in_the_nav(client, catalog) -> None:
    assert 'href="/rules/" aria-current="page"' in get_ok(client, "/rules/").content.decode()
    body = get_ok(client, "/ships/imperial-navy/").content.decode()
    assert 'href="/ships/" aria-current="page"' in body


# --- home and ship types ---------------------------------------------------------------------


def test_home_introduces_the_app_and_lists_all_fourteen_factions(client, catalog) -> None:
    response = get_ok(client, "/")
    body = response.content.decode()
    assert len(catalog.factions) == 14
    for faction in catalog.factions:
        assert f'href="/ships/{faction.slug}/"' in body
        assert html.escape(faction.name) in body
    text = page_text(response)
    assert "Ship Types" in text and "Rules" in text
    assert f"{catalog.ship_count} ship profiles" in text


def test_ship_types_groups_factions_by_allegiance_with_ship_counts(client, catalog) -> None:
    text = page_text(get_ok(client, "/ships/"))
    groups = ["Imperial Forces", "Forces of Chaos", "Xenos Empires"]
    starts = [text.index(g) for g in groups]
    assert starts == sorted(starts)
    ends = [*starts[1:], len(text)]
    bounds = dict(zip(["imperium", "chaos", "xenos"], zip(starts, ends, strict=True), strict=True))
    for faction in catalog.factions:
        lo, hi = bounds[faction.allegiance]
        at = text.index(faction.name, lo)
        assert at < hi, f"{faction.name} is listed outside its allegiance"
        n = len(faction.ships)
        assert f"{faction.name} {n} ship{'s' if n != 1 else ''}" in text


# --- faction ---------------------------------------------------------------------------------


def test_faction_page_lists_ships_by_class_escorts_first(client, catalog) -> None:
    navy = catalog.faction("imperial-navy")
    response = get_ok(client, "/ships/imperial-navy/")
    body, text = response.content.decode(), page_text(response)
    for ship in navy.ships:
        assert f'href="{ship_url(navy, ship)}"' in body
    present = [c for c in core.CLASS_ORDER if any(s.ship_class is c for s in navy.ships)]
    headings = [body.index(f'colspan="7">{c.label}') for c in present]
    assert headings == sorted(headings), "class groups run escort to battleship"
    lunar = navy.ship("lunar-class-cruiser")
    cruisers = present.index(core.ShipClass.CRUISER)
    assert headings[cruisers] < body.index(lunar.name) < headings[cruisers + 1]
    stats = f"{lunar.points} {lunar.hull} {lunar.shields} {lunar.armor}\\+ {lunar.speed_cm}"
    assert re.search(rf"{lunar.name}( [a-z-]+)* {stats}", text), "pts, hull, shields, armor, speed"


def test_faction_page_shows_rules_variants_composition_upgrades_refits_and_craft(
    client, catalog
) -> None:
    for faction in catalog.factions:
        text = page_text(get_ok(client, f"/ships/{faction.slug}/"))
        assert faction.description.split()[0] in text
        for rule in faction.special_rules:
            assert rule.name in text
        for variant in faction.variants:
            assert variant.name in text
            for guideline in variant.composition:
                assert guideline.text in text
        for guideline in faction.composition:
            assert guideline.text in text
        for upgrade in (*faction.upgrades, *catalog.refits):
            assert upgrade.name in text
            assert f"+{upgrade.points}" in text
        for craft in faction.attack_craft:
            assert craft.name in text


def test_faction_page_has_a_progressive_ship_filter(client, catalog) -> None:
    body = get_ok(client, "/ships/orks/").content.decode()
    assert re.search(r'<form class="filter" role="search" data-ship-filter hidden', body)
    assertInHTML('<label for="ship-filter">Filter ships</label>', body)
    assert 'id="ship-filter"' in body
    assert "/static/js/ship-filter.js" in body


def test_faction_page_runs_a_fixed_number_of_queries(
    client, catalog, django_assert_max_num_queries
) -> None:
    biggest = max(catalog.factions, key=lambda f: len(f.ships))
    with django_assert_max_num_queries(8):
        get_ok(client, f"/ships/{biggest.slug}/")


def test_unknown_faction_is_404(client, catalog) -> None:
    assert client.get("/ships/no-such-fleet/").status_code == 404


# --- ship ------------------------------------------------------------------------------------


def test_ship_page_shows_the_full_stat_line(client, catalog) -> None:
    navy, lunar = find_ship(catalog, "lunar-class-cruiser")
    text = page_text(get_ok(client, ship_url(navy, lunar)))
    assert lunar.name in text
    for expected in (
        f"Class {lunar.ship_class.label}",
        f"Points {lunar.points}",
        f"Speed {lunar.speed_cm} cm",
        f"Turns {lunar.turns}°",
        f"Leadership {lunar.leadership}",
        f"Shields {lunar.shields}",
        f"Hull {lunar.hull}",
        f"Armor {lunar.armor}+",
        f"Turrets {lunar.turrets}",
        f"All Ahead Full +{lunar.all_ahead_full} cm",
        f"Base {lunar.base_mm} mm",
        f"crippled at {lunar.hull // 2} hull or fewer",
    ):
        assert expected in text


def test_ship_page_lists_weapons_with_arcs_strength_range_and_an_arc_diagram(
    client, catalog
) -> None:
    navy, lunar = find_ship(catalog, "lunar-class-cruiser")
    response = get_ok(client, ship_url(navy, lunar))
    body, text = response.content.decode(), page_text(response)
    for weapon in lunar.weapons:
        assert weapon.name in text
        assert f"{weapon.arc_label} {weapon.strength} {weapon.range_cm} cm" in text
    assert body.count('<svg class="arcs"') == len(lunar.weapons)
    assert "<title" in body and "Fires left" in body


def test_carrier_page_shows_its_attack_craft_and_all_around_bays(client, catalog) -> None:
    faction, ship = next((f, s) for f in catalog.factions for s in f.ships if s.attack_craft)
    text = page_text(get_ok(client, ship_url(faction, ship)))
    craft = {c.slug: c for c in faction.attack_craft}
    for slug in ship.attack_craft:
        assert craft[slug].name in text
    assert "Fires all around" in text or "AA" in text


def test_one_hull_escort_cannot_be_crippled(client, catalog) -> None:
    faction, escort = next((f, s) for f in catalog.factions for s in f.ships if s.hull == 1)
    text = page_text(get_ok(client, ship_url(faction, escort)))
    assert "cannot be crippled" in text and "R-09" in text


def test_large_base_rule_is_called_out(client, catalog) -> None:
    found = [
        (f, s)
        for f in catalog.factions
        for s in f.ships
        if s.base_mm == 60 and s.ship_class.class_base_mm == 32
    ]
    if not found:
        pytest.skip("no ship in the catalogue takes a large base by rule R-10")
    faction, ship = found[0]
    text = page_text(get_ok(client, ship_url(faction, ship)))
    assert "Base 60 mm Large Base Rule R-10" in text


def test_ship_page_runs_a_fixed_number_of_queries(
    client, catalog, django_assert_max_num_queries
) -> None:
    faction, ship = max(
        ((f, s) for f in catalog.factions for s in f.ships),
        key=lambda fs: len(fs[1].weapons) + len(fs[1].attack_craft),
    )
    with django_assert_max_num_queries(4):
        get_ok(client, ship_url(faction, ship))


def test_unknown_or_mismatched_ship_is_404(client, catalog) -> None:
    assert client.get("/ships/imperial-navy/no-such-ship/").status_code == 404
    assert client.get("/ships/orks/lunar-class-cruiser/").status_code == 404


# --- rules -----------------------------------------------------------------------------------


CRITICALS = [
    (2, "Shields Collapse"),
    (3, "Thrusters Damaged"),
    (4, "Armament Damaged"),
    (5, "Prow Armament Damaged"),
    (6, "Starboard Armament Damaged"),
    (7, "Port Armament Damaged"),
    (8, "Dorsal Armament Damaged"),
    (9, "Fire!"),
    (10, "Hull Breach"),
    (11, "Bulkhead Collapse"),
    (12, "Bridge Destroyed"),
]


def test_rules_page_has_the_critical_hit_table(client, catalog) -> None:
    text = page_text(get_ok(client, "/rules/"))
    assert "Critical hit table (2d6)" in text
    for roll, result in CRITICALS:
        assert f"{roll} {result}" in text


def test_rules_page_reads_admiral_ranks_from_the_database(client, catalog) -> None:
    from fleetbuilder.catalog.models import AdmiralRank

    rank = AdmiralRank.objects.get(slug="commodore")
    rank.points = 26
    rank.save()  # as an admin edit does: it changes the catalogue version, so the cached page
    text = page_text(get_ok(client, "/rules/"))
    for rank in catalog.admirals:
        points = 26 if rank.slug == "commodore" else rank.points
        assert f"{rank.name} +{points} +{rank.leadership_bonus}" in text


def test_rules_page_sections_contents_and_search(client, catalog) -> None:
    body = get_ok(client, "/rules/").content.decode()
    sections = re.findall(r'<section class="rules-section" id="([a-z-]+)"', body)
    for needed in (
        "fleet-sizes",
        "bases",
        "game-round",
        "special-orders",
        "movement",
        "squadrons",
        "gunnery",
        "critical-hits",
        "catastrophic-damage",
        "crippled",
        "reactions",
        "nova-cannon",
        "boarding",
        "ramming",
        "ordnance",
        "terrain",
        "victory",
        "fleet-command",
    ):
        assert needed in sections
        assert f'<a href="#{needed}">' in body, f"{needed} is in the table of contents"
    assert 'id="rules-search"' in body and 'aria-live="polite"' in body
    assert "/static/js/rules-search.js" in body
    for ruling in ("R-01", "R-04", "R-09", "R-10", "R-12"):
        assert ruling in body


def test_rules_page_is_in_the_projects_own_words(client, catalog) -> None:
    if not SEED.exists():
        pytest.skip("seed text not available")
    text = page_text(get_ok(client, "/rules/")).lower()
    seed = re.sub(r"[*#|`]", " ", SEED.read_text(encoding="utf-8"))
    sentences = [re.sub(r"\s+", " ", s).strip().lower() for s in re.split(r"[.:\n]", seed)]
    copied = [s for s in sentences if len(s.split()) >= 9 and s in text]
    assert not copied, copied
