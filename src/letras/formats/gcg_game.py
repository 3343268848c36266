"""A GCG record as a :class:`~letras.game.Game` (:meth:`letras.game.Game.from_gcg`).

A record written by Quackle, Macondo, Woogles or letras becomes a game whose history replays
it (:mod:`letras.formats.gcg_follow` says how each event is followed): its scores are the
rules' (the final count of the rule sheets), its racks those the record shows, the bag's tiles
those it does not. A record that stops before the end is a game to play on, holding the racks
its ``#rack1`` ... pragmas show; :func:`game_after_turn` gives the position after any event.

>>> text = '''#player1 doug Doug
... #player2 emely Emely
... >doug: DINNVWY 8D WINDY +32 32
... >emely: ADEEGIL 7C GALE +16 16'''
>>> game = game_from_gcg(text, seed=1)
>>> game.scores, game.player_names[game.to_move], game.edition.tiles.format(game.rack(1))
((32, 16), 'Doug', 'DEI')
>>> game.challengeable.notation(game.edition)
'7C GALE'
>>> game_after_turn(text, 1, seed=1).scores
(32, 0)

Emely's play may still be challenged: she has not drawn yet.
"""

from __future__ import annotations

import random

from letras.editions import Edition, RuleOptions
from letras.errors import FormatError
from letras.formats.gcg import GcgRecord, Rack, read_gcg
from letras.formats.gcg_follow import FollowedRecord, Step, follow_gcg, seat_nicknames
from letras.formats.gcg_rules import refusal
from letras.game import Game
from letras.lexicon import Lexicon

__all__ = ["FollowedRecord", "Step", "follow_gcg", "followed_gcg", "game_after_turn",
           "game_from_gcg"]


def game_from_gcg(
    record: str | bytes | GcgRecord,
    *,
    lexicon: Lexicon | None = None,
    edition: Edition | None = None,
    rules: RuleOptions | None = None,
    seed: int | str | None = None,
) -> Game:
    """The game that ``record`` (GCG text, bytes or a read record) tells; see
    :meth:`letras.game.Game.from_gcg`. Raises :class:`~letras.errors.FormatError` naming the
    first line that cannot be read or followed."""
    return _strict(record, lexicon, edition, rules, seed).game


def followed_gcg(
    record: str | bytes | GcgRecord,
    *,
    lexicon: Lexicon | None = None,
    edition: Edition | None = None,
    seed: int | str | None = None,
) -> FollowedRecord:
    """The record followed as :func:`game_from_gcg` follows it, refusing it as that does, with
    the :class:`Step` of each event: what examining or analysing a record event by event needs
    (``game.replay(step.moves)`` is the position after the step)."""
    return _strict(record, lexicon, edition, None, seed)


def _strict(
    record: str | bytes | GcgRecord,
    lexicon: Lexicon | None,
    edition: Edition | None,
    rules: RuleOptions | None,
    seed: int | str | None,
) -> FollowedRecord:
    """Follow the record, raising at the first problem; the game holds the final racks."""
    if not isinstance(record, GcgRecord):
        record = read_gcg(record, edition)
        bad = [e for e in record.errors if not e.is_notice and e.reason != "unknown-tile"]
        if bad and refusal(record) is None:
            raise bad[0]
    elif edition is not None and edition.name != record.edition.name:
        raise FormatError(f"the record was read with edition {record.edition.name}, "
                          f"not {edition.name}", key="record.edition",
                          read=record.edition.name, edition=edition.name)
    seats = len(seat_nicknames(record))
    if seats < 2:
        raise FormatError("a game needs at least two players: the record names fewer",
                          key="record.players", n=seats)
    followed = follow_gcg(record, lexicon=lexicon, rules=rules, seed=_seed(seed))
    if followed.problems:
        raise FormatError(followed.problems[0], key="record.problem",
                          reason=followed.problems[0])
    for step in followed.steps:
        if step.problems:
            raise FormatError(f"line {step.event.line}: {step.problems[0]}",
                              key="record.line", line=step.event.line, reason=step.problems[0])
    game = followed.game
    if followed.ends_early is not None:
        raise FormatError(
            f"line {followed.ends_early}: the record ends the game here, but under its rules "
            f"the game goes on (the bag holds {game.bag_count} tiles)",
            key="record.ends_early", line=followed.ends_early, n=game.bag_count,
        )
    held = _shown_racks(record, game)
    if held:  # the racks after the last move: a game to play on holds them
        data = game.to_dict()
        data["held"] = [[p, game.edition.tiles.format(r, rack=True)] for p, r in held]
        followed.game = Game.from_dict(data, lexicon=lexicon)
    return followed


def _shown_racks(record: GcgRecord, game: Game) -> tuple[tuple[int, Rack], ...]:
    """The ``#rack1`` ... pragmas of an unfinished record, by seat."""
    if game.over:
        return ()
    seats = seat_nicknames(record)
    return tuple((n - 1, rack) for n, rack in sorted(record.final_racks.items())
                 if 0 < n <= min(len(seats), len(game.players)) and rack)


def game_after_turn(
    record: str | bytes | GcgRecord,
    turn: int,
    *,
    lexicon: Lexicon | None = None,
    edition: Edition | None = None,
    seed: int | str | None = None,
) -> Game:
    """The position after the first ``turn`` events (lines) of ``record``: 0 is the start."""
    if not isinstance(record, GcgRecord):
        record = read_gcg(record, edition)
    if not 0 <= turn <= len(record.events):
        raise FormatError(f"no turn {turn}: the record has {len(record.events)} events",
                          key="record.turn", turn=turn, n=len(record.events))
    followed = _strict(record, lexicon, None, None, seed)
    if turn == len(record.events):
        return followed.game
    return followed.game.replay(followed.steps[turn - 1].moves if turn else 0)


def _seed(seed: int | str | None) -> int | str:
    return seed if seed is not None else random.SystemRandom().randrange(2**63)
