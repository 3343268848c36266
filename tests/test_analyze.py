"""``letras analyze`` and :mod:`letras.analysis`: the best plays of every turn of a record, what
the play made cost, the win chance over the game, its JSON shape and its picture."""

from __future__ import annotations

import itertools
import json
import math
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import jsonschema
import pytest

from helpers import small_lexicon
from letras.ai import get_player
from letras.ai.equity import EquityPlayer
from letras.ai.player import Limit
from letras.ai.selfplay import run_game
from letras.analysis import (
    AnalysisError,
    GameAnalysis,
    WinTable,
    WinTableError,
    analyze,
    shipped_win_table,
)
from letras.analysis.model import analysis_schema
from letras.analysis.picture import win_chance_svg
from letras.cli.app import run as run_cli
from letras.editions import editions, find_edition
from letras.formats.game_gcg import game_to_gcg
from letras.formats.gcg import read_gcg
from letras.formats.gcg_game import game_after_turn
from letras.game import Game

EN = find_edition("en")
SHARED = Path("/work/shared/gcg")


@cache
def played() -> str:
    """A short game as GCG: Rita plays at random, Ezra with the equity level (seeded)."""
    words = small_lexicon("en")
    game = Game(EN, ["Rita", "Ezra"], seed=7, lexicon=words)
    run_game(game, [get_player("random", words, seed=1), get_player("equity", words, seed=2)])
    return game_to_gcg(game)


@cache
def analysed() -> GameAnalysis:
    return analyze(played(), lexicon=small_lexicon("en"))


def validator() -> jsonschema.Draft202012Validator:
    schema = analysis_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_the_best_play_is_found_where_the_player_missed_it() -> None:
    words = small_lexicon("en")
    a = analysed()
    rita = [t for t in a.turns if a.players[t.player] == "Rita"]
    missed = [t for t in rita if not t.found]
    assert len(missed) >= 5
    for turn in missed[:4]:
        assert turn.made is not None and turn.best and turn.equity_lost is not None
        assert turn.best[0].equity - turn.made.equity == pytest.approx(turn.equity_lost)
        assert turn.equity_lost > 0
        # The best listed is the equity level's own choice in that position.
        before = game_after_turn(played(), turn.event, lexicon=words, seed=0)
        view = before.view(before.to_move)
        assert EN.tiles.format(view.rack, rack=True) == turn.rack
        assert EquityPlayer(words).choose(view).notation(EN) == turn.best[0].notation
        # Its win chance is higher than the play made's, and the loss says by how much.
        assert turn.best[0].win is not None and turn.made.win is not None
        assert turn.win_lost == pytest.approx(max(0.0, turn.best[0].win - turn.made.win))
    summary = a.summary[a.players.index("Rita")]
    assert summary.analysed == len(rita) and summary.best_found == len(rita) - len(missed)
    assert summary.equity_lost == pytest.approx(sum(t.equity_lost or 0 for t in rita))
    # The costliest turns by win chance (every turn has one), worst first.
    worst = [a.turns[i].win_lost or 0 for i in summary.mistakes]
    assert len(worst) == 3 and worst == sorted(worst, reverse=True)
    assert worst[0] == max(t.win_lost or 0 for t in rita)


def test_the_loss_is_zero_where_the_best_play_was_made() -> None:
    a = analysed()
    ezra = [t for t in a.turns if a.players[t.player] == "Ezra"]
    assert len(ezra) >= 8
    for turn in ezra:
        assert turn.status == "analysed" and turn.found
        assert turn.equity_lost == 0 and turn.win_lost == 0
        assert turn.made is not None and turn.made.notation == turn.best[0].notation
    summary = a.summary[a.players.index("Ezra")]
    assert summary.best_found == len(ezra) and summary.equity_lost == 0 and not summary.mistakes


def test_the_mirror_image_of_the_best_opening_is_the_best() -> None:
    lines = played().splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(">"))
    assert lines[first].startswith(">Ezra: AABILOT 8D BLOAT")
    mirrored = [*lines[:first], lines[first].replace("8D BLOAT", "H4 BLOAT")]
    turn = analyze("\n".join(mirrored), lexicon=small_lexicon("en")).turns[0]
    assert turn.made is not None and turn.made.notation == "H4 BLOAT"
    assert turn.found and turn.equity_lost == 0 and turn.best[0].notation == "8D BLOAT"


def test_the_play_made_is_valued_as_the_ranking_values_it() -> None:
    words = small_lexicon("en")
    player = EquityPlayer(words)
    for turn in (0, 5):
        game = game_after_turn(played(), turn, lexicon=words, seed=0)
        view = game.view(game.to_move)
        for candidate in player.ranked(view, 60):
            valued = player.value(view, candidate.choice)
            assert valued.score == candidate.score
            assert valued.equity == pytest.approx(candidate.equity)


