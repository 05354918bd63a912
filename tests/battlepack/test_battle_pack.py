"""A game-night battle pack from a matchup's page: one click, the pack made on the task queue
with its progress on its own page, then one PDF read back with poppler: a two-page quick
reference whose text is the Rules page's, then both fleets' rosters (with the QR code's link)
and every card; A4 and Letter; the pack is its requester's."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client

from fleetbuilder.battlepack.models import BattlePack
from fleetbuilder.catalog import editions
from fleetbuilder.simulator.models import Matchup
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import SimOptions

pytestmark = pytest.mark.django_db


def pdf_pages(data: bytes) -> list[str]:
    """Each page's text in drawing order (a table cell's wrapped lines stay together)."""
    out = subprocess.run(
        ["pdftotext", "-raw", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode("utf-8")
    return out.split("\f")[:-1]


def pdf_size_pts(data: bytes) -> tuple[float, float]:
    info = subprocess.run(
        ["pdfinfo", "-"], input=data, capture_output=True, check=True
    ).stdout.decode()
    m = re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.M)
    assert m is not None
    return float(m[1]), float(m[2])


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.fixture
def run(catalog, client: Client) -> Callable[..., Matchup]:
    def make(terrain: str = "voidscape") -> Matchup:
        a = sample_fleet(catalog, "imperial-navy", "patrol")
        b = sample_fleet(catalog, "orks", "patrol")
        sources = {
            "a": {"kind": "sample", "label": "Navy patrol"},
            "b": {"kind": "sample", "label": "Ork patrol"},
        }
        return Matchup.start(
            fleet_a=a,
            fleet_b=b,
            sources=sources,
            options=SimOptions(terrain=terrain),
            seed=9,
            battles=2,
            owner=None,
            owner_token="the-runs-owner",
        )

    return make


@pytest.fixture
def outsider() -> Client:
    return Client()


def ask(client: Client, run: Matchup, paper: str = "a4") -> Any:
    return client.post(f"/pack/from-run/{run.public_id}/", {"paper": paper})


def test_one_click_from_the_matchup_page_gives_the_whole_pack(
    client: Client, run: Callable[..., Matchup], catalog
) -> None:
    matchup = run()
    page = client.get(matchup.get_absolute_url()).content.decode()
    assert f'action="/pack/from-run/{matchup.public_id}/"' in page
    assert 'value="a4">Battle pack (A4)' in page and 'value="letter">Battle pack (Letter)' in page

    response = ask(client, matchup)
    assert response.status_code == 302
    pack = BattlePack.objects.get()
    assert response["Location"] == pack.get_absolute_url()
    status = client.get(pack.get_absolute_url())  # made at once: the suite's queue is eager
    assert "Download the battle pack (PDF)" in status.content.decode()
    download = client.get(f"/pack/{pack.public_id}/battle-pack.pdf")
    assert download.status_code == 200 and download["Content-Type"] == "application/pdf"
    assert "battle-pack-navy-patrol-vs-ork-patrol-a4.pdf" in download["Content-Disposition"]
    pages = pdf_pages(download.content)

    # Two pages of quick reference, in the order a turn is played.
    reference = squash(" ".join(pages[:2]))
    assert "Quick reference" in pages[0] and "Quick reference" not in pages[2]
    today = editions.current_number()  # the run's samples name none: the loaded catalogue
    assert (
        f"Fleet A: Navy patrol (Edition {today}) vs Fleet B: Ork patrol (Edition {today})"
    ) in reference
    for heading in (
        "The game round",
        "Special orders",
        "Gunnery",
        "Critical hits and repairs",
        "Catastrophic damage",
        "Crippled ships",
        "Terrain",
    ):
        assert heading in reference, heading
    for order in (
        "All Ahead Full",
        "Come to New Heading",
        "Burn Retros",
        "Lock On",
        "Reload Ordnance",
        "Brace for Impact",
    ):
        assert order in reference, order
    assert "Command check:" in reference
    assert "Void elements" in reference and "Asteroid belt" in reference  # voidscape: both

    # Then each fleet's roster and every card.
    rest = squash(" ".join(pages[2:]))
    names = [matchup.core_fleet(side).name for side in ("a", "b")]
    assert rest.index(names[0]) < rest.index(names[1])  # each roster, then its cards
    for side in ("a", "b"):
        for unit in matchup.core_fleet(side).units:
            slug = unit.ship if hasattr(unit, "ship") else unit.ships[0].ship
            name = next(s.name for f in catalog.factions for s in f.ships if s.slug == slug)
            assert name in rest, name
    # The QR code of each roster holds the fleet's share-code page.
    assert len(re.findall(r"/fleets/code/v\d+\.", re.sub(r"\s+", "", rest))) == 2
    assert pdf_size_pts(download.content) == pytest.approx((595.28, 841.89), abs=0.1)  # A4


def test_the_reference_prints_the_rules_pages_own_words(
    client: Client, run: Callable[..., Matchup]
) -> None:
    """Not typed twice: every row of the Rules page's to-hit and critical tables is in the
    pack as the page has it."""
    rules = client.get("/rules/").content.decode()
    to_hit = re.search(r"<caption>To hit</caption>.*?</table>", rules, re.S)
    crits = re.search(r"<caption>Critical hit table.*?</table>", rules, re.S)
    assert to_hit and crits
    rows = [
        squash(re.sub(r"<[^>]+>", " ", r)).strip()
        for table in (to_hit[0], crits[0])
        for r in re.findall(r"<tr>(.*?)</tr>", table, re.S)
    ]
    ask(client, run(terrain="section13"))
    pack = BattlePack.objects.get()
    reference = squash(
        " ".join(pdf_pages(client.get(f"/pack/{pack.public_id}/battle-pack.pdf").content)[:2])
    )
    for row in rows[1:]:
        words = row.split(" ")
        assert all(w in reference for w in words), row
    assert "Void elements" not in reference  # only §13's terrain is in play


def test_letter_paper_and_an_open_table(client: Client, run: Callable[..., Matchup]) -> None:
    ask(client, run(terrain="none"), paper="letter")
    pack = BattlePack.objects.get()
    data = client.get(f"/pack/{pack.public_id}/battle-pack.pdf").content
    assert pdf_size_pts(data) == pytest.approx((612.0, 792.0), abs=0.1)  # US Letter
    reference = squash(" ".join(pdf_pages(data)[:2]))
    assert "Terrain in play: No terrain" in reference
    assert "Terrain effects" not in reference


def test_the_page_follows_the_worker(
    client: Client, run: Callable[..., Matchup], monkeypatch
) -> None:
    from fleetbuilder.battlepack import tasks

    held: list[int] = []
    monkeypatch.setattr(tasks.render_pack, "apply_async", lambda args, **kw: held.append(*args))
    ask(client, run())
    pack = BattlePack.objects.get()
    page = client.get(pack.get_absolute_url()).content.decode()
    assert "Waiting for a print worker" in page and "<progress" in page
    assert 'hx-trigger="every 1s"' in page and 'http-equiv="refresh"' in page
    assert client.get(f"/pack/{pack.public_id}/battle-pack.pdf").status_code == 404
    seen: list[int] = []
    real_advance = BattlePack.advance

    def advance(self: BattlePack, stage: int) -> None:
        real_advance(self, stage)
        seen.append(BattlePack.objects.get(pk=self.pk).stage)

    monkeypatch.setattr(BattlePack, "advance", advance)
    assert tasks.render_pack(held.pop()) is True
    assert seen == [1, 2, 3, 4]
    page = client.get(pack.get_absolute_url()).content.decode()
    assert "Download the battle pack (PDF)" in page and "every 1s" not in page
    # Asked again: the same pack, not another render.
    ask(client, Matchup.objects.get())
    assert BattlePack.objects.count() == 1 and held == []


def test_a_pack_is_its_requesters_and_bad_requests_are_refused(
    client: Client, outsider: Client, run: Callable[..., Matchup]
) -> None:
    matchup = run()
    ask(client, matchup)
    pack = BattlePack.objects.get()
    assert outsider.get(pack.get_absolute_url()).status_code == 404
    assert outsider.get(f"/pack/{pack.public_id}/battle-pack.pdf").status_code == 404
    bad = client.post(f"/pack/from-run/{matchup.public_id}/", {"paper": "A3<script>"})
    assert bad.status_code == 400 and b"A4 or Letter" in bad.content
    assert client.post("/pack/from-run/nope/", {"paper": "a4"}).status_code == 404
    assert client.get(f"/pack/from-run/{matchup.public_id}/").status_code == 405
    assert BattlePack.objects.count() == 1


PACK_FORM = {
    "a_source": "sample",
    "a_faction": "imperial-navy",
    "a_size": "patrol",
    "a_variant": "",
    "b_source": "shared",
    "b_share": "",
    "terrain": "void",
    "movement": "standard",
    "paper": "a4",
}


def test_a_pack_of_any_two_fleets_the_player_can_see(client: Client, catalog) -> None:
    from rules_core import sharecode

    page = client.get("/pack/")
    assert page.status_code == 200
    assert "Make the battle pack" in page.content.decode()
    eldar = sample_fleet(catalog, "craftworld-eldar", "patrol")
    response = client.post("/pack/", {**PACK_FORM, "b_share": sharecode.encode(eldar)})
    assert response.status_code == 302, response.content.decode()[:2000]
    pack = BattlePack.objects.get()
    assert (pack.terrain, pack.paper, pack.matchup) == ("void", "a4", None)
    text = squash(
        " ".join(pdf_pages(client.get(f"/pack/{pack.public_id}/battle-pack.pdf").content))
    )
    navy = sample_fleet(catalog, "imperial-navy", "patrol")
    assert text.index(navy.name) < text.index(eldar.name)
    assert "Void elements" in text and "Terrain effects" not in text


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("b_share", "", "share"),
        ("b_share", "v1." + "A" * 5000, "characters"),
        ("b_share", "v1.\u202e<script>", "share"),
        ("a_faction", "no-such-faction", "valid choice"),
        ("paper", "a3", "valid choice"),
        ("terrain", "lava", "valid choice"),
    ],
)
def test_a_bad_pack_request_says_why_and_makes_nothing(
    client: Client, field: str, value: str, message: str
) -> None:
    response = client.post(
        "/pack/",
        {
            **PACK_FORM,
            "b_source": "sample",
            "b_faction": "orks",
            "b_size": "patrol",
            "b_share": "",
            field: value,
            **({"b_source": "shared"} if field == "b_share" else {}),
        },
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert BattlePack.objects.count() == 0


def test_the_quick_reference_stays_within_two_pages_with_everything_in_play(client: Client) -> None:
    """The most the reference can hold: §13's terrain, seed 001's void elements and seed 003's
    advanced movement."""
    response = client.post(
        "/pack/",
        {
            **PACK_FORM,
            "b_source": "sample",
            "b_faction": "orks",
            "b_size": "patrol",
            "terrain": "voidscape",
            "movement": "advanced",
            "paper": "letter",
        },
    )
    assert response.status_code == 302
    pack = BattlePack.objects.get()
    data = client.get(f"/pack/{pack.public_id}/battle-pack.pdf").content
    pages = pdf_pages(data)
    footers = [m for p in pages for m in re.findall(r"Quick reference (\d) / (\d)", p)]
    assert footers and all(total in ("1", "2") for _, total in footers), footers
    reference = squash(" ".join(pages[:2]))
    assert "Advanced movement" in reference and "Void elements" in reference
    assert "Terrain effects" in reference
