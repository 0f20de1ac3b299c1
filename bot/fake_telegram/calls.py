"""Answering one Bot API call: injected faults and delays, the group flood limit, and the record."""

from __future__ import annotations

import asyncio
from typing import Any

from .faults import Delay
from .methods import METHODS, RATE_LIMITED, Files, Handler
from .models import ApiError, JSONDict, RecordedRequest
from .parsing import coerce_params
from .world import World


class BotApiCalls:
    """Performs the bot's calls on a world, records each with its answer and wakes the waiters."""

    def __init__(self, world: World) -> None:
        self._world = world
        self._late_calls: set[asyncio.Task[RecordedRequest]] = set()
        self.late_answers = 0
        """Calls held back by ``delay_next`` whose answer has not gone out (nor been given up on)."""

    async def answer(self, name: str, params: JSONDict, files: Files, at: float,
                     error: ApiError | None) -> RecordedRequest:
        """Answer a call that arrived at ``at`` (or answer ``error``), late if a delay is due."""
        entry = METHODS.get(name.lower())
        delay = self._world.faults.next_delay(entry[0]) if entry and error is None else None
        if delay is None:
            return await self._perform(name, params, files, at, error)
        return await self._perform_late(name, params, files, at, delay)

    async def finish(self) -> None:
        """Perform the calls still waiting out a not-applied delay (closing ends their waits)."""
        await asyncio.gather(*self._late_calls)

    async def _perform(self, name: str, params: JSONDict, files: Files, at: float,
                       error: ApiError | None = None, delayed: float = 0.0) -> RecordedRequest:
        """Run one call (or answer ``error``), record it and wake the waiters."""
        world = self._world
        entry = METHODS.get(name.lower())
        method = entry[0] if entry else name
        try:
            if error is not None:
                raise error
            if entry is None:
                raise ApiError(404, "Not Found", violation=False)
            params = coerce_params(params)
            payload: JSONDict = {"ok": True, "result": await self._call(method, entry[1],
                                                                        params, files)}
            status = 200
        except ApiError as err:
            if entry is None and err.code == 404:
                world.violations.append(f"unknown Bot API method {name!r}")
            elif err.violation:
                world.violations.append(f"{method}: {err.description} (params: {params!r:.200})")
            payload, status = err.payload(), err.code
        record = RecordedRequest(method, params, files, at, payload, status, delayed=delayed)
        world.requests.append(record)
        await world.changes.notify()
        return record

    async def _perform_late(self, name: str, params: JSONDict, files: Files, at: float,
                            delay: Delay) -> RecordedRequest:
        """Answer a call ``delay.seconds`` late; the effect is immediate only when applied."""
        changes = self._world.changes
        self.late_answers += 1
        await changes.notify()
        try:
            if delay.applied:
                record = await self._perform(name, params, files, at, delayed=delay.seconds)
                await changes.sleep(delay.seconds)
                return record
            # Telegram performs every request it received, even when the client hangs up while
            # waiting: the wait and the call run in a task that the handler's cancellation spares.
            task = asyncio.create_task(self._sleep_then_perform(name, params, files, at, delay))
            self._late_calls.add(task)
            task.add_done_callback(self._late_calls.discard)
            return await asyncio.shield(task)
        finally:
            self.late_answers -= 1
            await changes.notify()  # also when the client hung up: ``wait_for`` may watch the count

    async def _sleep_then_perform(self, name: str, params: JSONDict, files: Files, at: float,
                                  delay: Delay) -> RecordedRequest:
        """Wait out a not-applied delay, then perform the call."""
        await self._world.changes.sleep(delay.seconds)
        return await self._perform(name, params, files, at, delayed=delay.seconds)

    async def _call(self, method: str, handler: Handler, params: JSONDict, files: Files) -> Any:
        """Run a method's handler, unless a fault is due or the group's flood limit is reached."""
        world = self._world
        fault = world.faults.next_fault(method)
        if fault is not None:
            err = fault.error
            raise ApiError(err.code, err.description, retry_after=err.retry_after,
                           violation=False)
        chat = None
        if method in RATE_LIMITED:
            chat = world.chats.get(params.get("chat_id", 0))
            if chat is not None:
                world.rate_limit.check(chat, method, world.clock())
        result = await handler(world, params, files)
        if chat is not None:
            world.rate_limit.note(chat, method, world.clock())
        return result
