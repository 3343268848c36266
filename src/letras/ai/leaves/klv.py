"""Leave files: a table of leave values (superleaves) in the KLV format of wolges.

A leave is a multiset of rack tiles (``0`` = blank), kept in ascending tile order. A
:class:`LeaveTable` maps leaves to points and is a
:class:`~letras.ai.leaves.LeaveEvaluator`: ``value(leave)`` takes the tiles in any order;
the empty leave is worth ``0.0``, and so is any leave not in the table (:attr:`LeaveTable.default`,
as in wolges, whose tables leave out nothing a game can need).

**The file** (little-endian throughout), as wolges reads and writes it and Macondo and MAGPIE
read it:

- a ``u32``: the number of nodes of the word graph that follows;
- that word graph: a DAWG-only KWG (32-bit nodes ``tile << 24 | accepts 0x800000 |
  is_end 0x400000 | arc index``, node 0 points at the root), whose words are the leaves as
  tile codes, with tile 0 standing for the blank;
- a ``u32``: the number of leave values;
- the values, one per leave, in the order the DAWG lists its words (the sorted order of the
  leaves: a leave before its extensions, blanks first). The values are ``f32`` points in a
  *KLV2* file; in the older *KLV* they are ``i16`` in 1/256 of a point. A reader tells them
  apart by the size left: four bytes a value, else two (as wolges does).

Tile codes are those of the edition's tile table (the blank 0, then the letters in table
order, a digraph being one tile), which is how wolges numbers its alphabets: its English and
Spanish alphabets have the tiles of letras' ``en`` and ``es`` in the same order.

In memory a leave is a *key*: its sorted tiles, each as ``tile + 1`` in 6 bits, left-aligned
in 60 bits (at most :data:`KEY_TILES` tiles), so that keys sort like the leaves and the empty
leave is key 0. For the move generator, :meth:`LeaveTable.rack_leaves` values every leave a
rack can keep at once, in compiled code.

>>> from letras.editions import find_edition
>>> en = find_edition("en")
>>> table = LeaveTable.from_values(en, {"?S": 31.5, "Q": -7.25, "EQ": -5.0})
>>> [en.tiles.format(leave, rack=True) for leave, _ in table.items()]
['?S', 'EQ', 'Q']
>>> table.value(en.tiles.parse("S?", rack=True)), table.value(()), table.value((5, 5, 5))
(31.5, 0.0, 0.0)
>>> klv = klv_bytes(table)
>>> len(klv), klv[:4]         # 4 + 6 nodes x 4 + 4 + 3 values x 4
(44, b'\\x06\\x00\\x00\\x00')
>>> parse_klv(klv, en).value(en.tiles.parse("QE", rack=True))
-5.0
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from letras.editions import Edition
from letras.errors import FormatError
from letras.files import OutputError, write_atomic
from letras.lexicon import _kwg_kernels as kk
from letras.lexicon.kwg import kwg_to_internal
from letras.lexicon.structure import CYCLE, DEAD_END, DEPTH, MAX_WIDTH, OK, WIDTH, graph_shape
from letras.movegen.leaves import CODES, RackLeaves, kept_count, leave_radix

Keys = npt.NDArray[np.uint64]

KEY_TILES = 10
"""The most tiles a leave may have (a key holds 10 tiles of 6 bits)."""
TILE_BITS = 6
MAX_TILE = (1 << TILE_BITS) - 2
"""The highest tile code a key can hold (62)."""
RACK_CODES = CODES
"""Rack tile codes are below this (the radix of a rack's leaves has a place for each:
:mod:`letras.movegen.leaves`)."""
KWG_ACCEPTS = 0x800000
KWG_IS_END = 0x400000
KWG_ARC_MASK = 0x3FFFFF
KWG_MAX_NODES = 1 << 22
MAX_KLV_BYTES = 1 << 28
"""The largest leave file read (256 MiB; the shipped ones are a few megabytes)."""


def leave_key(leave: Sequence[int]) -> int:
    """The key of a leave (tiles in any order); :class:`FormatError` if it cannot have one.

    >>> leave_key(()), leave_key((1,)) == 2 << 54, leave_key((2, 0)) == (1 << 54) | (3 << 48)
    (0, True, True)
    """
    if len(leave) > KEY_TILES:
        raise FormatError(f"a leave of {len(leave)} tiles: at most {KEY_TILES} can be stored")
    key = 0
    for t in sorted(leave):
        if not 0 <= t <= MAX_TILE:
            raise FormatError(f"tile code {t} in a leave: rack tiles are 0 to {MAX_TILE}")
        key = (key << TILE_BITS) | (t + 1)
    return key << (TILE_BITS * (KEY_TILES - len(leave)))


def key_leave(key: int) -> tuple[int, ...]:
    """The leave (sorted tiles) of a key.

    >>> key_leave(leave_key((3, 0, 3)))
    (0, 3, 3)
    """
    out = []
    for i in range(KEY_TILES):
        digit = (key >> (TILE_BITS * (KEY_TILES - 1 - i))) & ((1 << TILE_BITS) - 1)
        if not digit:
            break
        out.append(digit - 1)
    return tuple(out)


def keys_to_tiles(keys: Keys) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """The tiles of many keys: a ``(n, KEY_TILES)`` array (unused places 255) and the lengths."""
    shifts = np.array([TILE_BITS * (KEY_TILES - 1 - i) for i in range(KEY_TILES)], np.uint64)
    digits = (keys[:, None] >> shifts[None, :]) & np.uint64((1 << TILE_BITS) - 1)
    lengths = (digits != 0).sum(axis=1).astype(np.int64)
    tiles = np.where(digits != 0, digits.astype(np.int64) - 1, 255).astype(np.uint8)
    return tiles, lengths


class LeaveTable:
    """Leave values by leave: a sorted array of keys and one value for each.

    ``value(leave)`` is the value in the table, ``0.0`` for the empty leave, and
    :attr:`default` (``0.0`` unless given) for a leave the table does not hold.
    """

    def __init__(
        self,
        edition: Edition,
        keys: Keys,
        values: npt.ArrayLike,
        *,
        default: float = 0.0,
        name: str = "custom",
    ) -> None:
        keys = np.asarray(keys, np.uint64)
        vals = np.asarray(values, np.float32)
        if keys.ndim != 1 or vals.shape != keys.shape:
            raise FormatError(f"leave table {name!r}: {len(keys)} leaves but {vals.size} values")
        if len(keys) and (keys[0] == 0 or np.any(keys[1:] <= keys[:-1])):
            raise FormatError(
                f"leave table {name!r}: leaves must be distinct, not empty, and sorted"
            )
        if not np.all(np.isfinite(vals)):
            raise FormatError(f"leave table {name!r}: a leave value is not a finite number")
        self.edition = edition
        self.keys = keys
        self.values = vals
        self.default = float(default)
        self.name = name
        self._check_tiles()

    def _check_tiles(self) -> None:
        if not len(self.keys):
            return
        top = 0
        for i in range(KEY_TILES):
            shift = np.uint64(TILE_BITS * (KEY_TILES - 1 - i))
            digit = int(((self.keys >> shift) & np.uint64((1 << TILE_BITS) - 1)).max())
            top = max(top, digit - 1)
        letters = len(self.edition.tiles.labels) - 1
        if top > letters:
            raise FormatError(
                f"leave table {self.name!r} uses tile {top}, but edition {self.edition.name} "
                f"has {letters} letters"
            )

    @classmethod
    def from_values(
        cls,
        edition: Edition,
        values: Mapping[str, float] | Mapping[tuple[int, ...], float],
        *,
        default: float = 0.0,
        name: str = "custom",
    ) -> LeaveTable:
        """A table from leaves (rack notation such as ``"?S"``, or tile codes) and values."""
        pairs: dict[int, float] = {}
        for leave, v in values.items():
            tiles = edition.tiles.parse(leave, rack=True) if isinstance(leave, str) else leave
            if not tiles:
                raise FormatError("the empty leave is always worth 0: it has no entry")
            key = leave_key(tiles)
            if key in pairs:
                raise FormatError(f"leave {leave!r} is given twice")
            pairs[key] = float(v)
        keys = np.array(sorted(pairs), np.uint64)
        return cls(edition, keys, [pairs[int(k)] for k in keys], default=default, name=name)

    def value(self, leave: Sequence[int]) -> float:
        v = self.get(leave)
        return self.default if v is None else v

    def get(self, leave: Sequence[int]) -> float | None:
        """The value of ``leave`` if the table holds it (the empty leave: 0.0), else None."""
        n = len(leave)
        if n == 0:
            return 0.0
        if n > KEY_TILES:
            return None
        key = 0
        for t in sorted(leave):
            if not 0 <= t <= MAX_TILE:
                return None
            key = (key << TILE_BITS) | (t + 1)
        k = np.uint64(key << (TILE_BITS * (KEY_TILES - n)))
        i = int(self.keys.searchsorted(k))
        if i < len(self.keys) and self.keys[i] == k:
            return float(self.values[i])
        return None

    def rack_leaves(self, rack: Sequence[int]) -> RackLeaves:
        """The value of every leave ``rack`` can keep, all at once, as the move generator takes
        them (:class:`~letras.movegen.leaves.RackLeaves`, numbered as
        :mod:`letras.movegen.leaves` says): the same numbers as :meth:`value` of each, found
        in compiled code. :class:`FormatError` for a tile code a rack cannot hold (0 to 63).

        >>> from letras.editions import find_edition
        >>> en = find_edition("en")
        >>> table = LeaveTable.from_values(en, {"S": 8.0, "?S": 31.5, "SS": 5.0}, default=-1.0)
        >>> leaves = table.rack_leaves(en.tiles.parse("S?S", rack=True))
        >>> [int(leaves.radix[t]) for t in (0, en.tiles.code("S"))]   # ? counts 1, S counts 2
        [1, 2]
        >>> leaves.values.tolist()   # (), ?, S, ?S, SS, ?SS
        [0.0, -1.0, 8.0, 31.5, 5.0, -1.0]
        """
        tiles = sorted(rack)
        if tiles and not (tiles[0] >= 0 and tiles[-1] < RACK_CODES):
            bad = tiles[0] if tiles[0] < 0 else tiles[-1]
            raise FormatError(f"tile code {bad} on a rack: rack tiles are 0 to {RACK_CODES - 1}")
        radix, size = leave_radix(tiles)
        values = _rack_leave_values(
            self.keys, self.values, self.default, np.array(tiles, np.int64), radix, size
        )
        return RackLeaves(values, radix)

    def __contains__(self, leave: object) -> bool:
        return isinstance(leave, Sequence) and bool(leave) and self.get(leave) is not None

    def __len__(self) -> int:
        return len(self.keys)

    def items(self) -> Iterator[tuple[tuple[int, ...], float]]:
        """Every (leave, value) in the file's order."""
        for k, v in zip(self.keys.tolist(), self.values.tolist(), strict=True):
            yield key_leave(k), v

    def __repr__(self) -> str:
        return f"<LeaveTable {self.name!r} {self.edition.name} {len(self):,} leaves>"


