"""The page in a real browser: the lobby, the game room, placing tiles by keyboard and by drag,
a reload, a spectator.

The app runs on uvicorn in a thread (a temporary SQLite file); Playwright drives Debian's
chromium (``/usr/bin/chromium``: Playwright's own browser download is not used). Without that
browser the tests skip, except under ``CI=true``, where they fail.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import parse_qs, urlparse

import pytest

from letras.board import Direction
from letras.editions import Edition, find_edition
from letras.formats.cgp import Position
from letras.lexicon import load_lexicon
from letras.lexicon.kwg import WordGraph
from letras.movegen import best_play
from letras.play import Place
from letras.tiles import BLANK_BIT, THROUGH
from server_helpers import kill_9, letras_serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Locator, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
START_SECONDS = 60.0
WAIT_MS = 20_000
PT = find_edition("pt-BR")
NewPage = Callable[..., "Page"]
"""The ``new_page`` fixture: ``new_page(width=1280, height=900, locale="pt-BR", touch=False)``."""

ON_CI = os.environ.get("CI") == "true"


def missing(reason: str) -> NoReturn:
    """Skip for want of the browser, but fail under CI=true."""
    if ON_CI:
        pytest.fail(f"{reason} (CI=true: the browser tests must run)")
    pytest.skip(reason)


# ----- the live server -----------------------------------------------------------------------


@dataclass
class Live:
    url: str

    def call(self, method: str, path: str, body: dict[str, Any] | None = None,
             token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def state(self, game: str, token: str | None) -> dict[str, Any]:
        state: dict[str, Any] = self.call("GET", f"/api/games/{game}", token=token)
        return state


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """The app on 127.0.0.1 at a free port; a server thread that dies (or never starts)
    fails the fixture with its error instead of hanging the run."""
    import uvicorn

    from letras.server.app import create_app

    db = tmp_path_factory.mktemp("web") / "letras.db"
    app = create_app(f"sqlite:///{db}", ai_workers=1, ai_seconds=0.3, window_seconds=2.0)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, ws="websockets-sansio",
                            log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    failure: list[BaseException] = []

    def run() -> None:
        try:
            server.run()
        except BaseException as e:  # SystemExit included: uvicorn exits on a failed start
            failure.append(e)

    thread = threading.Thread(target=run, name="letras-web-test", daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        if failure:
            raise RuntimeError("the web server failed to start") from failure[0]
        if not thread.is_alive():
            raise RuntimeError("the web server thread ended before it started")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise TimeoutError(f"the web server did not start in {START_SECONDS:.0f} s")
        time.sleep(0.05)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield Live(f"http://127.0.0.1:{port}")
    finally:
        server.should_exit = True
        thread.join(timeout=30)
        if failure and not isinstance(failure[0], SystemExit):
            raise RuntimeError("the web server failed") from failure[0]


# ----- the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        missing(f"{CHROMIUM} is not installed (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("playwright (Python) is not installed")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def new_page(browser: Browser) -> Iterator[NewPage]:
    """Pages in fresh contexts (each its own localStorage), closed after the test; errors on
    the page fail the test."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(width: int = 1280, height: int = 900, locale: str = "pt-BR",
             touch: bool = False) -> Page:
        context = browser.new_context(viewport={"width": width, "height": height},
                                      locale=locale, has_touch=touch, is_mobile=touch)
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda e: errors.append(str(e)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


def expect(locator: Locator) -> Any:
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(locator)


# ----- games ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def words() -> WordGraph:
    lexicon = load_lexicon(PT)
    assert isinstance(lexicon, WordGraph)
    return lexicon


def seat_of(url: str) -> tuple[str, str | None]:
    """The game id and token of a room's address."""
    parsed = urlparse(url)
    token = parse_qs(parsed.query).get("token", [None])[0]
    return parsed.path.rsplit("/", 1)[-1], token


def wait_for(what: Callable[[], Any], seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        value = what()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {seconds:.0f} s")
        time.sleep(0.1)


def my_turn(live: Live, game: str, token: str) -> dict[str, Any]:
    """The seat's state once it is that seat's move."""
    def ready() -> dict[str, Any] | None:
        state = live.state(game, token)
        step = state["step"]
        return state if step["kind"] == "move" and step["seat"] == state["seat"] else None

    result: dict[str, Any] = wait_for(ready)
    return result


def best(state: dict[str, Any], words: WordGraph, edition: Edition = PT) -> tuple[Place, int]:
    """The best-scoring play on the seat's rack (its view's CGP has the seat to move first)."""
    position = Position.from_cgp(state["view"]["cgp"], edition)
    found = best_play(position.board, position.rack, words)
    assert found is not None
    return found


def keys_of(place: Place, edition: Edition = PT) -> list[str]:
    """The keys that type a play's tiles on the board: a letter for a tile of the rack, ``?``
    then the letter for a blank."""
    keys = []
    for tile in place.tiles:
        if tile != THROUGH:
            if tile & BLANK_BIT:
                keys.append("?")
            keys.append(edition.tiles.label(tile & ~BLANK_BIT))
    return keys


def two_people(live: Live, seed: int = 7) -> dict[str, Any]:
    game: dict[str, Any] = live.call("POST", "/api/games", {
        "edition": "pt-BR", "seats": [{"name": "Ana"}, {"name": "Bruno"}], "seed": seed})
    return game


def press(page: Page, letter: str) -> None:
    """Type a letter on the board. Playwright's keyboard has only the US layout's keys (a Ç
    would come as text input, with no key event): other letters are sent as the key events
    a keyboard with them sends."""
    if letter.isascii():
        page.keyboard.press(letter)
    else:
        page.locator(".board").dispatch_event("keydown", {"key": letter, "bubbles": True})


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """A finger's drag from one element to another (Playwright has taps only: the touch
    events go through the DevTools protocol)."""
    start, end = source.bounding_box(), target.bounding_box()
    assert start is not None and end is not None
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = end["x"] + end["width"] / 2, end["y"] + end["height"] / 2
    cdp = page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    cdp.send(touch, {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]})
    for i in range(1, 9):
        point = {"x": x0 + (x1 - x0) * i / 8, "y": y0 + (y1 - y0) * i / 8}
        cdp.send(touch, {"type": "touchMove", "touchPoints": [point]})
    cdp.send(touch, {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def square_id(row: int, col: int) -> str:
    return f"#sq-{row}-{col}"


def type_play(page: Page, place: Place, edition: Edition = PT) -> None:
    """Put a play's tiles on the board by clicking its first square and typing, then Enter."""
    page.locator(square_id(place.square.row, place.square.col)).click()
    expect(page.locator(".sq.cursor")).to_have_count(1)
    if place.direction is Direction.DOWN:
        page.keyboard.press("Space")
        expect(page.locator(".sq.cursor.down")).to_have_count(1)
    for key in keys_of(place, edition):
        press(page, key)
    expect(page.locator(".board .placed")).to_have_count(
        sum(1 for tile in place.tiles if tile != THROUGH))
    page.keyboard.press("Enter")


def rack_labels(page: Page) -> list[str]:
    """The labels of the tiles the page shows on its rack (tile ids are LABEL#n)."""
    return sorted(i.rsplit("#", 1)[0] for i in rack_ids(page))


def seen_states(page: Page) -> list[dict[str, Any]]:
    """Every state the page's websockets receive, from now on."""
    states: list[dict[str, Any]] = []

    def frame(payload: str | bytes) -> None:
        data = json.loads(payload)
        if data.get("type") == "state":
            states.append(data)

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return states


# ----- the tests -----------------------------------------------------------------------------


def test_a_person_plays_the_computer_by_keyboard(live_server: Live, new_page: NewPage,
                                                  words: WordGraph) -> None:
    page = new_page()
    for _ in range(5):  # about one first rack in 60 has no play at all: then another game
        page.goto(live_server.url + "/?lang=pt-BR")
        page.get_by_role("button", name="Jogar contra o computador").click()
        page.wait_for_url("**/g/**")
        game, token = seat_of(page.url)
        assert token
        state = my_turn(live_server, game, token)
        position = Position.from_cgp(state["view"]["cgp"], PT)
        if best_play(position.board, position.rack, words) is not None:
            break
    expect(page.locator("#turn")).to_have_text("Sua vez")
    place, score = best(state, words)
    tiles = PT.tiles

    # the keyboard alone: Tab to the board (its cursor starts on H8), arrows to the square
    for _ in range(8):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('board')"):
            break
    else:
        pytest.fail("Tab never reaches the board")
    expect(page.locator(f"{square_id(7, 7)}.cursor")).to_have_count(1)
    rows, cols = place.square.row - 7, place.square.col - 7
    for key, n in (("ArrowDown", rows), ("ArrowUp", -rows), ("ArrowRight", cols),
                   ("ArrowLeft", -cols)):
        for _ in range(max(0, n)):
            page.keyboard.press(key)
    expect(page.locator(f"{square_id(place.square.row, place.square.col)}.cursor")).to_have_count(1)
    if place.direction is Direction.DOWN:
        page.keyboard.press("Space")
        expect(page.locator(".sq.cursor.down")).to_have_count(1)
    for key in keys_of(place):  # "?" then a letter for a blank
        press(page, key)
    preview = page.locator("#preview")
    expect(preview).to_have_class("preview legal")
    expect(preview).to_contain_text(f"= {score}")
    page.keyboard.press("Enter")

    for square, tile in place.placed():
        cell = page.locator(square_id(square.row, square.col))
        expect(cell.locator(".letter")).to_have_text(tiles.label(tile & ~BLANK_BIT))
        expect(cell).not_to_have_class(re.compile(r"\bplaced\b"))
    before = len(state["view"]["turns"])
    sheet = page.locator(".sheet tbody tr")
    expect(sheet.nth(before)).to_contain_text(place.notation(PT))
    # the computer's reply arrives by itself, and is announced
    expect(sheet).to_have_count(before + 2, timeout=60_000)
    reply = sheet.nth(before + 1)
    expect(reply).to_contain_text("Computador")
    expect(reply).not_to_have_class("k-pass")  # with a full bag it plays or exchanges
    expect(page.locator("#turn")).to_have_text("Sua vez", timeout=30_000)
    expect(page.locator("#announcer")).to_contain_text("Computador")


def rack_ids(page: Page) -> list[str]:
    ids: list[str] = page.locator(".rack .rack-tile").evaluate_all(
        "tiles => tiles.map(t => t.dataset.id)")
    return ids


def seed_with_blank(seat: int = 0) -> int:
    """A seed whose game gives ``seat`` a blank on its first rack."""
    from letras.game import Game
    from letras.tiles import BLANK

    return next(s for s in range(1, 500)
                if BLANK in Game(PT, ["Ana", "Bruno"], seed=s).view(seat).rack)


def test_drag_rack_tiles_onto_squares_on_a_phone(live_server: Live, new_page: NewPage) -> None:
    game = two_people(live_server, seed=seed_with_blank())
    ana = game["seats"][0]
    page = new_page(360, 740, touch=True)
    page.goto(live_server.url + "/")
    expect(page.locator("#play-computer")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360  # the lobby fits too
    page.goto(live_server.url + ana["url"])
    tiles = page.locator(".rack .rack-tile")
    expect(tiles).to_have_count(7)
    rack = live_server.state(game["id"], ana["token"])["view"]["rack"]
    letter = next(label for label in rack if label != "?")

    # a finger drags a tile to H8, then the mouse drags the blank to I8
    touch_drag(page, page.locator(f'.rack-tile[data-id="{letter}#1"]'),
               page.locator(square_id(7, 7)))
    expect(page.locator(f"{square_id(7, 7)}.placed .letter")).to_have_text(letter)
    expect(tiles).to_have_count(6)
    expect(page.locator(".rack .rack-slot")).to_have_count(1)

    page.locator('.rack-tile[data-id="?#1"]').drag_to(page.locator(square_id(7, 8)))
    dialog = page.get_by_role("dialog", name="Qual letra é o branco?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="E", exact=True).click()
    expect(dialog).to_have_count(0)
    blank = page.locator(f"{square_id(7, 8)}.placed .face.blank .letter")
    expect(blank).to_have_text("E")
    expect(page.locator(square_id(7, 8))).to_have_attribute("aria-label", re.compile("branco"))
    expect(tiles).to_have_count(5)

    # drag within the rack: the first tile goes to the end
    first = rack_ids(page)[0]
    tiles.first.drag_to(tiles.last)
    expect(tiles.last).to_have_attribute("data-id", first)
    # Esc recalls every placed tile
    page.locator(".board").press("Escape")
    expect(tiles).to_have_count(7)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_reload_shows_the_same_game_and_the_socket_comes_back(
        live_server: Live, new_page: NewPage, words: WordGraph) -> None:
    game = two_people(live_server, seed=11)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    first = live_server.state(game["id"], tokens[0])["step"]["seat"]
    state = my_turn(live_server, game["id"], tokens[first])
    place, _ = best(state, words)
    live_server.call("POST", f"/api/games/{game['id']}/actions", {"play": place.notation(PT)},
                     token=tokens[first])
    other = 1 - first
    page = new_page()
    page.goto(live_server.url + game["seats"][other]["url"])
    square, tile = place.placed()[0]
    cell = page.locator(square_id(square.row, square.col))
    expect(cell.locator(".letter")).to_have_text(PT.tiles.label(tile & ~BLANK_BIT))
    expect(cell).to_have_class(re.compile(r"\blast\b"))
    expect(page.locator("#turn")).to_have_text("Sua vez")
    tiles = page.locator(".rack .rack-tile")
    expect(tiles).to_have_count(7)
    tiles.first.focus()
    page.keyboard.press("Shift+ArrowRight")  # the keyboard moves a tile on the rack
    order = rack_ids(page)
    sheet = page.locator(".sheet tbody tr")
    expect(sheet).to_have_count(1)

    page.reload()
    expect(cell.locator(".letter")).to_have_text(PT.tiles.label(tile & ~BLANK_BIT))
    expect(sheet).to_have_count(1)
    expect(sheet.first).to_contain_text(place.notation(PT))
    expect(tiles).to_have_count(7)
    assert rack_ids(page) == order
    expect(page.locator(".conn")).to_have_text("conectado")
    # a dropped socket reconnects by itself, and what happened meanwhile arrives
    page.evaluate("window.letrasRoom.live.socket.close()")
    page.wait_for_function("window.letrasRoom.live.opened >= 2")
    expect(page.locator(".conn")).to_have_text("conectado")
    live_server.call("POST", f"/api/games/{game['id']}/actions", {"pass": True},
                     token=tokens[other])
    expect(sheet).to_have_count(2)
    expect(page.locator("#turn")).to_have_text("Vez de " + game["seats"][first]["name"])


def test_a_spectator_sees_the_board_and_no_rack(live_server: Live, new_page: NewPage,
                                                words: WordGraph) -> None:
    game = two_people(live_server, seed=5)
    tokens = {s["seat"]: s["token"] for s in game["seats"]}
    first = live_server.state(game["id"], tokens[0])["step"]["seat"]
    state = my_turn(live_server, game["id"], tokens[first])
    place, score = best(state, words)
    live_server.call("POST", f"/api/games/{game['id']}/actions", {"play": place.notation(PT)},
                     token=tokens[first])
    page = new_page(360, 740)
    page.goto(live_server.url + game["spectate"])
    for square, tile in place.placed():
        expect(page.locator(square_id(square.row, square.col)).locator(".letter")).to_have_text(
            PT.tiles.label(tile & ~BLANK_BIT))
    expect(page.locator(".sheet tbody tr").first).to_contain_text(str(score))
    expect(page.locator(".rack-tile")).to_have_count(0)
    expect(page.locator(".mine")).to_be_hidden()
    expect(page.get_by_role("button", name="Jogar")).to_have_count(0)
    expect(page.locator("#gcg")).to_have_attribute("href", f"/api/games/{game['id']}/gcg")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_exchange_and_pass_by_dialog_to_the_final_count(live_server: Live,
                                                        new_page: NewPage) -> None:
    game = two_people(live_server, seed=3)
    ana, bruno = game["seats"]
    page = new_page()
    page.goto(live_server.url + ana["url"])
    sheet = page.locator(".sheet tbody tr")

    def bruno_passes() -> None:
        state = live_server.state(game["id"], bruno["token"])
        if state["step"]["seat"] == bruno["seat"] and not state["view"]["over"]:
            rows = len(state["view"]["turns"])
            live_server.call("POST", f"/api/games/{game['id']}/actions", {"pass": True},
                             token=bruno["token"])
            expect(sheet).to_have_count(rows + 1)

    bruno_passes()
    expect(page.locator("#turn")).to_have_text("Sua vez")
    page.get_by_role("button", name="Trocar").click()
    dialog = page.get_by_role("dialog", name="Trocar pedras")
    dialog.locator(".rack-tile").nth(0).click()
    dialog.locator(".rack-tile").nth(1).click()
    expect(dialog).to_contain_text("Escolhidas: 2")
    dialog.get_by_role("button", name="Trocar").click()
    expect(sheet.last).to_contain_text("troca 2")
    passes = page.locator(".sheet tbody tr.k-pass")
    for _ in range(8):  # passes until every player has passed twice in a row
        if live_server.state(game["id"], ana["token"])["view"]["over"]:
            break
        bruno_passes()
        if live_server.state(game["id"], ana["token"])["view"]["over"]:
            break
        count = passes.count()
        page.get_by_role("button", name="Passar").click()
        page.get_by_role("dialog").get_by_role("button", name="Passar").click()
        expect(passes).to_have_count(count + 1)
    result = page.locator(".result")
    expect(result).to_be_visible()
    expect(result).to_contain_text("Contagem final")
    expect(result.locator(".winner")).to_contain_text(re.compile("Vencedor|Empate"))
    expect(page.locator("#turn")).to_have_text("Fim de jogo")


def test_three_people_in_three_browsers(live_server: Live, new_page: NewPage,
                                        words: WordGraph) -> None:
    game: dict[str, Any] = live_server.call("POST", "/api/games", {
        "edition": "pt-BR", "seats": [{"name": "Ana"}, {"name": "Bruno"}, {"name": "Carla"}],
        "seed": 13})
    seats = game["seats"]
    pages = [new_page() for _ in seats]
    frames = [seen_states(page) for page in pages]
    for page, seat in zip(pages, seats, strict=True):
        page.goto(live_server.url + seat["url"])
        expect(page.locator(".rack .rack-tile")).to_have_count(7)

    def racks_are_own() -> bool:
        """Each page shows its own seat's rack and no other's."""
        racks = [sorted(live_server.state(game["id"], s["token"])["view"]["rack"])
                 for s in seats]
        assert len({tuple(r) for r in racks}) == len(racks)
        return all(rack_labels(page) == racks[n] for n, page in enumerate(pages))

    wait_for(racks_are_own, 10)
    first = live_server.state(game["id"], None)["step"]["seat"]
    place, score = best(my_turn(live_server, game["id"], seats[first]["token"]), words)
    type_play(pages[first], place)
    for page in pages:
        for square, tile in place.placed():
            cell = page.locator(square_id(square.row, square.col))
            expect(cell.locator(".letter")).to_have_text(PT.tiles.label(tile & ~BLANK_BIT))
        row = page.locator(".sheet tbody tr")
        expect(row).to_have_count(1)
        expect(row.first).to_contain_text(place.notation(PT))
        expect(row.first).to_contain_text(str(score))
    expect(pages[(first + 1) % 3].locator("#turn")).to_have_text("Sua vez")
    # the play waits for a challenge: the mover's rack is refilled only when it stands
    expect(pages[first].locator(".rack .rack-tile")).to_have_count(7 - len(place.placed()))
    wait_for(racks_are_own, 10)
    live_server.call("POST", f"/api/games/{game['id']}/actions", {"pass": True},
                     token=seats[(first + 1) % 3]["token"])  # which lets the play stand
    expect(pages[first].locator(".rack .rack-tile")).to_have_count(7)
    for page in pages:
        expect(page.locator(".sheet tbody tr")).to_have_count(2)
    wait_for(racks_are_own, 10)
    for n, received in enumerate(frames):
        assert len(received) >= 2  # the first state and the play
        for state in received:
            assert state["seat"] == n
            assert all("rack" not in p for p in state["view"]["players"])
    # the record as GCG, for this seat
    gcg = pages[first].locator("#gcg")
    href = f"/api/games/{game['id']}/gcg?token={seats[first]['token']}"
    expect(gcg).to_have_attribute("href", href)
    expect(gcg).to_have_text("GCG")
    answer = pages[first].request.get(live_server.url + href)
    assert answer.ok and answer.headers["content-type"] == "text/plain; charset=utf-8"
    assert place.notation(PT) in answer.text()


def phony_of(state: dict[str, Any], words: WordGraph) -> Place:
    """A first play of two tiles of the rack across H8 that is not a word."""
    rack = [t for t in state["view"]["rack"] if t != "?"]
    for i, a in enumerate(rack):
        for b in rack[i + 1:]:
            if a + b not in words:
                return Place.parse(f"8H {a}{b}", PT)
    raise AssertionError("no phony in this rack")


def two_pages(live: Live, new_page: NewPage, body: dict[str, Any]) -> tuple[
        dict[str, Any], list[Page], int]:
    """A game of two people, a page each (in its own context); and the seat to move."""
    game: dict[str, Any] = live.call("POST", "/api/games", {
        "seats": [{"name": "Ana"}, {"name": "Bruno"}], **body})
    pages = [new_page() for _ in game["seats"]]
    for page, seat in zip(pages, game["seats"], strict=True):
        page.goto(live.url + seat["url"])
        expect(page.locator(".rack .rack-tile")).to_have_count(7)
    first: int = live.state(game["id"], None)["step"]["seat"]
    return game, pages, first


def test_a_phony_is_challenged_off_the_board(live_server: Live, new_page: NewPage,
                                             words: WordGraph) -> None:
    game, pages, first = two_pages(live_server, new_page, {
        "edition": "pt-BR", "rules": {"challenge_rule": "double"}, "seed": 17})
    other = 1 - first
    phony = phony_of(my_turn(live_server, game["id"], game["seats"][first]["token"]), words)
    type_play(pages[first], phony)
    squares = [pages[other].locator(square_id(s.row, s.col)) for s, _ in phony.placed()]
    for cell in squares:
        expect(cell.locator(".letter")).to_have_count(1)
    challenge = pages[other].get_by_role("button", name="Contestar")
    expect(challenge).to_be_visible()
    expect(pages[first].get_by_role("button", name="Contestar")).to_be_hidden()
    challenge.click()
    for page in pages:
        for square, _ in phony.placed():
            expect(page.locator(square_id(square.row, square.col)).locator(".letter")
                   ).to_have_count(0)
        expect(page.locator(".log")).to_contain_text("A contestação vale")
        expect(page.locator(".log")).to_contain_text("sai do tabuleiro")
    expect(pages[first].locator("#announcer")).to_contain_text("A contestação vale")
    expect(pages[other].locator("#turn")).to_have_text("Sua vez")
    expect(challenge).to_be_hidden()


def test_a_failed_challenge_costs_ten_points_in_italian(live_server: Live,
                                                        new_page: NewPage) -> None:
    it = find_edition("it")
    lexicon = load_lexicon(it)
    assert isinstance(lexicon, WordGraph)
    game, pages, first = two_pages(live_server, new_page, {"edition": "it", "seed": 19})
    other = 1 - first
    place, score = best(my_turn(live_server, game["id"], game["seats"][first]["token"]),
                        lexicon, it)
    type_play(pages[first], place, it)
    mover = pages[other].locator(".scores li").nth(first).locator(".score")
    expect(mover).to_have_text(str(score))
    pages[other].get_by_role("button", name="Contestar").click()
    for page in pages:
        expect(page.locator(".scores li").nth(other).locator(".score")).to_have_text("-10")
        expect(page.locator(".scores li").nth(first).locator(".score")).to_have_text(str(score))
        expect(page.locator(".log")).to_contain_text("Todas as palavras valem")
        square, tile = place.placed()[0]
        expect(page.locator(square_id(square.row, square.col)).locator(".letter")).to_have_text(
            it.tiles.label(tile & ~BLANK_BIT))
    expect(pages[other].locator(".scores li.me .score")).to_have_text("-10")


def test_typing_l_l_gives_the_spanish_ll_tile(live_server: Live, new_page: NewPage) -> None:
    from letras.game import Game

    es = find_edition("es")
    ll = es.tiles.labels.index("LL")
    seed = next(s for s in range(1, 500)
                if ll in Game(es, ["Ana", "Bruno"], seed=s).view(0).rack)
    game: dict[str, Any] = live_server.call("POST", "/api/games", {
        "edition": "es", "seats": [{"name": "Ana"}, {"name": "Bruno"}], "seed": seed})
    ana = game["seats"][0]
    page = new_page()
    page.goto(live_server.url + ana["url"])
    expect(page.locator('.rack-tile[data-id="LL#1"]')).to_have_count(1)
    page.locator(square_id(7, 7)).click()
    page.keyboard.press("L")
    page.keyboard.press("L")
    expect(page.locator(f"{square_id(7, 7)}.placed .letter")).to_have_text("LL")
    expect(page.locator(".board .placed")).to_have_count(1)
    expect(page.locator('.rack-tile[data-id="LL#1"]')).to_have_count(0)
    expect(page.locator("#preview")).to_contain_text("8H [LL]")


def test_question_mark_then_a_letter_puts_the_blank_for_it(live_server: Live,
                                                           new_page: NewPage) -> None:
    """``?`` then a letter puts the blank standing for that letter, though the rack holds the
    letter itself; Backspace takes a ``?`` back before its letter; with no blank left, ``?``
    says so and puts nothing."""
    from letras.game import Game
    from letras.tiles import BLANK

    seed = next(s for s in range(1, 2000)
                if Game(PT, ["Ana", "Bruno"], seed=s).view(0).rack.count(BLANK) == 1)
    rack = Game(PT, ["Ana", "Bruno"], seed=seed).view(0).rack
    letter = PT.tiles.label(next(t for t in rack if t != BLANK))
    game: dict[str, Any] = live_server.call("POST", "/api/games", {
        "edition": "pt-BR", "seats": [{"name": "Ana"}, {"name": "Bruno"}], "seed": seed})
    page = new_page()
    page.goto(live_server.url + game["seats"][0]["url"])
    expect(page.locator('.rack-tile[data-id="?#1"]')).to_have_count(1)
    page.locator(square_id(7, 7)).click()
    page.keyboard.press("?")
    expect(page.locator(f"{square_id(7, 7)}.cursor.blank-next")).to_have_count(1)
    page.keyboard.press("Backspace")  # the "?" is taken back, nothing was placed
    expect(page.locator(".sq.blank-next")).to_have_count(0)
    expect(page.locator(".board .placed")).to_have_count(0)
    page.keyboard.press("?")
    press(page, letter)
    cell = page.locator(f"{square_id(7, 7)}.placed")
    expect(cell.locator(".face.blank .letter")).to_have_text(letter)
    expect(page.locator('.rack-tile[data-id="?#1"]')).to_have_count(0)
    expect(page.locator(f'.rack-tile[data-id="{letter}#1"]')).to_have_count(1)
    expect(page.locator("#preview")).to_contain_text(f"8H {letter.lower()}")
    page.keyboard.press("?")  # no blank left
    expect(page.locator(".sq.blank-next")).to_have_count(0)
    expect(page.get_by_text("Não há branco no seu suporte.")).to_be_visible()
    press(page, letter)  # the rack's own tile
    expect(page.locator(".board .placed")).to_have_count(2)
    expect(page.locator(f"{square_id(7, 8)} .face.blank")).to_have_count(0)
    expect(page.locator(f"{square_id(7, 8)} .letter")).to_have_text(letter)


def test_the_form_sends_the_rule_options_changed(live_server: Live, new_page: NewPage) -> None:
    page = new_page()
    page.goto(live_server.url + "/?lang=pt-BR")
    bingo, bag = page.locator("#rule-bingo-bonus"), page.locator("#rule-exchange-min-bag")
    # every option with its edition's default, filled in again when the edition changes
    expect(bingo).to_have_value("50")
    expect(page.locator("#challenge")).to_have_value("double")
    expect(page.locator("#rule-end-when-no-play-possible")).to_be_checked()
    expect(page.locator("label[for=rule-bingo-bonus]")).to_have_text(
        "Bônus por usar as sete pedras")
    expect(page.locator("#lexicon option")).to_have_text(["pt-BR"])
    bingo.fill("20")
    page.locator("#edition").select_option("it")
    expect(page.locator("#challenge")).to_have_value("penalty10")
    expect(bingo).to_have_value("50")
    expect(page.locator("#lexicon option")).to_have_text(["it"])
    expect(page.locator("input[name=clock][value=move]")).to_be_checked()
    page.locator("#edition").select_option("pt-BR")
    expect(page.locator("input[name=clock][value=none]")).to_be_checked()
    # two people (no computer to wait for), two options changed
    page.locator(".seat-kind").nth(1).select_option("")
    page.locator(".seat-name").nth(1).fill("Bruno")
    bingo.fill("35")
    bag.fill("1")
    with page.expect_request(lambda r: r.method == "POST"
                             and urlparse(r.url).path == "/api/games") as sent:
        page.locator("#create").click()
    body = sent.value.post_data_json
    assert isinstance(body, dict)
    assert body["rules"] == {"bingo_bonus": 35, "exchange_min_bag": 1}  # only what changed
    assert (body["lexicon"], body["clock"]) == ("pt-BR", "none")
    link = page.locator("#invites input").first
    expect(link).to_have_value(re.compile(r"/g/"))
    game, token = seat_of(link.input_value())
    view = live_server.state(game, token)["view"]
    assert view["lexicon"] == "pt-BR"
    rules = view["rules"]
    assert (rules["bingo_bonus"], rules["exchange_min_bag"]) == (35, 1)
    assert rules["challenge_rule"] == "double" and rules["time_control"]["kind"] == "none"


def test_after_the_game_examine_best_plays_and_rematch(live_server: Live, new_page: NewPage,
                                                       words: WordGraph) -> None:
    game, pages, first = two_pages(live_server, new_page, {"edition": "pt-BR", "seed": 23})
    seats = game["seats"]
    place, _ = best(my_turn(live_server, game["id"], seats[first]["token"]), words)
    live_server.call("POST", f"/api/games/{game['id']}/actions",
                     {"play": place.notation(PT)}, token=seats[first]["token"])
    while not live_server.state(game["id"], None)["view"]["over"]:  # then both pass to the end
        seat = live_server.state(game["id"], None)["step"]["seat"]
        live_server.call("POST", f"/api/games/{game['id']}/actions", {"pass": True},
                         token=seats[seat]["token"])
    ana = pages[0]
    expect(ana.locator("#turn")).to_have_text("Fim de jogo")
    ana.get_by_role("button", name="Examinar a partida").click()
    where = ana.locator("#review-where")
    expect(where).to_have_text(re.compile(r"Posição 0 de \d+"))
    for square, _ in place.placed():  # the empty board first
        expect(ana.locator(square_id(square.row, square.col)).locator(".letter")).to_have_count(0)
    ana.get_by_role("button", name="Próxima posição").click()
    expect(where).to_have_text(re.compile(r"Posição 1 de \d+"))
    for square, _ in place.placed():
        expect(ana.locator(square_id(square.row, square.col)).locator(".letter")).to_have_count(1)
    expect(ana.locator(".sheet tbody tr.later")).not_to_have_count(0)
    ana.get_by_role("button", name="Posição anterior").click()
    expect(where).to_have_text(re.compile(r"Posição 0 de \d+"))
    ana.get_by_role("button", name="Melhores jogadas desta vez").click()
    best_list = ana.get_by_role("list", name="Melhores jogadas")
    expect(best_list.locator("li")).not_to_have_count(0)
    expect(best_list.locator("li").first).to_contain_text("pontos")
    ana.get_by_role("button", name="Voltar à partida").click()
    expect(ana.locator(".sheet tbody tr.later")).to_have_count(0)
    ana.get_by_role("button", name="Revanche").click()
    ana.wait_for_url(lambda url: game["id"] not in url and "?token=" in url)
    expect(ana.locator(".rack .rack-tile")).to_have_count(7)
    expect(ana.locator("#turn")).not_to_have_text("Fim de jogo")
    link = pages[1].get_by_role("link", name="Ir para a revanche")  # Bruno is told
    expect(link).to_be_visible()
    link.click()
    pages[1].wait_for_url(ana.url.split("?")[0] + "?token=*")
    expect(pages[1].locator(".rack .rack-tile")).to_have_count(7)


@pytest.mark.slow
def test_open_pages_reconnect_after_kill_9(new_page: NewPage, tmp_path: Path) -> None:
    """The server process is killed with SIGKILL and started again on the same port and
    database: the open page reconnects by itself and goes on with the same game."""
    db = f"sqlite:///{tmp_path / 'letras.db'}"
    with letras_serve(db) as (address, server):
        live = Live(address)
        game = two_people(live, seed=31)
        ana, bruno = game["seats"]
        page = new_page()
        page.goto(address + ana["url"])
        expect(page.locator(".rack .rack-tile")).to_have_count(7)
        first = live.state(game["id"], None)["step"]["seat"]
        live.call("POST", f"/api/games/{game['id']}/actions", {"pass": True},
                  token=game["seats"][first]["token"])
        expect(page.locator(".sheet tbody tr")).to_have_count(1)
        kill_9(server)
    expect(page.locator(".conn")).to_have_text(re.compile("sem conexão"))
    port = int(address.rsplit(":", 1)[1])
    with letras_serve(db, port) as (again, _):
        assert again == address
        expect(page.locator(".conn")).to_have_text("conectado", timeout=30_000)
        expect(page.locator(".sheet tbody tr")).to_have_count(1)
        second = 1 - first
        live.call("POST", f"/api/games/{game['id']}/actions", {"pass": True},
                  token=game["seats"][second]["token"])
        expect(page.locator(".sheet tbody tr")).to_have_count(2)  # the new socket is live
        assert page.evaluate("window.letrasRoom.live.opened") == 2
        assert bruno["token"] not in page.content()


def test_resign_with_confirmation(live_server: Live, new_page: NewPage) -> None:
    game, pages, first = two_pages(live_server, new_page, {"edition": "pt-BR", "seed": 29})
    other = 1 - first  # not to move: one may resign at any time
    page = pages[other]
    page.get_by_role("button", name="Desistir").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text("Você perde")
    dialog.get_by_role("button", name="Cancelar").click()
    assert not live_server.state(game["id"], None)["view"]["over"]  # cancelled: nothing sent
    page.get_by_role("button", name="Desistir").click()
    page.get_by_role("dialog").get_by_role("button", name="Desistir").click()
    winner = game["seats"][first]["name"]
    for p in pages:
        expect(p.locator("#turn")).to_have_text("Fim de jogo")
        expect(p.locator(".result")).to_contain_text(winner)
    expect(page.get_by_role("button", name="Desistir")).to_be_disabled()
    assert live_server.state(game["id"], None)["view"]["resigned"] == other


def test_a_phone_types_with_its_on_screen_keyboard(live_server: Live, new_page: NewPage,
                                                   words: WordGraph) -> None:
    """On a touch screen a tapped square focuses the typing field (which opens the phone's
    keyboard); the keyboard's text (sent as input, not as key presses) goes to the board,
    a deletion takes the last tile back, and Enter plays."""
    game, _, first = two_pages(live_server, new_page, {"edition": "pt-BR", "seed": 41})
    seat = game["seats"][first]
    page = new_page(360, 740, touch=True)
    page.goto(live_server.url + seat["url"])
    expect(page.locator(".rack .rack-tile")).to_have_count(7)
    place, points = best(my_turn(live_server, game["id"], seat["token"]), words)
    field = page.get_by_role("textbox", name="Digitar letras no tabuleiro")
    expect(field).to_be_visible()
    start = place.square
    page.locator(square_id(start.row, start.col)).tap()
    expect(field).to_be_focused()
    if place.direction is Direction.DOWN:
        page.locator(square_id(start.row, start.col)).tap()  # a second tap turns it down
        expect(page.locator(".sq.cursor.down")).to_have_count(1)
    keys = keys_of(place)
    laid = len(keys) - keys.count("?")
    page.keyboard.insert_text("".join(keys).lower())
    expect(page.locator(".board .placed")).to_have_count(laid)
    page.keyboard.press("Backspace")  # the last tile goes back ...
    expect(page.locator(".board .placed")).to_have_count(laid - 1)
    last = keys[-2:] if len(keys) > 1 and keys[-2] == "?" else keys[-1:]
    page.keyboard.insert_text("".join(last))  # ... and comes again
    expect(page.locator(".board .placed")).to_have_count(laid)
    expect(page.locator("#preview")).to_contain_text(str(points))
    page.keyboard.press("Enter")
    expect(page.locator(".sheet tbody tr")).to_have_count(1)
    expect(page.locator(".sheet tbody tr").first).to_contain_text(f"+{points}")
