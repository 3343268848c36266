"""The numbering of a rack's leaves: one index per leave, the same for everything that uses it."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from letras.movegen.leaves import LeaveNumbering, leave_radix, leave_table

racks = st.lists(st.integers(0, 63), max_size=7)


@given(racks)
def test_every_leave_has_one_index(rack: list[int]) -> None:
    numbering = LeaveNumbering(rack)
    subsets = {tuple(sorted(c)) for n in range(len(rack) + 1)
               for c in itertools.combinations(rack, n)}
    assert numbering.size == len(subsets)
    seen = {}
    for index, leave in numbering:
        assert numbering.leave(index) == leave and numbering.index(leave) == index
        seen[index] = leave
    assert sorted(seen) == list(range(numbering.size)) and set(seen.values()) == subsets
    assert numbering.leave(0) == () and numbering.leave(numbering.full) == tuple(sorted(rack))
    radix, size = leave_radix(rack)
    assert size == numbering.size and np.array_equal(radix, numbering.radix)


@given(racks)
def test_the_tiles_kept_of_each_code(rack: list[int]) -> None:
    numbering = LeaveNumbering(rack)
    indices = np.arange(numbering.size)
    for code in numbering.codes:
        got = numbering.kept_of(indices, code).tolist()
        assert got == [Counter(numbering.leave(i))[code] for i in range(numbering.size)]


@given(racks)
def test_a_leave_table_holds_each_leave_s_value(rack: list[int]) -> None:
    table = leave_table(rack, lambda leave: float(sum(leave) + 100 * len(leave)))
    numbering = LeaveNumbering(rack)
    for index, leave in numbering:
        assert table.values[index] == sum(leave) + 100 * len(leave)


def test_the_leave_after_each_play() -> None:
    rack = [0, 5, 5, 9]
    numbering = LeaveNumbering(rack)
    plays = np.array([[5, 0, 9 | 0x80], [5, 5, 9], [0x85, 0, 0]], np.uint8)  # 0: played through
    got = [numbering.leave(int(i)) for i in numbering.after(plays)]
    assert got == [(5, 9), (0,), (5, 5, 9)]
