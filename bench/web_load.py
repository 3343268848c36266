"""The web app under load: N concurrent games, each a bot person against a computer seat.

Run by hand: ``.venv/bin/python bench/web_load.py [--games 50] [--seconds 60]
[--edition pt-BR] [--db URL] [--ai-workers 1] [--ai-seconds 0.2] [--think 0] [--servers 1]``.

With ``--servers N`` (a PostgreSQL ``--db``), N server processes share the database, as
behind a load balancer with sticky sessions: game i is made and played through server i mod N,
and a computer's turn is leased by whichever server stores the person's move. CPU and memory
are summed over the servers.

It starts ``letras serve`` as a subprocess on 127.0.0.1 with ``--port 0`` (reading the address
it prints), on a fresh SQLite file in a temporary folder unless ``--db`` names another
database (say a PostgreSQL URL), then keeps N games going for the given time: each game is a
person's seat played by a bot through the websocket ``/ws/games/{id}?token=...`` against a
computer seat (``"ai": "equity"``). A game that ends is replaced by a new one, so N stay in
play. The bot chooses from its own view (the view's CGP): the top-scoring play by
``letras.movegen.top_plays`` on the edition's default lexicon, loaded once here; a pass when
there is none; it lets the computer's plays stand when it may challenge. With ``--think S`` a
bot waits 0 to 2 S seconds (at random) before each play, as a person would; without it the
bots play as fast as the server answers.

Measured:

- moves per second: turns made in all games (the person's and the computer's);
- latency of a person's action: from sending it to the first ``state`` message after it
  (p50, p99);
- the server's CPU seconds per move: utime + stime of the server process and of its living
  descendants (the computer's worker processes) from ``/proc``, before and after the run;
- memory per game: the server process's RSS once the N games are created and their sockets
  open (each has had its first state) minus its RSS before creating them, divided by N (the
  peak RSS of the run is printed too: finished games stay in memory a while);
- the load average (``/proc/loadavg``) before, at the most during, and at the end of the run.

Only loopback addresses; every wait is bounded; it stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from letras.editions import find_edition
from letras.formats.cgp import Position
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_plays

ROOT = Path(__file__).resolve().parents[1]
TICKS = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")
RECV_TIMEOUT = 30.0  # seconds a bot waits for any message before giving its game up


# ----- the server process -------------------------------------------------------------------


def descendants(pid: int) -> list[int]:
    """``pid`` and its living descendants."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += parents.get(p, [])
    return out


def cpu_seconds(pids: list[int], only_main: bool = False) -> float:
    """utime + stime of the ``pids`` and their living descendants (or the ``pids`` alone),
    in seconds."""
    total = 0
    for p in pids if only_main else [d for pid in pids for d in descendants(pid)]:
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / TICKS


