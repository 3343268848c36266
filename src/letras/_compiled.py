"""Telling the user when the compiled kernels are being compiled for the first time.

numba keeps compiled code beside the module (``__pycache__/<module>.<function>-<line>...nbi``);
when none is there yet, the first call compiles, which takes a while: say so once. What is
compiled is named by a message key (``compile.movegen``, ``compile.word_graph``,
``compile.endgame``); a front end that speaks the player's language installs its own
announcer with :func:`set_announcer`, else one English line goes to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

_announced: set[str] = set()

ENGLISH = {
    "compile.movegen": "the move generator",
    "compile.word_graph": "the word graph builder",
    "compile.endgame": "the endgame search",
}
"""What each key names, for the default announcer."""

Announcer = Callable[[str], None]


def _to_stderr(key: str) -> None:
    print(f"letras: compiling {ENGLISH.get(key, key)} (first run only, this takes a minute)...",
          file=sys.stderr, flush=True)


_announcer: Announcer = _to_stderr


def set_announcer(announcer: Announcer | None) -> None:
    """Say first compiles with ``announcer(key)`` (None: the English line on stderr)."""
    global _announcer
    _announcer = announcer or _to_stderr


def announce_first_compile(module: ModuleType, function: str, key: str) -> None:
    """Announce ``key`` once if ``module.function`` has no compiled code cached yet."""
    if module.__name__ in _announced or module.__file__ is None:
        return
    _announced.add(module.__name__)
    if not is_cached(module, function):
        _announcer(key)


def is_cached(module: ModuleType, function: str) -> bool:
    """Has numba cached compiled code of ``module.function`` (an index file), beside the
    module or under ``NUMBA_CACHE_DIR`` when that is set? (Stale code counts: numba compiles
    it again without asking.)"""
    if module.__file__ is None:
        return False
    source = Path(module.__file__)
    pattern = f"{source.stem}.{function}-*.nbi"
    root = os.environ.get("NUMBA_CACHE_DIR")
    if root:
        return any(Path(root).rglob(pattern))
    return any((source.parent / "__pycache__").glob(pattern))
