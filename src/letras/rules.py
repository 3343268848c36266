"""Is a play legal? Shape, connection, rack and words (rules.md section 3).

:func:`validate` checks a play against a position and returns its :class:`~letras.scoring.Score`,
or raises :class:`~letras.errors.IllegalPlayError` with the reason. It changes nothing.

>>> from letras.editions import find_edition
>>> from letras.board import Board
>>> from letras.lexicon import WordList
>>> from letras.play import Place
>>> en = find_edition("en")
>>> words = WordList(en, ["WINDY", "WIND"])
>>> validate(Board(en), Place.parse("8D WINDY", en), lexicon=words).total
32
>>> validate(Board(en), Place.parse("8A WINDY", en), lexicon=words)
Traceback (most recent call last):
...
letras.errors.IllegalPlayError: the first play must cover the centre square H8
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from letras.board import Board, Direction, Square
from letras.editions import RuleOptions
from letras.errors import IllegalPlayError
from letras.lexicon import Lexicon
from letras.play import Place
from letras.rack import leave as leave  # re-exported: the rack tiles left after a play
from letras.scoring import Score, main_word, score, words_formed
from letras.tiles import BLANK, THROUGH, is_designated_blank, letter


def place_from_tiles(board: Board, placements: Iterable[tuple[Square, int]]) -> Place:
    """Make a :class:`Place` from tiles put on squares one by one (as a pointer would).

    Raises ``not-in-line`` when the squares are not in one row or column, ``gap`` when an
    empty square lies between them, ``square-taken`` when a square is occupied.
    """
    tiles = dict(placements)
    if not tiles:
        raise IllegalPlayError("no-tiles", "a play needs at least one tile")
    for sq in tiles:
        if not sq.on_board(board.size):
            raise IllegalPlayError("off-board", f"square {sq} is off the board", square=sq)
        if board[sq]:
            raise IllegalPlayError("square-taken", f"square {sq} is already taken", square=sq)
    rows = {sq.row for sq in tiles}
    cols = {sq.col for sq in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalPlayError("not-in-line", "the tiles of a play must lie in one row or column")
    if len(rows) == 1 and len(cols) == 1:
        # One tile: say across, unless it only makes a word down.
        (sq,) = tiles
        across = board.get(sq.row, sq.col - 1) or board.get(sq.row, sq.col + 1)
        down = board.get(sq.row - 1, sq.col) or board.get(sq.row + 1, sq.col)
        direction = Direction.DOWN if down and not across else Direction.ACROSS
    else:
        direction = Direction.ACROSS if len(rows) == 1 else Direction.DOWN
    first, last = min(tiles), max(tiles)
    out = []
    sq = first
    while True:
        if sq in tiles:
            out.append(tiles[sq])
        elif board[sq]:
            out.append(THROUGH)
        else:
            raise IllegalPlayError("gap", f"square {sq} between the tiles is empty", square=sq)
        if sq == last:
            break
        sq = sq.step(direction)
    return Place(first, direction, tuple(out))


def check_shape(
    board: Board, place: Place, *, turn: int = 0, rules: RuleOptions | None = None
) -> None:
    """Check where the tiles go: on the board, on empty squares, connected; the first play
    covers the centre with two or more tiles. ``turn`` (1-based) matters only for the
    ``join_words_from_turn`` option."""
    placed = 0
    for sq, t in place.squares():
        if not sq.on_board(board.size):
            raise IllegalPlayError("off-board", f"the play runs off the board at {sq}",
                                   square=sq)
        if t == THROUGH:
            if not board[sq]:
                raise IllegalPlayError(
                    "through-mismatch", f"square {sq} is empty: nothing to play through ('.')",
                    square=sq,
                )
        else:
            placed += 1
            _check_tile(board, t)
            if board[sq]:
                label = board.edition.tiles.label(board[sq])
                raise IllegalPlayError(
                    "square-taken", f"square {sq} is taken by {label}: cannot place a tile there",
                    square=sq, letter=label,
                )
    if placed == 0:
        raise IllegalPlayError("no-tiles", "a play needs at least one new tile")
    if board.is_empty():
        centre = Square.from_index(board.edition.layout.centre, board.size)
        if all(sq != centre for sq, _ in place.squares()):
            raise IllegalPlayError(
                "first-play-centre", f"the first play must cover the centre square {centre}",
                square=centre,
            )
        if placed < 2:
            raise IllegalPlayError("first-play-one-tile", "the first play needs at least two tiles")
        return
    if not _touches(board, place):
        raise IllegalPlayError(
            "not-connected", "the play must touch a tile already on the board"
        )
    if rules and not may_join_words(rules, turn):
        runs = _board_runs(main_word(board, place).new)
        if runs > 1:
            raise IllegalPlayError(
                "joins-words-early",
                f"joining words already on the board is allowed only from turn "
                f"{rules.join_words_from_turn}",
                turn=rules.join_words_from_turn,
            )


def may_join_words(rules: RuleOptions | None, turn: int) -> bool:
    """May the tile play of number ``turn`` (1-based, counting the plays that stand) join
    words already on the board? Not before ``join_words_from_turn``, when the rules set it.

    >>> from dataclasses import replace
    >>> from letras.editions import find_edition
    >>> rules = replace(find_edition("pt-BR").rules, join_words_from_turn=4)
    >>> may_join_words(rules, 3), may_join_words(rules, 4), may_join_words(None, 1)
    (False, True, True)
    """
    return not (rules and rules.join_words_from_turn and turn < rules.join_words_from_turn)


def _check_tile(board: Board, tile: int) -> None:
    labels = board.edition.tiles.labels
    code = letter(tile)
    if not 0 < code < len(labels):
        if is_designated_blank(tile) or code == 0:
            raise IllegalPlayError(
                "blank-letter", "a blank must stand for a letter that this edition has"
            )
        raise IllegalPlayError("unknown-tile", f"tile code {tile} is not in this edition")


def _board_runs(new: Sequence[bool]) -> int:
    """Number of separate runs of old tiles in a word."""
    runs, inside = 0, False
    for is_new in new:
        if not is_new and not inside:
            runs += 1
        inside = not is_new
    return runs


def _touches(board: Board, place: Place) -> bool:
    for sq, t in place.squares():
        if t == THROUGH:
            return True
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            if board.get(sq.row + dr, sq.col + dc):
                return True
    return False


def check_rack(board: Board, place: Place, rack: Sequence[int]) -> None:
    """Check that the rack holds the tiles the play lays (a designated blank needs a ``?``)."""
    tiles = board.edition.tiles
    have = tiles.rack_counts(rack)
    need = tiles.rack_counts(t for t in place.tiles if t != THROUGH)
    missing = []
    for code, n in enumerate(need):
        if n > have[code]:
            missing.extend([code] * (n - have[code]))
    if missing:
        names = " ".join("?" if c == BLANK else tiles.label(c) for c in missing)
        raise IllegalPlayError(
            "not-on-rack", f"tiles not on the rack {tiles.format(rack) or '(empty)'}: {names}",
            rack=tiles.format(rack), tiles=names,
        )


def invalid_words(board: Board, place: Place, lexicon: Lexicon) -> list[str]:
    """The words formed by the play that the lexicon lacks, each once, in the order formed."""
    bad: list[str] = []
    tiles = board.edition.tiles
    for w in words_formed(board, place):
        if not lexicon.contains_tiles(w.tiles):
            word = tiles.word(w.tiles)
            if word not in bad:
                bad.append(word)
    return bad


def extends_wrong_words(board: Board, place: Place, lexicon: Lexicon) -> bool:
    """Is every word of the play that the lexicon lacks the extension of a wrong word already
    on the board (a run of two or more old tiles inside it that the lexicon lacks too)? Then,
    under the ``late_challenge`` rule, the fault is the earlier play's, and the extender keeps
    the turn. False when every word is good. ``board`` is the position before the play."""
    bad = [w for w in words_formed(board, place) if not lexicon.contains_tiles(w.tiles)]
    if not bad:
        return False
    for w in bad:
        runs: list[list[int]] = [[]]
        for tile, new in zip(w.tiles, w.new, strict=True):
            if new:
                runs.append([])
            else:
                runs[-1].append(tile)
        if not any(len(run) >= 2 and not lexicon.contains_tiles(tuple(run)) for run in runs):
            return False
    return True


def validate(
    board: Board,
    place: Place,
    *,
    rack: Sequence[int] | None = None,
    lexicon: Lexicon | None = None,
    rules: RuleOptions | None = None,
    turn: int = 0,
) -> Score:
    """Check a play on ``board`` (the position before it) and score it.

    The rack is checked when given, the words when a lexicon is given. Raises
    :class:`~letras.errors.IllegalPlayError`; never changes the board.
    """
    rules = rules or board.edition.rules
    check_shape(board, place, turn=turn, rules=rules)
    if rack is not None:
        check_rack(board, place, rack)
    if lexicon is not None:
        bad = invalid_words(board, place, lexicon)
        if bad:
            noun = "word" if len(bad) == 1 else "words"
            raise IllegalPlayError(
                "invalid-words", f"not in the lexicon: {noun} {', '.join(bad)}", tuple(bad)
            )
    return score(board, place, rules.bingo_bonus)


def full_place(board: Board, place: Place) -> Place:
    """The same play written over its whole main word (board tiles at either end included)."""
    word = main_word(board, place)
    if len(word.tiles) < 2 and place.tile_count == 1:
        return place
    tiles = tuple(t if new else THROUGH for t, new in zip(word.tiles, word.new, strict=True))
    return Place(word.square, word.direction, tiles)
