"""``letras analyze FILE``: the best plays of every turn of a game record, and what each cost.

A thin layer over :func:`letras.analysis.analyze`: it reads the record, prints a table per turn
(the play made, the best found with their equity and win chance, what was lost) and a summary
per player, in the language of the edition (``--language``), or the analysis as JSON
(``--json``, the shape of ``letras/formats/data/analysis.schema.json``); ``--svg`` also draws
the win chance over the game (needs matplotlib: ``pip install 'letras[analysis]'``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from letras.errors import FormatError, RuleError

if TYPE_CHECKING:
    from letras.analysis import GameAnalysis, Option, TurnAnalysis
    from letras.i18n import Messages

BEST_SHOWN = 3
"""Best plays a turn lists in the table (``--best``)."""
WIDTH = 120
"""The table's width when the output is not a terminal."""


def add_parser(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "analyze",
        help="analyse a game record: the best plays of every turn and what each play cost",
        description="For every play, exchange or pass of a game record (GCG) whose rack the "
        "record shows: the play made, the best plays found with their equity and win chance, "
        "and the equity or win chance lost; then a summary per player.",
    )
    p.add_argument("file", metavar="FILE", help="a GCG file")
    p.add_argument("--level", choices=("equity", "sim"),
                   help="equity: the static judgement (fast, the default); sim: a simulation "
                        "of the best candidates and the play made (the default with --seconds)")
    p.add_argument("--seconds", type=float, metavar="S",
                   help="time for each turn's simulation (implies --level sim)")
    p.add_argument("--work", type=int, metavar="N",
                   help="simulated plays for each turn's simulation, instead of a time: the "
                        "results then repeat exactly (implies --level sim)")
    p.add_argument("--best", type=int, default=BEST_SHOWN, metavar="N",
                   help=f"best plays to list for each turn ({BEST_SHOWN})")
    p.add_argument("--edition", help="tile set to read with (default: from #lexicon, else en)")
    p.add_argument("--lexicon", metavar="LEXICON",
                   help="a shipped lexicon's name, a word list or a .kwg graph to find the best "
                        "plays in (default: the record's #lexicon if shipped, else the "
                        "edition's own)")
    p.add_argument("--seed", type=int, default=0, metavar="S",
                   help="seeds the tiles the record does not show and the simulations (0)")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument("--svg", metavar="OUT.svg", type=Path,
                   help="draw the win chance over the game into this SVG file (matplotlib)")
    p.add_argument("--language", help="the language of the table (default: the edition's)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from letras.ai.player import NO_LIMIT, Limit
    from letras.analysis import analyze
    from letras.editions import find_edition
    from letras.files import check_output
    from letras.formats.gcg import MAX_GCG_BYTES, read_gcg
    from letras.i18n import messages

    if args.seconds is not None and not args.seconds > 0:
        raise RuleError(f"--seconds needs a positive number of seconds, not {args.seconds:g}",
                        key="analysis.seconds", seconds=f"{args.seconds:g}")
    if args.work is not None and args.work < 1:
        raise RuleError(f"--work needs a number of simulated plays, 1 or more, not {args.work}",
                        key="analysis.work", n=args.work)
    timed = args.seconds is not None or args.work is not None
    level = args.level or ("sim" if timed else "equity")
    if level == "equity" and timed:
        raise RuleError("--seconds and --work are for --level sim", key="analysis.timed")
    if args.svg is not None:  # before the work, not after it
        from letras.analysis.picture import require_matplotlib

        check_output(args.svg, "picture")
        require_matplotlib()
    try:
        with Path(args.file).open("rb") as f:
            data = f.read(MAX_GCG_BYTES + 1)  # more is too long: read_gcg says so
    except OSError as e:
        reason = e.strerror or str(e)
        raise FormatError(f"{args.file}: cannot read: {reason}", key="analysis.read",
                          file=args.file, reason=reason) from None
    record = read_gcg(data, find_edition(args.edition) if args.edition else None)
    graph = _lexicon(record.edition, args.lexicon, record.lexicon)
    limit = Limit(seconds=args.seconds, work=args.work) if timed else NO_LIMIT
    bar = None
    if level == "sim" and sys.stderr.isatty():
        from letras.cli.progress import ProgressBar

        bar = ProgressBar("turns")
    try:
        result = analyze(record, lexicon=graph, level=level, limit=limit, seed=args.seed,
                         best=max(args.best, 1), progress=bar)
    finally:
        if bar is not None:
            bar.close()
    t = messages(args.language or record.edition.language)
    if args.svg is not None:
        from letras.analysis.picture import win_chance_svg
        from letras.files import write_atomic

        svg = win_chance_svg(result, title=t("analysis.picture_title",
                                             players=" – ".join(result.players)),
                             xlabel=t("analysis.picture_x"), ylabel=t("analysis.picture_y"))
        write_atomic(args.svg, svg.encode("utf-8"), "picture")
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        _print(result, t, args.file, args.best)
    return 0


def _lexicon(edition: Any, spec: str | None, named: str | None) -> Any:
    from letras.errors import LexiconError
    from letras.lexicon import load_lexicon, shipped_lexicons
    from letras.lexicon.kwg import WordGraph

    if spec is None and named in shipped_lexicons():
        spec = named
    graph = load_lexicon(edition, spec)
    if not isinstance(graph, WordGraph):
        raise LexiconError("analysis needs a word graph lexicon (a word list or .kwg file)",
                           key="analysis.lexicon")
    return graph


# ----- the table ------------------------------------------------------------------------------


def _percent(p: float | None) -> str:
    return "" if p is None else f"{100 * p:.0f}%"


def _option(o: Option) -> str:
    win = f", {_percent(o.win)}" if o.win is not None else ""
    return f"{o.notation} {o.score} ({o.equity:.1f}{win})"


def _lost(turn: TurnAnalysis) -> str:
    if turn.found:
        return "✓"
    parts = [f"{turn.equity_lost:.1f}"] if turn.equity_lost is not None else []
    if turn.win_lost is not None:
        parts.append(_percent(turn.win_lost))
    return " / ".join(parts)


def _print(result: GameAnalysis, t: Messages, name: str, best: int) -> None:
    from rich.console import Console
    from rich.table import Table

    # A terminal's own width; into a file or a pipe, room for a turn on one line.
    width = None if sys.stdout.isatty() else WIDTH
    console = Console(highlight=False, emoji=False, markup=False, width=width)
    console.print(t("analysis.title", file=name, level=result.level, lexicon=result.lexicon))
    if not result.win_table:
        console.print(t("analysis.no_table"))
    table = Table(show_lines=False, header_style="bold")
    for key, justify in (("line", "right"), ("player", "left"), ("rack", "left"),
                         ("made", "left"), ("best", "left"), ("lost", "right")):
        table.add_column(t(f"analysis.{key}"), justify=justify)  # type: ignore[arg-type]
    for turn in result.turns:
        player = result.players[turn.player]
        if turn.status != "analysed" or turn.made is None:
            why = t("analysis.rack_unknown" if turn.status == "rack-unknown"
                    else "analysis.not_followed")
            table.add_row(str(turn.line), player, turn.rack or "", why, "", "")
            continue
        made = _option(turn.made)
        if turn.withdrawn:
            made += f" [{t('analysis.withdrawn')}]"
        shown = "\n".join(_option(o) for o in turn.best[:best])
        table.add_row(str(turn.line), player, turn.rack or "", made, shown, _lost(turn))
    console.print(table)
    summary = Table(title=t("analysis.summary"), header_style="bold")
    for key in ("player", "analysed", "unknown", "best_found", "equity_lost", "win_lost",
                "mistakes"):
        summary.add_column(t(f"analysis.{key}"))
    for s in result.summary:
        worst = ", ".join(
            f"{result.turns[i].line}: {m.notation}" for i in s.mistakes
            if (m := result.turns[i].made) is not None
        )
        summary.add_row(s.name, str(s.analysed), str(s.unknown), str(s.best_found),
                        f"{s.equity_lost:.1f}", _percent(s.win_lost), worst)
    console.print(summary)
