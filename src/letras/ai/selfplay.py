"""Self-play matches: AI levels play each other, and the results are counted with their error.

:func:`play_match` plays ``games`` games between 2-4 levels and returns a :class:`MatchResult`.
Game ``i`` is seeded from the match seed and ``i`` alone, so every game replays exactly and the
results do not depend on how many processes play them. The seat that moves first rotates: in
game ``i`` the level listed ``i mod n``-th moves first and the others follow in the order listed.

Under challenge rules the players only lay words of their lexicon, so the table accepts every
play before the next player chooses (this also settles a play that ends the game, which must
be accepted explicitly).

>>> from letras.editions import find_edition
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, "AA AB AD AE AG AH AI AL AM AN AR AS AT AW AX AY BA BE BI BO BY "
...     "DA DE DO ED EF EH EL EM EN ER ES EX FA FE GO HA HE HI HM HO ID IF IN IS IT JO KA KI LA LI "
...     "LO MA ME MI MO MU MY NA NE NO NU OD OE OF OH OI OM ON OP OR OS OW OX OY PA PE PI QI RE SH "
...     "SI SO TA TI TO UH UM UN UP US UT WE WO XI XU YA YE YO ZA".split())
>>> result = play_match(["greedy", "random"], 2, edition=en, lexicon=words, seed=1)
>>> [(g.starter, g.scores) for g in result.games]
[(0, (107, 31)), (1, (112, 48))]
>>> [s.wins for s in result.stats()]
[2.0, 0.0]
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from letras.ai import check_level, get_player
from letras.ai.leaves import LeaveEvaluator, heuristic_leaves
from letras.ai.player import NO_LIMIT, Choice, Limit
from letras.ai.player import Player as AIPlayer
from letras.ai.workers import open_workers
from letras.editions import Edition, find_edition
from letras.errors import LetrasError, RuleError
from letras.game import Game, Player, PlayerView
from letras.lexicon.kwg import WordGraph
from letras.play import Pass

STALLED = 24
"""After this many scoreless turns in a row (a blocked board: players exchanging or passing for
ever), the players are made to pass, which ends the game under the usual rules."""
MAX_TURNS = 2000
"""A game still on after this many turns is refused as one that cannot end."""
Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

Progress = Callable[[int, int], None]
"""Called with (games done, games in all) as games finish."""


@dataclass(frozen=True)
class GameResult:
    """One game of a match; players are numbered in the order the match lists them."""

    number: int
    seed: int
    seats: tuple[int, ...]
    """``seats[s]`` is the player sitting at seat ``s`` of the game."""
    starter: int
    """The player who moved first."""
    scores: tuple[int, ...]
    """Final scores, by player."""
    turns: int
    """Actions the players chose (plays, exchanges and passes)."""
    end_reason: str
    gcg: str | None = None

    def wins(self) -> tuple[float, ...]:
        """Each player's share of the win: 1 to a sole winner, shared equally on a tie."""
        best = max(self.scores)
        winners = sum(1 for s in self.scores if s == best)
        return tuple(1.0 / winners if s == best else 0.0 for s in self.scores)

    def spreads(self) -> tuple[float, ...]:
        """Each player's score minus the mean score of the others."""
        n, total = len(self.scores), sum(self.scores)
        return tuple(s - (total - s) / (n - 1) for s in self.scores)


@dataclass(frozen=True)
class Estimate:
    """A mean with a 95% confidence interval."""

    mean: float
    low: float
    high: float

    @classmethod
    def share(cls, values: Sequence[float]) -> Estimate:
        """A share of wins (each value 0 to 1; ties as fractions), with the Wilson score
        interval, which stays sensible near 0% and 100% and for few games."""
        n = len(values)
        p = statistics.fmean(values)
        z2 = Z95 * Z95
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
        return cls(p, max(0.0, centre - half), min(1.0, centre + half))

    @classmethod
    def of(cls, values: Sequence[float]) -> Estimate:
        """A mean with the normal interval (infinite for a single value)."""
        mean = statistics.fmean(values)
        if len(values) < 2:
            return cls(mean, -math.inf, math.inf)
        half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
        return cls(mean, mean - half, mean + half)


@dataclass(frozen=True)
class PlayerStats:
    """One player's results over a match."""

    name: str
    wins: float
    win_rate: Estimate
    mean_score: float
    spread: Estimate