@njit(cache=True)
def _rack_leave_values(
    keys: Any, values: Any, default: float, tiles: Any, radix: Any, size: int
) -> Any:  # pragma: no cover - compiled
    """The value of each of the ``size`` leaves of the sorted rack ``tiles``, by index
    (:mod:`letras.movegen.leaves`): the leave keeping ``c`` tiles of code ``t`` is at
    ``sum(c * radix[t])``. Each leave's
    key is built as :func:`leave_key` builds it and looked up in ``keys``: 0.0 for the empty
    leave, ``default`` for one not there (or one no key can hold)."""
    codes = np.zeros(RACK_CODES, np.int64)
    counts = np.zeros(RACK_CODES, np.int64)
    n_codes = 0
    for t in tiles:
        if n_codes == 0 or codes[n_codes - 1] != t:
            codes[n_codes] = t
            n_codes += 1
        counts[n_codes - 1] += 1
    out = np.empty(size, np.float64)
    n_keys = keys.shape[0]
    bits = np.uint64(TILE_BITS)
    for index in range(size):
        key = np.uint64(0)
        n = 0
        storable = True
        for j in range(n_codes):
            t = codes[j]
            kept = kept_count(index, radix, t, counts[j])
            if kept and t > MAX_TILE:
                storable = False
            for _ in range(kept):
                if n < KEY_TILES:
                    key = (key << bits) | np.uint64(t + 1)
                n += 1
        if n == 0:
            out[index] = 0.0
            continue
        if n > KEY_TILES or not storable:
            out[index] = default
            continue
        key = key << np.uint64(TILE_BITS * (KEY_TILES - n))
        i = np.searchsorted(keys, key)
        out[index] = values[i] if i < n_keys and keys[i] == key else default
    return out


