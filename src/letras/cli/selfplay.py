"""``letras selfplay --players A,B``: AI levels play each other; wins, scores and spreads.

Prints, for each player, the wins (a tie counts as a share), the win rate and the mean spread
over the others with their 95% confidence intervals, and the mean score; then the plays and
games per second. A progress bar runs on stderr. ``--workers K`` plays in K local processes and
``--ray auto|ADDRESS`` on a Ray cluster (:mod:`letras.ai.workers`), with the same results.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from letras.cli.progress import ProgressBar
from letras.errors import RuleError
from letras.files import OutputError, check_folder, write_atomic

if TYPE_CHECKING:
    from letras.ai.selfplay import GameResult


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """``--workers`` and ``--ray``: where the games are played (``selfplay``,
    ``train-leaves``)."""
    p.add_argument("--workers", type=int, metavar="K",
                   help="play in K processes (1), or K Ray workers (one per CPU of the "
                        "cluster); the results do not change")
    p.add_argument("--ray", metavar="auto|ADDRESS",
                   help="play on a Ray cluster (needs letras[ray]): auto joins the one "
                        "RAY_ADDRESS names or `ray start` started here, or starts a local one; "
                        "or the address of its head (host:6379, ray://host:10001)")


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "selfplay",
        help="AI players play each other: win rates, scores and spreads",
        description="Play games between AI levels (2-4 players, any level or difficulty name) "
        "and print each player's wins, win rate and mean spread with 95% confidence "
        "intervals, mean score, and the speed. Game i is seeded from --seed and i, and who "
        "moves first rotates.",
    )
    p.add_argument("--players", required=True, metavar="A,B[,C,D]",
                   help="the levels, comma-separated (e.g. equity,greedy)")
    p.add_argument("--games", type=int, default=100, metavar="N", help="games to play (100)")
    p.add_argument("--edition", default="pt-BR", help="the edition (pt-BR, es, it, en)")
    p.add_argument("--lexicon", metavar="LEXICON",
                   help="a shipped lexicon's name, a word list or a .kwg graph "
                        "(default: the edition's own)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="the match seed (0)")
    add_backend_arguments(p)
    p.add_argument("--gcg", metavar="DIR", type=Path, help="save each game as DIR/game-N.gcg")
    p.add_argument("--seconds", type=float, metavar="S",
                   help="time for each choice of the searching levels (sim); without it they "
                        "use their own default, a fixed amount of work, and the games replay "
                        "exactly")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from letras.ai import NO_LIMIT, Limit, check_level
    from letras.ai.selfplay import play_match
    from letras.ai.workers import import_ray
    from letras.editions import find_edition

    levels = [check_level(name) for name in args.players.split(",") if name.strip()]
    if not 2 <= len(levels) <= 4:
        raise RuleError(f"--players needs 2 to 4 levels, not {len(levels)}")
    if args.games < 1 or (args.workers is not None and args.workers < 1):
        raise RuleError("--games and --workers need a number, 1 or more")
    if args.seconds is not None and not args.seconds > 0:
        raise RuleError(f"--seconds needs a positive number of seconds, not {args.seconds:g}")
    limit = Limit(seconds=args.seconds) if args.seconds is not None else NO_LIMIT
    edition = find_edition(args.edition)
    if args.gcg is not None:
        check_folder(args.gcg, "game records")  # before the match, not after it
    if args.ray is not None:
        import_ray()  # refused now if Ray is missing
    bar = ProgressBar()
    result = play_match(levels, args.games, edition=edition, lexicon=args.lexicon,
                        seed=args.seed, workers=args.workers, limit=limit,
                        gcg=args.gcg is not None, progress=bar, ray=args.ray)
    bar.close()
    if args.gcg is not None:
        _save_games(args.gcg, result.games, args.games)
    print(result.report())
    return 0


def _save_games(folder: Path, games: Sequence[GameResult], count: int) -> None:
    """Each game as ``folder/game-N.gcg`` (the folder made if need be, not its parents)."""
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise OutputError(f"cannot make folder {str(folder)!r}: {e.strerror or e}",
                          key="file.write", path=str(folder), reason=str(e.strerror or e)) from None
    width = len(str(count))
    for game in games:
        assert game.gcg is not None
        path = folder / f"game-{game.number + 1:0{width}d}.gcg"
        write_atomic(path, game.gcg.encode("utf-8"), "game record")
