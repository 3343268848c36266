"""Word maps (letras.movegen.wordmap): which bingos a rack can make, checked against the word
list itself, and the best plays found with the map against those found without it and against
every play generated."""

from __future__ import annotations

import lzma
import random
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from letras.editions import find_edition
from letras.formats.cgp import parse_board
from letras.lexicon.kwg import graph_for_words
from letras.movegen import _wordkeys, generate, top_by_equity, top_plays, wordmap
from letras.rules import leave

DATA = Path(__file__).parent / "data"
EN = find_edition("en")


def word_tiles(path: Path) -> list[tuple[int, ...]]:
    """The words of the list as tile codes, read straight from the text."""
    text = lzma.decompress(path.read_bytes()).decode()
    return [tuple(EN.tiles.code(ch) for ch in w) for w in text.split()]


@pytest.fixture(scope="module")
def words() -> list[tuple[int, ...]]:
    return word_tiles(DATA / "en-words.txt.xz")


def fits_by_brute_force(rack: list[int], words: list[tuple[int, ...]]) -> tuple[bool, int]:
    """Does some 7-tile word hold the rack's letters (its blanks standing for the rest), and
    the letters X for which some 8-tile word holds them and X."""
    letters = Counter(t for t in rack if t != 0)
    seven, eight = False, 0
    for w in words:
        if len(w) not in (7, 8):
            continue
        extra = Counter(w)
        extra.subtract(letters)
        if min(extra.values(), default=0) < 0:
            continue
        if len(w) == 7:
            seven = True
        else:
            for x, n in extra.items():
                if n > 0:
                    eight |= 1 << x
    return seven, eight