def rss_mb(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        total += int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return total * PAGE / 2**20


def workers_rss_mb(pids: list[int]) -> float:
    return rss_mb([p for pid in pids for p in descendants(pid) if p != pid])


def loadavg() -> tuple[float, float, float]:
    a, b, c = Path("/proc/loadavg").read_text().split()[:3]
    return float(a), float(b), float(c)


def start_server(db: str, workers: int, seconds: float) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "letras", "serve", "--db", db, "--host", "127.0.0.1",
               "--port", "0", "--ai-workers", str(workers), "--ai-seconds", str(seconds)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    line = ""
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if found:
            return proc, f"127.0.0.1:{found.group(1)}"
        if proc.poll() is not None:
            break
    proc.kill()
    raise SystemExit(f"the server did not start: {line!r}")


def stop_server(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


# ----- the bots -----------------------------------------------------------------------------


class Totals:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # seconds, every person's action
        self.play_latencies: list[float] = []  # plays and passes only
        self.turns = 0  # turns finished in all games
        self.person_moves = 0
        self.errors = 0
        self.games_done = 0
        self.games_dropped = 0


def choose(view: dict[str, Any], graph: WordGraph) -> dict[str, Any]:
    edition = find_edition(view["edition"])
    position = Position.from_cgp(view["cgp"], edition)
    found = top_plays(position.board, position.rack, graph, 1,
                      bingo_bonus=view["rules"]["bingo_bonus"],
                      join_words=view["may_join_words"])
    return {"play": found[0][0].notation(edition)} if found else {"pass": True}


async def create_game(client: httpx.AsyncClient, edition: str) -> tuple[str, int, str]:
    r = await client.post("/api/games", json={
        "edition": edition, "seats": [{"name": "Bot"}, {"ai": "equity"}]})
    r.raise_for_status()
    made = r.json()
    person = made["seats"][0]
    return made["id"], person["seat"], person["token"]


async def bot(address: str, game: tuple[str, int, str], graph: WordGraph, totals: Totals,
              end: list[float], gate: tuple[list[int], asyncio.Event] | None = None,
              think: float = 0.0) -> bool:
    """Play one game until it is over or the run's end (``end[0]``, a monotonic time) has
    come; True when it ended. With a ``gate``, count the socket as connected once its first
    message came, then wait for the gate to open before playing. With ``think``, wait a
    random time of 0 to 2 × ``think`` seconds before each play or pass, as a person would."""
    gid, seat, token = game
    async with connect(f"ws://{address}/ws/games/{gid}?token={token}",
                       open_timeout=RECV_TIMEOUT, close_timeout=5) as ws:
        first: str | bytes | None = None
        if gate is not None:
            first = await asyncio.wait_for(ws.recv(), RECV_TIMEOUT)
            gate[0].append(1)
            await asyncio.wait_for(gate[1].wait(), RECV_TIMEOUT * 4)
        sent_at: float | None = None
        sent_kind = ""
        turns = 0
        for _ in range(100_000):  # bounded: a game has far fewer messages
            if time.monotonic() >= end[0]:
                break
            try:
                if first is not None:
                    message, first = json.loads(first), None
                else:
                    message = json.loads(await asyncio.wait_for(ws.recv(), RECV_TIMEOUT))
            except TimeoutError:
                totals.games_dropped += 1
                return False
            if message["type"] == "error":
                totals.errors += 1
                if sent_kind == "play":  # refused: pass instead
                    sent_at, sent_kind = time.monotonic(), "pass"
                    await ws.send(json.dumps({"action": {"pass": True}}))
                continue
            if message["type"] != "state":
                continue
            if sent_at is not None:
                latency = time.monotonic() - sent_at
                totals.latencies.append(latency)
                if sent_kind in ("play", "pass"):
                    totals.play_latencies.append(latency)
                    totals.person_moves += 1
                sent_at = None
            view, step = message["view"], message["step"]
            totals.turns += len(view["turns"]) - turns
            turns = len(view["turns"])
            if step["kind"] == "over" or view["over"]:
                totals.games_done += 1
                return True
            if step["kind"] in ("window", "settle") and seat in step["may_challenge"]:
                action, sent_kind = {"accept": True}, "accept"
            elif step["kind"] == "move" and step["seat"] == seat:
                action = choose(view, graph)
                sent_kind = "play" if "play" in action else "pass"
                if think:
                    await asyncio.sleep(min(random.uniform(0, 2 * think),
                                            max(0.0, end[0] - time.monotonic())))
            else:
                continue
            sent_at = time.monotonic()
            await ws.send(json.dumps({"action": action}))
    return False


async def lane(address: str, client: httpx.AsyncClient, first: tuple[str, int, str],
               graph: WordGraph, totals: Totals, end: list[float], edition: str,
               gate: tuple[list[int], asyncio.Event], think: float) -> None:
    """One of the N concurrent games: a new game whenever the last one ended."""
    ended = await bot(address, first, graph, totals, end, gate, think)
    for _ in range(10_000):  # bounded: far more games than a run can finish
        if not ended or time.monotonic() >= end[0]:
            return
        game = await create_game(client, edition)
        ended = await bot(address, game, graph, totals, end, think=think)


async def run(args: argparse.Namespace, addresses: list[str], pids: list[int],
              graph: WordGraph) -> dict[str, Any]:
    totals = Totals()
    limits = httpx.Limits(max_connections=20)
    async with contextlib.AsyncExitStack() as stack:
        clients = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=f"http://{address}", timeout=60, limits=limits)) for address in addresses]
        # warm up: one game for 5 s on each server (starts the worker, loads its graphs)
        for address, client in zip(addresses, clients, strict=True):
            warm = await create_game(client, args.edition)
            await bot(address, warm, graph, Totals(), [time.monotonic() + 5])

        rss_before = rss_mb(pids)
        n = len(addresses)
        games = [await create_game(clients[i % n], args.edition) for i in range(args.games)]
        connected: list[int] = []
        gate = (connected, asyncio.Event())
        end = [float("inf")]
        tasks = [asyncio.create_task(lane(addresses[i % n], clients[i % n], g, graph, totals,
                                          end, args.edition, gate, args.think))
                 for i, g in enumerate(games)]
        for _ in range(int(RECV_TIMEOUT * 10)):  # every socket open, its first state come
            if len(connected) == args.games or any(t.done() for t in tasks):
                break
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)
        rss_games = rss_mb(pids)
        cpu_before, load_before = cpu_seconds(pids), loadavg()
        main_before, own_before = cpu_seconds(pids, True), sum(os.times()[:2])
        start = time.monotonic()
        end[0] = start + args.seconds
        gate[1].set()
        peak_load = load_before[0]
        peak_rss = rss_games
        while not all(t.done() for t in tasks) and time.monotonic() < end[0] + 60:
            await asyncio.sleep(1)
            peak_load = max(peak_load, loadavg()[0])
            peak_rss = max(peak_rss, rss_mb(pids))
        elapsed = time.monotonic() - start
        cpu_after, load_end = cpu_seconds(pids), loadavg()
        main_cpu = cpu_seconds(pids, True) - main_before
        own_cpu = sum(os.times()[:2]) - own_before
        for t in tasks:
            t.cancel()
        results = await asyncio.gather(*tasks, return_exceptions=True)
        failures = [r for r in results if isinstance(r, BaseException)
                    and not isinstance(r, asyncio.CancelledError)]
    return {
        "elapsed": elapsed, "totals": totals, "cpu": cpu_after - cpu_before,
        "main_cpu": main_cpu, "own_cpu": own_cpu, "connected": len(connected),
        "rss_before": rss_before, "rss_games": rss_games, "peak_rss": peak_rss,
        "workers_rss": workers_rss_mb(pids), "load_before": load_before,
        "peak_load": peak_load, "load_end": load_end, "failures": failures,
    }


