"""Each chat's sends and edits, in order, within the chat's budget; a waiting edit is replaced by a
newer one, and a courtesy reply that cannot go out soon is dropped."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Protocol

log = logging.getLogger(__name__)
Job = Callable[[], Awaitable[None]]
REPLY_EXPIRES_S = 30.0  # a courtesy reply that could not go out within this is dropped, never queued for minutes
REPLIES_WAITING = 20  # per chat, courtesy replies that may wait at once; one more is dropped


class Budget(Protocol):
    """When a chat may send or edit again (bot.ratelimit.ChatLimiter)."""

    def wait_s(self, chat_id: int, new_message: bool = True) -> float: ...

    def free(self, chat_id: int) -> int | None: ...


@dataclass
class _Item:
    key: Hashable | None  # what a newer job replaces it by (an edit's message, a reply's text); None: never
    job: Job
    new_message: bool  # a send, which a group's slow mode spaces out; else an edit
    expires_at: float | None  # a courtesy reply: dropped once this passes unsent; None: kept until sent
    queued_at: float  # a newer job taking its place keeps it


@dataclass
class _ChatQueue:
    items: list[_Item] = field(default_factory=list)
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)
    worker: asyncio.Task[None] | None = None


@dataclass
class Outbox:
    """Sends and edits of a chat go out in the order they were asked for, each chat on its own.

    While the chat has room in its budget and nothing is waiting, a job runs at once and the
    caller awaits it (the usual case: one press, one edit). Otherwise it waits in the chat's
    queue, drained by the chat's own task, and the caller goes on: no caller ever waits for a
    chat's window. A newer edit of a message whose edit is still waiting takes that edit's place;
    a courtesy reply (a refusal, /help, /rules, a usage error) merges with the same reply waiting,
    and is dropped if it could not go out within :data:`REPLY_EXPIRES_S`. So a burst in one group
    costs one edit per budget slot and the last edit shows the latest state.
    """

    budget: Budget | None = None
    on_wait: Callable[[float], None] = lambda seconds: None  # how long each job waited to run (bot/metrics.py)
    on_drop: Callable[[], None] = lambda: None  # a courtesy reply was dropped (bot/metrics.py)
    clock: Callable[[], float] = time.monotonic
    # how a chat waits for room (bench.tempo moves a virtual clock instead)
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    _chats: dict[int, _ChatQueue] = field(default_factory=dict)  # only chats with work: an idle one is forgotten

    async def edit(self, chat_id: int, key: Hashable, job: Job) -> None:
        """Edit the message ``key`` by ``job``, replacing an edit of it that is still waiting."""
        await self._submit(chat_id, key, job, new_message=False)

    async def send(self, chat_id: int, job: Job) -> None:
        """Post a new message by ``job`` (after everything asked for before it); it waits as long as it must."""
        await self._submit(chat_id, None, job, new_message=True)

    async def reply(self, chat_id: int, key: Hashable, job: Job) -> None:
        """Post a courtesy reply by ``job``: merged with a waiting reply of the same ``key``, dropped
        if it cannot go out within :data:`REPLY_EXPIRES_S` or too many already wait."""
        await self._submit(chat_id, ("reply", key), job, new_message=True, expires=REPLY_EXPIRES_S)

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

    def chats(self) -> int:
        """How many chats have jobs waiting or going out (a bound test's measure)."""
        return len(self._chats)

    def _wait_s(self, chat_id: int, new_message: bool) -> float:
        return 0.0 if self.budget is None else self.budget.wait_s(chat_id, new_message)

    async def _submit(self, chat_id: int, key: Hashable | None, job: Job, new_message: bool,
                      expires: float | None = None) -> None:
        queue = self._chats.setdefault(chat_id, _ChatQueue())
        if self._free(queue) and not self._wait_s(chat_id, new_message):
            async with queue.sending:  # nothing awaited since the checks: the chat is still ours
                self.on_wait(0.0)
                await _run(job)
            self._wake(chat_id, queue)
            return
        for item in queue.items:
            if key is not None and item.key == key:
                item.job = job  # the newer edit shows the newer state; the older one is never sent
                return
        now = self.clock()
        if expires is not None and sum(i.expires_at is not None for i in queue.items) >= REPLIES_WAITING:
            self.on_drop()  # a chat flooding the bot with questions: the courtesy is what gives
        else:
            queue.items.append(_Item(key, job, new_message, None if expires is None else now + expires, now))
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

    def _expire(self, queue: _ChatQueue) -> None:
        """Drop the courtesy replies whose time to go out has passed."""
        now = self.clock()
        kept = [i for i in queue.items if i.expires_at is None or i.expires_at > now]
        for _ in range(len(queue.items) - len(kept)):
            self.on_drop()
        queue.items[:] = kept

    async def _drain(self, chat_id: int, queue: _ChatQueue) -> None:
        while True:
            self._expire(queue)
            if not queue.items:
                break
            wait = self._wait_s(chat_id, queue.items[0].new_message)
            if wait > 0:  # a second at most: a waiting reply may expire meanwhile
                await self.sleep(min(wait, 1.0))
                continue
            async with queue.sending:
                self._expire(queue)
                if not queue.items:
                    break
                item = queue.items.pop(0)
                self.on_wait(self.clock() - item.queued_at)
                await _run(item.job)
        if not queue.items and not queue.sending.locked():
            self._chats.pop(chat_id, None)


async def _run(job: Job) -> None:
    try:
        await job()
    except Exception:  # one failed send must not stop the chat's queue
        log.exception("outbox job failed")
