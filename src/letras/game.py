"""A game: an edition, 2-4 players, a seed and the history of moves.

The history is the record of truth. The position (board, racks, bag, scores, whose turn) is
the history replayed from the seed, so undo, replays, saved games and crash recovery are one
mechanism. A refused action raises a :class:`~letras.errors.LetrasError` and changes nothing.

>>> from letras.lexicon import WordList
>>> en = find_edition("en")
>>> game = Game(en, ["Ana", "Bruno"], seed=1, lexicon=WordList(en, ["FOND", "QI"]))
>>> game.player_names[game.to_move], en.tiles.format(game.rack(game.to_move))
('Ana', 'ADFNNOY')
>>> game.play("8H FOND").points
16

Under challenge rules a play waits for a challenge before its player draws; the next action
(or :meth:`Game.accept`) accepts it. Under the double-challenge rule (English's default), a
failed challenge costs the challenger their turn:

>>> game.challenge().kind, game.scores, game.player_names[game.to_move]
('lost-turn', (16, 0), 'Ana')
>>> en.tiles.format(game.rack(0))
'?ANNRWY'
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from letras.board import Board
from letras.editions import Edition, RuleOptions, find_edition
from letras.errors import LetrasError, RuleError
from letras.history import (
    Accept,
    EndReason,
    GameAction,
    Move,
    NoPlayEnd,
    Resign,
    Turn,
    check_held,
    check_move,
)
from letras.holding import Held, hold
from letras.lexicon import Lexicon
from letras.play import Challenge, Exchange, Pass, Place
from letras.position import Pending, Position
from letras.rack import minus
from letras.rules import extends_wrong_words, full_place, invalid_words, may_join_words, validate
from letras.tiles import rack_tile
from letras.view import PlayerView, TableView, public_facts

if TYPE_CHECKING:
    from letras.formats.gcg import GcgRecord


@dataclass(frozen=True)
class Player:
    """A seat: a name and who plays it (``human`` or ``ai:LEVEL``)."""

    name: str
    kind: str = "human"


NoPlayCheck = Callable[["Game"], bool]


class Game:
    """A game in progress (or over). See the module docstring for an example."""

    def __init__(
        self,
        edition: Edition | str = "pt-BR",
        players: Sequence[str | Player] = ("Player 1", "Player 2"),
        *,
        seed: int | str | None = None,
        lexicon: Lexicon | str | None = None,
        rules: RuleOptions | None = None,
        no_play_possible: NoPlayCheck | None = None,
        starter: int | None = None,
        held: Held = (),
    ) -> None:
        """``starter`` is the player who moves first (default: the one who draws the lowest
        tile, rules.md 3.1); ``held`` the racks a record shows after its last move (see
        :class:`~letras.history.Move`), for a game taken up from a record."""
        self.edition = find_edition(edition) if isinstance(edition, str) else edition
        self.rules = rules or self.edition.rules
        self.players = tuple(p if isinstance(p, Player) else Player(p) for p in players)
        if not self.rules.min_players <= len(self.players) <= self.rules.max_players:
            raise RuleError(
                f"{len(self.players)} players: this game needs "
                f"{self.rules.min_players} to {self.rules.max_players}",
                key="rule.players", n=len(self.players), low=self.rules.min_players,
                high=self.rules.max_players,
            )
        if starter is not None and not 0 <= starter < len(self.players):
            raise RuleError(f"no player {starter} to start: players are 0 to "
                            f"{len(self.players) - 1}", key="rule.no_player", player=starter,
                            last=len(self.players) - 1)
        self.starter = starter
        self._held = held
        self._final: Held = ()
        self.seed: int | str = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self._lexicon = lexicon if not isinstance(lexicon, str) else None
        self.lexicon_name: str = (
            lexicon if isinstance(lexicon, str)
            else lexicon.name if lexicon is not None else self.edition.name
        )
        self.no_play_possible = no_play_possible or _no_play_possible
        """The check for the end condition "no player can play" (rules.md 6.2); by default
        the move generator's."""
        self._moves: list[Move] = []
        self._replaying = False
        self._ended_by_check = False
        self._rebuild()

    # ----- the position, derived from the history -------------------------------------------

    def _rebuild(self) -> None:
        self._s, self.first_draw = Position.start(self.edition, len(self.players), self.seed,
                                                  self.starter)
        self._replay(self._moves)
        if self._held and self._s.end_reason is None:
            self._held = self._hold(self._held, lenient=True)

    def _replay(self, moves: Sequence[Move]) -> None:
        """Carry out moves already judged: words are not looked up again (the history is the
        record of truth, whatever lexicon is at hand now)."""
        self._replaying = True
        try:
            for move in moves:
                self._do(move)
        finally:
            self._replaying = False

    @property
    def lexicon(self) -> Lexicon:
        """The lexicon that judges words: the one given, else the edition's default shipped
        lexicon (loaded when first needed)."""
        if self._lexicon is None:
            from letras.lexicon import load_lexicon

            self._lexicon = load_lexicon(self.edition, self.lexicon_name)
        return self._lexicon

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.players)

    @property
    def board(self) -> Board:
        """A copy of the board (changing it does not change the game)."""
        return self._s.board.copy()

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self._s.scores)

    @property
    def to_move(self) -> int:
        return self._s.to_move

    @property
    def bag_count(self) -> int:
        return len(self._s.bag)

    @property
    def turns(self) -> tuple[Turn, ...]:
        """The scoresheet."""
        return tuple(self._s.turns)

    @property
    def moves(self) -> tuple[Move, ...]:
        """The history: every action taken, in order."""
        return tuple(self._moves)

    @property
    def over(self) -> bool:
        return self._s.end_reason is not None

    @property
    def end_reason(self) -> EndReason | None:
        """``out`` (a player went out), ``passes``, ``scoreless``, ``no-play`` or
        ``resigned``; None if on."""
        return self._s.end_reason

    @property
    def resigned(self) -> int | None:
        """The player who resigned (the game is then over), else None."""
        return self._s.resigned

    @property
    def challengeable(self) -> Place | None:
        """The last play, while it may still be challenged."""
        return self._s.pending.place if self._s.pending else None

    @property
    def may_join_words(self) -> bool:
        """May the next tile play join words already on the board (the
        ``join_words_from_turn`` rule)?"""
        return may_join_words(self.rules, self._s.plays_made + 1)

    @property
    def clocks(self) -> tuple[float, ...]:
        """Seconds each player has used."""
        return tuple(self._s.clocks)

    @property
    def pending_player(self) -> int | None:
        """Who made the play that waits for a challenge (None when no play waits). Not always
        the player of the scoresheet's last line: a lost turn may be recorded after it."""
        return self._s.pending.player if self._s.pending else None

    @property
    def pending_goes_out(self) -> bool:
        """Does the play that waits for a challenge end the game (its player's rack is empty
        and the bag is too)? Then it must be challenged or accepted before anything else."""
        pend = self._s.pending
        return pend is not None and self._s.goes_out(pend.player)

    def _pending_extends_wrong_words(self) -> bool:
        """Does the play waiting for a challenge only extend wrong words that stood
        (:func:`letras.rules.extends_wrong_words`)?"""
        pend = self._s.pending
        assert pend is not None
        before = self._s.board.copy()
        before.put((sq, 0) for sq, _ in pend.place.placed())
        return extends_wrong_words(before, pend.place, self.lexicon)

    def pending_invalid_words(self, lexicon: Lexicon | None = None) -> tuple[str, ...]:
        """The words of the play waiting for a challenge that a challenge would find invalid
        (judged by ``lexicon``, default the game's); empty when no play waits."""
        pend = self._s.pending
        if pend is None:
            return ()
        before = self._s.board.copy()
        before.put((sq, 0) for sq, _ in pend.place.placed())
        return tuple(invalid_words(before, pend.place, lexicon or self.lexicon))

    @property
    def held(self) -> Held:
        """The racks a game record showed after the last move, held until the next move (a
        game taken up from a record)."""
        return self._held

    def take_up(self, held: Held) -> None:
        """Make the racks hold what a record shows after the last move (see
        :class:`~letras.history.Move`), for a game taken up from a record."""
        check_held(held, self.edition, len(self.players))
        if held and not self.over:
            self._held = self._hold(held, lenient=True)

    @property
    def passes_in_row(self) -> int:
        """Passes (and exchanges, where they count as passes) in a row, for the end of the game
        by passes."""
        return self._s.passes_in_row

    @property
    def scoreless_in_row(self) -> int:
        """Scoreless turns in a row, for the end of the game by scoreless turns."""
        return self._s.scoreless_in_row

    def rack(self, player: int) -> tuple[int, ...]:
        """A player's rack. Only for the table itself: give players :meth:`view`."""
        return tuple(self._s.racks[self._seat(player)])

    def _seat(self, player: int) -> int:
        if not 0 <= player < len(self.players):
            last = len(self.players) - 1
            raise RuleError(f"no player {player} in this game (players are 0 to {last})",
                            key="rule.no_player", player=player, last=last)
        return player

    def winners(self) -> list[int]:
        """The players with the highest score (several on a tie); a player who resigned
        never wins (rules.md 6.5)."""
        scores = self._s.scores
        contenders = [p for p in range(len(scores)) if p != self._s.resigned]
        best = max(scores[p] for p in contenders)
        return [p for p in contenders if scores[p] == best]

    def ranking(self) -> list[int]:
        """Every player, first to last: by score (a tie in seat order), a player who resigned
        last whatever their score (rules.md 6.5)."""
        scores = self._s.scores
        return sorted(range(len(scores)), key=lambda p: (p == self._s.resigned, -scores[p]))

    def view(self, player: int) -> PlayerView:
        """What ``player`` may see: the public facts and their own rack."""
        self._seat(player)
        return PlayerView(**public_facts(self, player), player=player,
                          rack=tuple(self._s.racks[player]))

    def spectator_view(self) -> TableView:
        """What a spectator may see: no rack; every rack counts as unseen."""
        return TableView(**public_facts(self, None))

    # ----- actions ----------------------------------------------------------------------------

    def apply(
        self,
        action: GameAction,
        player: int | None = None,
        *,
        seconds: float | None = None,
        valid: bool | None = None,
    ) -> Turn | None:
        """Take an action for ``player`` (default: the player to move, or for a challenge the
        next player). ``valid`` judges a challenge by hand (default: the lexicon).
        Returns the scoresheet line it made, if any. Anything but an action (or a tile code
        the edition lacks, a thinking time that is not a finite number) is refused first."""
        player = self._s.to_move if player is None else self._seat(player)
        move = Move(player, action, seconds, valid)
        check_move(move, self.edition, len(self.players))
        before = len(self._s.turns)
        self._ended_by_check = False
        try:
            recorded = self._do(move)
        except LetrasError:
            self._rebuild()
            raise
        self._moves.append(recorded)
        if self._ended_by_check:
            self._moves.append(Move(player, NoPlayEnd()))
        made = self._s.turns[before:]
        return made[0] if made else None

    def play(self, play: str | Place, *, seconds: float | None = None) -> Turn:
        """Lay tiles for the player to move: ``game.play("8D WINDY")``."""
        place = play if isinstance(play, Place) else Place.parse(play, self.edition, self._s.board)
        turn = self.apply(place, seconds=seconds)
        assert turn is not None
        return turn

    def exchange(self, tiles: str | Sequence[int], *, seconds: float | None = None) -> Turn:
        """Exchange tiles of the player to move: ``game.exchange("QV?")``."""
        codes = (
            self.edition.tiles.parse(tiles, rack=True) if isinstance(tiles, str) else tuple(tiles)
        )
        turn = self.apply(Exchange(tuple(codes)), seconds=seconds)
        assert turn is not None
        return turn

    def pass_turn(self, *, seconds: float | None = None) -> Turn:
        turn = self.apply(Pass(), seconds=seconds)
        assert turn is not None
        return turn

    def challenge(self, by: int | None = None, *, valid: bool | None = None) -> Turn | None:
        """``by`` (default: the player to move) challenges the last play."""
        return self.apply(Challenge(), by, valid=valid)

    def resign(self, player: int | None = None, *, seconds: float | None = None) -> Turn:
        """``player`` (default: the player to move) resigns: the game ends at once and they
        lose (rules.md 6.5). Any player may resign while the game is not over."""
        turn = self.apply(Resign(), player, seconds=seconds)
        assert turn is not None
        return turn

    def accept(self) -> None:
        """Accept the last play without a challenge (its player draws)."""
        self.apply(Accept(), self._s.pending.player if self._s.pending else None)

    def replay(self, n: int) -> Game:
        """A new game holding the first ``n`` moves of this one (undo, examine mode); when the
        next move says which racks a record showed before it, they are held."""
        if not 0 <= n <= len(self._moves):
            raise RuleError(f"no position after {n} moves: the game has {len(self._moves)}",
                            key="rule.no_position", n=n, moves=len(self._moves))
        game = Game(
            self.edition,
            self.players,
            seed=self.seed,
            lexicon=self._lexicon or self.lexicon_name,
            rules=self.rules,
            no_play_possible=self.no_play_possible,
            starter=self.starter,
        )
        game._replay(self._moves[:n])
        game._moves.extend(self._moves[:n])
        # The racks a record shows for the next move are held already (examining a record).
        held = self._held
        if n < len(self._moves):
            upcoming = self._moves[n]
            mover = ((upcoming.player, upcoming.rack),) if upcoming.rack else ()
            held = mover + upcoming.others
        if held and not game.over:
            game._held = game._hold(held, lenient=True)
        return game

    def follow(self, move: Move) -> tuple[Turn, ...]:
        """Carry out a move already judged, as a replay does (a game record or another table
        is the truth about it): words are not looked up, and the end "no player can play"
        comes only as a :class:`~letras.history.NoPlayEnd` move. Returns the scoresheet lines
        it made; a refused move raises and changes nothing."""
        check_move(move, self.edition, len(self.players))
        before = len(self._s.turns)
        self._replaying = True
        try:
            recorded = self._do(move)
        except LetrasError:
            self._replaying = False
            self._rebuild()
            raise
        finally:
            self._replaying = False
        self._moves.append(recorded)
        return tuple(self._s.turns[before:])

    # ----- carrying out a move (on failure the caller rebuilds the position) ------------------

    def _do(self, move: Move) -> Move:
        """Carry out a move: first make the racks hold what it says a record showed, then act.
        Returns the move as recorded (a challenge with its verdict)."""
        if self._s.end_reason is not None:
            raise RuleError("the game is over", key="rule.over")
        if self._held and not self._replaying:
            held = dict(self._held)
            move = replace(move, rack=move.rack or held.pop(move.player, None),
                           others=move.others or tuple(held.items()))
        self._hold(((move.player, move.rack),) if move.rack else ())
        self._hold(move.others)
        self._final = move.final
        try:
            recorded = self._act(move)
        finally:
            self._final = ()
        if not self._replaying:
            self._held = ()
        return recorded

    def _hold(self, wants: Held, *, lenient: bool = False) -> Held:
        """Make the racks hold what a record shows (:func:`letras.holding.hold`)."""
        for p, _ in wants:
            self._seat(p)
        s = self._s
        return hold(s.racks, s.bag, s.known, wants, self.edition.tiles, self.player_names,
                    lenient=lenient)

    def _act(self, move: Move) -> Move:
        s = self._s
        a = move.action
        if isinstance(a, Challenge):
            return self._challenge(move)
        if isinstance(a, NoPlayEnd):
            if not self._replaying:
                raise RuleError("the game ends by itself when no player can play",
                                key="rule.no_play_end")
            self._finish("no-play")
            return move
        if isinstance(a, Resign):
            self._resign(move)
            return move
        if isinstance(a, Accept):
            if s.pending is None:
                raise RuleError("there is no play waiting for a challenge", key="challenge.nothing")
            self._accept_pending()
            self._check_end()
            return move
        if move.player != s.to_move:
            raise RuleError(
                f"it is {self.players[s.to_move].name}'s turn, "
                f"not {self.players[move.player].name}'s",
                key="rule.not_your_turn", name=self.players[s.to_move].name,
                player=self.players[move.player].name,
            )
        if s.pending and self._s.goes_out(s.pending.player):
            raise RuleError("the last play ends the game: challenge it or accept it",
                            key="rule.settle_first")
        self._accept_pending()
        if self._over_time(move):
            s.record(Turn(move.player, "timeout", 0, s.scores[move.player],
                          rack=tuple(s.racks[move.player])))
            s.scoreless_in_row += 1
            s.passes_in_row += 1  # a lost turn, scored as a pass: it counts as one (rules.md 6.3)
        elif isinstance(a, Place):
            self._place(move.player, a)
        elif isinstance(a, Exchange):
            self._exchange(move.player, a)
        else:
            s.record(Turn(move.player, "pass", 0, s.scores[move.player],
                          rack=tuple(s.racks[move.player])))
            s.passes_in_row += 1
            s.scoreless_in_row += 1
        if move.seconds:
            s.clocks[move.player] += move.seconds
        if s.end_reason is None:
            s.advance()
            self._check_end()
        return move

    def _resign(self, move: Move) -> None:
        """rules.md 6.5: a play waiting for a challenge stands (nobody draws: the game is
        over); no final count."""
        s = self._s
        s.pending = None
        s.lose_turn.clear()
        if move.seconds:
            s.clocks[move.player] += move.seconds
        s.record(Turn(move.player, "resign", 0, s.scores[move.player]))
        s.end_reason = "resigned"
        s.resigned = move.player

    def _over_time(self, move: Move) -> bool:
        tc = self.rules.time_control
        return tc.kind == "move" and move.seconds is not None and move.seconds > tc.seconds

    def _place(self, player: int, place: Place) -> None:
        s = self._s
        rack = s.racks[player]
        void = self.rules.challenge_rule == "void"
        lexicon = self.lexicon if void and not self._replaying else None
        score = validate(
            s.board, place, rack=rack, lexicon=lexicon, rules=self.rules, turn=s.plays_made + 1
        )
        place = full_place(s.board, place)
        s.board.put(place.placed())
        for _, t in place.placed():
            rack.remove(rack_tile(t))
            if rack_tile(t) in s.known[player]:
                s.known[player].remove(rack_tile(t))
        s.scores[player] += score.total
        s.plays_made += 1
        s.record(
            Turn(player, "play", score.total, s.scores[player],
                 rack=tuple(sorted(rack + [rack_tile(t) for _, t in place.placed()])),
                 place=place, score=score)
        )
        scoreless_before = s.scoreless_in_row
        s.passes_in_row = 0
        s.scoreless_in_row = 0 if score.total else s.scoreless_in_row + 1
        s.pending = Pending(player, place, score, scoreless_before)
        if void:
            self._accept_pending()

    def _exchange(self, player: int, exchange: Exchange) -> None:
        s = self._s
        rack = s.racks[player]
        if not exchange.tiles:
            raise RuleError("say which tiles to exchange", key="exchange.which")
        need = max(self.rules.exchange_min_bag, len(exchange.tiles))  # as many to draw
        if len(s.bag) < need:
            raise RuleError(
                f"exchanges need at least {need} tiles in the bag; it holds {len(s.bag)}",
                key="exchange.bag", min=need, n=len(s.bag),
            )
        left = list(rack)
        for t in exchange.tiles:
            if t not in left:
                raise RuleError(
                    f"cannot exchange {self.edition.tiles.format(exchange.tiles)}: "
                    f"the rack is {self.edition.tiles.format(rack)}",
                    key="exchange.not_on_rack", tiles=self.edition.tiles.format(exchange.tiles),
                    rack=self.edition.tiles.format(rack),
                )
            left.remove(t)
        before = tuple(rack)
        drawn = s.bag.draw(len(exchange.tiles))
        s.bag.put_back(exchange.tiles)
        s.racks[player] = sorted(left + drawn)
        s.known[player] = list(minus(s.known[player], exchange.tiles)[0])
        s.record(Turn(player, "exchange", 0, s.scores[player], rack=before,
                      tiles=exchange.tiles, count=len(exchange.tiles)))
        s.scoreless_in_row += 1
        s.passes_in_row = s.passes_in_row + 1 if self.rules.exchange_counts_as_pass else 0

    def _challenge(self, move: Move) -> Move:
        s = self._s
        if self.rules.challenge_rule == "void":
            raise RuleError("under the void rule words are checked when played: no challenges",
                            key="challenge.void")
        pend = s.pending
        if pend is None:
            raise RuleError("there is no play to challenge", key="challenge.nothing")
        if move.player == pend.player:
            raise RuleError("players cannot challenge their own play", key="challenge.own")
        valid, kept = move.valid, bool(move.kept)
        if valid is None:  # judged here: both verdicts from the lexicon (a given one has both)
            valid = not self.pending_invalid_words()
            kept = not valid and self.rules.late_challenge and self._pending_extends_wrong_words()
        judged = replace(move, valid=valid, kept=None if valid else kept or None)
        if not valid:
            s.withdraw(kept=kept)
            return judged
        rule = self.rules.challenge_rule
        if rule in ("5pt", "10pt"):
            bonus = 5 if rule == "5pt" else 10
            s.scores[pend.player] += bonus
            s.record(Turn(pend.player, "challenge-bonus", bonus, s.scores[pend.player]))
        elif rule == "penalty10":
            s.scores[move.player] -= 10
            s.record(Turn(move.player, "challenge-penalty", -10, s.scores[move.player]))
        self._accept_pending()
        if rule == "double" and s.end_reason is None:
            if move.player == s.to_move:
                s.lose_this_turn(move.player, pend.place)
                s.advance()
            else:
                s.lose_turn[move.player] = pend.place
        self._check_end()
        return judged

    def _accept_pending(self) -> None:
        out = self._s.accept_pending(self.edition.rack_size)
        if out is not None:
            self._finish("out", out)

    def _check_end(self) -> None:
        s = self._s
        if s.end_reason is not None or s.pending is not None:
            return
        rules = self.rules
        if rules.pass_rounds_to_end and (
            s.passes_in_row >= rules.pass_rounds_to_end * len(self.players)
        ):
            self._finish("passes")
        elif rules.scoreless_turns_to_end and s.scoreless_in_row >= rules.scoreless_turns_to_end:
            self._finish("scoreless")
        elif (
            rules.end_when_no_play_possible
            and not self._replaying
            and len(s.bag) < rules.exchange_min_bag
            and self.no_play_possible(self)
        ):
            self._finish("no-play")
            self._ended_by_check = True

    def _finish(self, reason: EndReason, out: int | None = None) -> None:
        s = self._s
        s.end_reason = reason
        self._hold(self._final)  # the racks a record's final count shows
        s.count_end(self.edition.tiles.values, out, self.rules.time_control)

    # ----- saving (letras.saved) --------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The game as a ``letras-game`` document (:mod:`letras.saved`)."""
        from letras.saved import game_to_dict

        return game_to_dict(self)

    def to_json(self) -> str:
        """The whole game as JSON: settings, seed and history (the position is derived)."""
        from letras.saved import game_to_json

        return game_to_json(self)

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        *,
        lexicon: Lexicon | None = None,
        no_play_possible: NoPlayCheck | None = None,
    ) -> Game:
        """Load a game saved by :meth:`to_dict`; without ``lexicon``, the one it names. A bad
        document raises :class:`~letras.errors.FormatError` (:mod:`letras.saved`)."""
        from letras.saved import game_from_dict

        return game_from_dict(data, lexicon=lexicon, no_play_possible=no_play_possible)

    @classmethod
    def from_json(
        cls,
        text: str | bytes,
        *,
        lexicon: Lexicon | None = None,
        no_play_possible: NoPlayCheck | None = None,
    ) -> Game:
        """Load a game saved by :meth:`to_json`; without ``lexicon``, the one it names."""
        from letras.saved import game_from_json

        return game_from_json(text, lexicon=lexicon, no_play_possible=no_play_possible)

    @classmethod
    def from_gcg(
        cls,
        record: str | bytes | GcgRecord,
        lexicon: Lexicon | None = None,
        edition: Edition | str | None = None,
        *,
        rules: RuleOptions | None = None,
        seed: int | str | None = None,
    ) -> Game:
        """The game a GCG record tells (Quackle, Macondo, Woogles or letras): its history
        replays the record, with the racks it shows, the phonies withdrawn, challenge bonuses,
        passes, exchanges and the final count; the seeded bag supplies only the tiles the record
        does not show. Words are not looked up: the record is the truth about them. A record
        that stops before the end gives a game to play on. ``edition`` is the tile set to read
        with (default: from the record); ``rules`` default to those a letras record names, else
        to the edition's with what the record shows (see :mod:`letras.formats.gcg_rules`).
        Raises :class:`~letras.errors.FormatError`, naming the line, when the record cannot be
        followed."""
        from letras.formats.gcg_game import game_from_gcg

        found = edition if not isinstance(edition, str) else find_edition(edition)
        return game_from_gcg(record, lexicon=lexicon, edition=found, rules=rules, seed=seed)


def _no_play_possible(game: Game) -> bool:
    # The move generator sits above the game; it is asked only at the end of a game, so it is
    # imported only then (the one call upwards, through this hook).
    from letras.movegen import no_play_possible

    racks = [game.rack(p) for p in range(len(game.players))]
    return no_play_possible(game.board, racks, game.lexicon, join_words=game.may_join_words)


__all__ = ["Game", "Player", "PlayerView", "TableView"]