def quantile(values: list[float], q: float) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[int(q * 100) - 1]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--games", type=int, default=50)
    p.add_argument("--seconds", type=float, default=60)
    p.add_argument("--edition", default="pt-BR")
    p.add_argument("--db", help="a database URL (default: a fresh SQLite file)")
    p.add_argument("--ai-workers", type=int, default=1)
    p.add_argument("--ai-seconds", type=float, default=0.2)
    p.add_argument("--think", type=float, default=0.0, metavar="S",
                   help="a person's mean thinking time before a play, in seconds (0: none)")
    p.add_argument("--servers", type=int, default=1,
                   help="server processes on one database (more than 1: a PostgreSQL --db)")
    args = p.parse_args()
    if args.servers > 1 and not (args.db or "").startswith("postgresql"):
        raise SystemExit("several servers share one PostgreSQL: give --db postgresql+psycopg://...")

    edition = find_edition(args.edition)
    graph = load_lexicon(edition)
    assert isinstance(graph, WordGraph)
    top_plays(Position.from_cgp("15/" * 14 + "15 ABCDEFG/ 0/0 0", edition).board,
              edition.tiles.parse("CASADOR", rack=True), graph, 1)  # compile, warm

    with tempfile.TemporaryDirectory(prefix="letras-bench-") as folder:
        db = args.db or f"sqlite:///{folder}/bench.db"
        servers = [start_server(db, args.ai_workers, args.ai_seconds)
                   for _ in range(args.servers)]
        address = ", ".join(a for _, a in servers)
        try:
            r = asyncio.run(run(args, [a for _, a in servers], [p.pid for p, _ in servers],
                                graph))
        finally:
            for proc, _ in servers:
                stop_server(proc)

    t: Totals = r["totals"]
    kind = "sqlite (temp file)" if not args.db else args.db.split(":", 1)[0]
    moves = t.turns
    print(f"letras serve ×{args.servers} on {address}, {kind}, edition {args.edition}, "
          f"--ai-workers {args.ai_workers} --ai-seconds {args.ai_seconds}, "
          f"think {args.think} s")
    print(f"{'games':>5} {'s':>5} {'moves':>6} {'moves/s':>8} {'p50 ms':>7} {'p99 ms':>7} "
          f"{'max ms':>7} {'CPU ms/move':>11} {'MB/game':>8} {'load 1m':>12}")
    lat = sorted(t.play_latencies)
    print(f"{args.games:>5} {r['elapsed']:>5.0f} {moves:>6} {moves / r['elapsed']:>8.1f} "
          f"{quantile(lat, 0.5) * 1e3:>7.1f} {quantile(lat, 0.99) * 1e3:>7.1f} "
          f"{(lat[-1] if lat else float('nan')) * 1e3:>7.1f} "
          f"{r['cpu'] / max(moves, 1) * 1e3:>11.2f} "
          f"{(r['rss_games'] - r['rss_before']) / args.games:>8.3f} "
          f"{r['load_before'][0]:>4.2f}→{r['peak_load']:.2f}")
    print(f"person moves {t.person_moves}, all person actions {len(t.latencies)} "
          f"(p99 with accepts {quantile(sorted(t.latencies), 0.99) * 1e3:.1f} ms), "
          f"sockets ready {r['connected']}/{args.games}, games finished {t.games_done}, "
          f"dropped {t.games_dropped}, errors {t.errors}, "
          f"failures {len(r['failures'])}")
    print(f"server CPU {r['cpu']:.1f} s in {r['elapsed']:.1f} s (its main process "
          f"{r['main_cpu']:.1f} s, the AI workers {r['cpu'] - r['main_cpu']:.1f} s; the bots "
          f"here {r['own_cpu']:.1f} s); server RSS "
          f"{r['rss_before']:.0f} MB → {r['rss_games']:.0f} MB with the games, peak "
          f"{r['peak_rss']:.0f} MB; workers {r['workers_rss']:.0f} MB; load average at the end "
          f"{' '.join(f'{x:.2f}' for x in r['load_end'])}")
    for f in r["failures"][:3]:
        print(f"failure: {f!r}")


if __name__ == "__main__":
    main()
