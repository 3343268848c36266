"""Views as JSON: what a seat or a spectator may see, in a form that can leave the process.

:func:`view_to_dict` writes a :class:`~letras.view.TableView` (a spectator's) or a
:class:`~letras.view.PlayerView` (a seat's, with its own rack) as plain data: strings, numbers,
lists and objects only. The shape is documented as a JSON Schema, ``data/view.schema.json``
beside this module (:func:`view_schema`). Nothing in it comes from a rack the view does not
hold, the bag's order or the game's seed: a view never had them.

>>> from letras.game import Game
>>> game = Game("en", ["Ana", "Bruno"], seed=1)
>>> _ = game.play("8H FOND")
>>> data = game.view(1).to_dict()
>>> data["seat"], data["to_move"], data["bag"], data["rack"]
(1, 1, 82, ['A', 'B', 'E', 'K', 'L', 'O', 'T'])
>>> data["board"][7]
'.......FOND....'
>>> data["turns"][0]["text"], data["pending"]["play"]
('FOND 16 = 16', '8H FOND')
>>> "rack" in game.spectator_view().to_dict()
False
"""

from __future__ import annotations

import json
from collections import OrderedDict
from functools import cache
from importlib import resources
from typing import Any

from letras.board import Board
from letras.editions import Edition
from letras.formats.cgp import Position
from letras.history import Turn
from letras.scoring import Score
from letras.tiles import BLANK
from letras.view import PlayerView, TableView

FORMAT = "letras-view"
VERSION = 1

def board_rows(board: Board) -> list[str] | list[list[str]]:
    """The board, one entry a row: ``.`` an empty square, a capital a tile, a small letter a
    blank standing for it. Editions whose labels are single letters give a string a row;
    editions with multi-letter tiles (Spanish ``CH``) give a list of labels a row."""
    size = board.size
    tiles = board.edition.tiles
    rows = [[tiles.label(board.get(r, c)) if board.get(r, c) else "." for c in range(size)]
            for r in range(size)]
    if all(len(label) == 1 for label in tiles.labels[1:]):
        return ["".join(row) for row in rows]
    return rows


def premium_rows(edition: Edition) -> list[str]:
    """The premium squares, one string a row, in the symbols of
    :class:`~letras.layout.Premium` (``=`` triple word, ``-`` double word, ``"`` triple letter,
    ``'`` double letter, ``*`` the centre, ``.`` plain)."""
    layout = edition.layout
    n = layout.size
    return ["".join(p.symbol for p in layout.premiums[r * n:(r + 1) * n]) for r in range(n)]


def word_scores(score: Score) -> list[dict[str, Any]]:
    """The words a play formed, each with its points."""
    return [{"word": w.word, "score": w.score} for w in score.words]


def score_dict(score: Score) -> dict[str, Any]:
    return {
        "words": word_scores(score),
        "bingo": score.bingo,
        "total": score.total,
        "text": str(score),
    }


def turn_dict(turn: Turn, edition: Edition) -> dict[str, Any]:
    """One scoresheet line. ``rack`` only where the view may see it (its own turns).

    Lines never change, and every view of a game repeats them all, so each is made once and
    kept (:data:`TURNS_KEPT` of them); the caller gets its own top-level dict. The key is the
    line's plain fields and the identity of its play and score (hashing those, and the
    edition, costs more than making the dict); the kept entry holds them, so an identity is
    never reused while it is kept."""
    key = (edition.name, turn.player, turn.kind, turn.points, turn.total, turn.rack,
           turn.tiles, turn.count, turn.kept, id(turn.place), id(turn.score))
    kept = _TURNS.get(key)
    if kept is not None and kept[0] is turn.place and kept[1] is turn.score:
        _TURNS.move_to_end(key)
        return dict(kept[2])
    out = _turn_dict(turn, edition)
    _TURNS[key] = (turn.place, turn.score, out)
    if len(_TURNS) > TURNS_KEPT:
        _TURNS.popitem(last=False)
    return dict(out)


TURNS_KEPT = 20_000
"""Scoresheet lines kept as dicts (about 500 games of 40 lines)."""
_TURNS: OrderedDict[tuple[Any, ...], tuple[object, object, dict[str, Any]]] = OrderedDict()


