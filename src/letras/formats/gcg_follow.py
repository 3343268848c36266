"""Following a GCG record event by event with a :class:`~letras.game.Game`.

Each event becomes the move that makes it happen: a play, a pass or an exchange by its player;
a withdrawn phony (``--``) a challenge the play failed; a challenge bonus a challenge it stood;
a pass right after a play that went out the failed challenge of that play (Macondo writes the
lost turn of a double challenge so); turns a record leaves out are passes, or lost turns when
a player moves again after their own play. Each move carries the rack the record shows
(:attr:`~letras.history.Move.rack`), so the game's racks are the record's and the seeded bag
supplies only what the record does not say; the end-of-game lines give every final rack
(:attr:`~letras.history.Move.final`). Words are never looked up: the record is the truth about
them. Where the record cannot be followed, the problem is noted and the event left out (a play
becomes a pass): :mod:`letras.formats.gcg_check` reports such problems,
:mod:`letras.formats.gcg_game` refuses the record.

The rules: a record written by letras names them (``#letras-rules``, the options that differ
from the edition's); for other records they are the edition's, with the challenge rule the
record shows (``(challenge) +5`` is ``5pt``, ``+10`` ``10pt``, ``-10`` ``penalty10``, else
``double``), the end after six scoreless turns (as Quackle, Macondo and Woogles play) instead
of rounds of passes, and a game clock when the record has time penalties.

>>> from letras.formats.gcg import read_gcg
>>> followed = follow_gcg(read_gcg('''#player1 a a
... #player2 b b
... >a: DINNVWY 8D WINDY +32 32
... >b: ADEEGIL 7C GALE +16 16
... >b: ADEEGIL -- -16 0'''))
>>> [(s.event.line, s.turn.kind if s.turn else None) for s in followed.steps]
[(3, 'play'), (4, 'play'), (5, 'withdrawn')]
>>> followed.game.scores, followed.game.player_names[followed.game.to_move]
((32, 0), 'a')
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from letras.editions import RuleOptions
from letras.errors import FormatError, IllegalPlayError, LetrasError, inner_facts
from letras.formats.gcg import EventKind, GcgEvent, GcgRecord, Rack, format_rack, place_text
from letras.formats.gcg_rules import (
    KEPT_NOTE,
    LOST_TURN_NOTE,
    RESIGNED_PRAGMA,
    RULES_PRAGMA,
    TIMEOUT_NOTE,
    record_rules,
    refusal,
)
from letras.game import Game, Player
from letras.history import Accept, Move, NoPlayEnd, Resign, Turn
from letras.lexicon import Lexicon, shipped_lexicons
from letras.play import Challenge, Exchange, Pass, Place
from letras.rack import minus as _minus
from letras.rack import played
from letras.rules import check_rack, check_shape

_END = frozenset({EventKind.END_POINTS, EventKind.END_PENALTY, EventKind.TIME_PENALTY})
_LINES = {
    EventKind.PLAY: ("play",),
    EventKind.PASS: ("pass", "lost-turn", "timeout"),
    EventKind.EXCHANGE: ("exchange",),
    EventKind.WITHDRAWN: ("withdrawn",),
    EventKind.CHALLENGE_BONUS: ("challenge-bonus", "challenge-penalty"),
    EventKind.END_POINTS: ("end-rack",),
    EventKind.END_PENALTY: ("rack-penalty",),
    EventKind.TIME_PENALTY: ("time-penalty",),
}
# Scoresheet lines that an earlier move may have made for a later event.
_LATE = frozenset({"lost-turn", "end-rack", "rack-penalty", "time-penalty"})


@dataclass
class Step:
    """What following one event of a record did.

    ``moves`` is the length of the game's history after the event; ``problems`` say where the
    record could not be followed as written (the event was then left out, or a play became a
    pass); ``turn`` is the scoresheet line the event stands for (None when the game made
    none, or the event was not followed); ``place`` a play as laid (board tiles resolved);
    ``target`` the play a withdrawal or a challenge line is about.
    """

    event: GcgEvent
    moves: int = 0
    problems: list[str] = field(default_factory=list)
    followed: bool = True
    turn: Turn | None = None
    place: Place | None = None
    target: GcgEvent | None = None


@dataclass
class FollowedRecord:
    """A record replayed as a game: the game, one :class:`Step` per event, the scoresheet lines
    that no event stands for, problems with the record as a whole, and the line where the
    record ends the game if the game goes on there (the rules would not end it)."""

    game: Game
    steps: list[Step]
    unmatched: list[Turn]
    problems: list[str]
    ends_early: int | None


def follow_gcg(
    record: GcgRecord,
    *,
    lexicon: Lexicon | None = None,
    rules: RuleOptions | None = None,
    seed: int | str = 0,
) -> FollowedRecord:
    """Replay ``record`` as a game as far as it can be followed, noting each problem (never
    raising on them). Raises :class:`~letras.errors.FormatError` only when the record needs
    tiles its edition lacks (see :func:`refusal`)."""
    why = refusal(record)
    if why is not None:
        letters = {c for e in record.errors if e.reason == "unknown-tile" for c in e.letters}
        raise FormatError(why, key="record.refused", reason=why, edition=record.edition.name,
                          letters=" ".join(sorted(letters)))
    return _Follower(record, lexicon, rules, seed).run()


def seat_nicknames(record: GcgRecord) -> list[str]:
    """The seats: the ``#player`` nicknames, else the players of the events as they come."""
    names = [p.nickname for p in record.players] or [e.player for e in record.events]
    return list(dict.fromkeys(names))


