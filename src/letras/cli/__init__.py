"""The ``letras`` command line."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

QUICK = frozenset({"moves", "score", "word", "lexicon", "gcg"})
"""Commands that answer and end: no threads, child processes or files left open when they
return, so the process can end at once (:func:`exit_now`) instead of tearing the interpreter
down (numba's and llvmlite's clean-up alone costs a tenth of a second)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``letras ARGS`` (``sys.argv`` without ``argv``) and return its exit code. Run as
    the ``letras`` script (no ``argv``), a :data:`QUICK` command ends the process itself."""
    from letras.cli.app import run

    args = list(sys.argv[1:] if argv is None else argv)
    code = run(args)
    if argv is None and args and args[0] in QUICK:
        exit_now(code)
    return code


def exit_now(code: int) -> None:
    """End the process with ``code`` once what it wrote is flushed, without the interpreter's
    teardown (``atexit`` handlers, freeing every module). If a flush fails (a closed pipe, a
    full disk), return instead: the usual teardown then reports it as it always did."""
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    os._exit(code)
