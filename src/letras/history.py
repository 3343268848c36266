"""What a game remembers: the actions taken (the record of truth) and the scoresheet they give.

A :class:`Move` is one input to the game: who did what, with how much thinking time, and, for a
challenge, how it was judged. Replaying the same moves from the same seed gives the same game.
A :class:`Turn` is one line of the scoresheet derived from them (a play and its score, a
withdrawn phony, a challenge bonus, a lost turn, end-of-game rack points ...).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal, get_args

from letras.board import Direction, Square
from letras.editions import Edition
from letras.errors import FormatError, RuleError, inner_facts
from letras.holding import Held
from letras.play import Action, Challenge, Exchange, Pass, Place
from letras.scoring import Score
from letras.tiles import BLANK_BIT, LETTER_MASK, THROUGH


@dataclass(frozen=True)
class Accept:
    """The table accepts the last play without a challenge (closes the challenge window)."""

    def notation(self, edition: Edition) -> str:
        return "accept"


@dataclass(frozen=True)
class NoPlayEnd:
    """The game ended because no player could play (recorded when it was found, so that a
    replay needs no lexicon to end the same way)."""

    def notation(self, edition: Edition) -> str:
        return "end"


@dataclass(frozen=True)
class Resign:
    """The player gives up: the game ends at once and they lose (rules.md 6.5). Any seat may
    resign at any moment of a game that is not over, whoever is to move."""

    def notation(self, edition: Edition) -> str:
        return "resign"


GameAction = Action | Accept | NoPlayEnd | Resign


@dataclass(frozen=True)
class Move:
    """One action in the history. ``valid`` is a challenge's verdict on the challenged play,
    stored so that a replay never depends on the lexicon; ``kept`` says that a play challenged
    off the board only extended a wrong word that had stood, so its player plays again (the
    ``late_challenge`` rule).

    A move replayed from a game record may say what the record shows of the racks: ``rack``
    the tiles its player holds before it (all of them, or only those the record names, such as
    the tiles played), ``others`` the tiles other players hold before it, ``final`` (for a move
    that ends the game) every rack the final count shows. The game makes the racks hold those
    tiles, swapping them with the bag, so the seeded bag supplies only what the record does not
    say.
    """

    player: int
    action: GameAction
    seconds: float | None = None
    valid: bool | None = None
    rack: tuple[int, ...] | None = None
    others: Held = ()
    final: Held = ()
    kept: bool | None = None

    def to_dict(self, edition: Edition) -> dict[str, Any]:
        a = self.action
        out: dict[str, Any] = {"player": self.player}
        if isinstance(a, Place):
            out.update(type="place", play=a.notation(edition))
        elif isinstance(a, Exchange):
            out.update(type="exchange", tiles=edition.tiles.format(a.tiles))
        elif isinstance(a, Pass):
            out["type"] = "pass"
        elif isinstance(a, Challenge):
            out.update(type="challenge", valid=self.valid)
            if self.kept:
                out["kept"] = True
        elif isinstance(a, NoPlayEnd):
            out["type"] = "no-play-end"
        elif isinstance(a, Resign):
            out["type"] = "resign"
        else:
            out["type"] = "accept"
        if self.seconds is not None:
            out["seconds"] = self.seconds
        if self.rack is not None:
            out["rack"] = edition.tiles.format(self.rack, rack=True)
        for name, held in (("others", self.others), ("final", self.final)):
            if held:
                out[name] = [[p, edition.tiles.format(r, rack=True)] for p, r in held]
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any], edition: Edition) -> Move:
        try:
            kind = data["type"]
            player = int(_number(data["player"], "player", whole=True))
            action: GameAction
            if kind == "place":
                action = Place.parse(str(data["play"]), edition)
            elif kind == "exchange":
                action = Exchange(edition.tiles.parse(str(data["tiles"]), rack=True))
            elif kind == "pass":
                action = Pass()
            elif kind == "challenge":
                action = Challenge()
            elif kind == "accept":
                action = Accept()
            elif kind == "no-play-end":
                action = NoPlayEnd()
            elif kind == "resign":
                action = Resign()
            else:
                raise FormatError(f"unknown move type {_brief(kind)}", key="saved.move_type",
                                  kind=_brief(kind))
            seconds = data.get("seconds")
            valid = data.get("valid")
            if not isinstance(valid, (bool, type(None))):
                raise TypeError("valid must be true, false or null")
            kept = data.get("kept")
            if not isinstance(kept, (bool, type(None))):
                raise TypeError("kept must be true, false or null")
            rack = data.get("rack")
            others, final = (
                tuple((int(_number(p, name, whole=True)), _rack(edition, tiles))
                      for p, tiles in data.get(name, ()))
                for name in ("others", "final")
            )
            return cls(
                player,
                action,
                None if seconds is None else float(_number(seconds, "seconds")),
                valid,
                None if rack is None else _rack(edition, rack),
                others,
                final,
                kept or None,
            )
        except (KeyError, TypeError, ValueError, OverflowError) as e:
            if isinstance(e, FormatError):
                raise
            raise FormatError(f"bad move {_brief(data)}: {e}", key="saved.move",
                              move=_brief(data), **inner_facts(e)) from None


def _number(value: object, name: str, *, whole: bool = False) -> float:
    """A JSON number that is finite (and whole, where asked); never a boolean."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (
        isinstance(value, float) and not (math.isfinite(value)
                                          and (value.is_integer() or not whole))):
        raise TypeError(f"{name} must be a {'whole' if whole else 'finite'} number")
    return value


