"""The fake server's change signal: every change wakes every waiter, and closing ends every wait."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


class ChangeSignal:
    """One condition for the whole server, notified after every change it makes.

    Waiters (long polls, late answers, tests) pass a predicate and are woken to check it again
    after each change, so nobody polls and nobody misses a change.
    """

    def __init__(self) -> None:
        self._condition = asyncio.Condition()
        self.closing = False
        """Set when the server starts closing; every wait watches it to end early."""

    async def notify(self) -> None:
        """Wake every waiter to check its predicate again."""
        async with self._condition:
            self._condition.notify_all()

    async def wait_until(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` holds (checked at once and after every change); False on timeout."""
        async with self._condition:
            try:
                await asyncio.wait_for(self._condition.wait_for(predicate), timeout)
            except TimeoutError:
                return False
        return True

    async def sleep(self, seconds: float) -> None:
        """Sleep ``seconds`` without blocking other calls; closing the server ends it early."""
        await self.wait_until(lambda: self.closing, seconds)
