"""Void Command's rules as pure Python: catalogue values, validation, dice, odds, simulation.

Nothing in this package imports Django.
"""

from __future__ import annotations

import os as _os
import sys as _sys


def _skip_stale_compiled_modules() -> None:
    """scripts/build_sim.py may compile the simulator's modules with mypyc, next to their .py
    files; Python prefers the compiled ones. If any rules_core source is newer than that build
    (edited since), load every rules_core module from its source instead, so an edited .py never
    runs as stale compiled code. Silently: the results are the same, only slower
    (``python scripts/build_sim.py status`` says which runs; the next set-up rebuilds)."""
    here = _os.path.dirname(__file__)
    dirs = (here, _os.path.join(here, "sim"))
    sources, compiled = [], False
    for d in dirs:
        for entry in _os.scandir(d):
            if entry.name.endswith(".so"):
                compiled = True
            elif entry.name.endswith(".py"):
                sources.append(entry.stat().st_mtime)
    if not compiled:
        return
    try:
        built = _os.stat(_os.path.join(here, "sim", ".mypyc-build")).st_mtime
    except OSError:
        built = None
    if built is not None and max(sources) <= built:
        return
    import importlib.machinery as machinery

    class _Source:
        @staticmethod
        def find_spec(name: str, path: object = None, target: object = None) -> object:
            if not name.startswith("rules_core."):
                return None
            for d in path or ():  # type: ignore[attr-defined]
                spec = machinery.FileFinder(d, (machinery.SourceFileLoader, [".py"])).find_spec(
                    name)
                if spec is not None:
                    return spec
            return None

    _sys.meta_path.insert(0, _Source)  # type: ignore[arg-type]


_skip_stale_compiled_modules()