def _brief(value: object) -> str:
    """A value in a message: its repr, cut short (a huge integer has no repr)."""
    try:
        text = repr(value)
    except ValueError:
        return "(too large to show)"
    return text if len(text) <= 200 else text[:200] + "..."


ACTIONS = (Place, Exchange, Pass, Challenge, Accept, NoPlayEnd, Resign)
"""The classes of :data:`GameAction`."""


def check_move(move: Move, edition: Edition, seats: int) -> None:
    """Refuse a move the game cannot carry out whatever the position, before anything changes:
    an action of another kind, a seat outside ``0 .. seats - 1``, a tile code the edition
    lacks, a thinking time that is not a finite number of seconds from 0, a verdict that is
    not true, false or None."""
    if not isinstance(move.action, ACTIONS):
        raise RuleError(f"not an action of the game: a {type(move.action).__name__}",
                        key="rule.not_action", kind=type(move.action).__name__)
    a, n = move.action, len(edition.tiles.labels)
    rack = a.tiles if isinstance(a, Exchange) else ()
    check_held(((move.player, rack), (move.player, move.rack or ()), *move.others, *move.final),
               edition, seats)
    on_board = isinstance(a, Place) and isinstance(a.square, Square) and isinstance(
        a.direction, Direction)
    if isinstance(a, Place) and (not on_board or not all(
        _whole(t) and (t == THROUGH or (t & ~(BLANK_BIT | LETTER_MASK) == 0
                                        and 0 < t & LETTER_MASK < n)) for t in a.tiles
    )):
        raise RuleError("a tile the edition does not have", key="rule.bad_tile",
                        edition=edition.name)
    seconds = move.seconds
    if seconds is not None and not (
        isinstance(seconds, (int, float)) and not isinstance(seconds, bool)
        and math.isfinite(seconds) and seconds >= 0
    ):
        raise RuleError("thinking time must be a finite number of seconds, 0 or more",
                        key="rule.seconds")
    for verdict in (move.valid, move.kept):
        if verdict is not None and not isinstance(verdict, bool):
            raise RuleError("a challenge's verdict must be true, false or none",
                            key="rule.verdict")


def check_held(held: Held, edition: Edition, seats: int) -> None:
    """Refuse racks of players outside ``0 .. seats - 1`` or with tiles the edition lacks (a
    rack holds letters and undesignated blanks, codes ``0 .. n - 1``)."""
    n = len(edition.tiles.labels)
    for p, rack in held:
        if not _whole(p) or not 0 <= p < seats:
            raise RuleError(f"no such player in this game (players are 0 to {seats - 1})",
                            key="rule.no_player", last=seats - 1,
                            player=p if _whole(p) and abs(p) < 10**9 else -1)
        if not all(_whole(t) and 0 <= t < n for t in rack):
            raise RuleError("a tile the edition does not have", key="rule.bad_tile",
                            edition=edition.name)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _rack(edition: Edition, text: object) -> tuple[int, ...]:
    return tuple(sorted(edition.tiles.parse(str(text), rack=True)))


TurnKind = Literal[
    "play",
    "exchange",
    "pass",
    "withdrawn",  # a phony taken back after a successful challenge
    "challenge-bonus",  # 5pt / 10pt: the challenged player gains points
    "challenge-penalty",  # penalty10: the challenger loses 10 points
    "lost-turn",  # double challenge: the challenger loses this turn
    "timeout",  # per-move time control: the turn ran over and is lost
    "end-rack",  # the player who went out gains the others' racks
    "rack-penalty",  # a player loses the value of their own rack at the end
    "time-penalty",  # game clock: points lost for time over
    "resign",  # the player resigned: the game ends, they lose
]
"""What a scoresheet line records."""
TURN_KINDS: tuple[TurnKind, ...] = get_args(TurnKind)

EndReason = Literal["out", "passes", "scoreless", "no-play", "resigned"]
"""Why a game ended: a player went out, every player passed, too many scoreless turns in a
row, nobody could play, or a player resigned."""


@dataclass(frozen=True)
class Turn:
    """One line of the scoresheet.

    ``rack`` is the player's rack before the turn (for plays, exchanges, passes and timeouts),
    ``tiles`` the tiles concerned (exchanged, or the rack counted at the end), ``points`` the
    change of score and ``total`` the score after it.
    """

    player: int
    kind: TurnKind
    points: int
    total: int
    rack: tuple[int, ...] | None = None
    place: Place | None = None
    score: Score | None = None
    tiles: tuple[int, ...] = ()
    count: int = 0
    kept: bool = False
    """A withdrawn play whose player plays again (the ``late_challenge`` rule)."""
