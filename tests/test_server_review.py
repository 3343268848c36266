"""The web app after a move and after the game: the challenge window kept in the database
(its time and who accepted), examining positions, the best plays of a past turn, and the
rematch. Each test on SQLite and on PostgreSQL (the ``db_url`` fixture)."""

from __future__ import annotations

import time
from typing import Any

from letras.editions import find_edition
from letras.formats.cgp import Position
from letras.lexicon.kwg import WordGraph
from letras.movegen import top_plays
from letras.server.storage import Store
from server_helpers import (
    TestClient,
    best_play,
    get_state,
    new_game,
    play_out,
    service,
    serving,
    wait_for,
)

SEED = 20261202


def post(client: TestClient, game: str, token: str | None, body: Any, what: str) -> Any:
    params = {"token": token} if token else {}
    return client.post(f"/api/games/{game}/{what}", params=params, json=body)


def examine(client: TestClient, game: str, token: str | None, n: int | str) -> Any:
    params = {"token": token} if token else {}
    return client.get(f"/api/games/{game}/examine/{n}", params=params)


def open_window(client: TestClient,
                en_words: WordGraph) -> tuple[str, dict[int, str], int, dict[str, Any]]:
    """Three people and a computer; a person plays before the computer, so the other two
    may challenge: the game, the tokens, the player and the state after the play."""
    created = new_game(client, [{"name": "Ana"}, {"name": "Bruno"}, {"name": "Carla"},
                                {"ai": "greedy"}], seed=SEED)
    game = created["id"]
    tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
    for _ in range(12):
        state = wait_for(client, game, tokens[0], lambda s: s["step"]["kind"] == "move")
        seat = state["step"]["seat"]
        mine = get_state(client, game, tokens[seat])
        play = best_play(mine, en_words)
        after = post(client, game, tokens[seat], {"play": play} if play else {"pass": True},
                     "actions").json()
        if after["step"]["kind"] == "window":
            return game, tokens, seat, after
    raise AssertionError("no challenge window opened")


def test_the_window_survives_a_restart(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words, window_seconds=30) as client:
        game, tokens, player, after = open_window(client, en_words)
        window = after["window"]
        assert window["seconds"] == 30 and 25 < window["seconds_left"] <= 30
        waiting = after["step"]["may_challenge"]
        assert sorted(waiting) == sorted(s for s in tokens if s != player)
        first, second = waiting
        accepted = post(client, game, tokens[first], {"accept": True}, "actions").json()
        assert accepted["step"]["kind"] == "window"
        assert accepted["step"]["may_challenge"] == [second]
        time.sleep(0.3)
    with serving(db_url, en_words, window_seconds=30) as client:
        again = get_state(client, game, tokens[second])
        assert again["step"]["kind"] == "window"
        assert again["step"]["may_challenge"] == [second]  # who accepted is remembered
        left = again["window"]["seconds_left"]
        assert left < window["seconds_left"] - 0.2  # the time ran on; it did not start over
        done = post(client, game, tokens[second], {"accept": True}, "actions").json()
        assert done["step"]["kind"] != "window" and done["window"] is None


def test_a_window_closes_on_time_after_a_restart(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words, window_seconds=3600) as client:  # it would wait an hour
        game, tokens, player, _ = open_window(client, en_words)
        time.sleep(1.6)
        assert get_state(client, game, tokens[player])["step"]["kind"] == "window"
    with serving(db_url, en_words, window_seconds=1.5) as client:
        # The window had run out while no server watched: the next one closes it at once.
        state = wait_for(client, game, tokens[player], lambda s: s["step"]["kind"] != "window",
                         timeout=5)
        assert state["window"] is None
        assert any(t["player"] == 3 for t in state["view"]["turns"])  # the computer went on


