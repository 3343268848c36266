"""Can some of the rack's tiles fill a span with a word worth enough? The word map asked for
every length, for racks with blanks.

The best-play search bounds an anchor by the best span it could cover
(:func:`letras.movegen._kernels._shadow`), whatever words the tiles make, plus the best leave
of a play of that many tiles. A span whose main word has ``length`` squares, ``n`` of them
empty and the rest board tiles, holds a play that lays the rack's tiles S only if S and those
board tiles make a word of ``length`` tiles: its multiset's key (the sum of the tiles' keys,
:mod:`letras.movegen.wordmap`) is in the map. With ``u`` of S blanks, S's letters and the
board tiles are a word with ``u`` tiles taken out, whose keys the map holds too for words of
up to ``rack_size + 1`` tiles (the longer words' set has only blank-free keys: there a span
laying a blank is taken to hold a word, unless the whole rack goes down, checked as
:func:`letras.movegen._wordkeys.long_bingo` does). And the play keeps the rest of the rack:
its leave is that of the rack less S, not the best of every leave of ``n`` tiles.

The anchors' bounds stay word-blind (they order the anchors); :func:`_shadow` writes each
span down (tiles laid, board tiles, their key, its bound), and when an anchor's turn comes,
:func:`can_beat_any` asks whether one of its spans can beat the weakest play kept with some
S that makes a word there: only the S whose leave is high enough are looked up. Once a call
(:func:`span_setup`) the keys of every sub-multiset of the rack's letters (at most 2**7) are
listed by size, each with the leave index of what is left. A key collision can only make a
"yes" that is wrong: a looser bound, never a lost play.

Measured (``bench/README.md``): it pays for racks with a blank, where each anchor searched
costs much; without a blank the anchors it drops are those the search leaves within a few
steps anyway, and the asking costs as much: it is not used then.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen._wordkeys import _has, long_bingo
from letras.movegen.wordmap import MAX_BLANKS, MAX_WORD_TILES

RECORDS = 1024
"""Rows of room for the spans the anchors' bounds write down in a call (past it, the later
anchors' spans are taken to hold words)."""
LONG_CACHE = 512
"""Slots of the per-call table of :func:`letras.movegen._wordkeys.long_bingo`'s answers."""


@njit(cache=True)
def rack_subsets(rack: Any, keys: Any, radix: Any) -> tuple[Any, Any, Any]:
    # pragma: no cover - compiled
    """The keys of every sub-multiset of ``rack``'s letters (blanks left out) and the sum of
    their tiles' ``radix`` places (:mod:`letras.movegen.leaves`), grouped by size:
    ``keys[start[k]:start[k + 1]]`` are those of ``k`` tiles."""
    n = 1
    letters = 0
    for t in range(1, 64):
        n *= rack[t] + 1
        letters += rack[t]
    subs = np.zeros(n, np.uint64)
    places = np.zeros(n, np.int64)
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
                places[m] = places[i] + j * radix[t]
                sizes[m] = sizes[i] + j
                m += 1
    order = np.argsort(sizes, kind="mergesort")
    start = np.zeros(letters + 2, np.int64)
    for i in range(n):
        start[sizes[i] + 1] += 1
    for k in range(letters + 1):
        start[k + 1] += start[k]
    return subs[order].copy(), places[order].copy(), start


