"""Starting a run from JSON with the matchup page's own form (``simulator.forms.MatchupForm``):
the same sides (one of your fleets, a shared fleet, a sample), the same checks and messages,
plus one side the page has no field for: a fleet file in the body, read under its own edition
(R-163; none: the first, with a note, R-161)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fleetbuilder.fleets.incoming import UnknownEdition, arrive
from fleetbuilder.simulator.forms import MatchupForm, Side
from rules_core import fleet as rf
from rules_core.validator import check_points_bound, validate

from . import schemas as s

SIDES = ("a", "b")
# The form's field (after "a_") → where it is in the JSON body (after "a.").
_PATHS = {
    "source": "",
    "fleet": "fleet",
    "share": "share",
    "faction": "sample.faction",
    "variant": "sample.variant",
    "size": "sample.size",
    "policy": "policy",
}


@dataclass(frozen=True)
class FileSide:
    """A side given as a fleet file: the list with its edition settled, and why (R-161)."""

    fleet: rf.Fleet
    note: str = ""


def side_file(raw: object) -> FileSide:
    """A side's fleet file read (FleetFormatError at the path at fault), its edition settled
    (none: the first, with a note, R-161; one this server does not know: a FleetFormatError at
    ``edition`` listing the known ones) and held to R-95's bound under that edition."""
    try:
        arrival = arrive(rf.parse_fleet(raw))
    except UnknownEdition as exc:
        raise rf.FleetFormatError("edition", str(exc)) from None
    check_points_bound(validate(arrival.fleet, arrival.catalog))
    return FileSide(arrival.fleet, arrival.note)


def form_data(payload: s.RunIn) -> dict[str, Any]:
    """The JSON body as the matchup form's fields. A side names exactly one source."""
    data: dict[str, Any] = {
        "battles": payload.battles,
        "max_rounds": payload.max_rounds,
        "table": payload.table or "",
        "scoring": payload.scoring,
        "terrain": payload.terrain,
        "seed": "" if payload.seed is None else payload.seed,
    }
    for name in SIDES:
        side: s.Side = getattr(payload, name)
        given = [k for k in ("fleet", "share", "sample", "file") if getattr(side, k) is not None]
        data[f"{name}_source"] = (
            {"share": "shared"}.get(given[0], given[0]) if len(given) == 1 else ""
        )
        data[f"{name}_policy"] = side.policy
        if side.fleet is not None:
            data[f"{name}_fleet"] = side.fleet
        if side.share is not None:
            data[f"{name}_share"] = side.share
        if side.sample is not None:
            data[f"{name}_faction"] = side.sample.faction
            data[f"{name}_size"] = side.sample.size
            data[f"{name}_variant"] = side.sample.variant or ""
    return data


def form_paths(form: MatchupForm) -> list[tuple[str, str]]:
    """The form's errors, each with the JSON path of the value at fault."""
    out = []
    for field, errors in form.errors.items():
        side, _, rest = field.partition("_")
        if side in SIDES and rest in _PATHS:
            path = f"{side}.{_PATHS[rest]}".rstrip(".")
        else:
            path = "" if field == "__all__" else field
        for message in errors:
            if rest == "source" and side in SIDES and not form.data.get(field):
                message = "Give exactly one of fleet, share, sample or file."
            out.append((path, str(message)))
    return out


class ApiMatchupForm(MatchupForm):
    """The matchup form, with a side that is a fleet file (read and bounded by the caller)."""

    def __init__(self, *args: Any, fleet_files: dict[str, FileSide], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fleet_files = fleet_files  # not Form.files, the uploads Django reads
        for name in SIDES:
            field = self.fields[f"{name}_source"]
            field.choices = [*field.choices, ("file", "A fleet file")]  # type: ignore[attr-defined]
            if "fleet" not in {c[0] for c in field.choices}:  # type: ignore[attr-defined]
                # The page offers "your fleet" only to a player with fleets; the API says why.
                field.choices = [*field.choices, ("fleet", "One of your fleets")]  # type: ignore[attr-defined]

    def _side(self, side: str, data: dict[str, Any]) -> Side | None:
        if data.get(f"{side}_source") == "file":
            given = self.fleet_files[side]
            fleet = given.fleet
            return Side(
                fleet,
                {
                    "kind": "file",
                    "label": fleet.name or f"Fleet {side.upper()}",
                    **({"note": given.note} if given.note else {}),
                },
            )
        if data.get(f"{side}_source") == "fleet" and f"{side}_fleet" not in self.fields:
            self.add_error(f"{side}_source", "You have no saved fleets.")
            return None
        return super()._side(side, data)
