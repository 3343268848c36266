"""Racks as multisets: what a play or an exchange leaves, counts, lenient differences."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from letras.editions import find_edition
from letras.play import Exchange, Pass, Place
from letras.rack import counts, from_counts, kept, leave, minus, played, without
from letras.rules import leave as rules_leave
from letras.tiles import BLANK, BLANK_BIT

EN = find_edition("en")
T = EN.tiles

racks = st.lists(st.integers(0, 26), max_size=7)


def test_a_play_leaves_the_tiles_it_does_not_lay() -> None:
    rack = T.parse("SATINE?", rack=True)
    place = Place.parse("8D SAtIN", EN)
    assert played(place) == [T.code("S"), T.code("A"), BLANK, T.code("I"), T.code("N")]
    assert leave(rack, place) == [T.code("T"), T.code("E")]
    assert rules_leave is leave  # the old name still answers


def test_kept_after_every_kind_of_action() -> None:
    rack = T.parse("QUIZ?", rack=True)
    assert kept(rack, Exchange(T.parse("QZ", rack=True))) == tuple(sorted(T.parse("?IU",
                                                                                   rack=True)))
    assert kept(rack, Pass()) == tuple(sorted(rack))
    assert kept(rack, Place.parse("8G QuIZ", EN)) == (T.code("U"),)  # the blank was the U


def test_without_refuses_a_tile_the_rack_lacks() -> None:
    with pytest.raises(ValueError):
        without([1, 2], [3])


@given(racks, racks)
def test_minus_is_the_multiset_difference(have: list[int], take: list[int]) -> None:
    left, missing = minus(have, take)
    assert Counter(left) == Counter(have) - Counter(take)
    assert Counter(missing) == Counter(take) - Counter(have)
    assert list(left) == sorted(left) and list(missing) == sorted(missing)


@given(racks)
def test_counts_and_back(rack: list[int]) -> None:
    assert from_counts(counts(rack, 27)) == tuple(sorted(rack))
    assert counts([t | BLANK_BIT for t in rack if t], 27)[BLANK] == sum(1 for t in rack if t)
    assert T.rack_counts(rack) == counts(rack, len(T.labels))
