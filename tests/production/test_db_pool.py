"""Database connections of a web process on PostgreSQL (item 2): gunicorn keeps a pool
of at most one connection a thread (``DB_POOL_MAX``, as scripts/serve sets it), lends them to
its requests again and again instead of opening one a request, and never holds more, however
many players ask at once. SQLite has no connections to pool: the PostgreSQL pass runs this."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import Browser

pytestmark = pytest.mark.production

THREADS = 4  # the web fixture's gunicorn: 1 process x 4 threads, DB_POOL_MAX=4


def app_connections(database_url: str) -> dict[int, object]:
    """The web process's connections to the stack's database: backend pid -> when it began."""
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid, backend_start FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND backend_type = 'client backend'"
        ).fetchall()
    return dict(rows)


def make_fleets(base: str, count: int) -> list[int]:
    player = Browser(base)
    statuses = []
    for number in range(count):
        status, _, _ = player.post_form(
            "/fleets/new/",
            {
                "name": f"Pooled {number}",
                "faction": "imperial-navy",
                "variant": "",
                "game_size": "skirmish",
            },
        )
        statuses.append(status)
    return statuses


def test_a_web_process_lends_its_pooled_connections_again(web: str, stack_database: str) -> None:
    if not stack_database.startswith("postgres"):
        pytest.skip("connection pooling is PostgreSQL's; the PostgreSQL pass runs this")
    # 8 players at once, 5 fleets each, against 4 threads
    with ThreadPoolExecutor(max_workers=8) as players:
        statuses = [
            s for batch in players.map(lambda _: make_fleets(web, 5), range(8)) for s in batch
        ]
    assert statuses == [302] * 40, statuses
    first = app_connections(stack_database)
    # Without a pool every request's connection closes with it (CONN_MAX_AGE 0): none would
    # be left. With it, the pool keeps them open, never more than one a thread.
    assert 1 <= len(first) <= THREADS, first

    assert make_fleets(web, 20) == [302] * 20
    second = app_connections(stack_database)
    assert len(second) <= THREADS, second
    kept = {pid for pid in first if second.get(pid) == first[pid]}
    assert kept, (first, second)  # the same connections served the next requests
    print(
        f"\npool: 60 fleets made by 8 players at once and one after; "
        f"{len(first)} then {len(second)} connections open, {len(kept)} kept throughout"
    )
