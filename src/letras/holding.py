"""Racks a game record shows: making the racks hold the tiles it names.

A record (GCG) says which tiles a player held before a turn, sometimes only those they played,
and the final count shows every rack; the rest of the bag is unknown. Replaying it, the game
makes each rack hold the tiles the record names by swapping: a missing tile comes from the bag,
or else from another rack that holds it beyond what a record has named for that rack (a
record never shows the other racks), in exchange for a tile the record does not name. Tile
counts never change, so the bag and the racks stay a set the edition can have.

>>> from letras.editions import find_edition
>>> en = find_edition("en")
>>> racks, known = [[1, 1, 1], [5, 5, 26]], [[], []]
>>> bag = Bag(en.tiles, seed=1)
>>> for t in (1, 1, 1, 5, 5, 26):
...     _ = bag.take(t)
>>> hold(racks, bag, known, [(0, (26,))], en.tiles, ["Ana", "Bruno"])
((0, (26,)),)
>>> racks
[[1, 1, 26], [1, 5, 5]]
>>> hold(racks, bag, known, [(0, (26,)), (1, (26,))], en.tiles, ["Ana", "Bruno"])
Traceback (most recent call last):
...
letras.errors.FormatError: Bruno cannot hold Z: the bag and the other racks lack Z

(English has one Z: Ana's rack took the Z from Bruno's, and both cannot hold it.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NoReturn

from letras.bag import Bag
from letras.errors import FormatError
from letras.rack import minus
from letras.tiles import TileSet

Held = tuple[tuple[int, tuple[int, ...]], ...]
"""Racks a record shows, as ``(seat, tiles)`` pairs (tiles sorted, blanks as ``0``)."""


def hold(
    racks: list[list[int]],
    bag: Bag,
    known: list[list[int]],
    wants: Iterable[tuple[int, Sequence[int]]],
    tiles: TileSet,
    names: Sequence[str],
    *,
    lenient: bool = False,
) -> Held:
    """Make each rack in ``wants`` hold the tiles given for it (see the module docstring).
    ``known`` holds, per seat, the tiles a record has named and that are still on the rack;
    it becomes the tiles wanted. A rack that cannot hold them (too few tiles, or a tile found
    nowhere) is a :class:`~letras.errors.FormatError` naming the player, raised before
    anything changes; ``lenient`` skips such racks instead. Returns the racks held."""
    wanted = {p: list(want) for p, want in wants if want}
    for p, want in list(wanted.items()):
        lacking = _lacking(racks, bag, wanted, p, len(tiles.labels))
        if len(want) > len(racks[p]) or lacking:
            if lenient:
                del wanted[p]
                continue
            _refuse(names[p], want, racks[p], lacking, tiles)
    for p, want in wanted.items():
        known[p] = list(want)
    for p, want in wanted.items():
        rack = racks[p]
        spare = _left(rack, want)
        for t in _left(want, rack):
            give = spare.pop()
            if bag.take(t):
                bag.put_back([give])
            else:
                q = _holder(racks, known, wanted, t, p)
                if q is None:  # another rack in ``wants`` needed it too
                    _refuse(names[p], want, rack, [t], tiles)
                racks[q].remove(t)
                racks[q].append(give)
                racks[q].sort()
            rack.remove(give)
            rack.append(t)
        rack.sort()
    return tuple((p, tuple(want)) for p, want in wanted.items())


def _left(have: Iterable[int], take: Iterable[int]) -> list[int]:
    """``have`` less ``take``, as multisets (sorted)."""
    return list(minus(have, take)[0])


def _lacking(racks: list[list[int]], bag: Bag, wanted: dict[int, list[int]], p: int,
             size: int) -> list[int]:
    """The tiles ``p``'s rack lacks of those wanted that neither the bag nor a rack that can
    spare them holds."""
    pool = bag.counts(size)
    spare = [0] * size
    for q, rack in enumerate(racks):
        if q != p:
            for t in _left(rack, wanted.get(q, ())):
                spare[t] += 1
    lacking = []
    for t in _left(wanted[p], racks[p]):
        if pool[t]:
            pool[t] -= 1
        elif spare[t]:
            spare[t] -= 1
        else:
            lacking.append(t)
    return lacking


def _holder(racks: list[list[int]], known: list[list[int]], wanted: dict[int, list[int]],
            tile: int, p: int) -> int | None:
    """A seat other than ``p`` whose rack can spare ``tile``: one holding it beyond the tiles a
    record named for it, else beyond what ``wanted`` names for it now."""
    others = [q for q in range(len(racks)) if q != p]
    for q in others:
        if tile in _left(racks[q], known[q]):
            return q
    for q in others:
        if tile in _left(racks[q], wanted.get(q, ())):
            return q
    return None


def _refuse(name: str, want: Sequence[int], rack: Sequence[int], lacking: Sequence[int],
            tiles: TileSet) -> NoReturn:
    shown = tiles.format(want, rack=True)
    if len(want) > len(rack):
        raise FormatError(
            f"{name}'s rack holds {len(rack)} tiles here, not the {len(want)} of {shown}",
            key="record.rack_size", player=name, rack=shown, n=len(rack), want=len(want),
        )
    raise FormatError(
        f"{name} cannot hold {shown}: the bag and the other racks lack "
        f"{tiles.format(lacking, rack=True)}", key="record.no_tile", player=name, rack=shown,
        lacking=tiles.format(lacking, rack=True),
    )
