"""``letras moves``: every play for the player to move, best first, in text or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from letras.cli import main
from letras.lexicon import shipped_lexicons

DATA = Path(__file__).parent / "data"
EMPTY = "/".join(["15"] * 15)


def moves(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["moves", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_moves_lists_every_play_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    cgp = f"{EMPTY} DINNVWY/ 0/0 0 ld english;"
    code, out, _ = moves(capsys, cgp, "--lexicon", str(DATA / "en-words.txt.xz"))
    assert code == 0
    lines = out.splitlines()
    scores = [int(line.rsplit(" ", 1)[1]) for line in lines]
    assert scores == sorted(scores, reverse=True)
    assert lines[0].endswith(" WINDY 32")
    assert len(lines) % 2 == 0  # the empty board gives each play both ways
    code, out, _ = moves(capsys, cgp, "--lexicon", str(DATA / "en-words.txt.xz"), "--top", "3",
                         "--json")
    data = json.loads(out)
    assert len(data) == 3 and data[0]["score"] == 32 and set(data[0]) == {"play", "score"}


@pytest.mark.parametrize(
    ("ld", "rack"),
    [("portuguese", "AÇHIJRS"), ("spanish", "A[CH]GHJRS"), ("italian", "AEIOTUZ"),
     ("english", "AEINRST")],
)
def test_moves_in_every_edition(capsys: pytest.CaptureFixture[str], ld: str, rack: str) -> None:
    if len(shipped_lexicons()) < 4:
        pytest.skip("the shipped lexicons are missing")
    code, out, _ = moves(capsys, f"{EMPTY} {rack}/ 0/0 0 ld {ld};", "--top", "5")
    assert code == 0 and len(out.splitlines()) == 5


@pytest.mark.parametrize(
    ("cgp", "message"),
    [(f"{EMPTY} / 0/0 0 ld english;", "no rack"), ("junk", "CGP"),
     (f"{EMPTY} AB/ 0/0 0 ld klingon;", "klingon")],
)
def test_bad_positions(capsys: pytest.CaptureFixture[str], cgp: str, message: str) -> None:
    code, _, err = moves(capsys, cgp, "--lexicon", str(DATA / "en-words.txt.xz"))
    assert code == 1 and message in err and "Traceback" not in err


def test_each_command_is_registered_by_the_module_named_for_it() -> None:
    import argparse

    from letras.cli.app import COMMANDS, build_parser

    def names(parser: argparse.ArgumentParser) -> set[str]:
        found = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return set(found.choices)

    assert names(build_parser()) == set(COMMANDS)
    for command, module in COMMANDS.items():
        alone = names(build_parser(command))
        assert command in alone and alone == {c for c, m in COMMANDS.items() if m == module}
    args = build_parser("moves").parse_args(["moves", "X", "--top", "2"])
    assert args.top == 2 and callable(args.func)
