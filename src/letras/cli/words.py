"""``letras word ...`` and ``letras lexicon ...``: look words up, list and build lexicons."""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from letras.editions import DEFAULT_EDITION, find_edition
from letras.errors import LexiconError
from letras.files import check_output
from letras.lexicon import load_lexicon, shipped_lexicons


def _graph(args: argparse.Namespace) -> Any:
    from letras.lexicon.kwg import WordGraph

    lexicon = load_lexicon(find_edition(args.edition), args.lexicon)
    if not isinstance(lexicon, WordGraph):
        raise LexiconError("this command needs a word graph lexicon")
    return lexicon


def _check(args: argparse.Namespace) -> int:
    lexicon = load_lexicon(find_edition(args.edition), args.lexicon)
    bad = [w for w in args.words if w not in lexicon]
    for word in args.words:
        print(f"{word}: {'invalid' if word in bad else 'valid'}")
    if bad:
        print(f"not in {lexicon.name}: {', '.join(bad)}", file=sys.stderr)
        return 1
    return 0


def _anagram(args: argparse.Namespace) -> int:
    from letras.lexicon.search import anagrams, pattern

    graph = _graph(args)
    if args.through:
        found = pattern(graph, args.through, rack=args.rack)
    else:
        found = anagrams(graph, args.rack, partial=args.partial)
    for word in sorted(found, key=lambda w: (-len(graph.edition.tiles.word_tiles(w)), w)):
        print(word)
    return 0 if found else 1


def _pattern(args: argparse.Namespace) -> int:
    from letras.lexicon.search import pattern

    graph = _graph(args)
    found = pattern(graph, args.pattern, rack=args.rack)
    for word in found:
        print(word)
    return 0 if found else 1


def _list(args: argparse.Namespace) -> int:
    for name, entry in shipped_lexicons().items():
        size = entry.words.read_bytes()
        licence = entry.licence.read_text(encoding="utf-8").strip().splitlines()
        first = licence[0] if licence else "?"
        default = " (default)" if entry.is_default else ""
        print(f"{name:<12} edition {entry.edition:<6} {len(size) / 1e6:5.1f} MB compressed"
              f"{default}  licence: {first}")
    return 0


def _build(args: argparse.Namespace) -> int:
    from letras.lexicon.kwg import WordGraph, read_word_file

    edition = find_edition(args.edition)
    check_output(args.output, "word graph")  # before the build, not after it
    start = time.perf_counter()

    def progress(message: str) -> None:
        print(f"[{time.perf_counter() - start:6.1f}s] {message}", file=sys.stderr, flush=True)

    try:
        text = read_word_file(args.words).decode("utf-8")
    except UnicodeDecodeError as e:
        raise LexiconError(f"{args.words!r} is not UTF-8 text: {e}") from None
    graph = WordGraph.build(edition, text.splitlines(), progress=progress)
    graph.save(args.output)
    left_out = f", {graph.skipped:,} left out (letters the edition lacks)" if graph.skipped else ""
    print(f"{args.output}: {len(graph):,} words, {len(graph.nodes):,} nodes "
          f"({time.perf_counter() - start:.1f} s){left_out}")
    return 0


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--edition", "-e", default=DEFAULT_EDITION, help="edition (default pt-BR)")
    p.add_argument("--lexicon", "-l", default=None,
                   help="a shipped lexicon's name, a word list file or a .kwg/.kbwg graph "
                        "(default: the edition's own)")


def add_parser(sub: Any) -> None:
    word = sub.add_parser("word", help="check words, find anagrams and patterns")
    wsub = word.add_subparsers(dest="word_command", metavar="COMMAND", required=True)

    p = wsub.add_parser("check", help="are these words valid? (exit 1 if any is not)")
    p.add_argument("words", nargs="+", metavar="WORD")
    _common(p)
    p.set_defaults(func=_check)

    p = wsub.add_parser("anagram", help="words made of a rack's tiles (? is a blank)")
    p.add_argument("rack")
    p.add_argument("--partial", action="store_true", help="also words using only some tiles")
    p.add_argument("--through", metavar="PATTERN",
                   help="board letters to build through, e.g. '*C*' (letters stay fixed)")
    _common(p)
    p.set_defaults(func=_anagram)

    p = wsub.add_parser("pattern", help="words matching a pattern: ? one tile, * any tiles")
    p.add_argument("pattern")
    p.add_argument("--rack", help="the ? and * tiles must come from this rack")
    _common(p)
    p.set_defaults(func=_pattern)

    lex = sub.add_parser("lexicon", help="list shipped lexicons, build word graphs")
    lsub = lex.add_subparsers(dest="lexicon_command", metavar="COMMAND", required=True)
    p = lsub.add_parser("list", help="the shipped lexicons with sizes and licences")
    p.set_defaults(func=_list)
    p = lsub.add_parser("build", help="compile a word list into a .kwg/.kbwg word graph")
    p.add_argument("words", metavar="WORDS.txt")
    p.add_argument("-o", "--output", required=True, metavar="OUT.kwg")
    p.add_argument("--edition", "-e", default=DEFAULT_EDITION)
    p.set_defaults(func=_build)
