"""The gunnery calculator page, through the test client: the numbers a player reads are
``rules_core.odds``' exact numbers for the same attack (R-54)."""

from __future__ import annotations

import html
import re
from urllib.parse import urlencode

import pytest
from django.test import Client

from rules_core.catalog import Catalog, ShipProfile
from rules_core.odds import VolleyOdds, volley_odds

URL = "/gunnery/"
ROW_RE = re.compile(
    r'<tr class="row--(\w+)"><th scope="row" class="num">(\d+)</th>'
    r'<td class="num">([^<]+)</td><td class="num">([^<]+)</td>'
)


def pct(p: float) -> str:
    return f"{p * 100:.2f}\u00a0%"


def stat(page: str, name: str) -> str | None:
    match = re.search(rf'id="stat-{name}">([^<]+)<', page)
    return match.group(1) if match else None


def result(page: str) -> str:
    match = re.search(r'<section id="gunnery-result".*?</section>', page, re.S)
    assert match, "no result section"
    return match.group(0)


def ship(catalog: Catalog, faction: str, slug: str) -> ShipProfile:
    found = catalog.faction(faction).ship(slug)
    assert found is not None
    return found


def weapon_key(profile: ShipProfile, name: str) -> str:
    return str(next(i for i, w in enumerate(profile.weapons) if w.name == name))


def get(client: Client, **params: object) -> str:
    response = client.get(URL + "?" + urlencode(params))
    assert response.status_code == 200
    return response.content.decode()


def assert_page_shows(page: str, odds: VolleyOdds) -> None:
    data = odds.to_dict()
    assert stat(page, "mean") == f"{data['mean_hull_damage']:.3f}"
    assert stat(page, "crippled") == pct(data["p_crippled"])
    assert stat(page, "destroyed") == pct(data["p_destroyed"])
    assert stat(page, "criticals") == f"{data['expected_criticals']:.3f}"
    rows = ROW_RE.findall(page)
    assert rows, "no table rows"
    at_least = 1.0
    for outcome, k, exactly, at_least_text in rows:
        p = data["hull_damage"][int(k)]
        assert exactly == pct(p), k
        assert at_least_text == pct(at_least), k
        at_least -= p
        assert outcome in {"afloat", "crippled", "destroyed"}


def test_catalogue_attack_shows_the_exact_odds(client: Client, catalog: Catalog) -> None:
    lunar = ship(catalog, "imperial-navy", "lunar-class-cruiser")
    murder = ship(catalog, "archenemy", "murder-class-cruiser")
    battery = next(w for w in lunar.weapons if w.name == "Port Weapons Battery")
    page = get(
        client,
        faction="imperial-navy",
        attacker=lunar.slug,
        weapon=weapon_key(lunar, battery.name),
        target=murder.slug,
        range_cm=15,
        current_hull=6,
        order="come_to_new_heading",
    )
    expected = volley_odds(
        "battery",
        battery.strength,
        armor=murder.armor,
        shields=murder.shields,
        hull=6,
        max_hull=murder.hull,
        range_cm=15,
        to_hit_mod=-1,
        turrets=murder.turrets,
    )
    assert_page_shows(page, expected)
    assert "Lunar Class Cruiser: Port Weapons Battery" in page
    assert "R-40" in result(page) and "R-54" in result(page)
    # the chart is an accessible image with a bar per row and the "at least" line
    assert 'role="img"' in page and '<title id="chart-title">' in page and "<desc" in page
    assert page.count('class="bar bar--') == len(ROW_RE.findall(page))
    assert 'class="chart-line"' in page


def test_custom_weapon_and_custom_target(client: Client, catalog: Catalog) -> None:
    page = get(
        client,
        weapon="custom",
        weapon_type="lance",
        strength=4,
        armor=4,
        shields=1,
        hull=6,
        turrets=2,
        range_cm=40,
        order="lock_on",
        cover="on",
        braced="on",
        blast_markers=1,
    )
    # Lock On +1 and cover -1 cancel; one marker takes the shields down
    expected = volley_odds(
        "lance",
        4,
        armor=4,
        shields=1,
        hull=6,
        to_hit_mod=0,
        braced=True,
        blast_markers=1,
        turrets=2,
        range_cm=40,
    )
    assert_page_shows(page, expected)
    assert "Custom target" in page and "R-44" in result(page)


