"""`/healthz`: whether the bot is fit to serve: updates reach it, and its database answers.

Updates flow if Telegram answered getUpdates, or an update arrived, within ``stale_after`` seconds.
Whatever brings updates tells :class:`Health` so: polling calls :meth:`Health.poll_returned` at every
successful getUpdates answer (bot/http.py reports each Bot API call; bot/metrics.py passes these
on), even an empty one, which a long poll gives every ``poll_timeout`` seconds; a webhook calls
:meth:`Health.updates_seen` at every update it accepts (a quiet webhook bot has nothing to show
then, so it may also call ``poll_returned`` whenever a getWebhookInfo says the hook is fine).
The start counts as the first sign, so a bot is healthy while its first long poll is still out.
The database answers if a cheap read (``schema_version``) comes back within ``database_timeout``.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

STALE_MARGIN_S = 10.0  # beyond two long polls: a slow answer, a retry after a network error
DATABASE_TIMEOUT_S = 2.0


@dataclass
class Health:
    """The latest signs of life; :meth:`check` judges them."""

    stale_after: float  # seconds without a getUpdates answer or an update before updates count as stopped
    database_timeout: float = DATABASE_TIMEOUT_S
    clock: Callable[[], float] = time.monotonic
    last_sign: float = field(default=0.0)

    def __post_init__(self) -> None:
        self.last_sign = self.clock()

    @classmethod
    def for_polling(cls, poll_timeout: float) -> Health:
        """Health of a bot long-polling with ``poll_timeout``: two polls and a margin may pass quietly."""
        return cls(stale_after=2 * poll_timeout + STALE_MARGIN_S)

    def poll_returned(self, at: float | None = None) -> None:
        """A getUpdates call came back successfully (with updates or none)."""
        self.last_sign = max(self.last_sign, self.clock() if at is None else at)

    def updates_seen(self, at: float | None = None) -> None:
        """An update arrived (by webhook, or in a getUpdates answer)."""
        self.poll_returned(at)

    def updates(self) -> str:
        """"ok", or why updates do not count as flowing."""
        quiet = self.clock() - self.last_sign
        return "ok" if quiet <= self.stale_after else f"no getUpdates answer or update for {quiet:.0f} s"

    async def database(self, ask: Callable[[], Awaitable[object]]) -> str:
        """"ok" if ``ask`` (a cheap read) answers in time; else what went wrong."""
        try:
            await asyncio.wait_for(ask(), self.database_timeout)
        except TimeoutError:
            return f"no answer within {self.database_timeout:g} s"
        except Exception as exc:  # whatever the database raised: the check says it, the bot goes on
            return f"{type(exc).__name__}: {exc}"[:200]
        return "ok"

    async def check(self, ask: Callable[[], Awaitable[object]] | None) -> tuple[bool, dict[str, object]]:
        """(healthy, what /healthz answers); ``ask`` None: the database is not open (yet, or any more)."""
        updates = self.updates()
        database = "not open" if ask is None else await self.database(ask)
        healthy = updates == "ok" and database == "ok"
        return healthy, {"ok": healthy, "updates": updates, "database": database}
