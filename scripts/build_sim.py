"""Compile the simulator's hot modules with mypyc into build/mypyc/, outside the sources.

    python scripts/build_sim.py          # build if the sources changed since the last build
    python scripts/build_sim.py status   # say whether the compiled build is in use and current
    python scripts/build_sim.py clean    # remove the build: pure Python again
    python scripts/build_sim.py current  # exit 0 if the build matches the sources, else 1

scripts/setup.sh runs the first form (mypy, which holds mypyc, is in the project's `build`
extra, not a run-time dependency). The extension modules go to build/mypyc/lib/ (C sources and
objects to build/mypyc/c/ and build/mypyc/temp/); build/mypyc/manifest.json, written last,
records the sha256 of every source they were compiled against. rules_core.compiled loads them
only when every hash matches the sources on disk, so a stale build is never loaded; nothing is
written inside rules_core/. A failed build leaves pure Python and prints a warning: the results
are the same (tests/rules_core/sim/test_compiled_build.py), only about 6x slower.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "scripts" / "mypyc.ini"
BUILD = ROOT / "build" / "mypyc"
LIB = BUILD / "lib"
# The shared runtime library: rules_core.sim._compiled__mypyc, found through the manifest too.
GROUP = "rules_core.sim._compiled"
MODULES = [
    "rules_core/sim/geometry.py",
    "rules_core/sim/state.py",
    "rules_core/sim/movement.py",
    "rules_core/sim/gunnery.py",
    "rules_core/sim/policy.py",
    "rules_core/sim/activation.py",
    "rules_core/sim/orders.py",
    "rules_core/sim/ordnance.py",
    "rules_core/sim/battle.py",
    "rules_core/sim/terrain.py",
    "rules_core/sim/factions.py",
    "rules_core/damage.py",
    "rules_core/sim/advanced_movement.py",
    "rules_core/sim/faction_rules.py",
    "rules_core/sim/faction_actions.py",
]


def _compiled_module() -> ModuleType:
    """rules_core/compiled.py on its own, without importing (and so loading) rules_core."""
    spec = importlib.util.spec_from_file_location(
        "_rules_core_compiled", ROOT / "rules_core" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _module_file(name: str) -> Path | None:
    """The source of rules_core module ``name`` (a package's ``__init__.py``), if there is one."""
    base = ROOT / Path(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def dependencies() -> list[str]:
    """The compiled modules' sources and every rules_core source they import, directly or not
    (imports inside functions and under TYPE_CHECKING too), with their packages' ``__init__``:
    what mypy reads when it compiles them. A new module nothing imports is not among them."""
    todo = [m.removesuffix(".py").replace("/", ".") for m in MODULES]
    seen: set[str] = set()
    files: set[Path] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        path = _module_file(name)
        if path is None:
            continue
        files.add(path)
        parts = name.split(".")
        todo += [".".join(parts[:i]) for i in range(1, len(parts))]  # the packages above it
        package = parts if path.name == "__init__.py" else parts[:-1]
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                todo += [a.name for a in node.names if a.name.split(".")[0] == "rules_core"]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                if module.split(".")[0] != "rules_core":
                    continue
                todo.append(module)
                todo += [f"{module}.{a.name}" for a in node.names]  # submodules, if they are
    return sorted(str(f.relative_to(ROOT)) for f in files)


def _tool_hash() -> str:
    """What else the build depends on: this script, its mypy config, mypy's version."""
    try:
        from importlib.metadata import version

        mypy_version = version("mypy")
    except Exception:
        mypy_version = "none"
    h = hashlib.sha256(f"{sys.version}|{platform.machine()}|mypy {mypy_version}\n".encode())
    for path in (CONFIG, Path(__file__).resolve()):
        h.update(path.read_bytes())
    return h.hexdigest()


def _suffix() -> str:
    return str(_compiled_module().python_tag().split("|", 1)[1])


def module_files() -> dict[str, str]:
    """Each compiled module's name and its extension module's path inside build/mypyc/."""
    suffix = _suffix()
    names = [m.removesuffix(".py").replace("/", ".") for m in MODULES] + [GROUP + "__mypyc"]
    return {name: "lib/" + name.replace(".", "/") + suffix for name in names}


def current() -> bool:
    compiled = _compiled_module()
    if compiled.refusal(BUILD) is not None:
        return False
    manifest = json.loads((BUILD / compiled.MANIFEST).read_text())
    return bool(
        manifest.get("tools") == _tool_hash()
        and manifest["modules"] == module_files()
        and sorted(manifest["sources"]) == dependencies()
    )


def clean() -> None:
    # The manifest first: from that moment no new process loads anything from this build.
    # Files are unlinked, never overwritten, so a running process keeps the modules it mapped.
    (BUILD / "manifest.json").unlink(missing_ok=True)
    shutil.rmtree(BUILD, ignore_errors=True)
    remove_in_tree_builds()


def remove_in_tree_builds() -> None:
    """Extension modules that earlier builds left beside the sources: Python would prefer them
    to the .py files whatever the manifest says, so they go."""
    for pattern in ("rules_core/**/*.so", "rules_core/**/*.pyd", "*__mypyc*.so"):
        for path in ROOT.glob(pattern):
            path.unlink()
    (ROOT / "rules_core" / "sim" / ".mypyc-build").unlink(missing_ok=True)


def build() -> int:
    remove_in_tree_builds()
    if current():
        print("build_sim: compiled simulator is up to date")
        return 0
    clean()
    compiled = _compiled_module()
    # What this build is compiled from, read before it starts.
    sources = compiled.source_hashes(dependencies())
    print(
        "build_sim: compiling the simulator with mypyc into build/mypyc/ (one to six "
        "minutes, by the machine)"
    )
    proc = subprocess.run(
        [sys.executable, __file__, "_compile"], cwd=ROOT, capture_output=True, text=True
    )
    files = module_files()
    if proc.returncode != 0 or not all((BUILD / f).is_file() for f in files.values()):
        clean()
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])
        print(
            f"build_sim: WARNING: mypyc build failed; the simulator runs as pure Python "
            f"(same results, about 6x slower).\n{tail}",
            file=sys.stderr,
        )
        return 1
    if compiled.source_hashes(sources) != sources:
        clean()
        print(
            "build_sim: WARNING: the sources changed during the build; none kept (run it again)",
            file=sys.stderr,
        )
        return 1
    manifest = {
        "python": compiled.python_tag(),
        "tools": _tool_hash(),
        "sources": sources,
        "modules": files,
    }
    tmp = BUILD / "manifest.json.tmp"
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, BUILD / "manifest.json")
    print("build_sim: compiled " + ", ".join(Path(m).stem for m in MODULES))
    return 0