@njit(cache=True)
def span_setup(
    rack: Any, rack_size: int, table: Any, long_table: Any, keys: Any, nletters: int,
    radix: Any,
) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """What :func:`can_beat` asks with, made once a call for ``rack`` (counts per tile code,
    0 = blanks; ``radix`` the places of its leaves' numbering, zeros when plays are ranked by
    score): the map's tables and tile keys; its letters' sub-multisets by size with their
    places (:func:`rack_subsets`); the table of ``long_bingo``'s answers; room for the spans
    :func:`letras.movegen._kernels._shadow` writes down (tiles laid, board tiles, their key),
    their bounds and how many; the key of its letters, its blanks, the rack size, the
    letters' count, the index of the whole rack's leave and the blank's place."""
    subs, places, start = rack_subsets(rack, keys, radix)
    rack_key = np.uint64(0)
    full = 0
    for t in range(64):
        full += rack[t] * radix[t]
        if t > 0:
            for _ in range(rack[t]):
                rack_key += keys[t]
    return (table, long_table, keys, subs, places, start, np.zeros(LONG_CACHE, np.uint64),
            np.zeros(LONG_CACHE + 1, np.int64), np.empty((RECORDS, 3), np.int64),
            np.empty(RECORDS, np.float64), np.zeros(1, np.int64), rack_key,
            np.int64(rack[0]), np.int64(rack_size), np.int64(nletters), np.int64(full),
            np.int64(radix[0]))


@njit(cache=True)
def no_spans(table: Any, keys: Any) -> tuple[Any, ...]:  # pragma: no cover - compiled
    """A ``spans`` of :func:`span_setup`'s types for a search that does not ask it."""
    return (table, table, keys, np.zeros(1, np.uint64), np.zeros(1, np.int64),
            np.zeros(2, np.int64), np.zeros(1, np.uint64), np.zeros(2, np.int64),
            np.zeros((1, 3), np.int64), np.zeros(1, np.float64), np.zeros(1, np.int64),
            np.uint64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0), np.int64(0))


@njit(cache=True)
def can_beat(spans: Any, leave_table: Any, n: int, n_through: int, through_key: Any,
             need: float) -> bool:  # pragma: no cover - compiled
    """Can ``n`` of the rack's tiles, keeping a leave worth more than ``need``
    (``leave_table`` by index, :mod:`letras.movegen.leaves`), make a word with the
    ``n_through`` board tiles of a span whose keys add up to ``through_key``? (Yes when the
    map cannot tell.) ``spans`` is :func:`span_setup`'s."""
    (table, long_table, keys, subs, places, start, seen, answers, _, _, _, rack_key, blanks,
     rack_size, nletters, full, blank_place) = spans
    length = n + n_through
    if blanks > MAX_BLANKS or length > MAX_WORD_TILES:
        return True
    letters = len(start) - 2
    for u in range(min(blanks, n) + 1):
        k = n - u
        if k > letters:
            continue
        tag = keys[64 + length * 4 + u]
        where = table if length <= rack_size + 1 else long_table
        for s in range(start[k], start[k + 1]):
            if leave_table[full - places[s] - u * blank_place] <= need:
                continue
            if length > rack_size + 1 and u > 0:
                # the longer words' set has no keys with blanks: every letter is tried for
                # them when the whole rack goes down, else the span is taken to hold a word
                if k < letters or long_bingo(long_table, keys, rack_key, u, through_key,
                                             length, nletters, seen, answers):
                    return True
            elif _has(where, subs[s] + through_key + tag):
                return True
    return False


@njit(cache=True)
def can_beat_any(spans: Any, leave_table: Any, leave_by_placed: Any, first: int, last: int,
                 floor: float) -> bool:  # pragma: no cover - compiled
    """Can one of the spans written down in rows ``first`` to ``last`` hold a play worth
    more than ``floor``? Each span's bound less the best leave of its tile count
    (``leave_by_placed``) is its score bound; :func:`can_beat` asks for the leave that would
    make up the rest. Yes when some spans were not written down for want of room."""
    rec, bound = spans[8], spans[9]
    if last > len(rec):
        return True
    for r in range(first, last):
        n = rec[r, 0]
        if bound[r] > floor and can_beat(spans, leave_table, n, rec[r, 1],
                                         np.uint64(rec[r, 2]),
                                         floor - (bound[r] - leave_by_placed[n])):
            return True
    return False


__all__ = ["can_beat", "can_beat_any", "no_spans", "rack_subsets", "span_setup"]
