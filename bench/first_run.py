"""The first game on a fresh checkout: what a person waits for before the caches exist.

Each scenario starts from a fresh copy of this checkout (``src/``, ``pyproject.toml``,
``README.md``, ``LICENSE``; no ``__pycache__``, so neither Python's bytecode nor numba's
compiled kernels are cached) and an empty word-graph cache (``LETRAS_CACHE``), as a fresh clone
would be. ``NUMBA_CACHE_DIR`` is unset so that numba caches beside the copied modules, as it
does in a clone. The copy runs with this interpreter (``PYTHONPATH`` put first), or with
``--install`` in a fresh virtual environment where ``pip install -e`` of the copy is timed
(with the build hook of ``hatch_build.py`` when the checkout has one: it prepares the caches),
then a second ``pip install -e`` (what a developer's ``tools/test`` runs every time).

Scenarios (each from its own fresh copy):

- ``moves``: the first ``letras moves`` on an empty pt-BR board (word graph built, kernels
  compiled), then ``--warm`` more runs on the now warm caches (issue 17 target 3);
- ``play``: ``letras play`` against the computer (``ai`` = the default level, ``best``) driven
  through a pseudo-terminal: seconds to the first prompt, then to the computer's first move
  after the person's (the best play, asked with the ``dica`` command);
- ``serve``: ``letras serve`` on a fresh SQLite file: seconds to its first page, then from
  making a game against the computer (``best``, moving first; the person passes if it is their
  turn) to the computer's first move on the game's websocket;
- ``game``: one computer-against-computer game (``best`` against ``best``, 2 s a move as
  ``letras play`` gives the computer): seconds to set up (word graph), then the time of
  every move; the longest pause and where it fell (issue 17 target 4).

``letras play`` and the game start compiling the kernels in a background process
(:mod:`letras.cli.warm`); ``--no-warm`` sets ``LETRAS_WARM=0`` to measure without it.

    python bench/first_run.py                      # moves, play and game, 3 runs each
    python bench/first_run.py --only moves --runs 1
    python bench/first_run.py --install --runs 1   # also time pip install -e (slow)
    python bench/first_run.py --install --runs 1 --one-copy --only play --only serve \
        --only game --source /tmp/main              # a first session, another checkout

Medians over the runs are printed with the load average seen before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
EMPTY = "/".join(["15"] * 15)
MOVES_CGP = f"{EMPTY} AEIORST/ 0/0 0 ld pt-BR;"
PROMPT = r"(Ana)> "

GAME_SCRIPT = """
import json, sys, time
from letras.ai import get_player
from letras.ai.player import Limit
from letras.ai.selfplay import run_game
from letras.cli.warm import start as start_warming
from letras.editions import find_edition
from letras.game import Game, Player
from letras.lexicon import load_lexicon

start = time.perf_counter()
edition = find_edition("pt-BR")
warming = start_warming(edition)  # as letras play does (None under LETRAS_WARM=0)
graph = load_lexicon(edition, None, progress=lambda message: None)
if warming is not None:
    warming.wait("movegen")
game = Game(edition, [Player("A", "ai:best"), Player("B", "ai:best")], seed=int(sys.argv[1]),
            lexicon=graph)
players = [get_player("best", graph, seed=s) for s in (1, 2)]
setup = time.perf_counter() - start
moves = []
last = time.perf_counter()

def record(view, action, points):
    global last
    now = time.perf_counter()
    moves.append({"seconds": now - last, "bag": view.bag_count,
                  "play": action.notation(edition)})
    last = now

