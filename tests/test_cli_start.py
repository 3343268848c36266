"""A fresh ``letras`` process: the quick commands end it at once (``letras.cli.exit_now``),
with the same output and exit code as the command run in this process, all of it flushed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from letras.cli import QUICK, main

DATA = Path(__file__).parent / "data"
WORDS = str(DATA / "en-words.txt.xz")
EMPTY = "/".join(["15"] * 15)
CGP = f"{EMPTY} DINNVWY/ 0/0 0 ld english;"
BIG = f"{EMPTY} ?CEIRST/ 0/0 0 ld english;"
"""8,140 plays, 89 kB: more than a pipe holds (64 kB on Linux); the best scores 72
(tests/data/en-positions.tsv)."""
CASA = "12D2/12E2/12S2/12L2/12I2/12G2/12A2/8CASA3/15/15/15/15/15/15/15 ASDEIOU/ 100/120 0"

TEARDOWN = "teardown ran"
SCRIPT = f"""
import atexit, sys
atexit.register(lambda: print({TEARDOWN!r}, file=sys.stderr))
from letras.cli import main
sys.argv[0] = "letras"
sys.exit(main())
"""
"""``letras ARGS`` as the console script runs it, with an ``atexit`` handler that says
whether the interpreter's teardown ran."""


def fresh(*argv: str) -> subprocess.CompletedProcess[str]:
    """``letras ARGS`` in a fresh process, its output to pipes, block-buffered."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "-c", SCRIPT, *argv], env=env, capture_output=True,
                          text=True, timeout=600)


CASES = [
    ("moves", BIG, "--lexicon", WORDS),
    ("moves", CGP, "--lexicon", WORDS, "--top", "3", "--json"),
    ("moves", f"{EMPTY} / 0/0 0 ld english;", "--lexicon", WORDS),  # an error: exit 1
    ("moves", "junk"),
    ("score", CASA, "8I CASAS", "--no-lexicon"),
    ("score", CASA, "8I CASAS", "--json", "--no-lexicon"),
    ("word", "check", "--lexicon", WORDS, "--edition", "en", "WINDY", "QXZ"),  # exit 1
    ("lexicon", "list"),
]


@pytest.mark.parametrize("argv", CASES, ids=lambda argv: " ".join(argv[:2])[:30])
def test_a_quick_command_ends_at_once_with_the_same_output_and_exit_code(
    argv: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    assert argv[0] in QUICK
    code = main(list(argv))  # in this process, as the tests of each command run it
    out, err = capsys.readouterr()
    done = fresh(*argv)
    assert (done.returncode, done.stdout, done.stderr) == (code, out, err)
    assert TEARDOWN not in done.stderr  # ended before the teardown


def test_the_cases_cover_output_errors_and_every_exit_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    codes = set()
    for argv in CASES:
        codes.add(main(list(argv)))
        out, err = capsys.readouterr()
        assert out or err
    assert codes == {0, 1}


def test_other_commands_and_calls_with_arguments_tear_down_as_usual() -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.replace("main()", "main(sys.argv[1:])"), "lexicon",
         "list"], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout and TEARDOWN in done.stderr
    done = fresh("play", "--help")
    assert done.returncode == 0 and "usage" in done.stdout and TEARDOWN in done.stderr


def test_a_reader_that_goes_away_ends_it_quietly() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    process = subprocess.Popen([sys.executable, "-c", SCRIPT, "moves", BIG, "--lexicon", WORDS],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    first = process.stdout.readline()
    process.stdout.close()  # as `letras moves ... | head -1` does
    err = process.stderr.read().decode()
    assert process.wait(timeout=600) == 0
    assert first.endswith(b" 72\n") and "Traceback" not in err
