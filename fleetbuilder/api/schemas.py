"""The API's shapes, for the OpenAPI document: contracts 1–3 as the app already writes them.

Nothing here computes anything: the bodies are built by the same code as the pages and the
command line (``export_catalog``, ``ValidationReport.to_dict``, ``rf.fleet_to_dict``,
``Tally.summary``). Shapes keep ``extra="allow"``: contract 3 welcomes more keys, and a key added
there must reach API clients without a change here.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from ninja import Schema
from pydantic import BaseModel, ConfigDict, Field


class Open(BaseModel):
    """A shape whose other keys pass through (ninja's Schema would drop them)."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


# --- errors ----------------------------------------------------------------------------------


class Error(Schema):
    detail: str


class FieldError(Schema):
    path: str = Field(description="JSON path of the value at fault, e.g. a.sample.faction")
    message: str


class InputError(Error):
    errors: list[FieldError]


# --- contract 2: the validation report ------------------------------------------------------


class Band(Schema):
    name: str
    min: int
    max: int


class Problem(Schema):
    code: str = Field(description="Stable code: format.invalid, catalog.unknown_ship, …")
    severity: Literal["error", "warning"]
    message: str
    unit: int | None = Field(description="0-based index into units")
    ship: int | None = Field(description="0-based index into a squadron's ships")


class Report(Schema):
    """Contract 2, with the edition it was computed under (R-160, R-161)."""

    legal: bool
    points: int
    band: Band | None
    problems: list[Problem]
    edition: int | None = Field(
        None,
        description=(
            "The catalogue edition the report was computed under (R-160): the one the file names, "
            "or the first if it names none (R-161); null for a list of a development state"
        ),
    )
    edition_note: str | None = Field(
        None,
        description=(
            "R-161's note when the file or code named no edition and was read under the first"
        ),
    )


class FileErrorWhere(Schema):
    path: str = Field(description='JSON path at fault ("" for the text as a whole)')
    line: int | None = None
    column: int | None = None


class FileError(Report):
    """A body that is not a usable fleet file: contract 2's report with one ``format.invalid``
    problem, and where the reader stopped."""

    detail: str
    error: FileErrorWhere


# --- contract 1: the fleet file -------------------------------------------------------------


class FleetFile(Open):
    """Contract 1 (``format``: ``void-command-fleet``, ``version``: 1). Read by the same reader
    as an imported file: unknown keys, duplicate keys and shape errors are refused with the
    JSON path."""

    format: Literal["void-command-fleet"]
    version: int
    faction: str
    game_size: str
    units: list[dict[str, Any]]


# --- contract 3: the catalogue --------------------------------------------------------------


class Weapon(Open):
    name: str
    type: str
    arc: str
    strength: int | str | None
    range: int | None


class Ship(Open):
    slug: str
    name: str
    class_: str = Field(alias="class")
    points: int
    speed: int | None
    turns: int | None
    leadership: int | None
    shields: int
    hull: int
    armor: int
    turrets: int
    weapons: list[Weapon]


class Upgrade(Open):
    slug: str
    name: str
    points: int
    classes: list[str]


class Variant(Open):
    slug: str
    name: str


class Faction(Open):
    slug: str
    name: str
    variants: list[Variant]
    ships: list[Ship]
    upgrades: list[Upgrade]
    composition: list[dict[str, Any]]


class Admiral(Open):
    slug: str
    name: str
    points: int
    leadership_bonus: int


class Catalog(Open):
    """``manage.py export_catalog`` (contract 3), byte for byte the same document."""

    edition: int | None = Field(
        None, description="the published edition it is (R-160); null for a development state"
    )
    catalog_version: str
    admirals: list[Admiral]
    factions: list[Faction]


# --- share codes ----------------------------------------------------------------------------


class ShareCode(Schema):
    code: str = Field(description="v1.… (R-90): the whole list, no database needed")
    url: str = Field(description="The fleet's read-only page for this code")


class SharedFleet(Schema):
    code: str
    fleet: FleetFile
    report: Report


# --- saved fleets ---------------------------------------------------------------------------


class FleetSummary(Schema):
    id: int
    name: str
    faction: str
    variant: str | None
    game_size: str
    points: int
    legal: bool
    version: int = Field(description="Send it back with an update: a stale one is a 409")
    created: datetime
    updated: datetime
    url: str = Field(description="The fleet's page in the builder")


class FleetDetail(FleetSummary):
    document: FleetFile
    report: Report


# --- simulator runs -------------------------------------------------------------------------


class Strict(Schema):
    """A request body's shape: a key it does not name is an error (a 400 naming its path),
    not silently dropped ("battels": 10000 would otherwise start a run of 500 battles)."""

    model_config = ConfigDict(extra="forbid")


class SampleSide(Strict):
    faction: str
    size: Literal["patrol", "skirmish", "battle", "armada"] = "skirmish"
    variant: str | None = None


class Side(Strict):
    """One side of a run: exactly one of ``fleet`` (one of your fleets' ids), ``share`` (a
    share code or a shared fleet's link), ``sample`` or ``file`` (a fleet file)."""

    fleet: int | None = None
    share: str | None = None
    sample: SampleSide | None = None
    file: dict[str, Any] | None = None
    policy: str = "standard"


class RunIn(Strict):
    a: Side
    b: Side
    battles: int = Field(500, description="1 to 10000")
    seed: int | None = Field(None, description="Empty: a random seed (the result says it)")
    max_rounds: int = 10
    table: Literal["patrol", "skirmish", "battle", "armada"] | None = None
    scoring: Literal["core", "faq"] = "core"
    terrain: Literal["voidscape", "section13", "void", "none"] = "voidscape"


class RunProgress(Schema):
    id: str
    status: Literal["queued", "running", "done", "failed", "cancelled"]
    battles_requested: int
    battles_done: int
    percent: int
    finished: bool
    error: str | None
    seed: int
    options: dict[str, Any]
    sides: dict[str, Any]
    created: datetime
    url: str = Field(description="The run's results page (anyone holding it may read it)")


class Run(Open):
    """``simulate --json`` (contract 3) for the battles played so far, and ``run``: progress."""

    battles: int
    seed: int
    run: RunProgress


class RunListItem(Schema):
    id: str
    status: str
    battles_requested: int
    battles_done: int
    label_a: str
    label_b: str
    created: datetime
    url: str
