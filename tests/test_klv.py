"""Leave files in the KLV format of wolges: bytes as the format says, round trips, look-ups."""

from __future__ import annotations

import itertools
import random
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from letras.ai.leaves import HeuristicLeaves, LeaveEvaluator, shipped_leaves
from letras.ai.leaves.klv import (
    KEY_TILES,
    LeaveTable,
    key_leave,
    klv_bytes,
    leave_key,
    parse_klv,
    read_klv,
    write_klv,
)
from letras.editions import find_edition
from letras.errors import FormatError, LetrasError
from letras.lexicon.kwg import WordGraph, kwg_to_internal
from letras.movegen import leave_radix, leave_table

EN = find_edition("en")
ES = find_edition("es")

# KWG nodes as wolges packs them: tile << 24 | accepts 0x800000 | is_end 0x400000 | arc index.
ACCEPTS, IS_END = 0x800000, 0x400000


def node(tile: int, arc: int = 0, accepts: bool = False, end: bool = False) -> int:
    return tile << 24 | (ACCEPTS if accepts else 0) | (IS_END if end else 0) | arc


def u32(*xs: int) -> bytes:
    return struct.pack(f"<{len(xs)}I", *xs)


# The leaves ?, A and AB of English (tiles 0, 1 and 1 2), written by hand from the format:
# node 0 points at the root (node 1); the root lists ? then A; A leads on to node 3, B.
TINY_KWG = [
    node(0, arc=1, end=True),
    node(0, accepts=True),
    node(1, arc=3, accepts=True, end=True),
    node(2, accepts=True, end=True),
]
TINY_VALUES = [25.5, 1.25, -3.0]
TINY_KLV2 = u32(4, *TINY_KWG) + u32(3) + struct.pack("<3f", *TINY_VALUES)
TINY_KLV = u32(4, *TINY_KWG) + u32(3) + struct.pack("<3h", 6528, 320, -768)  # x 256
EMPTY_KLV_WOLGES = b"\x01\x00\x00\x00\x00\x00\x40\x00\x00\x00\x00\x00"  # wolges' EMPTY_KLV_BYTES


def tiny_table() -> LeaveTable:
    return LeaveTable.from_values(EN, {"AB": -3.0, "?": 25.5, "A": 1.25})


def test_a_hand_built_klv2_file_is_read_as_the_format_says() -> None:
    table = parse_klv(TINY_KLV2, EN)
    assert len(table) == 3
    assert [(EN.tiles.format(leave, rack=True), v) for leave, v in table.items()] == [
        ("?", 25.5), ("A", 1.25), ("AB", -3.0)]
    assert table.value((0,)) == 25.5
    assert table.value((2, 1)) == table.value((1, 2)) == -3.0  # any order


def test_the_old_klv_file_holds_values_in_256ths_of_a_point() -> None:
    table = parse_klv(TINY_KLV, EN)
    assert [v for _, v in table.items()] == TINY_VALUES


def test_writing_gives_the_hand_built_bytes() -> None:
    assert klv_bytes(tiny_table()) == TINY_KLV2
    assert klv_bytes(tiny_table(), int16=True) == TINY_KLV


def test_an_empty_table_is_written_as_wolges_writes_it() -> None:
    empty = LeaveTable(EN, np.zeros(0, np.uint64), [])
    assert klv_bytes(empty) == EMPTY_KLV_WOLGES
    assert len(parse_klv(EMPTY_KLV_WOLGES, EN)) == 0


def test_values_follow_the_order_of_the_dawg() -> None:
    # The same leaves with the root's arcs listed A before ? (allowed, if unusual): the values
    # belong to the words in the order the graph lists them.
    nodes = [node(0, arc=1, end=True), node(1, arc=3, accepts=True),
             node(0, accepts=True, end=True), node(2, accepts=True, end=True)]
    data = u32(4, *nodes) + u32(3) + struct.pack("<3f", 1.25, -3.0, 25.5)
    table = parse_klv(data, EN)
    assert table.value((0,)) == 25.5 and table.value((1,)) == 1.25 and table.value((1, 2)) == -3.0
    assert klv_bytes(table) == TINY_KLV2  # written back in the sorted order


def random_table(seed: int, n: int) -> LeaveTable:
    rng = random.Random(seed)
    bag = [t for t, c in enumerate(ES.tiles.counts) for _ in range(c)]
    values: dict[tuple[int, ...], float] = {}
    while len(values) < n:
        leave = tuple(sorted(rng.sample(bag, rng.randint(1, 6))))
        values[leave] = round(rng.uniform(-40, 60), 3)
    return LeaveTable.from_values(ES, values)


