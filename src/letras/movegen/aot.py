"""``python -m letras.movegen.aot build|status|remove``: compile the move generator's kernels
ahead of time (:mod:`letras.movegen.prebuilt` says what, where, and how they are used), show
whether the extension of the sources installed is there, or remove it."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from letras.movegen.prebuilt import (
    EXPORTS,
    PREFIX,
    directory,
    load,
    module_name,
    module_path,
    stamp,
    suffix,
)


def build(where: Path, *, host: bool = False, verbose: bool = False) -> Path:
    """Compile :data:`EXPORTS` into the extension of the current sources in ``where`` and
    remove the extensions of other stamps there; its path. ``host``: code for this machine's
    processor only (else for any of its architecture). Takes numba, a C compiler and about a
    minute of CPU (less when the JIT kernels are in numba's cache)."""
    with warnings.catch_warnings():  # pycc is pending deprecation (numba 0.57 on), known
        warnings.simplefilter("ignore")
        from numba.pycc import cc as pycc

    from letras.movegen import _kernels

    CC: Any = pycc.CC

    source_stamp = stamp()
    where.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=where, prefix=".build-") as tmp:
        cc = CC(module_name(source_stamp))
        cc.output_dir = tmp
        cc.verbose = verbose
        if host:
            cc.target_cpu = "host"
        for name, (returns, args) in EXPORTS.items():
            cc.export(name, f"{returns}({', '.join(args)})")(getattr(_kernels, name).py_func)
        cc.compile()
        made = Path(tmp) / (module_name(source_stamp) + suffix())
        target = module_path(where, source_stamp)
        os.replace(made, target)
    for old in where.glob(PREFIX + "*"):
        if old != target and old.is_file():
            old.unlink(missing_ok=True)
    return target


def remove(where: Path) -> int:
    """Remove every extension in ``where``; how many."""
    found = [p for p in where.glob(PREFIX + "*") if p.is_file()]
    for p in found:
        p.unlink(missing_ok=True)
    with_builds = [p for p in where.glob(".build-*") if p.is_dir()]
    for p in with_builds:
        shutil.rmtree(p, ignore_errors=True)
    return len(found)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m letras.movegen.aot",
        description="Compile the move generator ahead of time (an extension module in the "
        "user's cache that the move generator then uses without numba), show its state, or "
        "remove it.")
    parser.add_argument("action", choices=["build", "status", "remove"])
    parser.add_argument("--dir", type=Path, help="where (default: $LETRAS_AOT, else "
                        "~/.cache/letras/aot)")
    parser.add_argument("--host", action="store_true",
                        help="code for this machine's processor only")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    where = args.dir or directory()
    if where is None:
        print("LETRAS_AOT=0: the move generator compiled ahead of time is turned off")
        return 1
    if args.action == "build":
        start = time.perf_counter()
        path = build(where, host=args.host, verbose=args.verbose)
        print(f"{path} ({path.stat().st_size / 1e6:.1f} MB, "
              f"{time.perf_counter() - start:.0f} s)")
        return 0
    if args.action == "remove":
        print(f"removed {remove(where)} extension(s) from {where}")
        return 0
    path = module_path(where, stamp())
    if path.is_file():
        state = "ready" if load(where) is not None else "present but does not load"
        print(f"{path}: {state}")
        return 0
    print(f"{path}: not built (python -m letras.movegen.aot build)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
