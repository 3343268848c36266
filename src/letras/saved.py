"""A saved game: the ``letras-game`` JSON document, written and read back.

The document holds the settings (edition, rule options, seats, lexicon, seed) and every move;
the position is the moves replayed (:mod:`letras.game`). Reading trusts nothing: the text is
parsed within bounds (size, nesting, digits), the whole document is checked against its schema,
``data/game.schema.json`` beside this module (:func:`check_document`), before any value is
used, and then the moves are replayed one by one, the first that the rules refuse naming its
number. Whatever is wrong gives a :class:`~letras.errors.FormatError` with a key, never another
exception.

>>> from letras.game import Game
>>> game = Game("en", ["Ana", "Bruno"], seed=1)
>>> _ = game.play("8H FOND")
>>> again = game_from_json(game_to_json(game))
>>> again.scores, again.moves == game.moves
((16, 0), True)
>>> game_from_json('{"format": "letras-game", "version": 1, "moves": 3}')
Traceback (most recent call last):
...
letras.errors.FormatError: bad saved game: 'edition' is missing
>>> bad = game.to_dict()
>>> bad["moves"][0]["player"] = 1.7
>>> game_from_dict(bad)
Traceback (most recent call last):
...
letras.errors.FormatError: bad saved game: at moves[0].player: a number where an integer is expected
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from letras.editions import RuleOptions, find_edition
from letras.errors import FormatError, LetrasError, inner_facts
from letras.history import Move
from letras.lexicon import Lexicon
from letras.schema import problem

if TYPE_CHECKING:
    from letras.game import Game, NoPlayCheck

FORMAT = "letras-game"
VERSION = 1
MAX_CHARS = 20_000_000
"""The longest saved game read, in characters (a game of 100,000 moves is well under it)."""


@cache
def game_schema() -> dict[str, Any]:
    """The JSON Schema of a saved game."""
    path = resources.files("letras") / "data" / "game.schema.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


def game_to_dict(game: Game) -> dict[str, Any]:
    """The game as a ``letras-game`` document (plain JSON data)."""
    edition = game.edition
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "edition": edition.name,
        "rules": game.rules.to_dict(),
        "players": [{"name": p.name, "kind": p.kind} for p in game.players],
        "lexicon": game.lexicon_name,
        "seed": game.seed,
        "moves": [m.to_dict(edition) for m in game.moves],
    }
    if game.starter is not None:
        out["starter"] = game.starter
    if game.held:
        out["held"] = [[p, edition.tiles.format(r, rack=True)] for p, r in game.held]
    return out


def game_to_json(game: Game) -> str:
    """:func:`game_to_dict` as JSON text."""
    return json.dumps(game_to_dict(game), ensure_ascii=False, indent=1)


def read_document(text: str | bytes) -> dict[str, Any]:
    """The JSON object of a saved game's text, read within bounds; not yet checked."""
    if len(text) > MAX_CHARS:
        raise FormatError(f"bad saved game: longer than {MAX_CHARS} characters",
                          key="saved.too_long", limit=MAX_CHARS)
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FormatError(f"bad saved game: not UTF-8 ({e.reason})", key="saved.json",
                              reason=e.reason, line=1, column=e.start + 1) from None
    try:
        data = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise FormatError(f"bad saved game: not JSON ({e})", key="saved.json",
                          reason=e.msg, line=e.lineno, column=e.colno) from None
    except RecursionError:  # the parser refuses to nest deeper than the interpreter may
        raise FormatError("bad saved game: arrays or objects nested too deep",
                          key="saved.deep") from None
    except ValueError as e:  # an integer of too many digits, Infinity or NaN
        raise FormatError(f"bad saved game: {e}", key="saved.bad", **inner_facts(e)) from None
    if not isinstance(data, dict):
        raise FormatError("bad saved game: not a JSON object", key="saved.not_object")
    return data


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def check_document(data: object) -> None:
    """Refuse a document that does not fit the schema, naming the place and the reason."""
    if not isinstance(data, dict):
        raise FormatError("bad saved game: not a JSON object", key="saved.not_object")
    if data.get("format") != FORMAT:
        raise FormatError("not a letras saved game", key="saved.not_letras")
    found = problem(game_schema(), data)
    if found is not None:
        where, why = found
        text = f"at {where}: {why}" if where else why
        raise FormatError(f"bad saved game: {text}", key="saved.schema", where=where or "-",
                          reason=why)


def game_from_dict(
    data: dict[str, Any],
    *,
    lexicon: Lexicon | None = None,
    no_play_possible: NoPlayCheck | None = None,
) -> Game:
    """The game of a ``letras-game`` document (see the module docstring); without
    ``lexicon``, the one it names."""
    from letras.game import Game, Player

    check_document(data)
    try:
        edition = find_edition(data["edition"])
        rules = RuleOptions.from_dict(data["rules"])
        players = [Player(p["name"], p.get("kind", "human")) for p in data["players"]]
        moves = [Move.from_dict(m, edition) for m in data["moves"]]
        held = tuple((int(p), tuple(sorted(edition.tiles.parse(r, rack=True))))
                     for p, r in data.get("held", ()))
        named = data.get("lexicon")
        seed, starter = (_whole(data.get(k)) for k in ("seed", "starter"))
        assert seed is not None
        game = Game(edition, players, seed=seed, lexicon=lexicon or named or None,
                    rules=rules, no_play_possible=no_play_possible,
                    starter=None if starter is None else int(starter))
    except (KeyError, TypeError, ValueError, OverflowError, LetrasError) as e:
        if isinstance(e, FormatError):
            raise
        raise FormatError(f"bad saved game: {e}", key="saved.bad", **inner_facts(e)) from None
    for i, move in enumerate(moves):
        try:
            game.follow(move)
        except LetrasError as e:
            raise FormatError(f"bad saved game: move {i + 1} cannot be replayed: {e}",
                              key="saved.replay", n=i + 1, **inner_facts(e)) from None
    try:
        game.take_up(held)
    except LetrasError as e:
        raise FormatError(f"bad saved game: {e}", key="saved.bad", **inner_facts(e)) from None
    return game


def _whole(value: Any) -> Any:
    """An integer the schema let through as a float (``5.0``) as an int; else the value."""
    return int(value) if isinstance(value, float) else value


def game_from_json(
    text: str | bytes,
    *,
    lexicon: Lexicon | None = None,
    no_play_possible: NoPlayCheck | None = None,
) -> Game:
    """The game of a ``letras-game`` document's text."""
    return game_from_dict(read_document(text), lexicon=lexicon,
                          no_play_possible=no_play_possible)


__all__ = ["FORMAT", "VERSION", "check_document", "game_from_dict", "game_from_json",
           "game_schema", "game_to_dict", "game_to_json", "read_document"]
