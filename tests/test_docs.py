"""The docs a newcomer reads name only what exists: every file path and every ``manage.py``
command named in the README and docs/*.md, and every link between them."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ROOTS = (
    "fleetbuilder/",
    "rules_core/",
    "scripts/",
    "tests/",
    "tools/",
    "docs/",
    "templates/",
    "static/",
    "loadtest/",
)
PATH = re.compile(r"`((?:" + "|".join(re.escape(r) for r in ROOTS) + r")[\w./-]*)")
COMMAND = re.compile(r"manage\.py ([a-z_]+)")


def _commands() -> set[str]:
    from django.core.management import get_commands

    return set(get_commands())


def test_every_path_the_docs_name_exists() -> None:
    missing = []
    for doc in DOCS:
        for path in PATH.findall(doc.read_text()):
            path = path.rstrip(".,:;")
            if "*" in path or "<" in path or "NNN" in path:
                continue
            if not (ROOT / path).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {path}")
    assert missing == []


def test_every_manage_py_command_the_docs_name_exists() -> None:
    known = _commands()
    named = {
        (doc.relative_to(ROOT).as_posix(), c)
        for doc in DOCS
        for c in COMMAND.findall(doc.read_text())
    }
    assert named
    assert sorted(f"{d}: manage.py {c}" for d, c in named if c not in known) == []


def test_every_link_between_the_docs_resolves() -> None:
    missing = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", doc.read_text()):
            if target.startswith(("http://", "https://", "mailto:")):
                continue
            if not (doc.parent / target).exists():
                missing.append(f"{doc.relative_to(ROOT)}: {target}")
    assert missing == []
