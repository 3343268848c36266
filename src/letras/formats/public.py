"""The public record of a game for one seat (or a spectator), as GCG and as JSON.

While a game is on, a record for a seat shows what that seat has seen: every play, score and
total, but the racks and exchanged tiles of its own turns only. It never holds the game's seed
or the history's hidden facts (the order of the bag, the tiles another seat exchanged), so it
may leave the process. Once the game is over every rack is shown (the seed still never is).

>>> from letras.game import Game
>>> game = Game("en", ["Ana", "Bruno"], seed=1)
>>> _ = game.play("8H FOND")
>>> print(public_gcg(game, 1), end="")
#character-encoding UTF-8
#player1 Ana Ana
#player2 Bruno Bruno
#lexicon en
#letras-rules {}
>Ana: 8H FOND +16 16
>>> public_gcg(game, 0).splitlines()[-1]
'>Ana: ADFNNOY 8H FOND +16 16'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from letras.formats.game_gcg import game_to_record
from letras.formats.gcg import EventKind, GcgRecord, write_gcg
from letras.formats.views import turn_dict
from letras.game import Game
from letras.play import Exchange

PUBLIC_PRAGMAS = frozenset({"letras-rules"})
"""The pragmas of letras' own that a public record keeps (the rules are no secret; the saved
game, with its seed, is)."""
FORMAT = "letras-record"
VERSION = 1


def public_record(game: Game, seat: int | None) -> GcgRecord:
    """The game's GCG record as ``seat`` (None: a spectator) may see it."""
    record = game_to_record(game)
    record.pragmas = [(name, value) for name, value in record.pragmas if name in PUBLIC_PRAGMAS]
    if game.over:
        return record
    nicknames = [p.nickname for p in record.players]
    own = nicknames[seat] if seat is not None else None
    events = []
    for event in record.events:
        if event.player != own:
            action = event.action
            if event.kind is EventKind.EXCHANGE and isinstance(action, Exchange):
                action = Exchange((), action.count or len(action.tiles))
            event = dataclasses.replace(event, rack=None, action=action)
        events.append(event)
    record.events = events
    record.final_racks = {}
    return record


def public_gcg(game: Game, seat: int | None) -> str:
    """:func:`public_record` as GCG text."""
    return write_gcg(public_record(game, seat))


def public_dict(game: Game, seat: int | None) -> dict[str, Any]:
    """The record as JSON-ready data: settings, seats, the scoresheet as ``seat`` may see it
    (every rack once the game is over), the scores and the end."""
    turns = game.turns if game.over else (
        game.view(seat).turns if seat is not None else game.spectator_view().turns)
    return {
        "format": FORMAT,
        "version": VERSION,
        "seat": seat,
        "edition": game.edition.name,
        "lexicon": game.lexicon_name,
        "rules": game.rules.to_dict(),
        "players": [{"name": p.name, "kind": p.kind} for p in game.players],
        "turns": [turn_dict(t, game.edition) for t in turns],
        "scores": list(game.scores),
        "over": game.over,
        "end_reason": game.end_reason,
        "resigned": game.resigned,
        "winners": game.winners() if game.over else [],
    }


__all__ = ["public_dict", "public_gcg", "public_record"]
