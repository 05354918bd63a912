"""Share codes (R-90): every sample fleet survives the trip, and bad codes are refused clearly.

New codes are ``v2.`` and carry the list's edition (R-160); ``v1.`` codes from before editions
still open, naming none (R-161)."""

from __future__ import annotations

import base64
import json
import string
import zlib
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_core import fleet as rf
from rules_core import sharecode
from rules_core import text as player_text
from rules_core.sharecode import ShareCodeError, decode, encode

from .conftest import every_sample

URL_SAFE = set(string.ascii_letters + string.digits + "-_.")


def raw_code(payload: bytes, prefix: str = "v1.") -> str:
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    raw = packer.compress(payload) + packer.flush()
    return prefix + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def test_every_sample_fleet_round_trips_and_stays_short(real_catalog) -> None:
    fleets = every_sample(real_catalog)
    assert len(fleets) == 14 * 4
    for fleet in fleets:
        code = encode(fleet)
        assert code.startswith("v2.") and set(code) <= URL_SAFE
        assert decode(code) == fleet
        assert encode(decode(code)) == code  # export -> import -> export is identical
        # Far shorter than the file, and short enough for a chat message or a QR code.
        assert len(code) < 450 < len(rf.dump_fleet_json(fleet, indent=None))


def test_a_code_survives_being_pasted_with_spaces_around_it(real_catalog) -> None:
    fleet = every_sample(real_catalog)[0]
    assert decode(f"  {encode(fleet)}\n") == fleet


# Any text R-94 allows: no surrogates, no control characters (but tab and newline in notes),
# no noncharacters.
names = st.text(
    st.characters(blacklist_categories=("Cs", "Cc")), max_size=rf.MAX_NAME_LENGTH
).filter(lambda s: player_text.problem(s) is None)
notes = st.text(
    st.characters(blacklist_categories=("Cs", "Cc"), whitelist_characters="\t\n"), max_size=200
).filter(lambda s: player_text.problem(s, multiline=True) is None)
slugs = st.from_regex(r"[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}", fullmatch=True)
upgrades = st.lists(slugs, max_size=4).map(tuple)
ship_units = st.builds(
    rf.ShipUnit,
    ship=slugs,
    name=st.none() | names,
    flagship=st.booleans(),
    admiral=st.none() | slugs,
    upgrades=upgrades,
)
squadrons = st.builds(
    rf.Squadron,
    ships=st.lists(st.builds(rf.SquadronShip, ship=slugs, upgrades=upgrades), max_size=5).map(
        tuple
    ),
    name=st.none() | names,
)
fleets = st.builds(
    rf.Fleet,
    faction=slugs,
    game_size=st.sampled_from([g for g in rf.GameSize if g is not rf.GameSize.CUSTOM]),
    units=st.lists(ship_units | squadrons, max_size=8).map(tuple),
    name=st.none() | names,
    variant=st.none() | slugs,
    notes=notes,
    edition=st.none() | st.integers(1, 9999),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fleet=fleets, band=st.none() | st.tuples(st.integers(0, 5000), st.integers(0, 5000)))
def test_any_fleet_file_round_trips(fleet: rf.Fleet, band: tuple[int, int] | None) -> None:
    if band is not None:
        lo, hi = sorted(band)
        fleet = replace(
            fleet, game_size=rf.GameSize.CUSTOM, points_limit=rf.PointsBand("custom", lo, hi)
        )
    try:
        code = encode(fleet)
    except ShareCodeError:
        return  # a fleet too big for a code is refused, not truncated
    assert decode(code) == fleet


