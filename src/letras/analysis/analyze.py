"""Analysis of a game: for every turn of a record, the best plays and what the play made cost.

:func:`analyze` follows the record as :meth:`letras.game.Game.from_gcg` does
(:func:`letras.formats.gcg_game.followed_gcg`), and for each play, exchange or pass whose
player's full rack the record shows, takes the position just before it (holding that rack),
ranks the actions with the ``equity`` level, values the action made the same way
(:meth:`letras.ai.equity.EquityPlayer.value`, so a phony that stood is valued too) and, at the
``sim`` level, simulates the best candidates together with the action made
(:class:`letras.ai.sim.SimPlayer`). The win chance of an action is the simulation's, else the
edition's win table (:mod:`letras.analysis.winchance`) at the spread plus the action's equity.
Turns without a rack are listed with the status ``rack-unknown``. Everything is deterministic
for a seed and, at the ``sim`` level, a work limit.

>>> from letras.editions import find_edition
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["WINDY", "WIND", "DIN"])
>>> record = '''#player1 doug Doug
... #player2 emely Emely
... >doug: DINNVWY 8E WIND +16 16'''
>>> turn = analyze(record, lexicon=words).turns[0]
>>> turn.made.notation, turn.made.score, [(o.notation, o.score) for o in turn.best[:2]]
('8E WIND', 16, [('8D WINDY', 32), ('H4 WINDY', 32)])
>>> turn.found, turn.equity_lost > 10
(False, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from letras.ai.equity import Candidate, EquityPlayer
from letras.ai.leaves import LeaveEvaluator
from letras.ai.player import NO_LIMIT, Choice, Limit
from letras.ai.sim import SimPlayer, Simulation
from letras.analysis.model import GameAnalysis, Kind, Option, PlayerSummary, TurnAnalysis, WinPoint
from letras.analysis.winchance import WinTable, shipped_win_table
from letras.board import Direction
from letras.editions import Edition
from letras.errors import LetrasError
from letras.formats.gcg import EventKind, GcgRecord, format_rack, read_gcg
from letras.formats.gcg_game import FollowedRecord, Step, followed_gcg
from letras.game import Game, PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass, Place
from letras.rules import full_place

BEST = 5
"""How many of the best actions each turn lists."""
MISTAKES = 3
"""How many of a player's costliest turns the summary names."""
SIM_WORK = 1200
"""The work limit (simulated plays) of a ``sim`` analysis given no limit."""
LEVELS = ("equity", "sim")
EPSILON = 1e-6

Progress = Callable[[int, int], None]
"""Told (turns analysed, turns to analyse) as the analysis goes."""


class AnalysisError(LetrasError):
    """An analysis asked for with settings it cannot run with."""


@dataclass
class _Context:
    edition: Edition
    lexicon: WordGraph
    equity: EquityPlayer
    sim: SimPlayer | None
    limit: Limit
    table: WinTable | None
    best: int


def analyze(
    record: str | bytes | GcgRecord,
    *,
    lexicon: WordGraph | None = None,
    edition: Edition | None = None,
    level: str = "equity",
    limit: Limit = NO_LIMIT,
    seed: int = 0,
    best: int = BEST,
    leaves: LeaveEvaluator | None = None,
    win_table: WinTable | None = None,
    progress: Progress | None = None,
) -> GameAnalysis:
    """Analyse every turn of ``record`` (GCG text, bytes or a read record); see the module
    docstring. ``lexicon`` is the word graph to find plays in (default: the record's lexicon if
    letras ships it, else the edition's); ``level`` ``equity`` or ``sim``; ``limit`` each
    simulation's (default :data:`SIM_WORK` simulated plays); ``seed`` fixes the tiles the
    record does not show and the simulation's deals; ``win_table`` replaces the edition's."""
    if level not in LEVELS:
        raise AnalysisError(f"no analysis level {level!r}: equity or sim", key="analysis.level",
                            level=level)
    if best < 1:
        raise AnalysisError(f"list at least one best play, not {best}", key="analysis.best_count",
                            n=best)
    if not isinstance(record, GcgRecord):
        record = read_gcg(record, edition)
    followed = followed_gcg(record, seed=seed)
    game = followed.game
    graph = lexicon if lexicon is not None else _word_graph(game)
    two = len(game.players) == 2
    table = win_table if win_table is not None else shipped_win_table(game.edition.name)
    table = table if two else None
    sim = None
    if level == "sim":
        sim = SimPlayer(graph, seed=seed, leaves=leaves, equity_window=math.inf)
        limit = limit if not limit.unlimited else Limit(work=SIM_WORK)
    ctx = _Context(game.edition, graph, EquityPlayer(graph, leaves=leaves), sim, limit, table,
                   best)
    withdrawn = {id(s.target) for s in followed.steps
                 if s.event.kind is EventKind.WITHDRAWN and s.target is not None}
    chosen = [i for i, s in enumerate(followed.steps)
              if s.event.kind in (EventKind.PLAY, EventKind.EXCHANGE, EventKind.PASS)
              and s.turn is not None and s.turn.kind in ("play", "exchange", "pass")]
    turns = []
    for done, i in enumerate(chosen):
        step = followed.steps[i]
        turns.append(_turn(ctx, followed, i, id(step.event) in withdrawn))
        if progress:
            progress(done + 1, len(chosen))
    curve = _curve(followed, table) if table is not None else ()
    return GameAnalysis(
        edition=game.edition.name, lexicon=graph.name, level=level,
        seconds=limit.seconds if sim is not None else None,
        players=game.player_names, final_scores=game.scores, over=game.over,
        turns=tuple(turns), curve=curve, summary=_summary(game, turns), win_table=table is not None,
    )


