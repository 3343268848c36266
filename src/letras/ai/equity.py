"""The ``equity`` level: the play worth most now and for the turns to come.

Every legal play, every exchange the bag allows and the pass are valued as

    equity = score + leave term + positional terms

and the highest is chosen (on a tie, a play before an exchange before a pass).

- **Leave term, bag not empty**: the value of the tiles kept, from a pluggable
  :class:`~letras.ai.leaves.LeaveEvaluator` (default: the edition's trained leave file if the
  package ships one, else its :class:`~letras.ai.leaves.HeuristicLeaves`). An exchange
  scores 0 and keeps what it does not throw back; a pass keeps the whole rack.
- **Leave term, bag empty** (the endgame): a rack that is not played out will most likely be
  caught when the opponent goes out, and then counts twice (its points go to the opponent
  and come off our own score): a play keeping tiles loses twice their face value, and a play
  that goes out gains twice the tiles still on the other racks (with more opponents: all of
  them, plus their share of the spread, ``n / (n - 1)`` times the total).
- **Positional terms**: on the empty board, each vowel placed beside a letter premium of the
  next line costs :data:`OPENING_HOTSPOT_COST` (it lets the reply put a heavy tile on that
  premium both ways). A pass that would end the game by passes is worth the final margin it
  leaves (rack penalties included): good when ahead, ruinous when behind.

Each leave the rack can keep (at most 128) is valued once per choice: with a
:class:`~letras.ai.leaves.klv.LeaveTable` all at once in compiled code
(:meth:`~letras.ai.leaves.klv.LeaveTable.rack_leaves`, the endgame and ramp terms applied in
arrays), with any other evaluator leave by leave through a cache. On a board with tiles the move
generator's bound-and-prune search ranks the plays by equity itself
(:func:`letras.movegen.top_by_equity`); on the empty board every play is generated and valued
in arrays, since the positional term depends on the squares.

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> from letras.ai.simple import GreedyPlayer
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["DAUNTS", "TUNED"])
>>> view = Game(en, ["Ana", "Bruno"], seed=22, lexicon=words).view(0)
>>> en.tiles.format(view.rack, rack=True)
'ADENSTU'
>>> GreedyPlayer(words).choose(view).notation(en)     # 18 points, keeping an E
'8D DAUNTS'
>>> [(c.choice.notation(en), round(c.equity, 1), c.score)   # 16, keeping A and S
...  for c in EquityPlayer(words).ranked(view, 2)]
[('8H TUNED', 20.0, 16), ('H8 TUNED', 20.0, 16)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from letras.ai.leaves import HeuristicLeaves, LeaveEvaluator, shipped_leaves
from letras.ai.leaves.klv import LeaveTable
from letras.ai.player import NO_LIMIT, Choice, Limit, Player, can_exchange
from letras.board import Direction
from letras.editions import Edition
from letras.game import PlayerView
from letras.layout import Premium
from letras.lexicon.kwg import WordGraph
from letras.movegen import Plays, generate, top_by_equity
from letras.movegen.columns import ACROSS, COL, DIRECTION, LENGTH, ROW
from letras.movegen.leaves import LeaveNumbering, RackLeaves, leave_table
from letras.play import Exchange, Pass
from letras.rack import leave as kept_after
from letras.rack import without
from letras.scoring import score as play_score
from letras.tiles import BLANK_BIT

OPENING_HOTSPOT_COST = 0.7
"""Points off for each vowel of an opening play on a square beside a letter premium."""
ENDGAME_STUCK_FACTOR = 2.0
"""In the endgame, tiles kept cost this many times their face value."""
EXCHANGE_BONUS = 6.0
"""Points credited to an exchange on top of the leave it keeps. The heuristic leaves value the
tiles kept, not the relief of drawing fresh ones for a clumsy rack. Tuned in self-play against
``greedy`` (2 x 1,000 pt-BR games a setting), together with the leave weights: each step of
the bonus (0, 3, 6) was worth one to two points of win rate; 9 was no better than 6."""
TRAINED_EXCHANGE_BONUS = 0.0
"""The exchange bonus with leave values learned by self-play."""
LEAVE_RAMP_BAG = 12
"""While the bag holds fewer tiles than this, a good leave counts for less (bag / this): few
turns remain to use it. A bad leave keeps its full cost (those tiles may get stuck)."""
STALLED_ROUNDS = 2
"""Scoreless rounds after which a rack with no tile play passes instead of exchanging."""
CACHE_SIZE = 200_000
"""Leave values kept between choices before the cache is cleared."""


@dataclass(frozen=True)
class Candidate:
    """An action with its equity and its score."""

    choice: Choice
    equity: float
    score: int


class EquityPlayer(Player):
    """Score plus leave plus position; see the module docstring."""

    level = "equity"

    def __init__(
        self,
        lexicon: WordGraph,
        *,
        seed: int | None = None,
        leaves: LeaveEvaluator | None = None,
    ) -> None:
        super().__init__(lexicon, seed=seed)
        self.leaves = leaves
        self._cache: dict[tuple[int, ...], float] = {}
        self._cached_for: LeaveEvaluator | None = None

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        return self.ranked(view, 1)[0].choice

    def ranked(self, view: PlayerView, n: int = 10) -> list[Candidate]:
        """The ``n`` best actions, best first (always at least the pass)."""
        leaves = self.leaves or shipped_leaves(view.edition)
        if leaves is not self._cached_for or len(self._cache) > CACHE_SIZE:
            self._cache.clear()
            self._cached_for = leaves
        rack = view.rack
        kept = LeaveNumbering(rack)
        term = _LeaveTerm(view, leaves, self._cache)
        out: list[Candidate] = []

        bingo = view.rules.bingo_bonus
        if view.board.is_empty():
            # The opening's positional term is per square: value every play.
            plays = generate(view.board, rack, self.lexicon, bingo_bonus=bingo)
            out.extend(_opening(plays, kept, term, view.edition, n))
        else:
            # The generator's bound-and-prune search by equity, with every leave's value.
            for place, score, equity in top_by_equity(
                view.board, rack, self.lexicon, n, term.table, bingo_bonus=bingo,
                join_words=view.may_join_words,
            ):
                out.append(Candidate(place, equity, score))
        tile_plays = len(out)
        if can_exchange(view) and (tile_plays or not _stalled(view)):
            bonus = exchange_bonus(leaves)
            for index in range(kept.full - 1, -1, -1):  # every leave but the whole rack
                keep = kept.leave(index)
                thrown = tuple(sorted(without(rack, keep)))
                value = float(term.table.values[index])
                out.append(Candidate(Exchange(thrown), value + bonus, 0))
        out.append(Candidate(Pass(), term.pass_value(), 0))
        kind = {Exchange: 1, Pass: 2}
        out.sort(key=lambda c: (-c.equity, kind.get(type(c.choice), 0)))
        return out[:n]

    def value(self, view: PlayerView, choice: Choice) -> Candidate:
        """The equity of one action of the player to move, valued as :meth:`ranked` values
        it, whether or not the lexicon holds its words (game analysis values the play that was
        made). A play's tiles must be on the rack: the terms are those of the module
        docstring, a play's score is the rules' for the board as it stands."""
        leaves = self.leaves or shipped_leaves(view.edition)
        term = _LeaveTerm(view, leaves, self._cache)
        kept = LeaveNumbering(view.rack)
        if isinstance(choice, Pass):
            return Candidate(choice, term.pass_value(), 0)
        if isinstance(choice, Exchange):
            keep = without(view.rack, choice.tiles)
            value = float(term.table.values[kept.index(keep)])
            return Candidate(choice, value + exchange_bonus(leaves), 0)
        points = play_score(view.board, choice, view.rules.bingo_bonus).total
        equity = points + float(term.table.values[kept.index(kept_after(view.rack, choice))])
        if view.board.is_empty():
            beside, vowels = _edition_masks(view.edition)
            size = view.edition.layout.size
            across = choice.direction is Direction.ACROSS
            r, c = choice.square.row, choice.square.col
            for k, t in enumerate(choice.tiles):
                rr, cc = (r, c + k) if across else (r + k, c)
                square = rr * size + cc if across else cc * size + rr
                if rr < size and cc < size and beside[square] and vowels[t]:
                    equity -= OPENING_HOTSPOT_COST
        return Candidate(choice, equity, points)


def _opening(
    plays: Plays, kept: LeaveNumbering, term: _LeaveTerm, edition: Edition, n: int
) -> list[Candidate]:
    """The ``n`` best plays on the empty board: score + leave - vowels beside premiums."""
    if not len(plays):
        return []
    values = term.table.values[kept.after(plays.tiles)]
    scores = plays.scores()
    equity = scores + values
    equity -= OPENING_HOTSPOT_COST * _hotspot_vowels(plays, edition)
    # Best first; among equals, the order generated (argmax and the stable sort agree).
    best = [np.argmax(equity)] if n == 1 else np.argsort(-equity, kind="stable")[:n]
    return [Candidate(plays.place(int(i)), float(equity[i]), int(scores[i])) for i in best]


class _LeaveTerm:
    """The leave term of one position: leave values while the bag holds tiles, endgame
    penalties and bonuses once it is empty. :attr:`table` holds the term of every leave of the
    rack: all at once from a :class:`~letras.ai.leaves.klv.LeaveTable`, else asked of the evaluator
    leave by leave (through the cache)."""

    def __init__(
        self, view: PlayerView, leaves: LeaveEvaluator, cache: dict[tuple[int, ...], float]
    ) -> None:
        self.view = view
        self.leaves = leaves
        self.cache = cache
        self.values = view.edition.tiles.values
        self.endgame = view.bag_count == 0
        self.weight = min(1.0, view.bag_count / LEAVE_RAMP_BAG) if LEAVE_RAMP_BAG else 1.0
        opponents = len(view.scores) - 1
        unseen = sum(n * self.values[t] for t, n in enumerate(view.unseen))
        self.out_bonus = unseen * (opponents + 1) / max(opponents, 1)
        self.table: RackLeaves
        if self.endgame:
            self.table = endgame_leaves(view.rack, self.values, self.out_bonus)
        elif isinstance(leaves, LeaveTable):
            self.table = ramped(leaves.rack_leaves(view.rack), self.weight)
        else:
            self.table = ramped(leave_table(view.rack, self._raw_value), self.weight)

    def _raw_value(self, leave: tuple[int, ...]) -> float:
        v = self.cache.get(leave)
        if v is None:
            v = self.cache[leave] = float(self.leaves.value(leave))
        return v

    def pass_value(self) -> float:
        """A pass keeps the rack; if it ends the game, it is worth the final margin."""
        view = self.view
        if _pass_ends_game(view):
            return _final_margin(view, self.values) * 1000.0
        return float(self.table.values[-1])  # every tile kept: the last index


def ramped(raw: RackLeaves, weight: float) -> RackLeaves:
    """The leave term while the bag holds tiles, from the evaluator's values of a rack's
    leaves: a good leave's value times ``weight`` (the ramp of :data:`LEAVE_RAMP_BAG`), a bad
    leave's in full.

    >>> import numpy as np
    >>> ramped(RackLeaves(np.array([0.0, 4.0, -2.0]), np.zeros(64, np.int64)), 0.5).values
    array([ 0.,  2., -2.])
    """
    values = raw.values
    return RackLeaves(np.where(values > 0, values * weight, values), raw.radix)


def endgame_leaves(rack: Sequence[int], values: Sequence[int], out_bonus: float) -> RackLeaves:
    """The leave term of every leave of ``rack`` once the bag is empty: ``out_bonus`` for
    going out (keeping nothing), else :data:`ENDGAME_STUCK_FACTOR` times the face value of the
    tiles kept, as a cost; ``values`` are the tiles' face values by code.

    >>> endgame_leaves([3, 1, 3], [0, 1, 0, 4], 30.0).values.tolist()  # (), 1, 3, 13, 33, 133
    [30.0, -2.0, -8.0, -10.0, -16.0, -18.0]
    """
    numbering = LeaveNumbering(rack)
    index = np.arange(numbering.size)
    face = np.zeros(numbering.size, np.int64)
    for t in numbering.codes:
        face += numbering.kept_of(index, t) * values[t]
    term = face * np.float64(-ENDGAME_STUCK_FACTOR)
    term[0] = out_bonus
    return RackLeaves(term, numbering.radix)


def exchange_bonus(leaves: LeaveEvaluator) -> float:
    """What an exchange is credited on top of its leave: :data:`EXCHANGE_BONUS` with the
    heuristic leaves, :data:`TRAINED_EXCHANGE_BONUS` with learned ones, which already know what
    drawing fresh tiles is worth."""
    return EXCHANGE_BONUS if isinstance(leaves, HeuristicLeaves) else TRAINED_EXCHANGE_BONUS


def _stalled(view: PlayerView) -> bool:
    """Has every seat gone :data:`STALLED_ROUNDS` rounds without scoring? With no tile play
    either, the board is most likely blocked: exchanging again would only keep a game going that
    nobody can score in (exchanges do not count towards the passes that end it), so pass."""
    recent = [t for t in view.turns if t.kind in ("play", "exchange", "pass")]
    rounds = STALLED_ROUNDS * len(view.scores)
    return len(recent) >= rounds and not any(t.points for t in recent[-rounds:])


def _pass_ends_game(view: PlayerView) -> bool:
    """Would a pass now be the last of the passes in a row that end the game?"""
    rounds = view.rules.pass_rounds_to_end
    if not rounds:
        return False
    passes = 0
    for turn in reversed(view.turns):
        if turn.kind == "pass" or (turn.kind == "exchange" and view.rules.exchange_counts_as_pass):
            passes += 1
        elif turn.kind in ("lost-turn", "challenge-bonus", "challenge-penalty"):
            continue
        else:
            break
    return passes + 1 >= rounds * len(view.scores)


def _final_margin(view: PlayerView, values: Sequence[int]) -> float:
    """How the game would end now by passes, as a sign: +1 won, -1 lost, -0.5 not sure.
    Every rack's value comes off its own score; the other racks are known only as part of the
    unseen tiles, so an opponent loses between nothing and all of them."""
    own = view.scores[view.player] - sum(values[t] for t in view.rack)
    best = max(s for p, s in enumerate(view.scores) if p != view.player)
    unseen = sum(n * values[t] for t, n in enumerate(view.unseen))
    if own > best:
        return 1.0
    if view.bag_count == 0 and own < best - unseen:
        return -1.0
    return -0.5


_HOTSPOTS: dict[str, tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]] = {}


def _edition_masks(edition: Edition) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Squares beside a letter premium of the next line (per direction), and vowel codes."""
    masks = _HOTSPOTS.get(edition.name)
    if masks is None:
        layout = edition.layout
        size = layout.size
        letter = np.array(
            [p in (Premium.DOUBLE_LETTER, Premium.TRIPLE_LETTER) for p in layout.premiums]
        ).reshape(size, size)
        # A tile laid across at (r, c) is exposed through (r - 1, c) and (r + 1, c).
        beside = np.zeros((size, size), bool)
        beside[1:, :] |= letter[:-1, :]
        beside[:-1, :] |= letter[1:, :]
        vowels = np.zeros(256, bool)
        for code in edition.tiles.letters:
            if edition.tiles.is_vowel(code):
                vowels[code] = vowels[code | BLANK_BIT] = True
        masks = _HOTSPOTS[edition.name] = (beside.reshape(-1), vowels)
    return masks


def _hotspot_vowels(plays: Plays, edition: Edition) -> npt.NDArray[np.float64]:
    """For plays on the empty board: how many vowels each lays beside a letter premium."""
    beside, vowels = _edition_masks(edition)
    size = edition.layout.size
    meta = plays.meta
    width = plays.tiles.shape[1]
    k = np.arange(width)
    across = meta[:, DIRECTION, None] == ACROSS
    row, col = meta[:, ROW, None], meta[:, COL, None]
    rows = np.where(across, row, row + k)
    cols = np.where(across, col + k, col)
    inside = (k < meta[:, LENGTH, None]) & (rows < size) & (cols < size)
    # Down plays: the transposed picture (the layouts are symmetric, and a tile laid down is
    # exposed through its left and right neighbours).
    square = np.where(across, rows * size + cols, cols * size + rows)
    square = np.where(inside, square, 0)
    hot = beside[square] & vowels[plays.tiles] & inside
    return np.asarray(hot.sum(axis=1), np.float64)


__all__ = ["Candidate", "EquityPlayer"]