def test_a_fleet_too_big_for_a_code_is_refused_when_encoding() -> None:
    # Random names do not compress: 100 ships named with 100 characters each.
    import random

    rng = random.Random(7)
    units = tuple(
        rf.ShipUnit(
            "lunar-class-cruiser",
            name="".join(rng.choice(string.ascii_letters) for _ in range(100)),
        )
        for _ in range(100)
    )
    fleet = rf.Fleet("imperial-navy", rf.GameSize.ARMADA, units)
    with pytest.raises(ShareCodeError, match="too big for a share code"):
        encode(fleet)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("", "not a share code"),
        ("hello", "not a share code"),
        ("v1.abc$def", "not a share code"),
        ("v3.i1bKL8ouVtJRKkgsKcrPUYoFAA", "version 3 cannot be read (made by a newer"),
        ("v1.A", "cut short"),  # a lone character holds no whole byte
        ("v1.____", "damaged (it does not decompress)"),
    ],
)
def test_unreadable_codes_say_why(code: str, message: str) -> None:
    with pytest.raises(ShareCodeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        decode(code)


def test_a_cut_short_code_is_refused(real_catalog) -> None:
    code = encode(every_sample(real_catalog)[-1])
    with pytest.raises(ShareCodeError, match="cut short"):
        decode(code[: len(code) // 2])


def test_an_over_long_code_is_refused_before_it_is_unpacked() -> None:
    with pytest.raises(ShareCodeError, match="the limit is 3000"):
        decode("v1." + "A" * sharecode.MAX_CODE_LENGTH)


def test_a_decompression_bomb_is_refused() -> None:
    bomb = raw_code(b"[" + b" " * (2 * 1024 * 1024) + b"]")
    assert len(bomb) < sharecode.MAX_CODE_LENGTH  # it fits in a URL...
    with pytest.raises(ShareCodeError, match="unpacks to more than 512 KB"):
        decode(bomb)  # ...but is never inflated past the limit


def test_a_code_holding_a_broken_fleet_names_the_json_path() -> None:
    payload = json.dumps(["orks", "patrol", None, None, None, "", [["s", "Kill Kroozer"]]]).encode()
    with pytest.raises(ShareCodeError, match=r"units\[0\]\.ship") as caught:
        decode(raw_code(payload))
    assert caught.value.path == "units[0].ship"


def test_a_code_with_a_bad_game_size_names_it() -> None:
    payload = json.dumps(["orks", "huge"]).encode()
    with pytest.raises(ShareCodeError, match="game_size"):
        decode(raw_code(payload))


@pytest.mark.parametrize(
    "payload",
    [
        b"\xff\xfe",
        b"[1, 2",
        b"{}",
        b'["orks","patrol",null,null,null,"",[["x"]]]',
        b"[" * 5000 + b"]" * 5000,
    ],
)
def test_garbage_inside_a_valid_wrapper_is_refused(payload: bytes) -> None:
    with pytest.raises(ShareCodeError):
        decode(raw_code(payload))


# --- editions (R-160, R-161) ---------------------------------------------------------------


def test_a_new_code_carries_the_lists_edition(real_catalog) -> None:
    """R-160: every list names its edition, and its share code carries it."""
    fleet = replace(every_sample(real_catalog)[0], edition=5)
    code = encode(fleet)
    assert code.startswith("v2.")
    assert decode(code).edition == 5
    assert decode(code) == fleet
    unnamed = replace(fleet, edition=None)  # a development state's list names none
    assert decode(encode(unnamed)).edition is None


def test_a_v1_code_still_opens_and_names_no_edition() -> None:
    """R-161: a v1. code (made before editions) reads as a list naming none."""
    payload = json.dumps(
        ["orks", "patrol", "Old Waaagh", None, None, "", [["s", "kill-kroozer", None, 1]]]
    ).encode()
    fleet = decode(raw_code(payload, "v1."))
    assert fleet.edition is None
    assert fleet.name == "Old Waaagh" and fleet.units[0].flagship


def test_a_v1_code_cannot_smuggle_an_edition() -> None:
    payload = json.dumps(["orks", "patrol", None, None, None, "", [], 7]).encode()
    with pytest.raises(ShareCodeError, match="damaged"):
        decode(raw_code(payload, "v1."))


@pytest.mark.parametrize(
    "top",
    [
        ["orks", "patrol"],  # trailing items left out: a v2 code names its edition
        ["orks", "patrol", None, None, None, "", []],
        ["orks", "patrol", None, None, None, "", [], 7, "more"],
    ],
)
def test_a_v2_code_needs_exactly_eight_items(top: list[object]) -> None:
    with pytest.raises(ShareCodeError, match="damaged"):
        decode(raw_code(json.dumps(top).encode(), "v2."))


@pytest.mark.parametrize("edition", [0, 10_000, -1, "7", 7.5, True, [7]])
def test_a_v2_code_with_a_bad_edition_names_it(edition: object) -> None:
    payload = json.dumps(["orks", "patrol", None, None, None, "", [], edition]).encode()
    with pytest.raises(ShareCodeError, match="edition") as caught:
        decode(raw_code(payload, "v2."))
    assert caught.value.path == "edition"


def test_a_v2_code_may_name_no_edition() -> None:
    payload = json.dumps(["orks", "patrol", None, None, None, "", [], None]).encode()
    assert decode(raw_code(payload, "v2.")).edition is None
