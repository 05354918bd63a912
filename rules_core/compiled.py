"""Which simulator runs: the mypyc build (scripts/build_sim.py) or pure Python.

The build lives outside the sources, in ``build/mypyc/`` at the project root (or
``$RULES_CORE_BUILD``; ``RULES_CORE_BUILD=none`` forces pure Python). Its ``manifest.json``,
written last by the build, records the sha256 of every source it was compiled against (the
compiled modules and every rules_core module they import, directly or not, with their packages'
``__init__``: compiled code also assumes the types of the interpreted modules it calls), the
Python it was built for, and the extension module of each compiled module. :func:`install`
(run by ``rules_core/__init__``) hashes those sources on disk and loads the compiled modules
only when every hash matches; otherwise pure Python runs, with one DEBUG line saying why. A stale
build can never be loaded. The results are the same either way
(tests/rules_core/sim/test_compiled_build.py), only about 6x slower in pure Python.

No Django here, and nothing but the standard library: this runs at ``import rules_core``.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import logging
import os
import sys
from collections.abc import Iterable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent
DEFAULT_BUILD = ROOT / "build" / "mypyc"
MANIFEST = "manifest.json"

log = logging.getLogger("rules_core.compiled")


def build_dir() -> Path | None:
    """Where the build is looked for; None when ``RULES_CORE_BUILD=none``."""
    value = os.environ.get("RULES_CORE_BUILD", "")
    if value.lower() in ("none", "0", "off"):
        return None
    return Path(value) if value else DEFAULT_BUILD


def source_hashes(files: Iterable[str], package: Path = PACKAGE) -> dict[str, str]:
    """sha256 of each source named by its path from the project root (``rules_core/x.py``);
    a missing file hashes as ``missing``."""
    hashes: dict[str, str] = {}
    for key in sorted(files):
        path = package.parent / key
        try:
            hashes[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            hashes[key] = "missing"
    return hashes


def python_tag() -> str:
    return f"{sys.implementation.cache_tag}|{importlib.machinery.EXTENSION_SUFFIXES[0]}"


def refusal(build: Path, package: Path = PACKAGE) -> str | None:
    """Why the build in ``build`` must not be loaded for the sources in ``package``, or None
    when it matches them exactly."""
    return _check(build, package)[1]


def _check(build: Path, package: Path) -> tuple[dict[str, str], str | None]:
    """The build's compiled modules (name to file) and why they must not be loaded, if so."""
    try:
        manifest = json.loads((build / MANIFEST).read_text())
    except FileNotFoundError:
        return {}, f"no build in {build}"
    except (OSError, ValueError) as exc:
        return {}, f"unreadable manifest {build / MANIFEST} ({exc})"
    if (
        not isinstance(manifest, dict)
        or not isinstance(manifest.get("sources"), dict)
        or not isinstance(manifest.get("modules"), dict)
    ):
        return {}, f"malformed manifest {build / MANIFEST}"
    if manifest.get("python") != python_tag():
        return {}, f"built for {manifest.get('python')}, this is {python_tag()}"
    built: dict[str, str] = manifest["sources"]
    if not built or not all(k.startswith("rules_core/") and ".." not in k for k in built):
        return {}, f"malformed manifest {build / MANIFEST}"
    current = source_hashes(built, package)
    changed = sorted(k for k in built if built[k] != current[k])
    if changed:
        more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
        return {}, f"sources changed since the build: {', '.join(changed[:3])}{more}"
    modules: dict[str, str] = {}
    for name, rel in manifest["modules"].items():
        if not name.startswith("rules_core.") or not (build / rel).is_file():
            return {}, f"build incomplete: {name} missing"
        modules[name] = str(build / rel)
    if not modules:
        return {}, "build incomplete: no compiled modules"
    return modules, None


class CompiledFinder:
    """Finds the compiled modules named in a checked manifest, and nothing else."""

    def __init__(self, build: Path, modules: dict[str, str]) -> None:
        self.build = build
        self.modules = modules

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        file = self.modules.get(name)
        if file is None:
            return None
        return importlib.util.spec_from_file_location(name, file)


def loaded_build() -> Path | None:
    """The build directory whose compiled modules this process loads, or None (pure Python)."""
    for finder in sys.meta_path:
        if isinstance(finder, CompiledFinder):
            return finder.build
    return None


def install() -> bool:
    """Load the compiled modules from the build if it matches the sources; True if it does."""
    if any(isinstance(f, CompiledFinder) for f in sys.meta_path):
        return True
    build = build_dir()
    if build is None:  # asked for pure Python
        return False
    modules, reason = _check(build, PACKAGE)
    if reason is not None:
        # DEBUG, not INFO: a work tree whose sources were edited since the build is the normal
        # state of development, and a line on stderr in every process would change the exact
        # output the commands' tests check (LOG_LEVEL=DEBUG shows it; build_sim.py status too).
        log.debug(
            "compiled simulator not loaded (%s): pure Python, same results, about 6x "
            "slower; `python scripts/build_sim.py` rebuilds it",
            reason,
        )
        return False
    sys.meta_path.insert(0, CompiledFinder(build, modules))
    return True
