"""The published editions this server knows, and the catalogue a fleet of any of them uses (R-160).

- The shipped files (``data/editions/edition-NNN.json``) are added to the database by
  ``load_catalog`` (:func:`sync`), byte for byte; an edition already published here whose file
  now differs is refused, since an edition never changes.
- :func:`known` lists the editions (headers only). It is kept in the shared cache and dropped
  when a load adds one, so every process sees the same list.
- :func:`catalog_for` gives the catalogue of an edition: the loaded catalogue itself when the
  data files are that edition, else the edition's own, read once per process (an edition is
  immutable, so a process may keep it for good).
- :func:`current` is the edition the data files are; ``None`` is a development state: files
  changed since the last edition (or an admin edit), shown as such on every page.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from pathlib import Path

from django.core.cache import cache
from django.db import DatabaseError, transaction
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from rules_core import catalog as core
from rules_core import editions as ed
from rules_core.editions import EditionError, EditionInfo, UnknownEdition

from . import pagecache
from .models import Edition

log = logging.getLogger(__name__)

EDITIONS_DIR = core.DATA_DIR / "editions"
LIST_KEY = "catalog:editions:v1"
LIST_TTL = 24 * 60 * 60

__all__ = [
    "EditionError",
    "EditionInfo",
    "UnknownEdition",
    "catalog_for",
    "current",
    "known",
    "latest",
    "get",
    "sync",
    "resolve",
]


def sync(directory: Path = EDITIONS_DIR) -> list[int]:
    """Add the shipped editions the database lacks (inside the loader's transaction); the
    numbers added. EditionError if a shipped file differs from the edition published here."""
    if not directory.is_dir():
        return []
    stored = dict(Edition.objects.values_list("number", "sha256"))
    added = []
    for raw in ed.read_edition_dir(directory):
        info = ed.read_header(raw)
        if info.number in stored:
            if stored[info.number] != info.sha256:
                raise EditionError(
                    f"edition {info.number}'s file differs from the edition published on this "
                    "server; an edition never changes once published (R-160). Publish the "
                    "change as a new edition instead."
                )
            continue
        ed.read_edition(raw)  # the whole catalogue must read before it is published here
        Edition.objects.create(
            number=info.number,
            label=info.label,
            published=info.published.replace(tzinfo=UTC),
            notes=info.notes,
            data_version=info.data_version,
            sha256=info.sha256,
            data=raw.decode("utf-8"),
        )
        added.append(info.number)
    if added:  # a load that adds none leaves every process's list as it is
        refresh_list()
    return added


def refresh_list() -> None:
    """Every process reads the list from the shared cache: dropped now (this process's copy
    too), and written again from the database once the current transaction commits (a
    rolled-back load leaves no edition behind)."""
    forget_list()
    transaction.on_commit(lambda: _cache_call("set", LIST_KEY, read_list(), LIST_TTL))


def forget_list() -> None:
    """Drop the shared list and this process's copy (read again from the database on next
    use)."""
    global _memo
    _memo = None
    _cache_call("delete", LIST_KEY)


def _cache_call(method: str, *args: object) -> object:
    try:
        return getattr(cache, method)(*args)
    except Exception:
        log.warning("cache unavailable: %s %s", method, LIST_KEY, exc_info=True)
        return None


def read_list() -> tuple[EditionInfo, ...]:
    rows = Edition.objects.values_list(
        "number", "label", "published", "notes", "data_version", "sha256"
    )
    return tuple(
        EditionInfo(
            number=n,
            label=label,
            published=published.astimezone(UTC),
            notes=notes,
            data_version=dv,
            sha256=sha,
        )
        for n, label, published, notes, dv, sha in rows
    )


def known() -> tuple[EditionInfo, ...]:
    """Every edition published here, oldest first (headers only).

    A process keeps the list it read for a few seconds (a request asks several times); the
    shared cache, refreshed by every load that adds an edition, and the database behind it are
    the source. Editions are only ever added, so a list at most MEMO_SECONDS old lacks at most
    one just published."""
    global _memo
    now = time.monotonic()
    if _memo is not None and now - _memo[0] < MEMO_SECONDS:
        return _memo[1]
    cached = _cache_call("get", LIST_KEY)
    if isinstance(cached, tuple) and all(isinstance(i, EditionInfo) for i in cached):
        infos = cached
    else:
        infos = read_list()
        if infos:  # after commit, and only if absent: never over what a load wrote
            transaction.on_commit(lambda: _cache_call("add", LIST_KEY, infos, LIST_TTL))
    _memo = (now, infos)
    return infos


MEMO_SECONDS = 5.0
_memo: tuple[float, tuple[EditionInfo, ...]] | None = None


def numbers() -> tuple[int, ...]:
    return tuple(i.number for i in known())


def get(number: int) -> EditionInfo:
    """The edition ``number``; UnknownEdition (naming the known ones) if there is none."""
    for info in known():
        if info.number == number:
            return info
    raise UnknownEdition(number, numbers())


def latest() -> EditionInfo | None:
    editions = known()
    return editions[-1] if editions else None


def current(request: HttpRequest | None = None) -> EditionInfo | None:
    """The edition the loaded catalogue is; None while it is a development state. With a
    request, the version it already read is used (no second read)."""
    version = pagecache.catalogue_version(request)
    for info in reversed(known()):
        if info.data_version == version:
            return info
    return None


def current_number() -> int | None:
    info = current()
    return info.number if info else None


def catalog_for(number: int | None) -> core.Catalog:
    """The catalogue a fleet of edition ``number`` is priced and judged under (None: the
    loaded catalogue, for lists built in a development state)."""
    from .loader import core_catalog

    if number is None:
        return core_catalog()
    info = get(number)
    loaded = core_catalog()
    return loaded if loaded.version == info.data_version else _edition_catalog(info)


_catalogs: dict[str, core.Catalog] = {}


def _edition_catalog(info: EditionInfo) -> core.Catalog:
    """An edition's own catalogue, read from its stored bytes once per process (by sha256:
    the bytes never change, so no process can hold a stale copy)."""
    cached = _catalogs.get(info.sha256)
    if cached is not None:
        return cached
    data = Edition.objects.values_list("data", flat=True).get(number=info.number)
    _, catalog = ed.read_edition(data.encode("utf-8"))
    _catalogs[info.sha256] = catalog
    return catalog


def from_shipped_files(number: int | None) -> tuple[int, core.Catalog, str]:
    """R-161 on the shipped edition files, for a command whose database holds none (or has no
    tables): the edition ``number`` names (the first if None, with the note), its catalogue
    and the note; UnknownEdition naming the shipped ones otherwise."""
    shipped = ed.read_edition_dir(EDITIONS_DIR) if EDITIONS_DIR.is_dir() else []
    infos = [ed.read_header(raw) for raw in shipped]
    known = [info.number for info in infos]
    if not infos or (number is not None and number not in known):
        raise UnknownEdition(number, known)
    wanted = number if number is not None else infos[0].number
    _, catalog = ed.read_edition(shipped[known.index(wanted)])
    note = "" if number is not None else ed.no_edition_note(infos[0], infos[-1])
    return wanted, catalog, note


def resolve(number: int | None) -> tuple[int, str]:
    """The edition a fleet file, code or request is read under (R-160), with the note to show:
    its own edition if it names one this server knows (else UnknownEdition); without one, the
    first edition, and a note saying so."""
    if number is not None:
        get(number)
        return number, ""
    editions = known()
    if not editions:
        raise UnknownEdition(None, ())
    return editions[0].number, ed.no_edition_note(editions[0], editions[-1])


def publish(
    label: str,
    *,
    notes: str = "",
    data_dir: Path | None = None,
    directory: Path = EDITIONS_DIR,
    now: datetime | None = None,
) -> EditionInfo:
    """Write the data files as the next edition's file (and its line in SHA256SUMS); EditionError
    if they are already the newest edition, or the label is not one line. Loading it into the
    database is ``load_catalog``'s work, as for every shipped edition."""
    data_dir = data_dir or core.DATA_DIR
    catalog = core.load_catalog_dir(data_dir)  # CatalogError if the files do not read
    shipped = ed.read_edition_dir(directory) if directory.is_dir() else []
    newest = ed.read_header(shipped[-1]) if shipped else None
    if newest is not None and newest.data_version == catalog.version:
        raise EditionError(
            f"The data files are already edition {newest.number} "
            f"({newest.label}); there is nothing to publish."
        )
    number = newest.number + 1 if newest else 1
    raw = ed.edition_bytes(
        number=number,
        label=label,
        published=now or datetime.now(UTC),
        notes=notes,
        data_version=catalog.version,
        catalog=ed.data_dicts(data_dir),
    )
    info, _ = ed.read_edition(raw)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / ed.file_name(number)
    with path.open("xb") as out:  # never over an existing file
        out.write(raw)
    with (directory / "SHA256SUMS").open("a", encoding="ascii") as sums:
        sums.write(f"{info.sha256}  {path.name}\n")
    return info


def development_state(request: HttpRequest) -> dict[str, object]:
    """Context processor: on every page, whether the catalogue served is no edition (R-160),
    and the newest edition it departs from. Evaluated only when a page asks."""

    def state() -> dict[str, object]:
        try:
            if current(request) is not None:
                return {}
            return {"active": True, "since": latest()}
        except DatabaseError:  # an error page while the database is away: say nothing
            return {}

    return {"development_catalogue": SimpleLazyObject(state)}
