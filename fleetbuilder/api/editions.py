"""The editions in the API (R-160): ``GET /api/v1/editions`` and
``GET /api/v1/editions/{number}/diff?against=m``.

Public, as the catalogue (a token sent must be valid). The diff is ``CatalogDiff.to_dict()``
of the same changelog the edition's page shows (``fleetbuilder.editions.changelog``, kept in
the shared cache by both editions' sha256), with both editions' headers. An edition this server
does not know is a 404 whose ``detail`` lists the known ones (``UnknownEdition``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Schema, Status
from ninja.errors import HttpError
from pydantic import Field

from fleetbuilder.catalog import editions
from fleetbuilder.editions import changelog
from rules_core.editions import EditionInfo

from . import schemas as s
from .auth import optional_token

router = Router(tags=["editions"])


class EditionHeader(Schema):
    number: int
    title: str = Field(description='"Edition 7 (label)"')
    label: str
    published: datetime
    notes: str
    data_version: str = Field(
        description="The catalogue version of the data files it was "
        "published from (the catalogue's catalog_version)"
    )
    sha256: str = Field(description="Of the edition file's bytes; an edition never changes")
    current: bool = Field(description="Whether this server serves this edition now")
    url: str = Field(description="Its changelog page")


class EditionListItem(EditionHeader):
    price_changes: int | None = Field(
        description="Prices (ships, upgrades, admiral ranks) changed since the previous "
        "edition; null for the first"
    )


class PointsChange(Schema):
    kind: str = Field(description="ship, upgrade or admiral")
    slug: str
    name: str
    faction: str | None = Field(description="The faction's slug; null for refits and admirals")
    old: int
    new: int


class Entry(Schema):
    kind: str = Field(description="ship, upgrade or faction")
    slug: str
    name: str
    faction: str | None
    points: int | None


class FieldChange(Schema):
    kind: str = Field(description="stat, weapons, faction_rule, upgrade or ship_text")
    subject: str
    name: str
    faction: str | None
    field: str
    old: str
    new: str


class FactionShare(Schema):
    faction: str
    name: str
    changed: int = Field(description="Ships whose price changed")
    ships: int
    share: float


class EditionDiff(Schema):
    edition: EditionHeader
    against: EditionHeader | None = Field(
        description="The edition compared with: ?against=, else the previous one; null for "
        "the first edition without ?against="
    )
    note: str | None = None
    points: list[PointsChange]
    added: list[Entry]
    removed: list[Entry]
    changes: list[FieldChange]
    factions: list[FactionShare]


def _header(request: HttpRequest, info: EditionInfo, current: int | None) -> dict[str, Any]:
    published = info.published if info.published.tzinfo else info.published.replace(tzinfo=UTC)
    return {
        "number": info.number,
        "title": info.title,
        "label": info.label,
        "published": published,
        "notes": info.notes,
        "data_version": info.data_version,
        "sha256": info.sha256,
        "current": info.number == current,
        "url": request.build_absolute_uri(reverse("editions:edition", args=[info.number])),
    }


def _edition(number: int) -> EditionInfo:
    try:
        return editions.get(number)
    except editions.UnknownEdition as exc:
        raise HttpError(404, exc.message) from None


@router.get(
    "",
    auth=optional_token,
    response=list[EditionListItem],
    summary="Every published edition, newest first",
)
def list_editions(request: HttpRequest) -> list[dict[str, Any]]:
    """The editions this server knows (R-160), newest first: each one's header, whether it is
    the one served now (none is while the server serves a development state), and how many
    prices it changed against the one before it."""
    current = editions.current_number()
    out = []
    for info in reversed(editions.known()):
        since = changelog.since_previous(info)
        out.append(
            {
                **_header(request, info, current),
                "price_changes": since.price_changes if since else None,
            }
        )
    return out


@router.get(
    "/{int:number}/diff",
    auth=optional_token,
    response={200: EditionDiff, 400: s.InputError, 404: s.Error},
    summary="What changed between two editions",
)
def edition_diff(
    request: HttpRequest, number: int, against: int | None = None
) -> dict[str, Any] | Status:
    """What edition ``number`` changed against edition ``against`` (default: the one before
    it): prices of ships, upgrades and admiral ranks (old and new), ships, upgrades and
    factions added or removed, stat, weapon and rule-text changes, and per faction how many of
    its ships were repriced. An edition this server does not know is a 404 listing the known
    editions."""
    info = _edition(number)
    current = editions.current_number()
    if against == number:
        message = f"Compare edition {number} with another edition, not with itself."
        return Status(400, {"detail": message, "errors": [{"path": "against", "message": message}]})
    other = _edition(against) if against is not None else changelog.previous(info)
    if other is None:
        return {
            "edition": _header(request, info, current),
            "against": None,
            "note": f"Edition {number} is the first edition: there is nothing before it. "
            "Pass ?against= to compare it with another.",
            "points": [],
            "added": [],
            "removed": [],
            "changes": [],
            "factions": [],
        }
    log = changelog.between(other, info)
    return {
        "edition": _header(request, info, current),
        "against": _header(request, other, current),
        "note": None,
        **log.diff.to_dict(),
    }
