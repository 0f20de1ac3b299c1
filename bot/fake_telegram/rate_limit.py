"""Telegram's flood limits for a bot, per chat: a group's 20 a minute, a private chat's one a second
(both off until a test turns them on), a group's slow mode for a bot that is no admin there, and a
chat a test floods on purpose. Each is answered as Telegram does: 429 with retry_after."""

from __future__ import annotations

import math
from collections import deque

from .models import ApiError, FakeChat

NEW_MESSAGES = ("send", "copy", "forward")  # slow mode spaces these, not edits


def too_many(retry: float) -> ApiError:
    seconds = max(1, math.ceil(retry))
    return ApiError(429, f"Too Many Requests: retry after {seconds}", retry_after=seconds, violation=False)


class GroupRateLimit:
    """429 once the bot sends or edits more than ``per_minute`` times in any ``period`` s in a group,
    more than ``private_per_second`` times a second in a private chat, a message sooner than a
    group's ``slow_mode_delay`` after its last (the bot not an admin there), or anything in a chat
    flooded by :meth:`flood` until then."""

    def __init__(self) -> None:
        self.per_minute: int | None = None
        self.period = 60.0
        self.private_per_second: int | None = None
        self._log: dict[int, deque[float]] = {}
        self._last_message: dict[int, float] = {}
        self._flooded_until: dict[int, float] = {}
        self.refused: dict[int, int] = {}  # chat → 429s answered there

    def configure(self, per_minute: int | None, period: float, private_per_second: int | None = None) -> None:
        """Enforce ``per_minute`` calls per ``period`` seconds in a group and ``private_per_second`` in a
        private chat (None: no limit), counting from now."""
        self.per_minute, self.period, self.private_per_second = per_minute, period, private_per_second
        self._log.clear()

    def flood(self, chat_id: int, until: float) -> None:
        """Answer every send and edit in the chat with 429 until ``until`` (Telegram's flood wait)."""
        self._flooded_until[chat_id] = until

    def check(self, chat: FakeChat, method: str, now: float) -> None:
        """Refuse a call in ``chat`` at ``now`` with 429 and retry_after when a limit is reached."""
        try:
            self._check(chat, method, now)
        except ApiError:
            self.refused[chat.id] = self.refused.get(chat.id, 0) + 1
            raise

    def _check(self, chat: FakeChat, method: str, now: float) -> None:
        until = self._flooded_until.get(chat.id, 0.0)
        if now < until:
            raise too_many(until - now)
        slow = chat.slow_mode_delay if chat.bot_status not in ("administrator", "creator") else 0
        last = self._last_message.get(chat.id)
        if slow and method.startswith(NEW_MESSAGES) and last is not None and now - last < slow:
            raise too_many(last + slow - now)
        limit, period = self._limit(chat)
        if limit is None:
            return
        log = self._log.setdefault(chat.id, deque())
        while log and log[0] <= now - period:
            log.popleft()
        if len(log) >= limit:
            raise too_many(log[0] + period - now)

    def _limit(self, chat: FakeChat) -> tuple[int | None, float]:
        return (self.per_minute, self.period) if chat.is_group else (self.private_per_second, 1.0)

    def note(self, chat: FakeChat, method: str, now: float) -> None:
        """Count a call that went through in ``chat`` at ``now``."""
        if method.startswith(NEW_MESSAGES):
            self._last_message[chat.id] = now
        if self._limit(chat)[0] is not None:
            self._log.setdefault(chat.id, deque()).append(now)
