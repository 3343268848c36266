"""Small builders for tests."""

from __future__ import annotations

import lzma
import random
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import pytest

from letras.ai import GreedyPlayer
from letras.ai.endgame import EndgamePosition
from letras.ai.endgame.search import Search
from letras.ai.equity import EquityPlayer
from letras.ai.leaves import LeaveEvaluator
from letras.ai.player import NO_LIMIT, Choice
from letras.board import Board, Direction, Square
from letras.editions import Edition, find_edition
from letras.game import Game, PlayerView
from letras.lexicon import Lexicon, shipped_lexicons
from letras.lexicon.kwg import WordGraph, graph_for_words
from letras.movegen import generate
from letras.play import Exchange, Pass, Place
from letras.rules import validate
from letras.tiles import BLANK, BLANK_BIT, THROUGH


def board_with(edition: Edition, *plays: str) -> Board:
    """A board with the given plays laid as they are written (no legality check)."""
    board = Board(edition)
    for text in plays:
        board.put(Place.parse(text, edition, board).placed())
    return board


def lay_along(
    board: Board, start: Square, direction: Direction, tiles: Sequence[int]
) -> Place | None:
    """The play laying ``tiles`` in order from ``start``, going through board tiles; None if
    they run off the board."""
    out: list[int] = []
    sq, laid = start, 0
    while sq.on_board(board.size) and laid < len(tiles):
        if board[sq]:
            out.append(THROUGH)
        else:
            out.append(tiles[laid])
            laid += 1
        sq = sq.step(direction)
    return Place(start, direction, tuple(out)) if laid == len(tiles) else None


def placements_for(board: Board, rack: Sequence[int], rng: random.Random) -> Place | None:
    """A random play that is legal in shape for ``rack`` (words are not checked): tiles laid
    in a line from a random square, connected to the board (or over the centre)."""
    from letras.errors import IllegalPlayError
    from letras.rules import check_shape

    size = board.size
    tiles = [t if t != BLANK else rng.choice(board.edition.tiles.letters) | BLANK_BIT for t in rack]
    rng.shuffle(tiles)
    if not tiles:
        return None
    for _ in range(400):
        direction = rng.choice([Direction.ACROSS, Direction.DOWN])
        start = Square(rng.randrange(size), rng.randrange(size))
        place = lay_along(board, start, direction, tiles[: rng.randint(1, len(tiles))])
        if place is None:
            continue
        try:
            check_shape(board, place)
        except IllegalPlayError:
            continue
        return place
    return None


class AnyWord:
    """A lexicon that takes every word: for games of random plays under the void rule."""

    name = "any"

    def contains_tiles(self, tiles: Sequence[int]) -> bool:
        return True

    def __contains__(self, word: object) -> bool:
        return True


DATA = Path(__file__).parent / "data"
_SMALL: dict[str, WordGraph] = {}


def small_lexicon(name: str) -> WordGraph:
    """For edition ``name``: every word of up to three letters and one word in 40 of its
    shipped list (for English, the word list kept in ``tests/data``)."""
    if name == "en":
        return graph_for_words(find_edition("en"), DATA / "en-words.txt.xz")
    if name not in _SMALL:
        entry = shipped_lexicons().get(name)
        if entry is None:
            pytest.skip(f"the shipped {name} lexicon is missing")
        with entry.words.open("rb") as f:
            words = lzma.decompress(f.read()).decode("utf-8").split()
        small = [w for i, w in enumerate(words) if len(w) <= 3 or i % 40 == 0]
        _SMALL[name] = WordGraph.build(find_edition(name), small, name=f"{name}-small")
    return _SMALL[name]


def hidden_twin(game: Game, other: int, lexicon: WordGraph) -> Game:
    """A copy of ``game`` that differs only in what the players other than ``other`` cannot see:
    some of ``other``'s tiles swapped with the bag's, and the bag in another order."""
    twin = Game.from_json(game.to_json(), lexicon=lexicon)
    state = twin._s
    bag_tiles: list[int] = state.bag._tiles
    theirs = state.racks[other]
    swaps = 0
    for i, t in enumerate(theirs):
        j = next((j for j, b in enumerate(bag_tiles) if b != t), None)
        if j is not None and swaps < 4:
            theirs[i], bag_tiles[j] = bag_tiles[j], t
            swaps += 1
    theirs.sort()
    random.Random(2).shuffle(bag_tiles)
    state.bag._rng = random.Random("another order")
    return twin


def assert_legal(view: PlayerView, action: Choice, lexicon: Lexicon) -> None:
    """The game would take ``action`` from the player whose view this is."""
    if isinstance(action, Place):
        validate(view.board, action, rack=view.rack, lexicon=lexicon, rules=view.rules)
    elif isinstance(action, Exchange):
        assert view.bag_count >= view.rules.exchange_min_bag
        rest = list(view.rack)
        for t in action.tiles:
            rest.remove(t)  # raises if the rack lacks the tile
        assert action.tiles
    else:
        assert isinstance(action, Pass)


def phony_first_play(game: Game, graph: WordGraph, seat: int) -> str:
    """A first play of two of ``seat``'s rack tiles across H8 that is not a word."""
    rack = [t for t in game.rack(seat) if t]
    for a in rack:
        for b in rack:
            rest = list(rack)
            rest.remove(a)
            if b in rest and not graph.contains_tiles((a, b)):
                return "8H " + game.edition.tiles.format((a, b))
    raise AssertionError("every pair is a word")


