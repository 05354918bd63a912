"""R-94 in the readers: which characters player text may hold, and the refusal naming the JSON
path (fleet file, share code) or the line (text list). No database."""

from __future__ import annotations

import base64
import json
import zlib

import pytest

from rules_core import fleet as rf
from rules_core import sharecode, textlist
from rules_core import text as player_text

BASE = {
    "format": "void-command-fleet",
    "version": 1,
    "faction": "imperial-navy",
    "game_size": "patrol",
    "units": [
        {"kind": "ship", "ship": "lunar-class-cruiser"},
        {"kind": "ship", "ship": "lunar-class-cruiser"},
        {"kind": "ship", "ship": "lunar-class-cruiser", "name": "x"},
    ],
}

FORBIDDEN = [
    ("\x00", "a control character (U+0000)"),
    ("\x1b", "a control character (U+001B)"),
    ("\r", "a control character (U+000D)"),
    ("\x7f", "a control character (U+007F)"),
    ("\x85", "a control character (U+0085)"),
    ("\x9f", "a control character (U+009F)"),
    ("\ud800", "a lone surrogate (U+D800)"),
    ("\udfff", "a lone surrogate (U+DFFF)"),
    ("\ufdd0", "a noncharacter (U+FDD0)"),
    ("\ufdef", "a noncharacter (U+FDEF)"),
    ("\ufffe", "a noncharacter (U+FFFE)"),
    ("\uffff", "a noncharacter (U+FFFF)"),
    ("\U0001fffe", "a noncharacter (U+1FFFE)"),
    ("\U0010ffff", "a noncharacter (U+10FFFF)"),
]
ALLOWED = [
    "Emperor's Wrath",
    "  padded  ",
    "Ça ira",
    "e\u0301",
    "日本語の艦隊",
    "فرقة",
    "👩‍🚀 crew",
    "zero\u200bwidth",
    "\u202eright to left",
    "line\u2028separator",
    "\ue000 private use",
    "\U000e0001 tag",
    "\ufffd",
    "\ufdf0",
    "\U0010fffd",
    "\u0378 unassigned",
]


def file_text(**changes: object) -> str:
    return json.dumps({**BASE, **changes}, ensure_ascii=True)


@pytest.mark.parametrize(("char", "kind"), FORBIDDEN)
def test_a_unit_name_with_a_forbidden_character_is_refused_by_its_json_path(
    char: str, kind: str
) -> None:
    units = [*BASE["units"][:2], {**BASE["units"][2], "name": f"Wrath{char}"}]
    with pytest.raises(rf.FleetFormatError) as caught:
        rf.load_fleet_json(file_text(units=units))
    assert str(caught.value) == f"units[2].name: contains {kind}"


def test_the_issues_lone_surrogate_and_nul_are_refused_in_every_text() -> None:
    # A JSON escape of a lone surrogate: json.loads accepts it, the reader must not.
    text = (
        '{"format": "void-command-fleet", "version": 1, "faction": "imperial-navy", '
        '"game_size": "patrol", "units": [], "name": "\\ud800"}'
    )
    with pytest.raises(rf.FleetFormatError, match=r"^name: contains a lone surrogate \(U\+D800\)$"):
        rf.load_fleet_json(text)
    with pytest.raises(rf.FleetFormatError, match=r"^notes: contains a control character"):
        rf.load_fleet_json(file_text(notes="a\u0000b"))
    squadron = {"kind": "squadron", "name": "\u0000", "ships": []}
    with pytest.raises(rf.FleetFormatError, match=r"^units\[0\]\.name: contains a control"):
        rf.load_fleet_json(file_text(units=[squadron]))


@pytest.mark.parametrize("name", ALLOWED)
def test_any_other_text_is_kept_exactly_as_written(name: str) -> None:
    fleet = rf.load_fleet_json(file_text(name=name, notes=f"{name}\n\t{name}"))
    assert fleet.name == name  # no trimming, no NFC: "e" + U+0301 stays two characters
    assert fleet.notes == f"{name}\n\t{name}"
    assert rf.load_fleet_json(rf.dump_fleet_json(fleet)) == fleet


