"""The game at a table: seats, turns, challenges, clocks, undo and hints, with no I/O.

A :class:`Table` holds a :class:`~letras.game.Game`, its seats (people and AI levels) and the
word graph. Front ends ask it what it waits for (:meth:`Table.step`), pass on what people do
(:meth:`Table.act`, :meth:`Table.challenge`, :meth:`Table.accept`, :meth:`Table.undo`,
:meth:`Table.resign`), let
the computer move (:meth:`Table.ai_turn`, or :meth:`Table.ai_request` and
:meth:`Table.ai_apply` from a worker process), and show the :class:`~letras.table.events.Event`
each call returns. A refused action raises a :class:`~letras.errors.LetrasError` whose ``key``
and ``values`` say why, and changes nothing.

The table's rules, beyond the game's:

- After a play, **every other person** may challenge it until the next move is made. When the
  next seat is a computer it waits: each other person challenges or accepts
  (:class:`Step` ``window``). A play that goes out is settled (challenged or accepted by every
  other person, ``settle``) before the final count.
- A computer seat challenges a person's play when a word is not in its lexicon (the first
  computer seat after the player).
- ``undo`` takes back a person's last action and the computer's replies: never another
  person's move, never in a game with a clock.
- The table keeps the clocks: a turn's time runs from the moment it begins.

>>> from letras.editions import find_edition
>>> from letras.game import Game, Player
>>> from letras.lexicon import WordList
>>> en = Game("en", [Player("Ana"), Player("Bot", "ai:greedy")], seed=1,
...           lexicon=WordList(find_edition("en"), ["FOND", "FONDA"]))
>>> table = Table(en, en.lexicon)
>>> table.step()
Step(kind='move', seat=0, may_challenge=())
>>> [e.key for e in table.act(0, "8H FOND")]
['event.play']
>>> table.step().kind, table.step().seat
('ai', 1)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from letras.errors import LetrasError
from letras.game import Game
from letras.history import Accept, NoPlayEnd
from letras.lexicon import Lexicon
from letras.play import Action, Challenge, Exchange, Pass, Place
from letras.rack import leave
from letras.rules import invalid_words
from letras.table.errors import TableError
from letras.table.events import Event, end_events, turn_events
from letras.table.seats import ai_seed, is_ai, level_of
from letras.table.text import play_text
from letras.view import PlayerView

if TYPE_CHECKING:
    from letras.ai import Limit
    from letras.ai.player import Player as AIPlayer
    from letras.lexicon.kwg import WordGraph

StepKind = Literal["move", "ai", "window", "settle", "over"]
MAX_HINTS = 20
CASUAL_LEVELS = frozenset({"random", "easy", "medium"})
"""Computer levels against which a person is asked before a word outside the lexicon is played
(the table's ``confirm_unknown_words`` default)."""
WARN_GAME_SECONDS = 120.0
"""A game clock warns when this little time is left."""
WARN_MOVE_FRACTION = 0.2
"""A per-move limit warns when this share of it is left."""


@dataclass(frozen=True)
class Step:
    """What the table waits for.

    - ``move``: ``seat`` (a person) to move; ``may_challenge`` who may challenge the last play
      first;
    - ``ai``: the computer in ``seat`` to move (:meth:`Table.ai_turn`);
    - ``window``: a computer is to move, and the people in ``may_challenge`` may still
      challenge the play of ``seat``: each challenges or accepts;
    - ``settle``: the play of ``seat`` goes out: the people in ``may_challenge`` challenge it
      or accept it before the final count;
    - ``over``: the game is over.
    """

    kind: StepKind
    seat: int | None = None
    may_challenge: tuple[int, ...] = ()


@dataclass(frozen=True)
class Clock:
    """A seat's clock: seconds used (this turn included), seconds left on a game clock, seconds
    left of this move under a per-move limit, and whether little time is left."""

    used: float
    left: float | None
    move_left: float | None
    warning: bool

    def warns_in(self, limit: float) -> float | None:
        """Seconds from now until the warning starts (0: it is on; None: no clock runs). A
        front end that waits for a person schedules its warning with it; ``limit`` is the time
        control's seconds."""
        if self.move_left is not None:
            return max(0.0, self.move_left - WARN_MOVE_FRACTION * limit)
        if self.left is not None:
            return max(0.0, self.left - WARN_GAME_SECONDS)
        return None


@dataclass(frozen=True)
class Hint:
    """One of the best plays for a rack: the play, its score and the tiles it keeps."""

    place: Place
    points: int
    leave: tuple[int, ...]


@dataclass(frozen=True)
class AIRequest:
    """What a computer seat needs to choose its move: its view and its limit."""

    seat: int
    level: str
    seed: int
    view: PlayerView
    seconds: float


class Table:
    """A game at a table (see the module docstring)."""

    def __init__(
        self,
        game: Game,
        lexicon: WordGraph | Lexicon,
        *,
        ai_seconds: float = 2.0,
        now: Callable[[], float] = time.monotonic,
        confirm_unknown_words: bool | None = None,
    ) -> None:
        self.game = game
        self.lexicon = lexicon
        self.ai_seconds = ai_seconds
        self.now = now
        self.ai_levels = {seat: level_of(p) for seat, p in enumerate(game.players) if is_ai(p)}
        self.people = tuple(seat for seat, p in enumerate(game.players) if not is_ai(p))
        if confirm_unknown_words is None:
            confirm_unknown_words = len(self.people) == 1 and bool(self.ai_levels) and all(
                level in CASUAL_LEVELS for level in self.ai_levels.values())
        self.confirm_unknown_words = confirm_unknown_words
        """Should a front end ask a person before a play with a word outside the lexicon is
        made? (Under the challenge rules the game itself would take it.)"""
        self.log: list[Event] = []
        """Every event so far, in order."""
        self._ai: dict[int, AIPlayer] = {}
        self._declined: tuple[int, frozenset[int]] = (-1, frozenset())
        self._ai_checked = -1
        self._ended = False
        self._clock_seat = game.to_move
        self._clock_start = now()
        self._record(self._auto())

    # ----- what the table waits for -------------------------------------------------------

    def is_ai(self, seat: int) -> bool:
        return seat in self.ai_levels

    def step(self) -> Step:
        game = self.game
        if game.over:
            return Step("over")
        pending = game.pending_player
        window: tuple[int, ...] = ()
        if pending is not None:
            declined = self._declined_now()
            window = tuple(p for p in self.people if p != pending and p not in declined)
            if game.pending_goes_out:
                return Step("settle", pending, window)
            if game.to_move in self.ai_levels and window:
                return Step("window", pending, window)
        seat = game.to_move
        if seat in self.ai_levels:
            return Step("ai", seat)
        return Step("move", seat, window)

    # ----- what people do -----------------------------------------------------------------

    def act(self, seat: int, action: Action | str) -> list[Event]:
        """A person's play, exchange or pass (a play may be given as notation:
        ``"8H CASA"``)."""
        game = self.game
        self._person(seat)
        if isinstance(action, str):
            action = Place.parse(action, game.edition, game.board)
        if isinstance(action, Challenge):
            return self.challenge(seat)
        return self._apply(seat, action)

    def challenge(self, seat: int) -> list[Event]:
        """``seat`` (a person) challenges the play waiting for a challenge."""
        game = self.game
        self._person(seat)
        if game.rules.challenge_rule == "void":
            raise TableError("challenge.void")
        player = game.pending_player
        place = game.challengeable
        if player is None or place is None:
            raise TableError("challenge.nothing")
        if seat == player:
            raise TableError("challenge.own")
        events = self._challenge(seat, player, place, key="challenge.by")
        return self._record(events + self._auto())

    def accept(self, seat: int) -> list[Event]:
        """``seat`` (a person) lets the play waiting for a challenge stand. Once every other
        person has, a play that goes out is accepted and the game is counted."""
        game = self.game
        self._person(seat)
        if game.pending_player is None:
            raise TableError("challenge.nothing")
        self._declined = (len(game.moves), self._declined_now() | {seat})
        return self._record(self._auto())

    def resign(self, seat: int) -> list[Event]:
        """``seat`` (a person) resigns, whoever is to move, even while a play waits for a
        challenge (it stands): the game ends at once and ``seat`` loses (rules.md 6.5). The
        events are ``event.resigned``, then the end (``end.reason.resigned``, the count's
        lines, ``count.winner_resigned`` or ``count.tie``)."""
        game = self.game
        self._person(seat)
        before = len(game.turns)
        game.resign(seat, seconds=self._seconds(seat))
        return self._record(turn_events(game, game.turns[before:]) + self._auto())

    @property
    def declined(self) -> frozenset[int]:
        """The people who let the play waiting for a challenge stand (by :meth:`accept`)."""
        return self._declined_now()

    def close_window(self) -> list[Event]:
        """Every person lets the play waiting for a challenge stand (a front end's time limit
        for challenges ran out)."""
        if self.game.pending_player is None:
            return []
        self._declined = (len(self.game.moves), frozenset(self.people))
        return self._record(self._auto())

    def unknown_words(self, place: Place | str) -> tuple[str, ...]:
        """The words of a play that the lexicon lacks (for the confirmation a front end offers
        when :attr:`confirm_unknown_words` is on); the play is not made."""
        game = self.game
        board = game.board
        if isinstance(place, str):
            place = Place.parse(place, game.edition, board)
        return tuple(invalid_words(board, place.resolve_through(board), self.lexicon))

    def undo(self, seat: int) -> list[Event]:
        """Take back ``seat``'s last action and the computer's replies."""
        self._person(seat)
        if self.game.rules.time_control.kind != "none":
            raise TableError("undo.clock")
        keep = self.undo_point(seat)
        if keep is None:
            raise TableError("undo.none")
        taken = len(self.game.moves) - keep
        self.game = self.game.replay(keep)
        self._declined = (-1, frozenset())
        self._ai_checked = len(self.game.moves)
        self._ended = False
        self._restart_clock()
        return self._record([Event("undo.done", {"player": seat, "n": taken})])

    def undo_point(self, seat: int) -> int | None:
        """How many moves to keep to take back ``seat``'s last action and the computer's
        replies; None when another person moved since (or nothing to take back)."""
        moves = self.game.moves
        for i in range(len(moves) - 1, -1, -1):
            move = moves[i]
            if isinstance(move.action, (Accept, NoPlayEnd)):
                continue
            if move.player == seat and isinstance(move.action, (Place, Exchange, Pass, Challenge)):
                return i
            if move.player not in self.ai_levels:
                return None
        return None

    def hints(self, seat: int, n: int = 5) -> list[Hint]:
        """The ``n`` best plays by score for ``seat``'s rack."""
        from letras.movegen import top_plays

        self._person(seat)
        if not 1 <= n <= MAX_HINTS:
            raise TableError("hint.count", max=MAX_HINTS)
        game = self.game
        board, rack = game.board, game.rack(seat)
        found = top_plays(board, rack, self._graph(), n, bingo_bonus=game.rules.bingo_bonus,
                          join_words=game.may_join_words)
        return [Hint(place, points, tuple(sorted(leave(rack, place))))
                for place, points in found]

    # ----- the computer -------------------------------------------------------------------

    def ai_request(self) -> AIRequest:
        """What the computer to move needs to choose (for a worker process)."""
        step = self.step()
        if step.kind != "ai" or step.seat is None:
            raise TableError("table.not_ai")
        seat = step.seat
        return AIRequest(seat, self.ai_levels[seat], ai_seed(self.game.seed, seat),
                         self.game.view(seat), self.ai_time(seat))

    def ai_turn(self) -> list[Event]:
        """The computer to move chooses and makes its move."""
        from letras.ai import Limit, get_player

        request = self.ai_request()
        player = self._ai.get(request.seat)
        if player is None:
            player = get_player(request.level, self._graph(), seed=request.seed)
            self._ai[request.seat] = player
        limit: Limit = Limit(seconds=request.seconds)
        choice = player.choose(request.view, limit)
        return self.ai_apply(request.seat, choice)

    def ai_apply(self, seat: int, action: Action) -> list[Event]:
        """Make the move a computer seat chose; a move the game refuses becomes a pass."""
        step = self.step()
        if step.kind != "ai" or step.seat != seat:
            raise TableError("table.not_ai")
        try:
            return self._apply(seat, action)
        except LetrasError as e:
            # The reason is named by its key only: its English text may name the rack.
            refused = Event("ai.refused", {"player": seat, "name": self.game.player_names[seat],
                                           "refused": e.key})
            return [self._record([refused])[0], *self._apply(seat, Pass())]

    def ai_time(self, seat: int) -> float:
        """Seconds the computer in ``seat`` may think: the table's setting, within its share
        of a clock."""
        tc = self.game.rules.time_control
        seconds = self.ai_seconds
        if tc.kind == "move":
            seconds = min(seconds, tc.seconds * 0.8)
        elif tc.kind == "game":
            left = tc.seconds - self.game.clocks[seat]
            view = self.game.view(seat)
            turns_left = 2 + (view.bag_count + sum(view.rack_counts)) / (
                3.5 * len(self.game.players))
            seconds = min(seconds, max(0.05, left / turns_left))
        return seconds

    # ----- clocks -------------------------------------------------------------------------

    def clock(self, seat: int) -> Clock:
        game = self.game
        tc = game.rules.time_control
        used = game.clocks[seat]
        running = seat == self._clock_seat and not game.over and tc.kind != "none"
        this_move = self.now() - self._clock_start if running else 0.0
        used += this_move
        left = tc.seconds - used if tc.kind == "game" else None
        move_left = tc.seconds - this_move if tc.kind == "move" and running else None
        warning = (left is not None and left < WARN_GAME_SECONDS) or (
            move_left is not None and move_left < WARN_MOVE_FRACTION * tc.seconds)
        return Clock(used, left, move_left, warning)

    def clocks(self) -> tuple[Clock, ...]:
        return tuple(self.clock(p) for p in range(len(self.game.players)))

    def restart_clock(self) -> None:
        """Start the turn's time now (a front end that shows the table to the next person
        only when they sit down)."""
        self._restart_clock()

    # ----- inside -------------------------------------------------------------------------

    def _graph(self) -> WordGraph:
        from letras.lexicon.kwg import WordGraph

        if not isinstance(self.lexicon, WordGraph):
            raise TableError("table.no_graph")
        return self.lexicon

    def _person(self, seat: int) -> None:
        game = self.game
        if not 0 <= seat < len(game.players):
            raise TableError("table.no_seat", seat=seat)
        if seat in self.ai_levels:
            raise TableError("table.ai_seat", name=game.player_names[seat])
        if game.over:
            raise TableError("rule.over")

    def _declined_now(self) -> frozenset[int]:
        """The people who let the play waiting for a challenge stand (none once the game
        moved on)."""
        moves, declined = self._declined
        return declined if moves == len(self.game.moves) else frozenset()

    def _seconds(self, seat: int) -> float | None:
        if self.game.rules.time_control.kind == "none":
            return None
        return self.now() - self._clock_start if seat == self._clock_seat else 0.0

    def _restart_clock(self) -> None:
        self._clock_seat = self.game.to_move
        self._clock_start = self.now()

    def _apply(self, seat: int, action: Action) -> list[Event]:
        game = self.game
        before = len(game.turns)
        to_move = game.to_move
        game.apply(action, seat, seconds=self._seconds(seat))
        if game.to_move != to_move:
            self._restart_clock()
        events = turn_events(game, game.turns[before:])
        return self._record(events + self._auto())

    def _challenge(self, by: int, player: int, place: Place, *, key: str) -> list[Event]:
        """The challenge and what it did (not yet in the log)."""
        game = self.game
        bad = game.pending_invalid_words(self.lexicon)
        board = game.board
        events = [Event(key, {"player": by, "name": game.player_names[by],
                              "challenged": player, "play": play_text(place, board),
                              "words": list(bad)})]
        before = len(game.turns)
        to_move = game.to_move
        game.challenge(by)
        if bad:
            events.append(Event("challenge.won", {"player": player, "words": list(bad)}))
            if game.moves[-1].kept:  # the late challenge rule: the player plays again
                events.append(Event("challenge.again",
                                    {"player": player, "name": game.player_names[player]}))
        else:
            events.append(Event("challenge.lost", {"player": by}))
            if game.rules.challenge_rule == "double" and by != to_move and not game.over:
                events.append(Event("challenge.lose_next",
                                    {"player": by, "name": game.player_names[by]}))
        if game.to_move != to_move:
            self._restart_clock()
        return events + turn_events(game, game.turns[before:])

    def _auto(self) -> list[Event]:
        """What the table does by itself: a computer challenges a person's phony; a play that
        goes out and that nobody may challenge is accepted; the final count."""
        events: list[Event] = []
        while not self.game.over:
            game = self.game
            player = game.pending_player
            place = game.challengeable
            if player is None or place is None:
                break
            if player not in self.ai_levels and self._ai_checked != len(game.moves):
                self._ai_checked = len(game.moves)
                by = self._ai_challenger(player)
                if by is not None:
                    events += self._challenge(by, player, place, key="challenge.by_ai")
                    continue
            step = self.step()
            if step.kind == "settle" and not step.may_challenge:
                before = len(game.turns)
                game.accept()
                events += turn_events(game, game.turns[before:])
                continue
            break
        if self.game.over and not self._ended:
            self._ended = True
            events += end_events(self.game)
        return events

    def _ai_challenger(self, player: int) -> int | None:
        """The first computer seat after ``player`` when the play waiting for a challenge
        has a word outside the lexicon."""
        game = self.game
        if not self.ai_levels or game.rules.challenge_rule == "void":
            return None
        if not game.pending_invalid_words(self.lexicon):
            return None
        n = len(game.players)
        return next((s for k in range(1, n) if (s := (player + k) % n) in self.ai_levels), None)

    def _record(self, events: Sequence[Event]) -> list[Event]:
        self.log.extend(events)
        return list(events)


__all__ = ["CASUAL_LEVELS", "AIRequest", "Clock", "Hint", "Step", "StepKind", "Table"]