def _word_graph(game: Game) -> WordGraph:
    graph = game.lexicon
    if not isinstance(graph, WordGraph):
        raise AnalysisError("analysis needs a word graph lexicon (a word list or .kwg file)",
                            key="analysis.lexicon")
    return graph


def _own_move(followed: FollowedRecord, i: int) -> int | None:
    """The index in the game's history of the move that event ``i`` stands for: the last move
    of its step by its player (a step may first make the turns the record leaves out)."""
    step = followed.steps[i]
    start = followed.steps[i - 1].moves if i else 0
    seat = step.turn.player if step.turn is not None else -1
    moves = followed.game.moves
    return next((k for k in range(step.moves - 1, start - 1, -1) if moves[k].player == seat),
                None)


def _turn(ctx: _Context, followed: FollowedRecord, i: int, withdrawn: bool) -> TurnAnalysis:
    step = followed.steps[i]
    assert step.turn is not None
    seat = step.turn.player
    k = _own_move(followed, i)
    event = step.event
    if k is None:  # (cannot happen for a turn the game made; said rather than assumed)
        return TurnAnalysis(event=i, line=event.line, player=seat, status="not-followed",
                            rack=None, scores=followed.game.scores, bag=0)
    view = followed.game.replay(k).view(seat)
    shown = event.rack is not None and len(event.rack) == len(view.rack)
    rack = format_rack(ctx.edition.tiles, event.rack) if event.rack else None
    bare = TurnAnalysis(event=i, line=event.line, player=seat, status="analysed", rack=rack,
                        scores=view.scores, bag=view.bag_count)
    if not shown or view.to_move != seat:
        return replace(bare, status="rack-unknown")
    action = _made(step, view, withdrawn)
    if action is None:
        return replace(bare, status="not-followed")
    ranked = ctx.equity.ranked(view, max(ctx.best, 10))
    same_as = _find(view, ranked, action)  # (its values; the notation is the record's)
    made = (Candidate(action, same_as.equity, same_as.score) if same_as is not None
            else ctx.equity.value(view, action))
    wins: dict[tuple[object, ...], float] = {}
    order = ranked
    if ctx.sim is not None:
        result = _simulate(ctx, view, made)
        order = [Candidate(c.choice, c.equity, c.score) for c in result.candidates]
        wins = {_key(view, c.choice): c.win for c in result.candidates if not math.isnan(c.win)}
    options = [_option(ctx, view, c, wins) for c in order[: ctx.best]]
    made_option = _option(ctx, view, made, wins)
    equity_lost = max(0.0, max(c.equity for c in ranked) - made.equity)
    win_lost = None
    if options[0].win is not None and made_option.win is not None:
        win_lost = max(0.0, options[0].win - made_option.win)
    same = _key(view, order[0].choice) == _key(view, action)
    lost = win_lost if ctx.sim is not None and win_lost is not None else equity_lost
    return replace(bare, made=made_option, best=tuple(options), found=same or lost < EPSILON,
                   equity_lost=equity_lost, win_lost=win_lost, withdrawn=withdrawn)


def _made(step: Step, view: PlayerView, withdrawn: bool) -> Choice | None:
    """The action the event made, as the game carried it out (a withdrawn phony: a pass)."""
    turn = step.turn
    assert turn is not None
    if withdrawn:
        return Pass()
    if turn.kind == "play":
        place = turn.place or step.place
        return place if isinstance(place, Place) else None
    if turn.kind == "exchange":
        action = step.event.action
        if isinstance(action, Exchange) and action.tiles:
            return Exchange(tuple(sorted(action.tiles)))
        return None
    return Pass()


