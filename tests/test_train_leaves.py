"""Leave values by self-play: every leave enumerated, the fit recovering known values, and
``letras train-leaves`` from end to end."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from letras.ai.equity import EquityPlayer
from letras.ai.leaves.klv import LeaveTable, klv_bytes, leave_key, read_klv
from letras.ai.leaves.training import LeaveSpace, Records, fit_values, play_and_record, train
from letras.cli import main
from letras.editions import find_edition
from letras.game import Game
from letras.history import Turn
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.tiles import rack_tile

WORDS = str(Path(__file__).parent / "data" / "en-words.txt.xz")
EN = find_edition("en")


# ----- enumeration ---------------------------------------------------------------------------


def brute_force_leaves(counts: list[int], max_tiles: int) -> list[tuple[int, ...]]:
    out = set()
    for size in range(max_tiles + 1):
        for leave in itertools.combinations_with_replacement(range(len(counts)), size):
            if all(n <= counts[t] for t, n in Counter(leave).items()):
                out.add(leave)
    return sorted(out)


@pytest.mark.parametrize(("counts", "max_tiles"),
                         [([2, 3, 1, 2], 4), ([1, 1, 1, 1, 1], 5), ([0, 4, 2], 3), ([3, 6], 6)])
def test_every_leave_the_counts_allow_once_in_sorted_order(
    counts: list[int], max_tiles: int
) -> None:
    space = LeaveSpace.from_counts(counts, max_tiles)
    leaves = [space.leave(i) for i in range(len(space))]
    assert leaves == brute_force_leaves(counts, max_tiles)
    assert list(space.keys) == [leave_key(leave) for leave in leaves]
    assert [int(n) for n in space.sizes] == [len(leave) for leave in leaves]


def multisets(counts: tuple[int, ...], size: int) -> int:
    """How many multisets of ``size`` tiles the counts allow (counted, not listed)."""

    @cache
    def f(i: int, k: int) -> int:
        if k == 0:
            return 1
        if i == len(counts):
            return 0
        return sum(f(i + 1, k - j) for j in range(min(counts[i], k) + 1))

    return f(0, size)


@pytest.mark.parametrize(("name", "leaves"), [("pt-BR", 646_129), ("it", 351_308)])
def test_the_leaves_of_an_edition(name: str, leaves: int) -> None:
    edition = find_edition(name)
    space = LeaveSpace.of(edition)
    counts = edition.tiles.counts
    assert sum(multisets(counts, k) for k in range(1, 7)) == leaves
    assert len(space) == leaves + 1  # and the empty leave
    assert np.bincount(space.sizes).tolist() == [multisets(counts, k) for k in range(7)]
    assert space.vowels[edition.tiles.code("A")] and not space.vowels[edition.tiles.code("S")]
    assert not space.vowels[0]  # the blank is neither


# ----- fitting -------------------------------------------------------------------------------


def synthetic(
    space: LeaveSpace, value: dict[int, float], rows: list[int], per_leave: int, seed: int,
    *, through_next: bool = False,
) -> Records:
    """Records whose targets are ``30 + value`` plus noise; with ``through_next`` the noise is
    the same but part of the target comes from a random next leave's value."""
    rng = np.random.default_rng(seed)
    leave = np.repeat(np.asarray(rows, np.int64), per_leave)
    target = 30 + np.array([value[i] for i in leave.tolist()]) + rng.normal(0, 8, len(leave))
    nxt = np.zeros(len(leave), np.int64)
    if through_next:
        nxt = rng.integers(0, len(space), len(leave))
        target -= np.array([value[i] for i in nxt.tolist()])
    return Records(space.keys[leave], np.round(target).astype(np.int64), space.keys[nxt])


def smooth_truth(space: LeaveSpace, seed: int) -> dict[int, float]:
    """Values in the smooth model's own terms: per tile, duplicates and pairs."""
    rng = random.Random(seed)
    tiles = len(space.counts)
    own = [rng.uniform(-8, 12) for _ in range(tiles)]
    dup = [rng.uniform(-5, 0) for _ in range(tiles)]
    pair = {(a, b): rng.uniform(-3, 3) for a in range(tiles) for b in range(a + 1, tiles)}
    out = {}
    for i in range(len(space)):
        c = Counter(space.leave(i))
        v = sum(n * own[t] + n * (n - 1) / 2 * dup[t] for t, n in c.items())
        v += sum(c[a] * c[b] * w for (a, b), w in pair.items())
        out[i] = v
    return out


