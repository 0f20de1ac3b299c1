"""Flood control per person: a member who sends more than ``USER_COMMANDS_PER_MINUTE`` commands in a
chat is told once and then ignored there for a minute.

Each answer costs one of the group's 20 sends a minute, shared by everyone in it, so one person
typing /help in a loop would otherwise take the whole group's budget. Button presses are not
counted: a press that is not the person's move costs only a toast, which Telegram does not limit.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable

from bot.bounded import LruDict
from bot.ratelimit import MovingWindow

PERIOD_S = 60.0
MUTED_KEPT = 100_000  # people ignored right now (least recently used forgotten: they are let back early)


class Verdict(enum.Enum):
    """What to do with a person's command."""

    HANDLE = "handle"
    WARN = "warn"  # the first one over the limit: say so once, do nothing else
    IGNORE = "ignore"


class CommandFlood:
    """Each person's commands per chat in a moving minute, and who is ignored until when."""

    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # the window forgets a person a minute after their last command, so it holds only the last minute's
        self._recent = MovingWindow(per_minute, PERIOD_S, lambda: self.clock())
        self._muted_until: LruDict[tuple[int, int], float] = LruDict(MUTED_KEPT)
        self.on_ignored: Callable[[], None] = lambda: None  # bot/metrics.py

    def check(self, chat_id: int, user_id: int) -> Verdict:
        """Count a command of ``user_id`` in ``chat_id``; what to do with it."""
        key, now = (chat_id, user_id), self.clock()
        until = self._muted_until.get(key)
        if until is not None and now < until:
            self.on_ignored()
            return Verdict.IGNORE
        if self._recent.hit(key):
            return Verdict.HANDLE
        self._muted_until[key] = now + PERIOD_S
        self.on_ignored()
        return Verdict.WARN

    def people(self) -> int:
        """How many people's commands are remembered (a bound test's measure)."""
        return self._recent.keys() + len(self._muted_until)
