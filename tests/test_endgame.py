"""The ``endgame`` level: the exact search against a plain exhaustive minimax on many small
endgames, endgames worked out by hand, the game's rule options, limits, every edition, three
and four players, and the player's use of its own view only."""

from __future__ import annotations

import random

import pytest

from helpers import accept, board_with, cut_racks, play_until_bag_empty
from letras.ai import EquityPlayer, GreedyPlayer, Limit
from letras.ai.endgame import (
    DEPTHS,
    MULTI_SAMPLES,
    EndgameError,
    EndgamePlayer,
    EndgamePosition,
    horizon_value,
    solve,
    turns_in_row,
)
from letras.ai.selfplay import run_game
from letras.board import Board
from letras.editions import Edition, RuleOptions, find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.play import Pass, Place
from letras.rules import leave, validate

EN = find_edition("en")


def rack_value(edition: Edition, rack: tuple[int, ...] | list[int]) -> int:
    return sum(edition.tiles.values[t] for t in rack)


def exhaustive(
    board: Board, me: tuple[int, ...], opp: tuple[int, ...], rules: RuleOptions,
    lexicon: WordGraph, passes: int = 0, scoreless: int = 0,
) -> int:
    """The spread the side to move gains from here to the end, by trying every line: no
    pruning, no table, no ordering. The end rules are written out again here, from rules.md:
    going out gains twice the other rack; passes, scoreless turns, or nobody able to play end
    the game with each side losing their own rack (with no pass rule at all, a round of
    passes ends it, as the endgame module documents)."""
    ed = board.edition
    plays = generate(board, me, lexicon, bingo_bonus=rules.bingo_bonus)
    if (not len(plays) and rules.end_when_no_play_possible
            and not len(generate(board, opp, lexicon))):
        return rack_value(ed, opp) - rack_value(ed, me)
    values = []
    for place, score in plays:
        kept = tuple(leave(me, place))
        turns = 0 if score else scoreless + 1
        if not kept:
            values.append(score + 2 * rack_value(ed, opp))
        elif rules.scoreless_turns_to_end and turns >= rules.scoreless_turns_to_end:
            values.append(score + rack_value(ed, opp) - rack_value(ed, kept))
        else:
            after = board.copy()
            after.put(place.placed())
            values.append(score - exhaustive(after, opp, kept, rules, lexicon, 0, turns))
    passes_to_end = 2 * rules.pass_rounds_to_end
    if not passes_to_end and not rules.scoreless_turns_to_end:
        passes_to_end = 2
    if (passes_to_end and passes + 1 >= passes_to_end) or (
        rules.scoreless_turns_to_end and scoreless + 1 >= rules.scoreless_turns_to_end
    ):
        values.append(rack_value(ed, opp) - rack_value(ed, me))
    else:
        values.append(-exhaustive(board, opp, me, rules, lexicon, passes + 1, scoreless + 1))
    return max(values)


_GAMES: dict[tuple[int, int], Game] = {}


def endgame(seed: int, lexicon: WordGraph, players: int = 2) -> Game:
    key = (seed, players)
    if key not in _GAMES:
        _GAMES[key] = play_until_bag_empty(EN, seed, lexicon, players)
    return _GAMES[key].replay(len(_GAMES[key].moves))


def small_positions(
    lexicon: WordGraph, seeds: range, per_game: int, rules: RuleOptions, tiles: int = 4
) -> list[EndgamePosition]:
    """Real boards from seeded games, with racks cut down to a few of the real tiles so that
    the exhaustive search finishes fast (at most ``tiles`` between the two racks)."""
    out = []
    for seed in seeds:
        game = endgame(seed, lexicon)
        if game.over:
            continue
        for mine, theirs in cut_racks(game, seed, per_game, tiles, (3, 2)):
            out.append(EndgamePosition(game.board, mine, theirs, rules))
    return out


# ----- the search is exact --------------------------------------------------------------------