def test_torpedoes_meet_the_turrets_of_a_crippled_ship_halved(
    client: Client, catalog: Catalog
) -> None:
    cobra = ship(catalog, "imperial-navy", "cobra-class-destroyer")
    index, weapon = next((i, w) for i, w in enumerate(cobra.weapons) if w.type == "torpedo")
    page = get(
        client,
        attacker=cobra.slug,
        weapon=index,
        weapon_type="battery",
        armor=5,
        shields=2,
        hull=8,
        turrets=4,
        current_hull=3,
        range_cm=20,
    )
    expected = volley_odds(
        "torpedo", weapon.strength, armor=5, shields=2, hull=3, max_hull=8, turrets=2
    )
    assert_page_shows(page, expected)
    assert "R-50" in result(page)


def test_assault_boats_show_expected_criticals(client: Client, catalog: Catalog) -> None:
    page = get(
        client,
        weapon="custom",
        weapon_type="assault_boats",
        strength=4,
        armor=5,
        shields=2,
        hull=8,
        turrets=2,
        range_cm=10,
    )
    expected = volley_odds("assault_boats", 4, armor=5, shields=2, hull=8, turrets=2)
    assert stat(page, "criticals") == f"{float(expected.expected_criticals):.3f}"
    assert stat(page, "mean") is None
    assert "R-53" in result(page)


@pytest.mark.parametrize(
    "params, field",
    [
        ({"strength": 41}, "Strength"),
        ({"strength": "lots"}, "Strength"),
        ({"armor": 9}, "Armor"),
        ({"range_cm": -5}, "Range (cm)"),
        ({"range_cm": ""}, "Range (cm)"),
        ({"current_hull": 9}, "Current hull"),
        ({"blast_markers": 99}, "Blast markers"),
        ({"attacker": "no-such-ship", "weapon": "0"}, "Weapon"),
        ({"target": "no-such-ship"}, "Target ship"),
        ({"weapon_type": "nova_cannon"}, "Custom weapon"),
        ({"order": "all_ahead_full"}, "Attacker's special order"),
    ],
)
def test_bad_input_is_a_form_error_not_a_crash(
    client: Client, catalog: Catalog, params: dict[str, object], field: str
) -> None:
    base = {
        "weapon": "custom",
        "weapon_type": "battery",
        "strength": 6,
        "armor": 5,
        "shields": 1,
        "hull": 8,
        "turrets": 2,
        "range_cm": 20,
    }
    page = get(client, **{**base, **params})
    section = html.unescape(result(page))
    assert "Check these values" in section
    assert f"{field}</a>:" in section
    assert stat(page, "mean") is None
    assert 'aria-invalid="true"' in page  # the field itself is marked in the full page


def test_an_empty_query_shows_a_default_calculation(client: Client, catalog: Catalog) -> None:
    page = get(client)
    assert stat(page, "mean") is not None
    assert '<form class="gunnery-form panel" method="get" action="/gunnery/"' in page
    assert '<a href="/gunnery/" aria-current="page">Gunnery</a>' in page


def test_htmx_request_gets_only_the_result_partial(client: Client, catalog: Catalog) -> None:
    params = {
        "weapon": "custom",
        "weapon_type": "battery",
        "strength": 6,
        "armor": 5,
        "shields": 1,
        "hull": 8,
        "turrets": 2,
        "range_cm": 20,
    }
    full = client.get(URL, params)
    partial = client.get(URL, params, headers={"HX-Request": "true", "HX-Trigger-Name": "range_cm"})
    body = partial.content.decode()
    assert body.lstrip().startswith('<section id="gunnery-result"')
    assert "<html" not in body and "<form" not in body
    assert body.count("hx-swap-oob") == 1  # only the screen-reader status, no selects
    assert (
        'id="gunnery-status" class="visually-hidden" role="status" hx-swap-oob="true">Mean' in body
    )
    assert result(body) == result(full.content.decode())
    assert "HX-Request" in partial["Vary"]


