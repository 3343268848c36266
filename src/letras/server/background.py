"""A background task of the server's event loop, started with the app and stopped with it."""

from __future__ import annotations

import asyncio
import contextlib


class Background:
    """Runs :meth:`_run` as one task: :meth:`start` in the app's event loop (once),
    :meth:`close` when the app stops (cancels it and waits)."""

    name = "letras-background"

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name=self.name)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

    async def _run(self) -> None:
        raise NotImplementedError


__all__ = ["Background"]
