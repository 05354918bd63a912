"""A matchup across editions (R-163): each side is priced, judged and played with its own list's
edition (R-160), the run records both, and its page says so.

The old list is an Imperial Navy Patrol on edition 1 (the original conversion), whose ships cost
less than today's; its opponent is an Ork sample, built under the current edition. Every number
the tests expect is computed from the edition files (``editions.catalog_for``), never typed in.
"""

from __future__ import annotations

import html
import io
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from fleetbuilder.catalog import editions
from fleetbuilder.fleets.models import Fleet
from fleetbuilder.simulator.models import Matchup
from fleetbuilder.simulator.tasks import play_chunk
from rules_core import fleet as rf
from rules_core.sample_fleets import sample_fleet
from rules_core.sharecode import encode
from rules_core.sim import SimOptions, simulate
from rules_core.validator import validate

pytestmark = pytest.mark.django_db

OLD = 1  # the original conversion: Imperial Navy ships cost less than today


def vp(fleet: rf.Fleet, catalog: Any) -> int:
    """The victory points a fleet is worth to its opponent under ``catalog``."""
    report = validate(fleet, catalog)
    return sum(ship.victory_points for unit in report.units for ship in unit.ships)


@pytest.fixture
def old_list(client: Client) -> Fleet:
    """A saved Imperial Navy Patrol on edition 1 (a list kept on its edition, R-162)."""
    old = editions.catalog_for(OLD)
    response = client.post(
        "/fleets/new/",
        {"name": "Gothic Sector", "faction": "imperial-navy", "variant": "", "game_size": "patrol"},
    )
    assert response.status_code == 302
    fleet = Fleet.objects.get(pk=int(response.headers["Location"].strip("/").split("/")[-1]))
    doc = replace(sample_fleet(old, "imperial-navy", "patrol"), name="Gothic Sector", edition=OLD)
    fleet.store(doc, old)
    fleet.save()
    today = editions.catalog_for(editions.current_number())
    # The premise: the same list costs differently today, so a wrong catalogue would show.
    assert validate(doc, old).points != validate(doc, today).points
    return fleet


def test_each_side_plays_its_own_editions_points_and_profiles(
    client: Client, old_list: Fleet, started: Callable[..., Matchup], held_chunks, settings
) -> None:
    """R-163: the run records each side's edition; chunks played by the workers, in any order,
    end with the one-process tally of each side under its own edition's catalogue."""
    settings.SIM_CHUNK_BATTLES = 2
    current = editions.current_number()
    assert current is not None and current != OLD
    run = started(a_source="fleet", a_fleet=str(old_list.pk), battles="5", seed="163")
    assert (run.edition_a, run.edition_b) == (OLD, current)
    assert (run.fleet_a["edition"], run.fleet_b["edition"]) == (OLD, current)
    assert (run.edition("a"), run.edition("b")) == (OLD, current)

    for index in (2, 0, 1):  # the workers' path: chunks in any order, each recorded once
        assert play_chunk(run.pk, index) == len(range(*run.chunk_bounds(index)))
    run.refresh_from_db()
    assert run.status == "done"

    old, today = editions.catalog_for(OLD), editions.catalog_for(current)
    a, b = run.core_fleet("a"), run.core_fleet("b")
    eager = simulate(
        old,
        a,
        b,
        battles=5,
        seed=run.seed,
        options=SimOptions.from_dict(run.options),
        catalog_b=today,
    )
    assert run.summary() == eager.summary(seed=run.seed)
    # Each side is worth its own edition's points to the other (the most VP it can score).
    tally = run.current_tally()
    assert tally is not None
    assert tally.max_vp == (vp(b, today), vp(a, old))
    assert vp(a, old) != vp(a, today)

    page = client.get(run.get_absolute_url())
    assert page.status_code == 200
    text = html.unescape(page.content.decode())
    assert (
        f"Imperial Navy (edition {OLD}) against Orks (edition {current}): each side "
        "plays its own edition's points and profiles, R-163."
    ) in text
    for side, fleet, catalog in (("a", a, old), ("b", b, today)):
        section = text.split(f'sim-fleet--{side}"')[1].split("</section>")[0]
        assert f"{validate(fleet, catalog).points} pts" in section
        assert re.search(
            rf'data-edition="{run.edition(side)}"[^>]*>Edition '
            rf"{run.edition(side)}<",
            section,
        )


