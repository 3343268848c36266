"""What a player types at the prompt, read into a :class:`Command`.

A line that starts with a coordinate is a play (``8d casa``). Otherwise the first word names a
command, in English or in the table's language (``pass`` or ``passar``), case and accents
ignored; the rest of the line is its argument. GCG's own short forms work too: ``-`` passes,
``-ABC`` exchanges A, B and C.

>>> from letras.i18n import messages
>>> pt = messages("pt-BR")
>>> read_command("8d casa", pt)
Command(name='play', arg='8d casa')
>>> read_command("Trocar  abc", pt), read_command("-xyz", pt)
(Command(name='exchange', arg='abc'), Command(name='exchange', arg='xyz'))
>>> read_command("contestar", pt), read_command("pass", pt)
(Command(name='challenge', arg=''), Command(name='pass', arg=''))
>>> read_command("jump", pt)
Traceback (most recent call last):
...
letras.table.errors.TableError: don't know what 'jump' means: type 'help' for the commands
"""

from __future__ import annotations

from dataclasses import dataclass

from letras.i18n import Messages, messages
from letras.terminal import InputError
from letras.terminal.entry import looks_like_play
from letras.tiles import fold

COMMANDS = (
    "exchange", "pass", "challenge", "hint", "undo", "save", "quit", "help", "board", "sheet",
    "resign",
)
"""Every command besides a play, in the order the help lists them."""

TAKES_ARGUMENT = frozenset({"exchange", "challenge", "hint", "save"})


@dataclass(frozen=True)
class Command:
    """``name`` is ``play`` or one of :data:`COMMANDS`; ``arg`` the rest of the line."""

    name: str
    arg: str = ""


def command_words(language: Messages) -> dict[str, str]:
    """Each word that names a command (folded to capitals) -> the command."""
    out: dict[str, str] = {}
    for table in (messages("en"), language):
        for name in COMMANDS:
            for word in table.words(f"command.{name}"):
                out[fold(word)] = name
    return out


def read_command(line: str, language: Messages) -> Command:
    """The command a line of input gives (see the module docstring). An empty line is
    :class:`InputError` ``input.empty``."""
    text = line.strip()
    if not text:
        raise InputError("input.empty")
    if looks_like_play(text):
        return Command("play", text)
    if text == "-":
        return Command("pass")
    if text.startswith("-") and not text.startswith("--"):
        return Command("exchange", text[1:].strip())
    head, _, rest = text.partition(" ")
    name = command_words(language).get(fold(head))
    if name is None:
        raise InputError("input.unknown", text=head)
    rest = rest.strip()
    if rest and name not in TAKES_ARGUMENT:
        raise InputError("input.no_argument", command=head)
    return Command(name, rest)


__all__ = ["COMMANDS", "Command", "command_words", "read_command"]