class _Follower:
    """Turns the events of a record into the moves of a game, one event at a time."""

    def __init__(self, record: GcgRecord, lexicon: Lexicon | None, rules: RuleOptions | None,
                 seed: int | str) -> None:
        self.record = record
        self.edition = record.edition
        self.events = record.events
        self.problems: list[str] = []
        if rules is None:
            try:
                rules = record_rules(record)
            except FormatError as e:
                self.problems.append(str(e))
                rules = record_rules(replace(record, pragmas=[
                    (n, v) for n, v in record.pragmas if n != RULES_PRAGMA
                ]))
        self.rules = rules
        nicks = seat_nicknames(record)[: rules.max_players]
        full = {p.nickname: p.name for p in record.players}
        self.nicks = nicks
        self.seats = {nick: i for i, nick in enumerate(nicks)}
        players = [Player(full.get(nick, nick)) for nick in nicks]
        while len(players) < max(2, rules.min_players):
            players.append(Player(f"(player {len(players) + 1})"))
        first = next((self.seats[e.player] for e in self.events if e.player in self.seats), 0)
        if lexicon is None and record.lexicon in shipped_lexicons():
            named: Lexicon | str | None = record.lexicon
        else:
            named = lexicon
        self.setup = (players, seed, named, first)
        try:
            self.game = self.new_game()
        except LetrasError as e:  # rules the record names that no game can have
            raise FormatError(f"the record cannot be replayed as a game: {e}",
                              key="record.game", **inner_facts(e)) from None
        self.moves: list[Move] = []
        self.steps: list[Step] = []
        self.pending: GcgEvent | None = None  # the play that a challenge line may be about
        self.previous: GcgEvent | None = None
        self.before_bonus: GcgEvent | None = None
        self.challenged: set[int] = set()  # lost-turn passes whose challenge was made already
        self.written: dict[int, str] = {}  # each play as written
        self.plays: dict[str, list[int]] = {}  # the plays written so
        self.notes: dict[str, list[int]] = {}  # the passes noted as lost challenging them
        for j, event in enumerate(self.events):
            if event.kind is EventKind.PLAY and isinstance(event.action, Place):
                self.written[j] = place_text(self.edition.tiles, event.action)
                self.plays.setdefault(self.written[j], []).append(j)
            elif event.kind is EventKind.PASS:
                for note in event.notes:
                    if note.startswith(LOST_TURN_NOTE):
                        self.notes.setdefault(note[len(LOST_TURN_NOTE):], []).append(j)
        self.ends_early: int | None = None
        self.ended = False

    def new_game(self) -> Game:
        players, seed, named, first = self.setup
        return Game(self.edition, players, seed=seed, lexicon=named, rules=self.rules,
                    starter=first)

    # ----- following the events ------------------------------------------------------------

    def run(self) -> FollowedRecord:
        for i, event in enumerate(self.events):
            step = Step(event)
            self.steps.append(step)
            seat = self.seats.get(event.player)
            if seat is None:
                step.problems.append(f"{event.player!r} is not a player of this game "
                                     f"({', '.join(self.nicks)})")
                step.followed = False
            else:
                self.step(i, step, seat)
            step.moves = len(self.moves)
            self.previous = event
            if event.kind is not EventKind.CHALLENGE_BONUS:
                self.before_bonus = event
        self.resign()
        game, unmatched = self.final_game()
        return FollowedRecord(game, self.steps, unmatched, self.problems, self.ends_early)

    def step(self, i: int, step: Step, seat: int) -> None:
        event = self.events[i]
        if event.kind in _END:
            self.end(i, step)
        elif event.kind is EventKind.WITHDRAWN:
            self.withdrawn(step, seat)
        elif event.kind is EventKind.CHALLENGE_BONUS:
            self.challenge_line(step, seat)
        elif i not in self.challenged:  # (a lost turn is carried out with its challenge)
            self.turn_order(seat)
            if event.kind is EventKind.PLAY:
                self.play(i, step, seat)
            elif event.kind is EventKind.EXCHANGE:
                self.exchange(step, seat)
            else:
                self.pass_(i, step, seat)

    def emit(self, step: Step | None, move: Move) -> bool:
        """Carry out ``move``; when the game refuses it, note why on ``step``."""
        try:
            self.game.follow(move)
        except LetrasError as e:
            if step is not None:
                step.problems.append(str(e))
                step.followed = False
            return False
        self.moves.append(move)
        return True

    def challenger(self, seat: int) -> int:
        """Who challenges ``seat``'s play: the player to move, unless that is ``seat``."""
        to_move = self.game.to_move
        return to_move if to_move != seat else (seat + 1) % len(self.game.players)

    def turn_order(self, seat: int) -> None:
        """A record may leave out turns: the players before ``seat`` pass, or, when ``seat``
        moves again after their own play under the double-challenge rule, lose their turn
        challenging it (some programs write no line for that)."""
        game = self.game
        for _ in game.players:
            if game.over or game.to_move == seat or game.pending_goes_out:
                return
            skipped = game.to_move
            if seat == game.pending_player and game.rules.challenge_rule == "double":
                move = Move(skipped, Challenge(), valid=True)
            else:
                move = Move(skipped, Pass())
            if not self.emit(None, move):
                return

    def play(self, i: int, step: Step, seat: int) -> None:
        event = step.event
        assert isinstance(event.action, Place)
        notation = event.action.notation(self.edition)
        board = self.game.board
        try:
            place = event.action.resolve_through(board)
            check_shape(board, place)
        except IllegalPlayError as e:
            step.problems.append(f"{notation}: {e}")
            self.emit(step, Move(seat, Pass()))
            step.followed = False
            return
        step.place = place
        laid = played(place)
        rack = list(event.rack) if event.rack is not None else laid
        try:
            check_rack(board, place, rack)
        except IllegalPlayError as e:
            step.problems.append(f"{notation}: {e}")
            rest = _minus(rack, laid)[0]
            rack = laid + list(rest[: max(0, len(self.game.rack(seat)) - len(laid))])
        move = Move(seat, place, rack=tuple(sorted(rack)))
        if not self.emit(step, move):
            self.emit(step, Move(seat, Pass()))
            step.followed = False
            return
        self.pending = event
        for j in self.lost_turns(i, seat):
            self.challenged.add(j)
            self.emit(step, Move(self.seats[self.events[j].player], Challenge(), valid=True))

    def lost_turns(self, i: int, seat: int) -> list[int]:
        """The pass that letras wrote for the turn lost by challenging play ``i`` (by a player
        other than ``seat``), if any: it comes when the challenger's turn does, which may be
        after ``seat`` plays again (when that turn was lost already)."""
        written = self.written[i]
        replayed = [j for j in self.plays.get(written, ()) if j > i]  # the same play again
        for j in self.notes.get(written, ()):
            if i < j < min(replayed, default=len(self.events)) and j not in self.challenged and (
                self.seats.get(self.events[j].player, seat) != seat
            ):
                return [j]
        return []

    def exchange(self, step: Step, seat: int) -> None:
        event = step.event
        assert isinstance(event.action, Exchange)
        tiles = list(event.action.tiles)
        rack = list(event.rack) if event.rack is not None else None
        count = event.action.count
        if rack is not None and tiles:
            rest, missing = _minus(rack, tiles)
            if missing:
                step.problems.append(
                    f"exchanges {format_rack(self.edition.tiles, missing)}, not on the rack "
                    f"{format_rack(self.edition.tiles, rack)}")
                rack = tiles + list(rest[: max(0, len(rack) - len(tiles))])
        elif rack is not None and count > len(rack):
            step.problems.append(f"exchanges {count} tiles from a rack of {len(rack)}")
            rack = None
        if not tiles:  # only the count is known: throw tiles of the rack shown, or any
            tiles = list(rack if rack is not None else self.game.rack(seat))[:count]
        move = Move(seat, Exchange(tuple(sorted(tiles))),
                    rack=tuple(sorted(rack or tiles)))
        if not self.emit(step, move):
            self.emit(step, Move(seat, Pass()))
            step.followed = False

    def pass_(self, i: int, step: Step, seat: int) -> None:
        event = step.event
        game = self.game
        rack = tuple(event.rack) if event.rack is not None else None
        if game.pending_goes_out and seat != game.pending_player:
            self.emit(step, Move(seat, Challenge(), valid=True, rack=rack))
            return
        seconds = None
        tc = self.rules.time_control
        if TIMEOUT_NOTE in event.notes and tc.kind == "move":
            seconds = tc.seconds + 1.0
        self.emit(step, Move(seat, Pass(), seconds, rack=rack))

    def withdrawn(self, step: Step, seat: int) -> None:
        """A phony taken off the board. Under the ``late_challenge`` rule a note
        (:data:`~letras.formats.gcg_rules.KEPT_NOTE`) says that it only extended a wrong word
        and its player kept the turn."""
        event, play = step.event, self.pending
        if (play is None or play is not self.previous or play.player != event.player
                or not self.game.challengeable):
            step.problems.append(
                f"a withdrawn phony (--) must follow a play by {event.player}")
            step.followed = False
            return
        step.target = play
        self.pending = None
        kept = self.game.rules.late_challenge and KEPT_NOTE in event.notes
        self.emit(step, Move(self.challenger(seat), Challenge(), valid=False,
                             kept=kept or None))

    def challenge_line(self, step: Step, seat: int) -> None:
        event, game = step.event, self.game
        if event.score >= 0:
            target = self.before_bonus
            if (target is None or target.kind is not EventKind.PLAY
                    or target.player != event.player):
                step.problems.append(
                    f"a challenge bonus goes to the player whose play stood: it must follow "
                    f"a play by {event.player}")
                step.followed = False
                return
            step.target = target
            self.emit(step, Move(self.challenger(seat), Challenge(), valid=True))
            return
        target = self.pending
        if target is None or game.pending_player in (None, seat):
            step.problems.append(
                f"a challenge penalty goes to a player who challenged a play that stood: it "
                f"must follow a play by another player than {event.player}")
            step.followed = False
            return
        step.target = target
        rack = tuple(event.rack) if event.rack is not None else None
        self.emit(step, Move(seat, Challenge(), valid=True, rack=rack))

    # ----- the end of the game ---------------------------------------------------------------

    def resign(self) -> None:
        """A player the ``#letras-resigned`` pragma names resigns after the last event."""
        named = [value for name, value in self.record.pragmas if name == RESIGNED_PRAGMA]
        if not named:
            return
        seat = self.seats.get(named[-1])
        if seat is None:
            self.problems.append(f"#{RESIGNED_PRAGMA}: {named[-1]!r} is not a player of this "
                                 f"game ({', '.join(self.nicks)})")
        elif self.game.over:
            self.problems.append(f"#{RESIGNED_PRAGMA}: the game is over already")
        elif not self.emit(None, Move(seat, Resign())):
            self.problems.append(f"#{RESIGNED_PRAGMA}: {named[-1]} cannot resign")

    def end(self, i: int, step: Step) -> None:
        if self.ended:
            return
        self.ended = True
        game = self.game
        final = tuple((p, r) for p, r in sorted(self.final_racks().items()) if r)
        if not game.over:
            waiting = game.pending_player
            if waiting is not None:  # the play stood (a challenge that failed leaves no line)
                self.emit(step, Move(waiting, Accept(), final=final))
            if (not game.over and game.rules.end_when_no_play_possible
                    and game.bag_count < game.rules.exchange_min_bag):
                self.emit(step, Move(game.to_move, NoPlayEnd(), final=final))
            if not game.over:
                self.ends_early = step.event.line
            step.followed = game.over
            return
        if self.moves:  # the last move ended the game: its final count shows these racks
            self.moves[-1] = replace(self.moves[-1], final=final)

    def final_racks(self) -> dict[int, Rack]:
        """Every final rack the end-of-game lines show, by seat."""
        ends = [e for e in self.events if e.kind in _END and e.player in self.seats]
        final = {self.seats[e.player]: e.counted for e in ends
                 if e.kind is EventKind.END_PENALTY}
        for e in ends:
            if e.kind is EventKind.END_POINTS:
                out = self.seats[e.player]
                left = [q for q in range(len(self.game.players)) if q != out and q not in final]
                if len(left) == 1:
                    shown = [t for q, r in final.items() if q != out for t in r]
                    final[left[0]] = _minus(e.counted, shown)[0]
                final.pop(out, None)
        return final

    def clock(self, moves: list[Move]) -> list[Move]:
        """``moves`` with the thinking time that gives each time penalty of the record: the
        player's last turn runs the clock over by as many minutes as the penalty counts."""
        tc = self.rules.time_control
        if tc.kind != "game":
            return moves
        moves = list(moves)
        for e in self.events:
            if e.kind is not EventKind.TIME_PENALTY or e.player not in self.seats:
                continue
            if e.score >= 0 or e.score % tc.penalty_per_minute:
                continue
            minutes = -e.score // tc.penalty_per_minute
            seat = self.seats[e.player]
            k = next((k for k in range(len(moves) - 1, -1, -1) if moves[k].player == seat
                      and isinstance(moves[k].action, (Place, Exchange, Pass))), None)
            if k is not None:
                moves[k] = replace(moves[k], seconds=tc.seconds + 60.0 * minutes - 30)
        return moves

    def final_game(self) -> tuple[Game, list[Turn]]:
        """The game of the moves found, replayed afresh, and each step's scoresheet line."""
        timed = self.clock(self.moves)
        game, made = self.replay(timed)
        if game is None:  # the racks the end shows cannot be: replay without them
            game, made = self.replay([replace(m, final=()) for m in timed])
        assert game is not None  # these moves were followed once already
        self.moves = list(game.moves)
        return game, self.match(made)

    def replay(self, moves: list[Move]) -> tuple[Game | None, list[tuple[Turn, ...]]]:
        game = self.new_game()
        made = []
        for move in moves:
            try:
                made.append(game.follow(move))
            except LetrasError as e:
                step = next((s for s in self.steps if s.event.kind in _END), None)
                (step.problems if step else self.problems).append(str(e))
                return None, []
        return game, made

    def match(self, made: list[tuple[Turn, ...]]) -> list[Turn]:
        """Give each followed step the scoresheet line it stands for; return the rest."""
        lines: list[tuple[Turn, int]] = []  # (line, index of the move that made it)
        for k, turns in enumerate(made):
            lines.extend((t, k) for t in turns)
        free = [True] * len(lines)
        start = 0
        for step in self.steps:
            kinds = _LINES[step.event.kind]
            seat = self.seats.get(step.event.player)
            if step.followed and seat is not None:
                own = [j for j, (t, k) in enumerate(lines) if start <= k < step.moves]
                late = [j for j, (t, k) in enumerate(lines) if k < step.moves
                        and t.kind in _LATE]
                for j in own + late:
                    turn = lines[j][0]
                    if free[j] and turn.player == seat and turn.kind in kinds:
                        free[j] = False
                        step.turn = turn
                        break
            start = step.moves
        return [t for (t, _), f in zip(lines, free, strict=True) if f]
