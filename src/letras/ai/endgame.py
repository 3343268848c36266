"""The ``endgame`` level: once the bag is empty, search the rest of the game.

**Two players.** With the bag empty the unseen tiles (:attr:`PlayerView.unseen`) are exactly
the opponent's rack, so the position is one of perfect information and :func:`solve` searches
it: negamax with alpha-beta pruning, iterative deepening on plies and a transposition table.

- Moves: every tile play the move generator finds for the side to move, and the pass
  (exchanges need tiles in the bag; challenges are ignored: both sides play words of the
  lexicon).
- Value: the change of the spread from now to the end of the game for the player to move,
  the end-of-game count of the game's own rules included (as :class:`~letras.game.Game` does
  it): a player who goes out adds the value of the other rack and the other player loses it
  (+2 x that rack to the spread); a game ended by passes (``pass_rounds_to_end`` rounds of
  passes), by scoreless turns (``scoreless_turns_to_end``) or because neither player can play
  (``end_when_no_play_possible``) costs each player their own rack. If the rules give no way
  for passes to end the game, a full round of passes (nothing can change after it) is taken
  as its end, each player losing their rack. Time penalties are not counted.
- Transposition table: keyed by a 128-bit Zobrist hash of the board, both racks, the side to
  move and the counts of passes and scoreless turns in a row (the racks are kept exactly, the
  board by its hash: a collision is astronomically unlikely). Each entry keeps the bound,
  its kind, the depth searched (or "complete": no horizon below it) and the best move (not
  known after a cut made before the plays were).
- Plays, made incrementally (:mod:`letras.ai.endgame_plays`): a node's plays come from the
  same player's plays two plies up, those along the lanes (rows and columns) the two plays
  since then left unchanged and whose tiles the rack still holds, merged with the plays the
  move generator finds along the changed lanes only. The list is exactly the move
  generator's, in its order. Plays are cached per (board, rack) too, so each position's
  plays are made once; plays are made and unmade on one board.
- Cuts before the plays are made: one ply above the horizon, the pass or a play known from
  two plies up (along an unchanged lane) may already reach the window's top; two or more
  plies above it, each move's reply is bounded at once, in compiled code, from the other
  side's plays two plies up (above the horizon only by the replies that go out, whose value
  is exact), and a move its reply already refutes is not made. Those positions are counted
  as searched. The values one ply above the horizon and the move order are computed in
  compiled code too.
- Move order: the table's best move, then plays that go out (highest first), then by the
  value one ply above the horizon (score less the reply's :func:`horizon_value`); the pass
  last. Principal variation search: the first move with the whole window, the others with a
  null window, searched again only if they beat it (in measurements it halved the positions
  of a full-depth search).
- Iterative deepening on plies: depths :data:`DEPTHS` (1 to 4), then straight to a depth
  that reaches the end of the game on every line. A node at the horizon is valued by a
  static guess (:func:`horizon_value`); an iteration whose tree never met the horizon gives
  the exact value and ends the search. (Iterations at depths 6 and 8 were tried: they cost
  more positions than the ordering they gave saved.) Without a limit the search always ends
  (each play lays a tile and passes end the game), with the exact value. With a
  :class:`~letras.ai.player.Limit` (``seconds``, or ``work`` = positions searched) it answers
  the best move of the deepest iteration it completed (depth 1 always completes).

**Three or four players.** The opponents' racks are known only together (the unseen tiles)
and by size, so :func:`solve` runs a time-bounded Monte Carlo look-ahead instead. The
candidates are the player's plays ranked by endgame equity (score, minus twice the tiles kept,
plus the unseen tiles for going out), the best :data:`MULTI_CANDIDATES` of them, and the pass.
Each sample deals the unseen tiles to the opponents at random (rack sizes as seen); every
candidate is then played out to the end of the game on that same deal, every seat (ourselves
included) playing by the same quick policy: go out if it can (the highest-scoring way), else
the play worth most as score minus twice the face value of the tiles it keeps, else pass. The
game ends by the same rules as above, with the usual final count. A candidate's value is the
mean over samples of its **final margin over the best opponent** (our final score minus the
highest final score among the opponents) minus that margin now; the highest mean wins. Samples
are added until the limit is reached (at least one; :data:`MULTI_SAMPLES` without a limit).

**Bag not empty**: :class:`EndgamePlayer` plays as the ``equity`` level
(:class:`~letras.ai.equity.EquityPlayer`).

The opponent holds a T whose only play, HIT, goes out. Greedy would take QI for 21 and let
it; the search blocks the spot with HIS, the T is stuck, and QI goes out on the next turn:

>>> from letras.editions import find_edition
>>> from letras.lexicon.kwg import WordGraph
>>> from letras.board import Board
>>> from letras.play import Place
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["HI", "HIT", "HIS", "QI"])
>>> board = Board(en)
>>> board.put(Place.parse("8H HI", en).placed())
>>> position = EndgamePosition(board, en.tiles.parse("QS"), en.tiles.parse("T"), en.rules)
>>> result = solve(position, words)
>>> [c.notation(en) for c in result.principal_variation], result.value, result.exact
(['8H ..S', '-', 'I7 Q.'], 29, True)
"""

from __future__ import annotations

