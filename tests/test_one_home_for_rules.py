"""Every rule constant and every refusal has one home, in rules_core (item 1).

What is checked, by reading the sources with ``ast`` (nothing is imported):

- **Rule constants** are the module-level UPPER_CASE names assigned in the modules that state
  the rules: ``rules_core/validator.py`` (SQUADRON_MAX, LEADERSHIP_CAP, …), ``limits.py``
  (R-20 and R-95's bounds), ``catalog.py``, ``fleet.py`` (POINTS_BANDS, R-04) and ``edits.py``.
  A module-level UPPER_CASE assignment anywhere in ``fleetbuilder/`` fails the test when it has
  the same name as one of them, or when it gives a number equal to one of them under a name
  sharing a word of its subject (``MAX_ESCORTS_PER_SQUADRON = 4`` beside ``SQUADRON_MAX = 4``:
  words such as MAX, MIN and PER do not count). Importing the constant is the way to use it.
- **Refusal strings** are the words rules_core refuses with: every string in
  ``rules_core/edits.py`` (its refusals and reasons) and the message of every problem the
  validator reports (``add("code", message)``, ``Problem("code", message)``, a returned
  ``("code", message)``) or returns from a wording helper. Each literal piece of four words or
  more (an f-string's fixed parts taken one by one) is a refusal fragment. A string in
  ``fleetbuilder/`` (docstrings aside) that contains a refusal fragment fails the test: the
  builder re-wrote a refusal instead of showing rules_core's (``str(exc)`` of
  ``EditRefused``, a problem's ``message``).

The last test runs the same finders over the shapes this issue removed from
``fleets/models.py``, so a finder that stopped finding would fail too.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULE_MODULES = ("validator.py", "limits.py", "catalog.py", "fleet.py", "edits.py")
# The fleet file's own format id and version: every file kind (a backup, an account export)
# has its own, under the same names.
NOT_RULES = {"FORMAT", "VERSION"}
UPPER = re.compile(r"^_?[A-Z][A-Z0-9_]*$")
CODE = re.compile(r"^[a-z_]+\.[a-z_.]+$")  # a problem code: "squadron.too_large"
EDGES = " \n.,;:()"  # a piece's joins to the values around it: "); a fleet has at most one."
GENERIC_WORDS = {"MAX", "MIN", "PER", "OF", "THE", "DEFAULT", "LIMIT", "COUNT", "NUMBER"}


@dataclass(frozen=True)
class Constant:
    name: str
    value: object  # the literal's value; None when it is not a literal
    where: str


def module_constants(source: str, where: str) -> list[Constant]:
    """The module-level UPPER_CASE assignments of ``source``."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name) and UPPER.match(target.id):
                found.append(Constant(target.id, _literal(value), f"{where}:{node.lineno}"))
    return found


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _words(name: str) -> set[str]:
    """The subject words of a constant's name, plurals made singular."""
    words = {w[:-1] if w.endswith("S") and len(w) > 3 else w for w in name.strip("_").split("_")}
    return words - GENERIC_WORDS - {""}


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def redefinitions(constants: list[Constant], rules: list[Constant]) -> list[str]:
    """Each of ``constants`` that re-defines one of ``rules``: by name, or by value under a
    name sharing a subject word."""
    by_name = {r.name: r for r in rules}
    found = []
    for c in constants:
        if c.name in by_name:
            found.append(f"{c.where}: {c.name} is defined in {by_name[c.name].where}")
            continue
        for r in rules:
            if (
                _number(c.value)
                and _number(r.value)
                and c.value == r.value
                and _words(c.name) & _words(r.name)
            ):
                found.append(f"{c.where}: {c.name} = {c.value!r} is {r.name} ({r.where})")
    return found


def _pieces(node: ast.expr) -> Iterator[str]:
    """The literal text of a string expression, an f-string's fixed parts one by one."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        for part in node.values:
            yield from _pieces(part)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _pieces(node.left)
        yield from _pieces(node.right)


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree``'s module, classes and functions."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def strings(source: str) -> list[tuple[int, str]]:
    """Every string piece of ``source`` but docstrings, with its line."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            found += [(node.lineno, p) for p in _pieces(node)]
        elif (
            isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
        ):
            found.append((node.lineno, node.value))
    return found


