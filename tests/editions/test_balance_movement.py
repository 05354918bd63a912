"""Balance tables record the edition they were played under, and an edition's changelog shows
how each faction's score moved where both editions have a table (R-160)."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from pytest_django.asserts import assertContains

from fleetbuilder.balance.management.commands.balance_tables import PUBLISHED
from fleetbuilder.balance.models import BalanceTable

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    cache.clear()


def words(response: Any) -> str:
    html = response.content.decode()
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&nbsp;", " ")


def table(
    edition: int, scores: dict[str, float], *, size: str = "skirmish", terrain: str = "none"
) -> BalanceTable:
    """A published table of ``edition`` with these factions' scores against the field."""
    names = {"orks": "Orks", "necrons": "Necrons", "imperial-navy": "Imperial Navy"}
    result = {
        "size": size,
        "policy": "standard",
        "terrain": terrain,
        "battles_per_pair": 100,
        "seed": 1,
        "catalog_version": f"test-{edition}",
        "factions": [
            {"slug": slug, "name": names[slug], "short": names[slug], "score": score}
            for slug, score in scores.items()
        ],
    }
    return BalanceTable.objects.create(
        size=size,
        policy="standard",
        terrain=terrain,
        battles=100,
        seed=1,
        catalog_version=f"test-{edition}",
        edition=edition,
        command="…",
        result=result,
    )


def test_the_movement_per_faction_and_setting_where_both_editions_have_a_table(
    client: Client,
) -> None:
    table(6, {"orks": 0.47, "necrons": 0.58, "imperial-navy": 0.50})
    table(7, {"orks": 0.52, "necrons": 0.49, "imperial-navy": 0.50})
    table(7, {"orks": 0.60, "necrons": 0.40, "imperial-navy": 0.50}, size="battle")  # 6 has none
    response = client.get("/editions/7/")
    assert response.status_code == 200
    page = words(response)
    assert "Balance movement" in page
    assertContains(
        response, "<caption>Skirmish · standard policy · open space</caption>", html=True
    )
    assertContains(
        response,
        '<tr><th scope="row">Necrons</th><td class="num">58&nbsp;%</td>'
        '<td class="num">49&nbsp;%</td><td class="num">\u22129</td></tr>',
        html=True,
    )
    assertContains(
        response,
        '<tr><th scope="row">Orks</th><td class="num">47&nbsp;%</td>'
        '<td class="num">52&nbsp;%</td><td class="num">+5</td></tr>',
        html=True,
    )
    assertContains(
        response,
        '<tr><th scope="row">Imperial Navy</th><td class="num">50&nbsp;%'
        '</td><td class="num">50&nbsp;%</td><td class="num">±0</td></tr>',
        html=True,
    )
    assert "Battle · standard policy" not in page  # only edition 7 played Battle


def test_the_newest_table_of_a_setting_is_the_one_compared() -> None:
    table(6, {"orks": 0.40, "necrons": 0.60, "imperial-navy": 0.50})
    table(6, {"orks": 0.45, "necrons": 0.55, "imperial-navy": 0.50})  # republished
    table(7, {"orks": 0.50, "necrons": 0.50, "imperial-navy": 0.50})
    movement = BalanceTable.movement(6, 7)
    (setting,) = movement.settings
    orks = next(f for f in setting.factions if f.slug == "orks")
    assert (orks.old_pct, orks.new_pct, orks.points) == (45, 50, 5)


def test_no_table_for_one_edition_is_said_plainly(client: Client) -> None:
    table(7, {"orks": 0.5, "necrons": 0.5, "imperial-navy": 0.5})
    assert "No balance table exists for edition 6, so their balance cannot be compared" in words(
        client.get("/editions/7/")
    )
    assert "No balance table exists for edition 5, so" in words(
        client.get("/editions/7/", {"against": "5"})
    )
    assert "No balance table exists for either edition" in words(client.get("/editions/3/"))
    table(6, {"orks": 0.5, "necrons": 0.5, "imperial-navy": 0.5}, terrain="voidscape")
    assert "Both editions have balance tables, but for different game sizes" in words(
        client.get("/editions/7/")
    )


def test_the_published_tables_are_edition_7s_and_the_balance_page_says_so(client: Client) -> None:
    """The shipped tables were played on today's prices: edition 7 (R-160)."""
    for path in PUBLISHED.glob("*.json"):
        assert json.loads(path.read_text())["edition"] == 7, path.name
    call_command("balance_tables", "load", stdout=io.StringIO())
    assert set(BalanceTable.objects.values_list("edition", flat=True)) == {7}
    response = client.get("/balance/")
    assertContains(
        response,
        '<dt>Edition</dt><dd><a href="/editions/7/">Edition 7 (2026-12, '
        "Necrons&#x27; Battle ships)</a></dd>",
        html=True,
    )
    # Edition 7 has tables and 6 none: the changelog says which one lacks them.
    assert "No balance table exists for edition 6" in words(client.get("/editions/7/"))


def test_a_table_stored_before_editions_takes_its_files_edition_on_load() -> None:
    call_command("balance_tables", "load", stdout=io.StringIO())
    BalanceTable.objects.update(edition=None)  # as a database from before editions has them
    call_command("balance_tables", "load", stdout=io.StringIO())
    assert set(BalanceTable.objects.values_list("edition", flat=True)) == {7}


def test_a_table_from_a_file_without_an_edition_takes_its_catalogue_versions(tmp_path) -> None:
    source = sorted(PUBLISHED.glob("*.json"))[0]
    doc = json.loads(source.read_text())
    del doc["edition"]
    (tmp_path / source.name).write_text(json.dumps(doc))
    call_command("balance_tables", "load", "--folder", str(tmp_path), stdout=io.StringIO())
    assert BalanceTable.objects.get().edition == 7  # its catalogue version is edition 7's


def test_a_table_published_now_records_the_edition_served() -> None:
    call_command(
        "balance",
        "--size",
        "patrol",
        "--battles",
        "2",
        "--seed",
        "5",
        "--factions",
        "orks,imperial-navy",
        "--publish",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert BalanceTable.objects.get().edition == 7


def test_a_run_on_the_task_queue_records_its_edition(catalog) -> None:  # type: ignore[no-untyped-def]
    from fleetbuilder.balance.models import BalanceRun
    from rules_core.balance import BalanceSpec, RoundRobin

    spec = BalanceSpec(size="patrol", battles=2, seed=3, factions=("orks", "necrons"))
    run = BalanceRun.create(RoundRobin.prepare(catalog, spec), chunk_battles=2)
    assert run.edition == 7