def test_stored_windows(db_url: str) -> None:
    store = Store(db_url)
    try:
        store.create_game("g", {"format": "letras-game"}, {})
        opened = store.open_window("g", 4, 1000.0)
        assert opened.opened == 1000.0 and opened.declined == frozenset()
        assert store.open_window("g", 4, 2000.0).opened == 1000.0  # it opens once
        store.decline("g", 4, frozenset({2, 1}))
        assert store.window("g", 4) is not None
        assert store.window("g", 4).declined == {1, 2}  # type: ignore[union-attr]
        assert store.window("g", 5) is None
        store.append_moves("g", 0, [{"player": 0, "type": "pass"}] * 4)
        saved = store.load_game("g")
        assert saved.window is not None and saved.window.declined == {1, 2}
        store.append_moves("g", 4, [{"player": 0, "type": "pass"}])
        assert store.load_game("g").window is None  # only the window after the last move
    finally:
        store.close()


def finished(client: TestClient, en_words: WordGraph) -> tuple[str, str, dict[str, Any]]:
    created = new_game(client, [{"name": "Ana"}, {"name": "Bot", "ai": "greedy"}], seed=SEED)
    game, token = created["id"], created["seats"][0]["token"]
    return game, token, play_out(client, game, {0: token}, en_words)


