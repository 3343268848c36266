"""`letras gcg check` and `letras gcg show`, run in-process."""

from __future__ import annotations

from pathlib import Path

import pytest

from letras.cli import main
from letras.formats.gcg import read_gcg

DOUG = "gcgio_testdata_doug_v_emely.gcg"
POLISH = "gcgio_testdata_polish_endgame.gcg"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["gcg", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_check_passes_good_files(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doug = shared / "gcg" / DOUG
    unfinished = shared / "gcg" / "gcgio_testdata_incomplete_elise.gcg"
    code, out, err = run(capsys, "check", str(doug), str(unfinished))
    assert code == 0
    assert out.splitlines() == [
        f"{doug}: ok (28 events, final 451-345)",
        f"{unfinished}: ok (20 events, unfinished, 336-298 so far)",
    ]
    assert err == ""


def test_check_passes_every_english_game(shared: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted(str(p) for p in (shared / "gcg").glob("*.gcg") if p.name != POLISH)
    code, out, _ = run(capsys, "check", *files)
    assert code == 0
    summaries = [line for line in out.splitlines() if ": ok (" in line]
    assert len(summaries) == len(files) >= 26


def test_check_reports_a_changed_score_at_its_line(
    shared: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (shared / "gcg" / DOUG).read_text(encoding="utf-8")
    assert ">doug: AEJNOSV E3 JAVE..N +34 66\n" in text
    changed = tmp_path / "changed.gcg"
    changed.write_text(text.replace("JAVE..N +34 66", "JAVE..N +36 66"), encoding="utf-8")
    code, out, _ = run(capsys, "check", str(changed))
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == f"{changed}:5: E3 JAVE..N scores +34 (JAVELIN 34 = 34), recorded +36"
    assert lines[1] == f"{changed}:5: running total 66, expected 32 +36 = 68"
    assert lines[-1] == f"{changed}: 2 problems (28 events, final 451-345)"


def test_check_refuses_the_polish_file_in_one_line(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    polish = shared / "gcg" / POLISH
    code, out, err = run(capsys, "check", str(polish))
    assert code != 0
    assert out.splitlines() == [
        f"{polish}: cannot replay: it uses letters that edition en lacks: "
        "Ó Ą Ć Ę Ł Ń Ś Ź Ż (no shipped edition has them)"
    ]
    assert "Traceback" not in out + err


def test_check_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.gcg"
    good = tmp_path / "good.gcg"
    good.write_text(">a: DINNVWY 8D WINDY +32 32\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(missing), str(good))
    assert code == 1
    assert out.splitlines() == [
        f"{missing}: cannot read: No such file or directory",
        f"{good}: ok (1 event, unfinished, 32 so far)",
    ]
    assert "Traceback" not in out + err


def test_check_reports_read_errors_and_notices(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "junk.gcg"
    path.write_bytes(b"#character-encoding KOI8-R\n>a: DINNVWY 8D WINDY +32 32\nhello\n")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    assert out.splitlines() == [
        f"{path}:1: note: unsupported character encoding 'KOI8-R': read as UTF-8",
        f"{path}:3: not a pragma, an event or a note: 'hello'",
        f"{path}: 1 problem (1 event, unfinished, 32 so far)",
    ]


def test_check_with_an_edition_that_lacks_letters_suggests_one(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", "--edition", "it", str(shared / "gcg" / DOUG))
    assert code == 1
    assert "edition it lacks: J K W X Y (try --edition en)" in out


def test_an_unknown_edition_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "check", "--edition", "klingon", "x.gcg")
    assert code == 1
    assert err.startswith("letras: unknown edition 'klingon'")


def test_show_prints_the_record_canonically(
    shared: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = shared / "gcg" / "gcgio_testdata_name_iso8859-1.gcg"
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0
    assert out.splitlines()[:2] == ["#character-encoding UTF-8", "#player1 césar césar"]
    assert read_gcg(out) == read_gcg(path.read_bytes())


def test_gcg_without_an_action_shows_usage(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2
    assert "check or show" in err


def test_show_prints_a_position_of_the_record_as_cgp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from letras.formats.cgp import Position

    path = tmp_path / "game.gcg"
    path.write_text("#player1 doug doug\n#player2 emely emely\n"
                    ">doug: DINNVWY 8D WINDY +32 32\n>emely: ADEEGIL 7C GALE +16 16\n",
                    encoding="utf-8")
    code, out, _ = run(capsys, "show", str(path), "--cgp", "1")
    assert code == 0
    position = Position.from_cgp(out.strip())
    assert position.scores == (0, 32)  # emely to move first
    assert position.edition.tiles.format(position.rack) == "ADEEGIL"
    assert position.board.tile_count() == 5
    assert main(["moves", out.strip(), "--top", "1"]) == 0
    assert capsys.readouterr().out.strip()
    code, _, err = run(capsys, "show", str(path), "--cgp", "9")
    assert code == 1 and "no turn 9: the record has 2 events" in err
