"""Each chat's sends and edits, in order, within the chat's budget; a waiting edit is replaced by a newer one."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger(__name__)
Job = Callable[[], Awaitable[None]]


class Budget(Protocol):
    """How many sends+edits a chat may still make now (bot.ratelimit.GroupWindowLimiter)."""

    async def has_room(self, chat_id: int) -> bool: ...

    async def wait_for_room(self, chat_id: int) -> None: ...

    def free(self, chat_id: int) -> int | None: ...


@dataclass
class _Item:
    key: Hashable | None  # the message an edit is for; None: a new message, never replaced
    job: Job
    queued_at: float = field(default_factory=time.monotonic)  # a newer edit taking its place keeps it


@dataclass
class _ChatQueue:
    items: list[_Item] = field(default_factory=list)
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)
    worker: asyncio.Task[None] | None = None


@dataclass
class Outbox:
    """Sends and edits of a chat go out in the order they were asked for.

    While the chat has room in its budget and nothing is waiting, a job runs at once and the
    caller awaits it (the usual case: one press, one edit). Otherwise it waits in the chat's
    queue and the caller goes on; a newer edit of a message whose edit is still waiting takes
    that edit's place. So a burst of presses in one group costs one edit per budget slot, the
    presses are answered at once, and the last edit shows the latest state.
    """

    budget: Budget | None = None
    on_wait: Callable[[float], None] = lambda seconds: None  # how long each job waited to run (bot/metrics.py)
    _chats: dict[int, _ChatQueue] = field(default_factory=dict)

    async def edit(self, chat_id: int, key: Hashable, job: Job) -> None:
        """Edit the message ``key`` by ``job``, replacing an edit of it that is still waiting."""
        await self._submit(chat_id, key, job)

    async def send(self, chat_id: int, job: Job) -> None:
        """Post a new message by ``job`` (after everything asked for before it)."""
        await self._submit(chat_id, None, job)

    async def idle(self) -> None:
        """Wait until every queued job of every chat has run."""
        while workers := [q.worker for q in self._chats.values() if q.worker is not None and not q.worker.done()]:
            await asyncio.gather(*workers, return_exceptions=True)

    def drop(self, chat_id: int) -> int:
        """Forget the chat's waiting jobs (the bot may not post there any more); how many."""
        queue = self._chats.get(chat_id)
        if queue is None:
            return 0
        dropped = len(queue.items)
        queue.items.clear()
        return dropped

    def free(self, chat_id: int) -> int | None:
        """Sends and edits the chat could still make now, after what waits in its queue (None: no limit)."""
        room = None if self.budget is None else self.budget.free(chat_id)
        return None if room is None else max(0, room - self.waiting(chat_id))

    def waiting(self, chat_id: int) -> int:
        """How many jobs of the chat wait for room."""
        queue = self._chats.get(chat_id)
        return len(queue.items) if queue else 0

    async def _submit(self, chat_id: int, key: Hashable | None, job: Job) -> None:
        queue = self._chats.setdefault(chat_id, _ChatQueue())
        if self._free(queue) and (self.budget is None or await self.budget.has_room(chat_id)) and self._free(queue):
            async with queue.sending:
                self.on_wait(0.0)
                await _run(job)
            self._wake(chat_id, queue)
            return
        for item in queue.items:
            if key is not None and item.key == key:
                item.job = job  # the newer edit shows the newer state; the older one is never sent
                return
        queue.items.append(_Item(key, job))
        self._wake(chat_id, queue)

    @staticmethod
    def _free(queue: _ChatQueue) -> bool:
        return not queue.items and not queue.sending.locked()

    def _wake(self, chat_id: int, queue: _ChatQueue) -> None:
        """Start the chat's worker if jobs wait; forget the chat once it is idle."""
        if queue.items:
            if queue.worker is None or queue.worker.done():
                queue.worker = asyncio.create_task(self._drain(chat_id, queue), name=f"outbox:{chat_id}")
        elif not queue.sending.locked() and (queue.worker is None or queue.worker.done()):
            self._chats.pop(chat_id, None)

    async def _drain(self, chat_id: int, queue: _ChatQueue) -> None:
        while queue.items:
            if self.budget is not None:
                await self.budget.wait_for_room(chat_id)
            async with queue.sending:
                if not queue.items:
                    break
                item = queue.items.pop(0)
                self.on_wait(time.monotonic() - item.queued_at)
                await _run(item.job)
        if not queue.items and not queue.sending.locked():
            self._chats.pop(chat_id, None)


async def _run(job: Job) -> None:
    try:
        await job()
    except Exception:  # one failed send must not stop the chat's queue
        log.exception("outbox job failed")
