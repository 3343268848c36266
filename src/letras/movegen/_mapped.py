"""The bingos that take in at most one board tile, laid straight from the word map
(:mod:`letras.movegen.wordmap`) instead of searched: the best-play search
(:func:`letras.movegen._kernels.generate_mapped`) looks up the rack's words once
(:func:`map_setup`), then lays them along each lane (:func:`_map_bingos`)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from letras.movegen._kept import _record
from letras.movegen._wordkeys import bingo_fits, bingo_words
from letras.movegen.wordmap import MAX_BLANKS

TILE_MASK = 0x3F
ONE = np.uint64(1)
WORDS = 4096
"""At most this many words of a rack's bingos are laid from the map: with more, every bingo
is searched."""


@njit(cache=True)
def map_setup(
    board: Any, size: int, rack: Any, nletters: int, rack_size: int, keep: int, table: Any,
    word_keys: Any, map_keys: Any,
) -> tuple[bool, Any, Any, int, Any, Any]:  # pragma: no cover - compiled
    """What :func:`_map_bingos` lays for ``rack`` on ``board``, looked up once a call in the
    word map (``table``, ``word_keys``; ``map_keys`` its tile keys): whether the bingos
    that take in at most one board tile are laid from it (``direct``: only the best
    ``keep`` are kept, the rack has at most :data:`MAX_BLANKS` blanks and not too many
    words); their rows of the map's words (``found``: those the rack makes alone first,
    ``n7`` of them, then by the board letter they take in, ``by_letter``), the letters their
    blanks stand for (``blanks``); and the key of the rack's tiles but blanks."""
    direct = keep > 0 and rack[0] <= MAX_BLANKS
    found = np.zeros(WORDS, np.int64)
    blanks = np.zeros((WORDS, 2), np.int64)
    by_letter = np.zeros(65, np.int64)
    n = 0
    if direct:
        seven, eight = bingo_fits(table, map_keys, rack, rack_size, nletters)
        on_board = np.uint64(0)
        for s in range(size * size):
            if board[s] != 0:
                on_board |= ONE << np.uint64(board[s] & TILE_MASK)
        if seven:
            n = bingo_words(table, word_keys, map_keys, rack, rack_size, 0, nletters, found,
                            blanks)
        n7 = n
        for x in range(1, 64):
            by_letter[x] = n
            if (eight & on_board) >> np.uint64(x) & ONE:
                n += bingo_words(table, word_keys, map_keys, rack, rack_size, x, nletters,
                                 found[n:], blanks[n:])
        by_letter[64] = n
        direct = n < len(found)  # else too many words to hold: search them all
    else:
        n7 = 0
    rack_key = np.uint64(0)
    for t in range(1, 64):
        for _ in range(rack[t]):
            rack_key += map_keys[t]
    return direct, found, blanks, n7, by_letter, rack_key


@njit(cache=True)
def _map_bingos(
    lane: Any, base: int, row: int, direction: int, size: int, anchor: Any, sets: Any,
    has: Any, cscores: Any, lm: Any, wm: Any, values: Any, rack_size: int, bingo: int,
    rank_bonus: float, words: Any, found: Any, blanks: Any, n7: int, by_letter: Any,
    keep: int, meta: Any, out: Any, val: Any, count: int, cur: Any,
) -> tuple[Any, Any, Any, int]:  # pragma: no cover - compiled
    """The bingos along a lane that take in at most one board tile, laid straight from the
    word map's words instead of searched: ``found[:n7]`` the rows of ``words`` that the rack
    makes alone, ``found[by_letter[x]:by_letter[x + 1]]`` those it makes with letter x, with
    the letters their blanks stand for in ``blanks``. Every square of a word must allow its
    letter (``sets``); each way of putting the blanks on the word's squares is a play."""
    for length in range(rack_size, rack_size + 2):
        for s in range(size - length + 1):
            e = s + length  # the square after the span
            if (s > 0 and lane[s - 1] != 0) or (e < size and lane[e] != 0):
                continue
            p = -1  # the board tile taken in
            ok = True
            touches = False
            for i in range(s, e):
                if lane[i] != 0:
                    if p >= 0 or length == rack_size:
                        ok = False
                        break
                    p = i
                elif anchor[i]:
                    touches = True
            if not ok or (length == rack_size + 1 and p < 0) or (not touches and p < 0):
                continue
            if p < 0:
                lo, hi = 0, n7
                letter = 0
            else:
                letter = lane[p] & TILE_MASK
                lo, hi = by_letter[letter], by_letter[letter + 1]
            for c in range(lo, hi):
                w = words[found[c]]
                fits = True
                for i in range(s, e):
                    t = w[i - s]
                    if i == p:
                        if t != letter:
                            fits = False
                            break
                    elif not (sets[base + i] >> np.uint64(t)) & ONE:
                        fits = False
                        break
                if not fits:
                    continue
                # the blanks: on any square (not the board's) of their letters, each way once
                x = np.int64(blanks[c, 0])
                y = np.int64(blanks[c, 1])
                for i in range(s if x else -1, e if x else 0):
                    if x and (i == p or w[i - s] != x):
                        continue
                    for j in range(s if y else -1, e if y else 0):
                        if y and (j == p or j == i or w[j - s] != y or (x == y and j < i)):  # noqa: SIM109
                            continue
                        main = 0
                        mult = 1
                        cross = 0
                        for q in range(s, e):
                            t = w[q - s]
                            if q == p:
                                cur[q] = 0
                                if not lane[q] & 0x80:
                                    main += values[t]
                                continue
                            blank = (q == i) | (q == j)
                            value = 0 if blank else values[t]
                            sq = base + q
                            cur[q] = (t | 0x80) if blank else t
                            main += value * lm[sq]
                            mult *= wm[sq]
                            if has[sq]:
                                cross += (cscores[sq] + value * lm[sq]) * wm[sq]
                        score = main * mult + cross + bingo
                        meta, out, val, count = _record(
                            meta, out, val, count, keep, score + rank_bonus, score, row,
                            direction, s, e - 1, rack_size, cur)
    return meta, out, val, count

