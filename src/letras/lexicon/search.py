"""Word searches over a word graph: anagrams of a rack, patterns, words through board letters.

Lengths count tiles, not letters (Spanish CHILLAR has 5 tiles). A blank (``?``) on a rack
stands for any letter; the words found show it in lower case.

Patterns: a letter is a tile that must be there (a letter already on the board, not taken from
the rack), ``?`` is one tile and ``*`` any number of tiles (none included). With a rack, every
``?`` and ``*`` tile must come from the rack.

>>> from letras.editions import find_edition
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> g = WordGraph.build(en, ["CARE", "RACE", "ACRE", "CAR", "ACE", "SCARE", "CARES"])
>>> anagrams(g, "ACER")
['ACRE', 'CARE', 'RACE']
>>> anagrams(g, "ACE?")
['ACrE', 'CArE', 'rACE']
>>> pattern(g, "?AR*")
['CAR', 'CARE', 'CARES']
>>> pattern(g, "*C*", rack="AERS")
['ACE', 'ACRE', 'CAR', 'CARE', 'CARES', 'RACE', 'SCARE']
"""

from __future__ import annotations

from collections.abc import Iterator

from letras.errors import NotationError
from letras.lexicon import _kwg_kernels as k
from letras.lexicon.kwg import WordGraph
from letras.tiles import BLANK, BLANK_BIT

ANY = -1  # ``?``
RUN = -2  # ``*``


def _rack_counts(graph: WordGraph, rack: str) -> list[int]:
    tiles = graph.edition.tiles
    counts = [0] * len(tiles.labels)
    # any case, as the rest of the command line reads a rack (lower case is no blank here)
    for t in tiles.parse(rack.strip().upper(), rack=True):
        counts[t] += 1
    return counts


def _pattern_tokens(graph: WordGraph, text: str) -> list[int]:
    tokens: list[int] = []
    chunk = ""
    tiles = graph.edition.tiles
    for ch in text.strip() + "\0":
        if ch in "?*.\0":
            if chunk:
                tokens.extend(tiles.word_tiles(chunk))
                chunk = ""
            if ch in "?.":
                tokens.append(ANY)
            elif ch == "*" and (not tokens or tokens[-1] != RUN):
                tokens.append(RUN)
        else:
            chunk += ch
    if not tokens:
        raise NotationError("an empty pattern")
    return tokens


def _walk(
    graph: WordGraph, tokens: list[int], counts: list[int] | None
) -> Iterator[tuple[int, ...]]:
    """Words of the DAWG that match ``tokens``, using rack ``counts`` for ? and * if given."""
    nodes = graph.nodes
    out: set[tuple[int, ...]] = set()

    def arcs(p: int) -> Iterator[tuple[int, int]]:
        """(node index, tile) of each arc of the list starting at p."""
        while True:
            node = int(nodes[p])
            yield p, node & k.TILE_MASK
            if node & k.IS_END:
                return
            p += 1

    def step(p: int, tok: int, word: tuple[int, ...]) -> None:
        # p: the first node of the arc list to choose from (0 = none left)
        if tok == len(tokens):
            return
        want = tokens[tok]
        if want == RUN:
            # * matches nothing here ...
            step(p, tok + 1, word)
            # ... or one tile, then still inside the *
            for q, tile in arcs(p) if p else ():
                take = _take(counts, tile)
                if take is None:
                    continue
                placed = tile | BLANK_BIT if take == BLANK else tile
                node = int(nodes[q])
                new = (*word, placed)
                if node & k.ACCEPTS and _done(tokens, tok):
                    out.add(new)
                if node >> k.ARC_SHIFT:
                    step(node >> k.ARC_SHIFT, tok, new)
                if take is not None and counts is not None:
                    counts[take] += 1
            return
        for q, tile in arcs(p) if p else ():
            placed = tile
            used: int | None = None
            if want == ANY:
                used = _take(counts, tile)
                if used is None:
                    continue
                if used == BLANK:
                    placed = tile | BLANK_BIT
            elif tile != want:
                continue
            node = int(nodes[q])
            new = (*word, placed)
            if node & k.ACCEPTS and _done(tokens, tok + 1):
                out.add(new)
            if node >> k.ARC_SHIFT:
                step(node >> k.ARC_SHIFT, tok + 1, new)
            if used is not None and counts is not None:
                counts[used] += 1

    step(int(nodes[0]) >> k.ARC_SHIFT, 0, ())
    yield from sorted(out, key=lambda w: (len(w), [t & 0x7F for t in w], w))


def _take(counts: list[int] | None, tile: int) -> int | None:
    """Take ``tile`` from the rack: the tile itself, else a blank; None if neither is there.
    Without a rack any tile may be taken (returns the tile, nothing is counted)."""
    if counts is None:
        return tile
    if counts[tile]:
        counts[tile] -= 1
        return tile
    if counts[BLANK]:
        counts[BLANK] -= 1
        return BLANK
    return None


def _done(tokens: list[int], tok: int) -> bool:
    """True if nothing but ``*`` is left of the pattern from ``tok``."""
    return all(t == RUN for t in tokens[tok:])


def _format(graph: WordGraph, words: Iterator[tuple[int, ...]]) -> list[str]:
    tiles = graph.edition.tiles
    return sorted(dict.fromkeys("".join(tiles.label(t) for t in w) for w in words))


def pattern(graph: WordGraph, text: str, rack: str | None = None) -> list[str]:
    """Words that match a pattern (see the module docstring), sorted."""
    counts = _rack_counts(graph, rack) if rack is not None else None
    return _format(graph, _walk(graph, _pattern_tokens(graph, text), counts))


def anagrams(graph: WordGraph, rack: str, *, partial: bool = False) -> list[str]:
    """Words that use every tile of the rack (or, with ``partial``, any two or more), sorted."""
    counts = _rack_counts(graph, rack)
    size = sum(counts)
    found = _walk(graph, [RUN], counts)
    return _format(graph, (w for w in found if partial or len(w) == size))
