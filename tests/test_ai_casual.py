"""The casual levels: ``easy`` lays short words and misses plays, ``medium`` picks among
equity's best; both are seeded, and both lose to the stronger levels."""

from __future__ import annotations

import random

from letras.ai import get_player
from letras.ai.casual import EASY_WORD_LENGTH, MEDIUM_CHOICES, EasyPlayer, MediumPlayer
from letras.ai.equity import EquityPlayer
from letras.ai.selfplay import play_match
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph
from letras.movegen import generate
from letras.play import Exchange, Pass, Place


def positions(lexicon: WordGraph, count: int) -> list[Game]:
    """Games advanced a few greedy turns, at various stages."""
    en = find_edition("en")
    rng = random.Random(4)
    greedy = get_player("greedy", lexicon)
    out = []
    for seed in range(count):
        game = Game(en, ["Ana", "Bruno"], seed=seed, lexicon=lexicon)
        for _ in range(rng.randrange(0, 12)):
            if game.challengeable is not None:
                game.accept()
            if game.over:
                break
            game.apply(greedy.choose(game.view(game.to_move)))
        if game.challengeable is not None and not game.over:
            game.accept()
        if not game.over:
            out.append(game)
    return out


def test_easy_lays_short_words_and_no_bingo(en_words: WordGraph) -> None:
    easy = EasyPlayer(en_words, seed=3)
    below_best = 0
    for game in positions(en_words, 12):
        view = game.view(game.to_move)
        action = easy.choose(view)
        plays = generate(view.board, view.rack, en_words)
        if isinstance(action, Place):
            assert len(action.tiles) <= EASY_WORD_LENGTH
            assert action.tile_count < view.edition.rack_size
            found = [score for place, score in plays if place == action]
            assert found, "a legal play"
            below_best += found[0] < max(plays.scores())
        else:
            short = [p for p, _ in plays if len(p.tiles) <= EASY_WORD_LENGTH]
            assert not short, "it plays when a short word is there"
    assert below_best >= 3, "it misses better plays"


def test_medium_chooses_among_equitys_best_and_is_seeded(en_words: WordGraph) -> None:
    equity = EquityPlayer(en_words)
    not_best = 0
    for game in positions(en_words, 12):
        view = game.view(game.to_move)
        top = [c.choice for c in equity.ranked(view, MEDIUM_CHOICES)]
        choices = [MediumPlayer(en_words, seed=s).choose(view) for s in range(8)]
        assert all(c in top for c in choices)
        assert MediumPlayer(en_words, seed=5).choose(view) == choices[5]
        not_best += sum(c != top[0] for c in choices)
    assert not_best > 0


def test_easy_without_a_play_exchanges_or_passes(en_words: WordGraph) -> None:
    en = find_edition("en")
    words = WordGraph.build(en, ["ZZZ"])
    game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=words)
    assert isinstance(EasyPlayer(words).choose(game.view(game.to_move)), Exchange)
    full = game.view(game.to_move)
    import dataclasses

    empty_bag = dataclasses.replace(full, bag_count=0)
    assert isinstance(EasyPlayer(words).choose(empty_bag), Pass)


def test_casual_levels_lose_to_stronger_ones(en_words: WordGraph) -> None:
    en = find_edition("en")
    easy = play_match(["easy", "greedy"], 12, edition=en, lexicon=en_words, seed=2)
    medium = play_match(["medium", "equity"], 12, edition=en, lexicon=en_words, seed=2)
    assert easy.stats()[0].wins < 6
    assert easy.stats()[0].spread.mean < 0
    assert medium.stats()[0].spread.mean < 0
