"""The word graphs of a server process (and of each worker): loaded once, by edition and name.

A client names a lexicon only among those the server offers: the shipped lexicons of the
edition (:func:`letras.lexicon.shipped_lexicons`), and graphs handed to the server when it was
made (tests give a small word list this way; such a graph is the default of its edition).
Never a file path from a request.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping

from letras.editions import Edition, find_edition
from letras.errors import LexiconError
from letras.lexicon.kwg import WordGraph


class UnknownLexiconError(LexiconError):
    """The edition has no lexicon of that name on this server."""


class Lexicons:
    """The lexicons a server offers. ``graphs`` maps an edition's name to a graph that is its
    default lexicon (and is found by its own name too)."""

    def __init__(self, graphs: Mapping[str, WordGraph] | None = None) -> None:
        self.graphs = dict(graphs or {})
        self._loaded: dict[tuple[str, str], WordGraph] = {}
        self._lock = threading.Lock()

    def names(self, edition: Edition | str) -> list[str]:
        """The lexicons of an edition, its default first."""
        from letras.lexicon import shipped_lexicons

        ed = find_edition(edition) if isinstance(edition, str) else edition
        out = []
        given = self.graphs.get(ed.name)
        if given is not None:
            out.append(given.name)
        shipped = sorted((e for e in shipped_lexicons().values() if e.edition == ed.name),
                         key=lambda e: (not e.is_default, e.name))
        out += [e.name for e in shipped if e.name not in out]
        return out

    def resolve(self, edition: Edition | str, name: str | None) -> str:
        """The name of the lexicon a request asks for (None: the edition's default); raises
        :class:`UnknownLexiconError`."""
        ed = find_edition(edition) if isinstance(edition, str) else edition
        known = self.names(ed)
        if name is None:
            if not known:
                raise UnknownLexiconError(f"no lexicon for edition {ed.name}",
                                          key="server.lexicon", lexicon="", known="")
            return known[0]
        if name not in known:
            raise UnknownLexiconError(
                f"no lexicon {name!r} for edition {ed.name} (known: {', '.join(known)})",
                key="server.lexicon", lexicon=name, known=", ".join(known))
        return name

    def graph(self, edition: Edition | str, name: str | None) -> WordGraph:
        """The word graph (loaded on first use, then kept; blocking: the first load of a
        shipped lexicon may take seconds)."""
        from letras.lexicon import load_lexicon

        ed = find_edition(edition) if isinstance(edition, str) else edition
        resolved = self.resolve(ed, name)
        given = self.graphs.get(ed.name)
        if given is not None and given.name == resolved:
            return given
        key = (ed.name, resolved)
        with self._lock:
            graph = self._loaded.get(key)
            if graph is None:
                lexicon = load_lexicon(ed, resolved, progress=_quiet)
                if not isinstance(lexicon, WordGraph):
                    raise UnknownLexiconError(f"lexicon {resolved!r} is not a word graph",
                                              key="server.lexicon", lexicon=resolved, known="")
                graph = self._loaded[key] = lexicon
        return graph


def _quiet(message: str) -> None:
    pass


__all__ = ["Lexicons", "UnknownLexiconError"]