@pytest.mark.slow
def test_the_fit_recovers_values_seen_often() -> None:
    space = LeaveSpace.from_counts([2, 4, 3, 2, 1], 3, [False, True, False, True, False])
    rng = random.Random(3)
    truth = {i: v + rng.uniform(-4, 4) for i, v in smooth_truth(space, 1).items()}  # + quirks
    truth[0] = 0.0
    records = synthetic(space, truth, list(range(len(space))), 600, seed=5)
    fit = fit_values(space, records, np.zeros(len(space)))
    error = np.abs(fit.values - np.array([truth[i] for i in range(len(space))]))
    assert fit.values[0] == 0.0
    assert error.max() < 1.8 and error.mean() < 0.6
    assert 7 < fit.spread < 9  # the noise put in
    assert fit.seen.tolist() == [600] * len(space)


def test_leaves_seen_rarely_or_never_get_the_smooth_model() -> None:
    space = LeaveSpace.from_counts([2, 4, 3, 2, 1, 2], 4, [False, True, False, True, False, True])
    truth = smooth_truth(space, 2)
    rows = [i for i in range(len(space)) if i % 3 != 1]  # two thirds of them, the empty one too
    records = synthetic(space, truth, rows, 150, seed=6)
    fit = fit_values(space, records, np.zeros(len(space)))
    unseen = np.array([i for i in range(len(space)) if i % 3 == 1])
    assert fit.seen[unseen].max() == 0
    want = np.array([truth[i] for i in unseen.tolist()])
    error = np.abs(fit.values[unseen] - want)
    assert error.max() < 3 and error.mean() < 1.5  # values span 0 to 45 points
    assert np.corrcoef(fit.values[unseen], want)[0, 1] > 0.99


def test_the_next_leave_carries_value_back() -> None:
    # A target is the next score plus the next leave's value: the fit must add the values it
    # finds for the next leaves back in, starting from nothing known.
    space = LeaveSpace.from_counts([2, 4, 3, 2], 3, [False, True, False, True])
    truth = smooth_truth(space, 4)
    truth[0] = 0.0
    records = synthetic(space, truth, list(range(len(space))), 500, seed=8, through_next=True)
    want = np.array([truth[i] for i in range(len(space))])
    one = fit_values(space, records, np.zeros(len(space)), sweeps=1)
    many = fit_values(space, records, np.zeros(len(space)), sweeps=6)
    assert np.abs(many.values - want).max() < 2.0
    assert np.abs(one.values - want).max() > 2 * np.abs(many.values - want).max()


def test_a_fit_needs_records() -> None:
    space = LeaveSpace.from_counts([1, 2], 2)
    with pytest.raises(ValueError, match="no turns were recorded"):
        fit_values(space, Records.empty(), np.zeros(len(space)))


# ----- self-play -----------------------------------------------------------------------------


@cache
def words() -> WordGraph:
    graph = load_lexicon(EN, WORDS)
    assert isinstance(graph, WordGraph)
    return graph


def test_a_recorded_game_keeps_real_leaves() -> None:
    game = Game(EN, ["A", "B"], seed=11, lexicon=words())
    records, turns = play_and_record(game, EquityPlayer(words()), 6)
    assert game.over and turns >= len(records) > 10
    bag = Counter(t for t, n in enumerate(EN.tiles.counts) for _ in range(n))
    space = LeaveSpace.of(EN)
    for key in (*records.leave.tolist(), *records.next_leave.tolist()):
        leave = space.leave(int(space.index(np.array([key], np.uint64))[0]))
        assert len(leave) <= 6 and not Counter(leave) - bag
    assert records.score.min() >= 0 and records.score.max() > 20
    # The first records against the game's scoresheet: each seat's first turn (with a full
    # bag) kept a leave; the record holds the seat's next score and next leave.
    sheet = [t for t in game.turns if t.kind in ("play", "exchange", "pass")]

    def kept(turn: Turn) -> tuple[int, ...]:
        assert turn.rack is not None
        gone = ([rack_tile(t) for t in turn.place.tiles if t] if turn.place is not None
                else list(turn.tiles) if turn.kind == "exchange" else [])
        return tuple(sorted((Counter(turn.rack) - Counter(gone)).elements()))

    for r in (0, 1):
        assert records.leave[r] == leave_key(kept(sheet[r]))
        assert records.score[r] == sheet[r + 2].points
        assert records.next_leave[r] == leave_key(kept(sheet[r + 2]))