def _compile() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    os.chdir(ROOT)
    setup(
        name="void-command-sim",
        ext_modules=mypycify(
            ["--config-file", str(CONFIG.relative_to(ROOT)), *MODULES],
            group_name=GROUP,
            opt_level="3",
            target_dir=str((BUILD / "c").relative_to(ROOT)),
        ),
        script_args=[
            "build_ext",
            "-q",
            "--build-lib",
            str(LIB.relative_to(ROOT)),
            "--build-temp",
            str((BUILD / "temp").relative_to(ROOT)),
        ],
    )


def status() -> int:
    import importlib

    compiled = _compiled_module()
    mod = importlib.import_module("rules_core.sim.battle")
    reason = compiled.refusal(BUILD)
    print(f"rules_core.sim.battle: {mod.__file__}")
    print(
        f"compiled: {'yes' if not str(mod.__file__).endswith('.py') else 'no'}; "
        f"build in {BUILD.relative_to(ROOT)}: {reason or 'matches the sources'}"
    )
    return 0


if __name__ == "__main__":
    arg = sys.argv[1] if len(sys.argv) > 1 else "build"
    if arg == "_compile":
        _compile()
    elif arg == "clean":
        clean()
    elif arg == "current":
        sys.exit(0 if current() else 1)
    elif arg == "status":
        sys.path.insert(0, str(ROOT))
        sys.exit(status())
    elif arg == "build":
        sys.exit(build())
    else:
        sys.exit(__doc__)