def test_the_json_matches_its_schema() -> None:
    data = json.loads(json.dumps(analysed().to_dict()))
    assert not list(validator().iter_errors(data))
    assert data["format"] == "letras-analysis" and data["level"] == "equity"
    events = len(read_gcg(played()).events)
    assert len(data["win_chance"]) == events + 1  # the start, and after every event
    last = data["win_chance"][-1]
    assert last["chance"] == ([1, 0] if last["scores"][0] > last["scores"][1] else [0, 1])
    broken = dict(data, turns=[dict(data["turns"][0], status="guessed")])
    assert list(validator().iter_errors(broken))


def test_the_command_prints_a_table_and_json(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    record, words = _files(tmp_path)
    assert run_cli(["analyze", str(record), "--lexicon", str(words), "--language", "pt-BR"]) == 0
    out = capsys.readouterr().out
    assert "Rita" in out and "Maiores erros" in out and "✓" in out
    assert "8D BLOAT 20" in out  # Ezra's opening, as played and as the best found
    assert run_cli(["analyze", str(record), "--lexicon", str(words), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert not list(validator().iter_errors(data))
    assert data["summary"][0]["name"] == "Rita"


def test_svg_writes_a_picture_of_the_win_chance(tmp_path: Path) -> None:
    record, words = _files(tmp_path)
    out = tmp_path / "game.svg"
    assert run_cli(["analyze", str(record), "--lexicon", str(words), "--json",
                    "--svg", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Rita" in text and "Ezra" in text and "win chance" in text
    assert out.read_text(encoding="utf-8") == win_chance_svg(
        analysed(), title="Win chance: Rita – Ezra", xlabel="events of the record",
        ylabel="win chance")  # the same picture every time


def test_svg_without_matplotlib_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    record, words = _files(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    with pytest.raises(AnalysisError, match="needs matplotlib") as e:
        win_chance_svg(analysed())
    assert e.value.key == "analysis.matplotlib"
    out = tmp_path / "game.svg"
    assert run_cli(["analyze", str(record), "--lexicon", str(words), "--svg", str(out)]) == 1
    assert "pip install 'letras[analysis]'" in capsys.readouterr().err and not out.exists()


def test_turns_without_racks_are_listed_not_analysed(capsys: pytest.CaptureFixture[str],
                                                     tmp_path: Path) -> None:
    lines = played().splitlines()
    # Ezra's racks left out: the record says only what he played.
    bare = [_without_rack(line) if line.startswith(">Ezra:") else line for line in lines]
    a = analyze("\n".join(bare), lexicon=small_lexicon("en"))
    ezra = [t for t in a.turns if a.players[t.player] == "Ezra"]
    assert ezra and all(t.status == "rack-unknown" and t.made is None and t.found is None
                        and t.rack is None for t in ezra)
    assert all(t.status == "analysed" for t in a.turns if t not in ezra)
    assert a.summary[1].analysed == 0 and a.summary[1].unknown == len(ezra)
    assert len(a.curve) > len(a.turns)  # the win chance needs no rack
    assert not list(validator().iter_errors(json.loads(json.dumps(a.to_dict()))))
    record = tmp_path / "bare.gcg"
    record.write_text("\n".join(bare), encoding="utf-8")
    words = tmp_path / "words.txt"
    words.write_text("\n".join(["AB", "BA"]), encoding="utf-8")
    assert run_cli(["analyze", str(record), "--lexicon", str(words)]) == 0
    out = capsys.readouterr().out
    assert "rack not shown: not analysed" in out and "Biggest mistakes" in out


def test_a_withdrawn_phony_is_valued_as_the_pass_it_came_to() -> None:
    words = small_lexicon("en")
    record = """#player1 ana Ana
#player2 bo Bo
>ana: ADEINST 8D DANTIES +72 72
>ana: ADEINST -- -72 0
>bo: EEGILOR 8H OGLE +12 12"""
    a = analyze(record, lexicon=words)
    first = a.turns[0]
    assert first.withdrawn and first.made is not None and first.made.kind == "pass"
    assert first.best[0].notation != "8D DANTIES" and (first.equity_lost or 0) > 50
    assert [t.player for t in a.turns] == [0, 1]


def test_the_sim_level_simulates_the_play_made_and_repeats_for_a_seed() -> None:
    words = small_lexicon("en")
    record = "\n".join(played().splitlines()[:10])  # the headers and the first five turns
    runs = [analyze(record, lexicon=words, level="sim", limit=Limit(work=60), seed=3)
            for _ in range(2)]
    assert runs[0].to_dict() == runs[1].to_dict()
    a = runs[0]
    assert a.level == "sim" and len(a.turns) == 5
    for turn in a.turns:
        assert turn.made is not None and turn.made.win is not None
        assert 0 <= turn.made.win <= 1
        if not turn.found:
            assert turn.win_lost is not None and turn.win_lost >= 0
    assert not list(validator().iter_errors(json.loads(json.dumps(a.to_dict()))))


def test_bad_settings_are_refused_clearly(tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(AnalysisError) as e:
        analyze(played(), lexicon=small_lexicon("en"), level="deep")
    assert e.value.key == "analysis.level"
    record, words = _files(tmp_path)
    for argv, says in (
        (["--seconds", "0"], "--seconds needs a positive number"),
        (["--level", "equity", "--work", "50"], "for --level sim"),
        (["--svg", str(tmp_path)], "it is a directory"),
    ):
        assert run_cli(["analyze", str(record), "--lexicon", str(words), *argv]) == 1
        assert says in capsys.readouterr().err
    assert run_cli(["analyze", str(tmp_path / "none.gcg")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_the_win_tables_rise_with_the_spread_and_read_back() -> None:
    for name in editions():
        table = shipped_win_table(name)
        assert table is not None, name
        assert table.info["games"] >= 1000 and table.info["brier"] < 0.2
        for row in table.win:
            assert all(a <= b for a, b in itertools.pairwise(row))
            assert row[0] < 0.1 and row[-1] > 0.9
        assert table.chance(0, 3) > 0.5  # the move is worth something
        assert table.chance(40, 3) > table.chance(40, 60) > table.chance(-40, 60)
        assert WinTable.from_dict(table.to_dict()) == table
    with pytest.raises(WinTableError):
        WinTable.from_dict({"edition": "en", "spreads": [0, 1], "win": [[0.5, 1.5]]})
    with pytest.raises(WinTableError):
        WinTable.from_dict({"edition": "en", "spreads": [1, 0], "win": [[0.4, 0.6]]})


def test_more_than_two_players_get_no_win_chance() -> None:
    words = small_lexicon("en")
    game = Game(EN, ["A", "B", "C"], seed=3, lexicon=words)
    players = [get_player("equity", words, seed=s) for s in range(3)]
    run_game(game, players)
    a = analyze(game_to_gcg(game), lexicon=words)
    assert not a.win_table and not a.curve
    assert all(o.win is None for t in a.turns for o in t.best)
    assert all(t.found for t in a.turns if t.status == "analysed")
    with pytest.raises(AnalysisError, match="no win chance to draw"):
        win_chance_svg(a)


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared game records are not here")
def test_every_real_record_is_analysed() -> None:
    """The real records: every one (but the Polish one, which no edition reads) is analysed
    with the shipped English list, every turn with a full rack gets a best play, and the JSON
    matches its schema."""
    check = validator()
    done = 0
    for path in sorted(SHARED.glob("*.gcg")):
        if "polish" in path.name:
            continue
        a = analyze(path.read_bytes())
        for turn in a.turns:
            if turn.status == "analysed":
                assert turn.best and turn.made is not None and turn.equity_lost is not None
                assert not math.isnan(turn.equity_lost)
        assert not list(check.iter_errors(json.loads(json.dumps(a.to_dict())))), path.name
        done += 1
    assert done >= 20


def _files(tmp_path: Path) -> tuple[Path, Path]:
    """The played game and the small word list, as files for the command line."""
    record = tmp_path / "game.gcg"
    record.write_text(played(), encoding="utf-8")
    return record, Path(__file__).parent / "data" / "en-words.txt.xz"


def _without_rack(line: str) -> str:
    """``>Ezra: RACK 8D WORD +20 20`` as ``>Ezra: 8D WORD +20 20`` (and so for exchanges and
    passes; the end-of-game lines have no rack)."""
    head, rest = line.split(":", 1)
    fields = rest.split()
    if len(fields) == 5 or (len(fields) == 4 and fields[1].startswith("-")):
        return f"{head}: {' '.join(fields[1:])}"
    return line


def test_the_analysis_imports_no_front_end() -> None:
    """A library for every front end: no command line, terminal, catalogs, rich, server, and
    matplotlib only when a picture is drawn."""
    import subprocess

    code = ("import sys, letras.analysis, letras.analysis.picture; "
            "print('\\n'.join(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout.split()
    assert "letras.analysis.analyze" in out and "letras.ai.sim" in out
    assert not [m for m in out if m.startswith(("letras.cli", "letras.terminal", "letras.i18n",
                                                "letras.server", "letras.table", "rich",
                                                "matplotlib"))]
