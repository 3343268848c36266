"""The sim's choice with the plays that empty the bag valued over the draws
(:mod:`letras.ai.emptying`): an emptying candidate's values agree with a brute force over every
split of the unseen tiles (each endgame solved by the Python reference search); ``within``
keeps the sim's choice between keeping tiles and emptying the bag; the choices are
deterministic, look only at the view, and ``best`` uses them at the counts it is told to."""

from __future__ import annotations

import pytest

from helpers import PRE_WORDS, brute_force, note_board, pre_view
from letras.ai import BestPlayer, emptying
from letras.ai.leaves import HeuristicLeaves
from letras.ai.player import Limit
from letras.ai.sim import SimPlayer
from letras.editions import find_edition
from letras.lexicon.kwg import WordGraph
from letras.play import Pass, Place

EN = find_edition("en")


@pytest.fixture(scope="module")
def words() -> WordGraph:
    return WordGraph.build(EN, PRE_WORDS)


def sim(words: WordGraph) -> SimPlayer:
    return SimPlayer(words, seed=1, leaves=HeuristicLeaves(EN))


def test_a_play_empties_the_bag_when_it_lays_as_many_tiles() -> None:
    assert emptying.empties(Place.parse("7G ETA", EN), 3)
    assert emptying.empties(Place.parse("7G ETA", EN), 2)
    assert not emptying.empties(Place.parse("7G ETA", EN), 4)
    # tiles already on the board are not laid
    assert not emptying.empties(Place.parse("J8 .TAS", EN), 4)
    assert emptying.empties(Place.parse("J8 .TAS", EN), 3)
    assert not emptying.empties(Pass(), 2)


@pytest.mark.parametrize(("rack", "opponent", "bag", "scores"), [
    ("AST", "E", "ON", (0, 0)),
    ("AEST", "NO", "TO", (0, 0)),
    ("EOST", "AN", "TE", (5, 0)),
    ("TEA", "OS", "NE", (3, 0)),
])
def test_emptying_candidates_are_valued_as_a_brute_force_over_every_split(
    words: WordGraph, rack: str, opponent: str, bag: str, scores: tuple[int, int]
) -> None:
    view = pre_view(note_board(), rack, opponent, bag, scores)
    result = emptying.solve(view, words, sim(words), seed=2)
    assert result.draws is not None and result.draws.exact
    expected = brute_force(view, words)
    spread_now = scores[0] - scores[1]
    chosen = result.simulation.best.choice
    assert emptying.empties(chosen, len(bag))  # (these positions are chosen so)
    emptying_ones = [c.choice for c in result.simulation.candidates
                     if isinstance(c.choice, Place) and emptying.empties(c.choice, len(bag))]
    assert len(emptying_ones) >= 2
    # replace: each emptying candidate's win chance and final spread are the brute force's
    valued = {v.choice: v for v in result.ranked}
    for choice in emptying_ones:
        wins, spread = expected[choice]
        assert (valued[choice].win, valued[choice].spread) == pytest.approx(
            (wins, spread_now + spread))
    # within: the sim chose to empty the bag, so the best emptying candidate by the brute
    # force (win chance, then spread) is played
    best = max(expected[c] for c in emptying_ones)
    within = result.choices["within"]
    assert isinstance(within, Place)
    assert expected[within] == pytest.approx(best)
    # replace: the first of the ranking, by the sim's value
    assert result.choices["replace"] == result.ranked[0].choice
    assert all(result.ranked[0].value >= v.value for v in result.ranked
               if v.draws is not None or v.choice == chosen)


def test_shift_moves_emptying_plays_by_their_differences_over_the_draws(
    words: WordGraph
) -> None:
    view = pre_view(note_board(), "EOST", "AN", "TE", (5, 0))
    player = sim(words)
    simulation = player.analyse(view)
    result = emptying.solve(view, words, player, seed=2)
    assert result.draws is not None
    by_draws = {d.choice: d for d in result.draws.candidates}
    shifted = {v.choice: v for v in emptying._ranked(view, simulation, by_draws, "shift")}
    sims = {c.choice: c for c in simulation.candidates}
    emptying_ones = [c for c in by_draws if sims[c].iterations > 0]
    # the most simulated emptying candidate keeps the sim's values ...
    anchor = max(emptying_ones, key=lambda c: (sims[c].iterations, sims[c].value))
    assert (shifted[anchor].win, shifted[anchor].spread) == pytest.approx(
        (sims[anchor].win, sims[anchor].spread))
    # ... and the others differ from it as they do over the draws
    for c in emptying_ones:
        assert shifted[c].win - shifted[anchor].win == pytest.approx(
            by_draws[c].wins - by_draws[anchor].wins)
        assert shifted[c].spread - shifted[anchor].spread == pytest.approx(
            by_draws[c].spread - by_draws[anchor].spread)
    assert result.choices["shift"] == max(
        (v for v in shifted.values() if v.draws is not None or v.choice == simulation.best.choice),
        key=lambda v: v.value).choice


def test_within_keeps_the_sims_choice_when_it_keeps_tiles_back(words: WordGraph) -> None:
    view = pre_view(note_board(), "NOTS", "A", "ETO", (0, 9))
    chosen = sim(words).analyse(view).best.choice
    assert not emptying.empties(chosen, 3)  # (this position is chosen so)
    alone = emptying.solve(view, words, sim(words), seed=2, modes=("within",))
    assert alone.draws is None  # nothing searched
    assert alone.choices == {"within": chosen}
    every = emptying.solve(view, words, sim(words), seed=2)
    assert every.choices["within"] == chosen


def test_deterministic_and_blind_to_the_split_of_the_unseen_tiles(words: WordGraph) -> None:
    view = pre_view(note_board(), "AEST", "NO", "TO")
    other = pre_view(note_board(), "AEST", "OO", "NT")  # the same unseen tiles, split otherwise
    assert other == view
    first = emptying.solve(view, words, sim(words), Limit(work=5_000), seed=4)
    again = emptying.solve(view, words, sim(words), Limit(work=5_000), seed=4)
    swapped = emptying.solve(other, words, sim(words), Limit(work=5_000), seed=4)
    assert first.choices == again.choices == swapped.choices
    assert first.ranked == again.ranked == swapped.ranked


def test_best_uses_the_mode_it_is_told_at_the_counts_it_is_told(words: WordGraph) -> None:
    view = pre_view(note_board(), "EOST", "AN", "TE", (5, 0))
    leaves = HeuristicLeaves(EN)
    for mode in emptying.MODES:
        best = BestPlayer(words, seed=1, leaves=leaves, preendgame_bags={2}, draws_search=mode)
        assert best.stage(view) == "preendgame"
        expected = emptying.solve(view, words, sim(words), seed=1, modes=(mode,))
        assert best.choose(view) == expected.choices[mode]
    default = BestPlayer(words, seed=1, leaves=leaves)
    assert default.stage(view) == ("preendgame" if 2 in default.preendgame_bags else "middle")
    with pytest.raises(ValueError, match="no pre-endgame search"):
        BestPlayer(words, draws_search="nonsense")
    # with a time limit the sim takes its share and the draws the rest: still a choice among
    # the sim's candidates
    timed = BestPlayer(words, seed=1, leaves=leaves, preendgame_bags={2})
    candidates = {c.choice for c in timed.sim.analyse(view, Limit(seconds=0.4)).candidates}
    assert timed.choose(view, Limit(seconds=1.0)) in candidates
    assert emptying.sim_limit(Limit(seconds=1.0)) == Limit(seconds=emptying.SIM_SHARE)
    assert emptying.sim_limit(Limit(work=300)) == Limit(work=300)