@dataclass(frozen=True)
class MatchResult:
    """What a match gives: its settings, every game in order, and how long it took."""

    levels: tuple[str, ...]
    edition: str
    seed: int
    games: tuple[GameResult, ...]
    seconds: float
    workers: int = 1

    def names(self) -> tuple[str, ...]:
        """The players' names: their levels, numbered when a level plays more than once."""
        return _names(self.levels)

    def stats(self) -> list[PlayerStats]:
        out = []
        for p, name in enumerate(self.names()):
            wins = [g.wins()[p] for g in self.games]
            out.append(PlayerStats(
                name,
                sum(wins),
                Estimate.share(wins),
                statistics.fmean(g.scores[p] for g in self.games),
                Estimate.of([g.spreads()[p] for g in self.games]),
            ))
        return out

    @property
    def turns(self) -> int:
        return sum(g.turns for g in self.games)

    @property
    def plays_per_second(self) -> float:
        """Players' choices (plays, exchanges, passes) per second of the whole match."""
        return self.turns / self.seconds if self.seconds > 0 else math.inf

    @property
    def games_per_second(self) -> float:
        return len(self.games) / self.seconds if self.seconds > 0 else math.inf

    def report(self) -> str:
        """The summary table ``letras selfplay`` prints."""
        lines = [
            f"{','.join(self.levels)} on {self.edition}: {_count(len(self.games), 'game')}, "
            f"seed {self.seed}, {_count(self.workers, 'worker')}, "
            f"{self.seconds:.1f} s",
            f"{'player':<10} {'wins':>7}  {'win rate (95% CI)':<24} {'mean score':>10}  "
            f"spread vs others (95% CI)",
        ]
        for s in self.stats():
            w = s.win_rate
            rate = f"{w.mean:6.1%} ({w.low:.1%}-{w.high:.1%})"
            sp = s.spread
            spread = f"{sp.mean:+7.1f} " + (
                f"({sp.low:+.1f} .. {sp.high:+.1f})" if math.isfinite(sp.low) else "(n/a)"
            )
            lines.append(
                f"{s.name:<10} {s.wins:>7g}  {rate:<24} {s.mean_score:>10.1f}  {spread}"
            )
        lines.append(
            f"{self.turns} plays: {self.plays_per_second:.1f} plays/s, "
            f"{self.games_per_second:.2f} games/s"
        )
        return "\n".join(lines)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _names(levels: Sequence[str]) -> tuple[str, ...]:
    return tuple(
        f"{level}-{i + 1}" if levels.count(level) > 1 else level for i, level in enumerate(levels)
    )


def game_seed(match_seed: int, number: int, part: str = "game") -> int:
    """The seed of game ``number`` of a match (or of a player in it), the same everywhere."""
    digest = hashlib.sha256(f"letras-selfplay/{match_seed}/{number}/{part}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def play_game(
    levels: Sequence[str],
    number: int,
    *,
    edition: Edition,
    lexicon: WordGraph,
    seed: int = 0,
    limit: Limit = NO_LIMIT,
    gcg: bool = False,
    leaves: Sequence[str | None] = (),
) -> GameResult:
    """Play game ``number`` of a match between ``levels`` (see the module docstring);
    ``leaves`` gives listed players a leave file (see :func:`play_match`)."""
    n = len(levels)
    seed_n = game_seed(seed, number)
    names = _names(levels)
    # Who draws first depends only on the seed and the number of seats: find that seat, and
    # put there the player whose turn it is to start.
    starter_seat = Game(edition, [f"seat {i}" for i in range(n)], seed=seed_n,
                        lexicon=lexicon).to_move
    first = number % n
    seats = [0] * n
    for k in range(n):
        seats[(starter_seat + k) % n] = (first + k) % n
    game = Game(edition, [Player(names[p], f"ai:{levels[p]}") for p in seats], seed=seed_n,
                lexicon=lexicon)
    players = [get_player(levels[p], lexicon, seed=game_seed(seed, number, f"player {p}"))
               for p in seats]
    for s, p in enumerate(seats):
        path = leaves[p] if p < len(leaves) else None
        if path is not None:
            set_leaves(players[s], leave_values(edition, path))
    try:
        turns = run_game(game, players, limit)
    except LetrasError as e:
        raise RuleError(f"game {number} of the match with seed {seed}: {e}") from e
    by_seat = game.scores
    scores = [0] * n
    for s, p in enumerate(seats):
        scores[p] = by_seat[s]
    text = None
    if gcg:
        from letras.formats.game_gcg import game_to_gcg

        text = game_to_gcg(game)
    return GameResult(number, seed_n, tuple(seats), first, tuple(scores), turns,
                      game.end_reason or "", text)


Record = Callable[[PlayerView, Choice, int], None]
"""Told of every action chosen in a game: the view it was chosen from, the action, its points."""


def run_game(
    game: Game, players: Sequence[AIPlayer], limit: Limit = NO_LIMIT,
    record: Record | None = None,
) -> int:
    """Play ``game`` to its end, ``players[s]`` choosing for seat ``s`` from its view; every
    play is accepted without a challenge, and ``record`` is told of every action. Returns the
    number of actions the players chose."""
    edition = game.edition
    turns = scoreless = 0
    while not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        if turns >= MAX_TURNS:
            raise RuleError(f"the game is still on after {turns} turns: it cannot end")
        seat = game.to_move
        view = game.view(seat)
        action = players[seat].choose(view, limit) if scoreless < STALLED else Pass()
        try:
            turn = game.apply(action, seat)
        except LetrasError as e:
            raise RuleError(
                f"{players[seat].level} chose {action.notation(edition)}, which the game "
                f"refused: {e}"
            ) from e
        points = turn.points if turn is not None else 0
        if record is not None:
            record(view, action, points)
        scoreless = scoreless + 1 if not points else 0
        turns += 1
    return turns


