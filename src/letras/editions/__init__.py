"""Editions: a tile set, a board layout, a rack size and rule options, read from data files.

Each edition is one TOML file in ``editions/data`` (the tile table and the rule options that
differ from the defaults) plus a layout picture. Adding French or Polish is one more file.

>>> pt = find_edition("portuguese")
>>> pt.name, pt.tiles.total, pt.rules.challenge_rule
('pt-BR', 120, 'double')
>>> find_edition("it").rules.challenge_rule
'penalty10'
>>> find_edition("es").tiles.has_letter("K")
False
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, get_args

from letras.errors import UnknownEditionError
from letras.layout import Layout
from letras.tiles import TileSet

ChallengeRule = Literal["void", "single", "double", "5pt", "10pt", "penalty10"]
CHALLENGE_RULES: tuple[ChallengeRule, ...] = get_args(ChallengeRule)
"""What a failed challenge costs (rules.md section 5):

- ``void``: words are checked when played; an invalid play is refused and the player tries again;
- ``single``: nothing;
- ``double``: the challenger loses their next turn;
- ``5pt`` / ``10pt``: the challenged player gains 5 / 10 points;
- ``penalty10``: the challenger loses 10 points.
"""

TIME_CONTROL_KINDS = ("none", "game", "move")
MAX_OPTION = 1000
"""The largest value of a counting rule option (bag size, rounds, turns, points)."""
MAX_CLOCK_SECONDS = 7 * 24 * 3600
MAX_PLAYERS = 4
"""No edition is played by more (rules.md 7): the board and the bag are made for 2 to 4."""


def _count(name: str, value: object, low: int = 0, high: int = MAX_OPTION) -> None:
    """Refuse a rule option that is not a whole number from ``low`` to ``high``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"rule option {name} must be a whole number, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"rule option {name} must lie from {low} to {high}")


@dataclass(frozen=True)
class TimeControl:
    """How long players may think.

    - ``none``: no clock;
    - ``game``: a chess clock of ``seconds`` per player for the whole game; at the end a player
      over time loses ``penalty_per_minute`` points for each started minute over;
    - ``move``: at most ``seconds`` per turn; a turn that runs over is lost (scored as a pass).
    """

    kind: str = "none"
    seconds: int = 0
    penalty_per_minute: int = 10

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or self.kind not in TIME_CONTROL_KINDS:
            raise ValueError(f"time control kind must be one of {TIME_CONTROL_KINDS}")
        _count("time_control.seconds", self.seconds, 0, MAX_CLOCK_SECONDS)
        _count("time_control.penalty_per_minute", self.penalty_per_minute)
        if self.kind != "none" and self.seconds <= 0:
            raise ValueError("a time control needs a positive number of seconds")

    @classmethod
    def parse(cls, text: str) -> TimeControl:
        """``25m`` or ``1500s`` (a game clock), ``move:3m`` (per move), ``none``.

        >>> TimeControl.parse("25m")
        TimeControl(kind='game', seconds=1500, penalty_per_minute=10)
        """
        text = text.strip().lower()
        if text in ("", "none", "off"):
            return cls()
        kind = "game"
        if text.startswith("move:"):
            kind, text = "move", text[5:]
        unit = {"m": 60, "s": 1, "h": 3600}.get(text[-1:])
        number = text[:-1] if unit else text
        if not number.isdigit():
            raise ValueError(f"bad time control {text!r}: write like 25m, 90s or move:3m")
        return cls(kind, int(number) * (unit or 60))


@dataclass(frozen=True)
class RuleOptions:
    """Where the rule sheets disagree, the engine has an option (rules.md section 7)."""

    exchange_min_bag: int = 7
    challenge_rule: ChallengeRule = "double"
    pass_rounds_to_end: int = 2
    """Every player passing this many times in a row ends the game (0 = off)."""
    exchange_counts_as_pass: bool = False
    scoreless_turns_to_end: int = 0
    """That many scoreless turns in a row end the game (0 = off; 6 in WESPA play)."""
    end_when_no_play_possible: bool = True
    bingo_bonus: int = 50
    join_words_from_turn: int = 0
    """Plays that join two words already on the board are allowed from this turn on (1-based;
    0 = always, S1 says from the 4th play)."""
    time_control: TimeControl = field(default_factory=TimeControl)
    late_challenge: bool = False
    """A wrong word that nobody challenged may be challenged when a later play extends it:
    the extender takes the tiles back and plays again, keeping the turn (the Italian sheet,
    S4)."""
    min_players: int = 2
    max_players: int = 4

    def __post_init__(self) -> None:
        """Every option is checked: rule options come from files and strangers too."""
        if not isinstance(self.challenge_rule, str) or self.challenge_rule not in CHALLENGE_RULES:
            raise ValueError(f"challenge_rule is not one of {', '.join(CHALLENGE_RULES)}")
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name in ("challenge_rule", "time_control"):
                continue
            if f.name in ("exchange_counts_as_pass", "end_when_no_play_possible",
                          "late_challenge"):
                if not isinstance(value, bool):
                    raise TypeError(f"rule option {f.name} must be true or false, "
                                    f"not {type(value).__name__}")
            elif f.name in ("min_players", "max_players"):
                _count(f.name, value, 2, MAX_PLAYERS)
            else:
                _count(f.name, value)
        if self.min_players > self.max_players:
            raise ValueError("rule option min_players is more than max_players")
        if not isinstance(self.time_control, TimeControl):
            raise TypeError("rule option time_control must be a time control")

    def replace(self, **changes: Any) -> RuleOptions:
        """A copy with some options changed."""
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleOptions:
        data = dict(data)
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown rule options: {', '.join(sorted(unknown))}")
        tc = data.get("time_control")
        if isinstance(tc, dict):
            unknown = set(tc) - {"kind", "seconds", "penalty_per_minute"}
            if unknown:
                raise ValueError(f"unknown time control fields: {', '.join(sorted(unknown))}")
            data["time_control"] = TimeControl(**tc)
        elif isinstance(tc, str):
            data["time_control"] = TimeControl.parse(tc)
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