# ----- reading -----------------------------------------------------------------------------


def read_klv(path: str | os.PathLike[str], edition: Edition) -> LeaveTable:
    """Read a ``.klv`` / ``.klv2`` file for ``edition``; :class:`FormatError` if it cannot."""
    p = Path(path)
    try:
        with p.open("rb") as f:
            data = f.read(MAX_KLV_BYTES + 1)
    except OSError as e:
        raise FormatError(f"cannot read leave file {str(p)!r}: {e.strerror}") from None
    if len(data) > MAX_KLV_BYTES:
        raise FormatError(f"leave file {str(p)!r} is longer than {MAX_KLV_BYTES:,} bytes: no "
                          "leave table is that large")
    return parse_klv(data, edition, p.stem)


def parse_klv(data: bytes, edition: Edition, name: str = "custom") -> LeaveTable:
    """The table in the bytes of a KLV or KLV2 file (see the module docstring)."""
    where = f"leave file {name!r}"
    if len(data) < 8:
        raise FormatError(f"{where} is too short to be a KLV file ({len(data)} bytes)")
    (n_nodes,) = struct.unpack_from("<I", data, 0)
    if n_nodes < 1 or 8 + 4 * n_nodes > len(data):
        raise FormatError(f"{where}: its word graph of {n_nodes:,} nodes does not fit the file")
    nodes = np.frombuffer(data, "<u4", n_nodes, 4).astype(np.uint32)
    (count,) = struct.unpack_from("<I", data, 4 + 4 * n_nodes)
    start = 8 + 4 * n_nodes
    rest = len(data) - start
    if rest >= 4 * count:
        values = np.frombuffer(data, "<f4", count, start).astype(np.float32)
    elif rest >= 2 * count:
        values = np.frombuffer(data, "<i2", count, start).astype(np.float32) / np.float32(256)
    else:
        raise FormatError(f"{where} is cut short: {count:,} values but {rest:,} bytes left")
    if int((nodes & np.uint32(KWG_ARC_MASK)).max()) >= n_nodes:
        raise FormatError(f"{where}: an arc of its word graph points past its end")
    _check_shape(nodes, where)
    keys, found, status = _dawg_keys(nodes, count)
    if status == _TOO_LONG:
        raise FormatError(f"{where} holds a leave of more than {KEY_TILES} tiles")
    if status == _BAD_TILE:
        raise FormatError(f"{where} uses a tile code above {MAX_TILE}")
    if status == _BAD_END:
        raise FormatError(f"{where}: the last node of its word graph does not end its list")
    if status == _TOO_MANY or found != count:
        more = f"more than {count:,}" if status == _TOO_MANY else f"{found:,}"
        raise FormatError(f"{where}: its word graph holds {more} leaves, for {count:,} values")
    keys = keys[:found]
    if np.any(keys[1:] <= keys[:-1]):
        # Not in sorted order (allowed by the format, never made by wolges): sort the pairs.
        order = np.argsort(keys, kind="stable")
        keys, values = keys[order], values[order]
        if np.any(keys[1:] == keys[:-1]):
            raise FormatError(f"{where} holds the same leave twice")
    return LeaveTable(edition, keys, values, name=name)


