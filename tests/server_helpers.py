"""Helpers of the web server's tests: a client on a temporary database (SQLite or a private
PostgreSQL cluster), and players that drive whole games through the API, recording every
answer."""

from __future__ import annotations

import itertools
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg
from sqlalchemy import make_url

from letras.editions import find_edition
from letras.formats.cgp import Position
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_plays
from letras.server.app import create_app
from letras.server.games import GameService

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette prefers httpx2; httpx works the same
    from starlette.testclient import TestClient

State = dict[str, Any]


@contextmanager
def serving(db_url: str, graph: WordGraph, **options: Any) -> Iterator[TestClient]:
    """A client of a new app on the database ``db_url``, English judged by ``graph``; the
    app (and its worker processes) shut down on leaving."""
    options.setdefault("ai_seconds", 0.1)
    app = create_app(db_url, graphs={"en": graph}, **options)
    with TestClient(app) as client:
        yield client


# ----- a private PostgreSQL cluster ---------------------------------------------------------


def postgres_tools() -> tuple[Path, Path] | None:
    """Debian's ``initdb`` and ``pg_ctl``: on the PATH, else the newest under
    /usr/lib/postgresql (where the ``postgresql`` package puts them); None without them."""
    folders = [Path(p).parent for p in (shutil.which("initdb"),) if p]
    versions = Path("/usr/lib/postgresql").glob("*/bin")
    folders += sorted(versions, key=lambda f: int(f.parent.name) if f.parent.name.isdigit()
                      else 0, reverse=True)
    for folder in folders:
        if (folder / "initdb").is_file() and (folder / "pg_ctl").is_file():
            return folder / "initdb", folder / "pg_ctl"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def postgres_cluster(initdb: Path, pg_ctl: Path) -> Iterator[str]:
    """A throwaway cluster in a temporary folder, on a free port of 127.0.0.1 with
    trust authentication, and in it the database ``letras``: gives its URL, and stops the
    cluster and removes the folder on leaving. As root it runs as the ``postgres`` user
    (PostgreSQL refuses root)."""
    root = os.geteuid() == 0
    as_user = ["runuser", "-u", "postgres", "--"] if root else []
    folder = Path(tempfile.mkdtemp(prefix="letras-pg-", dir="/tmp" if root else None))
    data, log = folder / "data", folder / "log"

    def run(*command: str | Path) -> None:
        done = subprocess.run([*as_user, *map(str, command)], capture_output=True, text=True,
                              timeout=120, cwd=folder, env={**os.environ, "LC_ALL": "C"})
        if done.returncode:
            raise RuntimeError(f"{command[0]} failed:\n{done.stdout}{done.stderr}"
                               + (log.read_text() if log.exists() else ""))

    try:
        if root:
            shutil.chown(folder, "postgres", "postgres")
        run(initdb, "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C",
            "--no-sync")
        for attempt in itertools.count(1):
            port = _free_port()
            try:
                run(pg_ctl, "-D", data, "-l", log, "-w", "-t", "60", "-o",
                    f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off", "start")
                break
            except RuntimeError:
                if attempt == 3:  # another process took the port each time?
                    raise
        try:
            url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/letras"
            _admin(url, "postgres", "CREATE DATABASE letras")
            yield url
        finally:
            run(pg_ctl, "-D", data, "-m", "immediate", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _admin(url: str, database: str, statement: str) -> None:
    """Run ``statement`` outside a transaction, connected to ``database`` of ``url``'s
    cluster (CREATE and DROP DATABASE need that)."""
    where = make_url(url)
    with psycopg.connect(host=where.host, port=where.port, user=where.username,
                         dbname=database, autocommit=True) as conn:
        conn.execute(statement)


_databases = itertools.count(1)


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """A new empty database on the cluster of ``url`` (its URL), dropped on leaving."""
    name = f"letras_{os.getpid()}_{next(_databases)}"
    _admin(url, "letras", f"CREATE DATABASE {name}")
    try:
        yield make_url(url).set(database=name).render_as_string(hide_password=False)
    finally:
        _admin(url, "letras", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def letras_serve(db_url: str, port: int = 0, *extra: str) -> Iterator[tuple[str, Any]]:
    """``letras serve`` in a process group of its own (the server and its AI workers): its
    address and the process. Leaving kills the whole group if it still runs."""
    command = [sys.executable, "-m", "letras", "serve", "--port", str(port), "--db", db_url,
               *extra]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True, start_new_session=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert line.startswith("letras: open http://"), line
        address = line.split()[2].rstrip("/")
        deadline = time.monotonic() + 60
        while True:
            try:
                httpx.get(address + "/api/editions", timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the server never answered"
                time.sleep(0.1)
        yield address, server
    finally:
        kill_9(server)


def kill_9(server: Any) -> None:
    """SIGKILL to the server and its workers, as a machine's crash would."""
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait(timeout=30)


def service(client: TestClient) -> GameService:
    found: GameService = client.app.state.service  # type: ignore[attr-defined]
    return found


def new_game(client: TestClient, seats: list[dict[str, Any]], **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json={"edition": "en", "seats": seats, **body})
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def get_state(client: TestClient, game: str, token: str | None = None) -> State:
    params = {"token": token} if token else {}
    r = client.get(f"/api/games/{game}", params=params)
    assert r.status_code == 200, r.text
    state: State = r.json()
    return state


def wait_for(client: TestClient, game: str, token: str | None, ready: Callable[[State], bool],
             timeout: float = 60.0) -> State:
    """Poll the game's state until ``ready`` says so."""
    deadline = time.monotonic() + timeout
    while True:
        state = get_state(client, game, token)
        if ready(state):
            return state
        if time.monotonic() > deadline:
            raise AssertionError(f"the game did not get there: {state['step']}")
        time.sleep(0.02)


def best_play(state: State, graph: WordGraph) -> str | None:
    """The highest-scoring play for the seat to move, from its view only (its CGP)."""
    view = state["view"]
    edition = find_edition(view["edition"])
    position = Position.from_cgp(view["cgp"], edition)
    found = top_plays(position.board, position.rack, graph, 1,
                      bingo_bonus=view["rules"]["bingo_bonus"],
                      join_words=view["may_join_words"])
    return found[0][0].notation(edition) if found else None


def play_out(client: TestClient, game: str, tokens: dict[int, str], graph: WordGraph, *,
             exchange_every: int = 0, record: list[tuple[int | None, str]] | None = None,
             max_steps: int = 2000) -> State:
    """Play a game to its end through the API: each person's seat plays its best play
    (every ``exchange_every``-th of its turns it exchanges instead, while it may), lets plays
    waiting for a challenge stand, and waits for the computer. Every answer is recorded in
    ``record`` with the seat it was for."""
    turns = dict.fromkeys(tokens, 0)
    any_token = next(iter(tokens.values()))

    def keep(seat: int | None, text: str) -> None:
        if record is not None:
            record.append((seat, text))

    def ask(seat: int, body: dict[str, Any]) -> State:
        r = client.post(f"/api/games/{game}/actions", params={"token": tokens[seat]},
                        json=body)
        keep(seat, r.text)
        assert r.status_code == 200, r.text
        answer: State = r.json()
        return answer

    for _ in range(max_steps):
        r = client.get(f"/api/games/{game}", params={"token": any_token})
        keep(next(iter(tokens)), r.text)
        step = r.json()["step"]
        if step["kind"] == "over":
            break
        if step["kind"] == "ai":
            time.sleep(0.01)
            continue
        if step["kind"] in ("window", "settle"):
            for seat in step["may_challenge"]:
                ask(seat, {"accept": True})
            continue
        seat = step["seat"]
        r = client.get(f"/api/games/{game}", params={"token": tokens[seat]})
        keep(seat, r.text)
        state = r.json()
        turns[seat] += 1
        view = state["view"]
        if exchange_every and turns[seat] % exchange_every == 0 and view["bag"] >= 7:
            ask(seat, {"exchange": "".join(view["rack"][:3])})
            continue
        play = best_play(state, graph)
        ask(seat, {"play": play} if play else {"pass": True})
    else:
        raise AssertionError("the game did not end")
    final = get_state(client, game, any_token)
    keep(next(iter(tokens)), json.dumps(final))
    return final


__all__ = ["State", "TestClient", "best_play", "fresh_database", "get_state", "kill_9",
           "letras_serve", "new_game", "play_out", "postgres_cluster", "postgres_tools",
           "service", "serving", "wait_for"]
