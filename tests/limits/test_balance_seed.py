"""``manage.py balance`` refuses a seed the published table cannot store (it is a 64-bit
column, as the simulator's): before, ``--seed 18446744073709551616 --publish`` played the whole
round robin and then failed with a traceback when it stored the table. Now it stops at once,
saying the range, and nothing is played or published."""

from __future__ import annotations

import io
import time

import pytest
from django.core.management import call_command

from fleetbuilder.balance.models import BalanceRun, BalanceTable
from fleetbuilder.simulator.models import MAX_SEED
from tests.support.timing import bound

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [MAX_SEED + 1, 2**64, -1])
def test_a_seed_out_of_range_is_refused_before_any_battle(catalog, seed: int) -> None:
    err = io.StringIO()
    started = time.monotonic()
    with pytest.raises(SystemExit) as exc:
        call_command(
            "balance",
            "--size",
            "patrol",
            "--battles",
            "2",
            "--seed",
            str(seed),
            "--factions",
            "orks,necrons",
            "--publish",
            stdout=io.StringIO(),
            stderr=err,
        )
    assert exc.value.code == 2
    assert f"--seed must be from 0 to {MAX_SEED}" in err.getvalue()
    assert time.monotonic() - started < bound(3)
    assert not BalanceTable.objects.exists() and not BalanceRun.objects.exists()


def test_the_largest_seed_is_played_and_published(catalog) -> None:
    call_command(
        "balance",
        "--size",
        "patrol",
        "--battles",
        "2",
        "--seed",
        str(MAX_SEED),
        "--factions",
        "orks,necrons",
        "--publish",
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    assert BalanceTable.objects.get().seed == MAX_SEED