import random
import time
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from letras._compiled import announce_first_compile
from letras.ai import endgame_plays
from letras.ai.endgame_plays import (
    LanePlays,
    RackBits,
    annotate,
    best_at_horizon,
    best_kept,
    child_bounds,
    derive,
    play_lanes,
    play_order,
)
from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Choice, Limit, Player
from letras.board import Board, Direction, Square
from letras.editions import RuleOptions
from letras.errors import LetrasError
from letras.game import PlayerView
from letras.history import Turn
from letras.lexicon.kwg import WordGraph
from letras.movegen import Plays, generate
from letras.play import Pass, Place
from letras.scoring import score as score_play
from letras.tiles import BLANK_BIT, rack_tile

DEFAULT_LIMIT = Limit(work=20_000)
"""What :class:`EndgamePlayer` spends on two players when its caller sets no limit: an exact
search of a big endgame can take hours, a game should not. Work, not seconds, so that games
replay exactly. Measured on the first position of four real 7-vs-(4 to 7) endgames (en and
pt-BR, ``bench/endgame.py`` seeds 1 and 2): 0.03 to 0.9 seconds, depth 3 or 4 (one of them
exact). Endgames of up to 8 tiles between the two racks mostly finish within it (29 of 29
measured, 34 to 15,602 positions)."""
MULTI_CANDIDATES = 10
"""With three or four players: how many of the player's plays are played out (plus the pass)."""
MULTI_SAMPLES = 16
"""With three or four players and no limit: how many deals of the unseen tiles are tried."""
TABLE_SIZE = 1_000_000
"""Transposition-table entries kept; past this the older half is dropped."""
CACHED_PLAYS = 2_000_000
"""Plays kept in the move cache (a play made ready to make and unmake counts twice); past this
the older half of the racks is dropped."""
_COMPLETE = 1 << 30
"""The depth recorded for a table entry whose subtree never reached the horizon."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_PASS = -1
"""The index that stands for the pass in move lists."""
_NO_MOVE = -2
"""A table entry's best move when it is not known (a cut before the plays were made)."""
DEPTHS = (1, 2, 3, 4)
"""The depths of the first iterations; the next one goes to the end of the game."""
_INF = 1 << 40
"""Beyond any spread: the open ends of the search window."""


class EndgameError(LetrasError):
    """A position the endgame search cannot take: the bag is not empty, the game is over,
    it is not the viewer's turn, or the racks do not fit the position."""


# ----- positions and results ----------------------------------------------------------------


@dataclass(frozen=True)
class EndgamePosition:
    """A two-player position with the bag empty: the board, the rack of the player to move,
    the other player's rack, the rules, and the passes and scoreless turns in a row so far
    (they decide when passing ends the game); whether plays may join words on the board
    (the ``join_words_from_turn`` rule, kept as it stands now for the whole search)."""

    board: Board
    rack: tuple[int, ...]
    opponent_rack: tuple[int, ...]
    rules: RuleOptions
    passes_in_row: int = 0
    scoreless_in_row: int = 0
    may_join_words: bool = True

    def __post_init__(self) -> None:
        labels = self.board.edition.tiles.labels
        for name, rack in (("rack", self.rack), ("opponent's rack", self.opponent_rack)):
            if not rack:
                raise EndgameError(f"the {name} is empty: the game is over")
            bad = [t for t in rack if not 0 <= t < len(labels)]
            if bad:
                raise EndgameError(f"the {name} holds tile codes not in the edition: {bad}")
        object.__setattr__(self, "rack", tuple(sorted(self.rack)))
        object.__setattr__(self, "opponent_rack", tuple(sorted(self.opponent_rack)))
        if self.passes_in_row < 0 or self.scoreless_in_row < 0:
            raise EndgameError("passes and scoreless turns in a row cannot be negative")

    @classmethod
    def from_view(cls, view: PlayerView) -> EndgamePosition:
        """The position of a two-player game whose bag is empty, for the player to move; the
        opponent's rack is the unseen tiles."""
        _check_view(view)
        if len(view.scores) != 2:
            raise EndgameError(
                f"an exact endgame is for two players; this game has {len(view.scores)}"
            )
        opponent = 1 - view.player
        tiles = unseen_tiles(view)
        if len(tiles) != view.rack_counts[opponent]:
            raise EndgameError(
                f"the unseen tiles ({len(tiles)}) are not the opponent's rack "
                f"({view.rack_counts[opponent]} tiles)"
            )
        passes, scoreless = turns_in_row(view.turns, view.rules)
        return cls(view.board, tuple(view.rack), tiles, view.rules, passes, scoreless,
                   view.may_join_words)


@dataclass(frozen=True)
class EndgameResult:
    """What a search found.

    ``value``: two players, the spread change from now to the end of the game for the player
    to move if both play the principal variation (exact when ``exact``, else the deepest
    iteration's estimate); three or four players, the mean change of the final margin over the
    best opponent over the samples. ``depth`` is the plies of the deepest completed iteration
    (with more players: the samples played out). ``nodes`` counts positions searched (with more
    players: plays made in the play-outs).
    """

    best: Choice
    value: float
    principal_variation: tuple[Choice, ...]
    nodes: int
    depth: int
    exact: bool
    seconds: float
    candidates: tuple[tuple[Choice, float], ...] = field(default=(), repr=False)
    """With three or four players: every candidate with its value, best first."""
    iterations: tuple[Iteration, ...] = field(default=(), repr=False)
    """Two players: each completed iteration of the deepening."""


@dataclass(frozen=True)
class Iteration:
    """One completed iteration of the deepening: its depth, best move and value, and the
    positions searched and seconds spent since the search began."""

    depth: int
    best: Choice
    value: float
    nodes: int
    seconds: float