@pytest.mark.slow
def test_the_search_matches_exhaustive_minimax_on_real_endgames(en_words: WordGraph) -> None:
    positions = small_positions(en_words, range(8), 4, EN.rules)
    assert len(positions) >= 24
    for pos in positions:
        expected = exhaustive(pos.board, pos.rack, pos.opponent_rack, pos.rules, en_words)
        result = solve(pos, en_words)
        label = (EN.tiles.format(pos.rack, rack=True), EN.tiles.format(pos.opponent_rack,
                                                                        rack=True))
        assert result.exact, label
        assert result.value == expected, label
        assert isinstance(result.value, int)


@pytest.mark.parametrize("changes", [
    {"pass_rounds_to_end": 1},
    {"pass_rounds_to_end": 0, "scoreless_turns_to_end": 6},
    {"pass_rounds_to_end": 2, "scoreless_turns_to_end": 3},
    {"end_when_no_play_possible": False},
    {"pass_rounds_to_end": 0, "end_when_no_play_possible": False},
    {"bingo_bonus": 0},
])
def test_the_search_follows_the_rule_options(en_words: WordGraph, changes: dict[str, object]
                                              ) -> None:
    rules = EN.rules.replace(**changes)
    for pos in small_positions(en_words, range(8, 14), 1, rules, tiles=3):
        expected = exhaustive(pos.board, pos.rack, pos.opponent_rack, rules, en_words)
        result = solve(pos, en_words)
        assert result.exact and result.value == expected


@pytest.mark.parametrize(("changes", "passes", "scoreless", "value"), [
    # The Q cannot play; the T goes out with HIT (6) and catches the Q: -(6 + 2 x 10).
    ({}, 0, 0, -26),
    ({}, 2, 2, -26),
    # ... unless the pass the Q must make is the last one: then each loses their rack, 1 - 10.
    ({}, 3, 3, -9),
    ({"pass_rounds_to_end": 1}, 1, 1, -9),
    ({"pass_rounds_to_end": 0, "scoreless_turns_to_end": 3}, 0, 2, -9),
    ({"pass_rounds_to_end": 0, "scoreless_turns_to_end": 3}, 0, 1, -26),
    # No rule ends a game of passes: a full round of passes is taken as the end.
    ({"pass_rounds_to_end": 0}, 1, 1, -9),
])
def test_when_passes_end_the_game(changes: dict[str, object], passes: int, scoreless: int,
                                  value: int) -> None:
    words = WordGraph.build(EN, ["HI", "HIT"])
    board = board_with(EN, "8H HI")
    rules = EN.rules.replace(**changes)
    pos = EndgamePosition(board, EN.tiles.parse("Q"), EN.tiles.parse("T"), rules,
                          passes_in_row=passes, scoreless_in_row=scoreless)
    result = solve(pos, words)
    assert result.exact and result.value == value
    assert value == exhaustive(board, pos.rack, pos.opponent_rack, rules, words, passes,
                               scoreless)


@pytest.mark.parametrize(("bonus", "value"), [(50, 90), (0, 40), (35, 75)])
def test_the_bingo_bonus_is_the_rules_own(bonus: int, value: int) -> None:
    # SEATING down from J8 hooks HIS: 14 (A and G on triple letters) + 6, the bonus, and
    # twice the Q left on the other rack.
    words = WordGraph.build(EN, ["HI", "HIS", "SEATING"])
    board = board_with(EN, "8H HI")
    rules = EN.rules.replace(bingo_bonus=bonus)
    pos = EndgamePosition(board, EN.tiles.parse("SEATING"), EN.tiles.parse("Q"), rules)
    result = solve(pos, words)
    assert result.exact and result.value == value
    assert result.best.notation(EN) == "J8 SEATING"


