"""Nothing a seat receives holds another seat's rack, the game's seed or another seat's token:
every HTTP answer and websocket message of whole games is recorded and searched."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from letras.lexicon.kwg import WordGraph
from server_helpers import TestClient, new_game, play_out, service, serving

SEED = 8_765_432_109_876_543


def dicts(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside ``value``."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from dicts(v)
    elif isinstance(value, list):
        for v in value:
            yield from dicts(v)


def check(viewer: int | None, text: str, secrets: dict[int, str], seed: str) -> int:
    """``text`` (one answer or message for ``viewer``, None a spectator) shows no rack but
    the viewer's, no exchanged tiles of others, not the seed and no other seat's token.
    Returns how many racks (the viewer's) it shows."""
    assert seed not in text
    racks = 0
    for seat, token in secrets.items():
        if seat != viewer:
            assert token not in text
    data = json.loads(text)
    for d in dicts(data):
        if "rack" in d:
            owner = d.get("player", d.get("seat"))
            assert viewer is not None and owner == viewer, d
            racks += 1
        if d.get("kind") == "exchange" and "player" in d and d["player"] != viewer:
            assert not d.get("tiles"), d
    return racks


def test_the_check_finds_a_leak() -> None:
    view = {"seat": 0, "rack": ["A"], "turns": [{"player": 1, "kind": "play", "rack": ["B"]}]}
    with pytest.raises(AssertionError):
        check(0, json.dumps({"view": view}), {}, "1")
    exchange = {"player": 1, "kind": "exchange", "tiles": ["Q"]}
    with pytest.raises(AssertionError):
        check(0, json.dumps({"turns": [exchange]}), {}, "1")
    with pytest.raises(AssertionError):
        check(None, json.dumps({"view": {"seat": 0, "rack": ["A"]}}), {}, "1")
    with pytest.raises(AssertionError):
        check(0, json.dumps({"token": "t1"}), {1: "t1"}, "1")
    assert check(0, json.dumps({"view": {"seat": 0, "rack": ["A"]}}), {0: "t0"}, "1") == 1


def listen(stack: ExitStack, client: TestClient, game: str,
           tokens: dict[int, str]) -> list[tuple[int | None, Any]]:
    """A websocket for each seat and one for a spectator."""
    paths: list[tuple[int | None, str]] = [
        (seat, f"/ws/games/{game}?token={token}") for seat, token in tokens.items()]
    paths.append((None, f"/ws/games/{game}"))
    return [(seat, stack.enter_context(client.websocket_connect(path)))
            for seat, path in paths]


def drain(sockets: list[tuple[int | None, Any]], record: list[tuple[int | None, str]]) -> None:
    """Read each socket to the state where the game is over."""
    for seat, ws in sockets:
        while True:
            text = ws.receive_text()
            record.append((seat, text))
            message = json.loads(text)
            assert message["type"] == "state", message
            if message["view"]["over"]:
                break


@pytest.mark.parametrize("seats", [
    [{"name": "Ana"}, {"name": "Bruno"}],
    [{"name": "Ana"}, {"name": "Bruno"}, {"name": "Bot", "ai": "greedy"}],
], ids=["two-people", "two-people-and-a-computer"])
def test_no_answer_tells_a_secret(db_url: str, en_words: WordGraph,
                                  seats: list[dict[str, Any]]) -> None:
    with serving(db_url, en_words) as client:
        record: list[tuple[int | None, str]] = []
        for seed in (SEED, None):
            created = new_game(client, seats, seed=seed)
            game = created["id"]
            tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
            saved_seed = str(service(client).store.load_game(game).data["seed"])
            assert seed is None or saved_seed == str(seed)
            assert saved_seed not in json.dumps(created)
            with ExitStack() as stack:
                sockets = listen(stack, client, game, tokens)
                final = play_out(client, game, tokens, en_words, exchange_every=3,
                                 record=record)
                drain(sockets, record)
            turns = final["view"]["turns"]
            assert sum(t["kind"] == "exchange" for t in turns) >= 2
            assert final["view"]["over"]
            shown = dict.fromkeys([*tokens, None], 0)
            for viewer, text in record:
                shown[viewer] += check(viewer, text, tokens, saved_seed)
            assert shown[None] == 0 and all(shown[seat] > 10 for seat in tokens)
            assert len({viewer for viewer, _ in record}) == len(tokens) + 1
            record.clear()