def solve(
    position: EndgamePosition | PlayerView,
    lexicon: WordGraph,
    limit: Limit = NO_LIMIT,
    *,
    seed: int = 0,
) -> EndgameResult:
    """Search an endgame (see the module docstring): exactly for two players (a position, or
    the view of the player to move), by sampled play-outs for three or four (a view; ``seed``
    fixes the samples)."""
    if isinstance(position, PlayerView):
        if len(position.scores) > 2:
            return _solve_multi(position, lexicon, limit, random.Random(seed))
        position = EndgamePosition.from_view(position)
    return _Search(position, lexicon, limit).run()


def unseen_tiles(view: PlayerView) -> tuple[int, ...]:
    """The unseen tiles (bag and other racks) as sorted tile codes."""
    return tuple(t for t, n in enumerate(view.unseen) for _ in range(n))


def turns_in_row(turns: Sequence[Turn], rules: RuleOptions) -> tuple[int, int]:
    """The passes and the scoreless turns in a row at the end of a scoresheet, counted as
    :class:`~letras.game.Game` counts them (a lost turn is scoreless but not a pass; a
    withdrawn play counts as one scoreless turn)."""
    passes = 0
    for turn in reversed(turns):
        if turn.kind == "pass" or (turn.kind == "exchange" and rules.exchange_counts_as_pass):
            passes += 1
        elif turn.kind not in ("lost-turn", "challenge-bonus", "challenge-penalty"):
            break
    scoreless, withdrawn = 0, False
    for turn in reversed(turns):
        if turn.kind == "play" and withdrawn:
            withdrawn = False
        elif turn.kind == "withdrawn":
            scoreless += 1
            withdrawn = True
        elif turn.kind in ("pass", "exchange", "timeout", "lost-turn") or (
            turn.kind == "play" and not turn.points
        ):
            scoreless += 1
        elif turn.kind not in ("challenge-bonus", "challenge-penalty"):
            break
    return passes, scoreless


def horizon_value(rack_value: int, rack_size: int, other_value: int, other_size: int) -> int:
    """The static guess at the horizon, for the side to move: one of the two will go out,
    the side with fewer tiles more likely (chance ``other_size / (rack_size + other_size)``
    for the side to move), and going out gains twice the tiles left on the other rack. Whole
    points (rounded down), so that the search can use null windows.

    >>> horizon_value(10, 1, 10, 1)
    0
    >>> horizon_value(1, 1, 10, 3)
    14
    """
    return (2 * other_size * other_value - 2 * rack_size * rack_value) // (rack_size + other_size)


# ----- the two-player search ----------------------------------------------------------------


class _Stop(Exception):
    """The limit is reached: abandon the iteration."""


@dataclass(slots=True)
class _Move:
    """A play ready to make and unmake: squares and tiles laid, the rack it leaves."""

    squares: tuple[int, ...]
    tiles: tuple[int, ...]
    leave: tuple[int, ...]
    zobrist: int


class _Moves:
    """The plays of one rack on one board (in the order generated, with what incremental
    generation needs: :class:`~letras.ai.endgame_plays.LanePlays`), turned into
    :class:`_Move` on demand. Their order, best first, and scores as lists are made the first
    time a node searches them: a node one ply above the horizon values them all at once
    (:func:`~letras.ai.endgame_plays.best_at_horizon`) and needs neither. Kept small: a
    search holds hundreds of thousands of these."""

    __slots__ = ("_order", "_scores", "lanes", "made", "meta", "opp_size", "opp_value",
                 "plays", "rack", "rack_value", "tiles")

    def __init__(self, plays: LanePlays, rack: tuple[int, ...], rack_value: int,
                 opp_size: int, opp_value: int) -> None:
        self.plays = plays
        self.rack = rack
        self.rack_value = rack_value
        self.opp_size = opp_size
        self.opp_value = opp_value
        self.meta = plays.meta
        self.tiles = plays.tiles
        self._order: list[int] | None = None
        self._scores: list[int] | None = None
        self.lanes: npt.NDArray[np.int64] | None = None
        self.made: dict[int, _Move] | None = None

    def lanes_on(self, board: npt.NDArray[np.uint8], size: int) -> npt.NDArray[np.int64]:
        """The lanes each play changes (:func:`~letras.ai.endgame_plays.play_lanes`);
        ``board`` must be the board these plays are for."""
        if self.lanes is None:
            self.lanes = play_lanes(self.meta, self.tiles, board, size)
        return self.lanes

    @property
    def order(self) -> list[int]:
        """Indices best first: plays that go out (highest first), then by their value one
        ply above the horizon (score less the reply's horizon value); among equals, the
        order generated."""
        if self._order is None:
            self._order = play_order(self.meta, self.plays.laid_value, len(self.rack),
                                     self.rack_value, self.opp_size, self.opp_value).tolist()
        return self._order

    @property
    def scores(self) -> list[int]:
        if self._scores is None:
            self._scores = self.meta[:, 4].tolist()
        return self._scores

    def __len__(self) -> int:
        return len(self.meta)

    def place(self, i: int) -> Place:
        row, col, direction, length = (int(x) for x in self.meta[i, :4])
        return Place(Square(row, col), Direction.ACROSS if direction == 0 else Direction.DOWN,
                     tuple(int(t) for t in self.tiles[i, :length]))