def test_examine_steps_through_the_game(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        game, token, final = finished(client, en_words)
        start = examine(client, game, token, 0).json()
        assert start["n"] == 0 and start["prev"] is None and start["view"]["turns"] == []
        assert {p["score"] for p in start["view"]["players"]} == {0}
        positions = start["positions"]
        assert positions[0] == 0 and positions[-1] == start["moves"] and len(positions) > 4
        # Step forward to the end: the turns grow, the last is the game's end.
        n, seen = 0, []
        while n is not None:
            answer = examine(client, game, token, n).json()
            seen.append(len(answer["view"]["turns"]))
            if answer["next"] is not None:
                # Once the game is over, the rack shown is the mover's, whoever asks.
                assert answer["rack_of"] == answer["view"]["to_move"]
                assert answer["view"]["rack"] is not None
            n = answer["next"]
        assert seen == sorted(seen) and seen[-1] == len(final["view"]["turns"])
        assert answer["view"]["players"] == final["view"]["players"]
        spectator = examine(client, game, None, positions[1]).json()
        assert spectator["view"]["board"] == examine(client, game, token,
                                                     positions[1]).json()["view"]["board"]
        for bad in (positions[-1] + 1, "x", "-1", "9" * 7):
            r = examine(client, game, token, bad)
            assert r.status_code == 400, r.text
            assert r.json()["error"]["key"] in ("server.no_position", "server.bad_type")
        assert examine(client, game, "nope", 0).status_code == 403


def test_examine_while_the_game_is_on_shows_only_ones_own_rack(db_url: str,
                                                               en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bruno"}], seed=SEED)
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        seat = get_state(client, game, tokens[0])["step"]["seat"]
        mine = get_state(client, game, tokens[seat])
        post(client, game, tokens[seat], {"play": best_play(mine, en_words)}, "actions")
        for who in (0, 1):
            answer = examine(client, game, tokens[who], 0).json()
            assert answer["rack_of"] == who
            assert answer["view"]["rack"] == get_state(client, game, tokens[who])["view"][
                "rack"] or who == seat  # the player's rack then was another one
        spectator = examine(client, game, None, 0).json()
        assert spectator["rack_of"] is None and "rack" not in spectator["view"]
        # The best plays are kept for after the game.
        r = post(client, game, tokens[0], {"n": 0}, "best")
        assert r.status_code == 409 and r.json()["error"]["key"] == "server.not_over"
        r = post(client, game, tokens[0], {}, "rematch")
        assert r.status_code == 409 and r.json()["error"]["key"] == "server.not_over"


def test_the_best_plays_of_a_past_turn(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        game, token, _ = finished(client, en_words)
        positions = examine(client, game, token, 0).json()["positions"]
        n = positions[2]
        answer = post(client, game, token, {"n": n, "count": 5}, "best")
        assert answer.status_code == 200, answer.text
        best = answer.json()
        then = examine(client, game, token, n).json()
        assert best["seat"] == then["view"]["to_move"]
        assert sorted(best["rack"]) == sorted("".join(then["view"]["rack"]))
        plays = best["plays"]
        assert 1 <= len(plays) <= 5
        equities = [p["equity"] for p in plays]
        assert equities == sorted(equities, reverse=True)
        # The top score among the tile plays is the generator's best score there.
        view = then["view"]
        position = Position.from_cgp(view["cgp"], find_edition("en"))
        top = top_plays(position.board, position.rack, en_words, 1,
                        bingo_bonus=view["rules"]["bingo_bonus"])
        assert max(p["score"] for p in plays) <= top[0][1]
        assert service(client).pool.jobs_done > 0
        for body in ({"n": n, "count": 0}, {"n": n, "count": 99}, {"n": "1"}, {"m": 1}):
            r = post(client, game, token, body, "best")
            assert r.status_code == 400, r.text
        r = post(client, game, token, {"n": positions[-1]}, "best")
        assert r.status_code == 400  # the game is over there: nobody is to move


def test_a_rematch_opens_with_the_same_links(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        game, token, final = finished(client, en_words)
        with client.websocket_connect(f"/ws/games/{game}?token={token}") as ws:
            assert ws.receive_json()["rematch"] is None
            r = post(client, game, token, {}, "rematch")
            assert r.status_code == 200, r.text
            rematch = r.json()["id"]
            told = ws.receive_json()
            assert told["rematch"] == rematch  # every page is told
        assert rematch != game and r.json()["url"] == f"/g/{rematch}"
        assert post(client, game, token, {}, "rematch").json()["id"] == rematch  # only one
        assert get_state(client, game)["rematch"] == rematch
        fresh = get_state(client, rematch, token)  # the same token opens the same seat
        assert fresh["seat"] == 0 and fresh["view"]["players"][1]["name"] == "Bot"
        assert fresh["view"]["rules"] == final["view"]["rules"]
        assert not fresh["view"]["over"] and len(fresh["view"]["rack"]) == 7
        wait_for(client, rematch, token, lambda s: s["step"]["kind"] in ("move", "over"))
        assert post(client, game, None, {}, "rematch").status_code == 403
        assert post(client, game, token, {"x": 1}, "rematch").status_code == 400
    with serving(db_url, en_words) as client:  # a new server knows it too
        assert get_state(client, game, token)["rematch"] == rematch


def test_a_seat_resigns_whoever_is_to_move(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bruno"}], seed=SEED)
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        seat = get_state(client, game, tokens[0])["step"]["seat"]
        mine = get_state(client, game, tokens[seat])
        post(client, game, tokens[seat], {"play": best_play(mine, en_words)}, "actions")
        other = 1 - seat  # to move now; the leader resigns out of turn
        assert post(client, game, None, {"resign": True}, "actions").status_code == 403
        assert post(client, game, tokens[seat], {"resign": False}, "actions").status_code == 400
        r = post(client, game, tokens[seat], {"resign": True}, "actions")
        assert r.status_code == 200, r.text
        view = r.json()["view"]
        assert view["over"] and view["end_reason"] == "resigned"
        assert view["resigned"] == seat and view["winners"] == [other]
        assert view["players"][seat]["score"] > view["players"][other]["score"]
        assert r.json()["step"]["kind"] == "over"
        assert any(e["key"] == "event.resigned" for e in r.json()["events"])
        again = post(client, game, tokens[other], {"pass": True}, "actions")
        assert again.status_code == 409 and again.json()["error"]["key"] == "rule.over"
    with serving(db_url, en_words) as client:  # stored: a new server reads it back
        assert get_state(client, game)["view"]["resigned"] == seat