def _check_shape(nodes: npt.NDArray[np.uint32], where: str) -> None:
    """Refuse a DAWG that loops, has a dead end or an over-long list
    (:mod:`letras.lexicon.structure`): the walk that reads the leaves trusts its shape."""
    # Tiles above 63 would spill into the flags of the internal layout: the walk refuses them.
    shape = graph_shape(kwg_to_internal(nodes & np.uint32(0x3FFFFFFF)), roots=1)
    problems = {
        CYCLE: f"it holds a leave of more than {KEY_TILES} tiles: its word graph loops",
        DEAD_END: f"node {shape.node} of its word graph ends no leave and leads nowhere",
        WIDTH: f"a list of its word graph has more than {MAX_WIDTH} arcs",
        DEPTH: f"it holds a leave of more than {KEY_TILES} tiles",
    }
    if shape.status != OK:
        problem = problems.get(shape.status, "its last node does not end its list")
        raise FormatError(f"{where}: {problem}")


_OK, _TOO_LONG, _BAD_TILE, _TOO_MANY, _BAD_END = 0, 1, 2, 3, 4


@njit(cache=True)
def _dawg_keys(nodes: Any, limit: int) -> tuple[Any, int, int]:  # pragma: no cover - compiled
    """The key of every word of the DAWG at node 0, in the DAWG's order (at most ``limit``)."""
    keys = np.zeros(limit, np.uint64)
    stack_p = np.zeros(KEY_TILES + 4, np.int64)
    stack_d = np.zeros(KEY_TILES + 4, np.int64)
    prefix = np.zeros(KEY_TILES + 1, np.uint64)
    found = 0
    root = np.int64(nodes[0] & np.uint32(KWG_ARC_MASK))
    if root == 0:
        return keys, 0, _OK
    stack_p[0] = root
    stack_d[0] = 0
    sp = 1
    while sp > 0:
        sp -= 1
        p = stack_p[sp]
        d = stack_d[sp]
        node = nodes[p]
        if d >= KEY_TILES:
            return keys, found, _TOO_LONG
        if not node & np.uint32(KWG_IS_END):
            if p + 1 >= nodes.shape[0]:
                return keys, found, _BAD_END
            stack_p[sp] = p + 1  # the next sibling, after this node's words
            stack_d[sp] = d
            sp += 1
        tile = np.uint64(node >> np.uint32(24))
        if tile > MAX_TILE:
            return keys, found, _BAD_TILE
        shift = np.uint64(TILE_BITS * (KEY_TILES - 1 - d))
        here = (prefix[d - 1] if d > 0 else np.uint64(0)) | ((tile + np.uint64(1)) << shift)
        prefix[d] = here
        if node & np.uint32(KWG_ACCEPTS):
            if found >= limit:
                return keys, found, _TOO_MANY
            keys[found] = here
            found += 1
        arc = np.int64(node & np.uint32(KWG_ARC_MASK))
        if arc != 0:
            stack_p[sp] = arc
            stack_d[sp] = d + 1
            sp += 1
    return keys, found, _OK


