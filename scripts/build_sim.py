"""Compile the simulator's hot modules with mypyc (issue #7), in place, next to their sources.

    python scripts/build_sim.py          # build if the sources changed since the last build
    python scripts/build_sim.py status   # say whether the compiled build is in use and current
    python scripts/build_sim.py clean    # remove the compiled modules: pure Python again

scripts/setup.sh runs the first form. The build is keyed on a hash of every rules_core source
(and of this script, its mypy config, mypy's and Python's versions), recorded in
rules_core/sim/.mypyc-build once the build succeeds; when the hash differs the old extension
modules are deleted before anything else, so an edited .py never runs against a stale .so.
A failed build leaves pure Python in place and prints a warning: the results are the same
(tests/rules_core/sim/test_compiled_build.py), only about 3x slower.
"""

from __future__ import annotations

import hashlib
import os
import platform
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "scripts" / "mypyc.ini"
STAMP = ROOT / "rules_core" / "sim" / ".mypyc-build"
# The shared runtime library lands in the package (rules_core/sim/_compiled__mypyc*.so), not at
# the top level, where an editable install would not find it.
GROUP = "rules_core.sim._compiled"
MODULES = [
    "rules_core/sim/geometry.py", "rules_core/sim/state.py", "rules_core/sim/movement.py",
    "rules_core/sim/gunnery.py", "rules_core/sim/policy.py", "rules_core/sim/activation.py",
    "rules_core/sim/orders.py", "rules_core/sim/ordnance.py", "rules_core/sim/battle.py",
    "rules_core/sim/terrain.py", "rules_core/sim/factions.py", "rules_core/damage.py",
    "rules_core/sim/advanced_movement.py",
]


def sources_hash() -> str:
    """What the compiled modules were built from: compiled code also assumes the types of the
    interpreted modules it imports, so every rules_core source counts."""
    try:
        from importlib.metadata import version

        mypy_version = version("mypy")
    except Exception:  # noqa: BLE001 - no mypy: no build either
        mypy_version = "none"
    h = hashlib.sha256()
    h.update(f"{sys.version}|{platform.machine()}|mypy {mypy_version}\n".encode())
    files = sorted((ROOT / "rules_core").glob("*.py")) + sorted(
        (ROOT / "rules_core" / "sim").glob("*.py"))
    for path in [*files, CONFIG, Path(__file__).resolve()]:
        h.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def built_files() -> list[Path]:
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return [ROOT / (m.removesuffix(".py") + suffix) for m in MODULES] + [
        ROOT / "rules_core" / "sim" / ("_compiled__mypyc" + suffix)]


def clean() -> None:
    STAMP.unlink(missing_ok=True)
    for pattern in ("rules_core/*.so", "rules_core/sim/*.so", "*__mypyc*.so"):
        for path in ROOT.glob(pattern):
            path.unlink()


def current() -> bool:
    return (STAMP.is_file() and STAMP.read_text().strip() == sources_hash()
            and all(p.is_file() for p in built_files()))


def build() -> int:
    if current():
        STAMP.write_text(sources_hash() + "\n")  # newer than the sources again (see rules_core)
        print("build_sim: compiled simulator is up to date")
        return 0
    clean()  # never leave a stale build behind, whatever happens next
    print("build_sim: compiling the simulator with mypyc (about a minute)")
    proc = subprocess.run([sys.executable, __file__, "_compile"], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0 or not all(p.is_file() for p in built_files()):
        clean()
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        print(f"build_sim: WARNING: mypyc build failed; the simulator runs as pure Python "
              f"(same results, about 3x slower).\n{tail}", file=sys.stderr)
        return 1
    STAMP.write_text(sources_hash() + "\n")
    print("build_sim: compiled " + ", ".join(Path(m).stem for m in MODULES))
    return 0


def _compile() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    setup(name="void-command-sim", ext_modules=mypycify(
        ["--config-file", str(CONFIG.relative_to(ROOT)), *MODULES], group_name=GROUP,
        opt_level="3"), script_args=["build_ext", "--inplace", "-q"])


def status() -> int:
    import importlib

    mod = importlib.import_module("rules_core.sim.battle")
    compiled = not str(mod.__file__).endswith(".py")
    print(f"rules_core.sim.battle: {mod.__file__}")
    print(f"compiled: {'yes' if compiled else 'no'}; build current: "
          f"{'yes' if current() else 'no'}")
    return 0


if __name__ == "__main__":
    arg = sys.argv[1] if len(sys.argv) > 1 else "build"
    if arg == "_compile":
        _compile()
    elif arg == "clean":
        clean()
    elif arg == "status":
        sys.path.insert(0, str(ROOT))
        sys.exit(status())
    elif arg == "build":
        sys.exit(build())
    else:
        sys.exit(__doc__)