def test_write_then_read_is_the_identity(tmp_path: Path) -> None:
    table = random_table(7, 5000)
    path = tmp_path / "es.klv2"
    write_klv(path, table)
    back = read_klv(path, ES)
    assert np.array_equal(back.keys, table.keys)
    assert np.array_equal(back.values, table.values)
    assert back.name == "es"
    # The DAWG part read by the project's own word graph code lists the leaves in file order.
    data = path.read_bytes()
    (n,) = struct.unpack_from("<I", data)
    nodes = np.frombuffer(data, "<u4", n, 4).astype(np.uint32)
    assert len(data) == 4 + 4 * n + 4 + 4 * len(table)
    assert struct.unpack_from("<I", data, 4 + 4 * n) == (len(table),)
    words = list(WordGraph(kwg_to_internal(nodes), ES).words())
    assert words == [leave for leave, _ in table.items()]
    assert words == sorted(words)


def test_int16_files_round_to_256ths(tmp_path: Path) -> None:
    table = random_table(8, 300)
    path = tmp_path / "es.klv"
    write_klv(path, table, int16=True)
    back = read_klv(path, ES)
    assert np.array_equal(back.keys, table.keys)
    assert np.max(np.abs(back.values - table.values)) <= 1 / 512 + 1e-6
    assert path.stat().st_size == len(klv_bytes(table)) - 2 * len(table)
    wide = LeaveTable.from_values(EN, {"Q": -200.0, "?": 127.0, "??": 140.0})
    assert [v for _, v in parse_klv(klv_bytes(wide, int16=True), EN).items()] == [
        127.0, 32767 / 256, -128.0]


def test_a_leave_table_is_a_leave_evaluator() -> None:
    table = tiny_table()
    assert isinstance(table, LeaveEvaluator)
    assert table.value(()) == 0.0  # the empty leave is never in a file: worth 0
    assert table.value((2,)) == 0.0 and table.get((2,)) is None  # not in the table: default
    assert (1, 2) in table and (2,) not in table and () not in table
    assert LeaveTable(EN, table.keys, table.values, default=-1.5).value((5, 5)) == -1.5
    assert table.value(tuple(range(KEY_TILES + 1))) == 0.0  # too long for any table
    assert table.value((0x81,)) == 0.0  # not a rack tile


def test_keys_sort_like_leaves() -> None:
    leaves = [(0,), (0, 0), (0, 1), (1,), (1, 1, 1), (1, 2), (2,), (26, 26)]
    keys = [leave_key(leave) for leave in leaves]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert [key_leave(k) for k in keys] == leaves
    assert leave_key((2, 0, 1)) == leave_key((0, 1, 2))
    with pytest.raises(FormatError, match="at most 10"):
        leave_key(tuple(range(11)))


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x01\x00", "too short"),
        (u32(9, *TINY_KWG) + u32(0), "does not fit"),
        (u32(4, *TINY_KWG) + u32(3) + b"\x00\x00", "cut short"),
        (u32(4, *TINY_KWG) + u32(2) + struct.pack("<2f", 1, 2), "holds more than 2 leaves, for 2"),
        (u32(4, *TINY_KWG) + u32(4) + struct.pack("<4f", 1, 2, 3, 4),
         "holds 3 leaves, for 4 values"),
        (u32(2, node(0, arc=1, end=True), node(1, accepts=True)) + struct.pack("<If", 1, 1.0),
         "does not end its list"),
        (u32(2, node(0, arc=7, end=True), node(1, accepts=True, end=True)) + u32(1) + u32(0),
         "points past its end"),
        (u32(2, node(0, arc=1, end=True), node(27, accepts=True, end=True))
         + struct.pack("<If", 1, 1.0), "uses tile 27, but edition en has 26 letters"),
        (u32(2, node(0, arc=1, end=True), node(1, arc=1, end=True))  # a loop: AAAA...
         + struct.pack("<If", 1, 1.0), "more than 10 tiles"),
    ],
)
def test_bad_files_are_refused_clearly(data: bytes, message: str) -> None:
    with pytest.raises(FormatError, match=message):
        parse_klv(data, EN)


