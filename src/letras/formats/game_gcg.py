"""A :class:`~letras.game.Game` written as a GCG record.

Each line of the game's scoresheet becomes one GCG event. Where GCG has its own conventions the
record follows them: a lost turn or a turn that ran out of time is a pass; in a two-player game
the player who goes out is credited twice the opponent's rack (``(TILES) +2N``) and the opponent's
own-rack penalty is left out, so the spread is the game's but the loser's total is not reduced.
With three or four players each rack penalty is written as ``(TILES) -N`` and the player who went
out gains the sum of the racks once.

>>> from letras.game import Game
>>> game = Game("en", ["Ana Maria", "Bruno"], seed=1)
>>> _ = game.play("8H FOND")
>>> print(game_to_gcg(game), end="")
#character-encoding UTF-8
#player1 Ana_Maria Ana Maria
#player2 Bruno Bruno
#lexicon en
>Ana_Maria: ADFNNOY 8H FOND +16 16
"""

from __future__ import annotations

from letras.formats.gcg import EventKind, GcgEvent, GcgPlayer, GcgRecord, write_gcg
from letras.game import Game
from letras.play import Exchange, Pass, Place

_PASSES = {"pass", "lost-turn", "timeout"}


def _nicknames(game: Game) -> list[str]:
    names: list[str] = []
    for player in game.players:
        nick = "_".join(player.name.split()) or "player"
        base, n = nick, 2
        while nick in names:
            nick, n = f"{base}_{n}", n + 1
        names.append(nick)
    return names


def game_to_record(game: Game) -> GcgRecord:
    """The game's scoresheet as a GCG record (see the module docstring for the conventions)."""
    nicks = _nicknames(game)
    two = len(game.players) == 2
    totals = [0] * len(game.players)
    events: list[GcgEvent] = []
    turns = game.turns
    for i, turn in enumerate(turns):
        kind: EventKind
        points = turn.points
        counted: tuple[int, ...] = ()
        action: Place | Exchange | Pass | None = None
        if turn.kind == "play":
            kind, action = EventKind.PLAY, turn.place
        elif turn.kind in _PASSES:
            kind, action = EventKind.PASS, Pass()
        elif turn.kind == "exchange":
            kind, action = EventKind.EXCHANGE, Exchange(turn.tiles, turn.count)
        elif turn.kind == "withdrawn":
            kind = EventKind.WITHDRAWN
        elif turn.kind in ("challenge-bonus", "challenge-penalty"):
            kind = EventKind.CHALLENGE_BONUS
        elif turn.kind == "time-penalty":
            kind = EventKind.TIME_PENALTY
        elif turn.kind == "end-rack":
            kind, counted = EventKind.END_POINTS, turn.tiles
            if two:
                points *= 2
        elif turn.kind == "rack-penalty":
            went_out = any(t.kind == "end-rack" for t in turns[i:])
            if two and went_out:
                continue
            kind, counted = EventKind.END_PENALTY, turn.tiles
        else:  # pragma: no cover - every kind of Turn is handled above
            raise AssertionError(turn.kind)
        totals[turn.player] += points
        rack = turn.rack
        if turn.kind == "withdrawn":
            rack = next(
                (t.rack for t in reversed(turns[:i]) if t.kind == "play" and t.place == turn.place),
                None,
            )
        events.append(
            GcgEvent(
                nicks[turn.player], kind, points, totals[turn.player], rack=rack,
                action=action, counted=counted,
            )
        )
    return GcgRecord(
        edition=game.edition,
        players=[GcgPlayer(n, p.name) for n, p in zip(nicks, game.players, strict=True)],
        lexicon=game.lexicon_name,
        events=events,
    )


def game_to_gcg(game: Game) -> str:
    """The game as canonical GCG text."""
    return write_gcg(game_to_record(game))
