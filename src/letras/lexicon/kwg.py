"""The word graph: a DAWG and a GADDAG in one flat array of 32-bit nodes.

The file layout is the KWG of the Rust engine wolges (read by Macondo and MAGPIE too): node 0
points at the DAWG (for checking words and anagrams), node 1 at the GADDAG (for move
generation), and each node is ``tile | accepts | is_end | arc index``. A ``.kwg`` file packs
the tile in bits 24-31, accepts 0x800000, is_end 0x400000 and the arc index in bits 0-21
(at most 4,194,303 nodes); the big variant ``.kbwg`` packs the tile in bits 0-5, accepts 0x80,
is_end 0x40 and the arc index in bits 8-31. In memory letras always holds the big layout.

In the GADDAG, the word CARE is stored as ERAC, RAC@E, AC@RE and C@ARE, where @ is tile 0,
the switch from leftwards to rightwards.

>>> from letras.editions import find_edition
>>> en = find_edition("en")
>>> graph = WordGraph.build(en, ["CARE", "CARES", "CAR", "BAR"])
>>> len(graph), "cares" in graph, "CA" in graph
(4, True, False)
>>> sorted(en.tiles.word(w) for w in graph.words())
['BAR', 'CAR', 'CARE', 'CARES']
"""

from __future__ import annotations

import contextlib
import hashlib
import lzma
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from letras._compiled import announce_first_compile, lazy_module
from letras.editions import Edition
from letras.errors import LexiconError, NotationError
from letras.files import OutputError, write_atomic
from letras.lexicon.sealed import open_sealed, seal
from letras.tiles import LETTER_MASK

if TYPE_CHECKING:
    from letras.lexicon.structure import GraphShape

# numba is imported with the kernels when they are first used (a graph read from the cache
# needs none of them: see letras.movegen.prebuilt)
k = lazy_module("letras.lexicon._kwg_kernels")
structure = lazy_module("letras.lexicon.structure")

Nodes = npt.NDArray[np.uint32]


def check_word_graph(nodes: Nodes, name: str) -> GraphShape:
    """:func:`letras.lexicon.structure.check_word_graph` (its kernels imported when first
    asked)."""
    shape: GraphShape = structure.check_word_graph(nodes, name)
    return shape


Progress = Callable[[str], None]

BUILDER_VERSION = 1
"""Part of the cache key: a new builder makes new cache entries."""
KWG_MAX_NODES = 1 << 22
KBWG_MAX_NODES = 1 << 24
MAX_WORD_TILES = 15
MAX_WORD_LIST_BYTES = 1 << 28
"""The largest word list read, uncompressed (256 MiB; the largest shipped one is 25 MB)."""
QUIET_BUILD_BYTES = 1 << 20
"""Word lists smaller than this (about 100,000 words) are built without progress lines."""


def _quiet(message: str) -> None:
    pass


