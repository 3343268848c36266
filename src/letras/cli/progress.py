"""A progress bar on stderr for the long commands (self-play, leave training)."""

from __future__ import annotations

import sys
import time

BAR = 30
"""Characters in the bar."""


class ProgressBar:
    """A one-line bar on stderr, redrawn at most ten times a second: ``bar(done, total)``,
    with an optional note after the rate; :meth:`close` ends the line."""

    def __init__(self, noun: str = "games") -> None:
        self.noun = noun
        self.start = time.perf_counter()
        self.drawn = 0.0
        self.shown = False

    def __call__(self, done: int, total: int, note: str = "") -> None:
        now = time.perf_counter()
        if done < total and now - self.drawn < 0.1:
            return
        self.drawn = now
        filled = BAR * done // total
        rate = done / (now - self.start) if now > self.start else 0.0
        sep = ", " if note else ""
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} "
                         f"{self.noun} {rate:.2f}/s{sep}{note} ")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()
