"""Check a GCG record: replay it as a game and compare every recorded score with the rules.

The record is replayed as a :class:`~letras.game.Game` (:func:`~letras.formats.gcg_follow.
follow_gcg`): its racks are the record's, its board is rebuilt play by play, withdrawn phonies
are taken back, challenges, passes, exchanges and the end of the game are carried out by the
rules. Each recorded score is then compared with the game's scoresheet line for that event, and
each running total with the previous total plus the recorded score. The end-of-game lines are
also checked against the board and the racks the record showed. Words are not checked: no
lexicon is needed.

Two conventions of the end are accepted: the final count of the rule sheets (each player loses
their own rack, the one who went out gains the others'), as letras writes it, and in a
two-player game twice the opponent's rack to the player who went out, with no line for the
opponent, as Quackle, Macondo and Woogles write it.

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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from letras.board import Board
from letras.formats.gcg import EventKind, GcgEvent, GcgRecord, Rack, format_rack
from letras.formats.gcg_follow import FollowedRecord, Step, follow_gcg
from letras.formats.gcg_rules import refusal
from letras.game import Game
from letras.play import Exchange, Place
from letras.rack import minus as _minus
from letras.scoring import final_count
from letras.tiles import THROUGH, rack_tile

__all__ = [
    "CHALLENGE_BONUSES", "Disagreement", "Replay", "check_gcg", "refusal", "replay_gcg",
]

CHALLENGE_BONUSES = (5, 10)
"""What a failed challenge gives the challenged player under 5- and 10-point rules."""


@dataclass(frozen=True)
class Disagreement:
    """Where a record and the rules differ: the event's line and what differs."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Replay:
    """The outcome of a check: the final board, each player's running total (as recorded),
    whether the record reaches the end of the game, the disagreements, and the game the
    record replays as."""

    board: Board
    totals: dict[str, int]
    finished: bool
    disagreements: list[Disagreement]
    game: Game


def replay_gcg(record: GcgRecord) -> Replay:
    """Replay every event of ``record`` and compare; raises
    :class:`~letras.errors.FormatError` when the record needs tiles its edition lacks (see
    :func:`refusal`)."""
    followed = follow_gcg(record)
    checker = _Checker(record, followed)
    checker.found.extend(Disagreement(1, problem) for problem in followed.problems)
    for step in followed.steps:
        checker.step(step)
    checker.leftovers()
    finished = checker.finished or followed.game.resigned is not None  # no count to show
    return Replay(followed.game.board, checker.totals, finished, checker.found, followed.game)


def check_gcg(record: GcgRecord) -> list[Disagreement]:
    """Every disagreement between the record and the rules, in line order."""
    return replay_gcg(record).disagreements


