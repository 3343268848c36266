"""What a game remembers: the actions taken (the record of truth) and the scoresheet they give.

A :class:`Move` is one input to the game: who did what, with how much thinking time, and, for a
challenge, how it was judged. Replaying the same moves from the same seed gives the same game.
A :class:`Turn` is one line of the scoresheet derived from them (a play and its score, a
withdrawn phony, a challenge bonus, a lost turn, end-of-game rack points ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from letras.editions import Edition
from letras.errors import FormatError, inner_facts
from letras.holding import Held
from letras.play import Action, Challenge, Exchange, Pass, Place
from letras.scoring import Score


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


GameAction = Action | Accept | NoPlayEnd


@dataclass(frozen=True)
class Move:
    """One action in the history. ``valid`` is a challenge's verdict on the challenged play,
    stored so that a replay never depends on the lexicon.

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
        elif isinstance(a, NoPlayEnd):
            out["type"] = "no-play-end"
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
            player = int(data["player"])
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
            else:
                raise FormatError(f"unknown move type {kind!r}", key="saved.move_type",
                                  kind=str(kind))
            seconds = data.get("seconds")
            valid = data.get("valid")
            rack = data.get("rack")
            others, final = (
                tuple((int(p), _rack(edition, tiles)) for p, tiles in data.get(name, ()))
                for name in ("others", "final")
            )
            return cls(
                player,
                action,
                None if seconds is None else float(seconds),
                None if valid is None else bool(valid),
                None if rack is None else _rack(edition, rack),
                others,
                final,
            )
        except (KeyError, TypeError, ValueError) as e:
            if isinstance(e, FormatError):
                raise
            raise FormatError(f"bad move {data!r}: {e}", key="saved.move", move=repr(data),
                              **inner_facts(e)) from None


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
]
"""What a scoresheet line records."""
TURN_KINDS: tuple[TurnKind, ...] = get_args(TurnKind)

EndReason = Literal["out", "passes", "scoreless", "no-play"]
"""Why a game ended: a player went out, every player passed, too many scoreless turns in a
row, or nobody could play."""


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
