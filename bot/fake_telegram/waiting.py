"""Waiting for the bot: until a condition holds, a button is answered, or all is delivered."""

from __future__ import annotations

from collections.abc import Callable
from typing import Self

from .inspection import Inspection
from .models import CallbackAnswer, JSONDict


class Waiting(Inspection):
    """The test-facing waits; each is woken on every change the server makes, none polls."""

    async def wait_for(
        self, predicate: Callable[[Self], bool], timeout: float = 5.0
    ) -> None:
        """Wait (woken on every bot request) until ``predicate(server)`` is true."""
        if not await self.wait_until(predicate, timeout):
            raise TimeoutError(
                f"condition {getattr(predicate, '__name__', predicate)!s} not met within "
                f"{timeout}s\n{self.dump()}"
            )

    async def wait_until(self, predicate: Callable[[Self], bool], timeout: float) -> bool:
        """Like :meth:`wait_for`, but a timeout returns False (a watcher waiting for news)."""
        return await self.changes.wait_until(lambda: predicate(self), timeout)

    async def wait_answer(self, query: CallbackAnswer | str, timeout: float = 5.0) -> JSONDict:
        """Wait for the bot's answerCallbackQuery of a pressed button; returns its params."""
        handle = query if isinstance(query, CallbackAnswer) else self.callbacks[query]
        try:
            return await handle.wait(timeout)
        except TimeoutError as err:
            raise TimeoutError(f"{err}\n{self.dump()}") from None

    async def wait_idle(self, timeout: float = 5.0) -> None:
        """Wait until every pushed update was fetched (or taken by the webhook) and every pressed button answered."""
        def idle(server: Waiting) -> bool:
            queue = server.updates  # a webhook's update stays queued until the bot took it
            taken = not (queue.webhook_active and queue.deliverable())
            return taken and not queue.undelivered() and not server.unanswered_callbacks()

        await self.wait_for(idle, timeout)
