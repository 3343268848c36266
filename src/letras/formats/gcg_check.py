"""Replay a GCG record and check every recorded score against the rules.

No bag is needed: the racks are in the record. The board is rebuilt play by play, each play is
scored again with :mod:`letras.scoring` (bingo bonus from the edition's rules) and checked against
the recorded rack; withdrawn phonies take the previous play's tiles back; challenge bonuses, end-
of-game rack points, rack penalties and time penalties are checked, and so is every running total.
Words are not checked: no lexicon is needed.

>>> from letras.formats.gcg import read_gcg
>>> record = read_gcg('''#player1 doug doug
... #player2 emely emely
... >doug: DINNVWY 8D WINDY +32 32
... >emely: ADEEGIL 7C GALE +16 16
... >doug: AEJNOSV E3 JAVE..N +34 60''')
>>> for d in check_gcg(record):
...     print(d)
line 5: running total 60, expected 32 +34 = 66
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from letras.board import Board
from letras.editions import editions
from letras.errors import FormatError, IllegalPlayError
from letras.formats.gcg import EventKind, GcgEvent, GcgRecord, Rack, format_rack
from letras.play import Exchange, Place
from letras.rules import check_rack, check_shape
from letras.scoring import score
from letras.tiles import EMPTY, THROUGH, rack_tile

CHALLENGE_BONUSES = (5, 10)
"""What a failed challenge gives the challenged player under 5- and 10-point rules."""

# Shape problems after which a play cannot be laid on the board at all.
_UNPLACEABLE = frozenset(
    {"off-board", "square-taken", "through-mismatch", "no-tiles", "blank-letter", "unknown-tile"}
)


@dataclass(frozen=True)
class Disagreement:
    """Where a record and the rules differ: the event's line and what differs."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Replay:
    """The outcome of a replay: the final board, each player's running total (as recorded,
    after the checks), whether the record reaches the end of the game, and the disagreements."""

    board: Board
    totals: dict[str, int]
    finished: bool
    disagreements: list[Disagreement]


def refusal(record: GcgRecord) -> str | None:
    """Why the record cannot be replayed with its edition, or None when it can."""
    letters = sorted({c for e in record.errors if e.reason == "unknown-tile" for c in e.letters})
    unknown = [e.message for e in record.errors if e.reason == "unknown-edition"]
    if not letters and not unknown:
        return None
    name = record.edition.name
    parts = list(unknown)
    if letters:
        fits = [
            e.name for e in editions().values() if all(e.tiles.has_letter(c) for c in letters)
        ]
        hint = f"try --edition {fits[0]}" if fits else "no shipped edition has them"
        parts.append(f"it uses letters that edition {name} lacks: {' '.join(letters)} ({hint})")
    return "; ".join(parts)


def replay_gcg(record: GcgRecord) -> Replay:
    """Replay every event of ``record``; raises :class:`~letras.errors.FormatError` when the
    record needs tiles its edition lacks (see :func:`refusal`)."""
    why = refusal(record)
    if why is not None:
        raise FormatError(why)
    replayer = _Replayer(record)
    for event in record.events:
        replayer.step(event)
    return Replay(replayer.board, replayer.totals, replayer.finished, replayer.found)


def check_gcg(record: GcgRecord) -> list[Disagreement]:
    """Every disagreement between the record and the rules, in line order."""
    return replay_gcg(record).disagreements


def _minus(have: Iterable[int], take: Iterable[int]) -> tuple[Rack, Rack]:
    """``have`` less ``take`` as multisets: (what is left, what ``have`` lacked)."""
    left, missing = Counter(have), Counter(take)
    missing.subtract(left)
    left.subtract(Counter(take))
    return (tuple(sorted((+left).elements())), tuple(sorted((+missing).elements())))


