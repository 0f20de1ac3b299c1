"""Alarms: jobs the flow wants run at a time of its clock (a turn ping, a transient reply to tidy away).

One alarm per key: setting a key again moves it. :class:`LoopAlarms` runs them on the event loop;
tests put their own :class:`Alarms` in its place and fire them when they choose, instead of waiting.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Protocol

log = logging.getLogger(__name__)
Job = Callable[[], Awaitable[object]]


class Alarms(Protocol):
    """Runs a job at a time of the flow's clock."""

    def set(self, key: Hashable, when: float, job: Job) -> None: ...

    def cancel(self, key: Hashable) -> None: ...


class LoopAlarms:
    """Alarms on the running event loop (``loop.call_later``), timed by ``clock``."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        # bounded by expiry: each alarm is forgotten when it rings (a tidy-up a minute on, a ping the chat's
        # ping delay on) or is set again; what rings is held only while its job runs
        self._handles: dict[Hashable, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    def set(self, key: Hashable, when: float, job: Job) -> None:
        self.cancel(key)
        loop = asyncio.get_running_loop()
        self._handles[key] = loop.call_later(max(0.0, when - self.clock()), self._fire, key, job)

    def cancel(self, key: Hashable) -> None:
        handle = self._handles.pop(key, None)
        if handle is not None:
            handle.cancel()

    def pending(self) -> int:
        return len(self._handles)

    def _fire(self, key: Hashable, job: Job) -> None:
        self._handles.pop(key, None)
        task = asyncio.create_task(_run(key, job), name=f"alarm:{key}")
        self._running.add(task)  # a task nobody holds may be collected before it is done
        task.add_done_callback(self._running.discard)

    async def close(self) -> None:
        """Cancel what has not rung yet and let what is ringing finish."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()
        await asyncio.gather(*self._running, return_exceptions=True)


async def _run(key: Hashable, job: Job) -> None:
    try:
        await job()
    except Exception:  # one failed alarm must not take the others with it
        log.exception("alarm %s failed", key)
