"""Importing BattleScribe and New Recruit Battlefleet Gothic rosters (R-190).

Every roster here is written by tests/importers/rosters.py from the real BSData entry ids the
crosswalk records, as BattleScribe writes them ("linkId::entryId" paths, each selection's own
cost, a custom name, ``number``)."""

from __future__ import annotations

import json
import time
import zipfile
from io import BytesIO, StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from rules_core import fleet as rf
from rules_core.importers import crosswalk
from rules_core.importers.battlescribe import BY_ID, BY_NAME, IGNORED, NOT_MATCHED, import_roster
from rules_core.importers.roster import RosterError, read_roster

from .rosters import Sel, as_json, find, ros, rosz

pytestmark = pytest.mark.django_db

CW = crosswalk.load()


def force(name: str) -> str:
    return next(k for k, v in CW.forces.items() if v.name == name)


def made(data: bytes):
    number = editions.current_number()
    return import_roster(read_roster(data), editions.catalog_for(number), CW, edition=number)


def orks_roster() -> bytes:
    """Hand-checked roster 1: a named Kill Kroozer with the Warlord, a Terror Ship, and an
    escort squadron of three Savage Gunships (BattleScribe's "Escort Squadron" group)."""
    return ros(
        force("Ork Waaagh!"),
        [
            Sel(
                find("ship", "Ork Kill Kroozer"),
                custom_name="Da Big Red",
                children=[Sel(find("commander", "Ork Warlord"), points=40)],
            ),
            Sel(find("ship", "Ork Terror Ship")),
            Sel(
                "e774-548d-9436-6e14",
                name="Escort Squadron",
                points=0,
                children=[Sel(find("ship", "Savage Gunship"), number=3)],
            ),
        ],
        name="Waaagh Grimtoof",
    )


def imperial_roster() -> bytes:
    """Hand-checked roster 2: an admiral bought apart from any ship (as Imperium lists do), a
    Lunar with a refit, two Gothics (number 2), a squadron of Swords, an Inquisitorial cruiser
    (no counterpart) and a weapon option (none either)."""
    return ros(
        force("Gothic Sector"),
        [
            Sel(find("commander", "Admiral Ldr 9"), points=100, type="unit", link=False),
            Sel(
                find("ship", "Lunar Class Cruiser", "Battlefleet Gothic"),
                custom_name="Fist of Bakka",
                children=[
                    Sel(
                        find("upgrade", "Improved Thrusters")
                        if _has("Improved Thrusters")
                        else "nope",
                        name="Improved Thrusters",
                        points=10,
                    )
                ],
            ),
            Sel(find("ship", "Gothic Class Cruiser", "Battlefleet Gothic"), number=2),
            Sel(find("ship", "Sword Frigate", "Imperial Navy"), number=3),
            Sel(find("ship", "Inquisitorial Cruiser", "Armada Imperialis")),
        ],
        name="Gothic Sector Patrol",
    )


def _has(name: str) -> bool:
    return any(e.name == name and e.kind == "upgrade" for e in CW.entries.values())


# --- the two hand-checked rosters ---------------------------------------------------------------


