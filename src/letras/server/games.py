"""The web app's games: in memory while in use, judged by the table, committed before anyone
is told.

A game is loaded from the database the first time it is asked for (its settings and moves
replayed into a :class:`letras.table.Table`, with the word graph of its lexicon, loaded once
per process). Every action is checked by the table; the moves it adds are appended to the
database **before** any answer or notification, and when the database fails the game is
dropped from memory, so that it is read again as stored: no state exists that the database
does not hold. Actions on one game are serialised by its lock.

Computer seats think in the worker pool (:mod:`letras.server.ai_pool`) while the game's lock
is free, so people's actions are answered at once; a move found stale when it comes back
(the game moved meanwhile) is thrown away and asked again. A challenge ``window`` or a
``settle`` that nobody answers is closed after ``window_seconds``; the window is stored when
it opens (its time, then who accepted), so a restart goes on with the time it had left.

Every seat gets its own state (:meth:`GameService.state`): its view (a spectator's without a
token), what the table waits for and the events said in the reader's language. Subscribers
(websockets) get a state after every change, with only the new events.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from letras.editions import find_edition
from letras.errors import LetrasError, UnknownEditionError
from letras.game import Game
from letras.history import Turn
from letras.i18n import messages
from letras.lexicon.kwg import WordGraph
from letras.play import Exchange, Pass, Place
from letras.server.ai_pool import AIJob, AIPool, rank
from letras.server.errors import ServerError, error_dict
from letras.server.inputs import Action, Asked, NewGame
from letras.server.jobs import Jobs
from letras.server.lexicons import Lexicons, UnknownLexiconError
from letras.server.newgame import game_players, game_rules
from letras.server.review import best_dicts, examine, review_request
from letras.server.storage import NoSuchGameError, StorageError, Store, Window
from letras.table import Event, Table, describe_all, end_events, turn_events

log = logging.getLogger("letras.server")

EVENTS_SHOWN = 50
"""Events in a state that is not a notification (the last ones)."""
QUEUE_SIZE = 256
"""States waiting for a slow subscriber before it is cut off."""
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def token_hash(token: str) -> str:
    """What the database keeps of a seat's token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(eq=False)
class Subscriber:
    """A websocket listening to a game: its seat (None: a spectator), its language and the
    states to send it."""

    seat: int | None
    language: str
    queue: asyncio.Queue[dict[str, Any]] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_SIZE))
    overflowed: bool = False


@dataclass(eq=False)
class LiveGame:
    """A game in memory: its table, its seats' token hashes and how many of its moves the
    database holds."""

    id: str
    table: Table
    lexicon: str
    hashes: dict[int, str]
    stored: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    dropped: bool = False
    driver: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    timer_mark: int = -1
    window: Window | None = None
    window_mark: int = -1
    rematch: str | None = None
    leased: bool = False
    """Does this server hold the lease of the computer's turn (its job)?"""

    @property
    def game(self) -> Game:
        return self.table.game


