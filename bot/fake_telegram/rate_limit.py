"""Telegram's flood limit for a bot in one group, off until a test turns it on."""

from __future__ import annotations

from collections import deque

from .models import ApiError, FakeChat


class GroupRateLimit:
    """429 once the bot sends or edits more than ``per_minute`` times in any ``period`` s in a group."""

    def __init__(self) -> None:
        self.per_minute: int | None = None
        self.period = 60.0
        self._log: dict[int, deque[float]] = {}

    def configure(self, per_minute: int | None, period: float) -> None:
        """Enforce ``per_minute`` calls per ``period`` seconds (None: no limit), counting from now."""
        self.per_minute = per_minute
        self.period = period
        self._log.clear()

    def check(self, chat: FakeChat, now: float) -> None:
        """Refuse a call in ``chat`` at ``now`` with 429 and retry_after when its window is full."""
        if self.per_minute is None or not chat.is_group:
            return
        log = self._log.setdefault(chat.id, deque())
        while log and log[0] <= now - self.period:
            log.popleft()
        if len(log) >= self.per_minute:
            retry = max(1, int(log[0] + self.period - now + 0.999))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", retry_after=retry,
                           violation=False)

    def note(self, chat: FakeChat, now: float) -> None:
        """Count a call that went through in ``chat`` at ``now``."""
        if self.per_minute is not None and chat.is_group:
            self._log.setdefault(chat.id, deque()).append(now)