def test_r190_an_ork_roster_imports_as_checked_by_hand(catalog) -> None:
    result = made(orks_roster())
    fleet, report = result.fleet, result.report
    assert (fleet.faction, fleet.variant, fleet.name) == ("orks", None, "Waaagh Grimtoof")
    big, terror, escorts = fleet.units
    assert (big.ship, big.name, big.flagship, big.admiral) == (
        "ork-kill-kroozer",
        "Da Big Red",
        True,
        "vice-admiral",
    )  # the Warlord: R-190's table
    assert terror.ship == "ork-terror-ship" and not terror.flagship
    assert [s.ship for s in escorts.ships] == ["savage-gunship"] * 3
    # Each selection, and how it was matched.
    assert [(line.name, line.status, line.became) for line in report.lines] == [
        ("Da Big Red (Ork Kill Kroozer)", BY_ID, "Ork Kill Kroozer"),
        ("Ork Warlord", BY_ID, "Vice Admiral"),
        ("Ork Terror Ship", BY_ID, "Ork Terror Ship"),
        ("Escort Squadron", IGNORED, ""),
        ("Savage Gunship", BY_ID, "Savage Gunship"),
    ]
    # The roster's points (BSData: 155 + 40, 185, 3 × 30) against these (the unit reports).
    catalog7 = editions.catalog_for(fleet.edition)
    orks = catalog7.faction("orks")
    kroozer, terror_ship, gunship = (
        orks.ship(s).points for s in ("ork-kill-kroozer", "ork-terror-ship", "savage-gunship")
    )
    admiral = catalog7.admiral("vice-admiral").points
    assert [(u.label, u.roster_points, u.points) for u in report.units] == [
        ("Da Big Red", 195.0, kroozer + admiral),
        ("Ork Terror Ship", 185.0, terror_ship),
        ("3 × Savage Gunship", 90.0, 3 * gunship),
    ]
    assert report.roster_points == 470.0
    assert report.points == kroozer + admiral + terror_ship + 3 * gunship
    assert report.points == result.validation.points
    assert report.difference == report.points - 470


def test_r190_an_imperial_roster_with_a_loose_admiral_and_a_stranger(catalog) -> None:
    result = made(imperial_roster())
    fleet, report = result.fleet, result.report
    assert fleet.faction == "imperial-navy"
    ships = [
        u.ship if isinstance(u, rf.ShipUnit) else [s.ship for s in u.ships] for u in fleet.units
    ]
    assert ships == [
        "lunar-class-cruiser",
        "gothic-class-cruiser",
        "gothic-class-cruiser",
        ["sword-class-frigate"] * 3,
    ]
    lunar = fleet.units[0]
    # The admiral bought apart commands the most expensive capital ship: a Gothic (180) over
    # the Lunar (Ld 9: Vice Admiral, R-190).
    costs = {
        u.ship: editions.catalog_for(fleet.edition).faction("imperial-navy").ship(u.ship).points
        for u in fleet.units
        if isinstance(u, rf.ShipUnit)
    }
    flagship = next(u for u in fleet.units if isinstance(u, rf.ShipUnit) and u.flagship)
    assert flagship.admiral == "vice-admiral" and costs[flagship.ship] == max(costs.values())
    assert lunar.name == "Fist of Bakka"
    by_name = {line.name: line for line in report.lines}
    assert by_name["Admiral Ldr 9"].became == "Vice Admiral"
    stranger = by_name["Inquisitorial Cruiser"]
    assert (stranger.status, stranger.reason) == (
        NOT_MATCHED,
        "Left out: no ship here is the Inquisitorial Cruiser.",
    )
    thrusters = by_name["Improved Thrusters"]  # not in the crosswalk: this game's refit, by name
    assert (thrusters.status, thrusters.became) == (BY_NAME, "Improved Thrusters")
    assert "improved-thrusters" in lunar.upgrades
    assert by_name["Gothic Class Cruiser"].number == 2
    # Two Gothics of one selection share its cost; the loose admiral's is the flagship's.
    units = {(u.label, u.roster_points) for u in report.units}
    assert ("Gothic Class Cruiser", 180.0) in units and ("Fist of Bakka", 290.0) in units
    assert [line.name for line in report.not_matched] == ["Inquisitorial Cruiser"]


# --- every faction with a counterpart -----------------------------------------------------------


def _one_force_per_faction() -> dict[str, str]:
    out: dict[str, str] = {}
    for key, listed in sorted(CW.forces.items(), key=lambda kv: kv[1].name):
        if listed.faction and listed.faction not in out:
            out[listed.faction] = key
    return out


