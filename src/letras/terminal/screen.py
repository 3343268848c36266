"""The table as lines of text: the board, the scores, the bag, the unseen tiles, the scoresheet,
the rack of the player to move and, at the end, the final count.

Everything here is a pure function of what the seat to move may see (a
:class:`~letras.game.PlayerView`) and returns :class:`rich.text.Text` lines that fit an 80x24
terminal. In colour the premium squares are coloured and the last play is highlighted; in
``plain`` mode (no colour, no escape codes) premium squares show their symbols and the last
play is framed in brackets, ``[C A S A]``.

>>> from letras.game import Game
>>> from letras.i18n import messages
>>> game = Game("pt-BR", ["Ana", "Bruno"], seed=2026)
>>> _ = game.play("8G MUDO")
>>> lines = [line.plain for line in board_lines(game.board, last_play(game.view(0)), plain=True)]
>>> lines[0]
'    A B C D E F G H I J K L M N O'
>>> lines[8]
" 8  = . . ' . .[M U D O]. ' . . = "
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from letras.board import COLUMNS, Board, Square
from letras.editions import Edition, TimeControl
from letras.game import Game, PlayerView
from letras.history import Turn
from letras.i18n import Messages
from letras.layout import Premium
from letras.play import Place
from letras.scoring import Score
from letras.table import text
from letras.table.events import describe_all, end_events
from letras.table.text import play_text
from letras.tiles import BLANK

WIDTH = 80
GAP = 2
SHEET_LINES = 8
"""Scoresheet lines shown beside the board (the command ``sheet`` shows them all)."""
NAME_WIDTH = 14
"""The longest name shown whole in the panel and the scoresheet (``Computador 4`` fits)."""

PREMIUM_STYLE = {
    Premium.TRIPLE_WORD: "bold white on red",
    Premium.DOUBLE_WORD: "black on bright_magenta",
    Premium.TRIPLE_LETTER: "bold white on blue",
    Premium.DOUBLE_LETTER: "black on bright_cyan",
    Premium.CENTRE: "black on bright_magenta",
    Premium.NONE: "dim",
}
TILE_STYLE = "bold black on bright_white"
LAST_STYLE = "bold underline black on bright_yellow"
TO_MOVE_STYLE = "bold"
SUBSCRIPTS = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def name_width(names: Sequence[str]) -> int:
    """Characters a name takes in the panel: the longest name, up to :data:`NAME_WIDTH`."""
    return min(NAME_WIDTH, max(len(n) for n in names))


def cell_width(edition: Edition) -> int:
    """Characters a square takes: its longest tile label and one separator."""
    return max(len(label) for label in edition.tiles.labels) + 1


def last_play(view: PlayerView) -> Place | None:
    """The most recent play whose tiles are still on the board (a withdrawn play is not)."""
    board = view.board
    for turn in reversed(view.turns):
        place = turn.place
        if turn.kind == "play" and place is not None and all(
            board[sq] == t for sq, t in place.placed()
        ):
            return place
    return None


def board_lines(board: Board, last: Place | None = None, *, plain: bool = False) -> list[Text]:
    """The board with coordinates: a header of columns, then one line a row."""
    edition = board.edition
    w = cell_width(edition)
    size = board.size
    new = {sq for sq, _ in last.placed()} if last is not None else set()
    header = Text("   " + "".join(" " + COLUMNS[c].ljust(w - 1) for c in range(size)).rstrip())
    lines = [header]
    for r in range(size):
        line = Text(f"{r + 1:>2} ")
        for c in range(size):
            sq = Square(r, c)
            marked = sq in new
            before = Square(r, c - 1) in new
            line.append("[" if plain and marked and not before
                        else "]" if plain and before and not marked else " ")
            tile = board[sq]
            if tile:
                label = edition.tiles.label(tile).ljust(w - 1)
                line.append(label, style=LAST_STYLE if marked else TILE_STYLE)
            else:
                premium = board.premium(sq)
                symbol = premium.symbol if plain or premium is not Premium.NONE else "·"
                line.append(symbol.ljust(w - 1), style=PREMIUM_STYLE[premium])
        line.append("]" if plain and Square(r, size - 1) in new else " ")
        lines.append(line)
    return lines


def legend(t: Messages) -> Text:
    """What the premium symbols mean."""
    line = Text()
    for premium, key in ((Premium.TRIPLE_WORD, "tw"), (Premium.DOUBLE_WORD, "dw"),
                         (Premium.TRIPLE_LETTER, "tl"), (Premium.DOUBLE_LETTER, "dl")):
        line.append(premium.symbol, style=PREMIUM_STYLE[premium])
        line.append(f" {t('legend.' + key)}  ")
    line.rstrip()
    return line


def tile_text(edition: Edition, tiles: Sequence[int]) -> Text:
    """Rack tiles with their values as subscripts: ``A₁ C₃ ?₀``."""
    text = Text()
    for i, tile in enumerate(tiles):
        if i:
            text.append(" ")
        text.append(edition.tiles.label(tile), style=TILE_STYLE)
        text.append(str(edition.tiles.values[tile]).translate(SUBSCRIPTS))
    return text


def rack_line(view: PlayerView, t: Messages) -> Text:
    name = view.player_names[view.player]
    head = t("rack.yours") if name == t("seat.you") else t("rack.line", name=name)
    return Text(head + " ").append_text(
        tile_text(view.edition, view.rack) if view.rack else Text("-")
    )


def clock_text(seconds: float) -> str:
    """Minutes and seconds, negative when over: ``24:05``, ``-1:20``."""
    sign = "-" if seconds < 0 else ""
    whole = int(abs(seconds))
    return f"{sign}{whole // 60}:{whole % 60:02d}"


def unseen_lines(view: PlayerView, t: Messages, width: int) -> list[Text]:
    """The tiles this seat cannot see (bag and other racks): counts of vowels, consonants and
    blanks, then each letter with its number."""
    tiles = view.edition.tiles
    vowels = sum(n for code, n in enumerate(view.unseen) if tiles.is_vowel(code))
    blanks = view.unseen[BLANK]
    total = sum(view.unseen)
    head = t("unseen.head", n=total, vowels=vowels, consonants=total - vowels - blanks,
             blanks=blanks)
    lines = [Text(head[:width])]
    parts = [f"{tiles.labels[code]}:{n}" for code, n in enumerate(view.unseen) if n]
    line = ""
    for part in parts:
        if line and len(line) + 1 + len(part) > width:
            lines.append(Text(line))
            line = ""
        line = f"{line} {part}" if line else part
    if line:
        lines.append(Text(line))
    return lines


def panel_lines(
    view: PlayerView, t: Messages, width: int, *,
    clocks: Sequence[float] = (), time_control: TimeControl | None = None,
) -> list[Text]:
    """Scores (the player to move marked), clocks, the bag, the unseen tiles and the last lines
    of the scoresheet."""
    lines = []
    names = view.player_names
    w = name_width(names)
    for p, name in enumerate(names):
        marker = "▶ " if p == view.to_move and not view.over else "  "
        line = Text(f"{marker}{name[:w]:<{w}} {view.scores[p]:>4}",
                    style=TO_MOVE_STYLE if p == view.to_move else "")
        if time_control is not None and time_control.kind == "game" and p < len(clocks):
            line.append(f"  {clock_text(time_control.seconds - clocks[p])}")
        lines.append(line)
    if time_control is not None and time_control.kind == "move":
        lines.append(Text(t("clock.per_move", time=clock_text(time_control.seconds))))
    lines.append(Text(t("bag.line", tiles=t.count("tiles", view.bag_count))))
    lines.extend(unseen_lines(view, t, width))
    sheet = sheet_lines(view, t)
    if sheet:
        lines.append(Text(t("sheet.head")))
        lines.extend(Text(s[:width]) for s in sheet[-SHEET_LINES:])
    return lines


def turn_move(turn: Turn, board: Board, t: Messages) -> str:
    """What a scoresheet line did, in words: the play, ``exchange 3``, ``pass`` ..."""
    kind = turn.kind
    edition = board.edition
    if kind in ("play", "withdrawn") and turn.place is not None:
        return play_text(turn.place, board) + ("" if kind == "play" else " " + t("sheet.withdrawn"))
    if kind == "exchange":
        shown = edition.tiles.format(turn.tiles, rack=True) if turn.tiles else str(turn.count)
        return t("sheet.exchange", tiles=shown)
    if kind in ("end-rack", "rack-penalty"):
        return t(f"sheet.{kind}", tiles=edition.tiles.format(turn.tiles, rack=True))
    return t(f"sheet.{kind}")


def sheet_lines(view: PlayerView, t: Messages) -> list[str]:
    """The scoresheet as this seat may see it, one line a turn: number, player, move, points,
    total."""
    out = []
    w = name_width(view.player_names)
    for i, turn in enumerate(view.turns, 1):
        name = view.player_names[turn.player][:w]
        move = turn_move(turn, view.board, t)
        out.append(f"{i:>3} {name:<{w}} {move:<16} {turn.points:+4d} {turn.total:>4}")
    return out


def score_text(score: Score, t: Messages) -> str:
    """The words a play formed and their points: ``CASAS 7 + DESLIGAS 13 = 20``."""
    return text.score_text(score.words, score.bingo, t("score.bingo", n="{n}"))


def screen_lines(view: PlayerView, t: Messages, *, plain: bool, width: int = WIDTH,
                 clocks: Sequence[float] = (), time_control: TimeControl | None = None,
                 show_rack: bool = True) -> list[Text]:
    """The whole table for the seat of ``view``: board and panel side by side (the panel goes
    under the board when the terminal is too narrow), the legend and the rack."""
    board = board_lines(view.board, last_play(view), plain=plain)
    board_width = max(line.cell_len for line in board)
    side = width - board_width - GAP
    stacked = side < 34
    panel = panel_lines(view, t, width if stacked else side, clocks=clocks,
                        time_control=time_control)
    out: list[Text] = []
    if stacked:
        out.extend(board)
        out.extend(panel)
    else:
        for i in range(max(len(board), len(panel))):
            left = board[i].copy() if i < len(board) else Text()
            if i < len(panel):
                left.pad_right(board_width + GAP - left.cell_len)
                left.append_text(panel[i])
            out.append(left)
    out.append(legend(t))
    if show_rack:
        out.append(rack_line(view, t))
    return out


def final_count(game: Game, t: Messages) -> list[Text]:
    """The final count as the rule sheets do it: why the game ended, each player's score
    before the count, the rack points taken off or gained, the final score; then the winner
    or a tie (the table's end events, said in the table's language)."""
    events = end_events(game)
    bold = {"count.winner", "count.tie"}
    return [Text(line, style="bold" if e.key in bold or e.key.startswith("end.reason.") else "")
            for e, line in zip(events, describe_all(events, t), strict=True)]


__all__ = [
    "board_lines", "cell_width", "clock_text", "final_count", "last_play",
    "legend", "panel_lines", "play_text", "rack_line", "score_text", "screen_lines", "sheet_lines",
    "tile_text", "turn_move", "unseen_lines",
]
