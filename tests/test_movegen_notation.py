"""The notation of many plays at once writes what ``Place.notation`` writes for each."""

from __future__ import annotations

from pathlib import Path

from letras.board import Board
from letras.editions import find_edition
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.movegen.notation import play_notations
from letras.play import Place

DATA = Path(__file__).parent / "data"


def one_by_one(plays: object) -> list[str]:
    from letras.movegen import Plays

    assert isinstance(plays, Plays)
    return [place.notation(plays.edition) for place, _ in plays]


def test_english_plays_through_tiles_and_with_blanks_read_as_one_by_one(
    en_words: WordGraph,
) -> None:
    en = find_edition("en")
    lines = (DATA / "en-positions.tsv").read_text(encoding="utf-8").splitlines()[1:]
    _, cgp, _rack, *_ = next(line.split("\t") for line in lines if line.startswith("mid"))
    board = parse_board(cgp, en)
    plays = generate(board, parse_rack("AER?", en), en_words)
    texts = play_notations(en, plays.meta, plays.tiles)
    assert len(texts) == len(plays) > 100
    assert texts == one_by_one(plays)
    assert any("." in t for t in texts) and any(c.islower() for t in texts for c in t)


def test_spanish_single_tiles_that_read_as_a_digraph_are_bracketed() -> None:
    es = find_edition("es")
    words = WordGraph.build(es, ["CHAL", "[C]HAL", "CALLAR", "CAL[L]A", "PERRO", "PER[R]O",
                                 "LLAMA", "HACHA"])
    board = Board(es)
    board.put(Place.parse("8G CAL[L]A", es).placed())
    texts = []
    for on, rack in ((board, "CHLRA??"), (board, "[CH][RR]PEO?A"), (Board(es), "CHRRPEO")):
        plays = generate(on, parse_rack(rack, es), words)
        assert play_notations(es, plays.meta, plays.tiles) == one_by_one(plays)
        texts += one_by_one(plays)
    assert any("[C]H" in t for t in texts) and any("[c]h" in t for t in texts)
    assert any("[CH]" in t for t in texts) and any("[R]R" in t for t in texts)


def test_a_chosen_order_of_rows_is_kept(en_words: WordGraph) -> None:
    en = find_edition("en")
    plays = generate(Board(en), parse_rack("DINNVWY", en), en_words)
    order = plays.order()[:5]
    assert play_notations(en, plays.meta, plays.tiles, order) == [
        plays.place(int(i)).notation(en) for i in order
    ]
    best = plays.best(3)
    assert best[0].play.endswith(" WINDY") and best[0].score == 32
    assert [p.play for p in best] == [plays.place(int(i)).notation(en) for i in order[:3]]
