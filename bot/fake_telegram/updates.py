"""The bot's update queue and getUpdates long polling, kept the way Telegram keeps them.

Update ids count up by one; after a week without updates Telegram starts them again from a random
number (https://core.telegram.org/bots/api#update), which :meth:`UpdateQueue.restart_ids` does at
once. An offset beyond the newest id is then no confirmation but an error of the client, and the
queue is served from its head: so a poller that still asks for the old sequence's next id gets the
new updates (Telegram's Bot API server, TQueue::get: «Specified from_id is in the future»).
"""

from __future__ import annotations

import itertools
from collections import deque

from .changes import ChangeSignal
from .models import JSONDict

DEFAULT_ALLOWED_UPDATES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages", "inline_query",
    "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
    "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_join_request",
    "chat_boost", "removed_chat_boost",
})
RECENT = 1000  # updates remembered for deliver_again
FUTURE_SLACK = 11  # Telegram takes an offset up to 10 past its next id; beyond, the offset is ignored


def update_type(update: JSONDict) -> str:
    """The kind of an update: its one field besides ``update_id`` (message, callback_query, …)."""
    return next((key for key in update if key != "update_id"), "")


class UpdateQueue:
    """Updates for the bot: kept until a getUpdates offset confirms them, filtered by allowed_updates."""

    def __init__(self, changes: ChangeSignal) -> None:
        self._changes = changes
        self.pending: list[JSONDict] = []
        """Queued updates the bot has not confirmed yet (delivered or not)."""
        self.dropped: list[JSONDict] = []
        """Updates thrown away unseen: not in allowed_updates, or dropped by deleteWebhook."""
        self.delivered_at: dict[int, float] = {}
        """update_id -> ``clock()`` when a getUpdates answer first carried it (benchmarks)."""
        self.last_update_id = 0
        """update_id of the newest update queued (0 before the first)."""
        self.polls_started = 0
        """getUpdates calls received so far; a newer one ends an older one's long poll."""
        self.waiting_pollers = 0
        self.webhook_active = False
        """A webhook is set (webhook.py delivers): getUpdates is refused, and a long poll ends."""
        self._allowed: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._ids = itertools.count(700_000_001)
        self._taken: set[int] = set()  # ids of pending updates some getUpdates answer (or POST) carried
        self._recent: deque[JSONDict] = deque(maxlen=RECENT)  # the last updates queued, for deliver_again

    def push(self, payload: JSONDict) -> JSONDict:
        """Queue an update body (e.g. ``{"message": {...}}``); returns it with its update_id."""
        update = {"update_id": next(self._ids), **payload}
        self.last_update_id = update["update_id"]
        self._recent.append(update)
        if self.webhook_active and update_type(update) not in self._allowed:
            self.dropped.append(update)  # a webhook's allowed_updates are known: never queued
        else:
            self.pending.append(update)
        return update

    def deliver_again(self, update_id: int) -> JSONDict:
        """Queue update ``update_id`` again, first in line, as it was: Telegram delivers an update again
        when the bot never confirmed it (stopped or killed before its next getUpdates, or before it
        answered the webhook's POST). A poller that starts afresh takes it; a webhook gets it POSTed."""
        update = next((u for u in self._recent if u["update_id"] == update_id), None)
        if update is None:
            raise ValueError(f"update {update_id} is not among the last {RECENT} queued")
        self._keep([update, *(u for u in self.pending if u["update_id"] != update_id)])
        return update

    def restart_ids(self, start: int) -> None:
        """Number the next update ``start``, and on from there (a new sequence: Telegram's after a quiet week)."""
        if start < 1:
            raise ValueError("update ids are positive")
        if self.pending:  # else a poller's old offset, now in the future, would have them delivered again
            raise ValueError(f"Telegram starts a new sequence after a week without updates, not with "
                             f"{len(self.pending)} still queued")
        self._ids = itertools.count(start)

    def allow(self, types: list[str]) -> None:
        """Deliver only these update types from now on (an empty list: Telegram's default set)."""
        self._allowed = frozenset(types) or DEFAULT_ALLOWED_UPDATES

    def confirm(self, offset: int) -> None:
        """Forget updates below ``offset``; a negative offset keeps only the last ``-offset``; an
        offset in the future (past the newest id, by Telegram's slack of 10) forgets nothing."""
        if offset > self.last_update_id + FUTURE_SLACK:
            return
        if offset > 0:
            self._keep([u for u in self.pending if u["update_id"] >= offset])
        elif offset < 0:
            self._keep(self.pending[offset:])

    def _keep(self, updates: list[JSONDict]) -> None:
        self.pending = updates
        self._taken &= {u["update_id"] for u in updates}

    def drop_unwanted(self) -> None:
        """Throw away queued updates of types the bot no longer allows."""
        rejected = [u for u in self.pending if update_type(u) not in self._allowed]
        if rejected:
            self.dropped.extend(rejected)
            self._keep(self.deliverable())

    def drop_pending(self) -> None:
        """Throw away every queued update (deleteWebhook with drop_pending_updates)."""
        self.dropped.extend(self.pending)
        self._keep([])

    def deliverable(self) -> list[JSONDict]:
        """Queued updates of allowed types, delivered before or not."""
        return [u for u in self.pending if update_type(u) in self._allowed]

    def undelivered(self) -> list[JSONDict]:
        """Queued updates of allowed types that no getUpdates answer has carried yet."""
        return [u for u in self.deliverable() if u["update_id"] not in self._taken]

    async def long_poll(self, timeout: float) -> bool:
        """One getUpdates arrives: wait up to ``timeout`` for an update if none is queued.

        Returns False when a newer getUpdates took over meanwhile (Telegram answers 409 then).
        """
        self.polls_started += 1
        generation = self.polls_started
        await self._changes.notify()  # lets an older long poll notice the conflict
        if not self.pending and timeout > 0 and not self._changes.closing:
            self.waiting_pollers += 1
            try:
                await self._changes.notify()
                await self._changes.wait_until(
                    lambda: bool(self.deliverable()) or self._changes.closing
                    or generation != self.polls_started or self.webhook_active, timeout)
            finally:
                self.waiting_pollers -= 1
        return generation == self.polls_started

    def take(self, limit: int, now: float) -> list[JSONDict]:
        """The first ``limit`` deliverable updates, noted as delivered at ``now``."""
        batch = self.deliverable()[:limit]
        for update in batch:
            self._taken.add(update["update_id"])
            self.delivered_at.setdefault(update["update_id"], now)
        return batch
