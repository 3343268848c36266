"""Reading a play or an exchange as a person types it, against their rack.

People type without caring about case or accents: ``8d casa`` and ``h8 .oja`` are plays. A
tile already on the board is written ``.``, as its letter, or in parentheses (``8A R(OLHANDO)``,
as the table shows plays). A letter the rack has is a real tile; a letter it lacks comes from a
blank. When the rack has the letter *and* a blank and the word needs the letter more often than
the rack holds it, which occurrence is the blank matters (a blank on a premium square scores
nothing), so every choice is returned and the table asks. A word typed in mixed case is read
first as GCG writes it, a lowercase letter for a blank (``8D CASa``, as the hints show), when
the rack allows that.

>>> from letras.board import Board
>>> from letras.editions import find_edition
>>> pt = find_edition("pt-BR")
>>> rack = pt.tiles.parse("ACS?EIO", rack=True)
>>> [p.notation(pt) for p in read_play("8g casa", Board(pt), rack)]
['8G CaSA', '8G CASa']
>>> [p.notation(pt) for p in read_play("h8 CASa", Board(pt), rack)]
['H8 CASa']
>>> read_play("8g cocos", Board(pt), pt.tiles.parse("ACSEIOU", rack=True))
Traceback (most recent call last):
...
letras.table.errors.TableError: your rack A C E I O S U lacks: C O
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence

from letras.board import Board
from letras.editions import Edition
from letras.errors import IllegalPlayError, NotationError
from letras.play import Place, parse_coordinate
from letras.rules import check_shape
from letras.scoring import score
from letras.table.text import show_labels, tile_labels
from letras.terminal import InputError
from letras.tiles import BLANK, BLANK_BIT, THROUGH, fold, letter

MAX_CHOICES = 9
"""More ways to place the blanks than this are not listed: the player writes the blank as a
lowercase letter among capitals instead."""


def show_tiles(tiles: Sequence[int], edition: Edition) -> str:
    """Tiles for people to read: labels separated by spaces, ``?`` for a blank, ``-`` for none.

    >>> from letras.editions import find_edition
    >>> es = find_edition("es")
    >>> show_tiles(es.tiles.parse("?A[CH]", rack=True), es), show_tiles((), es)
    ('? A CH', '-')
    """
    return show_labels(tile_labels(tiles, edition))


_COORDINATE = re.compile(r"(\d+[^\W\d_]|[^\W\d_]\d+)")


def looks_like_play(text: str) -> bool:
    """Does the text start with something shaped like a coordinate (``8D``, ``h8``; also
    ``Z9``, so that the player hears what is wrong with the square)?

    >>> looks_like_play("8d casa"), looks_like_play("z9 casa"), looks_like_play("pass")
    (True, True, False)
    """
    first = text.split()[0] if text.split() else ""
    return bool(_COORDINATE.fullmatch(first))


def _mixed_case(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return any(c.isupper() for c in letters) and any(c.islower() for c in letters)


def _tiles(word: str, edition: Edition) -> tuple[int, ...]:
    try:
        return edition.tiles.parse(word, through=True)
    except NotationError as e:
        bad = str(e).split("'")
        raise InputError("play.bad_letter", letter=bad[1] if len(bad) > 2 else word) from None


def _rack_lacks(tiles: Sequence[int], rack: Sequence[int]) -> list[int]:
    """The tiles of a play (designated blanks as blanks) that the rack does not hold."""
    left = list(rack)
    missing = []
    for t in tiles:
        need = BLANK if t & BLANK_BIT else t
        if need in left:
            left.remove(need)
        else:
            missing.append(need)
    return missing


def read_play(text: str, board: Board, rack: Sequence[int]) -> list[Place]:
    """The plays a person may mean by ``text``: one, or several when it is ambiguous which
    letters are blanks (highest score first). Raises :class:`InputError` when the text is not
    a play, the rack lacks tiles for it, or its shape breaks the rules (words are not looked
    up: that is for a challenge)."""
    edition = board.edition
    parts = text.split()
    if len(parts) != 2:
        raise InputError("play.form", text=text.strip())
    coord, word = parts[0], parts[1].replace("(", "").replace(")", "")
    try:
        square, direction = parse_coordinate(coord, board.size)
    except NotationError:
        raise InputError("play.bad_coordinate", coord=coord) from None
    if _mixed_case(word):
        exact = Place(square, direction, _tiles(word, edition))
        try:
            exact = exact.resolve_through(board)
        except IllegalPlayError:
            pass
        else:
            if not _rack_lacks([t for t in exact.tiles if t != THROUGH], rack):
                check_shape(board, exact)
                return [exact]
    upper = fold(word)
    place = Place(square, direction, _tiles(upper, edition)).resolve_through(board)
    new = [(i, t) for i, t in enumerate(place.tiles) if t != THROUGH]
    if not new:
        raise InputError("play.no_new_tiles")
    check_shape(board, place)
    return _blank_choices(place, new, rack, edition)


def _blank_choices(
    place: Place, new: list[tuple[int, int]], rack: Sequence[int], edition: Edition
) -> list[Place]:
    have = edition.tiles.rack_counts(rack)
    blanks = have[BLANK]
    positions: dict[int, list[int]] = {}
    for i, t in new:
        positions.setdefault(letter(t), []).append(i)
    extra = {code: len(pos) - have[code]
             for code, pos in positions.items() if len(pos) > have[code]}
    if sum(extra.values()) > blanks:
        lacking = sorted(code for code, n in extra.items() for _ in range(n))
        raise InputError(
            "play.not_on_rack_blanks" if blanks else "play.not_on_rack",
            rack=show_tiles(sorted(rack), edition),
            tiles=show_tiles(lacking, edition),
        )
    # For each letter short on the rack, the occurrences that could be the blanks.
    per_letter = [itertools.combinations(positions[code], n) for code, n in extra.items()]
    choices = []
    for combo in itertools.product(*per_letter):
        tiles = list(place.tiles)
        for index in itertools.chain.from_iterable(combo):
            tiles[index] |= BLANK_BIT
        choices.append(Place(place.square, place.direction, tuple(tiles)))
        if len(choices) > MAX_CHOICES:
            raise InputError("play.too_many_blank_choices")
    return choices


def rank_by_score(
    board: Board, choices: Sequence[Place], bingo_bonus: int
) -> list[tuple[Place, int]]:
    """The choices with their scores, highest first (ties keep their order)."""
    scored = [(p, score(board, p, bingo_bonus).total) for p in choices]
    return sorted(scored, key=lambda ps: -ps[1])


def read_exchange(text: str, rack: Sequence[int], edition: Edition) -> tuple[int, ...]:
    """The rack tiles named by ``text`` (``?`` for a blank, any case, accents folded).

    Letters are single tiles first, as on a rack; when the rack lacks them, multi-letter
    tiles are tried (Spanish ``ch`` for the CH tile, or ``[CH]``).

    >>> from letras.editions import find_edition
    >>> es = find_edition("es")
    >>> rack = es.tiles.parse("?ACHLLO", rack=True)
    >>> es.tiles.format(read_exchange("ch?", rack, es), rack=True)
    'CH?'
    >>> es.tiles.format(read_exchange("[ch]", es.tiles.parse("[CH]AB", rack=True), es), rack=True)
    '[CH]'
    """
    text = fold("".join(text.split()))
    if not text:
        raise InputError("exchange.which")
    readings = []
    for greedy in (False, True):
        try:
            if greedy:
                tiles = edition.tiles.parse(text.replace("?", "."), through=True)
                readings.append(tuple(BLANK if t == THROUGH else t for t in tiles))
            else:
                readings.append(edition.tiles.parse(text, rack=True))
        except NotationError as e:
            bad = str(e).split("'")
            raise InputError("play.bad_letter", letter=bad[1] if len(bad) > 2 else text) from None
    for tiles in readings:
        if not _rack_lacks(tiles, rack):
            return tiles
    raise InputError(
        "play.not_on_rack",
        rack=show_tiles(sorted(rack), edition),
        tiles=show_tiles(sorted(_rack_lacks(readings[0], rack)), edition),
    )
