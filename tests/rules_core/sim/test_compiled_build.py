"""The mypyc build of the simulator (scripts/build_sim.py, issues #7 and #14): it lives in
build/mypyc/, outside the sources; it is loaded only when its manifest matches the sources byte
for byte (rules_core.compiled); and it plays the same battles as pure Python."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rules_core.sim.battle
from rules_core import compiled

ROOT = Path(__file__).resolve().parents[3]
FRESH = compiled.refusal(compiled.DEFAULT_BUILD) is None
needs_build = pytest.mark.skipif(
    not FRESH,
    reason=f"no compiled build matching the sources "
    f"({compiled.refusal(compiled.DEFAULT_BUILD)}): run `python scripts/build_sim.py`",
)

# One run of battles, printed as JSON, with rules_core's log lines on stderr.
PLAY = r"""
import json, logging, sys
logging.basicConfig(level=logging.DEBUG, format="%(name)s: %(message)s")
from rules_core.catalog import DATA_DIR, load_catalog_dir
from rules_core.sample_fleets import sample_fleet
from rules_core.sim import simulate
import rules_core.sim.battle, rules_core.damage
catalog = load_catalog_dir(DATA_DIR)
a = sample_fleet(catalog, "imperial-navy", "skirmish")
b = sample_fleet(catalog, "orks", "skirmish")
tally = simulate(catalog, a, b, battles=12, seed=7, workers=1)
print(json.dumps({"files": [rules_core.sim.battle.__file__, rules_core.damage.__file__],
                  "summary": tally.summary(seed=7)}, sort_keys=True))
"""


def _play(build: str | Path) -> tuple[dict, str]:
    import os

    env = {**os.environ, "RULES_CORE_BUILD": str(build)}
    proc = subprocess.run(
        [sys.executable, "-c", PLAY], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    ours = [line for line in proc.stderr.splitlines() if line.startswith("rules_core.")]
    return json.loads(proc.stdout), "\n".join(ours)


def test_no_build_artifact_inside_the_sources() -> None:
    left = [
        p
        for p in (ROOT / "rules_core").rglob("*")
        if p.suffix in (".so", ".pyd", ".c", ".o") or p.name == ".mypyc-build"
    ]
    assert left == []


def test_says_which_simulator_runs_and_it_is_the_build_exactly_when_the_build_is_fresh() -> None:
    file = rules_core.sim.battle.__file__
    print(f"simulator: {'compiled (mypyc)' if FRESH else 'pure Python'} ({file})")
    if FRESH:
        assert compiled.loaded_build() == compiled.DEFAULT_BUILD
        assert Path(file).is_relative_to(compiled.DEFAULT_BUILD) and not file.endswith(".py")
    else:
        assert compiled.loaded_build() is None and file.endswith(".py")


def _build_script():  # scripts/build_sim.py, loaded by path
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_sim", ROOT / "scripts" / "build_sim.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_depends_on_the_compiled_modules_and_everything_they_import() -> None:
    deps = _build_script().dependencies()
    assert {
        "rules_core/sim/battle.py",
        "rules_core/sim/policy.py",
        "rules_core/damage.py",
        "rules_core/catalog.py",
        "rules_core/validator.py",
        "rules_core/__init__.py",
        "rules_core/sim/__init__.py",
        "rules_core/sim/batch.py",
    } <= set(deps)
    assert not [d for d in deps if d.startswith(("rules_core/cards/", "rules_core/whatif/"))]


def test_a_source_edited_after_the_build_makes_the_loader_refuse_it(tmp_path: Path) -> None:
    # A copy of the sources with one line added to one of them, checked against a manifest of
    # the sources as they are: nothing in the work tree changes.
    package = tmp_path / "rules_core"
    shutil.copytree(ROOT / "rules_core", package, ignore=shutil.ignore_patterns("__pycache__"))
    build = tmp_path / "build"
    (build / "lib").mkdir(parents=True)
    (build / "lib" / "x.so").write_bytes(b"")
    sources = ["rules_core/__init__.py", "rules_core/damage.py", "rules_core/sim/policy.py"]
    (build / "manifest.json").write_text(
        json.dumps(
            {
                "python": compiled.python_tag(),
                "sources": compiled.source_hashes(sources),
                "modules": {"rules_core.sim.x": "lib/x.so"},
            }
        )
    )
    assert compiled.refusal(build, package) is None
    (package / "sim" / "unrelated.py").write_text("X = 1\n")  # nothing compiled imports it
    assert compiled.refusal(build, package) is None
    with (package / "sim" / "policy.py").open("a") as f:
        f.write("# edited after the build\n")
    assert (
        compiled.refusal(build, package)
        == "sources changed since the build: rules_core/sim/policy.py"
    )
    (package / "damage.py").unlink()
    assert (
        compiled.refusal(build, package)
        == "sources changed since the build: rules_core/damage.py, rules_core/sim/policy.py"
    )


@needs_build
def test_the_fresh_build_is_loaded_and_a_changed_manifest_is_refused_with_one_log_line(
    tmp_path: Path,
) -> None:
    if compiled.refusal(compiled.DEFAULT_BUILD) is not None:  # a source edited since collection
        pytest.skip("the compiled build went stale during the run")
    build = tmp_path / "mypyc"
    shutil.copytree(compiled.DEFAULT_BUILD / "lib", build / "lib")
    manifest = json.loads((compiled.DEFAULT_BUILD / "manifest.json").read_text())
    (build / "manifest.json").write_text(json.dumps(manifest))
    fresh, err = _play(build)
    assert all(Path(f).is_relative_to(build) and f.endswith(".so") for f in fresh["files"])
    assert err == ""

    manifest["sources"]["rules_core/sim/gunnery.py"] = "0" * 64  # built from another gunnery.py
    (build / "manifest.json").write_text(json.dumps(manifest))
    stale, err = _play(build)
    assert all(f.startswith(str(ROOT / "rules_core")) and f.endswith(".py") for f in stale["files"])
    assert err.splitlines() == [  # one line, at DEBUG
        "rules_core.compiled: compiled simulator not loaded (sources changed since the build: "
        "rules_core/sim/gunnery.py): pure Python, same results, about 6x slower; "
        "`python scripts/build_sim.py` rebuilds it"
    ]
    assert stale["summary"] == fresh["summary"]


def test_compiled_and_pure_python_play_the_same_battles() -> None:
    default, _ = _play(compiled.DEFAULT_BUILD)
    pure, err = _play("none")
    assert all(f.endswith(".py") for f in pure["files"]) and err == ""
    assert pure["summary"] == default["summary"]
    assert pure["summary"]["battles"] == 12
