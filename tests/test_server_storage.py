"""The web app's database: schema, games, the append-only history, SQLite's settings; the
tests of both kinds run on an SQLite file and on a database of a private PostgreSQL cluster."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from letras.game import Game, Player
from letras.server.storage import (
    GameMovedOnError,
    NoSuchGameError,
    StorageError,
    Store,
    default_url,
)


def test_a_game_is_its_settings_and_moves(db_url: str) -> None:
    url = db_url
    game = Game("en", [Player("Ana"), Player("Bot", "ai:greedy")], seed=7)
    game.pass_turn()
    game.pass_turn()
    settings = {k: v for k, v in game.to_dict().items() if k != "moves"}
    store = Store(url)
    store.create_game("abc", settings, {0: "0" * 64})
    moves = [m.to_dict(game.edition) for m in game.moves]
    store.append_moves("abc", 0, moves[:1])
    store.append_moves("abc", 1, moves[1:])
    store.close()
    again = Store(url)  # the schema exists: nothing changes
    saved = again.load_game("abc")
    assert saved.seats == {0: "0" * 64}
    assert saved.created.utcoffset() == dt.timedelta(0)
    assert abs(saved.created - dt.datetime.now(dt.UTC)) < dt.timedelta(minutes=1)
    assert Game.from_dict(saved.data).to_dict() == game.to_dict()
    assert again.exists("abc") and not again.exists("abd")
    with pytest.raises(NoSuchGameError):
        again.load_game("abd")


def test_a_second_writer_of_a_move_fails(db_url: str) -> None:
    store = Store(db_url)
    store.create_game("g", {"format": "letras-game"}, {})
    store.append_moves("g", 0, [{"type": "pass", "player": 0}])
    with pytest.raises(GameMovedOnError):
        store.append_moves("g", 0, [{"type": "pass", "player": 1}])
    with pytest.raises(GameMovedOnError):  # a writer that knows of too few or too many
        store.append_moves("g", 3, [{"type": "pass", "player": 1}])
    with pytest.raises(GameMovedOnError):  # all or nothing
        store.append_moves("g", 0, [{"type": "pass", "player": 1}] * 3)
    assert store.load_game("g").data["moves"] == [{"type": "pass", "player": 0}]
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # the key itself
        conn.execute(text("INSERT INTO moves VALUES ('g', 0, '{}')"))
    with pytest.raises(StorageError):
        store.create_game("g", {"format": "letras-game"}, {})
    store.close()


def test_what_no_game_has_is_no_game(db_url: str) -> None:
    store = Store(db_url)
    for game_id in ("x" * 200, "a\x00b", "é\U0001F600"):
        assert not store.exists(game_id)
        with pytest.raises(NoSuchGameError):
            store.load_game(game_id)
    store.close()


def test_servers_that_start_together_make_the_schema_once(db_url: str) -> None:
    stores: list[Store] = []
    failed: list[Exception] = []

    def start() -> None:
        try:
            stores.append(Store(db_url))
        except Exception as e:
            failed.append(e)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed and len(stores) == 4, failed
    stores[0].create_game("g", {"format": "letras-game"}, {1: "1" * 64})
    assert stores[3].load_game("g").seats == {1: "1" * 64}
    for store in stores:
        store.close()


def test_writers_in_threads_never_share_a_number(db_url: str) -> None:
    store = Store(db_url)
    store.create_game("g", {"format": "letras-game"}, {})
    won: list[int] = []
    lost: list[Exception] = []

    def write(n: int) -> None:
        try:
            store.append_moves("g", 0, [{"type": "pass", "player": n}])
            won.append(n)
        except Exception as e:
            lost.append(e)

    threads = [threading.Thread(target=write, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(won) == 1
    assert len(lost) == 3 and all(isinstance(e, GameMovedOnError) for e in lost), lost
    assert store.load_game("g").data["moves"] == [{"type": "pass", "player": won[0]}]
    store.close()


def test_sqlite_connections_are_set_up(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'x.db'}")
    with store.engine.connect() as conn:
        assert conn.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert conn.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1
        assert conn.execute(text("PRAGMA busy_timeout")).scalar() == 5000
    with pytest.raises(IntegrityError), store.engine.begin() as conn:  # a seat of no game
        conn.execute(text("INSERT INTO seats VALUES ('nope', 0, 'x')"))


def test_the_default_database_is_in_the_data_directory(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / 'letras' / 'letras.db'}"
    assert (tmp_path / "letras").is_dir()
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_url() == f"sqlite:///{tmp_path / '.local' / 'share' / 'letras' / 'letras.db'}"


def test_an_older_database_is_migrated_once(db_url: str) -> None:
    """A database of the first schema (three tables, no version table): the next server adds
    what is missing, keeps the games, and records every step once."""
    from sqlalchemy import create_engine, inspect, select
    from sqlalchemy.schema import CreateTable

    from letras.server.schema import MIGRATIONS, games, moves, schema_version, seats

    engine = create_engine(db_url)
    with engine.begin() as conn:
        for table in (games, seats, moves):
            conn.execute(CreateTable(table))
    engine.dispose()
    first = Store(db_url)
    first.create_game("old", {"format": "letras-game"}, {0: "0" * 64})
    second = Store(db_url)  # a second start: nothing to do
    engine = create_engine(db_url)
    with engine.connect() as conn:
        versions = conn.execute(select(schema_version.c.version)).scalars().all()
    assert sorted(versions) == [m.version for m in MIGRATIONS]
    assert {"windows", "rematches", "jobs", "schema_version"} <= set(
        inspect(engine).get_table_names())
    assert second.load_game("old").seats == {0: "0" * 64}
    with engine.begin() as conn:  # a newer letras was here
        conn.execute(schema_version.insert().values(version=99, applied=dt.datetime.now(dt.UTC),
                                                    what="the future"))
    engine.dispose()
    with pytest.raises(StorageError) as refused:
        Store(db_url)
    assert refused.value.key == "server.schema_newer" and refused.value.values["version"] == 99
    for store in (first, second):
        store.close()