def _key(view: PlayerView, choice: Choice) -> tuple[object, ...]:
    """What makes two actions the same: on the empty board a play down is the same as its
    mirror image across (the layouts are symmetric)."""
    if isinstance(choice, Place):
        p = full_place(view.board, choice)
        square = (p.square.row, p.square.col)
        if view.board.is_empty() and p.direction is Direction.DOWN:
            return ("play", square[::-1], Direction.ACROSS, p.tiles)
        return ("play", square, p.direction, p.tiles)
    if isinstance(choice, Exchange):
        return ("exchange", tuple(sorted(choice.tiles)))
    return ("pass",)


def _find(view: PlayerView, ranked: list[Candidate], action: Choice) -> Candidate | None:
    key = _key(view, action)
    return next((c for c in ranked if _key(view, c.choice) == key), None)


def _simulate(ctx: _Context, view: PlayerView, made: Candidate) -> Simulation:
    """The simulation of the equity player's best candidates and the action made."""
    assert ctx.sim is not None
    ctx.sim.equity_player = _Including(ctx.lexicon, ctx.equity, view, made)
    return ctx.sim.analyse(view, ctx.limit)


class _Including(EquityPlayer):
    """The equity player's ranking, with the action made among the candidates of the position
    analysed (and only there: the simulation asks for other positions' rankings too)."""

    def __init__(self, lexicon: WordGraph, inner: EquityPlayer, view: PlayerView,
                 made: Candidate) -> None:
        super().__init__(lexicon, leaves=inner.leaves)
        self.inner, self.view, self.made = inner, view, made

    def ranked(self, view: PlayerView, n: int = 10) -> list[Candidate]:
        out = self.inner.ranked(view, n)
        if view is not self.view or _find(view, out, self.made.choice) is not None:
            return out
        return [*out[: max(n - 1, 1)], self.made]


def _kind(choice: Choice) -> Kind:
    return "play" if isinstance(choice, Place) else "exchange" if isinstance(
        choice, Exchange) else "pass"


def _option(ctx: _Context, view: PlayerView, c: Candidate,
            wins: dict[tuple[object, ...], float]) -> Option:
    win = wins.get(_key(view, c.choice))
    if win is None and ctx.table is not None:
        me = view.player
        spread = view.scores[me] - max(s for p, s in enumerate(view.scores) if p != me)
        laid = sum(1 for t in c.choice.tiles if t) if isinstance(c.choice, Place) else 0
        unseen = view.bag_count + len(view.rack) - laid  # what the opponent faces
        win = ctx.table.after(spread=spread, score=c.equity, unseen=unseen)
    return Option(c.choice.notation(ctx.edition), _kind(c.choice), c.score, c.equity, win)


def _curve(followed: FollowedRecord, table: WinTable) -> tuple[WinPoint, ...]:
    """Each player's win chance from the table at the start and after every event."""
    game = followed.game
    points = []
    marks = [(0, None, 0)] + [(i + 1, s.event.line, s.moves) for i, s in enumerate(followed.steps)]
    for events, line, moves in marks:
        g = game.replay(moves)
        if g.over:
            top = max(g.scores)
            winners = [p for p, s in enumerate(g.scores) if s == top]
            chance = tuple(1.0 / len(winners) if p in winners else 0.0
                           for p in range(len(g.scores)))
        else:
            mover = g.to_move
            view = g.view(mover)
            p = table.chance(g.scores[mover] - g.scores[1 - mover], sum(view.unseen))
            chance = (p, 1 - p) if mover == 0 else (1 - p, p)
        points.append(WinPoint(events, line, g.scores, chance))
    return tuple(points)


def _summary(game: Game, turns: list[TurnAnalysis]) -> tuple[PlayerSummary, ...]:
    out = []
    for p, name in enumerate(game.player_names):
        mine = [i for i, t in enumerate(turns) if t.player == p]
        done = [i for i in mine if turns[i].status == "analysed"]
        wins = [turns[i].win_lost for i in done]
        by_win = bool(done) and all(w is not None for w in wins)

        def cost(i: int, by_win: bool = by_win) -> float:
            t = turns[i]
            return (t.win_lost or 0.0) if by_win else (t.equity_lost or 0.0)

        worst = sorted((i for i in done if cost(i) > EPSILON), key=lambda i: (-cost(i), i))
        out.append(PlayerSummary(
            player=p, name=name, analysed=len(done),
            unknown=sum(1 for i in mine if turns[i].status == "rack-unknown"),
            best_found=sum(1 for i in done if turns[i].found),
            equity_lost=sum(turns[i].equity_lost or 0.0 for i in done),
            win_lost=sum(w or 0.0 for w in wins) if by_win else None,
            mistakes=tuple(worst[:MISTAKES]),
        ))
    return tuple(out)


__all__ = ["BEST", "LEVELS", "SIM_WORK", "AnalysisError", "analyze"]