class _Search:
    def __init__(self, position: EndgamePosition, lexicon: WordGraph, limit: Limit) -> None:
        self.position = position
        self.lexicon = lexicon
        self.limit = limit
        board = position.board
        self.size = board.size
        self.board = board.copy()
        self.squares = self.board.squares
        self.board_array = np.frombuffer(self.squares, np.uint8)
        self.zobrist = _zobrist_table(len(self.squares))
        self.zboard = 0
        for i, t in enumerate(self.squares):
            if t:
                self.zboard ^= self.zobrist[i * 256 + t]
        rules = position.rules
        self.rules = rules
        self.bingo = rules.bingo_bonus
        self.join_words = position.may_join_words
        self.values = board.edition.tiles.values
        self.tile_points = _value_table(self.values)
        self.pass_end = 2 * rules.pass_rounds_to_end if rules.pass_rounds_to_end else 0
        self.scoreless_end = rules.scoreless_turns_to_end
        if not self.pass_end and not self.scoreless_end:
            self.pass_end = 2  # nothing else would end a game of passes: see the docstring
        self.no_play_ends = rules.end_when_no_play_possible and rules.exchange_min_bag > 0
        self.table: dict[tuple[int, tuple[int, ...], tuple[int, ...], int, int],
                         tuple[int, int, int, int]] = {}
        self.moves: dict[tuple[int, tuple[int, ...]], _Moves] = {}
        self.rack_bits = RackBits(position.rack + position.opponent_rack)
        # On the empty board the first play changes every lane (the centre is the anchor).
        self.incremental = any(self.squares)
        self.lane_masks: dict[int, npt.NDArray[np.bool_]] = {}
        self.cached_plays = 0
        self.rack_values: dict[tuple[int, ...], int] = {}
        self.nodes = 0
        self.generated = 0
        self.enforce = False
        self.deadline = float("inf")
        self.work = limit.work

    # ----- helpers ----------------------------------------------------------------------------

    def value_of(self, rack: tuple[int, ...]) -> int:
        v = self.rack_values.get(rack)
        if v is None:
            v = self.rack_values[rack] = sum(self.values[t] for t in rack)
        return v

    def plays_for(self, rack: tuple[int, ...], opp: tuple[int, ...] = (),
                  source: _Moves | None = None, changed: int = 0) -> _Moves:
        """The plays of ``rack`` on the board now (``opp``: the other rack, for their order):
        from the table of plays, else made from ``source`` (the plays of a rack that holds
        this one, on a board that differs from this one along the ``changed`` lanes only),
        else generated."""
        key = (self.zboard, rack)
        moves = self.moves.get(key)
        if moves is None:
            bits = self.rack_bits
            if source is None:
                plays = annotate(generate(self.board, rack, self.lexicon,
                                          bingo_bonus=self.bingo, join_words=self.join_words),
                                 bits, self.tile_points)
            else:
                lanes = self.lane_masks.get(changed)
                if lanes is None:
                    if len(self.lane_masks) >= 1 << 16:
                        self.lane_masks.clear()
                    lanes = self.lane_masks[changed] = (
                        (changed >> np.arange(2 * self.size)) & 1
                    ).astype(np.bool_).reshape(2, self.size)
                new = generate(self.board, rack, self.lexicon, bingo_bonus=self.bingo,
                               join_words=self.join_words, lanes=lanes)
                plays = derive(source.plays, changed, bits.of(source.rack) & ~bits.of(rack),
                               new, bits, self.tile_points)
            self.generated += 1
            moves = _Moves(plays, rack, self.value_of(rack), len(opp), self.value_of(opp))
            self.cached_plays += len(moves) + 1
            if self.cached_plays > CACHED_PLAYS:
                self._trim_moves()
            self.moves[key] = moves
        return moves

    def _trim_moves(self) -> None:
        keys = list(self.moves)
        for key in keys[: len(keys) // 2]:
            moves = self.moves.pop(key)
            self.cached_plays -= len(moves) + 1 + len(moves.made or ())

    def move(self, moves: _Moves, i: int, rack: tuple[int, ...]) -> _Move:
        m = moves.made.get(i) if moves.made is not None else None
        if m is None:
            if moves.made is None:
                moves.made = {}
            row, col, direction, length = moves.meta[i, :4].tolist()
            step = 1 if direction == 0 else self.size
            sq = row * self.size + col
            squares, tiles = [], []
            left = list(rack)
            z = 0
            zobrist = self.zobrist
            for t in moves.tiles[i, :length].tolist():
                if t:
                    squares.append(sq)
                    tiles.append(t)
                    left.remove(0 if t & BLANK_BIT else t)
                    z ^= zobrist[sq * 256 + t]
                sq += step
            m = _Move(tuple(squares), tuple(tiles), tuple(left), z)
            assert moves.made is not None
            moves.made[i] = m
            self.cached_plays += 1
        return m

    def choice(self, moves: _Moves, i: int) -> Choice:
        return Pass() if i == _PASS else moves.place(i)

    def store(self, key: tuple[int, tuple[int, ...], tuple[int, ...], int, int],
              entry: tuple[int, int, int, int]) -> None:
        table = self.table
        if len(table) >= TABLE_SIZE and key not in table:
            keys = list(table)
            for old in keys[: len(keys) // 2]:
                del table[old]
        table[key] = entry

    def counters_key(self, passes: int, scoreless: int) -> tuple[int, int]:
        # Without a scoreless rule that count cannot matter: left out, so more positions meet.
        return passes, scoreless if self.scoreless_end else 0

    # ----- the search ---------------------------------------------------------------------

    def full_depth(self) -> int:
        """Plies that reach the end of the game from the root whatever is played: each play
        lays a tile, and fewer passes (or scoreless turns) than end the game come between."""
        pos = self.position
        tiles = len(pos.rack) + len(pos.opponent_rack)
        ends = [n for n in (self.pass_end, self.scoreless_end) if n]
        return (tiles + 1) * min(ends)

    def run(self) -> EndgameResult:
        announce_first_compile(endgame_plays, "_merge", "the endgame search")
        start = time.perf_counter()
        self.deadline = self.limit.deadline(start)
        pos = self.position
        me, opp = pos.rack, pos.opponent_rack
        passes, scoreless = pos.passes_in_row, pos.scoreless_in_row
        best, value, depth, exact = _PASS, 0, 0, False
        iterations: list[Iteration] = []
        schedule = [d for d in DEPTHS if d < self.full_depth()] + [self.full_depth()]
        d = schedule.pop(0)
        while True:
            self.enforce = d > 1
            try:
                # The other side's plays on this board are the source of its plays after
                # each move of ours (as if it had just passed).
                other = self.plays_for(opp, me) if self.incremental else None
                v, complete = self.negamax(me, opp, passes, scoreless, d, -_INF, _INF,
                                           None, 0, other, 0)
            except _Stop:
                break
            root = self.table.get((self.zboard, me, opp, *self.counters_key(passes, scoreless)))
            # No entry: neither side can play, so the game is over and the pass is all there is.
            best, value, depth = root[3] if root is not None else _PASS, v, d
            iterations.append(Iteration(d, self.choice(self.plays_for(me), best), v, self.nodes,
                                        time.perf_counter() - start))
            if complete:
                exact = True
                break
            # The deepest iteration reaches every end: it is complete. (Twice as deep again
            # is a guard that costs nothing when the bound holds.)
            d = schedule.pop(0) if schedule else 2 * d
        moves = self.plays_for(me)
        pv = self.principal_variation(me, opp, passes, scoreless)
        if not pv or pv[0] != self.choice(moves, best):
            pv = (self.choice(moves, best),)
        return EndgameResult(self.choice(moves, best), value, pv, self.nodes, depth, exact,
                             time.perf_counter() - start, iterations=tuple(iterations))

    def negamax(
        self, me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int,
        depth: int, alpha: int, beta: int, source: _Moves | None = None, changed: int = 0,
        parent: _Moves | None = None, parent_changed: int = 0,
    ) -> tuple[int, bool]:
        """The value for the side to move (rack ``me``), and whether it is complete (no
        horizon below): then it is a true bound of the game's value, exact inside the window.

        Principal variation search: the first move with the whole window, the others with a
        null window, searched again only when they beat the best so far.

        ``source``: this side's plays two plies up, and the lanes ``changed`` since then;
        ``parent``: the other side's plays one ply up, and the lanes ``parent_changed``
        changed by its move (the plays here are made from them: :meth:`plays_for`)."""
        self.nodes += 1
        if self.enforce and (
            (self.work is not None and self.nodes > self.work)
            or time.perf_counter() > self.deadline
        ):
            raise _Stop
        key = (self.zboard, me, opp, passes, scoreless if self.scoreless_end else 0)
        entry = self.table.get(key)
        hint = None
        if entry is not None:
            edepth, kind, evalue, hint = entry
            if edepth >= depth and (
                kind == _EXACT
                or (kind == _LOWER and evalue >= beta)
                or (kind == _UPPER and evalue <= alpha)
            ):
                return evalue, edepth == _COMPLETE
        values = self.rack_values
        me_value = values.get(me)
        if me_value is None:
            me_value = self.value_of(me)
        opp_value = values.get(opp)
        if opp_value is None:
            opp_value = self.value_of(opp)
        if depth == 0:
            return horizon_value(me_value, len(me), opp_value, len(opp)), False
        if not self.incremental:
            source = parent = None
        elif depth == 1 and source is not None and (self.zboard, me) not in self.moves:
            cut = self.cut_at_horizon(key, me, opp, passes, scoreless, beta, source, changed)
            if cut is not None:
                return cut
        moves = self.plays_for(me, opp, source, changed)
        if not len(moves) and self.no_play_ends and not len(self.plays_for(
            opp, (), parent, parent_changed
        )):
            # Neither side can play: the game ends, each losing their own rack.
            return opp_value - me_value, True
        if depth == 1:
            return self.last_ply(key, me, opp, passes, scoreless, moves)

        alpha0 = alpha
        best, best_i, complete = -_INF, _PASS, True
        order = moves.order
        if hint is not None and hint >= 0:
            order = order.copy()
            order.remove(hint)
            order.insert(0, hint)
        sequence = [_PASS, *order] if hint == _PASS else [*order, _PASS]
        squares, zobrist_board = self.squares, self.zboard
        made, scores = moves.made, moves.scores
        lanes_of = moves.lanes_on(self.board_array, self.size)
        # What each move's reply is worth at least (from the other side's plays two plies up,
        # in compiled code, a few moves at a time as the loop reaches them): a move whose
        # reply already refutes it is not made (the reply would cut at once).
        bounds: dict[int, tuple[int, bool]] = {}
        bounded = 0 if parent is not None and len(moves) else len(sequence)
        chunk = 4
        k = -1
        first = True
        for i in sequence:
            k += 1
            if k >= bounded:
                which = np.array([j for j in sequence[k:k + chunk] if j >= 0], np.int64)
                bounded, chunk = k + chunk, 4 * chunk
                assert parent is not None
                bound, ends, known = child_bounds(
                    which, moves.meta, moves.plays.laid_value, moves.lanes, len(me), me_value,
                    parent.meta, parent.plays.lane, parent.plays.used,
                    parent.plays.laid_value, parent_changed,
                    self.rack_bits.of(parent.rack) & ~self.rack_bits.of(opp), len(opp),
                    opp_value, scoreless, self.pass_end, self.scoreless_end,
                    self.no_play_ends, depth == 2)
                for j, b, e, kn in zip(which.tolist(), bound.tolist(), ends.tolist(),
                                       known.tolist(), strict=True):
                    if kn:
                        bounds[j] = (scores[j] - b, e)
            upper = bounds.get(i)
            if upper is not None and upper[0] <= alpha:
                self.nodes += 1
                v, c = upper
            elif i == _PASS:
                np_, ns = passes + 1, scoreless + 1
                if (self.pass_end and np_ >= self.pass_end) or (
                    self.scoreless_end and ns >= self.scoreless_end
                ):
                    v, c = opp_value - me_value, True
                else:
                    if first:
                        cv, c = self.negamax(opp, me, np_, ns, depth - 1, -beta, -alpha,
                                             parent, parent_changed, moves, 0)
                    else:
                        cv, c = self.negamax(opp, me, np_, ns, depth - 1, -alpha - 1, -alpha,
                                             parent, parent_changed, moves, 0)
                        if alpha < -cv < beta:
                            cv, c = self.negamax(opp, me, np_, ns, depth - 1, -beta, -alpha,
                                                 parent, parent_changed, moves, 0)
                    v = -cv
            else:
                m = made.get(i) if made is not None else None
                if m is None:
                    m = self.move(moves, i, me)
                    made = moves.made
                score = scores[i]
                if not m.leave:
                    v, c = score + 2 * opp_value, True
                else:
                    ns = 0 if score else scoreless + 1
                    if self.scoreless_end and ns >= self.scoreless_end:
                        v, c = score + opp_value - self.value_of(m.leave), True
                    else:
                        for sq, t in zip(m.squares, m.tiles, strict=True):
                            squares[sq] = t
                        self.zboard = zobrist_board ^ m.zobrist
                        lanes = int(lanes_of[i])
                        since = parent_changed | lanes
                        try:
                            if first:
                                cv, c = self.negamax(opp, m.leave, 0, ns, depth - 1,
                                                     score - beta, score - alpha,
                                                     parent, since, moves, lanes)
                            else:
                                cv, c = self.negamax(opp, m.leave, 0, ns, depth - 1,
                                                     score - alpha - 1, score - alpha,
                                                     parent, since, moves, lanes)
                                if alpha < score - cv < beta:
                                    cv, c = self.negamax(opp, m.leave, 0, ns, depth - 1,
                                                         score - beta, score - alpha,
                                                         parent, since, moves, lanes)
                        finally:
                            for sq in m.squares:
                                squares[sq] = 0
                            self.zboard = zobrist_board
                        v = score - cv
            first = False
            complete = complete and c
            if v > best:
                best, best_i = v, i
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        kind = _UPPER if best <= alpha0 else _LOWER if best >= beta else _EXACT
        self.store(key, (_COMPLETE if complete else depth, kind, best, best_i))
        return best, complete

    def pass_at_horizon(self, me: tuple[int, ...], opp: tuple[int, ...], passes: int,
                        scoreless: int) -> tuple[int, bool]:
        """The value of passing one ply above the horizon, and whether it ends the game."""
        if (self.pass_end and passes + 1 >= self.pass_end) or (
            self.scoreless_end and scoreless + 1 >= self.scoreless_end
        ):
            return self.value_of(opp) - self.value_of(me), True
        return -horizon_value(self.value_of(opp), len(opp), self.value_of(me), len(me)), False

    def cut_at_horizon(
        self, key: tuple[int, tuple[int, ...], tuple[int, ...], int, int],
        me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int, beta: int,
        source: _Moves, changed: int,
    ) -> tuple[int, bool] | None:
        """One ply above the horizon, before any play is generated: if the pass or a play
        known from ``source`` (along a lane not changed since) already reaches ``beta``, that
        lower bound (and whether its move ends the game); else None. The plays along the
        changed lanes could only raise the value."""
        me_value = self.value_of(me)
        stop = bool(self.scoreless_end and scoreless + 1 >= self.scoreless_end)
        outside = self.rack_bits.of(source.rack) & ~self.rack_bits.of(me)
        best, i, complete = best_kept(source.meta, source.plays.lane, source.plays.used,
                                      source.plays.laid_value, changed, outside, len(me),
                                      me_value, len(opp), self.value_of(opp), stop, False)
        if i < 0 and self.no_play_ends:
            return None  # perhaps neither side can play: plays_for must know
        value, ends = self.pass_at_horizon(me, opp, passes, scoreless)
        move = _NO_MOVE
        if i < 0 or value > best:
            best, complete, move = value, ends, _PASS
        if best < beta:
            return None
        self.store(key, (_COMPLETE if complete else 1, _LOWER, best, move))
        return best, complete

    def last_ply(
        self, key: tuple[int, tuple[int, ...], tuple[int, ...], int, int],
        me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int, moves: _Moves,
    ) -> tuple[int, bool]:
        """A node one ply above the horizon, every move valued at once (the replies are
        valued by :func:`horizon_value`, which needs only the tiles each play keeps)."""
        me_value, opp_value, n_opp = self.value_of(me), self.value_of(opp), len(opp)
        best, best_i, complete = -_INF, _PASS, True
        if len(moves.meta):
            stop = bool(self.scoreless_end and scoreless + 1 >= self.scoreless_end)
            best, best_i, complete = best_at_horizon(moves.meta, moves.plays.laid_value,
                                                     len(me), me_value, n_opp, opp_value, stop)
        np_, ns = passes + 1, scoreless + 1
        if (self.pass_end and np_ >= self.pass_end) or (
            self.scoreless_end and ns >= self.scoreless_end
        ):
            v = opp_value - me_value
        else:
            v = -horizon_value(opp_value, n_opp, me_value, len(me))
            complete = False
        if v > best:
            best, best_i = v, _PASS
        self.store(key, (_COMPLETE if complete else 1, _EXACT, best, best_i))
        return best, complete

    def principal_variation(
        self, me: tuple[int, ...], opp: tuple[int, ...], passes: int, scoreless: int
    ) -> tuple[Choice, ...]:
        """The best moves from the root as the table records them, up to the end of the game
        (or where the table has no exact entry)."""
        out: list[Choice] = []
        made: list[_Move] = []
        zboard = self.zboard
        try:
            for _ in range(200):
                key = (self.zboard, me, opp, *self.counters_key(passes, scoreless))
                entry = self.table.get(key)
                if entry is None or entry[1] != _EXACT:
                    break
                i = entry[3]
                moves = self.plays_for(me)
                out.append(self.choice(moves, i))
                if i == _PASS:
                    passes, scoreless = passes + 1, scoreless + 1
                    if (self.pass_end and passes >= self.pass_end) or (
                        self.scoreless_end and scoreless >= self.scoreless_end
                    ):
                        break
                    me, opp = opp, me
                    continue
                m = self.move(moves, i, me)
                if not m.leave:
                    break
                for sq, t in zip(m.squares, m.tiles, strict=True):
                    self.squares[sq] = t
                self.zboard ^= m.zobrist
                made.append(m)
                scoreless = 0 if moves.scores[i] else scoreless + 1
                passes = 0
                me, opp = opp, m.leave
                if self.scoreless_end and scoreless >= self.scoreless_end:
                    break
        finally:
            for m in made:
                for sq in m.squares:
                    self.squares[sq] = 0
            self.zboard = zboard
        return tuple(out)


_ZOBRIST: dict[int, list[int]] = {}


def _zobrist_table(squares: int) -> list[int]:
    """A random 128-bit number per (square, tile code), at ``square * 256 + code``; fixed."""
    table = _ZOBRIST.get(squares)
    if table is None:
        rng = random.Random(0x1E77A5)
        table = _ZOBRIST[squares] = [rng.getrandbits(128) for _ in range(squares * 256)]
    return table


# ----- three or four players ----------------------------------------------------------------


def _check_view(view: PlayerView) -> None:
    if view.over:
        raise EndgameError("the game is over")
    if view.bag_count:
        raise EndgameError(f"the bag is not empty ({view.bag_count} tiles): not an endgame")
    if view.to_move != view.player:
        names = view.player_names
        raise EndgameError(f"it is {names[view.to_move]}'s turn, not {names[view.player]}'s")


def _value_table(values: Sequence[int]) -> npt.NDArray[np.int64]:
    """Points of each board tile code (blanks, whatever they stand for, are 0)."""
    table = np.zeros(256, np.int64)
    table[: len(values)] = values
    table[BLANK_BIT:] = 0
    return table


def _ranking(plays: Plays, rack_value: int, rack_size: int, out_bonus: float,
             table: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
    """Endgame equity of each play: score, minus twice the face value of the tiles kept, plus
    ``out_bonus`` for going out."""
    scores = plays.scores().astype(np.float64)
    placed_value = table[plays.tiles].sum(axis=1)
    kept = rack_value - placed_value
    out = plays.meta[:, 5] == rack_size
    rank: npt.NDArray[np.float64] = scores - 2.0 * kept + np.where(out, out_bonus, 0.0)
    return rank


def _solve_multi(
    view: PlayerView, lexicon: WordGraph, limit: Limit, rng: random.Random
) -> EndgameResult:
    _check_view(view)
    start = time.perf_counter()
    deadline = limit.deadline(start)
    n = len(view.scores)
    me = view.player
    seats = [(me + k) % n for k in range(n)]
    unseen = list(unseen_tiles(view))
    sizes = [view.rack_counts[s] for s in seats[1:]]
    if len(unseen) != sum(sizes):
        raise EndgameError(
            f"the unseen tiles ({len(unseen)}) are not the other racks ({sum(sizes)} tiles)"
        )
    if not view.rack:
        raise EndgameError("the rack is empty: the game is over")
    edition = view.edition
    values = edition.tiles.values
    table = _value_table(values)
    rack = tuple(sorted(view.rack))
    plays = generate(view.board, rack, lexicon, bingo_bonus=view.rules.bingo_bonus,
                     join_words=view.may_join_words)
    rack_value = sum(values[t] for t in rack)
    unseen_value = sum(values[t] for t in unseen)
    candidates: list[Choice] = []
    if len(plays):
        rank = _ranking(plays, rack_value, len(rack), float(unseen_value), table)
        for i in np.argsort(-rank, kind="stable")[:MULTI_CANDIDATES].tolist():
            candidates.append(plays.place(i))
    candidates.append(Pass())
    passes, scoreless = turns_in_row(view.turns, view.rules)
    margin_now = view.scores[me] - max(s for p, s in enumerate(view.scores) if p != me)
    totals = [0.0] * len(candidates)
    playout = _Playout(view, lexicon, table, passes, scoreless)
    samples = 0
    budget = MULTI_SAMPLES if limit.unlimited else None
    while True:
        rng.shuffle(unseen)
        racks: dict[int, list[int]] = {me: list(rack)}
        k = 0
        for seat, size in zip(seats[1:], sizes, strict=True):
            racks[seat] = sorted(unseen[k:k + size])
            k += size
        for c, choice in enumerate(candidates):
            final = playout.run(choice, racks)
            best_other = max(s for p, s in enumerate(final) if p != me)
            totals[c] += final[me] - best_other - margin_now
        samples += 1
        if len(candidates) == 1 or (budget is not None and samples >= budget):
            break
        if time.perf_counter() > deadline or (
            limit.work is not None and playout.plays >= limit.work
        ):
            break
    means = [t / samples for t in totals]
    ranked = sorted(zip(candidates, means, strict=True), key=lambda cm: -cm[1])
    best, value = ranked[0]
    return EndgameResult(best, value, (best,), playout.plays, samples, False,
                         time.perf_counter() - start, tuple(ranked))


class _Playout:
    """Plays a game with an empty bag to its end, every seat by the quick policy of the module
    docstring, and gives the final scores."""

    def __init__(self, view: PlayerView, lexicon: WordGraph, table: npt.NDArray[np.int64],
                 passes: int, scoreless: int) -> None:
        self.view = view
        self.lexicon = lexicon
        self.table = table
        self.values = view.edition.tiles.values
        self.passes = passes
        self.scoreless = scoreless
        self.plays = 0
        rules = view.rules
        n = len(view.scores)
        self.n = n
        self.pass_end = rules.pass_rounds_to_end * n
        self.scoreless_end = rules.scoreless_turns_to_end
        self.bingo = rules.bingo_bonus
        self.join_words = view.may_join_words

    def run(self, first: Choice, deal: dict[int, list[int]]) -> list[int]:
        view = self.view
        n = self.n
        board = view.board.copy()
        racks = [list(deal[p]) for p in range(n)]
        scores = list(view.scores)
        passes, scoreless, stuck = self.passes, self.scoreless, 0
        seat = view.player
        choice: Choice | None = first
        while True:
            rack = racks[seat]
            if choice is None:
                choice = self.policy(board, rack)
                stuck = stuck + 1 if isinstance(choice, Pass) else 0
            if isinstance(choice, Place):
                points = self.lay(board, choice, rack)
                scores[seat] += points
                self.plays += 1
                passes = 0
                scoreless = 0 if points else scoreless + 1
                if not rack:
                    gain = sum(self.values[t] for r in racks for t in r)
                    for p in range(n):
                        scores[p] -= sum(self.values[t] for t in racks[p])
                    scores[seat] += gain
                    return scores
            else:
                passes += 1
                scoreless += 1
            if (
                (self.pass_end and passes >= self.pass_end)
                or (self.scoreless_end and scoreless >= self.scoreless_end)
                or stuck >= n
            ):
                # A full round of seats that could not play ends it too: nothing can change.
                for p in range(n):
                    scores[p] -= sum(self.values[t] for t in racks[p])
                return scores
            seat = (seat + 1) % n
            choice = None

    def policy(self, board: Board, rack: list[int]) -> Choice:
        plays = generate(board, rack, self.lexicon, bingo_bonus=self.bingo,
                         join_words=self.join_words)
        if not len(plays):
            return Pass()
        rack_value = sum(self.values[t] for t in rack)
        rank = _ranking(plays, rack_value, len(rack), 1000.0, self.table)
        return plays.place(int(np.argmax(rank)))

    def lay(self, board: Board, place: Place, rack: list[int]) -> int:
        points = score_play(board, place, self.bingo).total
        for sq, t in place.placed():
            board[sq] = t
            rack.remove(rack_tile(t))
        return points


# ----- the player ---------------------------------------------------------------------------


class EndgamePlayer(Player):
    """Searches the endgame once the bag is empty (see the module docstring); before that,
    plays as the ``equity`` level.

    Two players: without a limit from its caller it spends :data:`DEFAULT_LIMIT`
    (``default_limit``) and answers the best move of the deepest iteration completed in it,
    the exact best move whenever the search finished. Three or four players: the play-outs of
    the module docstring, within the caller's limit, or :data:`MULTI_SAMPLES` deals.
    """

    level = "endgame"

    def __init__(
        self,
        lexicon: WordGraph,
        *,
        seed: int | None = None,
        default_limit: Limit = DEFAULT_LIMIT,
    ) -> None:
        super().__init__(lexicon, seed=seed)
        self.default_limit = default_limit
        self.fallback = EquityPlayer(lexicon, seed=seed)

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        if view.bag_count > 0 or view.over or not view.rack:
            return self.fallback.choose(view, limit)
        if len(view.scores) > 2:
            # Without a limit, the play-outs stop after MULTI_SAMPLES deals by themselves. The
            # deals are drawn from a seed made of the player's seed and the position, so the
            # choice depends on the view alone.
            seed = zlib.crc32(bytes(view.board.squares) + bytes(view.rack)) ^ (self.seed or 0)
            return solve(view, self.lexicon, limit, seed=seed).best
        spend = self.default_limit if limit.unlimited else limit
        return solve(view, self.lexicon, spend).best


__all__ = [
    "DEFAULT_LIMIT",
    "DEPTHS",
    "MULTI_CANDIDATES",
    "MULTI_SAMPLES",
    "EndgameError",
    "EndgamePlayer",
    "EndgamePosition",
    "EndgameResult",
    "Iteration",
    "horizon_value",
    "solve",
    "turns_in_row",
    "unseen_tiles",
]