@pytest.mark.parametrize("faction", sorted(_one_force_per_faction()))
def test_r190_a_roster_of_each_faction_with_a_counterpart_imports(faction: str, catalog) -> None:
    key = _one_force_per_faction()[faction]
    ships = [
        (k, e)
        for k, e in CW.entries.items()
        if e.kind == "ship" and e.target and e.faction == faction
    ]
    catalog7 = editions.catalog_for(editions.current_number())
    own = catalog7.faction(faction)
    capital = next((k, e) for k, e in ships if own.ship(e.target).ship_class.value != "escort")
    escort = next(
        ((k, e) for k, e in ships if own.ship(e.target).ship_class.value == "escort"), None
    )
    selections = [Sel(capital[0], custom_name="Pride of the Fleet")]
    if escort:
        selections.append(Sel(escort[0], number=2))
    result = made(ros(key, selections))
    assert result.fleet.faction == faction
    assert result.fleet.units[0].ship == capital[1].target
    assert result.fleet.units[0].name == "Pride of the Fleet"
    if escort:
        assert [s.ship for s in result.fleet.units[1].ships] == [escort[1].target] * 2
    assert all(line.status in (BY_ID, BY_NAME) for line in result.report.lines)


def test_r190_a_selection_unknown_by_id_is_matched_by_name(catalog) -> None:
    result = made(
        ros(
            force("Ork Waaagh!"),
            [Sel("0000-newer-bsdata-entry", name="Ork Kill Kroozer", points=155, type="unit")],
        )
    )
    assert result.fleet.units[0].ship == "ork-kill-kroozer"
    assert result.report.lines[0].status == BY_NAME


# --- the three forms ------------------------------------------------------------------------------


def test_r190_rosz_and_new_recruit_json_make_the_same_fleet(catalog) -> None:
    data = orks_roster()
    fleets = [made(form).fleet for form in (data, rosz(data), as_json(data))]
    assert fleets[0] == fleets[1] == fleets[2]
    assert [read_roster(f).format for f in (data, rosz(data), as_json(data))] == [
        "ros",
        "rosz",
        "json",
    ]


def test_r190_a_roster_of_no_counterpart_is_refused_with_why(catalog) -> None:
    with pytest.raises(RosterError, match="Inquisition"):
        made(
            ros(
                force("Emperor's Inquisition Fleet List"),
                [Sel(find("ship", "Inquisitorial Cruiser", "Armada Imperialis"))],
            )
        )


# --- hostile files ------------------------------------------------------------------------------

BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
<!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">]>
<roster name="&lol4;"><forces/></roster>"""
XXE = b"""<?xml version="1.0"?>
<!DOCTYPE roster [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<roster name="&secret;"><forces/></roster>"""


def _zip_bomb() -> bytes:
    buffer = BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("roster.ros", b"<roster>" + b" " * (1900 * 1024) + b"</roster>")
    return buffer.getvalue()


def _deep() -> bytes:
    inner = "<selection name='x'><selections>" * 60 + "</selections></selection>" * 60
    return (
        f"<roster><forces><force><selections>{inner}</selections></force></forces></roster>"
    ).encode()


HOSTILE = {
    "billion laughs": (BOMB, "DTD"),
    "external entity": (XXE, "DTD"),
    "zip bomb": (_zip_bomb(), "zip bomb"),
    "deep nesting": (_deep(), "deep"),
    "truncated": (b"<?xml version='1.0'?><roster name='a'><forces><force>", "well-formed"),
    "truncated json": (b'{"roster": {"forces": [', "cannot be read"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_r190_a_hostile_roster_is_refused_quickly_and_nothing_is_stored(name: str, catalog) -> None:
    data, words = HOSTILE[name]
    user = get_user_model().objects.create_user("victim", password="Ironclad-Lunar-1138")
    client = Client()
    client.force_login(user)
    began = time.perf_counter()
    with pytest.raises(RosterError, match=words):
        read_roster(data)
    took = time.perf_counter() - began
    response = client.post("/fleets/import/", {"file": _upload(data, "hostile.ros")})
    assert response.status_code == 400 and "Nothing was imported." in response.content.decode()
    api = Client().post("/api/v1/imports/battlescribe", data=data, content_type="application/xml")
    assert api.status_code == 400 and words.split()[0].lower() in api.json()["detail"].lower()
    assert not Fleet.objects.exists()
    print(f"{name}: refused in {took * 1000:.1f} ms")  # the figure in the note


def test_r190_a_50_mb_roster_is_refused_before_it_is_read(catalog) -> None:
    body = b"<roster>" + b" " * (50 * 1024 * 1024) + b"</roster>"
    response = Client().post(
        "/api/v1/imports/battlescribe", data=body, content_type="application/xml"
    )
    assert response.status_code == 413 and "limit" in response.json()["detail"]
    with pytest.raises(RosterError, match="at most"):
        read_roster(body)


def _upload(data: bytes, name: str):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


# --- the import page, the API and the command ---------------------------------------------------


def test_r190_the_import_page_shows_the_report_and_saves_on_request(catalog) -> None:
    user = get_user_model().objects.create_user("admiral", password="Ironclad-Lunar-1138")
    client = Client()
    client.force_login(user)
    page = client.post("/fleets/import/", {"file": _upload(rosz(orks_roster()), "waaagh.rosz")})
    text = page.content.decode()
    assert page.status_code == 200
    assert "What the roster became" in text and "BattleScribe roster (.rosz)" in text
    assert "Points per unit: the roster" in text and "by its catalogue entry" in text
    assert not Fleet.objects.exists()  # nothing until the player saves
    import html
    import re

    normalised = html.unescape(re.search(r'name="save" value="([^"]*)"', text).group(1))
    once = re.search(r'name="once" value="([^"]*)"', text).group(1)
    client.post("/fleets/import/", {"save": normalised, "once": once})
    saved = Fleet.objects.get(owner=user)
    assert saved.name == "Waaagh Grimtoof" and saved.faction == "orks"
    assert saved.edition == editions.current_number()


def test_r190_the_api_answers_the_fleet_file_and_the_report(catalog) -> None:
    response = Client().post(
        "/api/v1/imports/battlescribe", data=as_json(orks_roster()), content_type="application/json"
    )
    assert response.status_code == 200
    doc = response.json()
    assert doc["fleet"]["format"] == "void-command-fleet" and doc["fleet"]["faction"] == "orks"
    assert rf.parse_fleet(doc["fleet"]) == made(orks_roster()).fleet
    assert doc["report"]["roster_points"] == 470.0
    assert [s["status"] for s in doc["report"]["selections"]][:2] == [BY_ID, BY_ID]
    assert doc["validation"]["points"] == doc["report"]["points"]


def test_r190_the_command_prints_the_report_or_json(catalog, tmp_path) -> None:
    path = tmp_path / "waaagh.rosz"
    path.write_bytes(rosz(orks_roster()))
    out = StringIO()
    call_command("import_roster", str(path), stdout=out)
    assert "Waaagh Grimtoof: orks" in out.getvalue()
    assert "Da Big Red (Ork Kill Kroozer) x1: id -> Ork Kill Kroozer" in out.getvalue()
    out = StringIO()
    call_command("import_roster", str(path), "--json", stdout=out)
    assert json.loads(out.getvalue())["fleet"]["units"][0]["name"] == "Da Big Red"
    broken = tmp_path / "broken.ros"
    broken.write_bytes(XXE)
    with pytest.raises(CommandError, match="DTD"):
        call_command("import_roster", str(broken))


# --- the crosswalk ------------------------------------------------------------------------------


def test_r190_every_bsdata_ship_is_matched_or_says_why_not(catalog) -> None:
    catalog7 = editions.catalog_for(editions.current_number())
    ships = {s.slug for f in catalog7.factions for s in f.ships}
    ranks = {a.slug for a in catalog7.admirals}
    upgrades = {u.slug for u in catalog7.refits} | {
        u.slug for f in catalog7.factions for u in f.upgrades
    }
    neither = [e.name for e in CW.entries.values() if not e.target and not e.reason]
    assert neither == []
    for entry in CW.entries.values():
        if entry.target:
            assert (
                entry.target in {"ship": ships, "commander": ranks, "upgrade": upgrades}[entry.kind]
            ), entry
    counted = sum(1 for e in CW.entries.values() if e.kind == "ship")
    assert counted > 300 and CW.commit and len(CW.commit) == 40
    assert {e.catalogue for e in CW.entries.values() if e.kind == "ship"} >= {
        "Orks",
        "Chaos",
        "Necrons",
        "Inquisition",
        "Pirates and Wolf Packs",
    }
