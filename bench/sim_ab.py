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
``inference=0`` a constructor argument, and ``rev=REV`` loads :mod:`letras.ai.sim` as it was
at git revision ``REV``, the single module of older revisions or the package (the other modules
stay as they are now). The empty string is the code as it is.

Prints, per variant, the win rate (ties count half) and mean final spread of the sim seat,
and for the first two variants the paired difference of spread (95% interval) and the net
number of games the first wins that the second does not.
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import multiprocessing
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from letras.ai import EquityPlayer, Limit
from letras.ai.selfplay import run_game, word_graph
from letras.editions import find_edition
from letras.game import Game
from letras.lexicon.kwg import WordGraph

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


def outcome(args: tuple[str, int, int, str, int]) -> tuple[int, str, int | None]:
    edition, i, bag, variant, work = args
    lexicon = words(edition)
    game = start(edition, i, bag)
    if game.over:
        return i, variant, None
    settings = dict(kv.split("=", 1) for kv in variant.split(",") if kv)
    module = sim_module(settings.pop("rev", ""))
    saved: list[tuple[ModuleType, str, Any]] = []
    kwargs: dict[str, Any] = {}
    for name, value in settings.items():
        if name.isupper():
            for holder in holders(module, name):
                old = getattr(holder, name)
                saved.append((holder, name, old))
                setattr(holder, name, type(old)(value))
        else:
            kwargs[name] = bool(int(value)) if name == "inference" else int(value)
    try:
        seat = i % 2
        players: list[Any] = [EquityPlayer(lexicon), EquityPlayer(lexicon)]
        players[seat] = module.SimPlayer(lexicon, seed=i, **kwargs)
        run_game(game, players, Limit(work=work))
    finally:
        for holder, name, old in saved:
            setattr(holder, name, old)
    scores = game.scores
    return i, variant, scores[seat] - scores[1 - seat]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--edition", default="pt-BR")
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--bag", type=int, default=7)
    parser.add_argument("--work", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--variants", nargs="+", default=["", "rev=HEAD"])
    a = parser.parse_args()
    began = time.perf_counter()
    jobs = [(a.edition, i, a.bag, v, a.work) for i in range(a.positions) for v in a.variants]
    with multiprocessing.Pool(a.workers) as pool:
        results = pool.map(outcome, jobs, chunksize=2)
    by: dict[int, dict[str, int]] = {}
    for i, variant, margin in results:
        if margin is not None:
            by.setdefault(i, {})[variant] = margin
    for v in a.variants:
        margins = [m[v] for m in by.values()]
        wins = sum(1.0 if x > 0 else 0.5 if x == 0 else 0.0 for x in margins)
        print(f"{v or 'as it is':24} {len(margins)} games  win {wins / len(margins):.3f}  "
              f"spread {statistics.fmean(margins):+.1f}")
    if len(a.variants) >= 2:
        first, second = a.variants[:2]
        diffs = [m[first] - m[second] for m in by.values()]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        flips = sum((m[first] > 0) - (m[second] > 0) for m in by.values())
        print(f"paired spread difference {statistics.fmean(diffs):+.2f} +- {half:.2f}; "
              f"net games won {flips:+d}; games that changed "
              f"{sum(1 for d in diffs if d)}")
    print(f"{time.perf_counter() - began:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