def test_perfect_play_scores_what_the_game_scores(en_words: WordGraph) -> None:
    """Both sides play the solver's move in a real game down to the end: the spread the game
    counts (its own end-of-game rules) is the value the search promised at the start."""
    checked = 0
    for seed in range(20):
        game = endgame(seed, en_words)
        greedy = GreedyPlayer(en_words)
        # Play on until the racks are small enough to solve many times over.
        while not game.over and len(game.rack(0)) + len(game.rack(1)) > 6:
            game.apply(greedy.choose(game.view(game.to_move)))
            accept(game)
        if game.over:
            continue
        me = game.to_move
        start = game.scores[me] - game.scores[1 - me]
        promised = solve(game.view(me), en_words)
        assert promised.exact
        while not game.over:
            game.apply(solve(game.view(game.to_move), en_words).best)
            accept(game)
        assert game.scores[me] - game.scores[1 - me] - start == promised.value
        checked += 1
        if checked == 3:
            break
    assert checked == 3


# ----- endgames worked out by hand ------------------------------------------------------------


def test_going_out_in_two_while_the_opponent_is_stuck() -> None:
    # The Q has no play: T (HIT, 6) and A (AH, 5) go out one at a time, and the Q counts twice.
    words = WordGraph.build(EN, ["HI", "HIT", "AH"])
    board = board_with(EN, "8H HI")
    pos = EndgamePosition(board, EN.tiles.parse("AT"), EN.tiles.parse("Q"), EN.rules)
    result = solve(pos, words)
    assert result.exact and result.value == 6 + 5 + 2 * 10
    pv = [c.notation(EN) for c in result.principal_variation]
    assert len(pv) == 3 and pv[1] == "-"
    assert {pv[0], pv[2]} == {"8H ..T", "H7 A."}


def test_passing_when_any_play_opens_a_spot() -> None:
    # The only play, AH (5), lets the Z play ZA on a double letter (21) and go out, catching
    # the Q (+20): 5 - 41. Passing it out costs each side its rack: Z 10 - (A 1 + Q 10) = -1.
    words = WordGraph.build(EN, ["HI", "AH", "ZA"])
    board = board_with(EN, "8H HI")
    pos = EndgamePosition(board, EN.tiles.parse("AQ"), EN.tiles.parse("Z"), EN.rules)
    assert [p.notation(EN) for p, _ in generate(board, pos.rack, words)] == ["H7 A."]
    result = solve(pos, words)
    assert result.exact and result.value == -1
    assert isinstance(result.best, Pass)
    assert all(isinstance(c, Pass) for c in result.principal_variation)


def test_blocking_the_opponents_only_way_out() -> None:
    # T goes out only with HIT. QI (21) lets it: 21 - HIT 6 - 2 x S = 13. HIS (6) takes its
    # square, the T is stuck, and QI goes out next turn: 6 + 21 + 2 x T = 29.
    words = WordGraph.build(EN, ["HI", "HIT", "HIS", "QI"])
    board = board_with(EN, "8H HI")
    pos = EndgamePosition(board, EN.tiles.parse("QS"), EN.tiles.parse("T"), EN.rules)
    result = solve(pos, words)
    assert result.exact and result.value == 29
    assert result.best.notation(EN) == "8H ..S"
    greedy_first = max(generate(board, pos.rack, words), key=lambda ps: ps[1])
    assert greedy_first[0].notation(EN) == "I7 Q."


def test_nobody_can_play() -> None:
    # The game is over as it stands (rules.md 6.2): each side loses its rack, X 8 and Q 10.
    words = WordGraph.build(EN, ["HI"])
    board = board_with(EN, "8H HI")
    pos = EndgamePosition(board, EN.tiles.parse("Q"), EN.tiles.parse("X"), EN.rules)
    result = solve(pos, words)
    assert result.exact and result.value == 8 - 10 and isinstance(result.best, Pass)


# ----- limits -----------------------------------------------------------------------------