class _Replayer:
    def __init__(self, record: GcgRecord) -> None:
        self.edition = record.edition
        self.tiles = record.edition.tiles
        self.board = Board(record.edition)
        self.nicknames = [p.nickname for p in record.players]
        self.totals = dict.fromkeys(self.nicknames, 0)
        self.kept: dict[str, Rack | None] = {}  # tiles known to stay on a rack after a turn
        self.last_play: tuple[GcgEvent, Place] | None = None
        self.previous: GcgEvent | None = None
        self.before_bonus: GcgEvent | None = None  # the last event that is not a bonus
        self.finished = False
        self.found: list[Disagreement] = []
        self.handlers: dict[EventKind, Callable[[GcgEvent], None]] = {
            EventKind.PLAY: self.play,
            EventKind.PASS: self.pass_,
            EventKind.EXCHANGE: self.exchange,
            EventKind.WITHDRAWN: self.withdrawn,
            EventKind.CHALLENGE_BONUS: self.challenge_bonus,
            EventKind.END_POINTS: self.end_points,
            EventKind.END_PENALTY: self.end_penalty,
            EventKind.TIME_PENALTY: self.time_penalty,
        }

    def say(self, event: GcgEvent, message: str) -> None:
        self.found.append(Disagreement(event.line, message))

    def rack_text(self, tiles: Sequence[int]) -> str:
        return format_rack(self.tiles, tiles) or "(nothing)"

    def step(self, event: GcgEvent) -> None:
        if self.nicknames and event.player not in self.nicknames:
            self.say(event, f"{event.player!r} is not a player of this game "
                            f"({', '.join(self.nicknames)})")
        self.handlers[event.kind](event)
        before = self.totals.get(event.player, 0)
        expected = before + event.score
        if event.total != expected:
            self.say(event, f"running total {event.total}, expected {before} "
                            f"{event.score:+d} = {expected}")
        self.totals[event.player] = event.total
        self.previous = event
        if event.kind is not EventKind.CHALLENGE_BONUS:
            self.before_bonus = event

    def expect_score(self, event: GcgEvent, expected: int, what: str) -> None:
        if event.score != expected:
            self.say(event, f"{what} scores {expected:+d}, recorded {event.score:+d}")

    def play(self, event: GcgEvent) -> None:
        assert isinstance(event.action, Place)
        self.last_play = None
        self.kept[event.player] = None
        notation = event.action.notation(self.edition)
        try:
            place = event.action.resolve_through(self.board)
        except IllegalPlayError as e:
            self.say(event, f"{notation}: {e}")
            return
        try:
            check_shape(self.board, place)
        except IllegalPlayError as e:
            self.say(event, f"{notation}: {e}")
            if e.reason in _UNPLACEABLE:
                return
        if event.rack is not None:
            try:
                check_rack(self.board, place, event.rack)
            except IllegalPlayError as e:
                self.say(event, f"{notation}: {e}")
            laid = [rack_tile(t) for t in place.tiles if t != THROUGH]
            self.kept[event.player] = _minus(event.rack, laid)[0]
        result = score(self.board, place, self.edition.rules.bingo_bonus)
        if result.total != event.score:
            self.say(event, f"{notation} scores {result.total:+d} ({result}), "
                            f"recorded {event.score:+d}")
        self.board.put(place.placed())
        self.last_play = (event, place)

    def pass_(self, event: GcgEvent) -> None:
        self.expect_score(event, 0, "a pass")
        if event.rack is not None:
            self.kept[event.player] = event.rack

    def exchange(self, event: GcgEvent) -> None:
        assert isinstance(event.action, Exchange)
        self.expect_score(event, 0, "an exchange")
        self.kept[event.player] = None
        tiles = event.action.tiles
        if event.rack is not None and event.action.count > len(event.rack):
            self.say(event, f"exchanges {event.action.count} tiles from a rack of "
                            f"{len(event.rack)}")
        if event.rack is not None and tiles:
            left, missing = _minus(event.rack, tiles)
            if missing:
                self.say(event, f"exchanges {self.rack_text(missing)}, not on the rack "
                                f"{self.rack_text(event.rack)}")
            self.kept[event.player] = left

    def withdrawn(self, event: GcgEvent) -> None:
        last, self.last_play = self.last_play, None
        if last is None or last[0] is not self.previous or last[0].player != event.player:
            self.say(event, f"a withdrawn phony (--) must follow a play by {event.player}")
            return
        play_event, place = last
        for square, _ in place.placed():
            self.board[square] = EMPTY
        notation = place.notation(self.edition)
        self.expect_score(event, -play_event.score, f"withdrawing {notation}")
        if event.rack is not None and play_event.rack is not None and event.rack != play_event.rack:
            self.say(event, f"rack {self.rack_text(event.rack)} is not the rack "
                            f"{self.rack_text(play_event.rack)} of the withdrawn play")
        self.kept[event.player] = play_event.rack or event.rack

    def challenge_bonus(self, event: GcgEvent) -> None:
        target = self.before_bonus
        if target is None or target.kind is not EventKind.PLAY or target.player != event.player:
            self.say(event, f"a challenge bonus goes to the player whose play stood: it must "
                            f"follow a play by {event.player}")
        if event.score not in CHALLENGE_BONUSES:
            self.say(event, f"a challenge bonus is {' or '.join(map(str, CHALLENGE_BONUSES))} "
                            f"points, recorded {event.score:+d}")
        if event.rack is not None:
            self.kept[event.player] = event.rack

    def value(self, tiles: Iterable[int]) -> int:
        return sum(self.tiles.value(t) for t in tiles)

    def unseen(self) -> Rack:
        """The tiles of a full bag that are not on the board (blanks as ``0``)."""
        pool = Counter(dict(enumerate(self.tiles.counts)))
        pool.subtract(rack_tile(t) for _, t in self.board.tiles())
        return tuple(sorted((+pool).elements()))

    def end_points(self, event: GcgEvent) -> None:
        # Once a player goes out, the bag is empty: the others' racks are every tile that is
        # not on the board. (Their last recorded racks may not show it: they may have drawn
        # the last tiles of the bag after their last play.)
        self.finished = True
        own = self.kept.get(event.player)
        if own:
            self.say(event, f"{event.player} still holds {self.rack_text(own)}: "
                            f"only a player who went out gains the others' racks")
        left = self.unseen()
        if left != tuple(sorted(event.counted)):
            self.say(event, f"counts ({self.rack_text(event.counted)}), but the tiles not on "
                            f"the board are ({self.rack_text(left)})")
        value = self.value(event.counted)
        factor = 2 if len(self.totals) <= 2 else 1
        self.expect_score(event, factor * value,
                          f"({self.rack_text(event.counted)}), worth {value},")

    def end_penalty(self, event: GcgEvent) -> None:
        self.finished = True
        counted = tuple(sorted(event.counted))
        extra = _minus(counted, self.unseen())[0]
        if extra:
            self.say(event, f"counts ({self.rack_text(counted)}), but "
                            f"{self.rack_text(extra)} is on the board")
        own = self.kept.get(event.player)
        missing = _minus(own, counted)[0] if own is not None else ()
        if missing:
            self.say(event, f"counts ({self.rack_text(counted)}), but the player kept "
                            f"{self.rack_text(missing)} too")
        value = self.value(counted)
        self.expect_score(event, -value, f"a rack penalty for ({self.rack_text(counted)})")

    def time_penalty(self, event: GcgEvent) -> None:
        per_minute = self.edition.rules.time_control.penalty_per_minute
        if event.score >= 0 or event.score % per_minute:
            self.say(event, f"a time penalty is a loss of {per_minute} points per minute, "
                            f"recorded {event.score:+d}")
