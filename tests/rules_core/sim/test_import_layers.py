"""The simulator's modules import in one direction: state and geometry at the
bottom, the rules above them, faction rules as hooks the rules call, the activation, the policy
and the battle loop on top. Every import inside ``rules_core/sim`` is read with ``ast``, at
module level and inside functions alike, and must go to the importer's own layer or one below
it, with no cycle anywhere.

Imports under ``if TYPE_CHECKING:`` never run: they name types for annotations only (a rule
takes the ``Battle`` it plays on), so they are left out.
"""

from __future__ import annotations

import ast
from pathlib import Path

SIM = Path(__file__).resolve().parents[3] / "rules_core" / "sim"
PACKAGE = "rules_core.sim"

# Bottom to top. A module may import from its own layer and the layers below it.
LAYERS: list[tuple[str, set[str]]] = [
    ("results, options and errors", {"api"}),
    ("state and geometry", {"faction_rules", "state", "geometry"}),
    ("faction rules the rules call (hooks)", {"factions"}),
    ("rules", {"orders", "terrain", "movement", "advanced_movement", "gunnery", "ordnance"}),
    ("faction rules built on the rules", {"faction_actions"}),
    ("one unit's activation", {"activation"}),
    ("the policy", {"policy"}),
    ("the battle loop", {"battle"}),
    ("runs of battles and their API", {"batch", "replay", "bench", "__init__"}),
]
LEVEL = {module: i for i, (_, modules) in enumerate(LAYERS) for module in modules}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def sim_imports(source: str, importer: str) -> list[tuple[str, int]]:
    """The ``rules_core.sim`` modules ``source`` imports (module level and inside functions,
    not under ``if TYPE_CHECKING:``), with the line of each import."""
    found: list[tuple[str, int]] = []
    is_package = importer == "__init__"

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 or (
                node.level == 0
                and node.module is not None
                and (node.module + ".").startswith(PACKAGE + ".")
            ):
                base = (
                    (node.module or "")
                    if node.level == 1
                    else node.module.removeprefix(PACKAGE).lstrip(".")
                )  # type: ignore[union-attr]
                if base:
                    found.append((base.split(".")[0], node.lineno))
                else:  # from . import orders: each name is a module (or __init__'s)
                    for alias in node.names:
                        name = alias.name
                        found.append(
                            (name if (SIM / f"{name}.py").exists() else "__init__", node.lineno)
                        )
            elif (
                node.level == 2
                and not is_package
                and node.module in (None, "sim")
                and any(a.name == "sim" for a in node.names)
            ):
                found.append(("__init__", node.lineno))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == PACKAGE:
                    found.append(("__init__", node.lineno))
                elif alias.name.startswith(PACKAGE + "."):
                    found.append(
                        (alias.name.removeprefix(PACKAGE + ".").split(".")[0], node.lineno)
                    )
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(source))
    return [(m, line) for m, line in found if m != importer]


def import_graph() -> dict[str, list[tuple[str, int]]]:
    return {
        path.stem: sim_imports(path.read_text(), path.stem) for path in sorted(SIM.glob("*.py"))
    }


def test_every_simulator_module_has_a_layer():
    assert set(import_graph()) == set(LEVEL), "place a new module in LAYERS"


def test_no_import_runs_back_up():
    upward = [
        f"{importer}.py:{line} imports {imported} "
        f"({LAYERS[LEVEL[imported]][0]} is above {LAYERS[LEVEL[importer]][0]})"
        for importer, imports in import_graph().items()
        for imported, line in imports
        if LEVEL[imported] > LEVEL[importer]
    ]
    assert upward == []


def test_the_simulator_imports_have_no_cycle():
    graph = {m: sorted({i for i, _ in imports}) for m, imports in import_graph().items()}
    done: set[str] = set()

    def walk(module: str, path: list[str]) -> list[str] | None:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return None
        for imported in graph[module]:
            cycle = walk(imported, path + [module])
            if cycle:
                return cycle
        done.add(module)
        return None

    cycles = [c for m in graph if (c := walk(m, []))]
    assert cycles == []


def test_the_walk_sees_imports_inside_functions_and_not_type_checking_ones():
    # The check would pass vacuously if it missed the imports that used to hold the circle
    # together (an import inside a function) or counted annotation-only ones.
    source = """
from typing import TYPE_CHECKING
from . import orders as o
from .. import damage
if TYPE_CHECKING:
    from .battle import Battle
def command_step():
    from .gunnery import gun_range
    import rules_core.sim.policy
"""
    assert sim_imports(source, "factions") == [("orders", 3), ("gunnery", 8), ("policy", 9)]