class _Checker:
    def __init__(self, record: GcgRecord, followed: FollowedRecord) -> None:
        self.record = record
        self.followed = followed
        self.edition = record.edition
        self.tiles = record.edition.tiles
        self.game = followed.game
        self.seats = {p.nickname: i for i, p in enumerate(record.players)}
        self.totals = {p.nickname: 0 for p in record.players}
        self.kept: dict[str, Rack | None] = {}  # tiles known to stay on a rack after a turn
        self.steps = {id(s.event): s for s in followed.steps}
        self.finished = False
        self.found: list[Disagreement] = []
        ends = [e for e in record.events if e.kind in (EventKind.END_POINTS,
                                                       EventKind.END_PENALTY)]
        penalised = {e.player for e in ends if e.kind is EventKind.END_PENALTY}
        players = {p.nickname for p in record.players} or {e.player for e in record.events}
        # Quackle, Macondo, Woogles: twice the opponent's rack, no line for the opponent.
        self.doubled = len(players) <= 2 and any(
            e.kind is EventKind.END_POINTS and not players - {e.player} <= penalised for e in ends
        )

    def say(self, event: GcgEvent, message: str) -> None:
        self.found.append(Disagreement(event.line, message))

    def rack_text(self, tiles: Sequence[int]) -> str:
        return format_rack(self.tiles, tiles) or "(nothing)"

    def expect(self, event: GcgEvent, expected: int, what: str) -> None:
        if event.score != expected:
            self.say(event, f"{what} scores {expected:+d}, recorded {event.score:+d}")

    def step(self, step: Step) -> None:
        event = step.event
        for problem in step.problems:
            self.say(event, problem)
        compare = {
            EventKind.PLAY: self.play,
            EventKind.PASS: self.pass_,
            EventKind.EXCHANGE: self.exchange,
            EventKind.WITHDRAWN: self.withdrawn,
            EventKind.CHALLENGE_BONUS: self.challenge,
            EventKind.END_POINTS: self.end_points,
            EventKind.END_PENALTY: self.end_penalty,
            EventKind.TIME_PENALTY: self.time_penalty,
        }[event.kind]
        compare(step)
        before = self.totals.get(event.player, 0)
        expected = before + event.score
        if event.total != expected:
            self.say(event, f"running total {event.total}, expected {before} "
                            f"{event.score:+d} = {expected}")
        self.totals[event.player] = event.total

    # ----- turns -----------------------------------------------------------------------------

    def play(self, step: Step) -> None:
        event = step.event
        assert isinstance(event.action, Place)
        self.kept[event.player] = None
        if step.place is not None and event.rack is not None:
            laid = [rack_tile(t) for t in step.place.tiles if t != THROUGH]
            self.kept[event.player] = _minus(event.rack, laid)[0]
        turn = step.turn
        if step.followed and turn is not None and turn.points != event.score:
            self.say(event, f"{event.action.notation(self.edition)} scores {turn.points:+d} "
                            f"({turn.score}), recorded {event.score:+d}")

    def pass_(self, step: Step) -> None:
        self.expect(step.event, step.turn.points if step.turn else 0, "a pass")
        if step.event.rack is not None:
            self.kept[step.event.player] = step.event.rack

    def exchange(self, step: Step) -> None:
        event = step.event
        assert isinstance(event.action, Exchange)
        self.expect(event, 0, "an exchange")
        self.kept[event.player] = None
        if event.rack is not None and event.action.tiles:
            self.kept[event.player] = _minus(event.rack, event.action.tiles)[0]

    def withdrawn(self, step: Step) -> None:
        event, play = step.event, step.target
        if play is None:
            return
        place = self.steps[id(play)].place
        if step.turn is not None and place is not None:
            self.expect(event, step.turn.points, f"withdrawing {place.notation(self.edition)}")
        if event.rack is not None and play.rack is not None and event.rack != play.rack:
            self.say(event, f"rack {self.rack_text(event.rack)} is not the rack "
                            f"{self.rack_text(play.rack)} of the withdrawn play")
        self.kept[event.player] = play.rack or event.rack

    def challenge(self, step: Step) -> None:
        event, turn = step.event, step.turn
        if event.rack is not None and event.score >= 0:
            self.kept[event.player] = event.rack
        if not step.followed:
            return
        if event.score >= 0 and event.score not in CHALLENGE_BONUSES:
            self.say(event, f"a challenge bonus is {' or '.join(map(str, CHALLENGE_BONUSES))} "
                            f"points, recorded {event.score:+d}")
        elif turn is None:
            rule = self.game.rules.challenge_rule
            self.say(event, f"under the {rule} challenge rule a play that stands gives no "
                            f"points, recorded {event.score:+d}")
        else:
            what = "a challenge bonus" if turn.kind == "challenge-bonus" else "a challenge penalty"
            self.expect(event, turn.points, what)

    # ----- the end of the game ----------------------------------------------------------------

    def value(self, tiles: Iterable[int]) -> int:
        return sum(self.tiles.value(t) for t in tiles)

    def unseen(self) -> Rack:
        """The tiles of a full bag that are not on the board (blanks as ``0``)."""
        pool = Counter(dict(enumerate(self.tiles.counts)))
        pool.subtract(rack_tile(t) for _, t in self.game.board.tiles())
        return tuple(sorted((+pool).elements()))

    def end_points(self, step: Step) -> None:
        # Once a player goes out, the bag is empty: the others' racks are every tile that is
        # not on the board. (Their last recorded racks may not show it: they may have drawn
        # the last tiles of the bag after their last play.)
        event = step.event
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
        if step.turn is not None:
            expected = step.turn.points * (2 if self.doubled else 1)
        else:
            expected = final_count([(), event.counted], self.tiles.values, out=0)[0]
            expected *= 2 if self.doubled else 1
        self.expect(event, expected, f"({self.rack_text(event.counted)}), worth {value},")

    def end_penalty(self, step: Step) -> None:
        event = step.event
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
        expected = step.turn.points if step.turn else final_count([counted], self.tiles.values)[0]
        self.expect(event, expected, f"a rack penalty for ({self.rack_text(counted)})")

    def time_penalty(self, step: Step) -> None:
        event = step.event
        per_minute = self.game.rules.time_control.penalty_per_minute
        if event.score >= 0 or event.score % per_minute:
            self.say(event, f"a time penalty is a loss of {per_minute} points per minute, "
                            f"recorded {event.score:+d}")
        elif step.turn is not None:
            self.expect(event, step.turn.points, "a time penalty")

    def leftovers(self) -> None:
        """The end-of-game lines of the game that the record leaves out."""
        events = self.record.events
        if not self.finished or not events or not self.game.over:
            return
        names = self.game.player_names
        for turn in self.followed.unmatched:
            if turn.kind == "rack-penalty" and self.doubled:
                continue  # counted twice in the line of the player who went out
            if turn.kind in ("rack-penalty", "end-rack", "time-penalty"):
                tiles = f" ({self.rack_text(turn.tiles)})" if turn.tiles else ""
                self.say(events[-1], f"the record leaves out {names[turn.player]}'s "
                                     f"{turn.kind}{tiles} {turn.points:+d}")
