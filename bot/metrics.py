"""Prometheus metrics and the health check of one bot, served on METRICS_LISTEN:METRICS_PORT.

``GET /metrics`` answers in Prometheus' text format, ``GET /healthz`` 200 or 503 (bot/health.py).
Each Application has its own :class:`Metrics` and registry (several bots in one test process keep
theirs apart); none at all when METRICS_PORT is unset. What is measured reaches it by hooks the
other modules call and that :meth:`Metrics.watch` sets (they do nothing otherwise): bot/http.py
reports every Bot API call, the flow every press and table edit, the outbox every wait, the drawing
every picture; the store is wrapped in a :class:`TimedStore`.
"""

from __future__ import annotations

import inspect
import json
import logging
import re
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

from bot.bounded import LruDict
from bot.health import Health
from bot.store import Store

if TYPE_CHECKING:
    from telegram.ext import Application

    from bot.flow import GameFlow

log = logging.getLogger(__name__)
PREFIX = "sosedi_"
ROLES = ("active", "standby")
METHOD_NAME = re.compile(r"[A-Za-z]{1,40}")  # a Bot API method; anything else (a file's path) is not a label
PRESS_TIMES_KEPT = 10_000  # presses waiting for their table edit; past this the oldest are forgotten
# seconds: a press is answered and its table drawn and edited in a few tenths; a queued edit may
# wait out a group's budget of 20 a minute (up to a minute)
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0)
WAIT_BUCKETS = (0.005, 0.05, 0.25, 1.0, 5.0, 15.0, 30.0, 60.0, 120.0)
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
DRAW_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)


class MetricsPortError(Exception):
    """The metrics port cannot be listened on (in use, not allowed, no such address); one line."""


class Metrics:
    """The bot's instruments in their own registry, and the hooks that feed them."""

    def __init__(self, games: Iterable[str], health: Health) -> None:
        self.health = health
        self.registry = registry = CollectorRegistry()
        self.presses = Counter(f"{PREFIX}presses", "Button presses by what they came to", ["outcome"],
                               registry=registry)
        self.press_to_edit = Histogram(f"{PREFIX}press_to_edit_seconds", "From a move's press arriving to its "
                                       "table edit sent and answered", buckets=LATENCY_BUCKETS, registry=registry)
        self.telegram_calls = Counter(f"{PREFIX}telegram_calls", "Bot API calls by method and result (ok, 429, "
                                      "4xx, 5xx, timeout, network)", ["method", "result"], registry=registry)
        self.outbox_wait = Histogram(f"{PREFIX}outbox_wait_seconds", "How long a send or edit waited in its "
                                     "chat's queue for the rate limit (0: sent at once)", buckets=WAIT_BUCKETS,
                                     registry=registry)
        self.replies_dropped = Counter(f"{PREFIX}replies_dropped", "Courtesy replies (refusals, /help, /rules, "
                                       "usage) dropped because their chat's budget kept them back for 30 s",
                                       registry=registry)
        self.commands_ignored = Counter(f"{PREFIX}commands_ignored", "Commands of a person ignored for sending "
                                        "more than USER_COMMANDS_PER_MINUTE in a chat", registry=registry)
        self.updates_dropped = Counter(f"{PREFIX}updates_dropped", "Updates dropped because their chat already "
                                       "had too many waiting", registry=registry)
        self.games_active = Gauge(f"{PREFIX}games_active", "Running games by game, read from the database at "
                                  "each scrape", ["game"], registry=registry)
        self.store_seconds = Histogram(f"{PREFIX}store_seconds", "Time of each database call (a transaction or "
                                       "a read) by operation", ["operation"], buckets=STORE_BUCKETS,
                                       registry=registry)
        self.draw_seconds = Histogram(f"{PREFIX}draw_seconds", "Time to draw a picture by game (cover: a lobby's "
                                      "title card)", ["game"], buckets=DRAW_BUCKETS, registry=registry)
        self.role = Gauge(f"{PREFIX}instance_role", "1 for this instance's role (active or standby)", ["role"],
                          registry=registry)
        self.games = tuple(games)
        for game in self.games:  # a game nobody plays shows 0, not nothing
            self.games_active.labels(game)
        self.set_role("active")
        # game id → when the first move not yet on its table arrived (bounded: tables that are never shown,
        # the bot kicked from their chat, leave theirs behind)
        self._pressed: LruDict[int, float] = LruDict(PRESS_TIMES_KEPT)
        self._server: MetricsServer | None = None
        self._flow: GameFlow | None = None  # the flow it answers for (None: a standby, or not started yet)
        self._store_timers: dict[str, Histogram] = {}

    @classmethod
    def for_app(cls, games: Iterable[str], poll_timeout: float, metrics_port: int | None) -> Metrics | None:
        """A bot's metrics, polling with ``poll_timeout``; None when ``metrics_port`` is unset (not collected)."""
        return None if metrics_port is None else cls(games, Health.for_polling(poll_timeout))

    # the hooks ---------------------------------------------------------------------------

    def telegram_call(self, method: str, result: str) -> None:
        """A Bot API call ended with ``result`` (bot/http.py); a getUpdates answer is a sign of life."""
        self.telegram_calls.labels(method if METHOD_NAME.fullmatch(method) else "file", result).inc()
        if method == "getUpdates" and result == "ok":
            self.health.poll_returned()

    def pressed(self, outcome: str, game_id: int, arrived: float) -> None:
        """A press came to ``outcome``; a move's time is kept until its table is shown."""
        self.presses.labels(outcome).inc()
        if outcome == "moved" and game_id not in self._pressed:
            self._pressed[game_id] = arrived

    def table_shown(self, game_id: int) -> None:
        """A game's table edit was sent and answered: the oldest press it shows has its latency."""
        arrived = self._pressed.pop(game_id, None)
        if arrived is not None:
            self.press_to_edit.observe(time.monotonic() - arrived)

    def outbox_waited(self, seconds: float) -> None:
        self.outbox_wait.observe(seconds)

    def drawn(self, picture: str, seconds: float) -> None:
        self.draw_seconds.labels(picture or "other").observe(seconds)

    def stored(self, operation: str, seconds: float) -> None:
        timer = self._store_timers.get(operation)
        if timer is None:  # one lookup under the registry's lock per operation, not per call
            timer = self._store_timers[operation] = self.store_seconds.labels(operation)
        timer.observe(seconds)

    def set_role(self, role: str) -> None:
        """This instance is now the ``role`` one (active; standby, once failover is there)."""
        if role not in ROLES:
            raise ValueError(f"role must be one of {ROLES}, not {role!r}")
        for name in ROLES:
            self.role.labels(name).set(1 if name == role else 0)

    # wiring ----------------------------------------------------------------------------------

    def timed(self, store: Store) -> Store:
        """``store`` with every call timed into store_seconds."""
        return cast(Store, TimedStore(store, self.stored))

    def watch(self, flow: GameFlow) -> None:
        """Feed the metrics from ``flow``'s presses, table edits, outbox and drawing."""
        flow.on_press = self.pressed
        flow.table.on_shown = self.table_shown
        flow.outbox.on_wait = self.outbox_waited
        flow.outbox.on_drop = self.replies_dropped.inc
        flow.flood.on_ignored = self.commands_ignored.inc
        flow.drawing.on_drawn = self.drawn

    async def serve(self, flow: GameFlow | None, host: str, port: int) -> None:
        """Serve /metrics and /healthz on ``host``:``port`` (once: a standby serves them before it has a
        flow); with ``flow``, watch it and answer for its store."""
        if flow is not None:
            self.watch(flow)
            self._flow = flow
        if self._server is None:
            self._server = MetricsServer(self, lambda: None if self._flow is None else self._flow.store)
            await self._server.start(host, port)

    async def close(self) -> None:
        if self._server is not None:
            await self._server.stop()
            self._server = None

    async def count_games(self, store: Store) -> None:
        """Set games_active from the database: the running games of each game (one counting statement)."""
        running: dict[str, int] = {**dict.fromkeys(self.games, 0), **await store.running_games()}
        for code, count in running.items():
            self.games_active.labels(code).set(count)


