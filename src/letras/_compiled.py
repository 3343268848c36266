"""Telling the user when the compiled kernels are being compiled for the first time.

numba keeps compiled code beside the module (``__pycache__/<module>.<function>-<line>...nbi``);
when none is there yet, the first call compiles, which takes a while: say so once.
"""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

_announced: set[str] = set()


def announce_first_compile(module: ModuleType, function: str, what: str) -> None:
    """Print one line to stderr if ``module.function`` has no compiled code cached yet."""
    if module.__name__ in _announced or module.__file__ is None:
        return
    _announced.add(module.__name__)
    source = Path(module.__file__)
    cached = source.parent / "__pycache__"
    if not any(cached.glob(f"{source.stem}.{function}-*.nbi")):
        print(f"letras: compiling {what} (first run only, this takes a minute)...",
              file=sys.stderr, flush=True)
