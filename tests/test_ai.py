"""AI players: legal choices in every edition, what each level promises, hidden information,
and self-play games and matches."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from helpers import assert_legal, board_with, hidden_twin, small_lexicon
from letras.ai import (
    EquityPlayer,
    GreedyPlayer,
    HeuristicLeaves,
    Limit,
    Player,
    UnknownLevelError,
    get_player,
    levels,
)
from letras.ai import selfplay as sp
from letras.ai.player import Choice
from letras.ai.selfplay import GameResult, play_match, run_game
from letras.bag import Bag
from letras.board import Direction, Square
from letras.editions import Edition, editions, find_edition
from letras.errors import LetrasError
from letras.game import Game, PlayerView
from letras.layout import Premium
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.play import Exchange, Pass, Place
from letras.rules import leave, validate
from letras.tiles import rack_tile


def advance(game: Game, turns: int, rng: random.Random, lexicon: WordGraph) -> None:
    """Play ``turns`` turns of greedy and random plays (accepting every play)."""
    players = [get_player("greedy", lexicon), get_player("random", lexicon, seed=rng.randrange(99))]
    for _ in range(turns):
        if game.challengeable is not None:
            game.accept()
        if game.over:
            return
        game.apply(rng.choice(players).choose(game.view(game.to_move)))
    if game.challengeable is not None and not game.over:
        game.accept()


# ----- the levels ---------------------------------------------------------------------------


def test_levels_are_found_by_name(en_words: WordGraph) -> None:
    assert levels() == (
        "random", "easy", "greedy", "medium", "equity", "sim", "endgame", "best"
    )
    for name in levels():
        player = get_player(name.upper(), en_words, seed=1)
        assert isinstance(player, Player) and player.level == name
    with pytest.raises(UnknownLevelError, match=r"'champion'.*known: random, easy, .*, best\)"):
        get_player("champion", en_words)
    assert issubclass(UnknownLevelError, LetrasError)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(editions()))
def test_every_level_chooses_a_legal_action(name: str) -> None:
    edition = find_edition(name)
    lexicon = small_lexicon(name)
    rng = random.Random(name)
    players = [get_player(level, lexicon, seed=7) for level in levels()]
    kinds: set[type] = set()
    for seed in range(6):
        game = Game(edition, ["Ana", "Bruno", "Caio"][: 2 + seed % 2], seed=seed, lexicon=lexicon)
        advance(game, rng.randrange(0, 30), rng, lexicon)
        if game.over:
            continue
        view = game.view(game.to_move)
        for player in players:
            action = player.choose(view, Limit(seconds=1.0))
            assert_legal(view, action, lexicon)
            kinds.add(type(action))
        game.apply(players[-1].choose(view))  # the game takes it too
    assert Place in kinds


def test_greedy_lays_a_top_scoring_play(en_words: WordGraph) -> None:
    en = find_edition("en")
    rng = random.Random(5)
    greedy = GreedyPlayer(en_words)
    checked = 0
    for seed in range(8):
        game = Game(en, ["Ana", "Bruno"], seed=seed, lexicon=en_words)
        advance(game, rng.randrange(0, 20), rng, en_words)
        if game.over:
            continue
        view = game.view(game.to_move)
        plays = generate(view.board, view.rack, en_words)
        action = greedy.choose(view)
        if not len(plays):
            assert not isinstance(action, Place)
            continue
        assert isinstance(action, Place)
        assert validate(view.board, action, rack=view.rack).total == int(plays.scores().max())
        checked += 1
    assert checked >= 5


def test_greedy_exchanges_or_passes_without_a_play() -> None:
    en = find_edition("en")
    words = WordGraph.build(en, ["ZZZ"])
    game = Game(en, ["Ana", "Bruno"], seed=3, lexicon=words)
    view = game.view(game.to_move)
    assert GreedyPlayer(words).choose(view) == Exchange(view.rack)
    assert GreedyPlayer(words).choose(dataclasses.replace(view, bag_count=6)) == Pass()


def test_random_is_seeded_and_varied(en_words: WordGraph) -> None:
    view = Game("en", ["Ana", "Bruno"], seed=4, lexicon=en_words).view(0)
    view = dataclasses.replace(view, to_move=0)
    first = [get_player("random", en_words, seed=9).choose(view) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    player = get_player("random", en_words, seed=9)
    assert len({player.choose(view) for _ in range(10)}) > 3


def test_equity_prefers_the_better_leave_between_equal_scores() -> None:
    en = find_edition("en")
    words = WordGraph.build(en, ["EAT", "SAT"])  # same tile values: equal scores
    rack = en.tiles.parse("AEENRST", rack=True)
    view = dataclasses.replace(Game(en, ["Ana", "Bruno"], seed=1, lexicon=words).view(0),
                               rack=rack, to_move=0)
    ranked = EquityPlayer(words).ranked(view, 200)
    plays = [c for c in ranked if isinstance(c.choice, Place)]
    best = plays[0]
    assert isinstance(best.choice, Place)
    assert en.tiles.word(best.choice.tiles) == "EAT"  # keeps the S, not the E
    assert best.score == max(c.score for c in plays)
    sat = [c for c in plays if en.tiles.word(c.choice.tiles) == "SAT"]  # type: ignore[union-attr]
    assert max(c.score for c in sat) == best.score and max(c.equity for c in sat) < best.equity
    leaves = HeuristicLeaves(en)
    assert leaves.value(en.tiles.parse("ENRS", rack=True)) > leaves.value(
        en.tiles.parse("EENR", rack=True))


def test_equity_exchanges_a_clumsy_rack_and_keeps_the_blank() -> None:
    en = find_edition("en")
    words = WordGraph.build(en, ["ZZZ"])  # no play: exchange or pass
    rack = en.tiles.parse("?GUUVVW", rack=True)
    view = dataclasses.replace(Game(en, ["Ana", "Bruno"], seed=1, lexicon=words).view(0),
                               rack=rack, to_move=0)
    choice = EquityPlayer(words).choose(view)
    assert choice == Exchange(en.tiles.parse("GUUVVW", rack=True))  # keeps the blank only
    late = dataclasses.replace(view, bag_count=view.rules.exchange_min_bag - 1)
    assert EquityPlayer(words).choose(late) == Pass()  # too few tiles in the bag to exchange


def test_equity_terms_follow_the_documented_formula(en_words: WordGraph) -> None:
    en = find_edition("en")
    board = board_with(en, "8D WINDY", "G6 ADD")
    game_view = Game(en, ["Ana", "Bruno"], seed=2, lexicon=en_words).view(0)
    rack = en.tiles.parse("AEIRSTQ", rack=True)
    leaves = HeuristicLeaves(en)
    values = en.tiles.values
    # Mid-game, a full bag: equity = score + leave value.
    view = dataclasses.replace(game_view, board=board, rack=rack, to_move=0)
    for c in EquityPlayer(en_words, leaves=leaves).ranked(view, 30):
        if isinstance(c.choice, Place):
            kept = leave(rack, c.choice)
            assert c.equity == pytest.approx(c.score + leaves.value(kept))
    # Endgame, the bag empty: tiles kept cost twice their face value; going out gains twice
    # the unseen tiles (two players).
    unseen = [0] * len(en.tiles.labels)
    for t in en.tiles.parse("BCD", rack=True):
        unseen[t] += 1
    rack = en.tiles.parse("AET", rack=True)
    end = dataclasses.replace(view, rack=rack, bag_count=0, unseen=tuple(unseen))
    ranked = EquityPlayer(en_words).ranked(end, 40)
    outs = 0
    for c in ranked:
        if isinstance(c.choice, Place):
            kept = leave(rack, c.choice)
            bonus = 2 * 8 if not kept else -2 * sum(values[t] for t in kept)
            outs += not kept
            assert c.equity == pytest.approx(c.score + bonus)
    assert outs and isinstance(ranked[0].choice, Place) and not leave(rack, ranked[0].choice)


def test_equity_opening_costs_vowels_beside_letter_premiums(en_words: WordGraph) -> None:
    en = find_edition("en")
    view = dataclasses.replace(Game(en, ["Ana", "Bruno"], seed=2, lexicon=en_words).view(0),
                               rack=en.tiles.parse("AEINRST", rack=True), to_move=0)
    leaves = HeuristicLeaves(en)
    letter_premiums = {Premium.DOUBLE_LETTER, Premium.TRIPLE_LETTER}
    costs = set()
    for c in EquityPlayer(en_words, leaves=leaves).ranked(view, 400):
        if not isinstance(c.choice, Place):
            continue
        across = c.choice.direction is Direction.ACROSS
        hot = 0
        for sq, t in c.choice.placed():
            sides = ((sq.row - 1, sq.col), (sq.row + 1, sq.col)) if across else (
                (sq.row, sq.col - 1), (sq.row, sq.col + 1))
            beside = any(
                0 <= r < 15 and 0 <= col < 15 and view.board.premium(Square(r, col))
                in letter_premiums for r, col in sides
            )
            hot += beside and en.tiles.label(t & 0x7F) in "AEIOU"
        kept = leave(view.rack, c.choice)
        assert c.equity == pytest.approx(c.score + leaves.value(kept) - 0.7 * hot)
        costs.add(hot)
    assert len(costs) > 1  # some plays pay for vowels beside premiums, some do not


def test_equity_passes_to_win_and_not_to_lose(en_words: WordGraph) -> None:
    en = find_edition("en")
    game = Game(en, ["Ana", "Bruno"], seed=2, lexicon=en_words)
    game.pass_turn()
    game.pass_turn()
    game.pass_turn()  # one more pass ends the game
    view = game.view(game.to_move)
    rack_value = sum(en.tiles.values[t] for t in view.rack)
    ahead = dataclasses.replace(view, scores=(rack_value + 10, 0), bag_count=0,
                                player=0, to_move=0)
    assert EquityPlayer(en_words).choose(ahead) == Pass()
    behind = dataclasses.replace(ahead, scores=(0, 10))
    assert EquityPlayer(en_words).choose(behind) != Pass()


# ----- hidden information -------------------------------------------------------------------


def test_a_player_sees_nothing_of_the_other_racks_or_the_bag(en_words: WordGraph) -> None:
    en = find_edition("en")
    game = Game(en, ["Ana", "Bruno"], seed=21, lexicon=en_words)
    advance(game, 6, random.Random(1), en_words)
    me = game.to_move
    other = 1 - me
    twin = hidden_twin(game, other, en_words)
    assert twin.rack(other) != game.rack(other) and twin.rack(me) == game.rack(me)
    assert twin.view(me) == game.view(me)
    for level in levels():
        a = get_player(level, en_words, seed=5).choose(game.view(me))
        b = get_player(level, en_words, seed=5).choose(twin.view(me))
        assert a == b


def _objects(value: Any, seen: set[int]) -> Iterator[Any]:
    """Every object reachable from a view through dataclass fields and containers."""
    if id(value) in seen:
        return
    seen.add(id(value))
    yield value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, Edition):
            return  # the edition's tables: no game state
        for f in dataclasses.fields(value):
            yield from _objects(getattr(value, f.name), seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            yield from _objects(item, seen)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _objects(item, seen)


def test_choose_gets_only_the_view_of_its_seat(
    en_words: WordGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, ...]] = []
    games: list[Game] = []

    class Spy(Player):
        level = "spy"

        def __init__(self, inner: Player) -> None:
            super().__init__(inner.lexicon)
            self.inner = inner

        def choose(self, *args: Any, **kwargs: Any) -> Choice:
            view = args[0]
            game = games[0]
            # What the seat may see, checked against the table at the moment of the call.
            assert view.rack == game.rack(view.player) and view.player == game.to_move
            calls.append((*args, *kwargs.values()))
            return self.inner.choose(*args, **kwargs)

    real_run = sp.run_game

    def run_game(g: Game, *a: Any) -> Any:
        games.append(g)
        return real_run(g, *a)

    monkeypatch.setattr(sp, "get_player", lambda *a, **k: Spy(get_player(*a, **k)))
    monkeypatch.setattr(sp, "run_game", run_game)
    sp.play_game(["equity", "greedy", "random"], 0, edition=find_edition("en"),
                 lexicon=en_words, seed=3)
    assert len(calls) > 10
    for args in calls:
        assert len(args) == 2 and isinstance(args[0], PlayerView) and isinstance(args[1], Limit)
        view = args[0]
        for obj in _objects(view, set()):
            assert not isinstance(obj, Game | Bag | Player), type(obj)
        for turn in view.turns:
            if turn.player != view.player:
                assert turn.rack is None
                assert turn.kind != "exchange" or turn.tiles == ()


# ----- self-play ----------------------------------------------------------------------------


def _conserved(game: Game) -> None:
    edition = game.edition
    seen = [0] * len(edition.tiles.labels)
    for _, t in game.board.tiles():
        seen[rack_tile(t)] += 1
    for p in range(len(game.players)):
        for t in game.rack(p):
            seen[t] += 1
    assert sum(seen) + game.bag_count == edition.tiles.total
    if game.bag_count == 0:
        assert seen == list(edition.tiles.counts)
    else:
        assert all(a <= b for a, b in zip(seen, edition.tiles.counts, strict=True))


@pytest.mark.parametrize(
    "levels_", [("equity", "greedy"), ("greedy", "random", "equity"),
                ("equity", "equity", "greedy", "random")],
)
def test_self_play_games_end_with_the_tiles_conserved(
    en_words: WordGraph, levels_: tuple[str, ...]
) -> None:
    en = find_edition("en")
    game = Game(en, [f"P{i}" for i in range(len(levels_))], seed=len(levels_), lexicon=en_words)
    players = [get_player(level, en_words, seed=i) for i, level in enumerate(levels_)]
    turns = run_game(game, players)
    assert game.over and turns >= len(levels_)
    _conserved(game)
    for p in range(len(levels_)):  # every score is the sum of that player's scoresheet
        assert sum(t.points for t in game.turns if t.player == p) == game.scores[p]


def test_a_blocked_game_ends_by_passes() -> None:
    en = find_edition("en")
    words = WordGraph.build(en, ["ZZZ"])  # nobody can play: greedy exchanges for ever
    game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
    turns = run_game(game, [get_player("greedy", words), get_player("greedy", words)])
    assert game.over and game.end_reason == "passes"
    assert game.scores == tuple(-sum(en.tiles.values[t] for t in game.rack(p)) for p in (0, 1))
    assert turns == sp.STALLED + 2 * game.rules.pass_rounds_to_end
    assert [t.kind for t in game.turns[: sp.STALLED]] == ["exchange"] * sp.STALLED
    _conserved(game)


@pytest.mark.slow
def test_match_results_do_not_depend_on_the_workers() -> None:
    en = find_edition("en")
    words = small_lexicon("en")
    one = play_match(["equity", "greedy"], 4, edition=en, lexicon=words, seed=11, workers=1,
                     gcg=True)
    two = play_match(["equity", "greedy"], 4, edition=en, lexicon=words, seed=11, workers=2,
                     gcg=True)
    assert one.games == two.games and two.workers == 2
    assert [g.starter for g in one.games] == [0, 1, 0, 1]
    for g in one.games:  # the starter made the first play of the record
        assert g.gcg is not None
        first = next(line for line in g.gcg.splitlines() if line.startswith(">"))
        assert first.startswith(f">{one.levels[g.starter]}:")
    other = play_match(["equity", "greedy"], 4, edition=en, lexicon=words, seed=12)
    assert other.games != one.games


def test_game_results_count_ties_and_spreads() -> None:
    tie = GameResult(0, 1, (0, 1), 0, (300, 300), 20, "out")
    assert tie.wins() == (0.5, 0.5) and tie.spreads() == (0.0, 0.0)
    three = GameResult(1, 1, (2, 0, 1), 1, (400, 300, 200), 30, "out")
    assert three.wins() == (1.0, 0.0, 0.0)
    assert three.spreads() == (150.0, 0.0, -150.0)


def test_match_statistics(en_words: WordGraph) -> None:
    result = play_match(["greedy", "random"], 6, edition="en", lexicon=en_words, seed=2)
    greedy, rand = result.stats()
    assert greedy.wins + rand.wins == 6
    assert greedy.win_rate.low <= greedy.win_rate.mean <= greedy.win_rate.high
    assert greedy.spread.mean == pytest.approx(-rand.spread.mean)
    assert greedy.mean_score > rand.mean_score and greedy.wins >= 5
    assert result.turns == sum(g.turns for g in result.games) and result.plays_per_second > 0
    text = result.report()
    assert "greedy" in text and "win rate" in text and "games/s" in text
    with pytest.raises(UnknownLevelError):
        play_match(["greedy", "nobody"], 1, edition="en", lexicon=en_words)
    with pytest.raises(LetrasError, match="2 to 4"):
        play_match(["greedy"] * 5, 1, edition="en", lexicon=en_words)


def test_equity_stops_exchanging_on_a_blocked_board() -> None:
    en = find_edition("en")
    words = WordGraph.build(en, ["ZZZ"])  # nobody can play
    game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
    run_game(game, [get_player("equity", words), get_player("equity", words)])
    assert game.over and game.end_reason == "passes"
    kinds = [t.kind for t in game.turns if t.kind in ("exchange", "pass")]
    from letras.ai.equity import STALLED_ROUNDS

    exchanges, passes = 2 * STALLED_ROUNDS, 2 * game.rules.pass_rounds_to_end
    assert kinds == ["exchange"] * exchanges + ["pass"] * passes


def test_no_level_joins_words_before_the_rules_allow_it(en_words: WordGraph) -> None:
    en = find_edition("en")
    rules = en.rules.replace(join_words_from_turn=99)
    players = [get_player(level, en_words, seed=3) for level in levels()]
    joins_left_out = 0
    for seed in range(2):
        game = Game(en, ["Ana", "Bruno"], seed=seed, lexicon=en_words, rules=rules)
        for turn in range(24):
            if game.over:
                break
            if game.challengeable is not None:
                game.accept()
                continue
            view = game.view(game.to_move)
            assert not view.may_join_words and not game.may_join_words
            joins_left_out += len(generate(view.board, view.rack, en_words)) - len(
                generate(view.board, view.rack, en_words, join_words=False))
            action = players[turn % len(players)].choose(view, Limit(work=60))
            game.apply(action)  # the game refuses a play that joins words
    assert joins_left_out > 0  # there were such plays to avoid
    game = Game(en, ["Ana", "Bruno"], seed=0, lexicon=en_words,
                rules=en.rules.replace(join_words_from_turn=3))
    greedy = get_player("greedy", en_words)
    allowed = []
    for _ in range(3):
        allowed.append(game.view(game.to_move).may_join_words)
        game.apply(greedy.choose(game.view(game.to_move)))
        game.accept()
    assert allowed == [False, False, True]
