"""``python -m letras``: the command line, as the ``letras`` script runs it."""

from __future__ import annotations

import sys

from letras.cli import main

if __name__ == "__main__":
    sys.exit(main())
