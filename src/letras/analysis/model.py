"""What an analysis of a game finds, as plain data, and its JSON shape.

:class:`GameAnalysis` holds one :class:`TurnAnalysis` per turn of the record that a player
chose (a play, an exchange or a pass), the win chance of every player after every event
(:class:`WinPoint`) and a :class:`PlayerSummary` per player. :meth:`GameAnalysis.to_dict` is
the JSON shape, documented by ``letras/formats/data/analysis.schema.json`` (its
``version`` changes only when a field changes meaning or goes away; new fields may appear).

>>> o = Option("8D WINDY", "play", 32, 35.25, 0.6123)
>>> o.to_dict()
{'notation': '8D WINDY', 'kind': 'play', 'score': 32, 'equity': 35.25, 'win': 0.6123}
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

SCHEMA_VERSION = 1
"""The ``version`` of :meth:`GameAnalysis.to_dict`'s shape."""


def analysis_schema() -> dict[str, Any]:
    """The JSON Schema of :meth:`GameAnalysis.to_dict` (``analysis.schema.json``)."""
    from importlib import resources

    text = (resources.files("letras.formats") / "data" / "analysis.schema.json").read_text(
        encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema

Kind = Literal["play", "exchange", "pass"]
Status = Literal["analysed", "rack-unknown", "not-followed"]
"""A turn's status: ``analysed``; ``rack-unknown`` when the record does not show the full rack
(nothing can be said of the choices then); ``not-followed`` when the turn did not happen as
written (the record problem is then elsewhere)."""


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


@dataclass(frozen=True)
class Option:
    """An action valued: its notation (GCG: ``8D W.NDY``, ``-AEI``, ``-``), its score, its
    equity (points now plus the value of the tiles kept, as the ``equity`` level reckons it)
    and the mover's win chance after it (0 to 1; None when there is no estimate)."""

    notation: str
    kind: Kind
    score: int
    equity: float
    win: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"notation": self.notation, "kind": self.kind, "score": self.score,
                "equity": round(self.equity, 2), "win": _round(self.win, 4)}


@dataclass(frozen=True)
class TurnAnalysis:
    """One chosen turn of the record: where it is (``event``, the index of its line among the
    record's events, and ``line``, the file's line number), who moved, the rack shown, the
    scores before it, the action made valued (``made``), the best found (``best``, best
    first), whether the best was found, and what the action cost against the best:
    ``equity_lost`` (points of equity) and ``win_lost`` (win chance, 0 to 1). ``withdrawn``:
    the play was a phony taken back (it is valued as what it came to, a pass)."""

    event: int
    line: int
    player: int
    status: Status
    rack: str | None
    scores: tuple[int, ...]
    bag: int
    made: Option | None = None
    best: tuple[Option, ...] = ()
    found: bool | None = None
    equity_lost: float | None = None
    win_lost: float | None = None
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event, "line": self.line, "player": self.player,
            "status": self.status, "rack": self.rack, "scores": list(self.scores),
            "bag": self.bag, "made": self.made.to_dict() if self.made else None,
            "best": [o.to_dict() for o in self.best], "found": self.found,
            "equity_lost": _round(self.equity_lost, 2), "win_lost": _round(self.win_lost, 4),
            "withdrawn": self.withdrawn,
        }

    def mistake(self, index: int) -> dict[str, Any]:
        """The turn as a summary names it (``index``: its place in the analysis's turns)."""
        return {"turn": index, "event": self.event, "line": self.line,
                "made": self.made.notation if self.made else None,
                "best": self.best[0].notation if self.best else None,
                "equity_lost": _round(self.equity_lost, 2), "win_lost": _round(self.win_lost, 4)}


@dataclass(frozen=True)
class WinPoint:
    """The win chance of each player (0 to 1, by seat) after the first ``events`` events of
    the record (0: the start), with the scores then."""

    events: int
    line: int | None
    scores: tuple[int, ...]
    chance: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"events": self.events, "line": self.line, "scores": list(self.scores),
                "chance": [round(c, 4) for c in self.chance]}


@dataclass(frozen=True)
class PlayerSummary:
    """One player's turns: how many were analysed, on how many the best was found, the
    equity and win chance lost in all, and the turns that cost most (``mistakes``, indices
    into :attr:`GameAnalysis.turns`, worst first)."""

    player: int
    name: str
    analysed: int
    unknown: int
    best_found: int
    equity_lost: float
    win_lost: float | None
    mistakes: tuple[int, ...]

    def to_dict(self, turns: tuple[TurnAnalysis, ...]) -> dict[str, Any]:
        return {
            "player": self.player, "name": self.name, "analysed": self.analysed,
            "unknown": self.unknown, "best_found": self.best_found,
            "equity_lost": round(self.equity_lost, 2), "win_lost": _round(self.win_lost, 4),
            "mistakes": [turns[i].mistake(i) for i in self.mistakes],
        }


@dataclass(frozen=True)
class GameAnalysis:
    """The analysis of a whole record; see the module docstring. ``level`` is ``equity`` or
    ``sim``; ``win_table`` says whether win chances come with it (a shipped table for the
    edition and two players)."""

    edition: str
    lexicon: str
    level: str
    seconds: float | None
    players: tuple[str, ...]
    final_scores: tuple[int, ...]
    over: bool
    turns: tuple[TurnAnalysis, ...]
    curve: tuple[WinPoint, ...]
    summary: tuple[PlayerSummary, ...]
    win_table: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "letras-analysis", "version": SCHEMA_VERSION, "edition": self.edition,
            "lexicon": self.lexicon,
            "level": self.level, "seconds": self.seconds, "players": list(self.players),
            "final_scores": list(self.final_scores), "over": self.over,
            "win_table": self.win_table,
            "turns": [t.to_dict() for t in self.turns],
            "win_chance": [p.to_dict() for p in self.curve],
            "summary": [s.to_dict(self.turns) for s in self.summary],
        }


__all__ = ["SCHEMA_VERSION", "GameAnalysis", "Option", "PlayerSummary", "TurnAnalysis",
           "WinPoint", "analysis_schema"]
