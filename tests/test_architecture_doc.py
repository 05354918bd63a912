"""The code cites docs/architecture.md ("contract N"): every contract it cites is a section
there, and every file the document names exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "architecture.md"


def test_every_contract_the_code_cites_is_a_section_of_the_architecture() -> None:
    sections = set(re.findall(r"^## Contract (\d+)\b", DOC.read_text(), re.MULTILINE))
    cited: dict[str, set[str]] = {}
    for folder in ("fleetbuilder", "rules_core", "templates"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".html") and path.is_file():
                for number in re.findall(r"\b[Cc]ontracts? (\d+)", path.read_text()):
                    cited.setdefault(number, set()).add(str(path.relative_to(ROOT)))
    assert cited, "no contract cited: the pattern no longer matches the code"
    missing = {n: sorted(paths)[:3] for n, paths in cited.items() if n not in sections}
    assert missing == {}


def test_the_files_the_architecture_names_exist() -> None:
    text = DOC.read_text()
    named = set(re.findall(r"\]\(([^)#]+)\)", text))  # links
    named |= {m for m in re.findall(r"`((?:fleetbuilder|rules_core|scripts|tests)/[\w/.]+)`", text)}
    assert named
    missing = [
        n for n in sorted(named) if not (DOC.parent / n).exists() and not (ROOT / n).exists()
    ]
    assert missing == []
