"""The move generator: exact play counts on reference positions, agreement with a brute-force
generator and with the rules engine."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import lay_along
from letras.board import Board, Direction, Square
from letras.editions import find_edition
from letras.errors import IllegalPlayError
from letras.formats.cgp import parse_board, parse_rack
from letras.lexicon import WordList
from letras.lexicon.kwg import WordGraph, graph_for_words
from letras.movegen import best_play, generate, top_plays
from letras.play import Place
from letras.rules import check_shape, invalid_words, validate
from letras.scoring import score
from letras.tiles import BLANK, BLANK_BIT

DATA = Path(__file__).parent / "data"


def read_positions(path: Path) -> list[list[str]]:
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    return [line.split("\t") for line in lines if line.strip()]


def check_counts(edition_name: str, words: Path, positions: Path) -> int:
    edition = find_edition(edition_name)
    graph = graph_for_words(edition, words)
    checked = 0
    for category, cgp, rack, plays, _bag, top in read_positions(positions):
        board = parse_board(cgp, edition)
        tiles = parse_rack(rack, edition)
        found = generate(board, tiles, graph, both_directions=False)
        best = int(found.scores().max()) if len(found) else 0
        assert (len(found), best) == (int(plays), int(top)), (category, rack, cgp)
        # the bound-and-prune search finds the same top score without listing every play
        top_play = best_play(board, tiles, graph)
        assert (top_play[1] if top_play else 0) == best
        if top_play:
            assert validate(board, top_play[0], rack=tiles, lexicon=graph).total == best
        every = generate(board, tiles, graph)
        top10 = top_plays(board, tiles, graph, 10)
        assert [s for _, s in top10] == sorted(every.scores().tolist(), reverse=True)[:10]
        checked += 1
    return checked


@pytest.mark.slow
def test_own_positions_have_the_reference_counts() -> None:
    assert check_counts("en", DATA / "en-words.txt.xz", DATA / "en-positions.tsv") == 42


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en", "es", "pt-BR"])
def test_every_shared_position_has_the_reference_count(shared: Path, name: str) -> None:
    folder = shared / "positions"
    rows = check_counts(name, folder / f"{name}-words.txt.xz", folder / f"{name}.tsv")
    assert rows > 400


def test_empty_board_both_directions_doubles_the_count() -> None:
    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")
    rack = en.tiles.parse("AEINRST", rack=True)
    across = generate(Board(en), rack, graph, both_directions=False)
    both = generate(Board(en), rack, graph)
    assert len(both) == 2 * len(across) > 0
    assert {p.direction for p, _ in both} == {Direction.ACROSS, Direction.DOWN}


def test_generated_plays_are_legal_with_the_same_score() -> None:
    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")
    rows = read_positions(DATA / "en-positions.tsv")
    rng = random.Random(3)
    for _, cgp, rack, *_ in rows[::4]:
        board = parse_board(cgp, en)
        tiles = parse_rack(rack, en)
        found = generate(board, tiles, graph, both_directions=False)
        for i in rng.sample(range(len(found)), min(150, len(found))):
            place = found.place(i)
            assert validate(board, place, rack=tiles, lexicon=graph).total == found.score(i)


# ----- brute force: every placement of every rack subset on every line --------------------

LETTERS = "ABDEIRST"
WORDS = ["AB", "BA", "AD", "DA", "AE", "EA", "AI", "AR", "AS", "AT", "TA", "ID", "IS", "IT",
         "TI", "BE", "DE", "RE", "ED", "ER", "ES", "ET", "SI", "BAD", "BED", "BID", "BIT",
         "DAB", "DIE", "RAT", "TAR", "ART", "STAR", "RATS", "ARTS", "TSAR", "TIDE", "DIET",
         "EDIT", "BEAD", "BRED", "BARD", "BRAT", "BEST", "BETS", "BITE", "SIDE", "RIDE",
         "DIRE", "TIRED", "TRIED", "RESIT", "TIRES", "TIERS", "BASTE", "BEAST", "BEATS",
         "DEBIT", "BIRD", "BIDE", "SEAT", "EAST", "EATS", "TEAS", "RATE", "TEAR", "STARE"]


def brute_force(board: Board, rack: tuple[int, ...], lexicon: WordList) -> dict[frozenset[
        tuple[Square, int]], int]:
    """Every legal play as its set of placements, with its score: try every line, start,
    length and ordered choice of rack tiles (a blank as every letter of the lexicon)."""
    edition = board.edition
    letters = [edition.tiles.code(c) for c in LETTERS]
    found: dict[frozenset[tuple[Square, int]], int] = {}
    choices: set[tuple[int, ...]] = set()
    for n in range(1, len(rack) + 1):
        for perm in itertools.permutations(rack, n):
            options = [[t] if t != BLANK else [c | BLANK_BIT for c in letters] for t in perm]
            choices.update(itertools.product(*options))
    for direction in Direction:
        for r in range(15):
            for c in range(15):
                start = Square(r, c)
                for tiles in choices:
                    place = lay_along(board, start, direction, tiles)
                    if place is None:
                        continue
                    try:
                        check_shape(board, place)
                    except IllegalPlayError:
                        continue
                    if invalid_words(board, place, lexicon):
                        continue
                    key = frozenset(place.placed())
                    found[key] = score(board, place).total
    return found


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.data())
def test_generator_matches_brute_force(data: st.DataObject) -> None:
    en = find_edition("en")
    words = WordList(en, WORDS)
    graph = WordGraph.build(en, WORDS)
    board = Board(en)
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    # lay a few legal plays found by the generator itself from random racks
    for _ in range(data.draw(st.integers(0, 3))):
        rack = tuple(en.tiles.code(rng.choice(LETTERS)) for _ in range(5))
        plays = generate(board, rack, graph)
        if len(plays):
            board.put(plays.place(rng.randrange(len(plays))).placed())
    blanks = data.draw(st.integers(0, 1))
    size = data.draw(st.integers(1, 3))
    rack = tuple(sorted([BLANK] * blanks + [en.tiles.code(rng.choice(LETTERS))
                                            for _ in range(size)]))
    plays = generate(board, rack, graph)
    got = {frozenset(p.placed()): s for p, s in plays}
    assert len(got) == len(plays)  # each play once
    assert got == brute_force(board, rack, words)


def test_top_by_equity_agrees_with_ranking_every_play() -> None:
    from letras.movegen import top_by_equity
    from letras.rules import leave

    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")

    def leave_value(tiles: tuple[int, ...]) -> float:
        # any evaluation will do: here blanks and S are worth keeping, duplicates are not
        s, q = en.tiles.code("S"), en.tiles.code("Q")
        value = 0.0
        for t in set(tiles):
            n = tiles.count(t)
            value += {0: 25.0, s: 8.0, q: -7.5}.get(t, 0.5) * n - 3.0 * (n - 1)
        return value

    for _, cgp, rack, *_ in read_positions(DATA / "en-positions.tsv")[::3]:
        board, tiles = parse_board(cgp, en), parse_rack(rack, en)
        every = generate(board, tiles, graph)
        equities = sorted(
            (s + leave_value(tuple(sorted(leave(tiles, p)))) for p, s in every), reverse=True
        )
        top = top_by_equity(board, tiles, graph, 5, leave_value)
        assert [round(e, 6) for _, _, e in top] == [round(e, 6) for e in equities[:5]]
        for place, points, equity in top:
            kept = tuple(sorted(leave(tiles, place)))
            assert equity == pytest.approx(points + leave_value(kept))


@pytest.mark.parametrize("blanks", [1, 2])
def test_top_by_equity_with_blanks_agrees_with_ranking_every_play(blanks: int) -> None:
    """Racks with blanks, a blank kept worth much or little: the search tries a blank only
    while a play laying one more could beat the weakest kept (bounds with the leaves that
    keep fewer blanks), so plays that keep the blanks and plays that lay them (not only
    bingos, which the word map lays) must both still come out as every play's ranking
    says."""
    from letras.movegen import top_by_equity
    from letras.rules import leave

    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")
    kept = laid = 0
    for blank_value in (28.0, 4.0):

        def leave_value(tiles: tuple[int, ...], blank_value: float = blank_value) -> float:
            return sum(blank_value if t == BLANK else -2.0 - 0.5 * (t % 5) for t in tiles)

        for _, cgp, rack, *_ in read_positions(DATA / "en-positions.tsv")[1::4]:
            board = parse_board(cgp, en)
            tiles = tuple(sorted(t for t in parse_rack(rack, en) if t != BLANK))
            tiles = (BLANK,) * blanks + tiles[: len(tiles) - blanks]
            every = generate(board, tiles, graph)
            ranked = sorted(s + leave_value(tuple(sorted(leave(tiles, p)))) for p, s in every)
            for n, use in itertools.product((1, 3), (True, False)):
                top = top_by_equity(board, tiles, graph, n, leave_value, word_map=use)
                assert [round(e, 6) for *_, e in top] == [round(e, 6) for e in ranked[::-1][:n]]
            best = top_by_equity(board, tiles, graph, 1, leave_value)[0][0]
            if BLANK in leave(tiles, best):
                kept += 1
            elif best.tile_count < len(tiles):  # a blank laid, not in a bingo
                laid += 1
    assert kept > 0 and laid > 0  # both kinds of best play were at stake


def test_plays_that_join_words_can_be_left_out() -> None:
    """With join_words=False the plays are exactly those the rules engine takes before the
    ``join_words_from_turn`` turn: every play of the full list whose main word does not take in
    two separate runs of board tiles."""
    en = find_edition("en")
    rules = en.rules.replace(join_words_from_turn=4)
    graph = WordGraph.build(en, ["AT", "EAT", "ATEAT", "TEA", "ATE", "ETA", "TAE", "TEAT"])
    board = Board(en)
    for text in ("8D AT", "8G AT"):
        board.put(Place.parse(text, en, board).placed())
    rack = en.tiles.parse("AET?", rack=True)
    every = {p.notation(en): s for p, s in generate(board, rack, graph)}
    early = {p.notation(en): s for p, s in generate(board, rack, graph, join_words=False)}
    assert early and set(early) < set(every)
    for notation, points in every.items():
        place = Place.parse(notation, en, board)
        try:
            check_shape(board, place, rules=rules, turn=3)
            allowed = True
        except IllegalPlayError as e:
            assert e.reason == "joins-words-early"
            allowed = False
        assert (notation in early) == allowed, notation
        if allowed:
            assert early[notation] == points
    joins = set(every) - set(early)
    assert {n for n in joins if n.startswith("8")} == {"8D ..E..", "8D ..e.."}  # ATEAT
    best = best_play(board, rack, graph, join_words=False)
    assert best is not None and best[1] == max(early.values())
    assert best[0].notation(en) not in joins


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6))
def test_after_a_play_only_the_changed_lanes_have_new_plays(seed: int) -> None:
    from letras.movegen import changed_lanes, lane_state

    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")
    rng = random.Random(seed)
    board = Board(en)
    bag = [t for t, n in enumerate(en.tiles.counts) for _ in range(n)]
    rng.shuffle(bag)
    for _ in range(rng.randrange(1, 8)):
        rack = tuple(bag.pop() for _ in range(7))
        before = lane_state(board, graph)
        old = generate(board, rack, graph)
        plays = generate(board, tuple(bag[-7:]), graph)
        if not len(plays):
            continue
        board.put(plays.place(rng.randrange(len(plays))).placed())
        lanes = changed_lanes(before, lane_state(board, graph))
        assert lanes.any()

        def key(place: Place) -> tuple[frozenset[tuple[Square, int]], Direction]:
            return frozenset(place.placed()), place.direction

        def lane(place: Place) -> tuple[int, int]:
            across = place.direction is Direction.ACROSS
            return (0, place.square.row) if across else (1, place.square.col)

        kept = {key(p): s for p, s in old if not lanes[lane(p)]}
        fresh = {key(p): s for p, s in generate(board, rack, graph, lanes=lanes)}
        assert all(lanes[lane(p)] for p, _ in generate(board, rack, graph, lanes=lanes))
        assert kept.keys().isdisjoint(fresh.keys())
        assert kept | fresh == {key(p): s for p, s in generate(board, rack, graph)}


@pytest.mark.parametrize("rack_text", ["AEINRST", "?EIKLNO", "??AQTUX"])
def test_the_best_plays_on_the_empty_board_are_found_both_ways(rack_text: str) -> None:
    """On the empty board the best few are searched across and turned down: every play of
    the full list comes back, with its score, when enough are asked for."""
    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")
    board, rack = Board(en), en.tiles.parse(rack_text, rack=True)
    every = {(p.notation(en), s) for p, s in generate(board, rack, graph)}
    top = top_plays(board, rack, graph, len(every) + 3)
    assert len(top) == len(every) and {(p.notation(en), s) for p, s in top} == every
    best = best_play(board, rack, graph)
    assert best is not None and best[0].direction == Direction.ACROSS
    assert [s for _, s in top_plays(board, rack, graph, 6)] == [s for _, s in top[:6]]


def test_the_wide_graph_layout_finds_the_same_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    """An edition with tile codes of 32 and more keeps each node's list tiles beside it in a
    second word: the search reads either layout the same."""
    import letras.movegen.graph
    from letras.movegen import _kernels, packed

    en = find_edition("en")
    graph = graph_for_words(en, DATA / "en-words.txt.xz")
    narrow = packed(graph)
    wide = _kernels.packed_graph(graph.nodes, True)
    assert narrow.shape == (len(graph.nodes), 1) and wide.shape == (len(graph.nodes), 2)
    assert np.array_equal(narrow[:, 0] & 0xFFFFFFFF, wide[:, 0])
    assert np.array_equal(narrow[:, 0] >> np.uint64(32), wide[:, 1])
    positions = read_positions(DATA / "en-positions.tsv")[-6:]
    found = {}
    for layout in (narrow, wide):
        monkeypatch.setitem(letras.movegen.graph._PACKED, graph, layout)
        found[layout.shape[1]] = [
            sorted((p.notation(en), s) for p, s in generate(parse_board(cgp, en),
                                                           parse_rack(rack, en), graph))
            for _, cgp, rack, *_ in positions
        ]
    assert found[1] == found[2] and all(found[1])
