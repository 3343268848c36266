"""Every command the README shows works as written: each ``letras ...`` line of its shell blocks
runs (the quick ones in full, in a folder holding the files they name; the long-running and
interactive ones are parsed, and their runs are tested elsewhere)."""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

import pytest

from letras.cli.app import build_parser
from letras.cli.app import run as run_cli
from letras.game import Game
from letras.terminal.saving import save_game

README = Path(__file__).resolve().parents[1] / "README.md"
LONG = ("selfplay", "train-leaves", "play", "serve")
"""Commands that run for minutes, wait for a person or serve until stopped: parsed here, run in
their own tests."""


def readme_commands() -> list[str]:
    text = README.read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.S):
        for line in block.splitlines():
            line = line.split("  #")[0].strip()
            if line.startswith(("letras ", ".venv/bin/letras ")):
                lines.append(line)
    return lines


def test_the_readme_shows_commands() -> None:
    commands = readme_commands()
    assert len(commands) >= 15
    assert any(c.startswith("letras moves") for c in commands)


@pytest.mark.parametrize("line", readme_commands())
def test_each_readme_command_works_as_written(
    line: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = shlex.split(line)[1:]
    monkeypatch.chdir(tmp_path)
    if "jogo.gcg" in argv:  # a saved game for the commands that read one
        game = Game("pt-BR", ["Ana", "Bruno"], seed=2026)
        game.play("8G MUDO")
        game.pass_turn()
        save_game(game, tmp_path / "jogo.gcg")
    if "words.txt" in argv:
        (tmp_path / "words.txt").write_text("casa\ncasas\nmudo\n", encoding="utf-8")
    if argv[0] in LONG:
        args = build_parser().parse_args(argv)
        assert callable(args.func)
        if argv[0] == "play":
            assert os.path.exists(args.resume) if args.resume else True
        return
    code = run_cli(argv)
    out = capsys.readouterr()
    assert code == 0, (line, out.err)
    assert out.out.strip() or list(tmp_path.iterdir()), line
