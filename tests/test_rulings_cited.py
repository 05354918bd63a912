"""Every ruling in docs/rulings.md is pinned by a test, and no test cites a ruling that does not
exist.

Citation syntax. A test cites ruling ``R-nn`` when the id appears, written ``R-nn`` (``R-9`` and
``R-09`` are the same id):

- anywhere in a test function's source — its docstring, its body including comments (a line
  ``# Pins R-78: ...`` is the usual form), its decorators (``parametrize`` ids); or
- in its name as ``r<nn>`` between underscores (``test_r85_a_brace_reaction_...``); or
- in the module docstring of a test file, which then says what the file's tests pin.

A test function is a function whose name starts with ``test`` in a ``tests/**/*.py`` file, at
module level or in a class. Comments outside test functions do not count. A withdrawn ruling
stays listed in docs/rulings.md and must stay pinned (by a test that it is withdrawn). A range
written ``R-110 – R-121`` cites only its two ends.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULINGS = ROOT / "docs" / "rulings.md"
TESTS = ROOT / "tests"

ROW = re.compile(r"^\| (R-\d+) \|", re.M)
CITED = re.compile(r"\bR-(\d+)\b")
IN_NAME = re.compile(r"(?:^|_)r(\d+)(?=_|$)")


def norm(number: str) -> str:
    return f"R-{int(number):02d}"


def ruling_ids() -> list[str]:
    return [norm(i[2:]) for i in ROW.findall(RULINGS.read_text(encoding="utf-8"))]


def citations() -> dict[str, list[str]]:
    """Each id cited by the tests, with where (``path::test`` or ``path`` for a module
    docstring)."""
    out: dict[str, list[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        where = str(path.relative_to(ROOT))
        for n in CITED.findall(ast.get_docstring(tree) or ""):
            out.setdefault(norm(n), []).append(where)
        for node in ast.walk(tree):
            if not (
                isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
                and node.name.startswith("test")
            ):
                continue
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            text = "\n".join(lines[first - 1 : node.end_lineno])  # whole lines: comments too
            found = {norm(n) for n in CITED.findall(text)}
            found |= {norm(n) for n in IN_NAME.findall(node.name)}
            for i in found:
                out.setdefault(i, []).append(f"{where}::{node.name}")
    return out


def test_rulings_have_unique_ids():
    ids = ruling_ids()
    assert ids and len(ids) == len(set(ids))


def test_every_ruling_is_cited_by_a_test():
    cited = citations()
    missing = [i for i in ruling_ids() if i not in cited]
    assert missing == [], f"rulings no test cites (see this file's docstring): {missing}"


def test_no_test_cites_a_ruling_that_does_not_exist():
    ids = set(ruling_ids())
    unknown = {i: where for i, where in citations().items() if i not in ids}
    assert unknown == {}, f"tests cite rulings docs/rulings.md lacks: {unknown}"


def test_the_syntax_is_read_as_documented(tmp_path):
    """The checker itself: a name, a docstring and a body comment cite; a helper does not."""
    assert IN_NAME.findall("test_r85_brace_and_r9_cripple") == ["85", "9"]
    assert IN_NAME.findall("test_carrier_launches") == []
    assert norm("9") == norm("09") == "R-09"
    assert CITED.findall("R-110 – R-121, HR-5, R-07.") == ["110", "121", "07"]
