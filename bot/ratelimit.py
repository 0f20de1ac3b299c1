"""Telegram's flood limits as a PTB rate limiter: a moving window per group on top of AIORateLimiter."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

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


class MovingWindow:
    """At most ``limit`` hits per key in any ``period`` seconds: each key's hit times, pruned on use.

    Written here rather than taken from ``limits``: its in-memory storage sweeps every key after
    each hit, one thread hop per key (bench/load.py: with 100 busy groups the sweep never stopped,
    and the hops took the event loop's time and the GIL); a deque per group is all this needs.
    """

    SWEEP_EVERY = 1000  # hits between sweeps that forget quiet groups (a quiet group is never looked at)

    def __init__(self, limit: int, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.period, self.clock = limit, period, clock
        self._hits: dict[str, collections.deque[float]] = {}
        self._until_sweep = self.SWEEP_EVERY

    def _recent(self, key: str) -> collections.deque[float]:
        """The key's hits inside the window (a key with none is forgotten)."""
        hits = self._hits.get(key)
        if hits is None:
            return collections.deque()
        cutoff = self.clock() - self.period
        while hits and hits[0] <= cutoff:
            hits.popleft()
        if not hits:
            del self._hits[key]
        return hits

    def test(self, key: str) -> bool:
        """Whether a hit now would fit."""
        return len(self._recent(key)) < self.limit

    def hit(self, key: str) -> bool:
        """Take a slot now if there is one."""
        if not self.test(key):
            return False
        self._hits.setdefault(key, collections.deque()).append(self.clock())
        self._until_sweep -= 1
        if not self._until_sweep:
            self._until_sweep = self.SWEEP_EVERY
            for other in list(self._hits):
                self._recent(other)
        return True

    def free(self, key: str) -> int:
        """Hits that would fit now."""
        return max(0, self.limit - len(self._recent(key)))

    def wait_s(self, key: str) -> float:
        """Seconds until a slot frees (0 if one is free now)."""
        hits = self._recent(key)
        return 0.0 if len(hits) < self.limit else max(0.0, hits[-self.limit] + self.period - self.clock())


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
        self._window = MovingWindow(group_max_rate, group_time_period + MARGIN_S)

    async def has_room(self, chat_id: int) -> bool:
        """Whether a send or edit in this chat would go out now."""
        group = group_of({"chat_id": chat_id})
        return group is None or self._window.test(group)

    def free(self, chat_id: int) -> int | None:
        """How many sends and edits in this chat would go out now (None: no limit, not a group)."""
        group = group_of({"chat_id": chat_id})
        return None if group is None else self._window.free(group)

    async def wait_for_room(self, chat_id: int) -> None:
        """Wait until a send or edit in this chat would go out now (takes no slot)."""
        group = group_of({"chat_id": chat_id})
        while group is not None and not self._window.test(group):
            await self._sleep_until_room(group)

    async def _sleep_until_room(self, group: str) -> None:
        await asyncio.sleep(max(0.01, self._window.wait_s(group)))  # the oldest slot falls out of the window

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
        while group is not None and not self._window.hit(group):
            await self._sleep_until_room(group)
        return await super().process_request(callback, args, kwargs, endpoint, data, rate_limit_args)
