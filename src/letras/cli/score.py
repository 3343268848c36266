"""`letras score CGP PLAY`: check one play for the player to move in a position and score it.

The position is a CGP line, or the name of a file that holds one. The play is in GCG notation
(``8D WINDY``, ``H8 .OJA``). The rack of the player to move is checked when the CGP gives one;
the words are checked against ``--lexicon`` (default: the edition's shipped lexicon) unless
``--no-lexicon`` is given. Prints each word formed with its
score, the bingo bonus if any and the total, or why the play is illegal (exit 1).

>>> from letras.cli import main as run
>>> cgp = "15/15/15/15/15/15/15/3WINDY7/15/15/15/15/15/15/15 S/ 32/0 0 ld english;"
>>> run(["score", cgp, "8D WINDYS", "--no-lexicon"])
WINDYS 13
total 13
0
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from letras.editions import Edition, find_edition
from letras.errors import FormatError, IllegalPlayError
from letras.formats.cgp import Position
from letras.lexicon import load_lexicon
from letras.play import Place
from letras.rules import validate
from letras.scoring import Score


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "score",
        help="check and score one play in a CGP position",
        description=(
            "Check one play for the player to move in a CGP position and print the words it"
            " forms with their scores, or why it is illegal."
        ),
    )
    p.add_argument("cgp", metavar="CGP", help="a CGP position, or a file holding one")
    p.add_argument(
        "play",
        metavar="PLAY",
        nargs="+",
        help="the play in GCG notation: '8D WINDY' (across), 'H8 .OJA' (down)",
    )
    p.add_argument(
        "--edition",
        help="the edition (pt-BR, es, it, en); default: the CGP's 'ld' opcode, else pt-BR",
    )
    p.add_argument(
        "--lexicon",
        metavar="LEXICON",
        help="check the words against this lexicon: a shipped one's name, a word list file or a"
        " .kwg graph (default: the edition's shipped lexicon)",
    )
    p.add_argument("--no-lexicon", action="store_true", help="do not check the words")
    p.add_argument("--json", action="store_true", help="print the score as JSON")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    edition: Edition | None = find_edition(args.edition) if args.edition else None
    position = Position.from_cgp(read_cgp(args.cgp), edition)
    edition = position.edition
    lexicon = None if args.no_lexicon else load_lexicon(edition, args.lexicon)
    play = " ".join(args.play)
    try:
        place = Place.parse(play, edition, position.board)
        score = validate(
            position.board,
            place,
            rack=position.rack or None,
            lexicon=lexicon,
            rules=position.rules,
        )
    except IllegalPlayError as e:
        print(f"letras: illegal play {play!r}: {e}", file=sys.stderr)
        return 1
    print(format_json(score) if args.json else format_text(score))
    return 0


MAX_CGP_BYTES = 1 << 16
"""The largest CGP file read (a position is one line of a few hundred characters)."""


def read_cgp(argument: str) -> str:
    """The CGP text of the argument: the one line of the file it names, else the argument."""
    path = Path(argument)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):  # a CGP line can be too long or odd for a path
        is_file = False
    if not is_file:
        return argument
    try:
        with path.open("rb") as f:
            data = f.read(MAX_CGP_BYTES + 1)
        if len(data) > MAX_CGP_BYTES:
            raise FormatError(f"CGP file {argument!r} is longer than {MAX_CGP_BYTES:,} bytes: "
                              "a position is one line", key="cgp.file_size", path=argument,
                              max=MAX_CGP_BYTES)
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise FormatError(f"cannot read CGP file {argument!r}: {e}") from None
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) != 1:
        raise FormatError(
            f"a CGP file holds one position on one line; {argument!r} has {len(lines)}"
        )
    return lines[0]


def format_text(score: Score) -> str:
    """One line per word (``CASAS 6``), then ``bingo 50`` if any, then ``total 19``."""
    lines = [f"{w.word} {w.score}" for w in score.words]
    if score.bingo:
        lines.append(f"bingo {score.bingo}")
    lines.append(f"total {score.total}")
    return "\n".join(lines)


def format_json(score: Score) -> str:
    """``{"words": [{"word": "CASAS", "score": 6}, ...], "bingo": 0, "total": 19}``."""
    data = {
        "words": [{"word": w.word, "score": w.score} for w in score.words],
        "bingo": score.bingo,
        "total": score.total,
    }
    return json.dumps(data, ensure_ascii=False)
