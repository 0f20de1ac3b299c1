"""Webhook mode (WEBHOOK_URL set): the bot's webhook server behind a TLS-terminating proxy.

The bot registers the URL with setWebhook (its secret token, the update types it handles and
WEBHOOK_MAX_CONNECTIONS) and serves the URL's path on WEBHOOK_LISTEN:WEBHOOK_PORT with
:class:`bot.webhook_server.WebhookServer` (its limits are told there), which puts each update into
PTB's update queue as PTB's own server does. It answers 403 to a request without the right
X-Telegram-Bot-Api-Secret-Token header or not JSON by its Content-Type, 413 to a body over 1 MB,
all before reading the body, and 400 to a body that is no Update; none of those reaches a handler.

Telegram sends an update again when it did not get a 2xx answer, so an update the bot already
queued can come twice (the answer lost on the way back, or the bot killed before it answered).
Polling never hands out an update twice, so only this mode keeps a short memory of the update ids
it has taken (:class:`SeenUpdates`) and drops one it remembers. Only the memory decides, never an
id's size: Telegram numbers updates one by one, but after a week without any it starts again from
a random number (https://core.telegram.org/bots/api#update), usually far below the last one. The
memory is the process's own: after a restart a redelivered press is still refused by its callback
data's state version, a command by the flow's own checks.
"""

from __future__ import annotations

import collections
import logging
import socket
import time

from telegram import Update
from telegram.error import TelegramError
from telegram.ext import ApplicationHandlerStop, ContextTypes, TypeHandler

from bot import redelivery
from bot.app import ALLOWED_UPDATES, BotApp, start_app
from bot.config import Config, Webhook
from bot.webhook_server import Limits, WebhookServer, WebhookUpdater

log = logging.getLogger(__name__)
REMEMBERED_UPDATES = 1024  # far more than Telegram has in flight at once (WEBHOOK_MAX_CONNECTIONS, at most 100)
WEBHOOK_CHECK_S = 30.0  # how often a webhook bot asks getWebhookInfo whether deliveries fail (/healthz)
LISTEN_FAILED = ("Вебхук не может слушать WEBHOOK_LISTEN:WEBHOOK_PORT={address} ({reason}) · "
                 "the webhook cannot listen on WEBHOOK_LISTEN:WEBHOOK_PORT={address} ({reason})")


class WebhookListenError(Exception):
    """The webhook server cannot listen where it was told to; the message is one line."""


class SeenUpdates:
    """The ids of the last ``size`` updates taken: one of them delivered again is stale, any other is new.

    An id far below the newest one (more than ``size`` below: farther than updates arrive out of
    order, at most WEBHOOK_MAX_CONNECTIONS at once) starts a new sequence; it is taken, and said once.
    """

    def __init__(self, size: int = REMEMBERED_UPDATES) -> None:
        self._order: collections.deque[int] = collections.deque()
        self._ids: set[int] = set()
        self._size = size
        self._newest: int | None = None  # of the sequence Telegram numbers updates in now

    def __len__(self) -> int:
        return len(self._ids)

    def first_time(self, update_id: int) -> bool:
        """Note ``update_id``; False if it is one of the ids remembered."""
        if update_id in self._ids:
            return False
        if self._newest is not None and update_id < self._newest - self._size:
            log.info("update ids start again from %d (the last was %d): Telegram began a new sequence",
                     update_id, self._newest)
            self._newest = update_id
        else:
            self._newest = update_id if self._newest is None else max(self._newest, update_id)
        self._ids.add(update_id)
        self._order.append(update_id)
        if len(self._order) > self._size:
            self._ids.discard(self._order.popleft())
        return True


async def drop_seen_update(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Stop an update delivered before (group -1: before every handler); a new one is a sign of health."""
    seen: SeenUpdates = context.application.bot_data["seen_updates"]
    if isinstance(update, Update) and not seen.first_time(update.update_id):
        log.info("update %d came again (Telegram redelivers when an answer is lost): dropped", update.update_id)
        raise ApplicationHandlerStop
    metrics = context.application.bot_data.get("metrics")
    if metrics is not None:
        metrics.health.updates_seen()


async def check_webhook(context: ContextTypes.DEFAULT_TYPE) -> None:
    """A quiet webhook bot is healthy while Telegram reports no delivery error since the last look
    (getWebhookInfo, every WEBHOOK_CHECK_S): then updates would reach it."""
    metrics = context.application.bot_data.get("metrics")
    if metrics is None:
        return
    try:
        info = await context.bot.get_webhook_info()
    except TelegramError as exc:
        log.warning("getWebhookInfo failed: %s", exc)
        return
    last_error = info.last_error_date.timestamp() if info.last_error_date else 0.0
    if info.url and time.time() - last_error > WEBHOOK_CHECK_S:
        metrics.health.poll_returned()


def guard_redeliveries(app: BotApp) -> None:
    """Let each update id through once (see the module's docstring)."""
    app.bot_data["seen_updates"] = SeenUpdates()
    # before bot/redelivery.py's check (one group up): this run's memory costs no read of the store
    app.add_handler(TypeHandler(Update, drop_seen_update), group=redelivery.FIRST - 1)


def check_listen(hook: Webhook) -> None:
    """Bind WEBHOOK_LISTEN:WEBHOOK_PORT once before setWebhook, so an address in use is said at once
    instead of Telegram being pointed at a server that never starts."""
    address = f"{hook.listen}:{hook.port}"
    try:
        infos = socket.getaddrinfo(hook.listen, hook.port, type=socket.SOCK_STREAM)
        family, kind, proto, _, where = infos[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as tornado binds it
            probe.bind(where)
    except OSError as exc:
        raise WebhookListenError(LISTEN_FAILED.format(address=address, reason=exc.strerror or exc)) from None


async def start_webhook_app(app: BotApp, hook: Webhook, limits: Limits | None = None) -> None:
    """Start ``app`` like :func:`bot.app.start_app` does, receiving through the webhook: initialize,
    post_init, setWebhook and the webhook server (within ``limits``), handlers."""
    await app.initialize()
    if app.post_init is not None:
        await app.post_init(app)
    guard_redeliveries(app)
    check_listen(hook)
    # a failure is the caller's to say in one line (python -m bot), so no retry loop that logs it
    await app.bot.set_webhook(url=hook.url, secret_token=hook.secret, allowed_updates=list(ALLOWED_UPDATES),
                              max_connections=hook.max_connections)
    server = WebhookServer(app.bot, app.update_queue, hook.path, hook.secret, hook.max_connections,
                           limits or Limits())
    try:
        server.listen(hook.listen, hook.port)
    except OSError as exc:  # taken between the check and the bind
        raise WebhookListenError(LISTEN_FAILED.format(address=f"{hook.listen}:{hook.port}",
                                                      reason=exc.strerror or exc)) from None
    updater = WebhookUpdater(app.bot, app.update_queue)
    updater.server = server  # stopped where PTB's Updater would be (python -m bot's shut_down, stop_app)
    app.updater = updater
    await app.start()
    assert app.job_queue is not None
    app.job_queue.run_repeating(check_webhook, interval=WEBHOOK_CHECK_S, first=WEBHOOK_CHECK_S, name="webhook-check")
    log.info("webhook mode: %s is served on %s:%d%s", hook.url, hook.listen, hook.port, hook.path)


async def start_receiving(app: BotApp, config: Config) -> None:
    """Start ``app`` the way ``config`` says: a webhook if WEBHOOK_URL is set, else long polling."""
    if config.webhook is not None:
        await start_webhook_app(app, config.webhook)
    else:
        await start_app(app, config.poll_timeout)