def test_notes_take_tab_and_newline_and_read_cr_lf_as_lf_but_names_take_neither() -> None:
    assert rf.load_fleet_json(file_text(notes="a\r\nb\rc\td")).notes == "a\nb\nc\td"
    for char, code in (("\n", "000A"), ("\t", "0009")):
        with pytest.raises(rf.FleetFormatError) as caught:
            rf.load_fleet_json(file_text(name=f"a{char}b"))
        assert str(caught.value) == f"name: contains a control character (U+{code})"
    with pytest.raises(
        rf.FleetFormatError,
        match=r"^notes: contains a control character "
        r"\(U\+000B\)$",
    ):
        rf.load_fleet_json(file_text(notes="a\x0bb"))


def test_a_key_holding_a_surrogate_is_named_without_it() -> None:
    with pytest.raises(rf.FleetFormatError) as caught:
        rf.load_fleet_json(file_text(**{"\ud800": 1}))
    assert caught.value.path == "\\ud800"
    str(caught.value).encode("utf-8")  # printable anywhere


def _code(compact: object) -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(json.dumps(compact).encode()) + packer.flush()
    return "v1." + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_a_share_code_holding_a_nul_or_a_surrogate_is_refused_by_its_path() -> None:
    unit = ["s", "lunar-class-cruiser", "Wrath\u0000"]
    with pytest.raises(sharecode.ShareCodeError) as caught:
        sharecode.decode(_code(["imperial-navy", "patrol", None, None, None, "", [unit]]))
    assert caught.value.path == "units[0].name"
    assert "units[0].name: contains a control character (U+0000)" in caught.value.message
    with pytest.raises(sharecode.ShareCodeError, match=r"name: contains a lone surrogate"):
        sharecode.decode(_code(["imperial-navy", "patrol", "\ud800"]))


def test_a_text_list_names_the_line_at_fault(real_catalog) -> None:
    head = "Fleet: Patrol\nFaction: Imperial Navy\nGame size: Patrol\n\n"
    with pytest.raises(textlist.TextListError) as caught:
        textlist.from_text(real_catalog, head + '* Lunar Class Cruiser "Wr\\u0000ath"\n')
    assert caught.value.line == 5
    assert str(caught.value) == "line 5: units[0].name: contains a control character (U+0000)"
    with pytest.raises(textlist.TextListError) as caught:
        textlist.from_text(real_catalog, head + "* Lunar Class Cruiser\x01\n")
    assert str(caught.value) == "line 5: contains a control character (U+0001)"
    with pytest.raises(textlist.TextListError) as caught:
        textlist.from_text(
            real_catalog, 'Fleet: "\\ud800"\nFaction: Imperial Navy\nGame size: Patrol\n'
        )
    assert str(caught.value) == "line 1: name: contains a lone surrogate (U+D800)"
    # Tabs and Windows line ends are fine in a list; notes keep their tabs.
    fleet = textlist.from_text(
        real_catalog,
        head.replace("\n", "\r\n") + "\t* Lunar Class Cruiser\r\n\r\nNotes:\r\na\tb\r\nc\r\n",
    )
    assert fleet.notes == "a\tb\nc"


def test_scrub_replaces_what_r94_forbids_and_keeps_the_rest() -> None:
    assert player_text.scrub("a\ud800b\x00c\ufffe") == "a\ufffdb\ufffdc\ufffd"
    assert player_text.scrub("x\r\ny\tz", multiline=True) == "x\ny\tz"
    doc = {"name": "\ud800", "notes": "a\r\n\tb\x00", "units": [{"name": "\x00", "ship": "s"}]}
    assert player_text.scrub_tree(doc) == {
        "name": "\ufffd",
        "notes": "a\n\tb\ufffd",
        "units": [{"name": "\ufffd", "ship": "s"}],
    }
