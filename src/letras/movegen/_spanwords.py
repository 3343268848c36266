"""Can the rack fill a span with a word? The word map's keys asked for every length.

The best-play search bounds an anchor by the best span it could cover
(:func:`letras.movegen._kernels._shadow`), whatever words the tiles make. A span whose main
word has ``length`` squares, ``n`` of them empty and the rest board tiles, can hold a play only
if some ``n`` of the rack's tiles and those board tiles make a word of ``length`` tiles: its
multiset's key (the sum of the tiles' keys, :mod:`letras.movegen.wordmap`) is in the map.
With ``u`` of those ``n`` tiles blanks, the rack's other ``n - u`` tiles and the board tiles
are a word with ``u`` tiles taken out, whose keys the map holds too for words of up to
``rack_size + 1`` tiles (the longer words' set has only blank-free keys: there a span with a
blank is taken to hold a word, unless the whole rack goes down, checked as
:func:`letras.movegen._wordkeys.long_bingo` does).

Once a call (:func:`span_setup`) the keys of every sub-multiset of the rack's letters (at most
2**7) are listed by size, and whether the rack alone makes a word of each number of tiles;
the spans through board tiles are asked as they come (:func:`span_has_word`), their answers
kept by the board tiles' key and the length. A key collision can only make a "yes" that is
wrong: a looser bound, never a lost play.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen._wordkeys import _has, _slot, long_bingo
from letras.movegen.wordmap import MAX_BLANKS, MAX_WORD_TILES

CACHE = 512
"""Slots of the per-call table of answers for spans through board tiles (kept while at most
half full)."""
ASKED = 35
"""A span through board tiles is asked of the map only if the rack has at most this many
sub-multisets of the tiles it lays (each a probe): else it is taken to hold a word."""
RECORDS = 1024
"""Rows of room for the spans the anchors' bounds write down in a call (past it, the
anchors' spans are taken to hold words)."""


@njit(cache=True)
def rack_subsets(rack: Any, keys: Any) -> tuple[Any, Any]:  # pragma: no cover - compiled
    """The keys of every sub-multiset of ``rack``'s letters (blanks left out), grouped by
    size: ``subs[start[k]:start[k + 1]]`` are those of ``k`` tiles."""
    n = 1
    letters = 0
    for t in range(1, 64):
        n *= rack[t] + 1
        letters += rack[t]
    subs = np.zeros(n, np.uint64)
    sizes = np.zeros(n, np.int64)
    m = 1
    for t in range(1, 64):
        c = rack[t]
        if c == 0:
            continue
        had = m
        for j in range(1, c + 1):
            for i in range(had):
                subs[m] = subs[i] + np.uint64(j) * keys[t]
                sizes[m] = sizes[i] + j
                m += 1
    order = np.argsort(sizes, kind="mergesort")
    start = np.zeros(letters + 2, np.int64)
    for i in range(n):
        start[sizes[i] + 1] += 1
    for k in range(letters + 1):
        start[k + 1] += start[k]
    return subs[order].copy(), start


@njit(cache=True)
def _lookup(
    table: Any, long_table: Any, keys: Any, subs: Any, start: Any, blanks: int,
    rack_size: int, n: int, through_key: Any, length: int, rack_key: Any, nletters: int,
    seen: Any, answers: Any, most: int,
) -> bool:  # pragma: no cover - compiled
    """Do some ``n`` of the rack's tiles (its letters' sub-multisets ``subs`` by size from
    ``start``, and ``blanks`` blanks) make a word of ``length`` tiles with board tiles whose
    keys add up to ``through_key``? (Yes when the map cannot tell, or when it would take
    more than ``most`` probes for some count of blanks.)"""
    if blanks > MAX_BLANKS or length > MAX_WORD_TILES:
        return True
    letters = len(start) - 2
    for u in range(min(blanks, n) + 1):
        k = n - u
        if k > letters:
            continue
        tag = keys[64 + length * 4 + u]
        if length > rack_size + 1 and u > 0:
            if k < letters:
                return True  # the longer words' set has no keys with blanks
            # the whole rack: its letters and its blanks, every letter tried for them
            return long_bingo(long_table, keys, rack_key, blanks, through_key, length,
                              nletters, seen, answers)
        if start[k + 1] - start[k] > most:
            return True
        where = table if length <= rack_size + 1 else long_table
        for s in range(start[k], start[k + 1]):
            if _has(where, subs[s] + through_key + tag):
                return True
    return False


