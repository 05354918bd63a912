"""The catalogue's rows, kept once the session's test database has them, to load again fast.

A transactional test flushes every table when it ends, the catalogue with it, and the next one
needs it back: one INSERT a table from these rows instead of the loader's 2,000 queries (about
0.5 s on SQLite and more on PostgreSQL, for each of some 60 tests)."""

from __future__ import annotations

from typing import Any

_rows: list[tuple[Any, list[Any]]] = []


def remember() -> None:
    """Keep the catalogue's rows as the loader left them (the session's set-up calls this)."""
    from django.apps import apps

    config = apps.get_app_config("catalog")
    _rows[:] = [
        (model, list(model._base_manager.order_by("pk")))
        for model in config.get_models(include_auto_created=True)
    ]


def load() -> None:
    """The catalogue into the test database, as ``loader.load(force=True)`` leaves it; nothing
    to do when it is there (a transactional test after the rolled-back ones)."""
    from django.core.cache import cache
    from django.core.management.color import no_style
    from django.db import connection, transaction

    from fleetbuilder.catalog import editions, loader, pagecache
    from fleetbuilder.catalog.models import CatalogState

    if CatalogState.objects.exists():
        return
    if not _rows:
        loader.load(force=True)
        return
    with transaction.atomic():
        for model, rows in _rows:
            model._base_manager.bulk_create(rows)
        with connection.cursor() as cursor:  # PostgreSQL: new rows number on after these
            for sql in connection.ops.sequence_reset_sql(no_style(), [m for m, _ in _rows]):
                cursor.execute(sql)
    pagecache.version_changed(CatalogState.current_version())
    editions.refresh_list()  # a test that published an edition flushed it with the rest
    # Called inside a test's transaction (the ``catalog`` fixture), the two writes above wait
    # for a commit that never comes: these rows are the session's own, so the shared cache
    # takes them now, as it does after a real load.
    cache.set(pagecache.VERSION_KEY, CatalogState.current_version(), pagecache.VERSION_TTL)
    cache.set(editions.LIST_KEY, editions.read_list(), editions.LIST_TTL)