def play_match(
    levels: Sequence[str],
    games: int,
    *,
    edition: Edition | str = "pt-BR",
    lexicon: WordGraph | str | None = None,
    seed: int = 0,
    workers: int | None = None,
    limit: Limit = NO_LIMIT,
    gcg: bool = False,
    progress: Progress | None = None,
    leaves: Sequence[str | None] = (),
    ray: str | None = None,
) -> MatchResult:
    """Play ``games`` games between 2-4 ``levels`` and count the results.

    ``lexicon`` is a word graph, a shipped lexicon's name or a word list file (default: the
    edition's own). ``workers`` > 1 plays the games in that many processes, and ``ray``
    (``auto`` or a cluster's address) on a Ray cluster, by default one worker per CPU (see
    :mod:`letras.ai.workers`); the results are the same with any backend and any number.
    ``gcg`` keeps each game's record in its result. ``leaves`` gives the players listed, in
    order, the leave values to play with: a KLV file, ``heuristic`` for the edition's
    heuristic, or None for the level's default (to compare leave tables).
    """
    levels = tuple(check_level(level) for level in levels)
    ed = find_edition(edition) if isinstance(edition, str) else edition
    if not 2 <= len(levels) <= 4:
        raise RuleError(f"a match needs 2 to 4 players, not {len(levels)}")
    if games < 1:
        raise RuleError("a match needs at least one game")
    if workers is not None and workers < 1:
        raise RuleError("a match needs at least one worker")
    start = time.perf_counter()
    leaves = tuple(leaves)
    if len(leaves) > len(levels):
        raise RuleError(f"{len(leaves)} leave files for {len(levels)} players")
    # Read every leave file here, before any game starts (a bad one is refused now), and send
    # the values with the job: workers on other machines may not have the files.
    tables = tuple((path, leave_values(ed, path)) for path in dict.fromkeys(leaves)
                   if path is not None and path != "heuristic")
    graph = word_graph(ed, lexicon)
    results: list[GameResult] = []
    with open_workers(workers, tasks=games, ray=ray) as pool:
        shipped = lexicon if pool.local_processes and not isinstance(lexicon, WordGraph) \
            else graph
        pool.start(_start_worker, _run, _Job(levels, ed, shipped, seed, limit, gcg, leaves,
                                             tables))
        for result in pool.map(range(games)):
            results.append(result)
            if progress:
                progress(len(results), games)
        count = pool.count
    results.sort(key=lambda g: g.number)
    return MatchResult(levels, ed.name, seed, tuple(results), time.perf_counter() - start,
                       count)


@dataclass(frozen=True)
class _Job:
    """What a worker process needs to play any game of the match."""

    levels: tuple[str, ...]
    edition: Edition
    lexicon: WordGraph | str | None
    seed: int
    limit: Limit
    gcg: bool
    leaves: tuple[str | None, ...] = ()
    tables: tuple[tuple[str, LeaveEvaluator], ...] = ()
    """The values of each leave file the players name, read once by the caller."""


def word_graph(edition: Edition, lexicon: WordGraph | str | None) -> WordGraph:
    """The word graph AI players search: ``lexicon`` itself, or loaded from a shipped name or
    a file (default: the edition's own); :class:`RuleError` for a lexicon that is no graph."""
    from letras.lexicon import load_lexicon

    if isinstance(lexicon, WordGraph):
        return lexicon
    graph = load_lexicon(edition, lexicon)
    if not isinstance(graph, WordGraph):
        raise RuleError("AI players need a word graph lexicon (a word list or .kwg file)")
    return graph


def leave_values(edition: Edition, name: str) -> LeaveEvaluator:
    """A leave file's values (read once per process), or the heuristic for ``heuristic``."""
    if name == "heuristic":
        return heuristic_leaves(edition)
    key = (edition.name, name)
    if key not in _LEAVES:
        from letras.ai.leaves.klv import read_klv

        _LEAVES[key] = read_klv(Path(name), edition)
    return _LEAVES[key]


_LEAVES: dict[tuple[str, str], LeaveEvaluator] = {}


def set_leaves(player: AIPlayer, leaves: LeaveEvaluator) -> None:
    """Make ``player`` value leaves with ``leaves`` (and the players it consults)."""
    if not hasattr(player, "leaves"):
        raise RuleError(f"the {player.level} level takes no leave values")
    player.leaves = leaves
    for inner in vars(player).values():
        if isinstance(inner, AIPlayer) and hasattr(inner, "leaves"):
            set_leaves(inner, leaves)


def _start_worker(job: _Job) -> tuple[_Job, WordGraph]:
    """A worker's state: the job and its word graph (the leave files' values known)."""
    for path, table in job.tables:
        _LEAVES[(job.edition.name, path)] = table
    return job, word_graph(job.edition, job.lexicon)


def _run(state: tuple[_Job, WordGraph], number: int) -> GameResult:
    job, graph = state
    return play_game(job.levels, number, edition=job.edition, lexicon=graph, seed=job.seed,
                     limit=job.limit, gcg=job.gcg, leaves=job.leaves)
