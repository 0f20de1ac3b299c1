"""Group commit for the statements every press makes: the calls that arrive while one is on its way
to the database go together as the next one, one statement for many games.

A call returns only once a statement begun after it has answered, so a read sees every write that
came before it and a write is stored when it returns, exactly as if each call had its own statement.
When the bot is quiet each call has its statement to itself at once; under load a hundred chats'
presses share a few, which spares the round trips a pool of connections would otherwise queue for.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, Generic, TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")
Answer = TypeVar("Answer")

Run = Callable[[dict[Key, Value]], Awaitable[dict[Key, Answer]]]  # every waiting call's value → answers by key


def _retrieved(batch: asyncio.Future[Any]) -> None:
    """A batch whose callers all went away (cancelled) must not log «exception never retrieved»."""
    if not batch.cancelled():
        batch.exception()


class Batched(Generic[Key, Value, Answer]):
    """Calls ``(key, value)`` made together by ``run``; two calls for one key in one batch keep
    ``merge(first, second)``."""

    def __init__(self, run: Run[Key, Value, Answer],
                 merge: Callable[[Value, Value], Value] = lambda first, second: second) -> None:
        self._run, self._merge = run, merge
        self._waiting: dict[Key, Value] = {}  # the next batch
        self._next: asyncio.Future[dict[Key, Answer]] | None = None
        self._running: asyncio.Task[None] | None = None

    async def __call__(self, key: Key, value: Value) -> Answer | None:
        """``key``'s answer from a statement begun after this call (None: the statement had none)."""
        self._waiting[key] = self._merge(self._waiting[key], value) if key in self._waiting else value
        if self._next is None:
            self._next = asyncio.get_running_loop().create_future()
            self._next.add_done_callback(_retrieved)
        batch = self._next
        if self._running is None:
            self._running = asyncio.get_running_loop().create_task(self._drain())
        return (await asyncio.shield(batch)).get(key)

    async def _drain(self) -> None:
        """Run batch after batch while calls wait; each batch's callers get its answers or its error."""
        try:
            while self._next is not None:
                batch, self._next = self._next, None
                values, self._waiting = self._waiting, {}
                try:
                    batch.set_result(await self._run(values))
                except asyncio.CancelledError:
                    batch.cancel()
                    raise
                except Exception as exc:  # the store's StorageError (or a driver's) reaches every caller
                    batch.set_exception(exc)
        finally:
            self._running = None
            if self._next is not None:  # cancelled while calls waited: they fail rather than hang
                self._next.cancel()
                self._next, self._waiting = None, {}
