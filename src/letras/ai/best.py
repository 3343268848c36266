"""The ``best`` level: the right search for each stage of the game, within the time limit.

- **Opening** (the board is empty): the ``equity`` level. There is nothing on the board for an
  opponent's reply to use but what the play itself opens, which equity's positional term
  values, and simulation would spend its time to little effect.
- **Middle game** (tiles on the board and in the bag): the ``sim`` level, Monte Carlo
  look-ahead over equity's best candidates, which stops early when one candidate is clearly
  best (:mod:`letras.ai.sim`).
- **Pre-endgame** (two players, one tile in the bag): every tile the bag may hold is tried,
  and each line, an endgame, is solved by the endgame search
  (:mod:`letras.ai.endgame.preendgame`). With 2-6 tiles, only at the counts of
  :data:`PREENDGAME_BAGS`, the sim's choice with the plays that empty the bag valued over the
  bag's draws (:mod:`letras.ai.emptying`, its mode :data:`DRAWS_SEARCH`), or the search over
  the draws alone (:mod:`letras.ai.endgame.draws`); at the others the sim chooses.
- **Endgame** (the bag is empty): the ``endgame`` level, an exact search with two players and a
  time-bounded look-ahead with more (:mod:`letras.ai.endgame`).

The limit is passed on whole: the searching levels stop at whichever bound comes first. Without
a limit, sim, pre-endgame and endgame use their own default work bounds
(:data:`letras.ai.sim.DEFAULT_LIMIT`, :data:`letras.ai.endgame.preendgame.DEFAULT_LIMIT`,
:data:`letras.ai.endgame.DEFAULT_LIMIT`), so a choice never runs away and replays exactly.
With more than one opponent, both searches maximise the player's final margin over the best
opponent (see their modules).

>>> from letras.editions import find_edition
>>> from letras.game import Game
>>> from letras.lexicon.kwg import WordGraph
>>> en = find_edition("en")
>>> words = WordGraph.build(en, ["FOND", "DO", "NOD", "FAY"])
>>> game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
>>> view = game.view(game.to_move)
>>> BestPlayer(words).stage(view)
'opening'
>>> BestPlayer(words).choose(view) == BestPlayer(words).equity.choose(view)
True
"""

from __future__ import annotations

from collections.abc import Iterable

from letras.ai import emptying
from letras.ai.endgame import EndgamePlayer, draws
from letras.ai.endgame.preendgame import applies, solve_preendgame
from letras.ai.equity import EquityPlayer
from letras.ai.leaves import LeaveEvaluator
from letras.ai.player import NO_LIMIT, Choice, Limit, Player
from letras.ai.sim import SimPlayer
from letras.game import PlayerView
from letras.lexicon.kwg import WordGraph

PREENDGAME_BAGS = frozenset({1})
"""The counts of tiles in the bag at which the pre-endgame search chooses (two players); the
sim chooses at the others. With 2-6 tiles the search of :mod:`letras.ai.endgame.draws` did
worse than the sim on the same positions, and the hybrid of :mod:`letras.ai.emptying` no better
in any of its modes; with 1 the exact search did no better (``bench/preendgame_ab.py``;
``bench/README.md``, "Pre-endgame against the sim" and "Issue 18, target 3: the pre-endgame
with 2-6 tiles, again")."""

DRAWS_SEARCH = emptying.MODE
"""The search at the counts of 2 or more of :data:`PREENDGAME_BAGS`: a mode of
:mod:`letras.ai.emptying`, or ``draws``."""


class BestPlayer(Player):
    """Equity for the opening, simulation in the middle, search in the endgame."""

    level = "best"

    def __init__(
        self,
        lexicon: WordGraph,
        *,
        seed: int | None = None,
        leaves: LeaveEvaluator | None = None,
        preendgame_bags: Iterable[int] = PREENDGAME_BAGS,
        draws_search: str = DRAWS_SEARCH,
    ) -> None:
        """``preendgame_bags``: the counts of tiles in the bag at which the pre-endgame
        search chooses (1 to :data:`letras.ai.endgame.draws.MAX_BAG`); ``draws_search``, the
        search with 2 or more: ``draws`` (:func:`letras.ai.endgame.draws.solve_draws`) or a
        mode of :mod:`letras.ai.emptying` (the sim's choice, the plays that empty the bag
        valued over the draws)."""
        super().__init__(lexicon, seed=seed)
        if draws_search not in ("draws", *emptying.MODES):
            raise ValueError(f"no pre-endgame search {draws_search!r}")
        self.leaves = leaves
        self.preendgame_bags = frozenset(preendgame_bags)
        self.draws_search = draws_search
        self.equity = EquityPlayer(lexicon, seed=seed, leaves=leaves)
        self.sim = SimPlayer(lexicon, seed=seed, leaves=leaves)
        self.endgame = EndgamePlayer(lexicon, seed=seed)

    def stage(self, view: PlayerView) -> str:
        """``opening``, ``middle``, ``preendgame`` or ``endgame``: which search will
        choose."""
        if view.bag_count == 0:
            return "endgame"
        if view.board.is_empty():
            return "opening"
        if view.bag_count in self.preendgame_bags and (applies(view) or draws.applies(view)):
            return "preendgame"
        return "middle"

    def choose(self, view: PlayerView, limit: Limit = NO_LIMIT) -> Choice:
        stage = self.stage(view)
        if stage == "endgame":
            return self.endgame.choose(view, limit)
        if stage == "preendgame" and view.bag_count == 1:
            return solve_preendgame(view, self.lexicon, limit, equity=self.equity).best
        if stage == "preendgame" and self.draws_search != "draws":
            return emptying.solve(view, self.lexicon, self.sim, limit, equity=self.equity,
                                  seed=self.seed or 0, modes=(self.draws_search,)
                                  ).choices[self.draws_search]
        if stage == "preendgame":
            return draws.solve_draws(view, self.lexicon, limit, equity=self.equity,
                                     seed=self.seed or 0).best
        if stage == "opening":
            return self.equity.choose(view, limit)
        return self.sim.choose(view, limit)


__all__ = ["DRAWS_SEARCH", "PREENDGAME_BAGS", "BestPlayer"]
