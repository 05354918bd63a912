"""The published balance tables travel with the code (fleetbuilder/balance/published/), so a
fresh install's Balance page shows them: scripts/run and scripts/serve load them, once."""

from __future__ import annotations

import html
import io
import json

import pytest
from django.core.management import call_command
from django.test import Client

from fleetbuilder.balance.management.commands.balance_tables import PUBLISHED
from fleetbuilder.balance.models import BalanceTable

pytestmark = pytest.mark.django_db


def test_every_published_file_loads_once_and_the_page_shows_it(client: Client) -> None:
    files = sorted(PUBLISHED.glob("*.json"))
    assert files, "no published balance table in the repository"
    call_command("balance_tables", "load", stdout=io.StringIO())
    call_command("balance_tables", "load", stdout=io.StringIO())  # again: nothing new
    assert BalanceTable.objects.count() == len(files)
    for path in files:  # every setting published has its page, showing that file's table
        doc = json.loads(path.read_text())
        page = html.unescape(
            client.get(
                "/balance/",
                {"size": doc["size"], "policy": doc["policy"], "terrain": doc["terrain"]},
            ).content.decode()
        )  # "T'au Empire" is written T&#x27;au
        assert doc["command"] in page, path.name
        best = max(doc["result"]["factions"], key=lambda f: f["score"])
        assert best["name"] in page, path.name
    default = client.get("/balance/").content.decode()
    assert "--size skirmish --battles" in default and "--policy standard --terrain none" in default


def test_export_then_load_gives_the_same_table(tmp_path) -> None:
    call_command("balance_tables", "load", stdout=io.StringIO())
    before = {(t.size, t.policy, t.terrain, t.seed, t.created) for t in BalanceTable.objects.all()}
    call_command("balance_tables", "export", "--folder", str(tmp_path), stdout=io.StringIO())
    BalanceTable.objects.all().delete()
    call_command("balance_tables", "load", "--folder", str(tmp_path), stdout=io.StringIO())
    after = {(t.size, t.policy, t.terrain, t.seed, t.created) for t in BalanceTable.objects.all()}
    assert after == before
