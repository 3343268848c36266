"""What the table refuses: an error that names its message and carries its facts."""

from __future__ import annotations

from letras.errors import LetrasError
from letras.i18n import messages


class TableError(LetrasError):
    """Something a seat asked of the table that cannot be done now. ``key`` and ``values``
    name the message that explains why (see :mod:`letras.i18n`); ``str()`` gives it in
    English.

    >>> e = TableError("undo.none")
    >>> e.key, str(e).startswith("nothing to take back")
    ('undo.none', True)
    """

    def __init__(self, key: str, /, **values: object) -> None:
        super().__init__(messages("en")(key, **values), key=key, **values)


__all__ = ["TableError"]
