"""The mypyc build of the simulator (scripts/build_sim.py, issue #7): which one runs, that it is
built from the sources on disk, and that it plays the same battles as pure Python."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import rules_core.sim.battle

ROOT = Path(__file__).resolve().parents[3]

# One run of battles, printed as JSON. With PURE=1 an import hook loads every rules_core module
# from its .py source, so the compiled extension modules next to them are never used.
PLAY = r"""
import importlib.machinery as m, json, sys
if sys.argv[1] == "1":
    class Pure:
        @staticmethod
        def find_spec(name, path=None, target=None):
            if name != "rules_core" and not name.startswith("rules_core."):
                return None
            for d in (path if path is not None else sys.path):
                spec = m.FileFinder(d or ".", (m.SourceFileLoader, [".py"])).find_spec(name)
                if spec is not None:
                    return spec
            return None
    sys.meta_path.insert(0, Pure)
from rules_core.catalog import load_catalog_dir
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import simulate
from rules_core.sim.bench import DATA_DIR
import rules_core.sim.battle, rules_core.damage
catalog = load_catalog_dir(DATA_DIR)
a = sample_fleet(catalog, "imperial-navy", "skirmish")
b = sample_fleet(catalog, "orks", "skirmish")
tally = simulate(catalog, a, b, battles=12, seed=7, workers=1)
print(json.dumps({"files": [rules_core.sim.battle.__file__, rules_core.damage.__file__],
                  "summary": tally.summary(seed=7)}, sort_keys=True))
"""


def _play(pure: bool) -> dict:
    out = subprocess.run([sys.executable, "-c", PLAY, "1" if pure else "0"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def _build_script():
    spec = importlib.util.spec_from_file_location("build_sim", ROOT / "scripts" / "build_sim.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_says_which_simulator_runs_and_a_compiled_one_is_built_from_these_sources() -> None:
    compiled = not rules_core.sim.battle.__file__.endswith(".py")
    print(f"simulator: {'compiled (mypyc)' if compiled else 'pure Python'} "
          f"({rules_core.sim.battle.__file__})")
    if compiled:
        build = _build_script()
        assert build.current(), (
            "the compiled simulator is stale: its sources changed after it was built; "
            "run `python scripts/build_sim.py` (or `python scripts/build_sim.py clean`)")


def test_compiled_and_pure_python_play_the_same_battles() -> None:
    compiled = _play(pure=False)
    pure = _play(pure=True)
    assert all(f.endswith(".py") for f in pure["files"])
    assert pure["summary"] == compiled["summary"]
    assert pure["summary"]["battles"] == 12
