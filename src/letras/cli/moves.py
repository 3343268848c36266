"""``letras moves CGP``: every legal play for the player to move, best score first."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from typing import Any

from letras.editions import Edition, find_edition
from letras.errors import FormatError, LexiconError
from letras.formats.cgp import Position


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "moves",
        help="list every legal play in a CGP position, best score first",
        description="Every legal tile play for the player to move in a CGP position, one per "
        "line as '8D WINDY 32', best score first.",
    )
    p.add_argument("cgp", metavar="CGP", help="a CGP position, or a file holding one")
    p.add_argument("--edition", help="default: the CGP's 'ld' opcode, else pt-BR")
    p.add_argument("--lexicon", metavar="LEXICON",
                   help="a shipped lexicon's name, a word list or a .kwg graph "
                        "(default: the CGP's 'lex' if shipped, else the edition's own)")
    p.add_argument("--top", type=int, metavar="N", help="only the best N plays")
    p.add_argument("--json", action="store_true",
                   help='print a JSON list of {"play": "8D WINDY", "score": 32}')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    # What one answer makes holds no cycles worth collecting, and the collector's passes over
    # numba's many objects while it loads cost start-up time: off until the answer is out.
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _run(args)
    finally:
        if enabled:
            gc.enable()


def _run(args: argparse.Namespace) -> int:
    from letras.cli.score import read_cgp
    from letras.lexicon import load_lexicon, shipped_lexicons
    from letras.lexicon.kwg import WordGraph
    from letras.movegen import ScoredPlay, generate, top_plays

    edition: Edition | None = find_edition(args.edition) if args.edition else None
    position = Position.from_cgp(read_cgp(args.cgp), edition)
    edition = position.edition
    if not position.rack:
        raise FormatError("the CGP gives no rack for the player to move")
    spec = args.lexicon
    if spec is None and position.lexicon in shipped_lexicons():
        spec = position.lexicon
    lexicon = load_lexicon(edition, spec)
    if not isinstance(lexicon, WordGraph):
        raise LexiconError("move generation needs a word graph lexicon")
    if args.top is not None and args.top < 0:
        raise FormatError("--top needs a number of plays, 0 or more")
    bingo = position.rules.bingo_bonus
    if args.top is None:
        plays = generate(position.board, position.rack, lexicon, bingo_bonus=bingo).best()
    else:
        plays = [ScoredPlay(place.notation(edition), score) for place, score in
                 top_plays(position.board, position.rack, lexicon, args.top, bingo_bonus=bingo)]
    if args.json:
        print(json.dumps([{"play": p.play, "score": p.score} for p in plays], ensure_ascii=False))
    else:
        sys.stdout.write("".join(f"{p.play} {p.score}\n" for p in plays))
    return 0