def test_the_same_edition_on_both_sides_is_named_discreetly(
    client: Client, started: Callable[..., Matchup]
) -> None:
    """Two samples (built under the current edition): no note, the edition still shown."""
    run = started(battles="1")
    current = editions.current_number()
    assert (run.edition_a, run.edition_b) == (current, current)
    page = client.get(run.get_absolute_url()).content.decode()
    assert "data-editions-note" not in page
    assert page.count(f'data-edition="{current}"') == 2


def test_a_run_from_before_editions_reads_its_files_edition_else_the_current(
    client: Client, old_list: Fleet, started: Callable[..., Matchup]
) -> None:
    """A run stored before the edition was recorded: a side whose stored file names an edition
    plays that (R-163); one naming none plays the loaded catalogue, shown as the current
    edition. Its page and its battle log still read."""
    run = started(a_source="fleet", a_fleet=str(old_list.pk), battles="2")
    doc_b = {k: v for k, v in run.fleet_b.items() if k != "edition"}
    Matchup.objects.filter(pk=run.pk).update(edition_a=None, edition_b=None, fleet_b=doc_b)
    run.refresh_from_db()
    current = editions.current_number()
    assert (run.edition("a"), run.edition("b")) == (OLD, None)
    assert run.catalog("a").version == editions.catalog_for(OLD).version
    assert run.catalog("b").version == editions.catalog_for(None).version
    page = client.get(run.get_absolute_url())
    assert page.status_code == 200
    text = page.content.decode()
    assert f'data-edition="{OLD}"' in text and f'data-edition="{current}"' in text
    assert "Battle 1" in text


def test_a_shared_code_plays_its_own_edition_and_an_unknown_one_is_refused(
    start_run: Callable[..., Any], started: Callable[..., Matchup]
) -> None:
    """A share code names its list's edition: that side plays it. One naming an edition this
    server does not know is refused, listing the known editions (R-161)."""
    old = editions.catalog_for(OLD)
    code = encode(replace(sample_fleet(old, "imperial-navy", "patrol"), edition=OLD))
    run = started(a_source="shared", a_share=code, battles="1")
    assert run.edition_a == OLD and run.fleet_a["edition"] == OLD

    unknown = max(editions.numbers()) + 1
    code = encode(replace(sample_fleet(old, "imperial-navy", "patrol"), edition=unknown))
    response = start_run(a_source="shared", a_share=code)
    assert response.status_code == 400
    known = ", ".join(str(n) for n in editions.numbers())
    assert f"the known editions are {known}" in html.unescape(response.content.decode())
    assert Matchup.objects.count() == 1


def test_the_command_line_plays_each_file_under_its_edition(tmp_path: Path) -> None:
    """``manage.py simulate``: each file's own edition (R-163); a file naming none is read under
    the first with R-161's note; an unknown edition exits 2 naming the known ones."""
    old, current = editions.catalog_for(OLD), editions.current_number()
    today = editions.catalog_for(current)
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_text(
        rf.dump_fleet_json(replace(sample_fleet(old, "imperial-navy", "patrol"), edition=OLD))
    )
    b.write_text(rf.dump_fleet_json(sample_fleet(today, "orks", "patrol")))  # names none

    def run(*files: Any) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        try:
            call_command(
                "simulate",
                *map(str, files),
                "--battles",
                "2",
                "--seed",
                "5",
                stdout=out,
                stderr=err,
            )
        except SystemExit as exc:
            return int(exc.code or 0), out.getvalue(), err.getvalue()
        return 0, out.getvalue(), err.getvalue()

    code, out, err = run(a, b)
    first = editions.known()[0].number
    assert code == 0
    assert f"editions: A {OLD}, B {first}" in out
    assert f"note: {b}: This list names no edition, so it is read under the first" in err

    unknown = max(editions.numbers()) + 1
    b.write_text(
        rf.dump_fleet_json(replace(sample_fleet(today, "orks", "patrol"), edition=unknown))
    )
    code, out, err = run(a, b)
    known = ", ".join(str(n) for n in editions.numbers())
    assert code == 2 and out == ""
    assert f"the known editions are {known}" in err and err.strip().count("\n") == 0
