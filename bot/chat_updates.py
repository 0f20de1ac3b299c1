"""Updates run per chat: a chat's updates take only that chat's places, never another chat's.

PTB runs a bounded number of updates at once, all chats together; a handler that waits (for its
chat's lock, or for its chat's window of 20 messages a minute) keeps its place meanwhile, so one
busy group could take every place and every other chat would wait behind it. Here each chat gets a
few places of its own and a bounded line behind them; the overall bound is only a backstop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

log = logging.getLogger(__name__)
PER_CHAT = 4  # a chat's updates handled at once (its presses and commands share one lock anyway)
WAITING_PER_CHAT = 200  # a chat's updates waiting behind those; one more is dropped
IN_FLIGHT = 10_000  # every chat's together: a backstop far above what the chats hold


@dataclass
class _Chat:
    places: asyncio.Semaphore
    held: int = 0  # updates running or waiting
    dropped: int = field(default=0)


class ChatUpdateProcessor(BaseUpdateProcessor):
    """At most ``per_chat`` updates of a chat at once, ``waiting`` more in its line; chats apart."""

    def __init__(self, per_chat: int = PER_CHAT, waiting: int = WAITING_PER_CHAT) -> None:
        super().__init__(IN_FLIGHT)
        self.per_chat, self.waiting = per_chat, waiting
        self._chats: dict[int, _Chat] = {}  # only chats with updates in flight: an idle one is forgotten
        self.on_dropped: Callable[[], None] = lambda: None  # bot/metrics.py

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free."""

    def chats(self) -> int:
        """How many chats have updates in flight (a bound test's measure)."""
        return len(self._chats)

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        """Run the update in its chat's places (updates of no chat run at once)."""
        chat_id = update.effective_chat.id if isinstance(update, Update) and update.effective_chat else None
        if chat_id is None:
            await coroutine
            return
        chat = self._chats.get(chat_id)
        if chat is None:
            chat = self._chats[chat_id] = _Chat(asyncio.Semaphore(self.per_chat))
        if chat.held >= self.per_chat + self.waiting:  # a chat far behind: the newest update gives
            if asyncio.iscoroutine(coroutine):
                coroutine.close()
            chat.dropped += 1
            self.on_dropped()
            if chat.dropped == 1:
                log.warning("chat %s: %d updates in line; dropping more until it catches up", chat_id, chat.held)
            return
        chat.held += 1
        try:
            async with chat.places:
                await coroutine
        finally:
            chat.held -= 1
            if not chat.held:
                del self._chats[chat_id]