def _turn_dict(turn: Turn, edition: Edition) -> dict[str, Any]:
    tiles = edition.tiles
    out: dict[str, Any] = {
        "player": turn.player, "kind": turn.kind, "points": turn.points, "total": turn.total,
    }
    if turn.place is not None:
        out["play"] = turn.place.notation(edition)
    if turn.score is not None:
        out.update(words=word_scores(turn.score), bingo=turn.score.bingo, text=str(turn.score))
    if turn.rack is not None:
        out["rack"] = [tiles.label(t) for t in turn.rack]
    if turn.tiles:
        out["tiles"] = [tiles.label(t) for t in turn.tiles]
    if turn.kind == "exchange":
        out["count"] = turn.count or len(turn.tiles)
    if turn.kept:
        out["kept"] = True
    return out


def unseen_dict(view: TableView) -> dict[str, Any]:
    tiles = view.edition.tiles
    labels = tiles.labels
    vowels = sum(n for code, n in enumerate(view.unseen) if tiles.is_vowel(code))
    blanks = view.unseen[BLANK]
    count = sum(view.unseen)
    return {
        "tiles": {labels[code]: n for code, n in enumerate(view.unseen) if n},
        "count": count,
        "vowels": vowels,
        "consonants": count - vowels - blanks,
        "blanks": blanks,
    }


def clock_dicts(view: TableView) -> list[dict[str, Any]]:
    """Seconds used by each player and, with a game clock, seconds left (negative: over)."""
    tc = view.rules.time_control
    out = []
    for used in view.clocks:
        clock: dict[str, Any] = {"used": round(used, 3)}
        if tc.kind == "game":
            clock["left"] = round(tc.seconds - used, 3)
        out.append(clock)
    return out


def view_cgp(view: TableView) -> str:
    """The position as this view sees it, as CGP: the viewer's rack (a spectator's: none),
    the other racks empty (unknown), the player to move first."""
    n = len(view.player_names)
    order = [(view.to_move + k) % n for k in range(n)]
    own = view.player if isinstance(view, PlayerView) else None
    racks = tuple(view.rack if isinstance(view, PlayerView) and p == own else () for p in order)
    rules = view.rules
    opcodes: list[tuple[str, str]] = []
    if rules.bingo_bonus != 50:
        opcodes.append(("bb", str(rules.bingo_bonus)))
    opcodes.append(("cr", rules.challenge_rule))
    position = Position(view.board.copy(), racks, tuple(view.scores[p] for p in order),
                        view.scoreless_in_row, view.lexicon_name or None, tuple(opcodes))
    return position.cgp()


def view_to_dict(view: TableView) -> dict[str, Any]:
    """The view as JSON-ready data (see the module docstring)."""
    edition = view.edition
    tiles = edition.tiles
    pending = None
    if view.challengeable is not None and view.pending_player is not None:
        pending = {"player": view.pending_player,
                   "play": view.challengeable.notation(edition)}
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "seat": view.player if isinstance(view, PlayerView) else None,
        "edition": edition.name,
        "lexicon": view.lexicon_name,
        "rules": view.rules.to_dict(),
        "players": [
            {"name": name, "score": view.scores[p], "rack_count": view.rack_counts[p]}
            for p, name in enumerate(view.player_names)
        ],
        "clocks": clock_dicts(view),
        "to_move": view.to_move,
        "board": board_rows(view.board),
        "premiums": premium_rows(edition),
        "bag": view.bag_count,
        "unseen": unseen_dict(view),
        "turns": [turn_dict(t, edition) for t in view.turns],
        "pending": pending,
        "passes_in_row": view.passes_in_row,
        "scoreless_in_row": view.scoreless_in_row,
        "may_join_words": view.may_join_words,
        "over": view.over,
        "end_reason": view.end_reason,
        "resigned": view.resigned,
        "winners": list(view.winners),
        "cgp": view_cgp(view),
    }
    if isinstance(view, PlayerView):
        out["rack"] = [tiles.label(t) for t in view.rack]
    return out


@cache
def view_schema() -> dict[str, Any]:
    """The JSON Schema of :func:`view_to_dict`'s output."""
    path = resources.files("letras.formats") / "data" / "view.schema.json"
    schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return schema


__all__ = ["board_rows", "premium_rows", "score_dict", "turn_dict", "view_cgp", "view_schema",
           "view_to_dict", "word_scores"]
