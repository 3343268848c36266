"""A :class:`~letras.game.Game` written as a GCG record.

Each line of the game's scoresheet becomes one GCG event, so the record says what happened and
its running totals are the scores the players saw announced. The end is the final count of the
rule sheets: each rack left at the end is one ``(TILES) -N`` line of its player, and the player
who went out gains the others' racks once, ``(TILES) +N`` (Quackle, Macondo and Woogles write a
two-player game's end as twice the opponent's rack instead; :mod:`letras.formats.gcg_check`
reads both). A withdrawn phony directly follows its play; a failed challenge is the bonus line
``(challenge) +5`` of the player whose play stood, or, under ``penalty10``, the line
``(challenge) -10`` of the challenger. A turn lost to a failed double challenge, or that ran out
of time, is a pass with a note saying so (:data:`~letras.formats.gcg_rules.LOST_TURN_NOTE`,
:data:`~letras.formats.gcg_rules.TIMEOUT_NOTE`), the rule options that differ from the
edition's are named in ``#letras-rules``, and a player who resigned in ``#letras-resigned``
(GCG has no event for it): :meth:`letras.game.Game.from_gcg` replays the record
exactly.

>>> from letras.game import Game
>>> game = Game("en", ["Ana Maria", "Bruno"], seed=1)
>>> _ = game.play("8H FOND")
>>> print(game_to_gcg(game), end="")
#character-encoding UTF-8
#player1 Ana_Maria Ana Maria
#player2 Bruno Bruno
#lexicon en
#letras-rules {}
>Ana_Maria: ADFNNOY 8H FOND +16 16
"""

from __future__ import annotations

import json

from letras.formats.gcg import (
    EventKind,
    GcgEvent,
    GcgPlayer,
    GcgRecord,
    place_text,
    write_gcg,
)
from letras.formats.gcg_rules import (
    KEPT_NOTE,
    LOST_TURN_NOTE,
    RESIGNED_PRAGMA,
    RULES_PRAGMA,
    TIMEOUT_NOTE,
)
from letras.game import Game
from letras.history import Turn
from letras.play import Exchange, Pass, Place

_KINDS = {
    "play": EventKind.PLAY,
    "pass": EventKind.PASS,
    "lost-turn": EventKind.PASS,
    "timeout": EventKind.PASS,
    "exchange": EventKind.EXCHANGE,
    "withdrawn": EventKind.WITHDRAWN,
    "challenge-bonus": EventKind.CHALLENGE_BONUS,
    "challenge-penalty": EventKind.CHALLENGE_BONUS,
    "time-penalty": EventKind.TIME_PENALTY,
    "end-rack": EventKind.END_POINTS,
    "rack-penalty": EventKind.END_PENALTY,
}


def _nicknames(game: Game) -> list[str]:
    names: list[str] = []
    for player in game.players:
        nick = "_".join(player.name.split()) or "player"
        base, n = nick, 2
        while nick in names:
            nick, n = f"{base}_{n}", n + 1
        names.append(nick)
    return names


def rules_pragma(game: Game) -> str:
    """The game's rule options that differ from its edition's, as JSON."""
    ours, base = game.rules.to_dict(), game.edition.rules.to_dict()
    return json.dumps({k: v for k, v in ours.items() if base.get(k) != v}, sort_keys=True)


def game_to_record(game: Game) -> GcgRecord:
    """The game's scoresheet as a GCG record (see the module docstring for the conventions)."""
    nicks = _nicknames(game)
    tiles = game.edition.tiles
    events: list[GcgEvent] = []
    plays: dict[Place, int] = {}  # the event of each play still on the board
    turns = game.turns
    for turn in turns:
        if turn.kind == "resign":  # no GCG event: the pragma says it
            continue
        kind = _KINDS[turn.kind]
        action: Place | Exchange | Pass | None = None
        notes: list[str] = []
        rack = turn.rack
        if kind is EventKind.PLAY:
            action = turn.place
        elif kind is EventKind.PASS:
            action = Pass()
            if turn.kind == "lost-turn":
                played = f"{LOST_TURN_NOTE}{place_text(tiles, turn.place)}" if turn.place else ""
                notes.append(played or LOST_TURN_NOTE.split(":")[0])
            elif turn.kind == "timeout":
                notes.append(TIMEOUT_NOTE)
        elif kind is EventKind.EXCHANGE:
            action = Exchange(turn.tiles, turn.count)
        if turn.kept:
            notes.append(KEPT_NOTE)
        event = GcgEvent(nicks[turn.player], kind, turn.points, turn.total, rack=rack,
                         action=action, counted=_counted(turn), notes=notes)
        if turn.kind == "withdrawn" and turn.place in plays:
            # Right after its play: lost turns recorded in between come after it.
            at = plays.pop(turn.place)
            event.rack = events[at].rack
            events.insert(at + 1, event)
            plays = {place: i + (i > at) for place, i in plays.items()}
            continue
        if kind is EventKind.PLAY and turn.place is not None:
            plays[turn.place] = len(events)
        events.append(event)
    return GcgRecord(
        edition=game.edition,
        players=[GcgPlayer(n, p.name) for n, p in zip(nicks, game.players, strict=True)],
        lexicon=game.lexicon_name,
        pragmas=[(RULES_PRAGMA, rules_pragma(game))] + (
            [(RESIGNED_PRAGMA, nicks[game.resigned])] if game.resigned is not None else []),
        events=events,
    )


def _counted(turn: Turn) -> tuple[int, ...]:
    return turn.tiles if turn.kind in ("end-rack", "rack-penalty") else ()


def game_to_gcg(game: Game) -> str:
    """The game as canonical GCG text."""
    return write_gcg(game_to_record(game))
