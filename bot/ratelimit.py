"""Telegram's flood limits as a PTB rate limiter: a moving window per group on top of AIORateLimiter."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage
from limits.aio.strategies import MovingWindowRateLimiter
from telegram.ext import AIORateLimiter

# what Telegram counts against a group's 20 messages a minute: posting and editing messages
COUNTED_PREFIXES = ("send", "edit", "copy", "forward")
NOT_COUNTED = frozenset({"sendChatAction"})
# Telegram counts a call when it arrives, the bot when it leaves: a slow upload followed by a
# quick one can land closer together than they left. A second more keeps them apart.
MARGIN_S = 1


def group_of(data: dict[str, Any]) -> str | None:
    """The group a request posts into, as the window's key (None for private chats and no chat)."""
    chat_id = data.get("chat_id")
    if isinstance(chat_id, str) and chat_id.startswith("@"):
        return chat_id
    with contextlib.suppress(TypeError, ValueError):
        if int(chat_id) < 0:  # type: ignore[arg-type]
            return str(int(chat_id))  # type: ignore[arg-type]
    return None


def counted(endpoint: str) -> bool:
    return endpoint.startswith(COUNTED_PREFIXES) and endpoint not in NOT_COUNTED


class GroupWindowLimiter(AIORateLimiter):
    """AIORateLimiter's overall rate and 429 retries, but each group's budget is a moving window.

    Telegram's «20 messages a minute in a group» holds for any 60 s; AIORateLimiter's leaky
    bucket lets a full bucket out and then keeps draining, so up to twice as many can land in
    the first minute and Telegram answers 429. Here a send or edit waits until fewer than
    ``group_max_rate`` went out in the last ``group_time_period`` seconds; :meth:`has_room` and
    :meth:`wait_for_room` let the outbox hold back an edit (and coalesce it) instead.
    """

    def __init__(self, *, group_max_rate: int, group_time_period: int, overall_max_rate: float,
                 max_retries: int) -> None:
        super().__init__(overall_max_rate=overall_max_rate, overall_time_period=1, group_max_rate=0,
                         max_retries=max_retries)
        self._item: RateLimitItem = RateLimitItemPerSecond(group_max_rate, group_time_period + MARGIN_S)
        self._window = MovingWindowRateLimiter(MemoryStorage())

    async def has_room(self, chat_id: int) -> bool:
        """Whether a send or edit in this chat would go out now."""
        group = group_of({"chat_id": chat_id})
        return group is None or await self._window.test(self._item, group)

    async def wait_for_room(self, chat_id: int) -> None:
        """Wait until a send or edit in this chat would go out now (takes no slot)."""
        group = group_of({"chat_id": chat_id})
        while group is not None and not await self._window.test(self._item, group):
            await self._sleep_until_room(group)

    async def _sleep_until_room(self, group: str) -> None:
        stats = await self._window.get_window_stats(self._item, group)
        await asyncio.sleep(max(0.01, stats.reset_time - time.time()))  # the oldest slot falls out of the window

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        """Take a slot in the group's window (waiting for one), then send as AIORateLimiter does."""
        group = group_of(data) if counted(endpoint) else None
        while group is not None and not await self._window.hit(self._item, group):
            await self._sleep_until_room(group)
        return await super().process_request(callback, args, kwargs, endpoint, data, rate_limit_args)
