"""CGP, the position format of Macondo and wolges (like FEN in chess): one line that holds the
board, the racks, the scores, the number of scoreless turns in a row and optional opcodes.

::

    15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 AEIRST?/ 32/0 0 lex NWL20; ld english;

- The board: its rows top to bottom joined by ``/``; in a row a number is a run of empty squares,
  an upper-case letter a tile, a lower-case letter a blank standing for it, and ``[CH]``
  (``[ch]``) a tile of more than one letter.
- The racks, player to move first, joined by ``/`` (``?`` is a blank; a rack may be empty when
  it is unknown).
- The scores in the same order, joined by ``/``; then the count of scoreless turns in a row.
- Opcodes, each ``name operands;``: ``lex`` names the lexicon, ``ld`` the letter distribution
  (the edition); ``bb``, ``etl``, ``mcnz`` and ``cr`` set rule options; any other is kept as it is.

Reading is lenient where the text is unambiguous (any run of spaces between fields, accents,
a missing last ``;``); writing is canonical.

>>> pos = Position.from_cgp("15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 "
...                         "AEIRST?/  32/0 0 ld english;lex NWL20")
>>> pos.edition.name, pos.scores, pos.lexicon
('en', (32, 0), 'NWL20')
>>> format_rack(pos.rack, pos.edition)
'AEIRST?'
>>> pos.cgp()
'15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 AEIRST?/ 32/0 0 lex NWL20; ld english;'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from letras.board import Board
from letras.editions import CHALLENGE_RULES, DEFAULT_EDITION, Edition, RuleOptions, find_edition
from letras.errors import FormatError, NotationError, UnknownEditionError, inner_facts
from letras.tiles import EMPTY, is_designated_blank

LETTER_DISTRIBUTIONS = {"en": "english", "es": "spanish", "it": "italian", "pt-BR": "portuguese"}
"""The name written in ``ld`` for each edition; reading takes these and any edition name or
alias (``find_edition``)."""

Opcode = tuple[str, str]
"""An opcode as ``(name, operands)``; ``operands`` is ``""`` when there are none."""

_DIGITS = "0123456789"
_INTEGER = re.compile(r"[+-]?[0-9]{1,20}")
_COUNT = re.compile(r"[0-9]{1,20}")
# Opcodes whose operand is a count that sets a rule option.
_COUNT_OPTIONS = {"bb": "bingo_bonus", "etl": "exchange_min_bag", "mcnz": "scoreless_turns_to_end"}
# Macondo also knows "triple" (a failed challenge loses the game); letras has no such rule,
# so a position with it keeps the edition's own challenge rule.
_CHALLENGE_RULES = (*CHALLENGE_RULES, "triple")


@dataclass
class Position:
    """A position: the board, the racks and scores (player to move first), the number of
    scoreless turns in a row, the lexicon's name and any other CGP opcodes, in order.

    A rack that is empty is unknown (or the player has no tiles). The edition is the board's.

    >>> from letras.editions import find_edition
    >>> es = find_edition("es")
    >>> pos = Position(Board(es), racks=(parse_rack("[CH]A?", es), ()), scores=(10, 4))
    >>> pos.zero_turns = 1
    >>> pos.cgp()
    '15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 [CH]A?/ 10/4 1 ld spanish;'
    """

    board: Board
    racks: tuple[tuple[int, ...], ...] = ((), ())
    scores: tuple[int, ...] = (0, 0)
    zero_turns: int = 0
    lexicon: str | None = None
    opcodes: tuple[Opcode, ...] = ()

    def __post_init__(self) -> None:
        self.racks = tuple(tuple(r) for r in self.racks)
        self.scores = tuple(self.scores)
        self.opcodes = tuple((name, operands) for name, operands in self.opcodes)
        if len(self.racks) < 2:
            raise FormatError(f"a position needs at least two players, not {len(self.racks)}",
                              key="cgp.players", n=len(self.racks))
        if len(self.racks) != len(self.scores):
            raise FormatError(
                f"a position needs one score per rack: {len(self.racks)} racks,"
                f" {len(self.scores)} scores",
                key="cgp.scores", racks=len(self.racks), scores=len(self.scores),
            )
        rack_size = self.edition.rack_size
        for rack in self.racks:
            if len(rack) > rack_size:
                text = format_rack(rack, self.edition)
                raise FormatError(f"a rack holds at most {rack_size} tiles, not {text!r}",
                                  key="cgp.position_rack", max=rack_size, rack=text)
        if self.zero_turns < 0:
            raise FormatError(f"a count of scoreless turns is never negative: {self.zero_turns}",
                              key="cgp.negative_turns", n=self.zero_turns)
        if self.lexicon is not None:
            _check_operands("lex", self.lexicon)
            if not self.lexicon:
                raise FormatError("a lexicon name cannot be empty", key="cgp.empty_lexicon")
        for name, operands in self.opcodes:
            _check_opcode(name, operands)

    @property
    def edition(self) -> Edition:
        return self.board.edition

    @property
    def rack(self) -> tuple[int, ...]:
        """The rack of the player to move (empty when unknown)."""
        return self.racks[0]

    @property
    def rules(self) -> RuleOptions:
        """The edition's rule options, changed by the opcodes ``bb`` (bingo bonus), ``etl``
        (fewest tiles in the bag for an exchange), ``mcnz`` (scoreless turns that end the
        game) and ``cr`` (challenge rule).

        >>> pos = Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 / 0/0 0 bb 35;")
        >>> pos.rules.bingo_bonus, pos.edition.rules.bingo_bonus
        (35, 50)
        """
        changes: dict[str, object] = {}
        for name, operands in self.opcodes:
            if name in _COUNT_OPTIONS:
                changes[_COUNT_OPTIONS[name]] = int(operands)
            elif name == "cr" and operands in CHALLENGE_RULES:
                changes["challenge_rule"] = operands
        return self.edition.rules.replace(**changes)

    @classmethod
    def from_cgp(cls, text: str, edition: Edition | str | None = None) -> Position:
        """Read a CGP line. The edition is ``edition`` when given, else the one the ``ld``
        opcode names, else pt-BR. Raises :class:`~letras.errors.FormatError`, naming the
        offending text, when the line is not a CGP position of that edition.

        >>> Position.from_cgp("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 KA/ 0/0 0")
        Traceback (most recent call last):
        ...
        letras.errors.FormatError: CGP rack 1 'KA': no tile 'K' in this edition (in 'KA')
        """
        fields = text.split()
        if len(fields) < 4:
            raise FormatError(
                f"a CGP position is a board, racks, scores and a count of scoreless turns,"
                f" separated by spaces: {text.strip()!r}",
                key="cgp.fields", text=text.strip(), n=len(fields),
            )
        board_text, racks_text, scores_text, zero_text = fields[:4]
        lexicon, distribution, opcodes = _read_opcodes(" ".join(fields[4:]))
        if isinstance(edition, str):
            edition = find_edition(edition)
        elif edition is None:
            edition = _edition_of(distribution)
        board = parse_board(board_text, edition)
        racks = tuple(
            _parse_rack(rack, edition, i)
            for i, rack in enumerate(racks_text.split("/"), 1)
        )
        scores = tuple(_score(s, scores_text) for s in scores_text.split("/"))
        if not _COUNT.fullmatch(zero_text):
            raise FormatError(f"bad count of scoreless turns in CGP: {zero_text!r}",
                              key="cgp.zero_turns", text=zero_text)
        return cls(board, racks, scores, int(zero_text), lexicon, opcodes)

    def cgp(self) -> str:
        """The position as a canonical CGP line: single spaces, ``lex`` then ``ld`` then the
        other opcodes in their order, each ended by ``;``."""
        parts = [
            format_board(self.board),
            "/".join(format_rack(rack, self.edition) for rack in self.racks),
            "/".join(str(s) for s in self.scores),
            str(self.zero_turns),
        ]
        if self.lexicon is not None:
            parts.append(f"lex {self.lexicon};")
        name = self.edition.name
        parts.append(f"ld {LETTER_DISTRIBUTIONS.get(name, name)};")
        for op, operands in self.opcodes:
            parts.append(f"{op} {operands};" if operands else f"{op};")
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Position.from_cgp({self.cgp()!r})"


def parse_board(rows_text: str, edition: Edition) -> Board:
    """Read the board part of a CGP: rows joined by ``/``, numbers for runs of empty squares.

    >>> from letras.editions import find_edition
    >>> es = find_edition("es")
    >>> board = parse_board("15/15/15/15/15/15/15/4[CH]Ac8/15/15/15/15/15/15/15", es)
    >>> [(str(sq), es.tiles.label(t)) for sq, t in board.tiles()]
    [('E8', 'CH'), ('F8', 'A'), ('G8', 'c')]
    >>> format_board(board)
    '15/15/15/15/15/15/15/4[CH]Ac8/15/15/15/15/15/15/15'
    """
    size = edition.layout.size
    rows = rows_text.strip().split("/")
    if len(rows) != size:
        raise FormatError(f"a CGP board has {size} rows, not {len(rows)}: {rows_text!r}",
                          key="cgp.rows", size=size, n=len(rows), text=rows_text)
    board = Board(edition)
    for r, row in enumerate(rows):
        squares = _parse_row(row, r + 1, edition)
        board.squares[r * size : (r + 1) * size] = bytes(squares)
    return board


def format_board(board: Board) -> str:
    """The board part of a CGP (see :func:`parse_board`)."""
    tiles = board.edition.tiles
    rows = []
    for r in range(board.size):
        out: list[str] = []
        empty = 0
        for t in board.squares[r * board.size : (r + 1) * board.size]:
            if t == EMPTY:
                empty += 1
                continue
            if empty:
                out.append(str(empty))
                empty = 0
            out.append(tiles.notation(t))
        if empty:
            out.append(str(empty))
        rows.append("".join(out))
    return "/".join(rows)


def parse_rack(text: str, edition: Edition) -> tuple[int, ...]:
    """Read a rack as CGP writes it: letters, ``?`` for a blank, ``[LL]`` for a multi-letter
    tile; unbracketed letters are single tiles (Spanish ``CH`` is a C and an H).

    >>> from letras.editions import find_edition
    >>> es = find_edition("es")
    >>> [es.tiles.label(t) for t in parse_rack("CH[LL]?", es)]
    ['C', 'H', 'LL', '?']
    """
    return _parse_rack(text, edition, None)


def format_rack(rack: Sequence[int], edition: Edition) -> str:
    """A rack as CGP writes it: one label per tile, ``?`` for a blank, multi-letter tiles
    bracketed. (Unlike notation for words, an R beside an R needs no bracket: a CGP reader
    never joins letters into a multi-letter tile.)

    >>> from letras.editions import find_edition
    >>> es = find_edition("es")
    >>> format_rack(parse_rack("RR[RR]?", es), es)
    'RR[RR]?'
    """
    return "".join(edition.tiles.notation(t) for t in rack)


def _parse_rack(text: str, edition: Edition, number: int | None) -> tuple[int, ...]:
    """A rack: the ``number``-th of a CGP line (from 1), or a rack on its own (None)."""
    what = "rack" if number is None else f"CGP rack {number}"
    facts: dict[str, Any] = {"rack": text} if number is None else {"rack": text, "number": number}
    try:
        rack = edition.tiles.parse(text, rack=True)
    except NotationError as e:
        raise FormatError(
            f"{what} {text!r}: {e}",
            key="cgp.rack_notation" if number is not None else "cgp.lone_rack_notation",
            **facts, **inner_facts(e),
        ) from None
    for t in rack:
        if is_designated_blank(t):
            label = edition.tiles.label(t)
            raise FormatError(
                f"{what} {text!r}: a rack holds letters and '?' blanks, not a designated blank"
                f" {label!r}",
                key="cgp.rack_designated" if number is not None else "cgp.lone_rack_designated",
                tile=label, **facts,
            )
    if len(rack) > edition.rack_size:
        raise FormatError(
            f"{what} {text!r}: a rack holds at most {edition.rack_size} tiles",
            key="cgp.rack_size" if number is not None else "cgp.lone_rack_size",
            max=edition.rack_size, **facts,
        )
    return rack


def _parse_row(row: str, number: int, edition: Edition) -> list[int]:
    """The tile codes of one board row (``number`` counts from 1, for messages)."""
    size = edition.layout.size
    squares: list[int] = []
    i = 0
    while i < len(row) and len(squares) <= size:
        if row[i] in _DIGITS:
            j = i
            while j < len(row) and row[j] in _DIGITS:
                j += 1
            # Cap the run before making squares of it: "99999999" must not become a huge list.
            run = int(row[i:j]) if j - i <= 3 else size + 1
            squares.extend([EMPTY] * min(run, size + 1))
            i = j
            continue
        if row[i] == "[":
            end = row.find("]", i)
            if end < 0:
                raise FormatError(f"CGP board row {number} {row!r}: unclosed '['",
                                  key="cgp.row_bracket", number=number, row=row)
            token, i = row[i : end + 1], end + 1
        else:
            token, i = row[i], i + 1
        squares.append(_board_tile(token, row, number, edition))
    if len(squares) != size:
        long = len(squares) > size
        count = f"more than {size}" if long else str(len(squares))
        raise FormatError(f"CGP board row {number} {row!r} has {count} squares, not {size}",
                          key="cgp.row_long" if long else "cgp.row_short",
                          number=number, row=row, n=len(squares), size=size)
    return squares


def _board_tile(token: str, row: str, number: int, edition: Edition) -> int:
    if token == "?":
        raise FormatError(
            f"CGP board row {number} {row!r}: a blank on the board is written as the letter"
            " it stands for, in lower case",
            key="cgp.row_blank", number=number, row=row,
        )
    try:
        tiles = edition.tiles.parse(token, rack=True)
    except NotationError as e:
        raise FormatError(f"CGP board row {number} {row!r}: {e}", key="cgp.row_notation",
                          number=number, row=row, tile=token, **inner_facts(e)) from None
    if len(tiles) != 1:
        raise FormatError(f"CGP board row {number} {row!r}: bad tile {token!r}",
                          key="cgp.row_tile", number=number, row=row, tile=token)
    return tiles[0]


def _score(text: str, scores: str) -> int:
    if not _INTEGER.fullmatch(text):
        raise FormatError(f"bad score {text!r} in CGP {scores!r}", key="cgp.score", text=text,
                          scores=scores)
    return int(text)


def _read_opcodes(text: str) -> tuple[str | None, str | None, tuple[Opcode, ...]]:
    """Split the opcode text into the lexicon, the letter distribution and the others."""
    lexicon: str | None = None
    distribution: str | None = None
    others: list[Opcode] = []
    for op in text.split(";"):
        words = op.split()
        if not words:
            continue
        name, operands = words[0], " ".join(words[1:])
        if name in ("lex", "ld"):
            if not operands:
                raise FormatError(f"CGP opcode {op.strip()!r} needs a name after {name!r}",
                                  key="cgp.opcode_empty", opcode=op.strip(), name=name)
            if (lexicon if name == "lex" else distribution) is not None:
                raise FormatError(f"CGP opcode {name!r} appears more than once: {text!r}",
                                  key="cgp.opcode_twice", name=name, text=text)
            if name == "lex":
                lexicon = operands
            else:
                distribution = operands
        else:
            others.append((name, operands))
    return lexicon, distribution, tuple(others)


def _edition_of(distribution: str | None) -> Edition:
    if distribution is None:
        return find_edition(DEFAULT_EDITION)
    try:
        return find_edition(distribution)
    except UnknownEditionError:
        known = ", ".join(sorted(set(LETTER_DISTRIBUTIONS.values())))
        raise FormatError(
            f"unknown letter distribution in CGP opcode 'ld {distribution};'"
            f" (known: {known}, or an edition name)",
            key="cgp.distribution", distribution=distribution, known=known,
        ) from None


def _check_operands(name: str, operands: str) -> None:
    if ";" in operands or operands != " ".join(operands.split()):
        raise FormatError(f"bad operands for CGP opcode {name!r}: {operands!r}",
                          key="cgp.operands", name=name, operands=operands)


def _check_opcode(name: str, operands: str) -> None:
    if not name or ";" in name or name != "".join(name.split()):
        raise FormatError(f"bad CGP opcode name {name!r}", key="cgp.opcode_name", name=name)
    if name in ("lex", "ld"):
        raise FormatError(f"CGP opcode {name!r} is a field of the position, not an opcode",
                          key="cgp.opcode_field", name=name)
    _check_operands(name, operands)
    if name in _COUNT_OPTIONS and not _COUNT.fullmatch(operands):
        raise FormatError(f"CGP opcode {name!r} needs a number, not {operands!r}",
                          key="cgp.opcode_count", name=name, operands=operands)
    if name == "cr" and operands not in _CHALLENGE_RULES:
        known = ", ".join(_CHALLENGE_RULES)
        raise FormatError(f"unknown challenge rule in CGP opcode 'cr {operands};' (known: {known})",
                          key="cgp.challenge_rule", rule=operands, known=known)

