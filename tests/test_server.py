"""The web app's contract (docs/web-api.md) through Starlette's test client, each test on a
fresh database of each kind (an SQLite file, a database on a private PostgreSQL cluster),
English judged by the test word list."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, inspect, select

from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph
from letras.server.games import token_hash
from letras.server.storage import StorageError, Store, metadata
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

EN = find_edition("en")
SEED = 20261201


@pytest.fixture
def client(db_url: str, en_words: WordGraph) -> Any:
    with serving(db_url, en_words) as c:
        yield c


def two_people(client: TestClient, **body: Any) -> tuple[str, dict[int, str]]:
    created = new_game(client, [{"name": "Ana"}, {"name": "Bruno"}], seed=SEED, **body)
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


def to_move(client: TestClient, game: str, tokens: dict[int, str]) -> int:
    seat: int = get_state(client, game, tokens[0])["step"]["seat"]
    return seat


def post(client: TestClient, game: str, token: str | None, body: Any,
         what: str = "actions") -> Any:
    params = {"token": token} if token else {}
    if isinstance(body, (str, bytes)):
        return client.post(f"/api/games/{game}/{what}", params=params, content=body,
                           headers={"content-type": "application/json"})
    return client.post(f"/api/games/{game}/{what}", params=params, json=body)


# ----- pages, editions, catalogs ------------------------------------------------------------


def test_the_page_and_static_files(client: TestClient) -> None:
    for path in ("/", "/g/abc"):
        r = client.get(path)
        assert r.status_code == 200 and "text/html" in r.headers["content-type"]
    r = client.get("/static/no-such-file.js")
    assert r.status_code == 404 and r.json()["error"]["key"] == "server.not_found"


def test_editions_and_catalogs(client: TestClient) -> None:
    data = client.get("/api/editions").json()
    by_name = {e["name"]: e for e in data["editions"]}
    assert set(by_name) == {"pt-BR", "es", "it", "en"}
    assert by_name["en"]["lexicons"][0] == "en-words"  # the graph the app was given
    assert by_name["pt-BR"]["rules"]["challenge_rule"] == "double"
    tiles = by_name["es"]["tiles"]  # the tile table, for the page to show values
    assert tiles[0] == {"label": "?", "value": 0, "count": 2, "vowel": False}
    assert {"label": "CH", "value": 5, "count": 1, "vowel": False} in tiles
    assert sum(t["count"] for t in tiles) == 100
    assert "greedy" in data["levels"] and data["default_level"] in data["levels"]
    pt = client.get("/api/i18n/pt-BR").json()
    en = client.get("/api/i18n/en").json()
    assert pt["seat.computer"] == "Computador" and en["seat.computer"] == "Computer"
    assert set(en) <= set(pt)  # English fills what a catalog lacks
    assert client.get("/api/i18n/klingon").json() == en


# ----- games, views, tokens -----------------------------------------------------------------


def test_create_a_game_and_see_it(client: TestClient) -> None:
    created = new_game(client, [{"name": "Ana"}, {"name": "Robô", "ai": "greedy"}], seed=SEED)
    game = created["id"]
    person, computer = created["seats"]
    assert person["seat"] == 0 and person["name"] == "Ana"
    assert person["url"] == f"/g/{game}?token={person['token']}"
    assert computer == {"seat": 1, "name": "Robô", "ai": "greedy"}
    assert created["spectate"] == f"/g/{game}"
    mine = get_state(client, game, person["token"])
    assert mine["game"] == game and mine["seat"] == 0 and len(mine["view"]["rack"]) == 7
    assert set(mine["step"]) == {"kind", "seat", "may_challenge"}
    spectator = get_state(client, game)
    assert spectator["seat"] is None and "rack" not in spectator["view"]
    bearer = client.get(f"/api/games/{game}",
                        headers={"authorization": f"Bearer {person['token']}"}).json()
    assert bearer["view"]["rack"] == mine["view"]["rack"]
    r = client.get(f"/api/games/{game}", params={"token": "not-a-token"})
    assert r.status_code == 403 and r.json()["error"]["key"] == "server.bad_token"
    for missing in ("no-such-game", "%00", "x" * 300):  # the same on every database
        r = client.get(f"/api/games/{missing}")
        assert r.status_code == 404 and r.json()["error"]["key"] == "server.no_game"


def test_a_new_game_is_checked(client: TestClient) -> None:
    def refused(body: Any) -> dict[str, Any]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400, r.text
        error: dict[str, Any] = r.json()["error"]
        return error

    person = {"name": "Ana"}
    assert refused({"edition": "xx", "seats": [person, {"ai": "greedy"}]})["key"] \
        == "server.edition"
    assert refused({"edition": "en", "seats": [person]})["key"] == "seat.count"
    assert refused({"edition": "en", "seats": [person, {"ai": "genius"}]})["key"] \
        == "seat.level"
    assert refused({"edition": "en", "seats": [person, {"name": "ana"}]})["key"] \
        == "seat.twice"
    assert refused({"edition": "en", "seats": [person, {"name": " "}]})["key"] \
        == "server.seat_name"
    assert refused({"edition": "en", "seats": [person, {"ai": "greedy", "x": 1}]})["key"] \
        == "server.unknown_field"
    assert refused({"edition": "en", "seats": [person, person], "colour": "red"})["field"] \
        == "colour"
    assert refused({"edition": "en", "seats": "Ana"})["key"] == "server.bad_type"
    assert refused({"edition": "en", "lexicon": "/etc/passwd", "seats": [person, {"ai": "greedy"}]
                    })["key"] == "server.lexicon"
    assert refused({"edition": "en", "seats": [person, {"ai": "greedy"}],
                    "rules": {"bingo_bonus": "many"}})["key"] == "server.bad_type"
    assert refused({"edition": "en", "seats": [person, {"ai": "greedy"}],
                    "rules": {"challenge_rule": "never"}})["key"] == "server.rules"
    assert refused({"edition": "en", "seats": [person, {"ai": "greedy"}], "clock": "soon"}
                   )["key"] == "server.rules"
    assert refused({"edition": "en", "seats": [person, {"ai": "greedy"}], "seed": "x"}
                   )["key"] == "server.bad_type"
    created = new_game(client, [person, {"ai": "greedy"}], rules={"challenge_rule": "single"},
                       clock="25m")
    view = get_state(client, created["id"])["view"]
    assert view["rules"]["challenge_rule"] == "single"
    assert view["rules"]["time_control"]["seconds"] == 1500
    assert created["seats"][1]["name"] == "Computer"


def test_messages_follow_the_language(client: TestClient) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    other = 1 - seat
    r = post(client, game, tokens[other], {"pass": True})
    assert r.status_code == 409
    assert r.json()["error"]["message"] == "it is Ana's turn, not Bruno's" or \
        r.json()["error"]["message"] == "it is Bruno's turn, not Ana's"
    r = client.post(f"/api/games/{game}/actions", params={"token": tokens[other], "lang": "pt"},
                    json={"pass": True})
    assert r.json()["error"]["message"].startswith("é a vez de")
    r = client.post(f"/api/games/{game}/actions", params={"token": tokens[seat]},
                    headers={"accept-language": "es-ES,en;q=0.5"}, json={"pass": True})
    assert r.json()["events"][-1]["text"] == f"{['Ana', 'Bruno'][seat]} pasa."


# ----- actions ------------------------------------------------------------------------------


def test_play_pass_and_exchange(client: TestClient, en_words: WordGraph) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    state = get_state(client, game, tokens[seat])
    play = best_play(state, en_words)
    assert play is not None
    after = post(client, game, tokens[seat], {"play": play}).json()
    assert after["seat"] == seat and after["events"][-1]["key"] == "event.play"
    assert after["step"] == {"kind": "move", "seat": 1 - seat, "may_challenge": [1 - seat]}
    assert after["view"]["turns"][-1]["play"].split()[0] == play.split()[0]
    passed = post(client, game, tokens[1 - seat], {"pass": True}).json()
    assert passed["events"][-1]["key"] == "event.pass" and passed["step"]["seat"] == seat
    rack = get_state(client, game, tokens[seat])["view"]["rack"]
    exchanged = post(client, game, tokens[seat], {"exchange": "".join(rack[:2]).lower()}).json()
    assert exchanged["events"][-1]["key"] == "event.exchange"
    assert exchanged["events"][-1]["data"]["count"] == 2
    assert exchanged["view"]["turns"][-1]["tiles"] == sorted(rack[:2])
    other_view = get_state(client, game, tokens[1 - seat])["view"]
    assert "tiles" not in other_view["turns"][-1] and "rack" not in other_view["turns"][-1]
    saved = service(client).store.load_game(game)
    assert [m["type"] for m in saved.data["moves"]] == ["place", "pass", "exchange"]


def phony(state: dict[str, Any], graph: WordGraph) -> str:
    """A first play of two tiles of the rack that is not a word."""
    rack = [t for t in state["view"]["rack"] if t != "?"]
    for i, a in enumerate(rack):
        for b in rack[i + 1:]:
            if a + b not in graph:
                return f"8H {a}{b}"
    raise AssertionError("no phony in this rack")


def test_challenges(client: TestClient, en_words: WordGraph) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    other = 1 - seat
    post(client, game, tokens[seat], {"play": phony(get_state(client, game, tokens[seat]),
                                                     en_words)})
    won = post(client, game, tokens[other], {"challenge": True}).json()
    assert [e["key"] for e in won["events"][-3:]] == ["challenge.by", "challenge.won",
                                                       "event.withdrawn"]
    assert all(row == "." * 15 for row in won["view"]["board"])
    assert won["step"] == {"kind": "move", "seat": other, "may_challenge": []}
    r = post(client, game, tokens[seat], {"challenge": True})
    assert r.status_code == 409 and r.json()["error"]["key"] == "challenge.nothing"
    play = best_play(won, en_words)
    post(client, game, tokens[other], {"play": play})
    lost = post(client, game, tokens[seat], {"challenge": True}).json()
    assert [e["key"] for e in lost["events"][-3:]] == ["challenge.by", "challenge.lost",
                                                        "event.lost-turn"]
    assert lost["step"]["seat"] == other  # English's double challenge: the turn is lost
    saved = service(client).store.load_game(game)
    assert [(m["type"], m.get("valid")) for m in saved.data["moves"]] == [
        ("place", None), ("challenge", False), ("place", None), ("challenge", True)]


def test_the_gcg_record_of_a_seat(client: TestClient, en_words: WordGraph) -> None:
    from letras.formats.gcg import read_gcg

    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    before = get_state(client, game, tokens[seat])["view"]["rack"]
    play = best_play(get_state(client, game, tokens[seat]), en_words)
    assert play is not None
    post(client, game, tokens[seat], {"play": play})
    names = {0: "Ana", 1: "Bruno"}

    def record(token: str | None) -> Any:
        r = client.get(f"/api/games/{game}/gcg", params={"token": token} if token else {})
        assert r.status_code == 200, r.text
        assert r.headers["content-type"] == "text/plain; charset=utf-8"
        assert r.headers["content-disposition"] == f'attachment; filename="letras-{game}.gcg"'
        assert str(SEED) not in r.text  # never the seed
        read = read_gcg(r.text, EN)
        assert not read.errors and not read.final_racks
        assert [(e.player, e.action.notation(EN) if e.action else None) for e in read.events] \
            == [(names[seat], play)]
        return read.events[0]

    mine = record(tokens[seat])
    assert sorted(mine.rack) == sorted(EN.tiles.parse("".join(before), rack=True))
    assert record(tokens[1 - seat]).rack is None  # not the other seat's rack
    assert record(None).rack is None  # nor a spectator's
    bearer = client.get(f"/api/games/{game}/gcg",
                        headers={"authorization": f"Bearer {tokens[seat]}"})
    assert read_gcg(bearer.text, EN).events[0].rack == mine.rack
    r = client.get(f"/api/games/{game}/gcg", params={"token": "forged"})
    assert r.status_code == 403 and r.json()["error"]["key"] == "server.bad_token"
    assert client.get("/api/games/nope/gcg").status_code == 404


def test_refused_requests_change_nothing(client: TestClient, en_words: WordGraph) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    before = get_state(client, game, tokens[seat])
    play = best_play(before, en_words)
    assert play is not None
    cases: list[tuple[int, str, str | None, Any]] = [
        (400, "server.bad_json", tokens[seat], "{not json"),
        (400, "server.not_object", tokens[seat], "[1, 2]"),
        (400, "server.unknown_field", tokens[seat], {"play": play, "undo": True}),
        (400, "server.unknown_field", tokens[seat], {"undo": True}),
        (400, "server.bad_type", tokens[seat], {"play": 8}),
        (400, "server.bad_type", tokens[seat], {"pass": "yes"}),
        (400, "server.one_action", tokens[seat], {"play": play, "pass": True}),
        (403, "server.no_token", None, {"play": play}),
        (403, "server.bad_token", "forged", {"play": play}),
        (409, "rule.not_your_turn", tokens[1 - seat], {"play": play}),
        (409, "challenge.nothing", tokens[1 - seat], {"challenge": True}),
        (413, "server.too_large", tokens[seat], json.dumps({"play": "x" * 70_000})),
        (422, "illegal.first-play-centre", tokens[seat], {"play": "1A " + play.split()[1]}),
        (422, "play.form", tokens[seat], {"play": "nonsense"}),
        (422, "exchange.not_on_rack", tokens[seat], {"exchange": "QQQQQQQ"}),
    ]
    for status, key, token, body in cases:
        r = post(client, game, token, body)
        assert (r.status_code, r.json()["error"]["key"]) == (status, key), (body, r.text)
        assert get_state(client, game, tokens[seat]) == before
    r = client.post("/api/games/nope/actions", params={"token": tokens[seat]},
                    json={"pass": True})
    assert r.status_code == 404
    big = client.post("/api/games", content=b"{" + b" " * 70_000 + b"}",
                      headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert service(client).store.load_game(game).data["moves"] == []
    error = post(client, game, tokens[seat], {"play": "1A " + play.split()[1]}).json()["error"]
    assert error["square"] == "H8" and "H8" in error["message"]


def test_preview(client: TestClient, en_words: WordGraph) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    before = get_state(client, game, tokens[seat])
    play = best_play(before, en_words)
    assert play is not None
    r = post(client, game, tokens[seat], {"play": play}, "preview").json()
    assert r["legal"] is True and r["score"]["total"] > 0
    assert set(r["score"]) == {"words", "bingo", "total", "text"}
    bad = post(client, game, tokens[seat], {"play": "1A " + play.split()[1]}, "preview").json()
    assert bad["legal"] is False and bad["error"]["key"] == "illegal.first-play-centre"
    # Under a challenge rule the preview does not look words up (that would tell a
    # challenge's outcome): a phony is a legal play until challenged.
    fake = post(client, game, tokens[seat], {"play": phony(before, en_words)}, "preview").json()
    assert fake["legal"] is True
    off_rack = post(client, game, tokens[1 - seat], {"play": play}, "preview").json()
    assert off_rack["legal"] is False or off_rack["score"]["total"] > 0
    assert post(client, game, None, {"play": play}, "preview").status_code == 403
    assert post(client, game, tokens[seat], {"pass": True}, "preview").status_code == 400
    assert get_state(client, game, tokens[seat]) == before


def test_preview_looks_words_up_under_the_void_rule(client: TestClient,
                                                     en_words: WordGraph) -> None:
    game, tokens = two_people(client, rules={"challenge_rule": "void"})
    seat = to_move(client, game, tokens)
    state = get_state(client, game, tokens[seat])
    fake = post(client, game, tokens[seat], {"play": phony(state, en_words)}, "preview").json()
    assert fake["legal"] is False and fake["error"]["key"] == "illegal.invalid-words"


# ----- the websocket ------------------------------------------------------------------------


def test_the_websocket(client: TestClient, en_words: WordGraph) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    with client.websocket_connect(f"/ws/games/{game}?token={tokens[seat]}") as ws, \
            client.websocket_connect(f"/ws/games/{game}") as watcher:
        first = ws.receive_json()
        assert first["type"] == "state" and first["seat"] == seat
        assert first["step"]["seat"] == seat and len(first["view"]["rack"]) == 7
        seen = watcher.receive_json()
        assert seen["seat"] is None and "rack" not in seen["view"]
        ws.send_text("{broken")
        error = ws.receive_json()
        assert error["type"] == "error" and error["error"]["key"] == "server.bad_json"
        ws.send_json({"action": {"play": "8H"}, "extra": 1})
        assert ws.receive_json()["error"]["key"] == "server.unknown_field"
        ws.send_text(json.dumps({"action": {"play": "x" * 70_000}}))
        assert ws.receive_json()["error"]["key"] == "server.too_large"
        ws.send_json({"action": {"challenge": True}})
        assert ws.receive_json()["error"]["key"] == "challenge.nothing"
        play = best_play(first, en_words)
        ws.send_json({"action": {"play": play}})
        mine = ws.receive_json()
        assert mine["type"] == "state" and mine["step"]["seat"] == 1 - seat
        assert [e["key"] for e in mine["events"]] == ["event.play"]  # only what is new
        theirs = watcher.receive_json()
        assert theirs["view"]["board"] == mine["view"]["board"]
        r = post(client, game, tokens[1 - seat], {"pass": True})  # told to the sockets too
        assert r.status_code == 200
        assert ws.receive_json()["events"][0]["key"] == "event.pass"
        assert watcher.receive_json()["step"]["seat"] == seat
    with client.websocket_connect(f"/ws/games/{game}?token=forged") as bad:
        assert bad.receive_json()["error"]["key"] == "server.bad_token"
    with client.websocket_connect("/ws/games/nothing-here") as bad:
        assert bad.receive_json()["error"]["key"] == "server.no_game"


# ----- the computer -------------------------------------------------------------------------


def test_a_whole_game_against_the_computer(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bot", "ai": "greedy"}],
                           seed=SEED)
        game, token = created["id"], created["seats"][0]["token"]
        final = play_out(client, game, {0: token}, en_words)
        pool = service(client).pool
        executor = pool._executor
        assert executor is not None
        workers = list(executor._processes.values())
        assert len(workers) == 1 and all(p.is_alive() for p in workers)
    assert final["view"]["over"] and final["step"]["kind"] == "over"
    computer_turns = [t for t in final["view"]["turns"]
                      if t["player"] == 1 and t["kind"] in ("play", "exchange", "pass")]
    assert pool.jobs_done == len(computer_turns) > 3  # every computer move came from a worker
    assert [e["key"] for e in final["events"]][-1] in ("count.winner", "count.tie")
    for p in workers:
        p.join(timeout=10)
        assert not p.is_alive()  # the app's shutdown stopped its workers
    assert pool._executor is None


def test_a_challenge_window_closes_by_itself(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words, window_seconds=0.3) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bruno"}, {"ai": "greedy"}],
                           seed=SEED)
        game = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"] if "token" in s}
        windows = 0
        for _ in range(6):
            state = wait_for(client, game, tokens[0],
                             lambda s: s["step"]["kind"] in ("move", "over"))
            if state["step"]["kind"] == "over":
                break
            seat = state["step"]["seat"]
            mine = get_state(client, game, tokens[seat])
            play = best_play(mine, en_words)
            after = post(client, game, tokens[seat], {"play": play} if play else {"pass": True})
            if after.json()["step"]["kind"] == "window":
                windows += 1
                assert after.json()["step"]["may_challenge"] == [1 - seat]
        assert windows >= 1
        computer = [t for t in get_state(client, game)["view"]["turns"] if t["player"] == 2]
        assert computer  # it moved once the window closed, with nobody answering


# ----- the database -------------------------------------------------------------------------


def test_a_new_server_goes_on_with_the_game(db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bot", "ai": "greedy"}],
                           seed=SEED)
        game, token = created["id"], created["seats"][0]["token"]
        state = wait_for(client, game, token, lambda s: s["step"]["kind"] == "move")
        play = best_play(state, en_words)
        post(client, game, token, {"play": play})
        before = wait_for(client, game, token, lambda s: s["step"]["kind"] == "move")
    with serving(db_url, en_words) as client:
        again = get_state(client, game, token)
        assert again["view"] == before["view"] and again["step"] == before["step"]
        assert [e["text"] for e in again["events"]] == [
            e["text"] for e in before["events"] if e["key"].startswith("event.")]
        play = best_play(again, en_words)
        after = post(client, game, token, {"play": play} if play else {"pass": True}).json()
        assert len(after["view"]["turns"]) == len(before["view"]["turns"]) + 1
        wait_for(client, game, token, lambda s: s["step"]["kind"] in ("move", "over"))
        assert service(client).pool.jobs_done >= 1


def test_a_failed_commit_keeps_nothing(client: TestClient, en_words: WordGraph,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    game, tokens = two_people(client)
    seat = to_move(client, game, tokens)
    before = get_state(client, game, tokens[seat])
    store = service(client).store

    def broken(*args: object, **options: object) -> None:
        raise StorageError("the disk is full")

    with client.websocket_connect(f"/ws/games/{game}?token={tokens[seat]}") as ws:
        assert ws.receive_json()["view"] == before["view"]
        held = service(client).live(game)
        assert held is not None
        monkeypatch.setattr(store, "append_moves", broken)
        r = post(client, game, tokens[seat], {"pass": True})
        assert r.status_code == 503 and r.json()["error"]["key"] == "server.storage"
        # dropped: the game in memory is forgotten (the socket's resync may already have read
        # it again as stored, as a new object)
        assert held.dropped and service(client).live(game) is not held
        monkeypatch.undo()
        told = ws.receive_json()  # the socket is told the game as stored
        assert told["type"] == "state" and told["view"] == before["view"]
    assert get_state(client, game, tokens[seat]) == before
    assert post(client, game, tokens[seat], {"pass": True}).status_code == 200
    assert len(store.load_game(game).data["moves"]) == 1


def test_tokens_are_stored_hashed(db_url: str, tmp_path: Path, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as client:
        game, tokens = two_people(client)
        post(client, game, tokens[to_move(client, game, tokens)], {"pass": True})
    store = Store(db_url)
    with store.engine.connect() as conn:  # every value of every row, as text
        stored = " ".join(str(value) for table in metadata.sorted_tables
                          for row in conn.execute(select(table)) for value in row)
    store.close()
    assert game in stored and all(token_hash(t) in stored for t in tokens.values())
    assert not any(t in stored for t in tokens.values())
    if db_url.startswith("sqlite"):  # nor anywhere in the file and its journals
        raw = b"".join(p.read_bytes() for p in tmp_path.iterdir()
                       if p.name.startswith("letras"))
        assert game.encode() in raw
        assert not any(t.encode() in raw for t in tokens.values())



def test_letras_serve_prints_the_address_it_bound(db_url: str) -> None:
    command = [sys.executable, "-m", "letras", "serve", "--port", "0", "--db", db_url]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as server:
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            assert line.startswith("letras: open http://127.0.0.1:"), line
            assert line.endswith(" in your browser\n")
            address = line.split()[2]
            assert not address.endswith(":0/")
            deadline = time.monotonic() + 30
            while True:
                try:
                    r = httpx.get(address + "api/editions", timeout=5)
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "the server never answered"
                    time.sleep(0.1)
            assert r.status_code == 200 and r.json()["editions"]
        finally:
            server.send_signal(signal.SIGINT)  # Ctrl-C: a clean shutdown
            _, errors = server.communicate(timeout=30)
    assert server.returncode == 130 and "Traceback" not in errors, errors
    engine = create_engine(db_url)
    assert set(inspect(engine).get_table_names()) == set(metadata.tables)
    engine.dispose()


def test_a_server_behind_the_database_is_told_the_game_moved_on(
        db_url: str, en_words: WordGraph) -> None:
    with serving(db_url, en_words) as first, serving(db_url, en_words) as second:
        game, tokens = two_people(first)
        seat = to_move(first, game, tokens)
        stale = get_state(second, game, tokens[seat])  # the second server has it in memory
        assert post(first, game, tokens[seat], {"pass": True}).status_code == 200
        r = post(second, game, tokens[seat], {"pass": True})
        # On PostgreSQL the first server's notice may reach the second one before the pass
        # does: then the second knows the game moved on, and it is not that seat's turn.
        told = {"server.moved_on", "rule.not_your_turn"} if db_url.startswith("postgresql") \
            else {"server.moved_on"}
        assert r.status_code == 409 and r.json()["error"]["key"] in told
        fresh = get_state(second, game, tokens[seat])  # read again from the database
        assert fresh["step"]["seat"] == 1 - seat != stale["step"]["seat"]
        assert fresh["view"] == get_state(first, game, tokens[seat])["view"]


def test_the_computer_moves_after_a_restart(db_url: str, en_words: WordGraph,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """A server stopped while the computer thought: the next one makes its move."""

    async def never(job: object) -> None:
        await asyncio.Event().wait()

    with serving(db_url, en_words) as client:
        created = new_game(client, [{"name": "Ana"}, {"name": "Bot", "ai": "greedy"}],
                           seed=SEED)
        game, token = created["id"], created["seats"][0]["token"]
        state = wait_for(client, game, token, lambda s: s["step"]["kind"] == "move")
        monkeypatch.setattr(service(client).pool, "choose", never)
        post(client, game, token, {"pass": True})
        assert get_state(client, game, token)["step"]["kind"] == "ai"
    with serving(db_url, en_words) as client:
        after = wait_for(client, game, token, lambda s: s["step"]["kind"] != "ai")
        assert len(after["view"]["turns"]) == len(state["view"]["turns"]) + 2
        assert service(client).pool.jobs_done == 1