class TimedStore:
    """A :class:`Store` whose every coroutine call is timed (``observe(operation, seconds)``), failed
    ones too; anything else, and ``clock``, is the wrapped store's."""

    def __init__(self, inner: Store, observe: Callable[[str, float], None]) -> None:
        self.inner, self._observe = inner, observe

    @property
    def clock(self) -> Callable[[], float]:
        return self.inner.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.inner.clock = clock

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attribute):
            return attribute
        observe = self._observe

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:  # looked up at each call: ``inner`` may be replaced (a store reopened)
                return await getattr(self.inner, name)(*args, **kwargs)
            finally:
                observe(name, time.perf_counter() - started)

        self.__dict__[name] = timed  # found without __getattr__ from now on
        return timed


class MetricsServer:
    """/metrics and /healthz over aiohttp; ``store`` gives the bot's store (None: not open)."""

    def __init__(self, metrics: Metrics, store: Callable[[], Store | None]) -> None:
        self.metrics, self.store = metrics, store
        self._runner: web.AppRunner | None = None

    async def start(self, host: str, port: int) -> None:
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        try:
            await web.TCPSite(runner, host, port).start()
        except OSError as exc:
            await runner.cleanup()
            raise MetricsPortError(f"{host}:{port}: {exc.strerror or exc}") from None
        self._runner = runner
        log.info("metrics at http://%s:%d/metrics, health at /healthz", host, port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _metrics(self, request: web.Request) -> web.Response:
        """The registry in Prometheus' text format, the running games counted afresh."""
        store = self.store()
        if store is not None:
            try:
                await self.metrics.count_games(store)
            except Exception as exc:  # a scrape still answers; games_active keeps its last values
                log.warning("metrics: could not count the running games: %s", exc)
        return web.Response(body=generate_latest(self.metrics.registry), headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _healthz(self, request: web.Request) -> web.Response:
        """200 if updates flow and the database answers; else 503; a one-line JSON either way."""
        store = self.store()
        healthy, report = await self.metrics.health.check(None if store is None else store.schema_version)
        return web.Response(status=200 if healthy else 503, text=json.dumps(report), content_type="application/json")


def set_role(app: Application, role: str) -> None:  # type: ignore[type-arg]
    """Tell the metrics of ``app`` (if it has any) that this instance is now ``role``: active or standby."""
    metrics: Metrics | None = app.bot_data.get("metrics")
    if metrics is not None:
        metrics.set_role(role)