def racks(words: list[tuple[int, ...]], count: int, seed: int) -> list[list[int]]:
    """Racks of 7 tiles with 0, 1 or 2 blanks: a third random letters, a third a 7-tile word
    and a third an 8-tile word less one tile, with tiles turned into blanks."""
    rng = random.Random(seed)
    sevens = [w for w in words if len(w) == 7]
    eights = [w for w in words if len(w) == 8]
    letters = range(1, len(EN.tiles.labels))
    out = []
    for i in range(count):
        kind = i % 3
        if kind == 0:
            rack = [rng.choice(letters) for _ in range(7)]
        elif kind == 1:
            rack = list(rng.choice(sevens))
        else:
            rack = list(rng.choice(eights))
            rack.pop(rng.randrange(8))
        for j in rng.sample(range(7), (i // 3) % 3):
            rack[j] = 0
        out.append(rack)
    return out


def test_the_map_knows_which_bingos_a_rack_can_make(words: list[tuple[int, ...]]) -> None:
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    table = wordmap.build(graph, 7).table
    assert len(table) & (len(table) - 1) == 0 and 2 * np.count_nonzero(table) <= len(table)
    nletters = len(EN.tiles.labels) - 1
    yes = 0
    for rack in racks(words, 90, seed=7):
        counts = np.zeros(64, np.int64)
        for t in rack:
            counts[t] += 1
        seven, eight = _wordkeys.bingo_fits(table, wordmap.map_keys(), counts, 7, nletters)
        assert (bool(seven), int(eight)) == fits_by_brute_force(rack, words), rack
        yes += bool(seven)
    assert 30 <= yes < 90  # both answers were tested


def test_the_map_lists_the_words_of_a_bingo(words: list[tuple[int, ...]]) -> None:
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    built = wordmap.build(graph, 7)
    nletters = len(EN.tiles.labels) - 1
    found = np.zeros(4096, np.int64)
    blanks = np.zeros((4096, 2), np.int64)
    for rack in racks(words, 45, seed=3):
        counts = np.zeros(64, np.int64)
        for t in rack:
            counts[t] += 1
        letters = Counter(t for t in rack if t)
        for through in (0, EN.tiles.code("E"), EN.tiles.code("Q")):
            n = _wordkeys.bingo_words(built.table, built.word_keys, wordmap.map_keys(), counts, 7,
                                    through, nletters, found, blanks)
            got: Counter[tuple[int, ...]] = Counter()
            for row, (x, y) in zip(found[:n], blanks[:n], strict=True):
                word = tuple(int(t) for t in built.words[row] if t)
                rest = Counter(word)
                rest.subtract(letters + Counter([through] if through else []))
                # the blanks stand for exactly the letters the rack lacks
                assert +rest == Counter(t for t in (x, y) if t)
                got[word] += 1
            want: Counter[tuple[int, ...]] = Counter()
            for w in words:
                if len(w) == 7 + (through > 0):
                    rest = Counter(w)
                    rest.subtract(letters + Counter([through] if through else []))
                    if min(rest.values()) >= 0:
                        want[w] += 1
            assert got == want, rack


def test_the_map_knows_the_longer_bingos(words: list[tuple[int, ...]]) -> None:
    """Through two or three board tiles: exactly when some word of that length holds the
    rack's letters and the board's."""
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    built = wordmap.build(graph, 7)
    keys = wordmap.map_keys()
    nletters = len(EN.tiles.labels) - 1
    rng = random.Random(5)
    long = [Counter(w) for w in words if len(w) >= 9]
    tally: Counter[bool] = Counter()
    seen, answers = np.zeros(64, np.uint64), np.zeros(65, np.int64)
    for rack in racks(words, 60, seed=9):
        for _ in range(3):
            through = [rng.choice("AEINRST") for _ in range(rng.choice((2, 3)))]
            codes = [EN.tiles.code(ch) for ch in through]
            letters = Counter(t for t in rack if t) + Counter(codes)
            length = 7 + len(codes)
            want = any(sum(w.values()) == length and not letters - w for w in long)
            rack_key = np.uint64(sum(int(keys[t]) for t in rack if t) % 2**64)
            through_key = np.uint64(sum(int(keys[t]) for t in codes) % 2**64)
            got = _wordkeys.long_bingo(built.long_table, keys, rack_key, rack.count(0),
                                     through_key, length, nletters, seen, answers)
            assert got == want, (rack, through)
            tally[got] += 1
    assert tally[True] >= 5 and tally[False] >= 5
    assert answers[-1] == 32  # answers kept while the table is at most half full
    # three blanks, or a word longer than a board line: not known, so possible
    for blanks, length in ((3, 10), (0, 16)):
        assert _wordkeys.long_bingo(built.long_table, keys, np.uint64(0), blanks, np.uint64(0),
                                  length, 26, seen, answers)


def test_short_racks_and_many_blanks() -> None:
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    table = wordmap.word_map(graph).table
    keys = wordmap.map_keys()
    short = np.zeros(64, np.int64)
    short[1] = 6  # six tiles: no bingo
    assert _wordkeys.bingo_fits(table, keys, short, 7, 26) == (False, 0)
    blanks = np.zeros(64, np.int64)
    blanks[0] = 3
    blanks[5] = 4  # three blanks are not looked up: anything may go
    seven, eight = _wordkeys.bingo_fits(table, keys, blanks, 7, 26)
    assert seven and eight == np.uint64(0xFFFFFFFFFFFFFFFF)


def test_the_map_is_cached_beside_the_graph(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LETRAS_CACHE", str(tmp_path))
    source = tmp_path / "words.txt"
    source.write_text("ABANDON\nABALONES\nAB\nZEBRA\n", encoding="utf-8")
    graph = graph_for_words(EN, source)
    assert graph.cache_entry is not None and graph.cache_entry[0].parent == tmp_path
    entry = graph.cache_entry[0]
    stale = entry.with_name(f"{entry.name}.wmap4-7.npz")
    stale.write_bytes(b"an earlier layout")
    built = wordmap.word_map(graph)
    assert not stale.exists()  # replaced by the new files
    assert len(built.words) == 2  # ABANDON, ABALONES
    files = sorted(tmp_path.glob("*.wmap*"))
    paths = wordmap.map_paths(entry, 7)
    assert files == sorted(paths)  # one .npy file an array, nothing else
    for path, field in zip(paths, built._fields, strict=True):
        assert np.array_equal(np.load(path), getattr(built, field))
    # a new graph object of the same list reads the files instead of building, memory-mapped
    # into plain writable arrays (what numba and the compiled extension take)
    np.save(paths[0], np.zeros(16, np.uint64))
    np.save(paths[1], np.zeros(0, np.uint64))
    np.save(paths[2], np.zeros((0, 8), np.uint8))
    again = wordmap.word_map(graph_for_words(EN, source))
    assert np.count_nonzero(again.table) == 0 and len(again.words) == 0
    assert type(again.long_table) is np.ndarray and again.long_table.flags.writeable
    assert isinstance(again.long_table.base, np.memmap)
    # a file of the wrong shape is built again
    np.save(paths[0], np.zeros(10, np.uint64))
    assert len(wordmap.word_map(graph_for_words(EN, source)).words) == 2


@pytest.mark.slow
def test_best_plays_are_the_same_with_the_map(words: list[tuple[int, ...]]) -> None:
    """On the boards of the English positions, with racks likely to make bingos: the top plays
    by score and by equity, with the map and without it, and against every play generated."""
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    lines = (DATA / "en-positions.tsv").read_text(encoding="utf-8").splitlines()[1:]
    boards = [parse_board(line.split("\t")[1], EN) for line in lines if line.strip()]

    def leave_value(tiles: tuple[int, ...]) -> float:
        return sum({0: 20.0, EN.tiles.code("S"): 7.0}.get(t, -1.5) for t in tiles)

    bingos = 0
    for i, rack in enumerate(racks(words, 3 * len(boards), seed=11)):
        board = boards[i % len(boards)]
        every = generate(board, rack, graph)
        scores = sorted(every.scores().tolist(), reverse=True)[:5]
        mapped = top_plays(board, rack, graph, 5)
        assert [s for _, s in mapped] == scores
        assert [s for _, s in top_plays(board, rack, graph, 5, word_map=False)] == scores
        equities = sorted((s + leave_value(tuple(sorted(leave(rack, p)))) for p, s in every),
                          reverse=True)[:3]
        for use in (True, False):
            top = top_by_equity(board, rack, graph, 3, leave_value, word_map=use)
            assert [round(e, 6) for *_, e in top] == [round(e, 6) for e in equities]
        bingos += any(p.tile_count == 7 for p, _ in mapped)
    assert bingos > 10  # the bingo bonus was at stake


def test_a_list_without_bingo_words_has_an_empty_map() -> None:
    """A word list with no word of 7 or 8 tiles: the map has no bingo words, its table only
    the keys of the shorter words' multisets (with one or two tiles stood for by blanks), and
    the best play by equity is still every play's best."""
    import itertools

    from letras.lexicon.kwg import WordGraph
    from letras.tiles import BLANK

    graph = WordGraph.build(EN, ["CAT", "CATS", "AT", "TA", "SCAT"])
    built = wordmap.build(graph, EN.rack_size)
    assert len(built.words) == 0
    keys = [int(k) for k in wordmap.map_keys()]
    expected = set()
    for word in ("CAT", "CATS", "AT"):  # TA and SCAT are anagrams of these
        tiles = [EN.tiles.code(x) for x in word]
        for blanks in range(3):
            for gone in itertools.combinations(tiles, blanks):
                kept = list(tiles)
                for t in gone:
                    kept.remove(t)
                key = (sum(keys[t] for t in kept) + keys[64 + len(word) * 4 + blanks]) % 2**64
                expected.add(key or 1)
    assert {int(k) for k in built.table if k} == expected
    board = parse_board("15/" * 14 + "15", EN)
    rack = [EN.tiles.code(x) for x in "CATS"] + [BLANK, BLANK, EN.tiles.code("E")]
    every = generate(board, rack, graph)
    best = top_by_equity(board, rack, graph, 1, lambda leave: 0.0)
    assert every and best and best[0][1] == max(score for _, score in every)