@pytest.mark.slow
def test_training_is_reproducible_with_any_number_of_workers() -> None:
    one = train(EN, 3, generations=2, seed=5, lexicon=words())
    two = train(EN, 3, generations=2, seed=5, lexicon=words(), workers=2)
    assert [r.games for r in one.rounds] == [2, 1]
    assert np.array_equal(one.values, two.values) and one.records == two.records
    other = train(EN, 3, generations=2, seed=6, lexicon=words())
    assert not np.array_equal(one.values, other.values)


# ----- the command ---------------------------------------------------------------------------


def train_leaves(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["train-leaves", "--lexicon", WORDS, *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_train_leaves_writes_a_leave_file_the_equity_player_uses(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "en.klv"
    code, out, err = train_leaves(capsys, "--edition", "en", "--games", "4", "--generations",
                                  "2", "--seed", "3", "-o", str(path))
    assert code == 0
    assert "4/4 games" in err and "generation 2/2" in err and "\r" in err  # the progress bar
    lines = out.splitlines()
    assert lines[0].startswith("en: 4 games in 2 generations, seed 3, 1 worker")
    assert "turns recorded:" in lines[1] and "of 914,624" in lines[1]
    assert f"wrote 914,624 leave values to {path}" in out
    assert lines[-2].startswith("best 2-tile leaves: ") and lines[-1].startswith("worst 2-tile")
    table = read_klv(path, EN)
    assert len(table) == 914_624
    best = lines[-2].split(": ")[1].split(", ")[0].split()  # e.g. ['??', '+41.2']
    assert table.value(EN.tiles.parse(best[0], rack=True)) == pytest.approx(float(best[1]),
                                                                             abs=0.05)
    # The trained values value the blank and the S well, and the Q badly.
    assert table.value((0,)) > table.value((EN.tiles.code("S"),)) > 0 > table.value(
        (EN.tiles.code("Q"),))
    # The equity player plays with them.
    game = Game(EN, ["A", "B"], seed=2, lexicon=words())
    player = EquityPlayer(words(), leaves=table)
    for _ in range(6):
        view = game.view(game.to_move)
        game.apply(player.choose(view))
        if game.challengeable is not None:
            game.accept()
    assert len(game.turns) >= 6 and any(t.points for t in game.turns)
    assert isinstance(player.leaves, LeaveTable)


@pytest.mark.slow
def test_train_leaves_writes_the_older_klv_on_request(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "en.klv"
    code, out, _ = train_leaves(capsys, "--edition", "en", "--games", "1", "--generations", "1",
                                "--int16", "-o", str(path))
    assert code == 0 and "(KLV, 16-bit values)" in out
    table = read_klv(path, EN)
    assert len(table) == 914_624
    assert path.stat().st_size == len(klv_bytes(table)) - 2 * len(table)  # 2 bytes a value
    assert np.all(table.values * 256 == np.round(table.values * 256))


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--edition", "klingon", "--games", "2"], "unknown edition 'klingon'"),
        (["--edition", "en", "--games", "0"], "--games needs a number, 1 or more (not 0)"),
        (["--edition", "en", "--games", "2", "--workers", "0"], "--workers need a number"),
        (["--edition", "en", "--games", "2", "--start", "/nonexistent/start.klv"],
         "cannot read leave file '/nonexistent/start.klv'"),
    ],
)
def test_train_leaves_refuses_bad_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], message: str
) -> None:
    path = tmp_path / "out.klv"
    code, out, err = train_leaves(capsys, *argv, "-o", str(path))
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("letras: ") and message in err
    assert not path.exists()


@pytest.mark.parametrize("where", ["missing/out.klv", "."])
def test_train_leaves_refuses_an_output_it_cannot_write(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str
) -> None:
    code, out, err = train_leaves(capsys, "--edition", "en", "--games", "2",
                                  "-o", str(tmp_path / where))
    assert code == 1 and out == "" and err.count("\n") == 1
    assert "cannot write leave file" in err
    assert "no folder" in err if where.startswith("missing") else "directory" in err