@njit(cache=True)
def span_setup(
    rack: Any, rack_size: int, table: Any, long_table: Any, keys: Any, nletters: int,
) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """What :func:`span_has_word` asks with, made once a call for ``rack`` (counts per tile
    code, 0 = blanks): its letters' sub-multisets by size, whether its tiles alone make a
    word of each number of tiles (``alone[n]``: 1 or 0, -1 until asked), the table of answers
    through board tiles (keys, and the answers beside them, the last entry counting them),
    the key of its letters, its blanks, the rack size, the letters' count, and room for the
    spans that :func:`letras.movegen._kernels._shadow` writes down (tiles laid, board tiles,
    their key), their bounds, and how many."""
    subs, start = rack_subsets(rack, keys)
    total = 0
    for t in range(64):
        total += rack[t]
    rack_key = np.uint64(0)
    for t in range(1, 64):
        for _ in range(rack[t]):
            rack_key += keys[t]
    seen = np.zeros(CACHE, np.uint64)
    answers = np.zeros(CACHE + 1, np.int64)
    alone = np.full(total + 1, -1, np.int8)  # not asked yet
    return (table, long_table, keys, subs, start, alone, seen, answers, rack_key,
            np.int64(rack[0]), np.int64(rack_size), np.int64(nletters),
            np.empty((RECORDS, 3), np.int64), np.empty(RECORDS, np.float64),
            np.zeros(1, np.int64))


@njit(cache=True)
def no_spans(table: Any, keys: Any) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """A ``spans`` of :func:`span_setup`'s types for a search that does not ask it (every
    span has a word)."""
    return (table, table, keys, np.zeros(1, np.uint64), np.zeros(2, np.int64),
            np.ones(16, np.int8), np.zeros(16, np.uint64), np.zeros(17, np.int64),
            np.uint64(0), np.int64(0), np.int64(0), np.int64(0), np.zeros((1, 3), np.int64),
            np.zeros(1, np.float64), np.zeros(1, np.int64))


@njit(cache=True)
def span_has_word(spans: Any, n: int, n_through: int, through_key: Any) -> bool:
    # pragma: no cover - compiled
    """Can ``n`` of the rack's tiles make a word with the ``n_through`` board tiles of a span
    whose keys add up to ``through_key`` (see the module docstring; ``spans`` is
    :func:`span_setup`'s)?"""
    table, long_table, keys, subs, start, alone, seen, answers, rack_key, blanks, rack_size, \
        nletters, _, _, _ = spans
    if n_through == 0:
        if alone[n] < 0:
            alone[n] = _lookup(table, long_table, keys, subs, start, blanks, rack_size, n,
                               np.uint64(0), n, rack_key, nletters, seen, answers,
                               len(subs))
        return bool(alone[n])
    length = n + n_through
    key = through_key + keys[64 + length * 4 + 3]  # the slot for 3 blanks: no word's tag
    if key == 0:
        key = np.uint64(1)
    slot = _slot(seen, key)
    if seen[slot] == key:
        return bool(answers[slot])
    found = _lookup(table, long_table, keys, subs, start, blanks, rack_size, n, through_key,
                    length, rack_key, nletters, seen, answers, ASKED)
    slot = _slot(seen, key)  # the lookup may have kept answers of its own
    if answers[len(answers) - 1] < len(seen) // 2:
        seen[slot] = key
        answers[slot] = found
        answers[len(answers) - 1] += 1
    return found


@njit(cache=True)
def any_word(spans: Any, first: int, last: int, floor: float) -> bool:
    # pragma: no cover - compiled
    """Does one of the spans written down in rows ``first`` to ``last`` whose bound beats
    ``floor`` hold a word? (Those with no board tile asked first: one answer a length.) Yes
    when some were not written down for want of room."""
    rec, bound = spans[12], spans[13]
    if last > len(rec):
        return True
    for r in range(first, last):
        if bound[r] > floor and rec[r, 1] == 0 and span_has_word(spans, rec[r, 0], 0,
                                                                  np.uint64(0)):
            return True
    for r in range(first, last):
        if bound[r] > floor and rec[r, 1] > 0 and span_has_word(spans, rec[r, 0], rec[r, 1],
                                                                 np.uint64(rec[r, 2])):
            return True
    return False


__all__ = ["any_word", "no_spans", "rack_subsets", "span_has_word", "span_setup"]