class WordGraph:
    """A lexicon held as a word graph (see the module docstring)."""

    def __init__(self, nodes: Nodes, edition: Edition, name: str = "custom", *,
                 checked_words: int | None = None) -> None:
        """``checked_words``: the graph's word count when its shape was checked already or
        needs no check (a cache entry this module sealed, see :func:`graph_for_words`, or a
        graph it just built), not checked again."""
        if nodes.dtype != np.uint32 or nodes.ndim != 1 or len(nodes) < 2:
            raise LexiconError(f"lexicon {name!r}: not a word graph (too short or wrong type)",
                               key="lexicon.not_graph", name=name)
        self.nodes = nodes
        self.edition = edition
        self.name = name
        if checked_words is None:
            self._check()
        self._count: int | None = (checked_words if checked_words is not None
                                   else check_word_graph(nodes, name).words[0])
        self.cache_entry: tuple[Path, str] | None = None
        """The sealed cache entry the graph is (its path and the sha256 of its bytes), where
        a graph built from a word list is kept (see :func:`graph_for_words`); what is derived
        from the graph is cached beside it (the packed graph, the move generator's word map)."""
        self.skipped = 0
        """Words of the list it was built from that the edition cannot spell (0 when read
        from a file)."""
        self._child_masks: npt.NDArray[np.uint64] | None = None

    def _check(self) -> None:
        nodes = self.nodes
        arcs = nodes >> np.uint32(k.ARC_SHIFT)
        if int(arcs.max()) >= len(nodes):
            raise LexiconError(f"lexicon {self.name!r}: an arc points past the end of the graph",
                               key="lexicon.arc", name=self.name)
        if not nodes[-1] & np.uint32(k.IS_END):
            raise LexiconError(f"lexicon {self.name!r}: the last node does not end its list",
                               key="lexicon.last_node", name=self.name)
        top = int((nodes[2:] & np.uint32(k.TILE_MASK)).max()) if len(nodes) > 2 else 0
        if top >= len(self.edition.tiles.labels):
            raise LexiconError(
                f"lexicon {self.name!r} uses tile {top}, but edition {self.edition.name} has "
                f"{len(self.edition.tiles.labels) - 1} letters",
                key="lexicon.tile", name=self.name, tile=top, edition=self.edition.name,
                n=len(self.edition.tiles.labels) - 1,
            )

    # ----- building --------------------------------------------------------------------------

    @classmethod
    def build(
        cls,
        edition: Edition,
        words: Iterable[str],
        name: str = "custom",
        progress: Progress = _quiet,
    ) -> WordGraph:
        """Build the graph of a word list (text, folded to the edition's tiles; words the
        edition cannot spell and words outside 2-15 tiles are left out)."""
        skipped: list[str] = []
        flat, offsets = encode_words(edition, words, skipped)
        return cls._built(edition, flat, offsets, name, progress, len(skipped))

    @classmethod
    def from_text(
        cls,
        edition: Edition,
        text: str,
        name: str = "custom",
        progress: Progress = _quiet,
    ) -> WordGraph:
        """:meth:`build` of a word list's text, one word a line (``text.splitlines()``),
        folded to tiles all at once (:func:`encode_text`)."""
        skipped: list[str] = []
        progress(f"folding the words of {name} to tiles")
        flat, offsets = encode_text(edition, text, skipped)
        return cls._built(edition, flat, offsets, name, progress, len(skipped))

    @classmethod
    def _built(cls, edition: Edition, flat: npt.NDArray[np.uint8],
               offsets: npt.NDArray[np.int64], name: str, progress: Progress,
               skipped: int) -> WordGraph:
        """The graph of encoded words, its shape not checked: the builder makes it acyclic,
        at most 16 tiles deep and 64 arcs wide, every leaf a word (the tests check it)."""
        nodes, words = _build(flat, offsets, progress)
        graph = cls(nodes, edition, name, checked_words=words)
        graph.skipped = skipped
        return graph

    # ----- files -----------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike[str], edition: Edition) -> WordGraph:
        """Read a ``.kwg`` or ``.kbwg`` file (the big layout when the name ends in ``.kbwg``)."""
        p = Path(path)
        try:
            with p.open("rb") as f:
                data = f.read(4 * KBWG_MAX_NODES + 1)
        except OSError as e:
            raise LexiconError(f"cannot read word graph {str(p)!r}: {e.strerror}",
                               key="lexicon.read_graph", path=str(p),
                               reason=str(e.strerror)) from None
        if len(data) > 4 * KBWG_MAX_NODES:
            raise LexiconError(f"the word graph {str(p)!r} has more nodes than a file can hold",
                               key="lexicon.graph_too_big", n=len(data) // 4)
        if len(data) % 4 or len(data) < 8:
            raise LexiconError(f"{str(p)!r} is not a word graph: its size is not whole nodes",
                               key="lexicon.graph_size", path=str(p), size=len(data))
        nodes = np.frombuffer(data, dtype="<u4").astype(np.uint32)
        if p.suffix.lower() != ".kbwg":
            # tiles of 64 and more would spill into the flags of the internal layout
            top = int((nodes[2:] >> np.uint32(24)).max()) if len(nodes) > 2 else 0
            if top > k.TILE_MASK:
                raise LexiconError(
                    f"lexicon {p.stem!r} uses tile {top}, but edition {edition.name} has "
                    f"{len(edition.tiles.labels) - 1} letters",
                    key="lexicon.tile", name=p.stem, tile=top, edition=edition.name,
                    n=len(edition.tiles.labels) - 1,
                )
            nodes = kwg_to_internal(nodes)
        return cls(nodes, edition, p.stem)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the graph: ``.kbwg`` in the big layout, anything else as ``.kwg``, whole or
        not at all (:func:`letras.files.write_atomic`; no folder is made on the way)."""
        p = Path(path)
        if p.suffix.lower() == ".kbwg":
            out = self.nodes
        else:
            if len(self.nodes) > KWG_MAX_NODES:
                raise LexiconError(
                    f"{len(self.nodes):,} nodes do not fit a .kwg file (at most "
                    f"{KWG_MAX_NODES:,}): save it as .kbwg",
                    key="lexicon.kwg_size", n=len(self.nodes), max=KWG_MAX_NODES,
                )
            out = internal_to_kwg(self.nodes)
        write_atomic(p, out.astype("<u4").tobytes(), "word graph")

    # ----- looking up ------------------------------------------------------------------------

    def contains_tiles(self, tiles: Sequence[int]) -> bool:
        word = bytes(t & LETTER_MASK for t in tiles)
        return bool(k.contains(self.nodes, np.frombuffer(word, np.uint8)))

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        try:
            encoded = self.edition.tiles.encode_word(word)
        except NotationError:
            return False
        return bool(k.contains(self.nodes, np.frombuffer(encoded, np.uint8)))

    @property
    def child_masks(self) -> npt.NDArray[np.uint64]:
        """For every node, the tiles of its arc list from that node to the list's end, one bit
        per tile code (what the move generator looks children up by); made on first use."""
        if self._child_masks is None:
            self._child_masks = k.child_masks(self.nodes)
        return self._child_masks

    def __len__(self) -> int:
        if self._count is None:
            self._count = int(k.count_words(self.nodes, 0))
        return self._count

    def words(self) -> Iterator[tuple[int, ...]]:
        """Every word of the DAWG, in tile order."""
        return self._strings(0)

    def gaddag_strings(self) -> Iterator[tuple[int, ...]]:
        """Every string of the GADDAG (0 is the separator), in order."""
        return self._strings(1)

    def _strings(self, root: int) -> Iterator[tuple[int, ...]]:
        nodes = self.nodes
        start = int(nodes[root]) >> k.ARC_SHIFT
        stack: list[tuple[int, tuple[int, ...]]] = [(start, ())] if start else []
        while stack:
            p, prefix = stack.pop()
            node = int(nodes[p])
            word = (*prefix, node & k.TILE_MASK)
            if not node & k.IS_END:
                stack.append((p + 1, prefix))  # the next sibling, after this node's words
            if node >> k.ARC_SHIFT:
                stack.append((node >> k.ARC_SHIFT, word))
            if node & k.ACCEPTS:
                yield word

    def __repr__(self) -> str:
        return f"<WordGraph {self.name!r} {self.edition.name} {len(self.nodes):,} nodes>"


# ----- conversion between layouts ------------------------------------------------------------


def kwg_to_internal(nodes: Nodes) -> Nodes:
    tile = nodes >> np.uint32(24)
    flags = ((nodes >> np.uint32(23)) & np.uint32(1)) * np.uint32(k.ACCEPTS) | (
        (nodes >> np.uint32(22)) & np.uint32(1)) * np.uint32(k.IS_END)
    arc = nodes & np.uint32(0x3FFFFF)
    return ((arc << np.uint32(k.ARC_SHIFT)) | flags | tile).astype(np.uint32)


def internal_to_kwg(nodes: Nodes) -> Nodes:
    tile = nodes & np.uint32(k.TILE_MASK)
    accepts = (nodes & np.uint32(k.ACCEPTS)) != 0
    is_end = (nodes & np.uint32(k.IS_END)) != 0
    arc = nodes >> np.uint32(k.ARC_SHIFT)
    out = (tile << np.uint32(24)) | arc
    out |= accepts.astype(np.uint32) << np.uint32(23)
    out |= is_end.astype(np.uint32) << np.uint32(22)
    return out.astype(np.uint32)


# ----- building ------------------------------------------------------------------------------


def encode_words(
    edition: Edition, words: Iterable[str], skipped: list[str] | None = None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Words as one flat array of tile codes and the offsets where each starts (and the end).

    Words are folded to the edition's tiles (digraphs greedily); those it cannot spell (added
    to ``skipped`` when given) and those outside 2-15 tiles are dropped.
    """
    encoded: list[bytes] = []
    for raw in words:
        if raw.startswith("#"):
            continue
        try:
            word = edition.tiles.encode_word(raw)
        except NotationError:
            if skipped is not None and raw.strip():
                skipped.append(raw)
            continue
        if 2 <= len(word) <= MAX_WORD_TILES:
            encoded.append(word)
    lengths = np.fromiter((len(w) for w in encoded), np.int64, len(encoded))
    offsets = np.zeros(len(encoded) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    flat = np.frombuffer(b"".join(encoded), np.uint8) if encoded else np.zeros(0, np.uint8)
    return flat, offsets


_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""What ``str.splitlines`` breaks lines at, besides ``\n``."""
_JOINED = 0xE000
"""Where :func:`encode_text` puts a multi-letter tile (``_JOINED + code``, private use)."""
_JOINED_CHARS = re.compile("[\ue000-\ue03f]")
_TABLE_END = 0x250
"""The tile set's :attr:`~letras.tiles.TileSet.word_table` covers the characters below."""
_BREAK = 0x40
_ODD = 0xFF


def _tile_lookup(edition: Edition) -> npt.NDArray[np.uint8] | None:
    """For each character below :data:`_TABLE_END`: its tile code when the tile set's word
    table translates it (as :meth:`~letras.tiles.TileSet.encode_word` does), :data:`_BREAK`
    for the line break, else :data:`_ODD` (characters below 0x40 included: a word with one
    is read as notation or refused, one word at a time). None for a table whose letters are
    not all above 0x40 and below :data:`_TABLE_END` (then every word goes the slow way)."""
    table = edition.tiles.word_table
    if any(cp <= _BREAK or cp >= _TABLE_END or not 1 <= ord(ch) < _BREAK
           for cp, ch in table.items()):
        return None
    lookup = np.full(_TABLE_END, _ODD, np.uint8)
    for cp, ch in table.items():
        lookup[cp] = ord(ch)
    lookup[ord("\n")] = _BREAK
    return lookup


def encode_text(
    edition: Edition, text: str, skipped: list[str] | None = None
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """:func:`encode_words` of ``text.splitlines()``, folding the whole text at once.

    The text is upper-cased and its multi-letter tiles joined as whole strings, then its
    characters are looked up in an array of the tile set's own table (as
    :meth:`~letras.tiles.TileSet.encode_word` does it word by word) and cut into words with
    numpy. A line with anything else (spaces around the word, digits, ``#``, brackets, a letter
    the edition lacks) goes to :func:`encode_words`, one word at a time, so every line gets the
    same tiles or is left out the same way; those words come after the others.
    """
    tiles = edition.tiles
    lookup = _tile_lookup(edition)
    if lookup is None or (tiles.has_multi_letter and _JOINED_CHARS.search(text)):
        return encode_words(edition, text.splitlines(), skipped)
    if _LINE_BREAKS.search(text):
        text = "\n".join(text.splitlines())
    upper = text.upper()
    upper = tiles.join_labels(upper, _JOINED)
    try:  # one byte a character (the usual case: Latin-1 text, no multi-letter tile)
        data = lookup[np.frombuffer(upper.encode("latin-1"), np.uint8)]
    except UnicodeEncodeError:
        chars = np.frombuffer(upper.encode("utf-32-le"), np.uint32)
        data = np.full(len(chars), _ODD, np.uint8)
        in_table = chars < _TABLE_END
        data[in_table] = lookup[chars[in_table]]
        if tiles.has_multi_letter:  # (the text had none of these characters)
            joined = (chars >= _JOINED) & (chars < _JOINED + 64)
            data[joined] = (chars[joined] - _JOINED).astype(np.uint8)
        del chars, in_table
    del upper
    breaks = np.flatnonzero(data == _BREAK)
    starts = np.concatenate((np.zeros(1, np.int64), breaks + 1))
    lengths = np.concatenate((breaks, np.array([len(data)], np.int64))) - starts
    slow = np.unique(np.searchsorted(breaks, np.flatnonzero(data == _ODD)))
    keep = (lengths >= 2) & (lengths <= MAX_WORD_TILES)
    keep[slow] = False
    in_word = np.repeat(keep, lengths + 1)[: len(data)]
    in_word &= data != _BREAK
    flat = data[in_word]
    del in_word, data
    offsets = np.zeros(int(keep.sum()) + 1, np.int64)
    np.cumsum(lengths[keep], out=offsets[1:])
    if len(slow):
        lines = text.split("\n")
        more, more_offsets = encode_words(edition, (lines[i] for i in slow), skipped)
        flat = np.concatenate((flat, more))
        offsets = np.concatenate((offsets, offsets[-1] + more_offsets[1:]))
    return flat, offsets


def build_nodes(
    flat: npt.NDArray[np.uint8], offsets: npt.NDArray[np.int64], progress: Progress = _quiet
) -> Nodes:
    """The node array (internal layout) for the encoded words (see :func:`_build`)."""
    return _build(flat, offsets, progress)[0]


def _build(
    flat: npt.NDArray[np.uint8], offsets: npt.NDArray[np.int64], progress: Progress = _quiet
) -> tuple[Nodes, int]:
    """The node array (internal layout) for the encoded words, and how many words it holds.

    The DAWG is the minimal automaton of the sorted words (:func:`_kwg_kernels.add_strings`:
    Daciuk's construction from sorted input, each state shared through a hash table). The
    GADDAG's strings are never made: after the separator, a GADDAG string ``rev(p)@s`` goes on
    with exactly the endings ``s`` that the DAWG's state after the prefix ``p`` accepts, so
    the only strings sorted and merged are the words' distinct prefixes reversed, each ending
    in an arc for the separator to that DAWG state (:func:`_kwg_kernels.prefixes`: 3.1 million
    strings for pt-BR instead of 19 million). The states are made in the order the whole
    GADDAG's strings would make them, so the nodes are the same, byte for byte.
    """
    announce_first_compile(k, "add_strings", "compile.word_graph")
    n = len(offsets) - 1
    table = np.zeros(1 << 15, np.int64)  # see _kwg_kernels.add_strings
    progress(f"DAWG: sorting {n:,} words")
    hi, lo = k.make_keys(flat, offsets, False)
    words = np.lexsort((lo, hi))
    progress(f"DAWG: merging {n:,} words into states")
    accept, after = np.ones(n, np.uint8), np.zeros(n, np.int32)
    more = k.room(lo, after)
    arcs, states = np.zeros(more, np.int64), np.zeros(more + 1, np.int64)  # state 0: the sink
    dawg, arcs, narcs, states, nstates, table = k.add_strings(
        hi, lo, words, accept, after, arcs, 0, states, 1, table)
    del hi, lo
    progress("GADDAG: the words' prefixes, reversed")
    hi, lo, accept, after = k.prefixes(flat, offsets, words, arcs, states, dawg)
    del words
    count = int(np.count_nonzero(accept))  # each word once: a prefix that is a word
    progress(f"GADDAG: sorting {len(hi):,} reversed prefixes")
    order = np.lexsort((lo, hi))
    progress(f"GADDAG: merging {len(hi):,} reversed prefixes into states")
    more = k.room(lo, after)
    gaddag, arcs, narcs, states, nstates, table = k.add_strings(
        hi, lo, order, accept, after, k.widened(arcs, narcs, narcs + more), narcs,
        k.widened(states, nstates, nstates + more), nstates, table)
    del hi, lo, order, accept, after, table
    if dawg < 0 or gaddag < 0:  # pragma: no cover - room() counts the most they can need
        raise AssertionError("the word graph builder ran out of room")
    if narcs + 2 > KBWG_MAX_NODES:
        raise LexiconError(f"the word graph needs {narcs + 2:,} nodes: more than a file can hold",
                           key="lexicon.graph_too_big", n=narcs + 2)
    progress(f"laying out {narcs + 2:,} nodes")
    nodes: Nodes = k.lay_out(arcs, states, nstates, dawg, gaddag)
    return nodes, count


# ----- the cache -----------------------------------------------------------------------------


def cache_dir() -> Path:
    """Where built graphs are kept: ``$LETRAS_CACHE``, else the user's cache directory."""
    env = os.environ.get("LETRAS_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(Path.home(), ".cache")
    return Path(base) / "letras"


def read_word_file(path: str | os.PathLike[str]) -> bytes:
    """The bytes of a word list, decompressed when it ends in ``.xz``."""
    return _decompressed(Path(path), _read_stored(Path(path)))


def _read_stored(p: Path) -> bytes:
    """The bytes of a word list file as stored (still compressed for ``.xz``)."""
    try:
        with p.open("rb") as f:
            stored = f.read(MAX_WORD_LIST_BYTES + 1)
    except OSError as e:
        raise LexiconError(f"cannot read word list {str(p)!r}: {e}", key="lexicon.read_list",
                           path=str(p), reason=str(e)) from None
    return _at_most(p, stored)


def _at_most(p: Path, data: bytes) -> bytes:
    if len(data) > MAX_WORD_LIST_BYTES:
        raise LexiconError(f"word list {str(p)!r} is longer than {MAX_WORD_LIST_BYTES:,} bytes",
                           key="lexicon.list_size", path=str(p), max=MAX_WORD_LIST_BYTES)
    return data


def _decompressed(p: Path, stored: bytes) -> bytes:
    if p.suffix != ".xz":
        return stored
    try:
        # at most the limit and a byte more: a small file may unpack to gigabytes
        unpack = lzma.LZMADecompressor()
        data = unpack.decompress(stored, max_length=MAX_WORD_LIST_BYTES + 1)
        if len(data) <= MAX_WORD_LIST_BYTES and not unpack.eof:
            raise lzma.LZMAError("the compressed data is cut short")
    except lzma.LZMAError as e:
        raise LexiconError(f"cannot read word list {str(p)!r}: {e}", key="lexicon.read_list",
                           path=str(p), reason=str(e)) from None
    return _at_most(p, data)


def cache_key(edition: Edition, path: str | os.PathLike[str], stored: bytes) -> str:
    """The cache entry's name for a word list: a digest of the file's bytes as stored (an
    ``.xz`` list is not decompressed: hashing 3 MB instead of 30 costs milliseconds), its
    suffix, the edition's tiles and the builder version."""
    key = hashlib.sha256()
    key.update(f"{BUILDER_VERSION}|{'|'.join(edition.tiles.labels)}|".encode())
    key.update(b"xz|" if Path(path).suffix == ".xz" else b"text|")
    key.update(stored)
    return f"{edition.name}-{key.hexdigest()[:32]}"


def graph_for_words(
    edition: Edition,
    path: str | os.PathLike[str],
    name: str | None = None,
    progress: Progress = _quiet,
) -> WordGraph:
    """The graph of a word list file, built once and then loaded from the cache (keyed by the
    file's bytes, the edition's tiles and the builder version: see :func:`cache_key`)."""
    stored = _read_stored(Path(path))
    cached = cache_dir() / f"{cache_key(edition, path, stored)}.kbwg"
    label = name or Path(path).name.split(".")[0]
    if cached.exists():
        try:
            graph = _load_sealed(cached, edition)
            if graph is None:  # checked as any graph file is; sealed for the next time
                graph = WordGraph.load(cached, edition)
                with contextlib.suppress(OSError, OutputError):
                    graph.cache_entry = (cached, _seal(cached, len(graph)))
            graph.name = label
            return graph
        except LexiconError:
            cached.unlink(missing_ok=True)  # a damaged cache entry: build it again
    data = _decompressed(Path(path), stored)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise LexiconError(f"word list {str(path)!r} is not UTF-8 text: {e}",
                           key="lexicon.not_utf8", path=str(path), reason=str(e),
                           byte=e.start) from None
    if len(data) < QUIET_BUILD_BYTES:
        progress = _quiet  # a small list builds in a blink: nothing to report
    progress(f"building the word graph of {label} (once; it is cached in {cache_dir()})")
    graph = WordGraph.from_text(edition, text, label, progress)
    with contextlib.suppress(OSError, OutputError):  # a read-only cache: built again next time
        cached.parent.mkdir(parents=True, exist_ok=True)
        graph.save(cached)
        graph.cache_entry = (cached, _seal(cached, len(graph)))
    return graph


def _seal(entry: Path, words: int) -> str:
    """Seal a cache entry just written from a graph built (so checked) here, or read and
    checked: its word count (see :mod:`letras.lexicon.sealed`); the sha256 of its bytes."""
    return seal(entry, [str(words)])


def _load_sealed(entry: Path, edition: Edition) -> WordGraph | None:
    """A cache entry whose seal holds, mapped into memory without checking its shape again
    (:func:`letras.lexicon.sealed.open_sealed`); None without a seal or when its bytes do not
    match it (then the entry is read as any graph file is, checks and all)."""
    sealed = open_sealed(entry, "<u4")
    if sealed is None or len(sealed.facts) != 1 or not sealed.facts[0].isdigit():
        return None
    nodes = sealed.array.view(np.uint32)
    if len(nodes) < 2:
        return None
    graph = WordGraph(nodes, edition, entry.stem, checked_words=int(sealed.facts[0]))
    graph.cache_entry = (entry, sealed.digest)
    return graph
