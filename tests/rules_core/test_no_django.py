"""rules_core is the game in pure Python (docs/architecture.md, "The layers"): no module of it
imports Django or the Django project, at module level or inside a function, and importing every
one of its modules, in a fresh interpreter, loads neither."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rules_core"


def _framework(module: str) -> bool:
    top = module.split(".")[0]
    return top.startswith("django") or top in ("fleetbuilder", "celery")


def framework_imports(source: str) -> list[tuple[str, int]]:
    """The Django (``django``, ``django_*``), Celery and ``fleetbuilder`` modules ``source``
    imports, anywhere in it, with their lines."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names if _framework(alias.name)]
        elif (
            isinstance(node, ast.ImportFrom)
            and node.level == 0
            and node.module
            and _framework(node.module)
        ):
            found.append((node.module, node.lineno))
    return found


def modules() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_no_module_of_rules_core_imports_django_or_the_project() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for module, line in framework_imports(path.read_text())
    ]
    assert found == []


def test_importing_every_module_of_rules_core_loads_no_django() -> None:
    every = modules()
    assert "rules_core.sim.battle" in every and "rules_core.cards.render" in every
    code = (
        "import importlib, sys\n"
        f"for name in {every!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0].startswith('django')\n"
        "                or m.split('.')[0] in ('fleetbuilder', 'celery'))\n"
        "sys.exit(' '.join(loaded[:10]) or None)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr[-2000:]


def test_the_walk_sees_an_import_inside_a_function() -> None:
    source = "import json\ndef page():\n    from django.http import HttpResponse\n"
    assert framework_imports(source) == [("django.http", 3)]
