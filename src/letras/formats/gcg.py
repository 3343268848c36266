"""GCG game records: a plain data model, a lenient reader and a canonical writer.

GCG is the text format of Quackle, Macondo and Woogles: pragma lines (``#player1 doug Doug``,
``#lexicon NWL18``, ``#note ...``) and one event line per turn (``>doug: DINNVWY 8D WINDY +32 32``:
player, rack, play, score, running total). Like python-chess's PGN reader, :func:`read_gcg` never
raises on bad input: it skips what it cannot understand and lists each problem, with its line
number, in :attr:`GcgRecord.errors`. :func:`write_gcg` writes a record back canonically.

>>> record = read_gcg('''#player1 doug Doug
... #player2 emely Emely
... >doug: YWNNIDV 8D WINDY +32 32
... >emely: ADEEGIL 7C GALE +16 16
... #note a fine start''')
>>> [(e.player, e.kind.value, e.score, e.total) for e in record.events]
[('doug', 'play', 32, 32), ('emely', 'play', 16, 16)]
>>> print(write_gcg(record), end="")
#character-encoding UTF-8
#player1 doug Doug
#player2 emely Emely
>doug: DINNVWY 8D WINDY +32 32
>emely: ADEEGIL 7C GALE +16 16
#note a fine start

What a write -> read round trip does not keep (and equality does not compare): line numbers,
:attr:`GcgRecord.errors` and :attr:`GcgRecord.encoding`. It also drops a ``#tile-distribution``
pragma that only repeats what the lexicon implies and trailing blank lines of a note; an empty
rack reads as no rack, an empty full name as the nickname. Racks are multisets, kept in one order
(:func:`as_rack`) from the start. A line of a note that begins with ``#`` or ``>`` cannot be
written: it would read as a pragma or an event.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from letras.editions import Edition, find_edition
from letras.errors import FormatError, NotationError, UnknownEditionError
from letras.play import Exchange, Pass, Place, parse_coordinate
from letras.tiles import TileSet, rack_tile


class EventKind(enum.Enum):
    """What one event line records."""

    PLAY = "play"
    """``8D WINDY``: tiles laid on the board."""
    PASS = "pass"
    """``-``."""
    EXCHANGE = "exchange"
    """``-AEI`` (tiles known) or ``-3`` (only how many)."""
    WITHDRAWN = "withdrawn"
    """``--``: the previous play was a phony, its tiles go back and its score is taken off."""
    CHALLENGE_BONUS = "challenge-bonus"
    """``(challenge)``: points for the player whose play was challenged and stood (or, as
    ``-10``, the points a challenger loses under the ``penalty10`` rule)."""
    END_POINTS = "end-points"
    """``(TILES) +N``: the player who went out gains the value of the other racks (twice the
    opponent's rack, with no line for the opponent, as two-player records of Quackle, Macondo
    and Woogles write it)."""
    END_PENALTY = "end-penalty"
    """``(TILES) -N``: a player loses the value of their own rack left at the end."""
    TIME_PENALTY = "time-penalty"
    """``(time) -10``: points lost for going over time."""


NOTICES = frozenset({"encoding", "lexicon"})
"""Reasons of :class:`GcgError` that lose nothing: the reader made a guess and went on."""


class GcgError(FormatError):
    """A problem found while reading a GCG record, at a line (1-based).

    ``reason`` is one of ``junk`` (a line that is neither pragma, event nor note), ``bad-pragma``,
    ``bad-event`` (the event was skipped), ``unknown-tile`` (the event uses ``letters`` that the
    edition lacks; it was skipped), ``unknown-edition``, ``too-long`` (a line longer than
    :data:`MAX_GCG_LINE`, skipped, or a record larger than :data:`MAX_GCG_BYTES`, not read), and
    the notices ``encoding`` and ``lexicon``.
    """

    def __init__(self, line: int, message: str, reason: str, letters: str = "") -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message
        self.reason = reason
        self.letters = letters

    @property
    def is_notice(self) -> bool:
        return self.reason in NOTICES


@dataclass(frozen=True)
class GcgPlayer:
    """A ``#playerN`` pragma: the nickname used in events and the full name (the nickname when
    not given)."""

    nickname: str
    name: str = ""

    def __post_init__(self) -> None:
        if not self.name:
            object.__setattr__(self, "name", self.nickname)


Rack = tuple[int, ...]


def as_rack(tiles: Iterable[int] | None) -> Rack:
    """Rack tiles in canonical order: sorted, designated blanks back to blanks (``0``) first.

    >>> as_rack([5, 0x81, 1])
    (0, 1, 5)
    """
    return tuple(sorted(rack_tile(t) for t in tiles or ()))


@dataclass
class GcgEvent:
    """One event line, with the notes that follow it.

    ``rack`` is the rack before the turn (sorted, ``0`` for a blank) or ``None`` when not given;
    ``action`` is the :class:`~letras.play.Place`, :class:`~letras.play.Exchange` or
    :class:`~letras.play.Pass` of a play, exchange or pass; ``counted`` the tiles in parentheses
    of end-of-game rack points; ``score`` the recorded change, ``total`` the recorded running
    total of the player.
    """

    player: str
    kind: EventKind
    score: int
    total: int
    rack: Rack | None = None
    action: Place | Exchange | Pass | None = None
    counted: Rack = ()
    notes: list[str] = field(default_factory=list)
    line: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        # Racks are multisets: kept sorted, blanks (0) first, so that equal racks compare equal.
        self.rack = as_rack(self.rack) or None
        self.counted = as_rack(self.counted)
        if isinstance(self.action, Exchange) and self.action.tiles:
            self.action = Exchange(as_rack(self.action.tiles))
        wanted = {EventKind.PLAY: Place, EventKind.EXCHANGE: Exchange, EventKind.PASS: Pass}
        need = wanted.get(self.kind)
        if need is not None and not isinstance(self.action, need):
            raise ValueError(f"a {self.kind.value} event needs a {need.__name__} action")
        if need is None and self.action is not None:
            raise ValueError(f"a {self.kind.value} event has no action")
        if (self.kind is EventKind.END_POINTS and self.score < 0) or (
            self.kind is EventKind.END_PENALTY and self.score > 0
        ):
            raise ValueError(f"a {self.kind.value} event cannot score {self.score:+d}")


def _english() -> Edition:
    return find_edition("en")


@dataclass
class GcgRecord:
    """A game record: pragmas, notes before the first event, events, final racks and the
    problems met while reading (``errors``, not compared)."""

    edition: Edition = field(default_factory=_english)
    players: list[GcgPlayer] = field(default_factory=list)
    lexicon: str | None = None
    title: str | None = None
    description: str | None = None
    id: str | None = None
    pragmas: list[tuple[str, str]] = field(default_factory=list)
    """Other pragmas (``#game-type classic``) as (name, value), in order."""
    notes: list[str] = field(default_factory=list)
    events: list[GcgEvent] = field(default_factory=list)
    final_racks: dict[int, Rack] = field(default_factory=dict)
    """``#rack1`` / ``#rack2``: the racks at the end of the record, by player number."""
    errors: list[GcgError] = field(default_factory=list, compare=False)
    encoding: str | None = field(default=None, compare=False)
    """How the bytes were decoded (``UTF-8``, ``ISO-8859-1``); None when read from text."""

    def __post_init__(self) -> None:
        self.final_racks = {n: as_rack(rack) for n, rack in self.final_racks.items()}

    def totals(self) -> dict[str, int]:
        """Each player's last recorded running total (0 before their first event)."""
        out = {p.nickname: 0 for p in self.players}
        for event in self.events:
            out[event.player] = event.total
        return out


# --- choosing the edition -------------------------------------------------------------------

_LEXICON_PREFIXES = (
    ("en", ("NWL", "TWL", "OWL", "OTCWL", "CSW", "SOWPODS", "COLLINS", "ENABLE", "ECWL", "CEL",
            "AMERICA", "WOW", "OSPD", "OSW", "NSWL")),
    ("es", ("FILE", "FISE", "DRAE", "LEXIS")),
    ("it", ("ITA", "ZINGA", "DIZ")),
    ("pt-BR", ("VOLP", "PORT", "PTBR", "PT-BR")),
)


def edition_for_lexicon(lexicon: str | None) -> Edition | None:
    """The shipped edition a lexicon name implies, or None when it implies none.

    >>> edition_for_lexicon("NWL23").name, edition_for_lexicon("FILE2017").name
    ('en', 'es')
    >>> edition_for_lexicon("OSPS44") is None
    True
    """
    if not lexicon:
        return None
    name = lexicon.strip().upper()
    for edition, prefixes in _LEXICON_PREFIXES:
        if name.startswith(prefixes):
            return find_edition(edition)
    try:
        return find_edition(name)
    except UnknownEditionError:
        return None


def _pragma_value(lines: Sequence[str], name: str) -> tuple[int, str] | None:
    for n, line in enumerate(lines, 1):
        m = _PRAGMA.fullmatch(line.strip())
        if m and m.group(1).lower() == name:
            return n, (m.group(2) or "").strip()
    return None


def _choose_edition(lines: Sequence[str], errors: list[GcgError]) -> Edition:
    found = _pragma_value(lines, "tile-distribution")
    if found:
        try:
            return find_edition(found[1])
        except UnknownEditionError:
            errors.append(GcgError(
                found[0], f"tile distribution {found[1]!r} is not a shipped edition",
                "unknown-edition",
            ))
    found = _pragma_value(lines, "lexicon")
    if found and found[1]:
        edition = edition_for_lexicon(found[1])
        if edition is not None:
            return edition
        errors.append(GcgError(
            found[0], f"lexicon {found[1]!r} implies no shipped edition: reading with en",
            "lexicon",
        ))
    return _english()


# --- decoding ---------------------------------------------------------------------------------

_CODECS = {"UTF8": "UTF-8", "ISO88591": "ISO-8859-1", "LATIN1": "ISO-8859-1"}
_ENCODING_PRAGMA = re.compile(rb"^(?:\xef\xbb\xbf)?[ \t]*#character-encoding[ \t]+(\S+)", re.M)


def _guess(data: bytes) -> tuple[str, str]:
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return data.decode("iso-8859-1"), "ISO-8859-1"


def decode_gcg(data: bytes, errors: list[GcgError]) -> tuple[str, str]:
    """The text of a GCG file and the encoding used: the ``#character-encoding`` pragma when it
    names UTF-8 or ISO-8859-1 and fits the bytes, else UTF-8 when the bytes are valid UTF-8,
    else ISO-8859-1. A guess against the pragma is noted in ``errors``.

    >>> decode_gcg("#player1 césar".encode("latin-1"), [])
    ('#player1 césar', 'ISO-8859-1')
    """
    m = _ENCODING_PRAGMA.search(data)
    if m is None:
        return _guess(data)
    declared = m.group(1).decode("ascii", "replace")
    line = data.count(b"\n", 0, m.start()) + 1
    codec = _CODECS.get(re.sub("[^A-Z0-9]", "", declared.upper()))
    if codec is None:
        text, used = _guess(data)
        errors.append(GcgError(
            line, f"unsupported character encoding {declared!r}: read as {used}", "encoding"
        ))
        return text, used
    try:
        return data.decode(codec), codec
    except UnicodeDecodeError:
        errors.append(GcgError(
            line, f"the bytes are not {declared}: read as ISO-8859-1", "encoding"
        ))
        return data.decode("iso-8859-1"), "ISO-8859-1"


# --- reading ----------------------------------------------------------------------------------

_PRAGMA = re.compile(r"#([A-Za-z][\w-]*)(?:\s+(.*))?")
_NUMBER = re.compile(r"[+-]?\d{1,20}")
MAX_GCG_BYTES = 1 << 20
"""The largest record read (1 MiB; a game with long notes is a few tens of kilobytes)."""
MAX_GCG_LINE = 20_000
"""The longest line read, in characters; a longer one is skipped with an error."""
MAX_PLAYER_NUMBER_DIGITS = 3
_HEADER_PRAGMAS = ("title", "description", "id", "lexicon")
_CONSUMED_PRAGMAS = ("character-encoding", "tile-distribution")


class _UnknownTiles(Exception):
    def __init__(self, letters: str) -> None:
        super().__init__(letters)
        self.letters = letters


def read_gcg(data: bytes | str, edition: Edition | None = None) -> GcgRecord:
    """Read a GCG record from bytes (decoded as :func:`decode_gcg` says) or text.

    Without ``edition`` the tile set comes from ``#tile-distribution``, else from ``#lexicon``
    (:func:`edition_for_lexicon`), else English. Never raises on bad input: problems go to
    :attr:`GcgRecord.errors` and the lines that cause them are skipped.

    >>> r = read_gcg(">a: ABC 8Z CAB +10 10\\njunk\\n>b: ?E 8G bE +1 1")
    >>> for error in r.errors:
    ...     print(error.line, error.reason, error.message[:40])
    1 bad-event bad coordinate '8Z': write row first for
    2 junk not a pragma, an event or a note: 'junk'
    >>> r.events[0].action.notation(r.edition), r.events[0].rack
    ('8G bE', (0, 5))
    """
    errors: list[GcgError] = []
    encoding = None
    if len(data) > MAX_GCG_BYTES:
        unit = "bytes" if isinstance(data, bytes) else "characters"
        errors.append(GcgError(1, f"the record is longer than {MAX_GCG_BYTES:,} {unit}, more "
                                  "than a game record can be: not read", "too-long"))
        return GcgRecord(edition=edition or _english(), errors=errors)
    if isinstance(data, bytes):
        text, encoding = decode_gcg(data, errors)
    else:
        text = data
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if edition is None:
        edition = _choose_edition(lines, errors)
    record = GcgRecord(edition=edition, errors=errors, encoding=encoding)
    _Reader(record).read(lines)
    return record


class _Reader:
    def __init__(self, record: GcgRecord) -> None:
        self.record = record
        self.tiles = record.edition.tiles
        self.players: dict[int, GcgPlayer] = {}
        self.note: list[str] | None = None  # the lines of the note being read
        self.blank_lines = 0
        chars = "".join(self.tiles.labels[1:])
        self.letters = frozenset(chars.upper() + chars.lower())

    def error(self, line: int, message: str, reason: str, letters: str = "") -> None:
        self.record.errors.append(GcgError(line, message, reason, letters))

    def read(self, lines: Sequence[str]) -> None:
        for n, raw in enumerate(lines, 1):
            if len(raw) > MAX_GCG_LINE:
                self.end_note()
                self.error(n, f"a line of {len(raw):,} characters, more than {MAX_GCG_LINE:,}: "
                              "skipped", "too-long")
                continue
            line = raw.rstrip()
            head = line.lstrip()[:1]
            if head in ("#", ">"):
                self.end_note()
                if head == "#":
                    self.pragma(n, line.strip())
                else:
                    self.event(n, line.strip())
            elif self.note is not None:
                if line:
                    self.note.extend([""] * self.blank_lines)
                    self.note.append(line)
                    self.blank_lines = 0
                else:
                    self.blank_lines += 1
            elif line:
                self.error(n, f"not a pragma, an event or a note: {line!r}", "junk")
        self.end_note()
        self.record.players = [self.players[k] for k in sorted(self.players)]

    def end_note(self) -> None:
        if self.note is not None:
            target = self.record.events[-1].notes if self.record.events else self.record.notes
            target.append("\n".join(self.note))
        self.note, self.blank_lines = None, 0

    def pragma(self, n: int, line: str) -> None:
        m = _PRAGMA.fullmatch(line)
        if m is None:
            self.error(n, f"not a pragma: {line!r}", "bad-pragma")
            return
        name, value = m.group(1).lower(), (m.group(2) or "").strip()
        number = name[6:] if name.startswith("player") else name[4:]
        if name == "note":
            self.note = [value]
        elif name.startswith(("player", "rack")) and number.isdecimal():
            if len(number) > MAX_PLAYER_NUMBER_DIGITS:
                self.error(n, f"#{name[:12]}...: no player has such a number", "bad-pragma")
            elif name.startswith("player"):
                parts = value.split(None, 1)
                if not parts:
                    self.error(n, f"#{name} needs a nickname", "bad-pragma")
                    return
                self.players[int(number)] = GcgPlayer(parts[0], parts[1] if len(parts) > 1 else "")
            else:
                rack = self.tile_text(n, value, rack=True, what=f"#{name}")
                if rack is not None:
                    self.record.final_racks[int(number)] = rack
        elif name in _HEADER_PRAGMAS:
            setattr(self.record, name, value)
        elif name not in _CONSUMED_PRAGMAS:
            self.record.pragmas.append((name, value))

    def tile_text(self, n: int, text: str, *, rack: bool, what: str) -> Rack | None:
        """Parse tiles, or record why not and return None."""
        try:
            return self.parse_tiles(text, rack=rack)
        except _UnknownTiles as e:
            shown = ", ".join(e.letters)
            self.error(n, f"{what}: no tile {shown} in edition {self.record.edition.name}",
                       "unknown-tile", e.letters)
        except NotationError as e:
            self.error(n, f"{what}: {e}", "bad-pragma")
        return None

    def shown(self, char: str) -> str:
        """A letter the edition lacks, in capitals when that is one other letter it lacks."""
        upper = char.upper()
        return upper if len(upper) == 1 and upper not in self.letters else char

    def parse_tiles(self, text: str, *, rack: bool) -> Rack:
        """Tiles of a rack (sorted, blanks as 0) or of a play. Strict about letters: the edition
        must have each one as written (no folding of accents: ``Ó`` is not ``O``)."""
        extra = "?[]" if rack else ".[]"
        unknown = {c for c in text if c not in self.letters and c not in extra}
        letters = {self.shown(c) for c in unknown if c.isalpha()}
        if letters:
            raise _UnknownTiles("".join(sorted(letters)))
        if unknown:
            raise NotationError(f"unexpected {''.join(sorted(unknown))!r} in {text!r}")
        if rack:
            return as_rack(self.tiles.parse(text.upper(), rack=True))
        return self.tiles.parse(text, through=True)

    def event(self, n: int, line: str) -> None:
        # '>' nickname ':' fields, split by hand: a pattern for it backtracks quadratically
        colon = line.find(":")
        player = line[1:colon].strip() if colon > 0 else ""
        if not player:
            self.error(n, f"an event is '>nickname: RACK MOVE +SCORE TOTAL', not {line!r}",
                       "bad-event")
            return
        fields = line[colon + 1 :].split()
        if len(fields) < 3:
            self.error(n, f"an event needs a move, a score and a total: {line!r}", "bad-event")
            return
        *body, score_text, total_text = fields
        if not (_NUMBER.fullmatch(score_text) and _NUMBER.fullmatch(total_text)):
            self.error(n, f"bad score or total {score_text!r} {total_text!r} in {line!r}",
                       "bad-event")
            return
        score = int(score_text)
        try:
            kind, action, counted, rest = self.move(body, score_text.startswith("-"))
            if len(rest) > 1:
                raise NotationError(f"too many fields before the score in {line!r}")
            rack = self.parse_tiles(rest[0], rack=True) if rest else None
        except _UnknownTiles as e:
            shown = ", ".join(e.letters)
            self.error(n, f"no tile {shown} in edition {self.record.edition.name}: "
                       f"event skipped", "unknown-tile", e.letters)
            return
        except ValueError as e:  # NotationError, or a bad number such as a superscript digit
            self.error(n, f"{e}: event skipped", "bad-event")
            return
        self.record.events.append(GcgEvent(
            player, kind, score, int(total_text), rack, action, counted, line=n
        ))

    def move(
        self, body: list[str], negative: bool
    ) -> tuple[EventKind, Place | Exchange | Pass | None, Rack, list[str]]:
        """The kind, action and counted tiles of an event's move, and the fields before it."""
        last, rest = body[-1], body[:-1]
        word = last.lower()
        if word == "--":
            return EventKind.WITHDRAWN, None, (), rest
        if word in ("(challenge)", "(time)"):
            kind = EventKind.CHALLENGE_BONUS if word == "(challenge)" else EventKind.TIME_PENALTY
            return kind, None, (), rest
        if last.startswith("(") and last.endswith(")"):
            kind = EventKind.END_PENALTY if negative else EventKind.END_POINTS
            return kind, None, self.parse_tiles(last[1:-1], rack=True), rest
        if last == "-":
            return EventKind.PASS, Pass(), (), rest
        if last.startswith("-"):
            if last[1:].isdecimal():
                return EventKind.EXCHANGE, Exchange(count=int(last[1:])), (), rest
            return EventKind.EXCHANGE, Exchange(self.parse_tiles(last[1:], rack=True)), (), rest
        if not rest:
            raise NotationError(f"a play is a coordinate and tiles, like '8D WINDY', not {last!r}")
        square, direction = parse_coordinate(rest[-1], self.record.edition.layout.size)
        tiles = self.parse_tiles(last, rack=False)
        if not tiles:
            raise NotationError("a play needs tiles")
        return EventKind.PLAY, Place(square, direction, tiles), (), rest[:-1]


# --- writing ----------------------------------------------------------------------------------


def write_gcg(record: GcgRecord) -> str:
    """The record as canonical GCG text: ``#character-encoding UTF-8`` first, then players,
    title, description, id, lexicon, the tile distribution when the lexicon does not imply it,
    other pragmas, notes, events (each followed by its notes) and final racks."""
    tiles = record.edition.tiles
    out = ["#character-encoding UTF-8"]
    for i, player in enumerate(record.players, 1):
        out.append(f"#player{i} {player.nickname} {player.name}")
    for name in _HEADER_PRAGMAS:
        value = getattr(record, name)
        if value is not None:
            out.append(f"#{name} {value}".rstrip())
    implied = edition_for_lexicon(record.lexicon) or _english()
    if implied.name != record.edition.name:
        out.append(f"#tile-distribution {record.edition.name}")
    out.extend(f"#{name} {value}".rstrip() for name, value in record.pragmas)
    for note in record.notes:
        out.append(f"#note {note}".rstrip())
    for event in record.events:
        out.append(event_line(event, record.edition))
        out.extend(f"#note {note}".rstrip() for note in event.notes)
    for number, rack in sorted(record.final_racks.items()):
        out.append(f"#rack{number} {format_rack(tiles, rack)}".rstrip())
    return "\n".join(out) + "\n"


def format_rack(tiles: TileSet, rack: Sequence[int]) -> str:
    """A rack as GCG writes it: ``?`` for a blank, multi-letter tiles bracketed."""
    return tiles.format((rack_tile(t) for t in rack), rack=True)


def format_play_tiles(tiles: TileSet, word: Sequence[int]) -> str:
    """A play's tiles, ``.`` for board tiles; a one-letter tile that would read as the start of
    a multi-letter one (Spanish C then H) is bracketed, ``[C]H``, so that it reads back."""
    return tiles.format(word, through=".")


def place_text(tiles: TileSet, place: Place) -> str:
    """A play as an event writes it: ``8D WINDY``, ``E3 JAVE..N``."""
    return f"{place.coordinate()} {format_play_tiles(tiles, place.tiles)}"


def _move_text(event: GcgEvent, edition: Edition) -> str:
    tiles = edition.tiles
    action = event.action
    simple: dict[EventKind, Callable[[], str]] = {
        EventKind.WITHDRAWN: lambda: "--",
        EventKind.CHALLENGE_BONUS: lambda: "(challenge)",
        EventKind.TIME_PENALTY: lambda: "(time)",
        EventKind.END_POINTS: lambda: f"({format_rack(tiles, event.counted)})",
        EventKind.END_PENALTY: lambda: f"({format_rack(tiles, event.counted)})",
        EventKind.PASS: lambda: "-",
    }
    if event.kind in simple:
        return simple[event.kind]()
    if isinstance(action, Exchange):
        return "-" + format_rack(tiles, action.tiles) if action.tiles else f"-{action.count}"
    assert isinstance(action, Place)
    return place_text(tiles, action)


def event_line(event: GcgEvent, edition: Edition) -> str:
    """One event as a GCG line, ``>doug: DINNVWY 8D WINDY +32 32``."""
    rack = f" {format_rack(edition.tiles, event.rack)}" if event.rack else ""
    score = f"{event.score:+d}"
    if event.kind is EventKind.END_PENALTY and event.score == 0:
        score = "-0"
    return f">{event.player}:{rack} {_move_text(event, edition)} {score} {event.total}"
