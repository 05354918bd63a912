"""Rosters for the import tests, written as BattleScribe writes them, from the real BSData entry
ids the crosswalk records (rules_core/importers/bsdata_crosswalk.json)."""

from __future__ import annotations

import io
import json
import secrets
import zipfile
from dataclasses import dataclass, field
from xml.sax.saxutils import quoteattr

from rules_core.importers import crosswalk

NS = "http://www.battlescribe.net/schema/rosterSchema"


@dataclass
class Sel:
    """A selection: a BSData entry by its id (or a bare name, for one the crosswalk lacks)."""

    entry: str
    number: int = 1
    custom_name: str = ""
    children: list[Sel] = field(default_factory=list)
    name: str = ""  # the roster's name for it; the crosswalk's when empty
    points: float | None = None  # its own cost; the crosswalk's when None
    type: str = ""
    categories: tuple[str, ...] = ()
    link: bool = True  # written as BattleScribe writes a linked entry: "linkId::entryId"


def entry(entry_id: str) -> crosswalk.Entry:
    return crosswalk.load().entries[entry_id]


def find(kind: str, name: str, catalogue: str | None = None) -> str:
    """The id of the crosswalk's entry of ``kind`` named ``name`` (of ``catalogue``)."""
    for key, e in crosswalk.load().entries.items():
        if e.kind == kind and e.name == name and (catalogue is None or e.catalogue == catalogue):
            return key
    raise KeyError(f"no {kind} {name!r} in the crosswalk")


def _name(sel: Sel) -> str:
    if sel.name:
        return sel.name
    known = crosswalk.load().entries.get(sel.entry)
    return known.name if known else sel.entry


def _points(sel: Sel) -> float:
    if sel.points is not None:
        return sel.points
    known = crosswalk.load().entries.get(sel.entry)
    return float(known.points * sel.number) if known else 0.0


def _xml(sel: Sel, indent: str) -> str:
    known = crosswalk.load().entries.get(sel.entry)
    kind = sel.type or ("unit" if known and known.kind == "ship" else "upgrade")
    path = f"{secrets.token_hex(2)}-{secrets.token_hex(2)}::{sel.entry}" if sel.link else sel.entry
    attrs = (
        f'id="{secrets.token_hex(4)}" name={quoteattr(_name(sel))} '
        f'entryId={quoteattr(path)} number="{sel.number}" type="{kind}"'
    )
    if sel.custom_name:
        attrs += f" customName={quoteattr(sel.custom_name)}"
    inner = [f'{indent}  <costs><cost name="pts" typeId="points" value="{_points(sel)}"/></costs>']
    if sel.categories:
        inner.append(
            f"{indent}  <categories>"
            + "".join(
                f'<category id="c{i}" name={quoteattr(c)} entryId="c{i}" '
                f'primary="{str(i == 0).lower()}"/>'
                for i, c in enumerate(sel.categories)
            )
            + "</categories>"
        )
    if sel.children:
        inner.append(f"{indent}  <selections>")
        inner += [_xml(c, indent + "    ") for c in sel.children]
        inner.append(f"{indent}  </selections>")
    return f"{indent}<selection {attrs}>\n" + "\n".join(inner) + f"\n{indent}</selection>"


def total(selections: list[Sel]) -> float:
    return sum(_points(s) + total(s.children) for s in selections)


def ros(
    force: str,
    selections: list[Sel],
    *,
    name: str = "Imported Roster",
    limit: int = 1500,
    extra_forces: str = "",
) -> bytes:
    """A ``.ros`` roster of one force (a BSData force entry id) holding ``selections``."""
    cw = crosswalk.load()
    listed = cw.forces[force]
    catalogue_id = next(k for k, v in cw.catalogue_names.items() if v == listed.catalogue)
    body = "\n".join(_xml(s, "        ") for s in selections)
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<roster id="r1" name={quoteattr(name)} battleScribeVersion="2.03" \
gameSystemId="de5d6c5f-ae7b-4dd1-841e-5f1193fb5176" gameSystemName="Battlefleet Gothic" \
gameSystemRevision="45" xmlns="{NS}">
  <costs><cost name="pts" typeId="points" value="{total(selections)}"/></costs>
  <costLimits><costLimit name="pts" typeId="points" value="{limit}"/></costLimits>
  <forces>
    <force id="f1" name={quoteattr(listed.name)} entryId="{force}" \
catalogueId="{catalogue_id}" catalogueRevision="13" catalogueName={quoteattr(listed.catalogue)}>
      <selections>
{body}
      </selections>
    </force>{extra_forces}
  </forces>
</roster>
""".encode()


def rosz(data: bytes, member: str = "roster.ros") -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(member, data)
    return buffer.getvalue()


def as_json(data: bytes) -> bytes:
    """The roster as New Recruit's JSON export: the same tree, attributes as keys."""
    from xml.etree import ElementTree as ET

    def tree(element: ET.Element) -> dict:
        out: dict = dict(element.attrib)
        for child in element:
            tag = child.tag.rsplit("}", 1)[-1]
            out[tag] = [tree(g) for g in child]
        return out

    root = ET.fromstring(data)
    doc = tree(root)
    for force in doc.get("forces", []):  # New Recruit's own category on every unit
        for selection in force.get("selections", []):
            selection.setdefault("categories", []).append(
                {"id": "nr", "name": "Illegal Units", "entryId": "nr", "primary": "false"}
            )
    return json.dumps({"roster": doc}).encode()
