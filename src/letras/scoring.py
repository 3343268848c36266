"""The words a play forms and what they score (rules.md section 4).

For each word formed: add its tiles' values, doubling or tripling a letter on a letter premium
covered this turn; multiply by the word premiums covered this turn. Premiums under tiles placed
earlier count at face value; a blank scores 0 but still triggers a word premium. Using every tile
of a full rack adds the bingo bonus after the multipliers.

>>> from letras.editions import find_edition
>>> from letras.board import Board
>>> from letras.play import Place
>>> en = find_edition("en")
>>> board = Board(en)
>>> s = score(board, Place.parse("8D WINDY", en))
>>> s.total, s.words[0].word, s.words[0].score
(32, 'WINDY', 32)
>>> str(s)
'WINDY 32 = 32'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from letras.board import Board, Direction, Square
from letras.play import Place
from letras.tiles import THROUGH


@dataclass(frozen=True)
class Word:
    """A word a play forms: where it starts, its line, its tiles and which of them are new."""

    square: Square
    direction: Direction
    tiles: tuple[int, ...]
    new: tuple[bool, ...]


@dataclass(frozen=True)
class WordScore:
    word: str
    square: Square
    direction: Direction
    score: int


@dataclass(frozen=True)
class Score:
    """Each word formed with its score, the bingo bonus and the total."""

    words: tuple[WordScore, ...]
    bingo: int
    total: int

    def __str__(self) -> str:
        return score_text(self.words, self.bingo)


def score_text(words: Iterable[WordScore | tuple[str, int]], bingo: int,
               bingo_word: str = "bingo {n}") -> str:
    """The words a play formed and their points: ``CASAS 7 + DESLIGAS 13 = 20``;
    ``bingo_word`` is the template of the bingo bonus in the reader's language."""
    pairs = [(w.word, w.score) if isinstance(w, WordScore) else w for w in words]
    parts = " + ".join(f"{word} {points}" for word, points in pairs)
    if bingo:
        parts += " + " + bingo_word.format(n=bingo)
    return f"{parts} = {sum(p for _, p in pairs) + bingo}"


def _run(board: Board, square: Square, direction: Direction, fill: dict[Square, int]) -> Word:
    """The maximal run of tiles through ``square`` along ``direction``, with ``fill`` laid."""
    def tile_at(sq: Square) -> int:
        return fill.get(sq) or (board[sq] if sq.on_board(board.size) else 0)

    start = square
    while True:
        prev = start.step(direction, -1)
        if not prev.on_board(board.size) or not tile_at(prev):
            break
        start = prev
    tiles, new = [], []
    sq = start
    while sq.on_board(board.size) and tile_at(sq):
        tiles.append(tile_at(sq))
        new.append(sq in fill)
        sq = sq.step(direction)
    return Word(start, direction, tuple(tiles), tuple(new))


def main_word(board: Board, place: Place) -> Word:
    """The word along the play's line, extended over board tiles touching either end."""
    fill = dict(place.placed())
    return _run(board, place.square, place.direction, fill)


def words_formed(board: Board, place: Place) -> list[Word]:
    """Every word of two or more tiles the play forms: the main word first, then cross words
    in the order of the placed tiles. ``board`` is the position before the play."""
    fill = dict(place.placed())
    words = []
    main = _run(board, place.square, place.direction, fill)
    if len(main.tiles) >= 2:
        words.append(main)
    for sq in fill:
        cross = _run(board, sq, place.direction.other, {sq: fill[sq]})
        if len(cross.tiles) >= 2:
            words.append(cross)
    return words


def word_score(board: Board, word: Word) -> int:
    values = board.edition.tiles
    total, multiplier = 0, 1
    sq = word.square
    for tile, new in zip(word.tiles, word.new, strict=True):
        value = values.value(tile)
        if new:
            premium = board.premium(sq)
            value *= premium.letter_multiplier
            multiplier *= premium.word_multiplier
        total += value
        sq = sq.step(word.direction)
    return total * multiplier


def score(board: Board, place: Place, bingo_bonus: int = 50) -> Score:
    """Score a play on ``board`` (the position before it) without checking its legality."""
    tiles = board.edition.tiles
    scored = tuple(
        WordScore(tiles.word(w.tiles), w.square, w.direction, word_score(board, w))
        for w in words_formed(board, place)
    )
    used = sum(1 for t in place.tiles if t != THROUGH)
    bingo = bingo_bonus if used >= board.edition.rack_size else 0
    return Score(scored, bingo, sum(w.score for w in scored) + bingo)


def final_count(
    racks: Sequence[Sequence[int]], values: Sequence[int], out: int | None = None
) -> tuple[int, ...]:
    """The final count of the rule sheets (rules.md section 6): what each player's score
    changes by at the end. Each player loses the value of the tiles left on their own rack;
    the player who went out (``out``, if any) gains the value of every other rack.

    ``racks`` holds each player's rack tiles (blanks as ``0``), ``values`` the points of
    each tile code. Two players, the first went out, the other kept a 1 and a 3:

    >>> final_count([[], [1, 3]], values=[0, 1, 2, 3], out=0)
    (4, -4)
    >>> final_count([[2], [0, 3], [1]], values=[0, 1, 2, 3])
    (-2, -3, -1)

    (GCG records of two-player games from other programs write the same spread as twice the
    opponent's rack to the player who went out, with no line for the opponent.)
    """
    own = [sum(values[t] for t in rack) for rack in racks]
    counted = [-v for v in own]
    if out is not None:
        counted[out] = sum(v for p, v in enumerate(own) if p != out)
    return tuple(counted)
