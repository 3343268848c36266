"""Helpers of the web server's tests: a client on a temporary database, and players that drive
whole games through the API, recording every answer."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

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
def serving(db: Path, graph: WordGraph, **options: Any) -> Iterator[TestClient]:
    """A client of a new app on the SQLite file ``db``, English judged by ``graph``; the
    app (and its worker processes) shut down on leaving."""
    options.setdefault("ai_seconds", 0.1)
    app = create_app(f"sqlite:///{db}", graphs={"en": graph}, **options)
    with TestClient(app) as client:
        yield client


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


__all__ = ["State", "TestClient", "best_play", "get_state", "new_game", "play_out", "service",
           "serving", "wait_for"]
