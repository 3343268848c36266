"""``letras selfplay``: the summary, saved games, and clear refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from letras.ai import Limit
from letras.cli import main

WORDS = str(Path(__file__).parent / "data" / "en-words.txt.xz")


def selfplay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["selfplay", "--edition", "en", "--lexicon", WORDS, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_selfplay_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = selfplay(capsys, "--players", "equity,greedy", "--games", "3", "--seed", "4")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("equity,greedy on en: 3 games, seed 4")
    assert "win rate (95% CI)" in lines[1] and "spread" in lines[1]
    rows = {line.split()[0]: line.split() for line in lines[2:4]}
    assert set(rows) == {"equity", "greedy"}
    assert float(rows["equity"][1]) + float(rows["greedy"][1]) == 3
    assert "plays/s" in lines[4] and "games/s" in lines[4]
    assert "3/3 games" in err and "\r" in err  # the progress bar
    # The same seed gives the same games.
    _, again, _ = selfplay(capsys, "--players", "equity,greedy", "--games", "3", "--seed", "4")
    assert again.splitlines()[2:4] == lines[2:4]


def test_selfplay_saves_each_game_as_gcg(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, _ = selfplay(capsys, "--players", "greedy,random,greedy", "--games", "2",
                          "--gcg", str(tmp_path / "games"))
    assert code == 0
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files] == ["game-1.gcg", "game-2.gcg"]
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert text.startswith("#character-encoding UTF-8")
        assert "greedy-1 greedy-1" in text and "greedy-3 greedy-3" in text
    code = main(["gcg", "check", "--edition", "en", *map(str, files)])
    capsys.readouterr()
    assert code == 0  # every score and total in the records agrees with the rules


@pytest.mark.parametrize(
    ("players", "message"),
    [("equity,wizard", "unknown AI level 'wizard' (known: random, easy, greedy"),
     ("equity", "--players needs 2 to 4 levels, not 1"),
     ("equity,greedy,random,greedy,equity", "not 5")],
)
def test_selfplay_refuses_bad_players(
    capsys: pytest.CaptureFixture[str], players: str, message: str
) -> None:
    code, out, err = selfplay(capsys, "--players", players, "--games", "1")
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and message in err and err.startswith("letras: ")
    assert "Traceback" not in err


def test_selfplay_refuses_no_games(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = selfplay(capsys, "--players", "equity,greedy", "--games", "0")
    assert code == 1 and "--games" in err


def test_selfplay_gives_the_searching_levels_a_time_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from letras.ai import selfplay as sp

    limits: list[Limit] = []
    play_match = sp.play_match

    def spy(*args: object, **kwargs: object) -> object:
        limit = kwargs["limit"]
        assert isinstance(limit, Limit)
        limits.append(limit)
        return play_match(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(sp, "play_match", spy)
    code, out, _ = selfplay(capsys, "--players", "sim,equity", "--games", "1", "--seconds",
                            "0.05")
    assert code == 0 and out.startswith("sim,equity on en: 1 game")
    code, _, _ = selfplay(capsys, "--players", "greedy,equity", "--games", "1")
    assert code == 0
    assert [(lim.seconds, lim.work) for lim in limits] == [(0.05, None), (None, None)]


@pytest.mark.parametrize("seconds", ["0", "-1"])
def test_selfplay_refuses_a_time_limit_that_is_not_positive(
    capsys: pytest.CaptureFixture[str], seconds: str
) -> None:
    code, out, err = selfplay(capsys, "--players", "sim,equity", "--games", "1", "--seconds",
                              seconds)
    assert code == 1 and out == "" and "--seconds needs a positive number" in err
