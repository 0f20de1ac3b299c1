"""Telegram's flood limits, per chat and nothing more, as a PTB rate limiter.

What Telegram limits is each chat: about 20 sends and edits a minute in a group, about one a second
in a private chat, and a group's slow mode for new messages. It has no overall limit for a bot that
answers its chats (30 a second is its guidance for bulk notifications), and it does not limit
``answerCallbackQuery`` or reads such as ``getChatMember``. So the bot throttles sends and edits per
chat, never reads, and has no overall cap unless an operator sets ``OVERALL_MAX_RATE``. A 429
(``RetryAfter``) pauses only the chat that got it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable
from typing import Any

from telegram.error import RetryAfter
from telegram.ext import BaseRateLimiter

from bot.bounded import LruDict

log = logging.getLogger(__name__)

# what Telegram counts against a chat's budget: posting and editing messages
COUNTED_PREFIXES = ("send", "edit", "copy", "forward")
NOT_COUNTED = frozenset({"sendChatAction"})
NEW_MESSAGE_PREFIXES = ("send", "copy", "forward")  # what a group's slow mode spaces out (not edits)
# Telegram counts a call when it arrives; the bot counts it from its answer (by then it arrived), and a
# second more keeps apart calls whose answers were themselves slow to come back.
MARGIN_S = 1
PRIVATE_MAX_RATE, PRIVATE_PERIOD_S = 1, 1  # «about one message a second» in a private chat
LEARNING_WAIT_S = 0.05  # how often a message waiting for its group's slow mode looks again
# chats whose pause, slow mode and last post are remembered (least recently used go first): a group
# forgotten is asked its slow mode again, a read Telegram does not limit; a few hundred bytes a chat
CHATS_KEPT = 10_000

ChatKey = int | str  # a chat id, or a public chat's @username
SlowModeOf = Callable[[int], Awaitable[int]]  # chat id → its slow_mode_delay in seconds (0: none), by getChat


def chat_of(data: dict[str, Any]) -> ChatKey | None:
    """The chat a request posts into (None: the request names no chat)."""
    chat_id = data.get("chat_id")
    if isinstance(chat_id, str) and chat_id.startswith("@"):
        return chat_id
    with contextlib.suppress(TypeError, ValueError):
        return int(chat_id)  # type: ignore[arg-type]
    return None


def group_of(data: dict[str, Any]) -> str | None:
    """The group a request posts into, as text (None for private chats and no chat)."""
    chat = chat_of(data)
    return None if chat is None or not is_group(chat) else str(chat)


def is_group(chat: ChatKey) -> bool:
    """Groups and supergroups have negative ids (a public one may be named by its @username)."""
    return isinstance(chat, str) or chat < 0


def counted(endpoint: str) -> bool:
    return endpoint.startswith(COUNTED_PREFIXES) and endpoint not in NOT_COUNTED


def posts_new(endpoint: str) -> bool:
    return endpoint.startswith(NEW_MESSAGE_PREFIXES) and endpoint not in NOT_COUNTED


class MovingWindow:
    """At most ``limit`` hits per key in any ``period`` seconds: each key's hit times, pruned on use.

    Written here rather than taken from ``limits``: its in-memory storage sweeps every key after
    each hit, one thread hop per key (with 100 busy groups the sweep never stopped, and the hops
    took the event loop's time and the GIL); a deque per chat is all this needs.
    """

    SWEEP_EVERY = 1000  # hits between sweeps that forget quiet chats (a quiet chat is never looked at)

    def __init__(self, limit: int, period: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.period, self.clock = limit, period, clock
        # only keys with hits in the window; a list, not a deque: most chats have a hit or two in a
        # minute, and an empty deque alone is 600 bytes (bench.chat_memory: chats come 350 a second)
        self._hits: dict[Hashable, list[float]] = {}
        self._until_sweep = self.SWEEP_EVERY

    def _recent(self, key: Hashable) -> list[float]:
        """The key's hits inside the window (a key with none is forgotten)."""
        hits = self._hits.get(key)
        if hits is None:
            return []
        cutoff = self.clock() - self.period
        gone = next((i for i, at in enumerate(hits) if at > cutoff), len(hits))
        if gone:
            del hits[:gone]
        if not hits:
            del self._hits[key]
        return hits

    def test(self, key: Hashable) -> bool:
        """Whether a hit now would fit."""
        return len(self._recent(key)) < self.limit

    def hit(self, key: Hashable, at: float | None = None) -> bool:
        """Take a slot now (stamped ``at``, the clock's now, if given) if there is one."""
        if not self.test(key):
            return False
        self._hits.setdefault(key, []).append(self.clock() if at is None else at)
        self._until_sweep -= 1
        if not self._until_sweep:
            self._until_sweep = self.SWEEP_EVERY
            for other in list(self._hits):
                self._recent(other)
        return True

    def restamp(self, key: Hashable, hit_at: float) -> None:
        """Move the key's hit made at ``hit_at`` to now: the call it counted is answered, so it reached
        Telegram by now (its slot is then held a full period after its latest possible arrival)."""
        hits = self._hits.get(key)
        if hits is None or hit_at not in hits:
            return
        hits.remove(hit_at)
        hits.append(self.clock())  # the latest stamp: the list stays in order

    def free(self, key: Hashable) -> int:
        """Hits that would fit now."""
        return max(0, self.limit - len(self._recent(key)))

    def wait_s(self, key: Hashable) -> float:
        """Seconds until a slot frees (0 if one is free now)."""
        hits = self._recent(key)
        return 0.0 if len(hits) < self.limit else max(0.0, hits[-self.limit] + self.period - self.clock())

    def keys(self) -> int:
        """How many keys have hits remembered (a bound test's measure)."""
        return len(self._hits)


class ChatLimiter(BaseRateLimiter[int]):
    """Each chat's budget: a moving window per group (any ``group_time_period`` seconds, not a leaky
    bucket, which lets twice the budget land in the first minute), about one a second per private
    chat, a group's slow mode between new messages, and a pause after that chat's 429.

    :meth:`wait_s` and :meth:`free` let the outbox hold a call back (and coalesce it) instead of
    waiting inside it; a call that does reach :meth:`process_request` without room waits there.
    """

    def __init__(self, *, group_max_rate: int, group_time_period: int, max_retries: int,
                 overall_max_rate: int = 0, private_max_rate: int = PRIVATE_MAX_RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        now = self._now
        self._groups = MovingWindow(group_max_rate, group_time_period + MARGIN_S, now)
        self._privates = MovingWindow(private_max_rate, PRIVATE_PERIOD_S, now)
        # opt-in only (OVERALL_MAX_RATE): Telegram has no overall limit for a bot answering its chats
        self._overall = MovingWindow(overall_max_rate, 1, now) if overall_max_rate > 0 else None
        self._max_retries = max_retries
        self._paused_until: LruDict[ChatKey, float] = LruDict(CHATS_KEPT)  # a 429's retry_after, per chat
        self._slow_mode: LruDict[ChatKey, float] = LruDict(CHATS_KEPT)  # a group's slow_mode_delay, once known
        self._last_post: LruDict[ChatKey, float] = LruDict(CHATS_KEPT)  # when a new message last went out
        self._learning: dict[ChatKey, asyncio.Task[None]] = {}  # the getChat under way per group (kept: a task
        # only the loop refers to may be collected before it ends)
        self.slow_mode_of: SlowModeOf | None = None  # getChat's slow_mode_delay (set once the bot exists)

    def _now(self) -> float:
        return self.clock()

    async def initialize(self) -> None:
        """Nothing to set up."""

    async def shutdown(self) -> None:
        """Nothing to free."""

    def wait_s(self, chat_id: ChatKey, new_message: bool = True) -> float:
        """Seconds until a send (or, with ``new_message`` false, an edit) in the chat may go out (0: now)."""
        now = self.clock()
        window = self._groups if is_group(chat_id) else self._privates
        waits = [self._paused_until.get(chat_id, now) - now, window.wait_s(chat_id)]
        if new_message and chat_id in self._learning:
            waits.append(LEARNING_WAIT_S)  # the second message waits for getChat's slow mode; the first did not
        elif new_message and chat_id in self._last_post:
            slow = self._slow_mode.get(chat_id, 0.0)
            waits.append(self._last_post[chat_id] + slow + (MARGIN_S if slow else 0) - now)
        if self._overall is not None:
            waits.append(self._overall.wait_s("*"))
        return max(0.0, *waits)

    def free(self, chat_id: int) -> int | None:
        """How many sends and edits in this chat would go out now (None: not a group, about one a second)."""
        if not is_group(chat_id):
            return None
        return 0 if self.wait_s(chat_id, new_message=False) > 0 else self._groups.free(chat_id)

    def _take(self, chat_id: ChatKey, new_message: bool) -> float:
        """Count a call going out now (the caller saw :meth:`wait_s` say 0, with no await since); when."""
        now = self.clock()
        (self._groups if is_group(chat_id) else self._privates).hit(chat_id, at=now)
        if self._overall is not None:
            self._overall.hit("*", at=now)
        if new_message:
            self._last_post[chat_id] = now
            if isinstance(chat_id, int) and is_group(chat_id) and chat_id not in self._slow_mode:
                self._learn_slow_mode(chat_id)
        return now

    def _answered(self, chat_id: ChatKey, new_message: bool, taken_at: float) -> None:
        """A call counted at ``taken_at`` was answered now. Telegram counts it when it arrives, which may
        be well after it was taken (a busy process, a slow upload, a wait for a connection): it arrived
        by now, so its slot is held from now."""
        (self._groups if is_group(chat_id) else self._privates).restamp(chat_id, taken_at)
        if new_message and self._last_post.get(chat_id) == taken_at:
            self._last_post[chat_id] = self.clock()

    def _learn_slow_mode(self, chat_id: int) -> None:
        """Ask the group's slow_mode_delay once (beside the first post, which needs no wait)."""
        if self.slow_mode_of is None or chat_id in self._learning:
            return
        asking = self._ask_slow_mode(chat_id, self.slow_mode_of)
        self._learning[chat_id] = asyncio.get_running_loop().create_task(asking)

    async def _ask_slow_mode(self, chat_id: int, slow_mode_of: SlowModeOf) -> None:
        try:
            self._slow_mode[chat_id] = float(await slow_mode_of(chat_id))
        except Exception as exc:  # unknown stays unknown: asked again at the next post
            log.info("chat %s: could not read its slow mode: %s", chat_id, exc)
        finally:
            self._learning.pop(chat_id, None)

    def pause(self, chat_id: ChatKey, seconds: float) -> None:
        """Hold the chat's sends and edits for ``seconds`` (Telegram's retry_after), and read its slow
        mode again: a 429 on a new message may be slow mode switched on since."""
        self._paused_until[chat_id] = max(self._paused_until.get(chat_id, 0.0), self.clock() + seconds)
        self._slow_mode.pop(chat_id, None)

    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Any]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Any:
        """A send or edit waits for its chat's room and, after a 429, its chat pauses for retry_after;
        everything else goes out at once (a 429 on it, which Telegram should not send, is waited out by
        that call alone). Either is tried again up to ``max_retries`` times."""
        chat = chat_of(data) if counted(endpoint) else None
        new_message = posts_new(endpoint)
        retries = rate_limit_args or self._max_retries
        for attempt in range(retries + 1):
            if chat is not None:
                while (wait := self.wait_s(chat, new_message)) > 0:
                    await asyncio.sleep(wait)
                taken_at = self._take(chat, new_message)
            try:
                return await callback(*args, **kwargs)
            except RetryAfter as exc:
                # the timedelta itself, as PTB's own limiter reads it (.retry_after warns while it is an int)
                seconds = exc._retry_after.total_seconds()
                if attempt == retries:
                    raise
                log.info("chat %s: Telegram asked to wait %.0f s; only this chat waits", chat, seconds)
                if chat is None:
                    await asyncio.sleep(seconds)
                else:
                    self.pause(chat, seconds)
            finally:
                if chat is not None:
                    self._answered(chat, new_message, taken_at)
        raise AssertionError("unreachable")  # the loop returns or raises
