"""Which spans the rack's tiles can fill with a word (letras.movegen._spanwords): checked
against the word list itself, and the best play by equity with blanks against every play
generated on random racks and boards."""

from __future__ import annotations

import itertools
import lzma
import random
from collections import Counter
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from letras.editions import find_edition
from letras.formats.cgp import parse_board
from letras.lexicon.kwg import graph_for_words
from letras.movegen import _spanwords, generate, leaves, top_by_equity, wordmap
from letras.rules import leave
from letras.tiles import BLANK

DATA = Path(__file__).parent / "data"
EN = find_edition("en")
LETTERS = range(1, 27)


@pytest.fixture(scope="module")
def words() -> dict[int, list[Counter[int]]]:
    """The English list's words as tile multisets, by length."""
    text = lzma.decompress((DATA / "en-words.txt.xz").read_bytes()).decode()
    by_length: dict[int, list[Counter[int]]] = {}
    for w in text.split():
        by_length.setdefault(len(w), []).append(Counter(EN.tiles.code(ch) for ch in w))
    return by_length


def counts(rack: list[int]) -> npt.NDArray[np.int64]:
    out = np.zeros(64, np.int64)
    for t in rack:
        out[t] += 1
    return out


@given(st.lists(st.integers(1, 6), min_size=0, max_size=7))
def test_every_sub_multiset_of_the_letters_once_by_size(rack: list[int]) -> None:
    keys = wordmap.map_keys()
    radix = np.arange(64, dtype=np.int64) * 3 + 1
    subs, places, start = _spanwords.rack_subsets(counts(rack), keys, radix)
    expected: dict[int, set[tuple[int, ...]]] = {}
    for k in range(len(rack) + 1):
        expected[k] = set(itertools.combinations(sorted(rack), k))
    assert len(start) == len(rack) + 2
    for k in range(len(rack) + 1):
        got = {(int(subs[i]), int(places[i])) for i in range(start[k], start[k + 1])}
        want = {(sum(int(keys[t]) for t in c) % 2**64, sum(int(radix[t]) for t in c))
                for c in expected[k]}
        assert got == want
        assert start[k + 1] - start[k] == len(expected[k])


def brute_can_beat(rack: list[int], through: list[int], n: int, need: float,
                   value: dict[tuple[int, ...], float],
                   words: dict[int, list[Counter[int]]]) -> bool:
    """Some ``n`` of the rack's tiles (blanks for any letter) and the board tiles ``through``
    make a word of the list, keeping a leave worth more than ``need``."""
    letters = Counter(t for t in rack if t != BLANK)
    blanks = rack.count(BLANK)
    board = Counter(through)
    for w in words.get(n + len(through), []):
        if any(w[t] < c for t, c in board.items()):
            continue
        rest = w - board
        # the rack's letters laid: any sub-multiset of what the word needs and the rack has
        can = rest & letters
        for chosen in itertools.product(*(range(c + 1) for c in can.values())):
            used = Counter(dict(zip(can.keys(), chosen, strict=True)))
            u = n - sum(used.values())
            if u > blanks:
                continue
            kept = (letters - used) + Counter({BLANK: blanks - u})
            if value[tuple(sorted(kept.elements()))] > need:
                return True
    return False


def test_a_span_can_be_beaten_only_with_a_word(words: dict[int, list[Counter[int]]]) -> None:
    """Against the word list: which ``n`` tiles of racks with blanks make a word with 0 to 2
    board tiles, keeping a leave worth more than a threshold. Exact up to 8 tiles (the map
    has the blank keys of those words); longer, never a "no" where a word exists."""
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    table = wordmap.word_map(graph)
    rng = random.Random(5)
    yes = no = 0
    for _ in range(40):
        blanks = rng.choice((1, 2))
        rack = [rng.choice("EEAAIONRTLSUDGBCMPFHVWY") for _ in range(7 - blanks)]
        tiles = [BLANK] * blanks + [EN.tiles.code(t) for t in rack]
        tile_value = {t: rng.uniform(-5, 5) for t in LETTERS}

        def value_of(kept: tuple[int, ...], tile_value: dict[int, float] = tile_value) -> float:
            return sum(20.0 if t == BLANK else tile_value[t] for t in kept)

        rack_leaves = leaves.leave_table(tiles, value_of)
        value = {tuple(sorted(k)): value_of(tuple(sorted(k)))
                 for size in range(8) for k in set(itertools.combinations(sorted(tiles), size))}
        spans = _spanwords.span_setup(counts(tiles), 7, table.table, table.long_table,
                                      wordmap.map_keys(), 26, rack_leaves.radix)
        spans = (*spans[:11], np.uint64(spans[11]), *spans[12:])  # the rack's key as numba had it
        for _ in range(6):
            through = [rng.choice(LETTERS) for _ in range(rng.choice((0, 1, 1, 2)))]
            n = rng.randint(1 if through else 2, 7)
            need = rng.choice((-np.inf, 0.0, 15.0, 30.0))
            key = np.uint64(sum(int(wordmap.map_keys()[t]) for t in through) % 2**64)
            got = _spanwords.can_beat(spans, rack_leaves.values, n, len(through), key, need)
            want = brute_can_beat(tiles, through, n, need, value, words)
            if n + len(through) <= 8:
                assert got == want, (rack, through, n, need)
            else:
                assert got or not want, (rack, through, n, need)
            yes += want
            no += not want
    assert yes > 15 and no > 15  # both answers were at stake


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_best_by_equity_with_blanks_is_every_plays_best(data: st.DataObject) -> None:
    """Random racks with one or two blanks on the English positions' boards, and a leave
    value drawn at random: the best play by equity (with the word map: anchors left out when
    no word on their spans can beat the weakest play kept) is the best of every play."""
    graph = graph_for_words(EN, DATA / "en-words.txt.xz")
    lines = (DATA / "en-positions.tsv").read_text(encoding="utf-8").splitlines()[1:]
    cgp = data.draw(st.sampled_from([line.split("\t")[1] for line in lines if line.strip()]))
    board = parse_board(cgp, EN)
    blanks = data.draw(st.integers(1, 2))
    letters = data.draw(st.lists(st.integers(1, 26), min_size=7 - blanks, max_size=7 - blanks))
    rack = (BLANK,) * blanks + tuple(letters)
    seed = data.draw(st.integers(0, 2**16))
    tile_value = {t: random.Random(seed * 64 + t).uniform(-8, 8) for t in LETTERS}
    blank_value = data.draw(st.sampled_from([4.0, 25.0]))

    def leave_value(kept: tuple[int, ...]) -> float:
        return sum(blank_value if t == BLANK else tile_value[t] for t in kept)

    every = generate(board, rack, graph)
    if not len(every):
        return
    best = max(s + leave_value(tuple(sorted(leave(rack, p)))) for p, s in every)
    top = top_by_equity(board, rack, graph, 1, leave_value)
    assert round(top[0][2], 6) == round(best, 6)
