"""The win chance over a game as a picture (SVG), drawn with matplotlib.

matplotlib is an optional dependency (the ``analysis`` extra: ``pip install
'letras[analysis]'``); without it :func:`win_chance_svg` raises a clear
:class:`~letras.analysis.analyze.AnalysisError`. The picture has one line per player (their
win chance after each event of the record, from :attr:`GameAnalysis.curve`), the even line,
and a dot at each player's costliest turns. The texts are given by the caller (the command
line translates them); the SVG is the same for the same analysis (no date, fixed ids).
"""

from __future__ import annotations

import io
from typing import Any

from letras.analysis.analyze import AnalysisError
from letras.analysis.model import GameAnalysis

COLOURS = ("#1f6feb", "#d1242f", "#1a7f37", "#9a6700")


def require_matplotlib() -> None:
    """Raise :class:`~letras.analysis.analyze.AnalysisError` when matplotlib is missing."""
    _matplotlib()


def _matplotlib() -> Any:
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise AnalysisError(
            "drawing the win chance needs matplotlib: pip install 'letras[analysis]'",
            key="analysis.matplotlib",
        ) from None
    matplotlib.rcParams["svg.hashsalt"] = "letras"
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text
    return Figure


def win_chance_svg(
    analysis: GameAnalysis,
    *,
    title: str | None = None,
    xlabel: str = "events of the record",
    ylabel: str = "win chance",
) -> str:
    """The SVG text of the win chance over the game. Raises
    :class:`~letras.analysis.analyze.AnalysisError` without matplotlib, or when the analysis
    has no win chances (no win table for the edition, or more than two players)."""
    if not analysis.curve:
        raise AnalysisError(
            "no win chance to draw: there is a win table only for two players in a shipped "
            "edition", key="analysis.no_curve")
    figure_class = _matplotlib()
    fig = figure_class(figsize=(8.0, 4.0), dpi=100)
    ax = fig.subplots()
    xs = [p.events for p in analysis.curve]
    at = {p.events: p for p in analysis.curve}
    for seat, name in enumerate(analysis.players):
        colour = COLOURS[seat % len(COLOURS)]
        ax.plot(xs, [100 * p.chance[seat] for p in analysis.curve], color=colour,
                linewidth=1.8, label=name, drawstyle="steps-post")
        worst = [analysis.turns[i] for i in analysis.summary[seat].mistakes]
        dots = [(t.event + 1, 100 * at[t.event + 1].chance[seat]) for t in worst
                if t.event + 1 in at]
        if dots:
            ax.scatter([x for x, _ in dots], [y for _, y in dots], color=colour, s=28, zorder=3)
    ax.axhline(50, color="#888888", linewidth=0.8, linestyle="--")
    ax.set_ylim(0, 100)
    ax.set_xlim(0, max(xs[-1], 1))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"{ylabel} (%)")
    if title:
        ax.set_title(title)
    ax.grid(True, linewidth=0.3, alpha=0.6)
    ax.legend(loc="best", frameon=False)
    fig.tight_layout()
    out = io.StringIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


__all__ = ["require_matplotlib", "win_chance_svg"]
