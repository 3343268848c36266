"""Every legal play of a rack on a position, exactly once, scored as the rules engine scores it.

The generator walks the GADDAG from each anchor square (an empty square next to a tile, or the
centre on an empty board), with a cross-set for every square; the kernel is compiled (numba)
and keeps its results in arrays until they are asked for.

Conventions:

- a play is the set of tiles it lays; a one-tile play that makes words both ways is one play
  (reported across);
- on the empty board plays are generated both ways unless ``both_directions=False`` (then
  across only, as move-count references count them);
- a blank is tried as every letter of the edition, and a real tile and a blank standing for
  the same letter are different plays;
- the order is fixed: lane by lane (rows across, then columns down), and within a lane an
  order that a smaller rack keeps (its plays come in the same relative order as the bigger
  rack's), which lets a search reuse plays from one position in the next.

>>> from letras.editions import find_edition
>>> from letras.board import Board
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["WINDY", "WIND", "DIN", "YIN"])
>>> plays = generate(Board(en), en.tiles.parse("DINWY", rack=True), words)
>>> len(plays), plays.best(1)[0]
(30, ScoredPlay(play='8H WINDY', score=32))
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from letras._compiled import announce_first_compile, lazy_module, load_cached_without_refresh
from letras.board import Board, Direction, Square
from letras.editions import Edition
from letras.lexicon.kwg import WordGraph
from letras.movegen import prebuilt
from letras.movegen.columns import ACROSS, COL, DIRECTION, LENGTH, ROW, SCORE
from letras.movegen.graph import packed
from letras.movegen.notation import play_notations
from letras.play import Place

if TYPE_CHECKING:
    from letras.lexicon import Lexicon
    from letras.movegen.leaves import LeaveValue, RackLeaves, leave_radix, leave_table

# The modules that define numba kernels are imported when first used: not at all by a process
# that runs the kernels compiled ahead of time (letras.movegen.prebuilt) and keeps no leave values.
k = lazy_module("letras.movegen._kernels")
wordmap = lazy_module("letras.movegen.wordmap")
leaves = lazy_module("letras.movegen.leaves")
_FROM_LEAVES = frozenset({"LeaveValue", "RackLeaves", "leave_radix", "leave_table"})


def __getattr__(name: str) -> Any:
    if name in _FROM_LEAVES:
        return getattr(leaves, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass(frozen=True)
class ScoredPlay:
    """A play in notation with its score (what ``letras moves`` prints)."""

    play: str
    score: int


_ARRAYS: dict[int, tuple[Edition, tuple[npt.NDArray[np.int64], ...]]] = {}


def _edition_arrays(edition: Edition) -> tuple[npt.NDArray[np.int64], ...]:
    """Letter and word multipliers per square, and tile values, as the kernel wants them
    (made once per edition object)."""
    known = _ARRAYS.get(id(edition))
    if known is not None and known[0] is edition:
        return known[1]
    layout = edition.layout
    letter = np.array([p.letter_multiplier for p in layout.premiums], np.int64)
    word = np.array([p.word_multiplier for p in layout.premiums], np.int64)
    values = np.zeros(64, np.int64)
    values[: len(edition.tiles.values)] = edition.tiles.values
    arrays = (letter, word, values)
    if len(_ARRAYS) > 64:  # editions made on the fly: keep the cache small
        _ARRAYS.clear()
    _ARRAYS[id(edition)] = (edition, arrays)
    return arrays


class Plays:
    """The plays found, in the order generated; :meth:`best` sorts them by score.

    ``meta`` has a row per play, its columns named in :mod:`letras.movegen.columns` (first
    square, direction, length, score, tiles laid); ``tiles`` the play's tiles along its line
    from its first square. ``values`` is what each play is ranked by: its score, or with a
    leave evaluation its equity (score + the value of its leave).
    """

    def __init__(self, edition: Edition, meta: npt.NDArray[np.int32],
                 tiles: npt.NDArray[np.uint8], values: npt.NDArray[np.float64]) -> None:
        self.edition = edition
        self.meta = meta
        self.tiles = tiles
        self.values = values

    def __len__(self) -> int:
        return len(self.meta)

    def place(self, i: int) -> Place:
        row = self.meta[i]
        return Place(
            Square(int(row[ROW]), int(row[COL])),
            Direction.ACROSS if row[DIRECTION] == ACROSS else Direction.DOWN,
            tuple(int(t) for t in self.tiles[i, : row[LENGTH]]),
        )

    def score(self, i: int) -> int:
        return int(self.meta[i, SCORE])

    def scores(self) -> npt.NDArray[np.int32]:
        return self.meta[:, SCORE]

    def __iter__(self) -> Iterator[tuple[Place, int]]:
        for i in range(len(self)):
            yield self.place(i), self.score(i)

    def order(self) -> npt.NDArray[np.intp]:
        """Indices best first (by score, or equity with a leave evaluation; ties in the order
        generated)."""
        return np.argsort(-self.values, kind="stable")

    def best(self, n: int | None = None) -> list[ScoredPlay]:
        """The top ``n`` plays (all without ``n``), best score first, in notation."""
        order = self.order()
        if n is not None:
            order = order[:n]
        scores = self.meta[order, SCORE].tolist()
        texts = play_notations(self.edition, self.meta, self.tiles, order)
        return [ScoredPlay(text, score) for text, score in zip(texts, scores, strict=True)]


def generate(
    board: Board,
    rack: Sequence[int],
    lexicon: WordGraph,
    *,
    both_directions: bool = True,
    bingo_bonus: int | None = None,
    join_words: bool = True,
    lanes: npt.NDArray[np.bool_] | None = None,
) -> Plays:
    """Every legal tile play of ``rack`` (tile codes, 0 = blank) on ``board``; with
    ``join_words=False`` (:attr:`~letras.game.Game.may_join_words`), none whose main word joins
    two or more words already on the board. With ``lanes`` (a ``(2, size)`` mask: across
    rows, then down columns), only the plays along those lanes: after a play, the plays of
    the lanes :func:`changed_lanes` does not name are the same as before."""
    return _run(board, rack, lexicon, both_directions, bingo_bonus, join_words, keep=0,
                lanes=lanes)


def top_plays(
    board: Board, rack: Sequence[int], lexicon: WordGraph, n: int, *,
    bingo_bonus: int | None = None, join_words: bool = True, word_map: bool = True,
) -> list[tuple[Place, int]]:
    """The ``n`` highest-scoring plays, best first, found by bound-and-prune without keeping
    the others (ties at the cut are broken arbitrarily). ``word_map=False`` bounds anchors
    without the lexicon's word map (:mod:`letras.movegen.wordmap`): the same plays, found more
    slowly (for comparisons)."""
    if n <= 0:
        return []
    plays = _run(board, rack, lexicon, True, bingo_bonus, join_words, keep=n,
                 word_map=word_map)
    return [(plays.place(int(i)), plays.score(int(i))) for i in plays.order()]


def top_by_equity(
    board: Board, rack: Sequence[int], lexicon: WordGraph, n: int,
    leave_value: LeaveValue | RackLeaves, *, bingo_bonus: int | None = None,
    join_words: bool = True, word_map: bool = True,
) -> list[tuple[Place, int, float]]:
    """The ``n`` plays of highest equity (score + ``leave_value`` of the tiles kept), best
    first, as (play, score, equity), by the same bound-and-prune search: the caller's
    evaluation is asked once for each leave the rack can keep (at most 128), not per play;
    or it gives them all at once, as :class:`RackLeaves` of this rack. ``word_map`` as in
    :func:`top_plays`."""
    if n <= 0:
        return []
    plays = _run(board, rack, lexicon, True, bingo_bonus, join_words, keep=n,
                 leave_value=leave_value, word_map=word_map)
    return [(plays.place(int(i)), plays.score(int(i)), float(plays.values[i]))
            for i in plays.order()]


def best_play(
    board: Board, rack: Sequence[int], lexicon: WordGraph, *, bingo_bonus: int | None = None,
    join_words: bool = True,
) -> tuple[Place, int] | None:
    """The highest-scoring play (the first generated among equals), or None if there is none,
    without keeping the others."""
    best = top_plays(board, rack, lexicon, 1, bingo_bonus=bingo_bonus, join_words=join_words)
    return best[0] if best else None


def _run(
    board: Board,
    rack: Sequence[int],
    lexicon: WordGraph,
    both_directions: bool,
    bingo_bonus: int | None,
    join_words: bool,
    keep: int,
    leave_value: LeaveValue | RackLeaves | None = None,
    lanes: npt.NDArray[np.bool_] | None = None,
    word_map: bool = False,
) -> Plays:
    compiled = prebuilt.kernels()
    if compiled is None:
        announce_first_compile(k, "generate", "compile.movegen")
    edition = board.edition
    bingo = edition.rules.bingo_bonus if bingo_bonus is None else bingo_bonus
    letter, word, values = _edition_arrays(edition)
    counts = np.zeros(64, np.int64)
    for t in rack:
        counts[t] += 1
    squares = np.frombuffer(board.squares, np.uint8)
    if leave_value is None:
        table, radix = _NO_TABLE
    elif isinstance(leave_value, leaves.RackLeaves):
        table, radix = leave_value
    else:
        table, radix = leaves.leave_table(rack, leave_value)
    args = (
        packed(lexicon), squares, board.size, counts, values, letter, word,
        len(edition.tiles.labels) - 1, edition.rack_size, bingo, both_directions, join_words,
        np.ones((2, board.size), np.bool_) if lanes is None else lanes, keep,
        leave_value is not None, table, radix,
    )
    if keep and word_map:
        args = (*args, *wordmap.word_map(lexicon), wordmap.map_keys())
        kernel = k.generate_mapped if compiled is None else compiled.generate_mapped
    else:
        kernel = k.generate if compiled is None else compiled.generate
    if compiled is None:
        load_cached_without_refresh(kernel, args)
    meta, tiles, ranks, count = kernel(*args)
    return Plays(edition, meta[:count].copy(), tiles[:count].copy(), ranks[:count].copy())


_NO_TABLE = (np.zeros(1, np.float64), np.zeros(64, np.int64))


class LaneState(NamedTuple):
    """What the plays along each lane depend on: ``(2, size, size)`` arrays, across rows then
    down columns, of the tiles, each empty square's cross-set and its cross words' face
    value (see :func:`lane_state`)."""

    tiles: npt.NDArray[np.uint8]
    cross_sets: npt.NDArray[np.uint64]
    cross_scores: npt.NDArray[np.int32]


def lane_state(board: Board, lexicon: WordGraph) -> LaneState:
    """The state of every lane of ``board``: two boards with the same state of a lane have
    the same plays along it, with the same scores, for any rack."""
    size = board.size
    values = _edition_arrays(board.edition)[2]
    across = np.frombuffer(board.squares, np.uint8)
    down = across.reshape(size, size).T.copy().reshape(-1)
    nletters = len(board.edition.tiles.labels) - 1
    graph = packed(lexicon)
    kernels = prebuilt.kernels() or k
    sets, scores, _ = zip(*(kernels.cross_sets(graph, grid, size, values, nletters)
                            for grid in (across, down)), strict=True)
    shape = (2, size, size)
    return LaneState(np.stack([across, down]).reshape(shape), np.stack(sets).reshape(shape),
                     np.stack(scores).reshape(shape))


def changed_lanes(before: LaneState, after: LaneState) -> npt.NDArray[np.bool_]:
    """The lanes (a ``(2, size)`` mask, across rows then down columns) whose plays may differ
    between two states: a tile, a cross-set or a cross score changed along them.

    >>> from letras.editions import find_edition
    >>> from letras.lexicon.kwg import WordGraph
    >>> en = find_edition("en")
    >>> words = WordGraph.build(en, ["AT", "TA"])
    >>> board = Board(en)
    >>> before = lane_state(board, words)
    >>> board.put(Place.parse("8G AT", en).placed())
    >>> lanes = changed_lanes(before, lane_state(board, words))
    >>> lanes[0].nonzero()[0].tolist(), lanes[1].nonzero()[0].tolist()  # rows 7-9, columns F-I
    ([6, 7, 8], [5, 6, 7, 8])
    """
    changed: npt.NDArray[np.bool_] = (
        (before.tiles != after.tiles).any(axis=2)
        | (before.cross_sets != after.cross_sets).any(axis=2)
        | (before.cross_scores != after.cross_scores).any(axis=2)
    )
    return changed


def can_play(
    board: Board, rack: Sequence[int], lexicon: WordGraph, *, join_words: bool = True
) -> bool:
    """Does the rack have any legal tile play on the board?"""
    return bool(rack) and best_play(board, rack, lexicon, join_words=join_words) is not None


def no_play_possible(
    board: Board, racks: Sequence[Sequence[int]], lexicon: Lexicon, *, join_words: bool = True
) -> bool:
    """The end condition of rules.md section 6.2: no rack has a legal tile play on ``board``
    (the game asks only once exchanges are no longer possible). A lexicon that is not a word
    graph cannot be searched: then the condition is never met."""
    if not isinstance(lexicon, WordGraph):
        return False
    return not any(can_play(board, rack, lexicon, join_words=join_words) for rack in racks)


__all__ = [
    "LaneState",
    "LeaveValue",
    "Plays",
    "RackLeaves",
    "ScoredPlay",
    "best_play",
    "can_play",
    "changed_lanes",
    "generate",
    "lane_state",
    "leave_radix",
    "leave_table",
    "no_play_possible",
    "packed",
    "top_by_equity",
    "top_plays",
]
