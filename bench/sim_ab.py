"""Paired strength comparison of ``sim`` settings, from the same positions.

Run by hand::

    .venv/bin/python bench/sim_ab.py --edition pt-BR --positions 600 --bag 7 \\
        --variants "rev=5a819ec" ""

Each position comes from a game of the equity player against itself (seed ``sim-ab/i``),
stopped at the first turn with ``--bag`` tiles or fewer in the bag (``--bag 100``: the start
of the game). From it, each variant plays one seat (seat ``i % 2``) to the end of the game
against the equity player, with a work limit (default 600 simulated plays: the games replay
exactly). The same positions for every variant make the difference between two variants far
more precise than either's win rate.

A variant is a comma-separated list of settings: ``NAME=value`` sets a module constant of
:mod:`letras.ai.sim` (``END_BAG=-1``; in every module of the package that has it),
``inference=0`` or ``candidates=1`` (the equity player's choice, but with the bag empty) a
constructor argument, ``work=N`` the variant's own work limit, and ``rev=REV`` loads
:mod:`letras.ai.sim` as it was at git revision ``REV``, the single module of older revisions or
the package (the other modules stay as they are now). The empty string is the code as it is.

Each game's final spread is written to standard error as it ends (``i 'variant' spread``: a
run stopped early keeps what it finished). Prints, per variant, the win rate (ties count half)
and mean final spread of the sim seat,
and for every variant after the first its paired difference of spread from the first (95%
interval) and the net number of games it wins that the first does not.

``--bag`` may list several sizes: position ``i`` takes the ``i``-th (cyclically), so the
positions spread over the game. ``--decisions K`` compares single choices instead of whole
games, far more cheaply: at each position every variant chooses once, and each distinct choice
is valued by ``K`` playouts to the end of the game from the true position (the opponent's true
rack, the bag shuffled, the same ``K`` shuffles for every choice; both sides the equity
player's replies, as the simulation's own rollouts choose them). A position where every
variant makes the same choice costs no playout and adds a difference of zero. Each position's
values are written to standard error as they come. This values a choice by what follows under
the equity player's play on both sides, the simulation's own model, so it measures how well a
variant finds what that model prefers, not the model itself: the whole games measure both.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import math
import multiprocessing
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from letras.ai import EquityPlayer, Limit
from letras.ai.equity import Candidate
from letras.ai.leaves import shipped_leaves
from letras.ai.selfplay import run_game, word_graph
from letras.ai.sim import SimCandidate, rollouts
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph
from letras.rack import from_counts

_WORDS: dict[str, WordGraph] = {}
_MODULES: dict[str, ModuleType] = {}


def words(edition: str) -> WordGraph:
    if edition not in _WORDS:
        _WORDS[edition] = word_graph(find_edition(edition), None)
    return _WORDS[edition]


def sim_module(rev: str) -> ModuleType:
    """:mod:`letras.ai.sim` as it was at ``rev`` (or as it is, for the empty string): the
    single module of older revisions, or the package, loaded under another name."""
    if rev not in _MODULES:
        if not rev:
            import letras.ai.sim as module
        else:
            name = "sim_" + re.sub(r"\W", "_", rev)
            folder = Path(tempfile.mkdtemp()) / name
            folder.mkdir()
            files = subprocess.run(["git", "ls-tree", "--name-only", rev, "src/letras/ai/sim/"],
                                   capture_output=True, text=True, check=True).stdout.split()
            if files:  # the package: its modules import one another by the new name
                for path in (f for f in files if f.endswith(".py")):
                    text = _show(rev, path)
                    (folder / Path(path).name).write_text(
                        re.sub(r"\bletras\.ai\.sim\b", name, text))
                spec = importlib.util.spec_from_file_location(
                    name, folder / "__init__.py", submodule_search_locations=[str(folder)])
            else:  # one module, from before letras.ai.klv moved into letras.ai.leaves
                import letras.ai.leaves.klv

                sys.modules.setdefault("letras.ai.klv", letras.ai.leaves.klv)
                (folder / "__init__.py").write_text(_show(rev, "src/letras/ai/sim.py"))
                spec = importlib.util.spec_from_file_location(name, folder / "__init__.py")
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # dataclasses look their module up there
            spec.loader.exec_module(module)
        _MODULES[rev] = module
    return _MODULES[rev]


def _show(rev: str, path: str) -> str:
    return subprocess.run(["git", "show", f"{rev}:{path}"], capture_output=True, text=True,
                          check=True).stdout


def holders(module: ModuleType, name: str) -> list[ModuleType]:
    """The modules of ``module`` (itself and, for a package, its submodules) that have the
    constant ``name``: each reads its own binding, so a setting changes all of them."""
    prefix = module.__name__ + "."
    found = [module, *(m for n, m in sys.modules.items() if n.startswith(prefix))]
    out = [m for m in found if hasattr(m, name)]
    if not out:
        raise SystemExit(f"no constant {name} in {module.__name__}")
    return out


def start(edition: str, i: int, bag: int) -> Game:
    """The position: equity self-play until the bag holds ``bag`` tiles or fewer."""
    lexicon = words(edition)
    game = Game(edition, ["a", "b"], seed=f"sim-ab/{i}", lexicon=lexicon)
    equity = EquityPlayer(lexicon)
    while not game.over:
        if game.challengeable is not None:
            game.accept()
            continue
        if game.bag_count <= bag:
            break
        game.apply(equity.choose(game.view(game.to_move)))
    return game


@contextlib.contextmanager
def configured(variant: str, work: int) -> Iterator[tuple[ModuleType, dict[str, Any], Limit]]:
    """The variant's sim module (its constants set while inside), the keyword arguments of its
    :class:`SimPlayer` and its work limit."""
    settings = dict(kv.split("=", 1) for kv in variant.split(",") if kv)
    module = sim_module(settings.pop("rev", ""))
    limit = Limit(work=int(settings.pop("work", work)))
    saved: list[tuple[ModuleType, str, Any]] = []
    kwargs: dict[str, Any] = {}
    try:
        for name, value in settings.items():
            if name.isupper():
                for holder in holders(module, name):
                    old = getattr(holder, name)
                    saved.append((holder, name, old))
                    setattr(holder, name, type(old)(value))
            else:
                kwargs[name] = bool(int(value)) if name == "inference" else int(value)
        yield module, kwargs, limit
    finally:
        for holder, name, old in saved:
            setattr(holder, name, old)


def outcome(args: tuple[str, int, int, str, int]) -> tuple[int, str, int | None]:
    """The final spread of the sim seat, the variant playing position ``i`` to the end."""
    edition, i, bag, variant, work = args
    lexicon = words(edition)
    game = start(edition, i, bag)
    if game.over:
        return i, variant, None
    seat = i % 2
    with configured(variant, work) as (module, kwargs, limit):
        players: list[Any] = [EquityPlayer(lexicon), EquityPlayer(lexicon)]
        players[seat] = module.SimPlayer(lexicon, seed=i, **kwargs)
        run_game(game, players, limit)
    scores = game.scores
    return i, variant, scores[seat] - scores[1 - seat]


def decision(args: tuple[str, int, int, list[str], int, int]) -> tuple[int, dict[str, float]]:
    """``--decisions``: every variant's choice at the position, each distinct choice valued
    by ``playouts`` games of equity replies to the end from the true position (the true
    opponent rack, the bag shuffled; the same shuffles for every choice)."""
    edition, i, bag, variants, work, playouts = args
    lexicon = words(edition)
    game = start(edition, i, bag)
    if game.over or game.bag_count == 0:
        return i, {}
    seat = game.to_move
    view = game.view(seat)
    chosen: dict[str, SimCandidate] = {}
    for variant in variants:
        with configured(variant, work) as (module, kwargs, limit):
            chosen[variant] = module.SimPlayer(lexicon, seed=i, **kwargs).analyse(
                view, limit).best
    opponent = 1 - seat
    hidden = list(view.unseen)
    for t in game.rack(opponent):
        hidden[t] -= 1
    deals = []
    for k in range(playouts):
        order = list(from_counts(hidden))
        random.Random(f"sim-ab-playout/{i}/{k}").shuffle(order)
        racks: list[list[int]] = [[], []]
        racks[seat] = list(view.rack)
        racks[opponent] = list(game.rack(opponent))
        deals.append(rollouts.Deal(racks, order, k))
    saved_plies = rollouts.END_PLIES
    rollouts.END_PLIES = 200  # to the end of the game
    try:
        playout = rollouts.Rollouts(view, lexicon, shipped_leaves(view.edition), {}, 0)
        playout.to_end = True
        valued: dict[str, float] = {}
        out: dict[str, float] = {}
        for variant, cand in chosen.items():
            key = cand.choice.notation(view.edition)
            if key not in valued:
                c = Candidate(cand.choice, cand.equity, cand.score)
                valued[key] = statistics.fmean(playout.rollout(c, d)[0] for d in deals)
            out[variant] = valued[key]
    finally:
        rollouts.END_PLIES = saved_plies
    return i, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", default="pt-BR")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--bag", type=int, nargs="+", default=[7],
                        help="position i stops at the first turn with bag[i %% len(bag)] "
                             "tiles or fewer in the bag")
    parser.add_argument("--decisions", type=int, default=0, metavar="PLAYOUTS",
                        help="compare single choices, each valued by this many playouts")
    parser.add_argument("--work", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=["", "rev=HEAD"])
    a = parser.parse_args()
    began = time.perf_counter()
    by: dict[int, dict[str, float]] = {}
    with multiprocessing.Pool(a.workers) as pool:
        if a.decisions:
            choices = [(a.edition, i, a.bag[i % len(a.bag)], a.variants, a.work, a.decisions)
                       for i in range(a.positions)]
            for i, valued in pool.imap_unordered(decision, choices):
                if valued:
                    by[i] = valued
                    print(i, " ".join(f"{v}" for v in valued.values()), file=sys.stderr,
                          flush=True)
        else:
            jobs = [(a.edition, i, a.bag[i % len(a.bag)], v, a.work)
                    for i in range(a.positions) for v in a.variants]
            for i, variant, margin in pool.imap(outcome, jobs, chunksize=2):
                if margin is not None:
                    by.setdefault(i, {})[variant] = margin
                    print(i, repr(variant), margin, file=sys.stderr, flush=True)
    for v in a.variants:
        margins = [m[v] for m in by.values()]
        wins = sum(1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in margins)
        print(f"{v or 'as it is':24} {len(margins)} games  win {wins / len(margins):.3f}  "
              f"spread {statistics.fmean(margins):+.1f}")
    first = a.variants[0]
    for second in a.variants[1:]:
        diffs = [m[second] - m[first] for m in by.values()]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        flips = sum((m[second] > 0) - (m[first] > 0) for m in by.values())
        print(f"{second or 'as it is'} - {first or 'as it is'}: paired spread difference "
              f"{statistics.fmean(diffs):+.2f} +- {half:.2f}; net games won {flips:+d}; "
              f"games that changed {sum(1 for d in diffs if d)}")
    print(f"{time.perf_counter() - began:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