TOURNAMENT = RuleOptions(
    challenge_rule="5pt",
    pass_rounds_to_end=0,
    scoreless_turns_to_end=6,
    time_control=TimeControl("game", 25 * 60, 10),
    max_players=2,
)
"""The tournament preset of rules.md section 7 (WESPA-style)."""


@dataclass(frozen=True)
class Edition:
    """A national edition: its tiles, board, rack size and default rule options."""

    name: str
    title: str
    language: str
    aliases: tuple[str, ...]
    tiles: TileSet
    layout: Layout
    rack_size: int = 7
    rules: RuleOptions = field(default_factory=RuleOptions)

    def __repr__(self) -> str:
        return f"find_edition({self.name!r})"


_DATA = resources.files("letras.editions") / "data"


@cache
def _layout(name: str) -> Layout:
    return Layout.from_picture(name, (_DATA / f"{name}.board").read_text(encoding="utf-8"))


KINDS = {"blank": False, "vowel": True, "consonant": False}
"""The words of a tile table's fourth column, and whether each is a vowel."""


def _parse_tiles(table: str, name: str) -> TileSet:
    """A tile table: one line per tile code, the blank first, ``label value count kind``; the
    kind (``blank``, ``vowel`` or ``consonant``) may be left out on every line, and then the
    letters that fold to A E I O U are the vowels (:data:`~letras.tiles.PLAIN_VOWELS`)."""
    labels, values, counts, vowels = [], [], [], []
    lines = table.strip().splitlines()
    width = len(lines[0].split()) if lines else 3
    for line in lines:
        parts = line.split()
        if len(parts) != width or width not in (3, 4) or (
            width == 4 and parts[3] not in KINDS
        ):
            raise ValueError(f"edition {name}: bad tile line {line!r}")
        labels.append(parts[0])
        values.append(int(parts[1]))
        counts.append(int(parts[2]))
        if width == 4:
            if (parts[3] == "blank") != (len(labels) == 1):
                raise ValueError(f"edition {name}: the blank, and only the blank, comes "
                                 f"first, of kind 'blank': {line!r}")
            vowels.append(KINDS[parts[3]])
    return TileSet(tuple(labels), tuple(values), tuple(counts), tuple(vowels))


def load_edition(text: str) -> Edition:
    """Read an edition from the text of its TOML file."""
    data = tomllib.loads(text)
    name = data["name"]
    return Edition(
        name=name,
        title=data.get("title", name),
        language=data.get("language", name),
        aliases=tuple(data.get("aliases", ())),
        tiles=_parse_tiles(data["tiles"], name),
        layout=_layout(data.get("board", "standard")),
        rack_size=int(data.get("rack_size", 7)),
        rules=RuleOptions.from_dict(data.get("rules", {})),
    )


@cache
def editions() -> dict[str, Edition]:
    """Every shipped edition by name, the primary edition (pt-BR) first."""
    found = {}
    for entry in sorted(_DATA.iterdir(), key=lambda e: (e.name != "pt-BR.toml", e.name)):
        if entry.name.endswith(".toml"):
            edition = load_edition(entry.read_text(encoding="utf-8"))
            found[edition.name] = edition
    return found


def find_edition(name: str) -> Edition:
    """An edition by name or alias, case-insensitive (``pt-BR``, ``pt``, ``portuguese``, ``es``).

    >>> find_edition("PT_br").name
    'pt-BR'
    """
    key = name.strip().lower().replace("_", "-")
    for edition in editions().values():
        names = (edition.name, *edition.aliases)
        if key in (n.lower().replace("_", "-") for n in names):
            return edition
    known = ", ".join(editions())
    raise UnknownEditionError(f"unknown edition {name!r} (known: {known})")


DEFAULT_EDITION = "pt-BR"