def test_files_that_cannot_be_read_or_written(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read leave file"):
        read_klv(tmp_path / "missing.klv", EN)
    with pytest.raises(FormatError, match="cannot write leave file"):
        write_klv(tmp_path / "no" / "such" / "folder.klv", tiny_table())
    assert not (tmp_path / "no").exists()


def test_tables_are_checked() -> None:
    with pytest.raises(LetrasError, match="sorted"):
        LeaveTable(EN, np.array([leave_key((2,)), leave_key((1,))], np.uint64), [1, 2])
    with pytest.raises(LetrasError, match="2 leaves but 1 values"):
        LeaveTable(EN, np.array([leave_key((1,)), leave_key((2,))], np.uint64), [1])
    with pytest.raises(LetrasError, match="given twice"):
        LeaveTable.from_values(EN, {"AB": 1.0, "BA": 2.0})
    with pytest.raises(LetrasError, match="empty leave"):
        LeaveTable.from_values(EN, {"": 1.0})
    with pytest.raises(LetrasError, match="finite"):
        LeaveTable.from_values(EN, {"A": float("nan")})


def test_shipped_leaves_are_the_trained_file_or_else_the_heuristic() -> None:
    data = Path(__file__).resolve().parents[1] / "src" / "letras" / "ai" / "data"
    for name in ("pt-BR", "en", "es", "it"):
        edition = find_edition(name)
        leaves = shipped_leaves(edition)
        if (data / f"{name}.klv").is_file():
            assert isinstance(leaves, LeaveTable) and len(leaves) > 100_000
        else:
            assert isinstance(leaves, HeuristicLeaves)


# ----- every leave of a rack at once ----------------------------------------------------------

# Racks over a few Spanish tiles (the blank, A, CH, E, RR, S and the last letter, Z), so that
# tiles repeat and many of a rack's leaves are in the table below; at most 12 tiles, so that
# some leaves are too long for any key.
RACK_TILES = [0, 1, 4, 6, 21, 22, len(ES.tiles.labels) - 1]


def rack_table(seed: int, default: float) -> LeaveTable:
    """Two leaves in three of every multiset of up to 7 of :data:`RACK_TILES` (the others
    missing), with values on a coarse grid (so that equal values are common)."""
    rng = random.Random(seed)
    values: dict[tuple[int, ...], float] = {}
    for n in range(1, 8):
        for leave in itertools.combinations_with_replacement(RACK_TILES, n):
            if rng.random() < 2 / 3:
                values[leave] = rng.randint(-40, 40) / 4
    return LeaveTable.from_values(ES, values, default=default)


RACK_TABLES = {(seed, default): rack_table(seed, default)
               for seed in range(3) for default in (0.0, -2.5)}


@settings(max_examples=300, deadline=None)
@given(
    rack=st.lists(st.sampled_from(RACK_TILES), max_size=12),
    table=st.sampled_from(sorted(RACK_TABLES)),
)
def test_rack_leaves_are_the_values_leave_by_leave(
    rack: list[int], table: tuple[int, float]
) -> None:
    leaves = RACK_TABLES[table]
    expected = leave_table(rack, leaves.value)
    got = leaves.rack_leaves(rack)
    assert got.values.dtype == np.float64
    assert np.array_equal(got.radix, expected.radix)
    assert np.array_equal(got.values, expected.values)
    assert np.array_equal(got.radix, leave_radix(rack)[0])


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_rack_leaves_of_the_shipped_table(data: st.DataObject) -> None:
    """Racks drawn from a full bag, against the trained English leaves."""
    leaves = shipped_leaves(EN)
    if not isinstance(leaves, LeaveTable):
        pytest.skip("no shipped English leave file")
    bag = [t for t, c in enumerate(EN.tiles.counts) for _ in range(c)]
    picks = data.draw(st.lists(st.integers(0, len(bag) - 1), max_size=7, unique=True))
    rack = [bag[i] for i in picks]
    expected = leave_table(rack, leaves.value)
    got = leaves.rack_leaves(rack)
    assert np.array_equal(got.values, expected.values)
    assert np.array_equal(got.radix, expected.radix)


def test_rack_leaves_by_hand() -> None:
    table = LeaveTable.from_values(EN, {"?": 20.0, "??": 30.0, "?Q": 5.0, "Q": -7.5},
                                   default=-1.0)
    q = EN.tiles.code("Q")
    leaves = table.rack_leaves([q, 0, 0])
    # ? counts 0-2 (radix 1), Q 0-1 (radix 3): (), ?, ??, Q, ?Q, ??Q
    assert int(leaves.radix[0]) == 1 and int(leaves.radix[q]) == 3
    assert leaves.values.tolist() == [0.0, 20.0, 30.0, -7.5, 5.0, -1.0]
    assert table.rack_leaves([]).values.tolist() == [0.0]
    # A leave of more than KEY_TILES tiles, or with a tile no key can hold, is not in any
    # table: the default.
    long = table.rack_leaves([0] * (KEY_TILES + 1))
    assert long.values.tolist() == [0.0, 20.0, 30.0] + [-1.0] * (KEY_TILES - 1)
    assert table.rack_leaves([63]).values.tolist() == [0.0, -1.0]


@pytest.mark.parametrize(("rack", "bad"), [([1, 64], 64), ([-1, 2], -1), ([200], 200)])
def test_rack_leaves_of_a_rack_that_cannot_be(rack: list[int], bad: int) -> None:
    table = tiny_table()
    keys, values = table.keys.copy(), table.values.copy()
    with pytest.raises(FormatError, match=f"tile code {bad} on a rack"):
        table.rack_leaves(rack)
    assert np.array_equal(table.keys, keys) and np.array_equal(table.values, values)
