"""Several servers on one PostgreSQL (issue 14, first slice): a game made through one server
is played through both, each server's websockets see every move (LISTEN/NOTIFY), and the
same action sent to both at once lands once."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from letras.lexicon.kwg import WordGraph
from letras.server.fanout import Listener
from server_helpers import TestClient, best_play, fresh_database, get_state, new_game, serving


@pytest.fixture
def pg_url(postgres_url: str) -> Iterator[str]:
    with fresh_database(postgres_url) as url:
        yield url


def listening(client: TestClient) -> None:
    """Wait until the app's listener is connected."""
    listener: Listener = client.app.state.listener  # type: ignore[attr-defined]
    deadline = time.monotonic() + 20
    while not listener.connected.is_set():
        assert time.monotonic() < deadline, "the listener never connected"
        time.sleep(0.02)


def act(client: TestClient, game: str, token: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/games/{game}/actions", params={"token": token}, json=body)


def test_two_servers_serve_one_game(pg_url: str, en_words: WordGraph) -> None:
    with serving(pg_url, en_words) as a, serving(pg_url, en_words) as b:
        listening(a)
        listening(b)
        created = new_game(a, [{"name": "Ana"}, {"name": "Bruno"}], seed=9)
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        with a.websocket_connect(f"/ws/games/{game}?token={tokens[0]}") as wa, \
                b.websocket_connect(f"/ws/games/{game}?token={tokens[1]}") as wb:
            assert wa.receive_json()["view"]["turns"] == []
            assert wb.receive_json()["view"]["turns"] == []
            for turn in range(4):  # the seat to move acts through server a, then b, ...
                server = (a, b)[turn % 2]
                seat = get_state(server, game, tokens[0])["step"]["seat"]
                mine = get_state(server, game, tokens[seat])
                play = best_play(mine, en_words)
                r = act(server, game, tokens[seat], {"play": play} if play else {"pass": True})
                assert r.status_code == 200, r.text
                for ws in (wa, wb):  # both servers' sockets are told, with the event
                    told = ws.receive_json()
                    while len(told["view"]["turns"]) < turn + 1:
                        told = ws.receive_json()
                    assert len(told["view"]["turns"]) == turn + 1
            events = [e["key"] for e in told["events"]]
            assert events and events[0].startswith("event.")
        assert get_state(a, game)["view"] == get_state(b, game)["view"]


def test_the_same_action_on_two_servers_lands_once(pg_url: str, en_words: WordGraph) -> None:
    with serving(pg_url, en_words) as a, serving(pg_url, en_words) as b:
        listening(a)
        listening(b)
        created = new_game(a, [{"name": "Ana"}, {"name": "Bruno"}], seed=9)
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        seat = get_state(a, game, tokens[0])["step"]["seat"]
        get_state(b, game, tokens[0])  # both hold the game in memory
        answers: list[Any] = [None, None]
        go = threading.Barrier(2)

        def send(i: int, client: TestClient) -> None:
            go.wait()
            answers[i] = act(client, game, tokens[seat], {"pass": True})

        threads = [threading.Thread(target=send, args=(i, c)) for i, c in enumerate((a, b))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        codes = sorted(r.status_code for r in answers)
        assert codes == [200, 409], [r.text for r in answers]
        loser = next(r for r in answers if r.status_code == 409)
        # The loser is told the game moved on (its server was behind), or, when the notice
        # came first, that it is not that seat's turn any more.
        assert loser.json()["error"]["key"] in ("server.moved_on", "rule.not_your_turn")
        turns = get_state(a, game)["view"]["turns"]
        assert [(t["kind"], t["player"]) for t in turns] == [("pass", seat)]
        assert get_state(b, game)["view"] == get_state(a, game)["view"]


def test_the_listener_comes_back_when_its_connection_dies(pg_url: str,
                                                          en_words: WordGraph) -> None:
    import psycopg

    from letras.server.fanout import conninfo

    with serving(pg_url, en_words) as a, serving(pg_url, en_words) as b:
        listening(a)
        listening(b)
        listener: Listener = b.app.state.listener  # type: ignore[attr-defined]
        with psycopg.connect(conninfo(pg_url), autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE query LIKE 'LISTEN%' AND datname = current_database()").fetchall()
        assert len(killed) == 2  # both servers' listening connections
        deadline = time.monotonic() + 20
        while listener.connections < 2 or not listener.connected.is_set():
            assert time.monotonic() < deadline, "the listener did not come back"
            time.sleep(0.05)
        created = new_game(a, [{"name": "Ana"}, {"name": "Bruno"}], seed=9)
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        seat = get_state(a, game, tokens[0])["step"]["seat"]
        with b.websocket_connect(f"/ws/games/{game}?token={tokens[seat]}") as wb:
            wb.receive_json()
            assert act(a, game, tokens[seat], {"pass": True}).status_code == 200
            assert len(wb.receive_json()["view"]["turns"]) == 1  # notices flow again


@pytest.mark.slow
def test_a_killed_server_leaves_the_computer_to_another(pg_url: str) -> None:
    """Two ``letras serve`` processes on one PostgreSQL; the one whose worker thinks for a
    computer seat is killed with SIGKILL: the other plays the turn once its lease ran out,
    exactly once."""
    import httpx

    from server_helpers import kill_9, letras_serve

    with letras_serve(pg_url, 0, "--ai-seconds", "3", "--ai-lease", "2") as (a, server_a), \
            letras_serve(pg_url, 0, "--ai-seconds", "0.5", "--ai-lease", "2") as (b, _):
        r = httpx.post(f"{a}/api/games", json={
            "edition": "en", "seats": [{"name": "Ana"}, {"name": "Bot", "ai": "sim"}],
            "seed": 5}, timeout=30)
        game, token = r.json()["id"], r.json()["seats"][0]["token"]

        def state(address: str) -> Any:
            return httpx.get(f"{address}/api/games/{game}", params={"token": token},
                             timeout=30).json()

        def wait_move(address: str) -> Any:
            deadline = time.monotonic() + 120
            while (s := state(address))["step"]["kind"] not in ("move", "over"):
                assert time.monotonic() < deadline, s["step"]
                time.sleep(0.1)
            return s

        before = wait_move(a)
        passed = httpx.post(f"{a}/api/games/{game}/actions", params={"token": token},
                            json={"pass": True}, timeout=30)
        assert passed.json()["step"]["kind"] == "ai"  # a's worker thinks for 3 s ...
        kill_9(server_a)  # ... and a dies
        after = wait_move(b)  # b was never asked: its job runner found the lease run out
    n = len(before["view"]["turns"])
    turns = after["view"]["turns"]
    assert len(turns) == n + 2 and turns[n]["kind"] == "pass" and turns[n + 1]["player"] == 1