def accept(game: Game) -> None:
    """Accept the last play when it may still be challenged (a game of trusted players)."""
    if game.challengeable is not None and not game.over:
        game.accept()


def play_until_bag_empty(edition: Edition, seed: int, lexicon: WordGraph,
                         players: int = 2) -> Game:
    """A seeded game of highest-scoring plays, stopped when the bag runs out."""
    game = Game(edition, [f"p{i}" for i in range(players)], seed=seed, lexicon=lexicon)
    greedy = GreedyPlayer(lexicon)
    while game.bag_count and not game.over:
        accept(game)
        game.apply(greedy.choose(game.view(game.to_move)))
    accept(game)
    return game


def cut_racks(game: Game, seed: int, count: int, tiles: int, most: tuple[int, int]
              ) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """``count`` pairs of racks cut down from the real racks of the player to move and of the
    next player: at least one tile each, at most ``most`` each and ``tiles`` between the two,
    drawn with ``random.Random(seed)`` (so that an exhaustive search of them ends fast)."""
    rng = random.Random(seed)
    mine, theirs = game.rack(game.to_move), game.rack((game.to_move + 1) % len(game.players))
    out = []
    for _ in range(count):
        a = rng.randint(1, min(tiles - 1, most[0], len(mine)))
        b = rng.randint(1, min(tiles - a, most[1], len(theirs)))
        out.append((tuple(rng.sample(mine, a)), tuple(rng.sample(theirs, b))))
    return out


def equity_game_views(edition: Edition, words: WordGraph, leaves: LeaveEvaluator, seats: int,
                      seed: int) -> list[PlayerView]:
    """Every position of a seeded game of the equity player against itself, from the opening
    to the last move (each play accepted)."""
    game = Game(edition, [f"P{i}" for i in range(seats)], seed=seed, lexicon=words)
    equity = EquityPlayer(words, leaves=leaves)
    out = []
    while not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        view = game.view(game.to_move)
        out.append(view)
        game.apply(equity.choose(view))
    return out


# ----- pre-endgames: a tiny English lexicon and views of two-player positions -----------

PRE_WORDS = [
    "AT", "TA", "TO", "OAT", "EAT", "TEA", "ATE", "ET", "TOE", "ON", "NO", "NOT", "TON",
    "NOTE", "TONE", "ONE", "NE", "EN", "OE", "ONES", "NOTES", "SO", "SON", "TONES", "AS",
    "SEA", "SET", "EAST", "SEAT", "ETA", "ETAS", "TAE", "TAO", "OES"]


def pre_view(board: Board, rack: str, opponent: str, bag: str, scores: tuple[int, int] = (0, 0),
             passes: int = 0) -> PlayerView:
    """The view of player 0 (to move) with ``rack``; the opponent holds ``opponent`` and the
    bag ``bag`` (both unseen)."""
    en = find_edition("en")
    tiles = en.tiles
    unseen = [0] * len(tiles.labels)
    for t in tiles.parse(opponent) + tiles.parse(bag):
        unseen[t] += 1
    return PlayerView(
        player_names=("a", "b"), edition=en, rules=en.rules, board=board, scores=scores,
        to_move=0, bag_count=len(bag), rack_counts=(len(rack), len(opponent)),
        unseen=tuple(unseen), turns=(), challengeable=None, over=False, end_reason=None,
        passes_in_row=passes, scoreless_in_row=passes, player=0,
        rack=tuple(sorted(tiles.parse(rack))))


def note_board() -> Board:
    """An English board with NOTE across the centre."""
    en = find_edition("en")
    board = Board(en)
    board.put(Place.parse("8G NOTE", en).placed())
    return board


def without(tiles: Sequence[int], take: Sequence[int]) -> tuple[int, ...]:
    """``tiles`` less one of each of ``take``, sorted."""
    left = list(tiles)
    for t in take:
        left.remove(t)
    return tuple(sorted(left))


def exact_value(position: EndgamePosition, words: WordGraph) -> int:
    """The exact endgame value by the Python reference search."""
    result = Search(position, words, NO_LIMIT).run()
    assert result.exact
    return int(result.value)


def brute_force(view: PlayerView, words: WordGraph) -> dict[Place, tuple[float, float]]:
    """Each tile play that empties the bag: its (win chance, mean spread change) over every
    way of choosing the bag's tiles among the unseen ones (each equally likely), each line
    the play's score less the opponent's exact endgame."""
    rack, k = view.rack, view.bag_count
    unseen = tuple(t for t, n in enumerate(view.unseen) for _ in range(n))
    spread = view.scores[0] - view.scores[1]
    plays = generate(view.board, rack, words, bingo_bonus=view.rules.bingo_bonus)
    out = {}
    for i in range(len(plays)):
        place = plays.place(i)
        laid = [0 if t & BLANK_BIT else t for t in place.tiles if t]
        if len(laid) < k:
            continue
        score = plays.score(i)
        board = view.board.copy()
        board.put(place.placed())
        splits = list(combinations(range(len(unseen)), k))
        total = wins = 0.0
        for split in splits:
            bag = [unseen[j] for j in split]
            position = EndgamePosition(board, without(unseen, bag),
                                       (*without(rack, laid), *bag), view.rules, 0,
                                       0 if score else view.scoreless_in_row + 1)
            value = score - exact_value(position, words)
            total += value
            wins += 1.0 if spread + value > 0 else 0.5 if spread + value == 0 else 0.0
        out[place] = (wins / len(splits), total / len(splits))
    return out
