"""A player takes a matchup to the table in Chromium: one click on the results page, the pack's
page following the print worker while the test plays the held task, then the download, read
back with pdftotext: the quick reference, both rosters and every card."""

from __future__ import annotations

import re
import subprocess

import pytest
from playwright.sync_api import Page, expect

from tests.support.liveserver import between_requests

pytestmark = pytest.mark.browser


def test_a_battle_pack_from_the_results_page(
    page: Page, live_catalog, monkeypatch, tmp_path
) -> None:
    from fleetbuilder.battlepack import tasks
    from fleetbuilder.catalog import loader
    from fleetbuilder.simulator.models import Matchup
    from rules_core.sample_fleets import sample_fleet
    from rules_core.sim import SimOptions

    catalog = loader.core_catalog()
    a = sample_fleet(catalog, "tau-empire", "patrol")
    b = sample_fleet(catalog, "necrons", "patrol")
    run = Matchup.start(
        fleet_a=a,
        fleet_b=b,
        sources={},
        options=SimOptions(terrain="void"),
        seed=1,
        battles=2,
        owner=None,
        owner_token="not-this-browser",
    )
    held: list[int] = []
    monkeypatch.setattr(tasks.render_pack, "apply_async", lambda args, **kw: held.append(*args))

    page.goto(f"{live_catalog.url}{run.get_absolute_url()}")
    page.get_by_role("button", name="Battle pack (Letter)").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Battle pack")
    status = page.locator("[data-pack-status]")
    expect(status).to_have_text("Waiting for a print worker…")
    assert len(held) == 1
    with between_requests():
        tasks.render_pack(held.pop())
    download_link = page.get_by_role("link", name="Download the battle pack (PDF)")
    expect(download_link).to_be_visible(timeout=10_000)  # the page followed the worker
    with page.expect_download() as info:
        download_link.click()
    path = tmp_path / "pack.pdf"
    info.value.save_as(path)
    assert re.fullmatch(r"battle-pack-.+-vs-.+-letter\.pdf", info.value.suggested_filename)
    text = subprocess.run(
        ["pdftotext", "-raw", str(path), "-"], capture_output=True, check=True
    ).stdout.decode()
    pages = text.split("\f")
    assert "Quick reference" in pages[0]
    assert "Void elements" in text and "Terrain effects" not in text  # only seed 001's
    assert text.index(a.name) < text.index(b.name)
    # Each roster prints the link its QR code holds (wrapped over lines).
    assert re.sub(r"\s+", "", text).count("/fleets/code/v2.") == 2