class GameService:
    """The games of a server (see the module docstring)."""

    def __init__(self, store: Store, lexicons: Lexicons, pool: AIPool, *,
                 ai_seconds: float = 1.0, window_seconds: float = 15.0,
                 max_games: int = 500, jobs: Jobs | None = None) -> None:
        self.store = store
        self.jobs = jobs or Jobs(store)
        self.lexicons = lexicons
        self.pool = pool
        self.ai_seconds = ai_seconds
        self.window_seconds = window_seconds
        self.max_games = max_games
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Task[LiveGame]] = {}
        self._subscribers: dict[str, set[Subscriber]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self._closed = False

    # ----- the games' life ------------------------------------------------------------------

    async def create(self, new: NewGame, asked: Asked) -> dict[str, Any]:
        """Make and store a new game; the answer of ``POST /api/games`` (tokens included)."""
        try:
            edition = find_edition(new.edition)
        except UnknownEditionError as e:
            raise ServerError(400, "server.edition", str(e), edition=new.edition) from None
        language = asked.language(edition.language)
        try:
            lexicon = self.lexicons.resolve(edition, new.lexicon)
        except UnknownLexiconError as e:
            raise ServerError(400, e.key, str(e), **e.values) from None
        rules = game_rules(edition, new.rules, new.clock)
        players = game_players(new, rules, language)
        graph = await asyncio.to_thread(self.lexicons.graph, edition, lexicon)
        game = Game(edition, players, seed=new.seed, lexicon=graph, rules=rules)
        table = Table(game, graph, ai_seconds=self.ai_seconds)
        tokens = {seat: secrets.token_urlsafe(24) for seat, p in enumerate(players)
                  if p.kind == "human"}
        hashes = {seat: token_hash(tok) for seat, tok in tokens.items()}
        game_id = secrets.token_urlsafe(9)
        settings = {k: v for k, v in game.to_dict().items() if k != "moves"}
        await asyncio.to_thread(self.store.create_game, game_id, settings, hashes)
        live = LiveGame(game_id, table, lexicon, hashes, 0)
        async with live.lock:
            self._keep(live)
            await self._commit(live, [])
        seats: list[dict[str, Any]] = []
        for seat, p in enumerate(players):
            if seat in tokens:
                seats.append({"seat": seat, "name": p.name, "token": tokens[seat],
                              "url": f"/g/{game_id}?token={tokens[seat]}"})
            else:
                seats.append({"seat": seat, "name": p.name, "ai": p.kind[len("ai:"):]})
        return {"id": game_id, "seats": seats, "spectate": f"/g/{game_id}"}

    async def _get(self, game_id: str) -> LiveGame:
        """The game in memory, loaded first if need be; :class:`NoSuchGameError` (404)."""
        if self._closed:
            raise ServerError(503, "server.closing", "the server is shutting down")
        if not GAME_ID.fullmatch(game_id):
            raise NoSuchGameError(game_id)
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            return live
        task = self._loading.get(game_id)
        if task is None:
            task = asyncio.create_task(self._load(game_id))
            self._loading[game_id] = task
            task.add_done_callback(lambda _: self._loading.pop(game_id, None))
        return await asyncio.shield(task)

    async def _load(self, game_id: str) -> LiveGame:
        saved = await asyncio.to_thread(self.store.load_game, game_id)
        data = saved.data
        graph = await asyncio.to_thread(self.lexicons.graph, str(data["edition"]),
                                        str(data.get("lexicon") or "") or None)
        table = await asyncio.to_thread(self._rebuild, data, graph)
        live = LiveGame(game_id, table, graph.name, saved.seats, len(data["moves"]),
                        rematch=saved.rematch)
        if saved.window is not None:  # the window open when the server stopped
            live.window, live.window_mark = saved.window, live.stored
            for seat in sorted(saved.window.declined):
                if seat in table.step().may_challenge:
                    table.accept(seat)
        async with live.lock:  # and store what the table did by itself on sitting down
            self._keep(live)
            await self._commit(live, [])
        return live

    def _rebuild(self, data: dict[str, Any], graph: WordGraph) -> Table:
        game = Game.from_dict(data, lexicon=graph)
        table = Table(game, graph, ai_seconds=self.ai_seconds)
        table.log[:0] = turn_events(game, game.turns)  # the story so far, for the page
        return table

    def _keep(self, live: LiveGame) -> None:
        self._live[live.id] = live
        if len(self._live) <= self.max_games:
            return
        for old in list(self._live.values()):
            if len(self._live) <= self.max_games:
                break
            idle = not (old.lock.locked() or self._subscribers.get(old.id) or old.driver
                        or old.timer)
            if idle and old is not live:
                del self._live[old.id]

    def _forget(self, live: LiveGame) -> None:
        """Forget the game in memory (it is read again from the database when next asked)."""
        live.dropped = True
        if self._live.get(live.id) is live:
            del self._live[live.id]
        current = asyncio.current_task()
        for task in (live.driver, live.timer):
            if task is not None and task is not current:
                task.cancel()
        live.driver = live.timer = None

    def _drop(self, live: LiveGame) -> None:
        """Forget the game in memory and tell its subscribers the game as stored."""
        self._forget(live)
        if self._subscribers.get(live.id) and not self._closed:
            task = asyncio.create_task(self._resync(live.id))
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    async def _resync(self, game_id: str) -> None:
        """Tell the subscribers of a dropped game its state as stored."""
        try:
            async with self._locked(game_id) as live:
                for sub in list(self._subscribers.get(game_id, ())):
                    state = self._state(live, sub.seat, sub.language, [])
                    with contextlib.suppress(asyncio.QueueFull):
                        sub.queue.put_nowait({"type": "state", **state})
        except asyncio.CancelledError:
            raise
        except Exception as e:
            log.error("game %s cannot be read back: %s", game_id, e)

    async def moved(self, game_id: str, seq: int) -> None:
        """Another server stored moves of this game, which now has ``seq`` of them (a notice
        of :mod:`letras.server.fanout`): a game held here is read again, and its subscribers
        are told what happened."""
        live = self._live.get(game_id)
        if live is None or self._closed:
            return
        async with live.lock:
            if live.dropped or live.stored >= seq:
                return  # our own move, or one we know of
            turns = len(live.game.turns)
            self._forget(live)
        async with self._locked(game_id) as fresh:
            game = fresh.game
            if len(game.turns) > turns:
                events = turn_events(game, game.turns[turns:])
                if game.over:
                    events += end_events(game)
                self._notify(fresh, events)

    async def close(self) -> None:
        """Stop every computer seat and timer (the app is shutting down)."""
        self._closed = True
        tasks: list[asyncio.Task[Any]] = [
            t for live in self._live.values() for t in (live.driver, live.timer) if t is not None]
        tasks += self._loading.values()
        tasks += self._background
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for subs in self._subscribers.values():
            for sub in subs:
                sub.overflowed = True
                with contextlib.suppress(asyncio.QueueFull):
                    sub.queue.put_nowait({})
        await asyncio.to_thread(self.pool.shutdown)

    @property
    def closed(self) -> bool:
        return self._closed

    # ----- what clients ask -----------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _locked(self, game_id: str) -> AsyncIterator[LiveGame]:
        """The game in memory with its lock held (read again when the database failed while
        waiting for the lock)."""
        for _ in range(3):
            live = await self._get(game_id)
            async with live.lock:
                if live.dropped:
                    continue
                yield live
                return
        raise StorageError("the game cannot be read back from the database")

    async def state(self, game_id: str, token: str | None, asked: Asked) -> dict[str, Any]:
        """The state for the token's seat, or a spectator's: ``GET /api/games/{id}``."""
        async with self._locked(game_id) as live:
            seat = self._seat(live, token)
            language = asked.language(live.game.edition.language)
            return self._state(live, seat, language, live.table.log[-EVENTS_SHOWN:])

    async def act(self, game_id: str, token: str | None, action: Action,
                  asked: Asked) -> dict[str, Any]:
        """A seat's action; the new state for that seat. Raises a
        :class:`~letras.errors.LetrasError` (with nothing changed) when it is refused."""
        async with self._locked(game_id) as live:
            seat = self._seat(live, token)
            if seat is None:
                raise ServerError(403, "server.no_token", "an action needs a seat's token")
            try:
                events = _do(live.table, seat, action)
            except LetrasError:
                raise
            except Exception:  # a bug: the game in memory may be damaged, read it again
                self._drop(live)
                raise
            if action.kind == "accept":
                await self._store_declined(live)
            await self._commit(live, events)
            language = asked.language(live.game.edition.language)
            return self._state(live, seat, language, live.table.log[-EVENTS_SHOWN:])

    async def preview(self, game_id: str, token: str | None, text: str,
                      asked: Asked) -> dict[str, Any]:
        """Would this play be legal for the seat's rack, and what would it score? Nothing
        changes. Words are looked up only where the game itself would refuse a word outside
        the lexicon (the ``void`` rule) or the table asks before such a play (casual games):
        elsewhere a preview must not tell a challenge's outcome beforehand."""
        from letras.formats.views import score_dict
        from letras.rules import validate

        async with self._locked(game_id) as live:
            seat = self._seat(live, token)
            if seat is None:
                raise ServerError(403, "server.no_token", "a preview needs a seat's token")
            table, game = live.table, live.game
            language = asked.language(game.edition.language)
            check_words = game.rules.challenge_rule == "void" or table.confirm_unknown_words
            try:
                board = game.board
                place = Place.parse(text, game.edition, board)
                score = validate(board, place, rack=game.rack(seat),
                                 lexicon=table.lexicon if check_words else None,
                                 rules=game.rules, turn=_plays_standing(game.turns) + 1)
            except LetrasError as e:
                return {"legal": False, "error": error_dict(e, language)}
            return {"legal": True, "score": score_dict(score)}

    async def examine(self, game_id: str, token: str | None, n: int) -> dict[str, Any]:
        """The position after ``n`` moves (see :mod:`letras.server.review`)."""
        async with self._locked(game_id) as live:
            return examine(live.game, self._seat(live, token), n)

    async def best(self, game_id: str, token: str | None, n: int,
                   count: int) -> dict[str, Any]:
        """The best plays of the turn after ``n`` moves, once the game is over (found in a
        worker process, without the game's lock)."""
        async with self._locked(game_id) as live:
            self._seat(live, token)
            request = review_request(live.game, live.lexicon, n, count)
        return best_dicts(request, await self.pool.run(rank, request))

    async def rematch(self, game_id: str, token: str | None, asked: Asked) -> dict[str, Any]:
        """A new game with the same seats, settings and tokens, once this one is over; every
        seat is told its id. Asked twice (or by two seats at once), it is the same game."""
        async with self._locked(game_id) as live:
            seat = self._seat(live, token)
            if seat is None:
                raise ServerError(403, "server.no_token", "a rematch needs a seat's token")
            game = live.game
            if not game.over:
                raise ServerError(409, "server.not_over", "a rematch follows a finished game")
            if live.rematch is None:
                again = Game(game.edition, game.players, lexicon=live.table.lexicon,
                             rules=game.rules)
                settings = {k: v for k, v in again.to_dict().items()
                            if k not in ("moves", "starter")}
                live.rematch = await asyncio.to_thread(
                    self.store.create_rematch, live.id, secrets.token_urlsafe(9), settings,
                    live.hashes)
                self._notify(live, [])
            return {"id": live.rematch, "url": f"/g/{live.rematch}"}

    async def gcg(self, game_id: str, token: str | None) -> str:
        """The game's public GCG record for the token's seat, or a spectator's (no other
        seat's rack before the end, never the seed): ``GET /api/games/{id}/gcg``."""
        from letras.formats.public import public_gcg

        async with self._locked(game_id) as live:
            return public_gcg(live.game, self._seat(live, token))

    async def subscribe(self, game_id: str, token: str | None, asked: Asked) -> Subscriber:
        """A new subscriber, its first state already in its queue (the last events)."""
        async with self._locked(game_id) as live:
            seat = self._seat(live, token)
            sub = Subscriber(seat, asked.language(live.game.edition.language))
            self._subscribers.setdefault(game_id, set()).add(sub)
            state = self._state(live, seat, sub.language, live.table.log[-EVENTS_SHOWN:])
            sub.queue.put_nowait({"type": "state", **state})
        return sub

    def unsubscribe(self, game_id: str, sub: Subscriber) -> None:
        subs = self._subscribers.get(game_id)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subscribers[game_id]

    def live(self, game_id: str) -> LiveGame | None:
        """The game in memory, if it is (for tests and the operator)."""
        return self._live.get(game_id)

    # ----- inside ---------------------------------------------------------------------------

    def _seat(self, live: LiveGame, token: str | None) -> int | None:
        """The seat a token opens (None without a token); 403 for a wrong one. Every hash is
        compared, in constant time."""
        if not token:
            return None
        digest = token_hash(token)
        found = None
        for seat, stored in live.hashes.items():
            if hmac.compare_digest(stored, digest):
                found = seat
        if found is None:
            raise ServerError(403, "server.bad_token", "this token opens no seat of this game")
        return found

    def _state(self, live: LiveGame, seat: int | None, language: str,
               events: Sequence[Event]) -> dict[str, Any]:
        table, game = live.table, live.game
        view = game.view(seat) if seat is not None else game.spectator_view()
        step = table.step()
        t = messages(language)
        try:
            texts = describe_all(events, t)
        except (KeyError, IndexError, ValueError):
            texts = [_say(e, language) for e in events]
        window = None
        if step.kind in ("window", "settle") and live.window is not None:
            left = live.window.opened + self.window_seconds - time.time()
            window = {"seconds": self.window_seconds,
                      "seconds_left": round(max(0.0, left), 1)}
        return {
            "game": live.id,
            "seat": seat,
            "view": view.to_dict(),
            "step": {"kind": step.kind, "seat": step.seat,
                     "may_challenge": list(step.may_challenge)},
            "window": window,
            "rematch": live.rematch,
            "events": [{**e.to_dict(), "text": text}
                       for e, text in zip(events, texts, strict=True)],
        }

    async def _commit(self, live: LiveGame, events: Sequence[Event]) -> None:
        """Store the moves the table added, then tell the subscribers and go on (computer
        seats, timers). Called with the game's lock held. When the database fails the game
        is dropped from memory and the error raised."""
        game = live.game
        new = game.moves[live.stored:]
        if new:
            rows = [m.to_dict(game.edition) for m in new]
            try:
                await asyncio.to_thread(self.store.append_moves, live.id, live.stored, rows,
                                        end_job=live.leased and self.jobs.shared)
            except BaseException:
                self._drop(live)
                raise
            live.stored += len(new)
            live.leased = False  # the job ended with the move
        await self._open_window(live)
        self._notify(live, events)
        self._go_on(live)

    async def _open_window(self, live: LiveGame) -> None:
        """Store a challenge window when one opens (its time; a stored one is kept)."""
        if live.table.step().kind not in ("window", "settle"):
            live.window, live.window_mark = None, -1
            return
        mark = len(live.game.moves)
        if live.window_mark == mark:
            return
        try:
            live.window = await asyncio.to_thread(self.store.open_window, live.id, mark,
                                                  time.time())
        except StorageError:
            log.exception("game %s: the challenge window was not stored", live.id)
            live.window = Window(time.time(), frozenset())
        live.window_mark = mark

    async def _store_declined(self, live: LiveGame) -> None:
        """Store who let the play stand, while its window is open."""
        if live.window is None or live.window_mark != len(live.game.moves):
            return
        declined = live.table.declined
        try:
            await asyncio.to_thread(self.store.decline, live.id, live.window_mark, declined)
        except BaseException:
            self._drop(live)
            raise
        live.window = Window(live.window.opened, declined)

    def _notify(self, live: LiveGame, events: Sequence[Event]) -> None:
        for sub in list(self._subscribers.get(live.id, ())):
            state = {"type": "state", **self._state(live, sub.seat, sub.language, events)}
            try:
                sub.queue.put_nowait(state)
            except asyncio.QueueFull:
                sub.overflowed = True

    def _go_on(self, live: LiveGame) -> None:
        """After a change: the computer's turn, or a challenge window's timer."""
        if self._closed or live.dropped:
            return
        step = live.table.step()
        if step.kind == "ai" and (live.driver is None or live.driver.done()):
            live.driver = asyncio.create_task(self._drive(live))
        if step.kind in ("window", "settle"):
            mark = len(live.game.moves)
            if live.timer is None or live.timer_mark != mark:
                if live.timer is not None:
                    live.timer.cancel()
                live.timer_mark = mark
                live.timer = asyncio.create_task(self._close_window(live, mark))
        elif live.timer is not None:
            live.timer.cancel()
            live.timer = None

    async def _drive(self, live: LiveGame) -> None:
        """The computer seats' moves while the table waits for one."""
        try:
            while True:
                async with live.lock:
                    if live.dropped:
                        return
                    step = live.table.step()
                    if step.kind != "ai":
                        live.driver = None
                        return
                    request = live.table.ai_request()
                    mark = len(live.game.moves)
                if not await asyncio.to_thread(self.jobs.take, live.id, mark):
                    return  # another server thinks for this turn
                live.leased = True
                job = AIJob(live.game.edition.name, live.lexicon, request.level, request.seed,
                            request.view, request.seconds)
                renewal = asyncio.create_task(self._renew(live, mark))
                try:
                    choice: Exchange | Pass | Place = await self.pool.choose(job)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("game %s: the computer in seat %d failed; it passes",
                                  live.id, request.seat)
                    choice = Pass()
                finally:
                    renewal.cancel()
                async with live.lock:
                    if live.dropped:
                        return
                    if len(live.game.moves) != mark or live.table.step() != step:
                        continue  # the game moved on while it thought: think again
                    events = live.table.ai_apply(request.seat, choice)
                    await self._commit(live, events)
        except asyncio.CancelledError:
            raise
        except StorageError as e:
            log.error("game %s: the computer's move was not stored: %s", live.id, e)
        except Exception:
            log.exception("game %s: the computer seats stopped", live.id)
        finally:
            if live.driver is asyncio.current_task():
                live.driver = None

    async def _renew(self, live: LiveGame, mark: int) -> None:
        """Keep the lease of a computer's turn while the worker thinks."""
        try:
            while not live.dropped:
                await asyncio.sleep(self.jobs.lease_seconds / 3)
                if not await asyncio.to_thread(self.jobs.take, live.id, mark):
                    log.warning("game %s: another server took the computer's turn", live.id)
                    return
        except asyncio.CancelledError:
            raise
        except StorageError as e:
            log.error("game %s: the computer's lease was not renewed: %s", live.id, e)

    async def resume(self, game_id: str) -> None:
        """Play a computer's turn that no server holds (a job found by the
        :class:`~letras.server.jobs.JobRunner`): the game is loaded, and goes on."""
        try:
            async with self._locked(game_id) as live:
                self._go_on(live)
        except NoSuchGameError:
            await asyncio.to_thread(self.jobs.done, game_id)

    async def _close_window(self, live: LiveGame, mark: int) -> None:
        """Let the play waiting for a challenge stand when nobody answered in time."""
        try:
            opened = live.window.opened if live.window is not None else time.time()
            await asyncio.sleep(max(0.0, opened + self.window_seconds - time.time()))
            async with live.lock:
                if live.dropped or len(live.game.moves) != mark:
                    return
                live.timer = None
                if live.table.step().kind in ("window", "settle"):
                    await self._commit(live, live.table.close_window())
        except asyncio.CancelledError:
            raise
        except StorageError as e:
            log.error("game %s: closing the challenge window was not stored: %s", live.id, e)
        except Exception:
            log.exception("game %s: closing the challenge window failed", live.id)


def _do(table: Table, seat: int, action: Action) -> list[Event]:
    """Carry out a seat's action at the table (refusals raise and change nothing)."""
    game = table.game
    if action.kind == "play":
        return table.act(seat, action.text)
    if action.kind == "exchange":
        tiles = game.edition.tiles.parse(action.text.upper(), rack=True)
        return table.act(seat, Exchange(tiles))
    if action.kind == "pass":
        return table.act(seat, Pass())
    if action.kind == "challenge":
        return table.challenge(seat)
    if action.kind == "resign":
        return table.resign(seat)
    return table.accept(seat)


def _plays_standing(turns: Sequence[Turn]) -> int:
    """Tile plays on the board (for the ``join_words_from_turn`` rule)."""
    return sum(1 for t in turns if t.kind == "play") - sum(
        1 for t in turns if t.kind == "withdrawn")


def _say(event: Event, language: str) -> str:
    from letras.table import describe

    try:
        return describe(event, messages(language))
    except (KeyError, IndexError, ValueError):
        return event.key


__all__ = ["EVENTS_SHOWN", "GameService", "LiveGame", "Subscriber", "token_hash"]
