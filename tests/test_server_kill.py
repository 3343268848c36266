"""``kill -9`` of a real ``letras serve`` process in the middle of a game: a person's move just
accepted, the computer thinking. The next server on the same database has every accepted move
and plays the computer's turn, once. On SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

import signal
import time
from typing import Any

import httpx
import pytest

from server_helpers import kill_9, letras_serve

pytestmark = pytest.mark.slow


def state(address: str, game: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{address}/api/games/{game}", params={"token": token}, timeout=30)
    assert r.status_code == 200, r.text
    answer: dict[str, Any] = r.json()
    return answer


def wait_for_move(address: str, game: str, token: str, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        s = state(address, game, token)
        if s["step"]["kind"] in ("move", "over"):
            return s
        assert time.monotonic() < deadline, f"the computer never moved: {s['step']}"
        time.sleep(0.1)


def computer_moves(s: dict[str, Any]) -> int:
    return sum(1 for t in s["view"]["turns"]
               if t["player"] == 1 and t["kind"] in ("play", "exchange", "pass"))


def test_kill_9_while_the_computer_thinks(db_url: str) -> None:
    with letras_serve(db_url, 0, "--ai-seconds", "3") as (address, server):
        r = httpx.post(f"{address}/api/games", json={
            "edition": "en", "seats": [{"name": "Ana"}, {"name": "Bot", "ai": "sim"}],
            "seed": 5}, timeout=30)
        assert r.status_code == 201, r.text
        game, token = r.json()["id"], r.json()["seats"][0]["token"]
        before = wait_for_move(address, game, token)
        passed = httpx.post(f"{address}/api/games/{game}/actions", params={"token": token},
                            json={"pass": True}, timeout=30)
        assert passed.status_code == 200, passed.text
        assert passed.json()["step"]["kind"] == "ai"  # the computer is thinking ...
        kill_9(server)  # ... when the server dies
    assert server.returncode == -signal.SIGKILL
    with letras_serve(db_url, 0, "--ai-seconds", "0.5") as (address, _):
        after = wait_for_move(address, game, token)
    turns = after["view"]["turns"]
    assert len(turns) == len(before["view"]["turns"]) + 2
    assert turns[len(before["view"]["turns"])]["kind"] == "pass"  # the accepted move is there
    assert turns[len(before["view"]["turns"])]["player"] == 0
    assert computer_moves(after) == computer_moves(before) + 1  # and the computer moved once