def test_changing_the_ship_refreshes_the_weapon_select_out_of_band(
    client: Client, catalog: Catalog
) -> None:
    ork_ships = catalog.faction("orks").ships
    response = client.get(
        URL,
        {
            "faction": "orks",
            "attacker": "lunar-class-cruiser",
            "weapon": "0",
            "range_cm": 10,
            "target": "lunar-class-cruiser",
        },
        headers={"HX-Request": "true", "HX-Trigger-Name": "faction"},
    )
    body = response.content.decode()
    assert 'id="attacker-field" hx-swap-oob="true"' in body
    assert 'id="weapon-field" hx-swap-oob="true"' in body
    # the Lunar is not an Ork ship: the faction's first ship with a weapon is chosen instead
    assert "Lunar Class Cruiser:" not in result(body)
    assert any(f"{s.name}:" in result(body) for s in ork_ships)
    assert "Imperial Navy" not in body.split('id="attacker-field"')[1].split("</select>")[0]


def test_out_of_range_says_so_instead_of_odds(client: Client, catalog: Catalog) -> None:
    lunar = ship(catalog, "imperial-navy", "lunar-class-cruiser")
    battery = next(w for w in lunar.weapons if w.name == "Port Weapons Battery")
    page = get(
        client,
        attacker=lunar.slug,
        weapon=weapon_key(lunar, battery.name),
        target=lunar.slug,
        range_cm=battery.range_cm + 1,
    )
    assert "Out of range." in page and "no hits are possible" in page
    assert stat(page, "mean") is None and not ROW_RE.findall(page)


def test_lock_on_extends_a_lances_reach(client: Client, catalog: Catalog) -> None:
    lunar = ship(catalog, "imperial-navy", "lunar-class-cruiser")
    lance = next(w for w in lunar.weapons if w.type == "lance")
    params = {
        "attacker": lunar.slug,
        "weapon": weapon_key(lunar, lance.name),
        "target": lunar.slug,
        "range_cm": lance.range_cm + 10,
    }
    assert "Out of range." in get(client, **params)
    page = get(client, **params, order="lock_on")  # +15 cm for lances
    expected = volley_odds(
        "lance",
        lance.strength,
        armor=lunar.armor,
        shields=lunar.shields,
        hull=lunar.hull,
        to_hit_mod=1,
    )
    assert_page_shows(page, expected)


def test_the_link_reproduces_the_calculation(client: Client, catalog: Catalog) -> None:
    page = get(
        client,
        faction="imperial-navy",
        attacker="lunar-class-cruiser",
        weapon="2",
        target="murder-class-cruiser",
        range_cm=25,
        hesitant="on",
        blast_markers=2,
    )
    link = html.unescape(
        re.search(r'id="gunnery-link-input" type="url" readonly value="([^"]+)"', page).group(1)
    )
    assert link.startswith("http://testserver/gunnery/?")
    again = client.get(link.removeprefix("http://testserver"))
    assert again.status_code == 200
    assert result(again.content.decode()) == result(page)


def test_only_get_is_allowed(client: Client, catalog: Catalog) -> None:
    assert client.post(URL).status_code == 405


def test_picking_a_ship_uses_its_weapons_instead_of_the_custom_one(
    client: Client, catalog: Catalog
) -> None:
    lunar = ship(catalog, "imperial-navy", "lunar-class-cruiser")
    params = {
        "attacker": lunar.slug,
        "weapon": "custom",
        "weapon_type": "battery",
        "strength": 6,
        "armor": 5,
        "shields": 1,
        "hull": 8,
        "turrets": 2,
        "range_cm": 20,
    }
    picked = client.get(URL, params, headers={"HX-Request": "true", "HX-Trigger-Name": "attacker"})
    assert f"Lunar Class Cruiser: {lunar.weapons[0].name}" in picked.content.decode()
    # a custom weapon chosen on purpose, with the ship still selected, stays custom
    kept = client.get(URL, params, headers={"HX-Request": "true", "HX-Trigger-Name": "weapon"})
    assert "Custom weapons battery" in kept.content.decode()
