"""What happened at the table, as events that any front end can show in any language.

An :class:`Event` is a message key of :mod:`letras.i18n` and the facts it names (players,
words, scores, tiles) as JSON-ready data; :func:`describe` says it in a language. The table
makes events from the scoresheet lines an action adds (:func:`turn_events`), from challenges,
and at the end of the game (:func:`end_events`: why it ended, the final count player by player,
the winner). Events are public: they never hold a rack's tiles before the end of the game,
nor what a player exchanged.

>>> from letras.game import Game
>>> from letras.i18n import messages
>>> game = Game("pt-BR", ["Ana", "Bruno"], seed=2026)
>>> [event] = turn_events(game, [game.play("8G MUDO")])
>>> event.key, event.data["words"], event.data["total"]
('event.play', [{'word': 'MUDO', 'score': 10}], 10)
>>> describe(event, messages("en"))
'Ana: 8G MUDO   MUDO 10 = 10   (total 10)'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from letras.formats.views import word_scores
from letras.game import Game
from letras.history import Turn
from letras.i18n import Messages
from letras.table.text import play_text, score_text, show_labels, tile_labels

END_KINDS = frozenset({"end-rack", "rack-penalty", "time-penalty"})
"""Scoresheet lines of the final count."""


@dataclass(frozen=True)
class Event:
    """A message key and its facts. ``data`` holds only JSON values."""

    key: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "data": self.data}


def _who(game: Game, seat: int) -> dict[str, Any]:
    return {"player": seat, "name": game.player_names[seat]}


def turn_events(game: Game, turns: Sequence[Turn]) -> list[Event]:
    """The events of scoresheet lines (the lines of the final count are left to
    :func:`end_events`)."""
    board = game.board
    out = []
    for turn in turns:
        who = _who(game, turn.player)
        kind = turn.kind
        if kind == "play" and turn.place is not None and turn.score is not None:
            out.append(Event("event.play", {
                **who, "play": play_text(turn.place, board),
                "words": word_scores(turn.score),
                "bingo": turn.score.bingo, "points": turn.points, "total": turn.total,
            }))
        elif kind == "exchange":
            out.append(Event("event.exchange", {**who, "count": turn.count or len(turn.tiles)}))
        elif kind == "withdrawn" and turn.place is not None:
            out.append(Event("event.withdrawn", {
                **who, "play": play_text(turn.place, board), "points": -turn.points,
                "total": turn.total,
            }))
        elif kind in ("pass", "lost-turn", "timeout"):
            out.append(Event(f"event.{kind}", who))
        elif kind == "resign":
            out.append(Event("event.resigned", who))
        elif kind in ("challenge-bonus", "challenge-penalty"):
            out.append(Event(f"event.{kind}", {**who, "points": abs(turn.points),
                                               "total": turn.total}))
    return out


def end_events(game: Game) -> list[Event]:
    """Why the game ended, the final count as the rule sheets do it (each player's score
    before the count, the rack points taken off or gained, the final score), then the winner
    or a tie. When a player resigned (rules.md 6.5) there is nothing to count: the lines show
    the scores, and the winner is named without a spread."""
    edition = game.edition
    names = game.player_names
    reason = game.end_reason or "out"
    out_player = next((t.player for t in game.turns if t.kind == "end-rack"), None)
    if reason == "resigned" and game.resigned is not None:
        events = [Event("end.reason.resigned", _who(game, game.resigned))]
    elif reason == "out" and out_player is not None:
        events = [Event("end.reason.out", _who(game, out_player))]
    elif reason == "out":
        events = [Event("end.reason.out_nobody")]
    else:
        events = [Event(f"end.reason.{reason}")]
    events.append(Event("count.head"))
    changes: list[list[dict[str, Any]]] = [[] for _ in names]
    for turn in game.turns:
        if turn.kind in END_KINDS:
            changes[turn.player].append({"kind": turn.kind, "points": turn.points,
                                         "tiles": tile_labels(turn.tiles, edition)})
    for p in range(len(names)):
        final = game.scores[p]
        before = final - sum(c["points"] for c in changes[p])
        events.append(Event("count.line", {**_who(game, p), "before": before,
                                           "changes": changes[p], "final": final}))
    winners = game.winners()
    best = game.scores[winners[0]]
    if len(winners) > 1:
        events.append(Event("count.tie", {"players": winners,
                                          "names": [names[p] for p in winners],
                                          "score": best}))
    elif game.resigned is not None:  # the winner's score may be below the resigned player's
        events.append(Event("count.winner_resigned", {**_who(game, winners[0]), "score": best}))
    else:
        others = sorted((s for p, s in enumerate(game.scores) if p != winners[0]), reverse=True)
        events.append(Event("count.winner", {**_who(game, winners[0]), "score": best,
                                             "spread": best - others[0]}))
    return events


def _names(names: Sequence[str], t: Messages) -> str:
    if len(names) == 1:
        return names[0]
    return t("list.and", first=", ".join(names[:-1]), last=names[-1])


def you_key(key: str, name: object, t: Messages) -> str:
    """``key``, or its ``_you`` form when ``name`` is the language's word for the person at
    the terminal (``You``): English and Italian then conjugate differently ("You pass")."""
    if name == t("seat.you") and t.has(f"{key}_you"):
        return f"{key}_you"
    return key


def describe(event: Event, t: Messages, *, name_width: int = 0) -> str:
    """The event in the language of ``t``. ``name_width`` pads the names of the final
    count's lines so that they line up."""
    d = event.data
    key = you_key(event.key, d.get("name"), t)
    if key == "event.play":
        score = score_text([(w["word"], w["score"]) for w in d["words"]], d["bingo"],
                           t("score.bingo", n="{n}"))
        return t(key, name=d["name"], play=d["play"], score=score, total=d["total"])
    if key == "undo.done":
        return t(key, moves=t.count("moves", d["n"]))
    if key.startswith("event.exchange"):
        return t(key, name=d["name"], tiles=t.count("tiles", d["count"]))
    if key == "count.line":
        parts = [t(f"count.{c['kind']}", points=abs(c["points"]),
                   tiles=show_labels(c["tiles"])) for c in d["changes"]]
        what = "; ".join(parts) or t("count.nothing")
        return f"  {d['name']:<{name_width}}  {d['before']:>4}  {what}  = {d['final']}"
    if key == "count.tie":
        return t(key, names=_names(d["names"], t), score=d["score"])
    if key in ("challenge.won", "challenge.by_ai", "word.confirm"):
        return t(key, **{**d, "words": ", ".join(d["words"])})
    return t(key, **d)


def describe_all(events: Sequence[Event], t: Messages) -> list[str]:
    """Several events, the final count's names lined up."""
    width = max((len(e.data["name"]) for e in events if e.key == "count.line"), default=0)
    return [describe(e, t, name_width=width) for e in events]


__all__ = ["END_KINDS", "Event", "describe", "describe_all", "end_events", "turn_events",
           "you_key"]
