"""The long fuzz run of every parser of hostile input (issue 16), by mutation of real files.

For each parser, for ``--seconds`` (120 by default), take a real input (the shipped word graphs
and leave files, the GCG records in ../shared/gcg, the CGP positions in ../shared/positions,
lines of the shipped word lists), change a few bytes of it (set, cut, repeat, insert, splice
two inputs), and feed it to the parser. Anything but success or a ``LetrasError`` is a finding
(for the GCG reader, anything it raises at all), and so is a call that takes longer than
``--slow`` seconds (an alarm interrupts Python code that hangs; compiled code that hung would
stop the run, which is a finding too). Findings are printed and their inputs saved to
``--out``. Run by hand:

    .venv/bin/python bench/fuzz.py [--seconds S] [--seed N] [PARSER ...]

PARSER is one of notation, cgp, gcg, wordlist, kwg, kbwg, klv, cli (default: all).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import lzma
import os
import random
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from types import FrameType

import numpy as np

from letras.ai.leaves.klv import parse_klv
from letras.board import Board, Square
from letras.cli import main as cli_main
from letras.editions import find_edition
from letras.errors import LetrasError
from letras.formats.cgp import Position
from letras.formats.gcg import read_gcg, write_gcg
from letras.lexicon import WordList, load_lexicon
from letras.lexicon.kwg import WordGraph, internal_to_kwg
from letras.lexicon.search import anagrams, pattern
from letras.movegen import generate
from letras.play import Place

SHARED = Path(__file__).resolve().parents[2] / "shared"
EN = find_edition("en")
EDITIONS = [find_edition(name) for name in ("en", "es", "it", "pt-BR")]


class Slow(Exception):
    pass


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise Slow()


def mutate(rng: random.Random, data: bytes, others: list[bytes]) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        if not out:
            out += rng.randbytes(rng.randint(1, 16))
            continue
        i = rng.randrange(len(out))
        kind = rng.random()
        if kind < 0.4:
            out[i] = rng.randrange(256)
        elif kind < 0.55:
            del out[i : i + rng.randint(1, 64)]
        elif kind < 0.7:
            n = rng.choice((1, 4, 8, 64, 4096))
            out[i:i] = out[i : i + n] * rng.randint(1, 4)
        elif kind < 0.85:
            out[i:i] = rng.choice((b" " * 1000, b"9" * 5000, b"\t", b"'", b":", b"[", b"\x00",
                                   b"\xff", b"#", b">", b"\n", rng.randbytes(4)))
        else:
            other = rng.choice(others)
            j = rng.randrange(len(other) or 1)
            out[i:] = other[j : j + rng.randint(1, 256)] + out[i:]
    return bytes(out)


def text_of(data: bytes) -> str:
    return data.decode("utf-8", "replace")


# ----- the parsers: each takes bytes, raises LetrasError or nothing ----------------------------


def p_notation(data: bytes) -> None:
    text = text_of(data)
    board = Board(EN)
    for edition in EDITIONS:
        with contextlib.suppress(LetrasError):
            Square.parse(text, edition.layout.size)
        with contextlib.suppress(LetrasError):
            Place.parse(text, edition, board)
        with contextlib.suppress(LetrasError):
            edition.tiles.parse(text, rack=True)
        with contextlib.suppress(LetrasError):
            edition.tiles.word_tiles(text)


def p_cgp(data: bytes) -> None:
    with contextlib.suppress(LetrasError):
        position = Position.from_cgp(text_of(data))
        Position.from_cgp(position.cgp(), position.edition)
        position.rules  # noqa: B018 - the opcodes' rule options


def p_gcg(data: bytes) -> None:
    record = read_gcg(data)  # never raises
    read_gcg(write_gcg(record))


def p_wordlist(data: bytes) -> None:
    lines = text_of(data).splitlines()
    words = WordList(EN, lines)
    list(words)
    graph = WordGraph.build(EN, lines)
    assert len(graph) <= len(words) + 1


_tmp = Path(tempfile.mkdtemp(prefix="letras-fuzz-"))


def _graph_file(data: bytes, suffix: str) -> None:
    path = _tmp / f"fuzz{suffix}"
    path.write_bytes(data)
    try:
        graph = WordGraph.load(path, EN)
    except LetrasError:
        return
    len(graph)
    "CARE" in graph  # noqa: B015 - a lookup
    if len(graph) <= 20_000:
        list(graph.words())
        pattern(graph, "*A*")
    anagrams(graph, "AERST?")
    generate(Board(EN), EN.tiles.parse("AEIRST?", rack=True), graph)


def p_kwg(data: bytes) -> None:
    _graph_file(data, ".kwg")


def p_kbwg(data: bytes) -> None:
    _graph_file(data, ".kbwg")


def p_klv(data: bytes) -> None:
    try:
        table = parse_klv(data, EN)
    except LetrasError:
        return
    table.rack_leaves(EN.tiles.parse("?EQRSSZ", rack=True))
    len(table)


_words_file = _tmp / "words.txt"
_words_file.write_text("CARE\nCARES\nCAR\nBAR\nACE\nRACE\nSCARE\nARC\n", encoding="utf-8")
_CLI = [["word", "check"], ["word", "anagram"], ["word", "pattern"], ["score"], ["moves"],
        ["gcg", "show"], ["gcg", "check"], ["lexicon", "build"]]


def p_cli(data: bytes) -> None:
    rng = random.Random(data)
    argv = [a for a in text_of(data).replace("\x00", "").split("\n") if a][:4] or [""]
    command = rng.choice(_CLI)
    if command[0] in ("score", "moves"):
        args = [*command, *argv, "--lexicon", str(_words_file)]
    elif command[0] == "gcg":
        path = _tmp / "fuzz.gcg"
        path.write_bytes(data)
        args = [*command, str(path)]
    elif command[0] == "lexicon":
        args = [*command, str(_words_file), "-e", "en", "-o", str(_tmp / (argv[0][:50] or "x"))]
    else:
        args = [*command, *argv, "-e", "en", "-l", str(_words_file)]
    with (contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()),
          contextlib.suppress(SystemExit)):  # SystemExit: argparse refusing the arguments
        cli_main(args)


# ----- the inputs ------------------------------------------------------------------------------


def shipped_graph_bytes() -> tuple[list[bytes], list[bytes]]:
    """The shipped English graph as .kbwg bytes and as .kwg bytes, plus a small built one."""
    small = WordGraph.build(EN, ["CARE", "CARES", "CAR", "BAR", "ACE", "RACE", "SCARE", "ARC"])
    en = load_lexicon("en")
    assert isinstance(en, WordGraph)
    big = [g.nodes for g in (small, en)]
    return ([n.astype("<u4").tobytes() for n in big],
            [internal_to_kwg(n).astype("<u4").tobytes() for n in big])


def seeds() -> dict[str, list[bytes]]:
    gcg = [p.read_bytes() for p in sorted((SHARED / "gcg").glob("*.gcg"))]
    cgp = []
    for tsv in sorted((SHARED / "positions").glob("*.tsv")):
        for line in tsv.read_text(encoding="utf-8").splitlines()[1:200]:
            cols = line.split("\t")
            name = {"en.tsv": "english"}.get(tsv.name, tsv.stem)
            cgp.append(f"{cols[1]} {cols[2]}/ 0/0 0 ld {name};".encode())
    lists = []
    data = resources.files("letras.lexicon") / "data"
    for entry in ("en.txt.xz", "pt-BR.txt.xz"):
        words = lzma.decompress((data / entry).read_bytes()).splitlines()
        rng = random.Random(entry)
        lists += [b"\n".join(rng.sample(words, 50)) for _ in range(20)]
    kbwg, kwg = shipped_graph_bytes()
    ai = resources.files("letras.ai") / "data"
    klv = [(ai / "en.klv").read_bytes()]
    from letras.ai.leaves.klv import LeaveTable, klv_bytes

    small = LeaveTable.from_values(EN, {"?": 25.0, "?S": 31.5, "Q": -7.25, "EQ": -5.0, "S": 8.0})
    klv += [klv_bytes(small), klv_bytes(small, int16=True)]
    notation = [b"8D WINDY", b"H8 .OJA", b"E3 JAVE..N", b"[CH]a", b"A1", b"O15", b"?AEIRST"]
    return {
        "notation": notation, "cgp": cgp, "gcg": gcg, "wordlist": lists,
        "kwg": kwg, "kbwg": kbwg, "klv": klv, "cli": notation + gcg[:5] + cgp[:5],
    }


PARSERS: dict[str, Callable[[bytes], None]] = {
    "notation": p_notation, "cgp": p_cgp, "gcg": p_gcg, "wordlist": p_wordlist,
    "kwg": p_kwg, "kbwg": p_kbwg, "klv": p_klv, "cli": p_cli,
}


def run(name: str, inputs: list[bytes], seconds: float, slow: float, rng: random.Random,
        out: Path) -> tuple[int, int, list[str]]:
    parser = PARSERS[name]
    findings: list[str] = []
    runs = 0
    worst = 0.0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        data = mutate(rng, rng.choice(inputs), inputs)
        runs += 1
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, slow)
        try:
            parser(data)
        except LetrasError:
            if name == "gcg":
                findings.append(_save(out, name, data, traceback.format_exc()))
        except Slow:
            findings.append(_save(out, name, data, f"slower than {slow} s"))
        except Exception:
            findings.append(_save(out, name, data, traceback.format_exc()))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        worst = max(worst, time.perf_counter() - start)
    print(f"{name:<9} {runs:>8,} inputs  slowest {worst * 1e3:8.1f} ms  "
          f"{len(findings)} findings", flush=True)
    return runs, len(findings), findings


def _save(out: Path, name: str, data: bytes, why: str) -> str:
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{name}-{len(list(out.iterdir())):04d}.bin"
    path.write_bytes(data)
    path.with_suffix(".txt").write_text(why, encoding="utf-8")
    last = why.strip().splitlines()[-1] if why.strip() else why
    print(f"  finding {path}: {last[:160]}", flush=True)
    return last


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("parsers", nargs="*", metavar="PARSER", help=", ".join(PARSERS))
    ap.add_argument("--seconds", type=float, default=120.0, help="per parser (120)")
    ap.add_argument("--slow", type=float, default=5.0, help="a call slower than this is a finding")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "letras-fuzz")
    args = ap.parse_args(argv)
    unknown = [name for name in args.parsers if name not in PARSERS]
    if unknown:
        ap.error(f"unknown parser {', '.join(unknown)} (known: {', '.join(PARSERS)})")
    os.environ["LETRAS_CACHE"] = str(_tmp / "cache")
    signal.signal(signal.SIGALRM, _alarm)
    inputs = seeds()
    rng = random.Random(args.seed)
    total = 0
    for name in args.parsers or list(PARSERS):
        total += run(name, inputs[name], args.seconds, args.slow, rng, args.out)[1]
    print(f"{total} findings; inputs in {args.out}" if total else "no findings")
    return 1 if total else 0


if __name__ == "__main__":
    np.seterr(all="ignore")
    sys.exit(main(sys.argv[1:]))
