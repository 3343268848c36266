"""`letras score CGP PLAY`: the words a play forms and their scores, or why it is illegal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from letras.cli import main as run

# S1: CASA across from I8 and DESLIGA down from M1; an S on M8 makes CASAS and DESLIGAS.
CASA = "12D2/12E2/12S2/12L2/12I2/12G2/12A2/8CASA3/15/15/15/15/15/15/15 ASDEIOU/ 100/120 0"
EMPTY_EN = "/".join(["15"] * 15) + " DEINRSW/ 0/0 0 ld english;"


def score(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Run ``letras score``; without ``--lexicon`` the words are not checked."""
    extra = [] if "--lexicon" in argv else ["--no-lexicon"]
    code = run(["score", *argv, *extra])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("play", ["8I ....S", "8I CASAS", "M8 S"])
def test_casas_scores_6_plus_desligas_13(capsys: pytest.CaptureFixture[str], play: str) -> None:
    code, out, err = score(capsys, CASA, play)
    assert (code, err) == (0, "")
    assert sorted(out.splitlines()[:2]) == ["CASAS 6", "DESLIGAS 13"]
    assert out.splitlines()[2:] == ["total 19"]


def test_the_main_word_comes_first(capsys: pytest.CaptureFixture[str]) -> None:
    assert score(capsys, CASA, "8I ....S")[1] == "CASAS 6\nDESLIGAS 13\ntotal 19\n"
    assert score(capsys, CASA, "M1 .......S")[1] == "DESLIGAS 13\nCASAS 6\ntotal 19\n"


def test_json_output_is_exact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = score(capsys, CASA, "8I CASAS", "--json")
    assert code == 0
    assert out == (
        '{"words": [{"word": "CASAS", "score": 6}, {"word": "DESLIGAS", "score": 13}],'
        ' "bingo": 0, "total": 19}\n'
    )
    assert json.loads(out)["total"] == 19


def test_a_bingo_adds_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    # W on the double letter D8, the whole word doubled by the centre: (11 + 4) x 2 + 50.
    code, out, _ = score(capsys, EMPTY_EN, "8D WINDERS")
    assert (code, out) == (0, "WINDERS 30\nbingo 50\ntotal 80\n")
    code, out, _ = score(capsys, EMPTY_EN, "8D WINDERS", "--json")
    assert json.loads(out) == {
        "words": [{"word": "WINDERS", "score": 30}],
        "bingo": 50,
        "total": 80,
    }


def test_the_bingo_bonus_opcode_counts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = score(capsys, EMPTY_EN + " bb 35;", "8D WINDERS")
    assert (code, out.splitlines()[-2:]) == (0, ["bingo 35", "total 65"])


def test_the_play_may_be_two_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert score(capsys, CASA, "8I", "CASAS")[:2] == (0, "CASAS 6\nDESLIGAS 13\ntotal 19\n")


def test_the_cgp_may_be_a_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "casa.cgp"
    path.write_text(CASA + " lex TEST;\n", encoding="utf-8")
    assert score(capsys, str(path), "8I ....S")[:2] == (0, "CASAS 6\nDESLIGAS 13\ntotal 19\n")


def test_a_file_of_two_lines_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "two.cgp"
    path.write_text(f"{CASA}\n{CASA}\n", encoding="utf-8")
    code, out, err = score(capsys, str(path), "8I ....S")
    assert (code, out) == (1, "")
    assert "one position on one line" in err


def test_words_are_checked_with_a_lexicon(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    words = tmp_path / "words.txt"
    words.write_text("CASA\nCASAS\nDESLIGA\n", encoding="utf-8")
    code, out, err = score(capsys, CASA, "8I ....S", "--lexicon", str(words))
    assert (code, out) == (1, "")
    assert "DESLIGAS" in err
    assert "CASAS" not in err.replace("DESLIGAS", "")
    # one line says why (progress lines of a first build or compile may come before it)
    assert [line for line in err.splitlines() if "illegal" in line] == err.splitlines()[-1:]
    words.write_text("CASAS\nDESLIGAS\n", encoding="utf-8")
    assert score(capsys, CASA, "8I ....S", "--lexicon", str(words))[0] == 0


def test_without_a_lexicon_words_are_not_checked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = score(capsys, CASA, "8I ....O")
    assert (code, out) == (0, "CASAO 6\nDESLIGAO 13\ntotal 19\n")


def test_tiles_not_on_the_rack_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = score(capsys, CASA, "8I ....Z")
    assert (code, out) == (1, "")
    assert "not on the rack" in err
    assert "Z" in err


def test_an_unknown_rack_is_not_checked(capsys: pytest.CaptureFixture[str]) -> None:
    unknown = CASA.replace("ASDEIOU/", "/ASDEIOU")
    assert score(capsys, unknown, "8I ....Z")[:2] == (0, "CASAZ 13\nDESLIGAZ 20\ntotal 33\n")


def test_the_rack_checked_is_the_player_to_moves(capsys: pytest.CaptureFixture[str]) -> None:
    swapped = CASA.replace("ASDEIOU/", "AEIOU/SSS")
    code, _, err = score(capsys, swapped, "8I ....S")
    assert code == 1
    assert "not on the rack" in err


def test_an_illegal_shape_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = score(capsys, CASA, "1A AS")
    assert (code, out) == (1, "")
    assert "touch" in err
    code, _, err = score(capsys, EMPTY_EN, "1A WIND")
    assert code == 1
    assert "centre" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ((CASA, "9X SS"), "bad coordinate '9X'"),
        ((CASA, "8I"), "a play is a square and tiles"),
        ((CASA, "8I CA[SAS"), "unclosed '['"),
        ((CASA, "8I CAKAS"), "no tile 'K'"),
        (("15/15 / 0/0 0", "8I S"), "15 rows, not 2"),
        (("nosuchfile.cgp", "8I S"), "'nosuchfile.cgp'"),
        ((CASA, "8I S", "--edition", "klingon"), "unknown edition 'klingon'"),
        ((CASA, "8I S", "--lexicon", "/nonexistent/words.txt"), "not a file"),
    ],
)
def test_bad_input_gives_one_clear_line_and_exit_1(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = score(capsys, *argv)
    assert (code, out) == (1, "")
    assert message in err
    assert "Traceback" not in err
    assert err.startswith("letras: ")
    assert len(err.strip().splitlines()) == 1


def test_the_edition_option_wins_over_ld(capsys: pytest.CaptureFixture[str]) -> None:
    # Ñ is not an English tile; with --edition es the same CGP reads.
    cgp = "/".join(["15"] * 15) + " AÑO/ 0/0 0 ld english;"
    assert score(capsys, cgp, "8G AÑO")[0] == 1
    code, out, _ = score(capsys, cgp, "8G AÑO", "--edition", "es")
    assert (code, out) == (0, "AÑO 20\ntotal 20\n")


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run(["score", CASA])
    assert info.value.code == 2
    assert "PLAY" in capsys.readouterr().err


def test_the_edition_lexicon_checks_words_by_default(capsys: pytest.CaptureFixture[str]) -> None:
    from letras.lexicon import shipped_lexicons

    if "pt-BR" not in shipped_lexicons():
        pytest.skip("no shipped pt-BR lexicon")
    assert run(["score", CASA, "8I ....S"]) == 0
    assert capsys.readouterr().out == "CASAS 6\nDESLIGAS 13\ntotal 19\n"
    assert run(["score", CASA, "8I ....O"]) == 1
    assert "DESLIGAO" in capsys.readouterr().err
