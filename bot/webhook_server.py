"""The webhook's HTTP server: tornado, with bounds on what a client on the network can make it spend.

Telegram's updates are a few kilobytes and come with the secret header, over at most
WEBHOOK_MAX_CONNECTIONS connections. So, before a byte of a body is read, a request is refused
without the right secret (403, compared in constant time) or a JSON Content-Type (403), without a
Content-Length (411) or with one over 1 MB (413), and beyond WEBHOOK_MAX_CONNECTIONS requests
served at once (503; Telegram sends it again). A connection must bring its request's headers
within 10 s of opening (or of its previous answer) and a body within 10 s of its headers, or it is
closed. At most :func:`open_cap` connections are open at once; one more is closed as soon as it is
accepted. When the process runs out of file descriptors, accepting pauses and is tried again,
logged once per shortage instead of a traceback on every turn of the event loop.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import re
import resource
import socket
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

import tornado.web
from telegram import Bot, Update
from telegram.ext import ExtBot, Updater
from tornado.httpserver import HTTPServer
from tornado.httputil import HTTPHeaders
from tornado.iostream import IOStream
from tornado.netutil import bind_sockets

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_BODY = 1 << 20  # bytes: an update is a few kilobytes
MOST_OPEN = 1000  # far more than Telegram's 100 connections at most; their buffers fit in memory
ACCEPT_BATCH = 128  # connections accepted in one turn of the loop before others get theirs (as tornado)


def open_cap() -> int:
    """The most connections kept open: MOST_OPEN, or half the file-descriptor limit (ulimit -n) if
    that is less, leaving the other half to the database, Telegram's connections and the drawing."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return MOST_OPEN if soft == resource.RLIM_INFINITY else max(1, min(MOST_OPEN, soft // 2))


@dataclass(frozen=True)
class Limits:
    """What one client may cost the webhook server (a test shrinks the times)."""

    max_body: int = MAX_BODY
    header_timeout_s: float = 10.0  # a request's headers, from the connection's opening or its last answer
    body_timeout_s: float = 10.0  # the whole body, from the end of its headers
    max_open: int = field(default_factory=open_cap)
    accept_retry_s: float = 0.5  # the pause before accepting again when file descriptors ran out