# ----- writing -----------------------------------------------------------------------------


def klv_bytes(table: LeaveTable, *, int16: bool = False) -> bytes:
    """The bytes of a KLV2 file (``f32`` values), or with ``int16`` of an old KLV file (values
    rounded to 1/256 of a point; beyond -128..+128 points they stop at the end of the range,
    as wolges' own conversion does)."""
    nodes = dawg_nodes(table.keys)
    if int16:
        scaled = np.clip(np.round(table.values.astype(np.float64) * 256), -32768, 32767)
        values = scaled.astype("<i2").tobytes()
    else:
        values = table.values.astype("<f4").tobytes()
    return b"".join((
        struct.pack("<I", len(nodes)),
        nodes.astype("<u4").tobytes(),
        struct.pack("<I", len(table)),
        values,
    ))


def write_klv(path: str | os.PathLike[str], table: LeaveTable, *, int16: bool = False) -> None:
    """Write ``table`` to ``path`` (KLV2, or old KLV with ``int16``), replacing it at once
    (:func:`letras.files.write_atomic`); :class:`FormatError` if the file cannot be written."""
    try:
        write_atomic(path, klv_bytes(table, int16=int16), "leave file")
    except OutputError as e:
        raise FormatError(str(e), key=e.key, **e.values) from None


