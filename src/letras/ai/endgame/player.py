"""The ``endgame`` level: once the bag is empty, search the rest of the game.

Two players: an exact search (:mod:`letras.ai.endgame.compiled`, on a compiled core; the
Python :mod:`letras.ai.endgame.search` where that does not apply); three or four: sampled
play-outs (:mod:`letras.ai.endgame.multi`); with tiles in the bag, the ``equity`` level. How
the searches work is told in this package's ``README.md``.

The opponent holds a T whose only play, HIT, goes out. Greedy would take QI for 21 and let
it; the search blocks the spot with HIS, the T is stuck, and QI goes out on the next turn:

>>> from letras.editions import find_edition
>>> from letras.lexicon.kwg import WordGraph
>>> from letras.board import Board
>>> from letras.play import Place
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["HI", "HIT", "HIS", "QI"])
>>> board = Board(en)
>>> board.put(Place.parse("8H HI", en).placed())
>>> position = EndgamePosition(board, en.tiles.parse("QS"), en.tiles.parse("T"), en.rules)
>>> result = solve(position, words)
>>> [c.notation(en) for c in result.principal_variation], result.value, result.exact
(['8H ..S', '-', 'I7 Q.'], 29, True)
"""

from __future__ import annotations

import random
import zlib

from letras.ai.endgame.multi import solve_multi
from letras.ai.endgame.position import EndgamePosition, EndgameResult
from letras.ai.endgame.search import Search
from letras.ai.equity import EquityPlayer
from letras.ai.player import NO_LIMIT, Choice, Limit, Player
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph

DEFAULT_LIMIT = Limit(work=20_000)
"""What :class:`EndgamePlayer` spends on two players when its caller sets no limit: an exact
search of a big endgame can take hours, a game should not. Work, not seconds, so that games
replay exactly. Measured on the first position of four real 7-vs-(4 to 7) endgames (en and
pt-BR, ``bench/endgame.py`` seeds 1 and 2): 0.03 to 0.9 seconds, depth 3 or 4 (one of them
exact). Endgames of up to 8 tiles between the two racks mostly finish within it (29 of 29
measured, 34 to 15,602 positions)."""


def solve(
    position: EndgamePosition | PlayerView,
    lexicon: WordGraph,
    limit: Limit = NO_LIMIT,
    *,
    seed: int = 0,
) -> EndgameResult:
    """Search an endgame (see this package's ``README.md``): exactly for two players (a
    position, or the view of the player to move), by sampled play-outs for three or four (a
    view; ``seed`` fixes the samples)."""
    if isinstance(position, PlayerView):
        if len(position.scores) > 2:
            return solve_multi(position, lexicon, limit, random.Random(seed))
        position = EndgamePosition.from_view(position)
    # imported here: the compiled core's module takes a while to import, and most users of
    # this package (every level that imports letras.ai) never search an endgame
    from letras.ai.endgame.compiled import CompiledSearch, usable

    if usable(position):
        return CompiledSearch(position, lexicon, limit).run()
    return Search(position, lexicon, limit).run()


class EndgamePlayer(Player):
    """Searches the endgame once the bag is empty (see this package's ``README.md``); before
    that, plays as the ``equity`` level.

    Two players: without a limit from its caller it spends :data:`DEFAULT_LIMIT`
    (``default_limit``) and answers the best move of the deepest iteration completed in it,
    the exact best move whenever the search finished. Three or four players: the play-outs of
    :mod:`letras.ai.endgame.multi`, within the caller's limit, or
    :data:`~letras.ai.endgame.multi.MULTI_SAMPLES` deals.
    """

    level = "endgame"

    def __init__(
        self,
        lexicon: WordGraph,
        *,
        seed: int | None = None,
        default_limit: Limit = DEFAULT_LIMIT,
    ) -> None:
        super().__init__(lexicon, seed=seed)
        self.default_limit = default_limit
        self.fallback = EquityPlayer(lexicon, seed=seed)

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        if view.bag_count > 0 or view.over or not view.rack:
            return self.fallback.choose(view, limit)
        if len(view.scores) > 2:
            # Without a limit, the play-outs stop after MULTI_SAMPLES deals by themselves. The
            # deals are drawn from a seed made of the player's seed and the position, so the
            # choice depends on the view alone.
            seed = zlib.crc32(bytes(view.board.squares) + bytes(view.rack)) ^ (self.seed or 0)
            return solve(view, self.lexicon, limit, seed=seed).best
        spend = self.default_limit if limit.unlimited else limit
        return solve(view, self.lexicon, spend).best


__all__ = ["DEFAULT_LIMIT", "EndgamePlayer", "solve"]