def test_a_limit_gives_the_deepest_completed_iteration(en_words: WordGraph) -> None:
    game = endgame(1, en_words)
    view = game.view(game.to_move)
    assert len(view.rack) + sum(view.unseen) >= 10  # far too big to finish in this work
    result = solve(view, en_words, Limit(work=400))
    assert not result.exact and result.depth >= 1
    assert [it.depth for it in result.iterations] == list(DEPTHS[:len(result.iterations)])
    assert result.best == result.iterations[-1].best
    assert isinstance(result.best, Place)
    validate(view.board, result.best, rack=view.rack, lexicon=en_words)
    # A limit of no time at all still completes the first iteration.
    quick = solve(view, en_words, Limit(seconds=0.0))
    assert quick.depth == 1 and not quick.exact


def test_a_limit_does_not_change_a_finished_search(en_words: WordGraph) -> None:
    pos = small_positions(en_words, range(2, 3), 1, EN.rules)[0]
    free = solve(pos, en_words)
    bounded = solve(pos, en_words, Limit(work=1_000_000, seconds=60))
    assert free.exact and bounded.exact and free.value == bounded.value


def test_horizon_value_favours_the_side_with_fewer_tiles() -> None:
    assert horizon_value(5, 2, 5, 2) == 0
    assert horizon_value(5, 1, 5, 4) > 0 > horizon_value(5, 4, 5, 1)
    assert horizon_value(3, 3, 12, 3) == -horizon_value(12, 3, 3, 3)


# ----- editions -----------------------------------------------------------------------------


EDITION_CASES = {
    "pt-BR": (["CASA", "CASAS", "AÇO", "AS", "SO", "ÇA"], "8H CASA", "ÇO", "SS"),
    "es": (["PERRO", "PERROS", "ECHO", "OLLA", "OS"], "8H PE[RR]O", "[CH]O", "[LL]A"),
    "it": (["CASA", "CASE", "ASSE", "SE", "ES", "OSSA"], "8H CASA", "ES", "OS"),
    "en": (["WINDY", "WIND", "DIN", "YIN", "IN"], "8D WINDY", "NI", "DY"),
}


@pytest.mark.parametrize("name", sorted(EDITION_CASES))
def test_every_edition(name: str) -> None:
    edition = find_edition(name)
    words, on_board, mine, theirs = EDITION_CASES[name]
    lexicon = WordGraph.build(edition, words)
    board = board_with(edition, on_board)
    pos = EndgamePosition(board, edition.tiles.parse(mine), edition.tiles.parse(theirs),
                          edition.rules)
    assert len(generate(board, pos.rack, lexicon))
    result = solve(pos, lexicon)
    assert result.exact
    assert result.value == exhaustive(board, pos.rack, pos.opponent_rack, edition.rules,
                                      lexicon)
    if name == "es":
        # The digraph tile goes out at once: E[CH]O down through the E.
        assert result.best.notation(edition) == "I8 .[CH]O"


# ----- the player and its view ----------------------------------------------------------------


def test_a_view_is_solved_with_the_unseen_tiles_as_the_other_rack(en_words: WordGraph) -> None:
    game = endgame(5, en_words)
    accept(game)
    while len(game.rack(0)) + len(game.rack(1)) > 5 and not game.over:
        game.apply(GreedyPlayer(en_words).choose(game.view(game.to_move)))
        accept(game)
    assert not game.over
    me = game.to_move
    view = game.view(me)
    from_view = solve(view, en_words)
    told = solve(EndgamePosition(game.board, game.rack(me), game.rack(1 - me), game.rules),
                 en_words)
    assert from_view.exact and from_view.value == told.value
    assert from_view.best == told.best


def test_the_player_plays_equity_while_the_bag_has_tiles(en_words: WordGraph) -> None:
    game = Game(EN, ["a", "b"], seed=3, lexicon=en_words)
    for _ in range(4):
        view = game.view(game.to_move)
        assert view.bag_count > 0
        choice = EndgamePlayer(en_words).choose(view)
        assert choice == EquityPlayer(en_words).choose(view)
        game.apply(choice)
        accept(game)


