"""The apps of ``fleetbuilder`` import in one direction (docs/architecture.md, "The
layers"): the groundwork at the bottom, then the catalogue, saved fleets, what is made of a
fleet (its cards, its runs), what is built on those, and the API and accounts on top. Every
import of every module under ``fleetbuilder`` is read with ``ast``, at module level and inside
functions alike, and must go to the importer's own layer or a layer below it, with no cycle
between apps; and no module may import another app's private (underscore) name.

A unit is an app (``fleetbuilder/fleets``) or a module at the project's top
(``fleetbuilder/renderjobs.py``). Imports under ``if TYPE_CHECKING:`` never run, so they are left
out of the layers, as in tests/rules_core/sim/test_import_layers.py; a private name is refused
there too. That rules_core imports no Django and nothing of ``fleetbuilder`` is
tests/rules_core/test_no_django.py's to check.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "fleetbuilder"
PACKAGE = "fleetbuilder"

# Bottom to top. A module may import from its own layer and the layers below it.
LAYERS: list[tuple[str, set[str]]] = [
    (
        "the groundwork (no app)",
        {
            "__init__",
            "celery",
            "config",
            "settings",
            "wsgi",
            "dbready",
            "http",
            "text",
            "nav",
            "sharedstate",
            "ownership",
            "ratelimit",
            "runs",
        },
    ),
    ("the catalogue", {"catalog"}),
    ("saved fleets", {"fleets"}),
    (
        "made of a fleet (and beside it)",
        {"cards", "simulator", "gunnery", "ops", "pdfcache", "renderjobs"},
    ),
    ("built on those", {"analysis", "battlepack", "balance", "editions", "events"}),
    ("the whole site", {"api", "accounts", "urls"}),
]
LEVEL = {unit: i for i, (_, units) in enumerate(LAYERS) for unit in units}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def unit_of(module: str) -> str | None:
    """The unit of a dotted module name, or None outside ``fleetbuilder``."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    return parts[1] if len(parts) > 1 else "__init__"


def _exists(module: str) -> bool:
    path = ROOT.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


class Import:
    """One imported module (and name) of ``fleetbuilder``: its unit, line, and whether it
    runs (not under ``if TYPE_CHECKING:``) and is private."""

    def __init__(self, module: str, name: str | None, line: int, runs: bool) -> None:
        self.module, self.name, self.line, self.runs = module, name, line, runs
        self.unit = unit_of(module)

    @property
    def private(self) -> bool:
        return any(_is_private(part) for part in self.module.split(".")) or (
            self.name is not None and _is_private(self.name)
        )

    @property
    def what(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


def imports(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """The ``fleetbuilder`` modules (and names) ``source``, the text of ``module``, imports:
    at module level and inside functions, each with its line. ``from a.b import c`` is module
    ``a.b.c`` when that is a module, else name ``c`` of ``a.b``. Attribute reads of another
    unit's private name through an imported module (``views._x``) count as imports of it."""
    package = module if is_package else module.rpartition(".")[0]
    found: list[Import] = []
    modules_bound: dict[str, str] = {}  # local name -> module it is bound to

    def add(target: str, name: str | None, line: int, runs: bool, bound: str | None) -> None:
        if name is not None and _exists(f"{target}.{name}"):
            target, name = f"{target}.{name}", None
        found.append(Import(target, name, line, runs))
        if bound and name is None:
            modules_bound[bound] = target

    def visit(node: ast.AST, runs: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, False)
            for child in node.orelse:
                visit(child, runs)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if unit_of(target) is not None:
                for alias in node.names:
                    add(target, alias.name, node.lineno, runs, alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if unit_of(alias.name) is not None:
                    add(
                        alias.name,
                        None,
                        node.lineno,
                        runs,
                        alias.asname or (alias.name if "." not in alias.name else None),
                    )
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in modules_bound
            and _is_private(node.attr)
        ):
            found.append(Import(modules_bound[node.value.id], node.attr, node.lineno, runs))
        for child in ast.iter_child_nodes(node):
            visit(child, runs)

    visit(ast.parse(source), True)
    return found


def project_imports() -> dict[Path, list[Import]]:
    return {
        path: imports(path.read_text(), module_name(path), is_package=path.name == "__init__.py")
        for path in sorted(PROJECT.rglob("*.py"))
    }


def where(path: Path, imp: Import) -> str:
    return f"{path.relative_to(ROOT)}:{imp.line}"


def test_every_app_and_top_module_has_a_layer() -> None:
    units = {unit_of(module_name(path)) for path in project_imports()}
    assert units == set(LEVEL), "place a new app or module in LAYERS"


def test_no_import_runs_back_up() -> None:
    upward = [
        f"{where(path, imp)} imports {imp.what} "
        f"({LAYERS[LEVEL[imp.unit]][0]} is above {LAYERS[LEVEL[unit]][0]})"
        for path, found in project_imports().items()
        if (unit := unit_of(module_name(path))) is not None
        for imp in found
        if imp.runs and imp.unit is not None and LEVEL[imp.unit] > LEVEL[unit]
    ]
    assert upward == []


def test_the_apps_import_each_other_in_no_cycle() -> None:
    graph: dict[str, set[str]] = {unit: set() for unit in LEVEL}
    for path, found in project_imports().items():
        unit = unit_of(module_name(path))
        assert unit is not None
        graph[unit] |= {
            imp.unit for imp in found if imp.runs and imp.unit is not None and imp.unit != unit
        }
    done: set[str] = set()

    def walk(unit: str, path: list[str]) -> list[str] | None:
        if unit in path:
            return path[path.index(unit) :] + [unit]
        if unit in done:
            return None
        for imported in sorted(graph[unit]):
            cycle = walk(imported, path + [unit])
            if cycle:
                return cycle
        done.add(unit)
        return None

    cycles = [cycle for unit in sorted(graph) if (cycle := walk(unit, []))]
    assert cycles == []


def test_no_module_imports_another_apps_private_name() -> None:
    private = [
        f"{where(path, imp)} imports {imp.what}"
        for path, found in project_imports().items()
        for imp in found
        if imp.private and imp.unit != unit_of(module_name(path))
    ]
    assert private == []


def test_the_walk_sees_imports_inside_functions_and_not_type_checking_ones() -> None:
    # The checks would pass vacuously if the walk missed an import inside a function (one used
    # to hold the circle together), a relative or a submodule import, or a private name read
    # through an imported module; an annotation-only import is not a layer's import.
    source = """
from typing import TYPE_CHECKING
from fleetbuilder.cards import views as cards
from .. import ratelimit
from .models import Fleet
import fleetbuilder.renderjobs
if TYPE_CHECKING:
    from fleetbuilder.api.models import ApiToken
def view():
    from fleetbuilder.simulator.models import _lock_owner
    return cards._share_url
"""
    found = imports(source, "fleetbuilder.fleets.sharing")
    assert [(i.unit, i.what, i.line, i.runs, i.private) for i in found] == [
        ("cards", "fleetbuilder.cards.views", 3, True, False),
        ("ratelimit", "fleetbuilder.ratelimit", 4, True, False),
        ("fleets", "fleetbuilder.fleets.models.Fleet", 5, True, False),
        ("renderjobs", "fleetbuilder.renderjobs", 6, True, False),
        ("api", "fleetbuilder.api.models.ApiToken", 8, False, False),
        ("simulator", "fleetbuilder.simulator.models._lock_owner", 10, True, True),
        ("cards", "fleetbuilder.cards.views._share_url", 11, True, True),
    ]
