"""Webhook delivery: the queued updates POSTed to the URL setWebhook registered, the way Telegram does.

One update at a time, in order, each with the secret token header. An answer other than 2xx, a
refused connection or a timeout keeps the update at the head of the queue and tries it again
after a pause that doubles (Telegram's own pauses are longer and unpublished; a test wants them
short, so they are settings), noting ``last_error_*`` for getWebhookInfo. A new setWebhook tries
at once, as Telegram does after the bot re-registers. While a webhook is set, getUpdates is
refused with 409 (methods/updates.py).
"""

from __future__ import annotations

import asyncio
import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

import aiohttp

from .changes import ChangeSignal
from .models import JSONDict
from .updates import UpdateQueue

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
LOOPBACK = frozenset({"127.0.0.1", "localhost"})
PUSH_TIMEOUT_S = 10.0  # a webhook that takes longer to answer is a failed delivery ("Read timeout expired")


@dataclass
class Webhook:
    """What setWebhook registered, and how delivering to it went."""

    url: str
    secret_token: str | None = None
    max_connections: int = 40
    allowed_updates: list[str] | None = None
    last_error_date: int | None = None
    last_error_message: str | None = None

    def info(self, pending: int) -> JSONDict:
        """The getWebhookInfo result for this webhook with ``pending`` updates queued."""
        result: JSONDict = {"url": self.url, "has_custom_certificate": False, "pending_update_count": pending,
                            "max_connections": self.max_connections}
        if self.allowed_updates is not None:
            result["allowed_updates"] = self.allowed_updates
        if self.last_error_date is not None:
            result["last_error_date"] = self.last_error_date
            result["last_error_message"] = self.last_error_message
        return result


class WebhookDelivery:
    """Pushes the queue's updates to the registered webhook while one is set."""

    def __init__(self, queue: UpdateQueue, changes: ChangeSignal, clock: Callable[[], float],
                 now_date: Callable[[], int]) -> None:
        self._queue, self._changes, self._clock, self._now_date = queue, changes, clock, now_date
        self.hook: Webhook | None = None
        self.retry_first_s, self.retry_max_s = 0.05, 1.0
        """The pause after a failed delivery, doubled after each failure up to the max."""
        self.attempts = 0
        """POSTs made so far, successful or not."""
        self.failures = 0
        """Deliveries that failed (each is tried again)."""
        self.unacknowledged: set[int] = set()
        """update_ids whose POST reached the webhook's address but got no 2xx: the bot may have
        handled them, and gets them again (Telegram delivers at least once)."""
        self.delivered: list[JSONDict] = []
        """The updates the webhook took (answered 2xx), in order: a test may send one again."""
        self._registrations = 0  # bumped by every setWebhook: ends a pause early
        self._task: asyncio.Task[None] | None = None

    async def register(self, hook: Webhook) -> None:
        """setWebhook: deliver to ``hook`` from now on, at once."""
        self.hook = hook
        self._queue.webhook_active = True
        self._registrations += 1
        await self._changes.notify()

    async def unregister(self) -> None:
        """deleteWebhook: stop delivering (the queue stays for getUpdates)."""
        self.hook = None
        self._queue.webhook_active = False
        self._registrations += 1
        await self._changes.notify()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="fake-telegram-webhook")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)

    async def _run(self) -> None:
        timeout = aiohttp.ClientTimeout(total=PUSH_TIMEOUT_S)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            pause = self.retry_first_s
            while not self._changes.closing:
                await self._changes.wait_until(self._due, 3600)
                registrations = self._registrations
                delivered = await self._deliver_first(session)
                if delivered is None:
                    continue
                if delivered:
                    pause = self.retry_first_s
                    continue
                await self._changes.wait_until(functools.partial(self._registered_since, registrations), pause)
                pause = self.retry_first_s if self._registered_since(registrations) else min(
                    pause * 2, self.retry_max_s)

    async def _deliver_first(self, session: aiohttp.ClientSession) -> bool | None:
        """POST the first queued update: True if the webhook took it, False if not (it stays
        queued), None if there was nothing to deliver."""
        hook, batch = self.hook, self._queue.deliverable()[:1]
        if hook is None or not batch:
            return None
        self._queue.take(1, self._clock())
        error = await self._post(session, hook, batch[0])
        if error is None:
            self._queue.confirm(batch[0]["update_id"] + 1)
            self.delivered.append(batch[0])
        else:
            self.failures += 1
            self.unacknowledged.add(batch[0]["update_id"])
            hook.last_error_date, hook.last_error_message = self._now_date(), error
        await self._changes.notify()
        return error is None

    def _registered_since(self, registrations: int) -> bool:
        """Closing, or a setWebhook/deleteWebhook came since ``registrations``: the pause ends."""
        return self._changes.closing or self._registrations != registrations

    def _due(self) -> bool:
        return self._changes.closing or (self.hook is not None and bool(self._queue.deliverable()))

    async def _post(self, session: aiohttp.ClientSession, hook: Webhook, update: JSONDict) -> str | None:
        """POST one update; None when the webhook took it (2xx), else Telegram's last_error_message."""
        if urlsplit(hook.url).hostname not in LOOPBACK:  # never leaves the machine (methods/updates.py)
            return "Connection refused (the fake Bot API delivers to 127.0.0.1 and localhost only)"
        headers = {"Content-Type": "application/json"}
        if hook.secret_token:
            headers[SECRET_HEADER] = hook.secret_token
        self.attempts += 1
        try:
            async with session.post(hook.url, data=json.dumps(update), headers=headers) as response:
                await response.read()
                if 200 <= response.status < 300:
                    return None
                return f"Wrong response from the webhook: {response.status} {response.reason}"
        except TimeoutError:
            return "Read timeout expired"
        except aiohttp.ClientConnectorError:
            return "Connection refused"
        except aiohttp.ClientError as exc:
            return f"Connection error: {type(exc).__name__}"