def problem_messages(source: str) -> list[str]:
    """The message pieces of every problem ``source`` reports (the argument after a problem
    code in a call or a tuple) and of every string a function of it returns (its wording
    helpers, such as the head of R-31's limit)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Return) and node.value is not None:
            found += _pieces(node.value)
        items = (
            node.args
            if isinstance(node, ast.Call)
            else node.elts
            if isinstance(node, ast.Tuple)
            else []
        )
        for code, message in zip(items, items[1:], strict=False):
            if (
                isinstance(code, ast.Constant)
                and isinstance(code.value, str)
                and CODE.match(code.value)
            ):
                found += _pieces(message)
    return found


def fragments(texts: list[str]) -> set[str]:
    """The pieces long enough to be a refusal's own words (four words or more: "This fleet
    has" is everyday English, "A fleet may take" is R-31's refusal)."""
    pieces = {t.strip(EDGES) for t in texts}
    return {t for t in pieces if len(t.split()) >= 4}


def repeated_refusals(source: str, where: str, refusals: set[str]) -> list[str]:
    return sorted(
        {
            f"{where}:{line}: {text!r} repeats rules_core's {fragment!r}"
            for line, text in strings(source)
            for fragment in refusals
            if fragment in text
        }
    )


# --- what rules_core holds, and what fleetbuilder does ------------------------------------


def rule_constants() -> list[Constant]:
    found = []
    for name in RULE_MODULES:
        path = ROOT / "rules_core" / name
        found += [
            c
            for c in module_constants(path.read_text(), f"rules_core/{name}")
            if c.name not in NOT_RULES
        ]
    return found


def refusal_fragments() -> set[str]:
    edits = (ROOT / "rules_core" / "edits.py").read_text()
    validator = (ROOT / "rules_core" / "validator.py").read_text()
    return fragments([text for _, text in strings(edits)] + problem_messages(validator))


def fleetbuilder_sources() -> Iterator[tuple[str, str]]:
    for path in sorted((ROOT / "fleetbuilder").rglob("*.py")):
        yield str(path.relative_to(ROOT)), path.read_text()


def test_the_rules_and_refusals_looked_for_are_there() -> None:
    names = {c.name for c in rule_constants()}
    assert {
        "SQUADRON_MAX",
        "SQUADRON_MIN",
        "LEADERSHIP_CAP",
        "MAX_UNITS",
        "MAX_FLEET_SHIPS",
        "POINTS_BANDS",
    } <= names
    refusals = refusal_fragments()
    assert "An escort cannot be the flagship; choose a capital ship (R-05" in refusals
    assert "is a capital ship; only escorts fly in squadrons" in refusals
    assert "A fleet may take" in refusals  # R-31's limit, in the validator
    assert "a fleet has at most one" in refusals  # a validator problem: admiral.multiple


def test_fleetbuilder_defines_no_rule_constant_of_rules_core() -> None:
    rules = rule_constants()
    found = []
    for where, source in fleetbuilder_sources():
        found += redefinitions(module_constants(source, where), rules)
    assert found == []


def test_fleetbuilder_words_no_refusal_of_its_own_that_rules_core_words() -> None:
    refusals = refusal_fragments()
    found = []
    for where, source in fleetbuilder_sources():
        found += repeated_refusals(source, where, refusals)
    assert found == []


def test_the_finders_find_what_fleets_models_used_to_hold() -> None:
    # The shapes issue 32 moved out of fleetbuilder/fleets/models.py, as they were written.
    before = """
MAX_ESCORTS_PER_SQUADRON = 4
SQUADRON_MIN = 2
MAX_TOKENS_PER_ACCOUNT = 20


def add_escort(profile):
    raise EditError(f"{profile.name} is a capital ship; only escorts fly in squadrons.")


def set_flagship():
    raise EditError("An escort cannot be the flagship; choose a capital ship (R-05).")


def upgrade_reason(upgrade, times):
    return f"A fleet may take {upgrade.name} at most {times}, and this one already does."
"""
    found = redefinitions(module_constants(before, "models.py"), rule_constants())
    assert [f.split(":")[1] for f in found] == ["2", "3"]  # not the tokens (no shared subject)
    repeated = repeated_refusals(before, "models.py", refusal_fragments())
    assert {r.split(":")[1] for r in repeated} == {"8", "12", "16"}