def test_the_player_finishes_games_in_two_three_and_four_players(en_words: WordGraph) -> None:
    for players in (2, 3, 4):
        game = endgame(players, en_words, players)
        seats = [EndgamePlayer(en_words, seed=s) for s in range(players)]
        run_game(game, seats, Limit(work=300))
        assert game.over
        assert game.end_reason in ("out", "passes", "no-play")


@pytest.mark.slow
def test_three_players_use_only_what_the_seat_sees(en_words: WordGraph) -> None:
    game = endgame(7, en_words, 3)
    me = game.to_move
    view = game.view(me)
    a, b = (me + 1) % 3, (me + 2) % 3
    first = solve(view, en_words, Limit(work=2000), seed=11)
    assert first.candidates and first.best == first.candidates[0][0]
    values = [v for _, v in first.candidates]
    assert values == sorted(values, reverse=True)
    assert isinstance(first.best, (Pass, Place))
    assert isinstance(first.best, Pass) or validate(
        view.board, first.best, rack=view.rack, lexicon=en_words).total >= 0
    # Move tiles between the two opponents (sizes kept): the seat sees the same, and so
    # decides the same.
    racks = game._s.racks
    racks[a][0], racks[b][0] = racks[b][0], racks[a][0]
    racks[a].sort()
    racks[b].sort()
    assert game.view(me) == view
    again = solve(game.view(me), en_words, Limit(work=2000), seed=11)
    assert again.best == first.best and again.candidates == first.candidates


def test_four_players_look_for_the_best_final_margin(en_words: WordGraph) -> None:
    game = endgame(4, en_words, 4)
    view = game.view(game.to_move)
    result = solve(view, en_words, seed=1)
    assert not result.exact and result.depth == MULTI_SAMPLES
    assert len(result.candidates) >= 2 and isinstance(result.candidates[-1][0], (Pass, Place))
    assert any(isinstance(c, Pass) for c, _ in result.candidates)


# ----- counters and bad input -----------------------------------------------------------------


def test_turns_in_row_counts_as_the_game_does(en_words: WordGraph) -> None:
    rules = EN.rules.replace(pass_rounds_to_end=0, scoreless_turns_to_end=40)
    rng = random.Random(4)
    greedy = GreedyPlayer(en_words)
    game = Game(EN, ["a", "b"], seed=4, lexicon=en_words, rules=rules)
    for _ in range(60):
        if game.over:
            break
        if game.challengeable is not None:
            roll = rng.random()
            if roll < 0.3:
                game.challenge(valid=False)  # withdrawn
            elif roll < 0.5:
                game.challenge(valid=True)   # a lost turn under the double rule
            else:
                game.accept()
        else:
            view = game.view(game.to_move)
            game.apply(Pass() if rng.random() < 0.4 else greedy.choose(view))
        if game.over:
            break
        assert turns_in_row(game.turns, rules) == (game._s.passes_in_row,
                                                   game._s.scoreless_in_row)


def test_bad_positions_are_refused(en_words: WordGraph) -> None:
    board = board_with(EN, "8H HI")
    with pytest.raises(EndgameError, match="empty"):
        EndgamePosition(board, (), EN.tiles.parse("A"), EN.rules)
    with pytest.raises(EndgameError, match="tile codes"):
        EndgamePosition(board, (99,), EN.tiles.parse("A"), EN.rules)
    game = Game(EN, ["a", "b"], seed=1, lexicon=en_words)
    with pytest.raises(EndgameError, match="bag is not empty"):
        solve(game.view(game.to_move), en_words)
    late = endgame(2, en_words)
    waiting = 1 - late.to_move
    with pytest.raises(EndgameError, match="turn"):
        solve(late.view(waiting), en_words)
    before = late.moves
    solve(late.view(late.to_move), en_words, Limit(work=100))
    assert late.moves == before