class WebhookServer:
    """Serves ``path``: each update POSTed there goes into ``update_queue``, as PTB's own server does."""

    def __init__(self, bot: Bot, update_queue: asyncio.Queue[object], path: str, secret: str,
                 max_connections: int, limits: Limits) -> None:
        self.bot, self.update_queue, self.limits = bot, update_queue, limits
        self.secret, self.max_connections = secret.encode(), max_connections
        self.serving = 0  # requests past the checks and not yet answered
        route = re.escape(path.rstrip("/")) + "/?"  # the URL's path as it is, with or without a last slash
        app = tornado.web.Application([(route, UpdateHandler, {"server": self})],
                                      log_function=lambda handler: None)  # no access log: a flood would fill it
        self.http = HTTPServer(app, max_body_size=limits.max_body, idle_connection_timeout=limits.header_timeout_s,
                               body_timeout=limits.body_timeout_s)
        self._sockets: list[socket.socket] = []
        self._retry: asyncio.TimerHandle | None = None
        self._short_of_descriptors = self._full = False
        self.accept_pauses = 0  # times accepting paused for want of file descriptors

    def listen(self, address: str, port: int) -> None:
        """Bind ``address:port`` and start accepting (an OSError if it cannot be bound)."""
        self._sockets = bind_sockets(port, address=address)
        self._accept_all()

    async def stop(self) -> None:
        """Stop accepting and close every connection (a request being read is cut)."""
        loop = asyncio.get_running_loop()
        if self._retry is not None:
            self._retry.cancel()
        for sock in self._sockets:
            loop.remove_reader(sock.fileno())
            sock.close()
        self._sockets = []
        await self.http.close_all_connections()

    @property
    def open_connections(self) -> int:
        """Connections accepted and not yet closed (tornado's own set of them)."""
        return len(self.http._connections)

    def refusal(self, headers: HTTPHeaders) -> HTTPStatus | None:
        """Why a request with ``headers`` is refused before its body is read; None: it is read."""
        token = headers.get(SECRET_HEADER, "").encode("utf-8", "replace")
        if not hmac.compare_digest(token, self.secret):
            return HTTPStatus.FORBIDDEN
        if headers.get("Content-Type", "").split(";")[0].strip().lower() != "application/json":
            return HTTPStatus.FORBIDDEN
        length = headers.get("Content-Length")
        if length is None or not (length.isascii() and length.isdigit()):  # «²» is a digit to str.isdigit
            return HTTPStatus.LENGTH_REQUIRED
        if int(length) > self.limits.max_body:
            return HTTPStatus.REQUEST_ENTITY_TOO_LARGE
        if self.serving >= self.max_connections:
            return HTTPStatus.SERVICE_UNAVAILABLE
        return None

    async def take(self, body: bytes) -> HTTPStatus:
        """Put the update in ``body`` into the queue; BAD_REQUEST if it is none."""
        try:
            update = Update.de_json(json.loads(body), self.bot)
        except Exception:  # whatever the forged body, the answer is 400 and the bot goes on
            log.debug("a webhook body that is no update: refused (400)")
            return HTTPStatus.BAD_REQUEST
        if update is None:
            return HTTPStatus.BAD_REQUEST
        if isinstance(self.bot, ExtBot):
            self.bot.insert_callback_data(update)
        await self.update_queue.put(update)
        return HTTPStatus.OK

    def _accept_all(self) -> None:
        loop = asyncio.get_running_loop()
        for sock in self._sockets:
            loop.add_reader(sock.fileno(), self._accept, sock)

    def _accept(self, sock: socket.socket) -> None:
        """Take the connections waiting on ``sock``: served while there is room, else closed at once."""
        for _ in range(ACCEPT_BATCH):
            try:
                connection, address = sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:  # EMFILE, ENFILE, ENOBUFS: what is short comes back as connections close
                self._pause(exc)
                return
            if self._short_of_descriptors:
                log.warning("webhook: accepting connections again")
                self._short_of_descriptors = False
            if self.open_connections >= self.limits.max_open:
                connection.close()
                if not self._full:
                    log.warning("webhook: %d connections are open, the most it keeps: new ones are closed",
                                self.limits.max_open)
                self._full = True
                continue
            self._full = False
            self.http.handle_stream(IOStream(connection, max_buffer_size=2 * self.limits.max_body), address)

    def _pause(self, exc: OSError) -> None:
        """Stop accepting for a moment (the waiting connections would wake the loop at once again)."""
        if not self._short_of_descriptors:
            log.warning("webhook: cannot accept connections (%s); trying again every %.1f s until it can",
                        exc.strerror or exc, self.limits.accept_retry_s)
        self._short_of_descriptors = True
        self.accept_pauses += 1
        loop = asyncio.get_running_loop()
        for sock in self._sockets:
            loop.remove_reader(sock.fileno())
        self._retry = loop.call_later(self.limits.accept_retry_s, self._accept_all)


@tornado.web.stream_request_body
class UpdateHandler(tornado.web.RequestHandler):
    """One POST of an update: its headers checked before its body is read, then the body queued."""

    SUPPORTED_METHODS = ("POST",)

    def initialize(self, server: WebhookServer) -> None:
        self.server, self.body, self.counted = server, bytearray(), False

    def prepare(self) -> None:
        refusal = self.server.refusal(self.request.headers)
        if refusal is not None:
            log.debug("webhook request refused before its body: %d", refusal)
            raise tornado.web.HTTPError(refusal)  # answered, and the connection closed unread
        self.server.serving += 1
        self.counted = True

    def data_received(self, chunk: bytes) -> None:
        self.body += chunk  # at most max_body: tornado holds Content-Length to it

    async def post(self) -> None:
        self.set_status(await self.server.take(bytes(self.body)))

    def on_finish(self) -> None:
        self._uncount()

    def on_connection_close(self) -> None:
        self._uncount()
        super().on_connection_close()

    def _uncount(self) -> None:
        if self.counted:
            self.server.serving -= 1
            self.counted = False


class WebhookUpdater(Updater):
    """PTB's Updater whose webhook is a :class:`WebhookServer`: ``stop`` (SIGTERM's path, and the
    tests') closes it as PTB's closes its own."""

    def __init__(self, bot: Bot, update_queue: asyncio.Queue[Any]) -> None:
        super().__init__(bot, update_queue)
        self.server: WebhookServer | None = None

    @property
    def running(self) -> bool:
        return self.server is not None or super().running

    async def stop(self) -> None:
        server, self.server = self.server, None
        if server is None:
            await super().stop()
        else:
            await server.stop()