def dawg_nodes(keys: Keys) -> npt.NDArray[np.uint32]:
    """The DAWG-only KWG (file layout) of the sorted leave keys: node 0 points at the root,
    whose arcs come next."""
    if not len(keys):
        return np.array([KWG_IS_END], np.uint32)
    tiles, lengths = keys_to_tiles(keys)
    offsets = np.zeros(len(keys) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = tiles[tiles != 255].astype(np.uint8)
    # The word graph builder's DAWG pass takes tile 0 as any other tile (only its GADDAG pass
    # gives 0 a meaning), so it builds the minimal automaton of the leaves as they are.
    hi, lo = kk.make_keys(flat, offsets, False)
    order = np.lexsort((lo, hi))
    (root, arc_tile, arc_acc, arc_target, narcs, state_start, state_len, nstates,
     _table) = kk.build_states(
        hi, lo, order,
        np.zeros(1 << 12, np.uint8), np.zeros(1 << 12, np.uint8), np.zeros(1 << 12, np.int32),
        0, np.zeros(1 << 10, np.int64), np.zeros(1 << 10, np.int32), 1,
        np.zeros(1 << 11, np.int32),
    )
    if narcs + 1 > KWG_MAX_NODES:
        raise FormatError(f"the leaves need {narcs + 1:,} nodes: more than a KLV file can hold")
    # The builder makes the states deepest first, so the root comes last: lay them out in the
    # reverse order, the root's arcs right after node 0.
    states = np.arange(nstates - 1, 0, -1)
    states = np.concatenate(([root], states[states != root]))
    lens = state_len[states].astype(np.int64)
    pos = np.zeros(nstates, np.int64)
    pos[states] = 1 + np.cumsum(lens) - lens
    owner = np.repeat(np.arange(nstates), state_len[:nstates])
    first = state_start[:nstates][owner]
    j = np.arange(narcs)
    at = pos[owner] + (j - first)
    node = (arc_tile[:narcs].astype(np.uint32) << np.uint32(24)) | pos[arc_target[:narcs]].astype(
        np.uint32)
    node |= np.where(arc_acc[:narcs] != 0, KWG_ACCEPTS, 0).astype(np.uint32)
    node |= np.where(j == first + state_len[:nstates][owner] - 1, KWG_IS_END, 0).astype(np.uint32)
    nodes = np.zeros(narcs + 1, np.uint32)
    nodes[0] = KWG_IS_END | int(pos[root])
    nodes[at] = node
    return nodes


__all__ = [
    "KEY_TILES",
    "LeaveTable",
    "dawg_nodes",
    "key_leave",
    "keys_to_tiles",
    "klv_bytes",
    "leave_key",
    "parse_klv",
    "read_klv",
    "write_klv",
]