run_game(game, players, Limit(seconds=float(sys.argv[2])), record)
print(json.dumps({"setup": setup, "moves": moves, "total": time.perf_counter() - start}))
"""


class Fresh:
    """A fresh copy of the checkout with empty caches, and how to run its ``letras``."""

    def __init__(self, install: bool, warm: bool, source: Path = REPO) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="letras-first-run-"))
        self.tree = self.root / "letras"
        ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
        shutil.copytree(source / "src", self.tree / "src", ignore=ignore)
        for name in ("pyproject.toml", "README.md", "LICENSE", "hatch_build.py"):
            if (source / name).exists():
                shutil.copy2(source / name, self.tree / name)
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("NUMBA_CACHE_DIR", "PYTHONPYCACHEPREFIX", "VIRTUAL_ENV")}
        self.env["LETRAS_CACHE"] = str(self.root / "cache")
        self.env.update(NO_COLOR="1", TERM="dumb")
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)
        if not warm:
            self.env["LETRAS_WARM"] = "0"  # no background compile (letras.cli.warm)
        self.python = sys.executable
        self.install_seconds: list[float] = []
        if install:
            venv = self.root / "venv"
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
            self.python = str(venv / "bin" / "python")
            for _ in range(2):  # the first install, then a second one of the same copy
                start = time.perf_counter()
                subprocess.run([self.python, "-m", "pip", "install", "-q", "-e",
                                str(self.tree)], check=True, env=self.env)
                self.install_seconds.append(time.perf_counter() - start)
        else:
            self.env["PYTHONPATH"] = str(self.tree / "src")

    def letras(self, *args: str) -> tuple[float, float, str]:
        """Run ``letras ARGS``: wall seconds, CPU seconds (user + system, its children's
        too: on a loaded machine the steadier figure) and what it printed."""
        start, before = time.perf_counter(), _children_cpu()
        done = subprocess.run([self.python, "-m", "letras", *args], env=self.env,
                              capture_output=True, text=True, check=True)
        return time.perf_counter() - start, _children_cpu() - before, done.stdout

    def close(self) -> None:
        """Stop what still runs from this copy (a warm-up child outlives the program that
        started it), then remove the copy."""
        mark = f"LETRAS_CACHE={self.env['LETRAS_CACHE']}".encode()
        for proc in Path("/proc").glob("[0-9]*"):
            try:
                if mark in (proc / "environ").read_bytes().split(b"\0"):
                    os.kill(int(proc.name), signal.SIGTERM)
            except (OSError, ValueError):
                continue
        time.sleep(0.5)
        shutil.rmtree(self.root, ignore_errors=True)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def moves(fresh: Fresh, warm: int) -> dict[str, Any]:
    cold, cold_cpu, out = fresh.letras("moves", MOVES_CGP)
    assert out.count("\n") > 1000, out[:200]
    again = [fresh.letras("moves", MOVES_CGP)[:2] for _ in range(warm)]
    return {"first moves s": cold, "first moves cpu s": cold_cpu,
            "warm moves s": statistics.median(w for w, _ in again),
            "warm moves cpu s": statistics.median(c for _, c in again)}


def play(fresh: Fresh) -> dict[str, Any]:
    import pexpect  # type: ignore[import-untyped]

    start = time.perf_counter()
    child = pexpect.spawn(fresh.python, ["-m", "letras", "play", "--players", "Ana,ai",
                                         "--seed", "3"],
                          env=fresh.env, encoding="utf-8", timeout=900, dimensions=(24, 80))
    try:
        child.expect(PROMPT)
        ready = time.perf_counter() - start
        child.sendline("dica 1")
        child.expect(PROMPT)
        found = re.search(r"1\. (\S+ \S+)  ", child.before)
        assert found, child.before
        sent = time.perf_counter()
        child.sendline(found.group(1))
        child.expect(PROMPT)
        reply = time.perf_counter() - sent
    finally:
        child.terminate(force=True)
    return {"play: first prompt s": ready, "play: first computer move s": reply}


def serve(fresh: Fresh) -> dict[str, Any]:
    import httpx
    from websockets.sync.client import connect

    start = time.perf_counter()
    server = subprocess.Popen(
        [fresh.python, "-m", "letras", "serve", "--db", f"sqlite:///{fresh.root}/games.db",
         "--host", "127.0.0.1", "--port", "0"],
        env=fresh.env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        address = ""
        for line in server.stdout:  # the server says its address once it listens
            found = re.search(r"http://(127\.0\.0\.1:\d+)/", line)
            if found:
                address = found.group(1)
                break
        assert address, "the server did not start"
        with httpx.Client(base_url=f"http://{address}", timeout=900) as client:
            client.get("/").raise_for_status()
            ready = time.perf_counter() - start
            made = client.post("/api/games", json={
                "edition": "pt-BR", "seats": [{"ai": "best"}, {"name": "Ana"}]})
            made.raise_for_status()
            sent = time.perf_counter()
            game = made.json()
        person = next(s for s in game["seats"] if "token" in s)
        reply = None
        with connect(f"ws://{address}/ws/games/{game['id']}?token={person['token']}") as ws:
            for _ in range(10_000):
                message = json.loads(ws.recv(timeout=900))
                if message["type"] != "state":
                    continue
                view, step = message["view"], message["step"]
                pending = (view.get("pending") or {}).get("player", person["seat"])
                if (pending != person["seat"]
                        or any(t["player"] != person["seat"] for t in view["turns"])):
                    reply = time.perf_counter() - sent
                    break
                if step["kind"] == "move" and step["seat"] == person["seat"]:
                    ws.send(json.dumps({"action": {"pass": True}}))
        assert reply is not None
    finally:
        server.terminate()
        server.wait(timeout=30)
    return {"serve: first page s": ready, "serve: first computer move s": reply}


def game(fresh: Fresh, seconds: float) -> dict[str, Any]:
    done = subprocess.run([fresh.python, "-c", GAME_SCRIPT, "1", str(seconds)],
                          env=fresh.env, capture_output=True, text=True, check=True)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    times = [m["seconds"] for m in result["moves"]]
    worst = max(range(len(times)), key=times.__getitem__)
    over = [f"{m['seconds']:.1f}s@{i + 1}(bag {m['bag']})"
            for i, m in enumerate(result["moves"]) if m["seconds"] > seconds + 1]
    return {"game: setup s": result["setup"], "game: longest move s": times[worst],
            "game: longest at move": worst + 1, "game: bag then": result["moves"][worst]["bag"],
            "game: median move s": statistics.median(times), "game: moves": len(times),
            "game: total s": result["total"], "slow moves": " ".join(over)}


def run(scenarios: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """The scenarios one after the other on one fresh copy (its first is the first run)."""
    fresh = Fresh(args.install, not args.no_warm, args.source)
    try:
        out: dict[str, Any] = {}
        if fresh.install_seconds:
            out["pip install -e s"], out["second pip install -e s"] = fresh.install_seconds
        steps: dict[str, Callable[[], dict[str, Any]]] = {
            "moves": lambda: moves(fresh, args.warm),
            "play": lambda: play(fresh),
            "serve": lambda: serve(fresh),
            "game": lambda: game(fresh, args.seconds),
        }
        for scenario in scenarios:
            out.update(steps[scenario]())
        return out
    finally:
        fresh.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", choices=("moves", "play", "serve", "game"),
                        action="append")
    parser.add_argument("--install", action="store_true",
                        help="time pip install -e of each copy in a fresh venv")
    parser.add_argument("--warm", type=int, default=5, help="warm letras moves runs")
    parser.add_argument("--no-warm", action="store_true",
                        help="LETRAS_WARM=0: no background compile (the figures before it)")
    parser.add_argument("--seconds", type=float, default=2.0, help="AI seconds a move")
    parser.add_argument("--source", type=Path, default=REPO,
                        help="the checkout to copy (default: this one; say, another branch's "
                        "`git archive` for a figure before a change)")
    parser.add_argument("--one-copy", action="store_true",
                        help="the scenarios in order on one fresh copy (a person's first "
                        "session: only the first scenario finds the caches empty)")
    args = parser.parse_args()
    chosen = args.only or ["moves", "play", "serve", "game"]
    for scenario in [" ".join(chosen)] if args.one_copy else chosen:
        load = os.getloadavg()[0]
        results = []
        for i in range(args.runs):
            results.append(run(scenario.split(), args))
            print(f"# {scenario} run {i + 1}: {results[-1]}", file=sys.stderr, flush=True)
        print(f"## {scenario}: medians of {args.runs} (load {load:.2f} before, "
              f"{os.getloadavg()[0]:.2f} after)")
        for key in results[0]:
            values = [r[key] for r in results]
            if all(isinstance(v, int | float) for v in values):
                print(f"{key:32s} {statistics.median(values):8.2f}   "
                      f"({', '.join(f'{v:.2f}' for v in values)})")
            else:
                print(f"{key:32s} {' | '.join(str(v) for v in values)}")


if __name__ == "__main__":
    main()
