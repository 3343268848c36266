"""A fresh ``letras moves`` process, every cache warm: wall and CPU seconds (issue 17 target 3).

Each run starts ``letras moves CGP`` as a person does (the console script, its output to a
file), with the word graphs, numba's compiled kernels and Python's bytecode already cached
(``PYTHONDONTWRITEBYTECODE`` is unset for the child: a user's install keeps its ``.pyc``).
Wall seconds from start to exit; CPU seconds (user + system) from ``os.wait4``.

Two or more ``letras`` scripts (say main's and a branch's) run interleaved, position by
position and round by round, so that both see the same load; their outputs must be the same.
One untimed run of each position first warms the page cache.

    python bench/start.py                                   # this checkout's venv alone
    python bench/start.py --runs 9 /work/main/.venv/bin/letras .venv/bin/letras

Prints the median and the range of each, and the load average before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
EMPTY = "/".join(["15"] * 15)
POSITIONS = {
    "pt-BR empty": f"{EMPTY} AEIORST/ 0/0 0 ld pt-BR;",
    "pt-BR mid, 1 blank": "15/15/15/15/4A10/4F10/4E10/3HAJIS7/4N10/4T10/3GE10/3U11/3R11/15/15"
                          " ?EEHOPS/ 0/0 0 ld pt-BR;",
    "en empty": f"{EMPTY} AEINRST/ 0/0 0 ld en;",
    "en mid, 1 blank": "15/15/15/15/5N9/5A9/1IF2T9/2LIAISE7/4GO9/4AN9/4P2D7/2AVENGE7/7L7/7V7/"
                       "7E7 ?AOSTUW/ 0/0 0 ld en;",
}
"""Positions of ../shared/positions (the mid-game ones with 9,236 and 4,247 plays)."""


def run_once(script: str, cgp: str, extra: list[str], out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``letras moves`` process, its output written to ``out``."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    with out.open("wb") as f:
        start = time.perf_counter()
        process = subprocess.Popen([script, "moves", cgp, *extra], stdout=f,
                                   stderr=subprocess.PIPE, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    assert process.stderr is not None
    err = process.stderr.read().decode()
    if process.returncode != 0 or err:
        sys.exit(f"{script} failed ({process.returncode}): {err}")
    return wall, usage.ru_utime + usage.ru_stime


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):.3f} ({min(values):.3f}-{max(values):.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", help="letras scripts to compare (default: this "
                        "checkout's .venv/bin/letras)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each (default 7)")
    parser.add_argument("--only", help="positions whose name contains this")
    parser.add_argument("--top", type=int, help="pass --top N (default: every play)")
    args = parser.parse_args()
    scripts = args.scripts or [str(REPO / ".venv" / "bin" / "letras")]
    extra = ["--top", str(args.top)] if args.top is not None else []
    positions = {n: c for n, c in POSITIONS.items() if not args.only or args.only in n}
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}", flush=True)
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        outs = [Path(tmp) / f"{i}.txt" for i in range(len(scripts))]
        for name, cgp in positions.items():
            texts = []
            for script, out in zip(scripts, outs, strict=True):  # warm-up, and same output
                run_once(script, cgp, extra, out)
                texts.append(out.read_bytes())
            if any(t != texts[0] for t in texts):
                sys.exit(f"{name}: the scripts print different plays")
            lines = texts[0].count(b"\n")
            for _ in range(args.runs):
                for script, out in zip(scripts, outs, strict=True):
                    results.setdefault((name, script), []).append(
                        run_once(script, cgp, extra, out))
            for script in scripts:
                walls, cpus = zip(*results[name, script], strict=True)
                print(f"{name} ({lines:,} plays) {script}: wall {summary(list(walls))} s, "
                      f"CPU {summary(list(cpus))} s", flush=True)
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
