"""One active instance per PostgreSQL database: the others wait as standbys.

Telegram hands a bot's updates to one place and caps its sends, so a second machine buys
availability, not throughput. Every ``python -m bot`` on a PostgreSQL database first takes a
session-level advisory lock on a connection of its own; the one that holds it serves (polls, or
takes the webhook), the others wait in ``pg_advisory_lock`` and so get it the moment it is free:

- the active one stopped by SIGTERM drains its presses, closes its store, then closes the lock's
  connection: a standby takes over at once (a deploy without downtime);
- killed (SIGKILL, a crash), its connection closes with it and the server frees the lock;
- its host gone: the server notices the silent connection by TCP keepalives (sent after
  ``KEEPALIVE_IDLE_S`` of quiet, ``KEEPALIVE_COUNT`` unanswered ``KEEPALIVE_INTERVAL_S`` apart:
  about 6 s) and frees the lock, well within the 10 s a standby has to take over.

The active one pings its lock connection every ``PING_EVERY_S``; if that connection is gone (the
server restarted, or dropped it) another instance may hold the lock by now, so this one stops
serving at once and exits for its supervisor to start it again, as a standby.
The new active instance runs the migrations (under their own lock), then catches up as after any
restart: re-sends the table edits left undone and re-arms the turn timers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from bot.store.postgres import STORE_CONNECTIONS

log = logging.getLogger(__name__)
INSTANCE_LOCK = 0x534F5345  # the advisory lock's key ("SOSE"); the migrations' lock is another
KEEPALIVE_IDLE_S, KEEPALIVE_INTERVAL_S, KEEPALIVE_COUNT = 3, 1, 3
PING_EVERY_S, PING_TIMEOUT_S = 2.0, 3.0
RECONNECT_S = 1.0  # a standby whose connection failed tries again after this
TAKE = "SELECT pg_try_advisory_lock($1)"
WAIT = "SELECT pg_advisory_lock($1)"
PING = "SELECT 1"
LOCK_CONNECTION = "sosedi-bot lock"  # its application_name
# the store connections of the instance that held the lock before (this one has none yet): a statement
# it sent before it died may still be running; ended here, it is rolled back unless it committed already
FENCE = ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
         "AND application_name = $1 AND pid <> pg_backend_pid()")
FENCED = ("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 "
          "AND pid <> pg_backend_pid()")
FENCE_WAIT_S, FENCE_POLL_S = 5.0, 0.05
ACTIVE_LINE = "instance is active: holding the lock of the database"
STANDBY_LINE = "instance is standby: another instance holds the lock; waiting to take over"
LOST_LINE = "instance lost the lock of the database ({reason}): stopping so that only one serves"


class InstanceLock:
    """The advisory lock that makes this process the active instance, on a connection of its own."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._connection: asyncpg.Connection | None = None

    async def _connect(self) -> asyncpg.Connection:
        # the server-side keepalives are what frees the lock when this host vanishes without a word
        return await asyncpg.connect(self.url, timeout=10, server_settings={
            "tcp_keepalives_idle": str(KEEPALIVE_IDLE_S), "tcp_keepalives_interval": str(KEEPALIVE_INTERVAL_S),
            "tcp_keepalives_count": str(KEEPALIVE_COUNT), "application_name": LOCK_CONNECTION})

    async def acquire(self, stopped: asyncio.Event, on_standby: Callable[[], None] = lambda: None) -> bool:
        """Hold the lock (True), waiting as a standby as long as another instance holds it, or until
        ``stopped`` is set (False)."""
        said_standby = False
        while not stopped.is_set():
            try:
                connection = await self._connect()
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("standby: cannot reach the database (%s); trying again", exc)
                await _pause(stopped, RECONNECT_S)
                continue
            try:
                if await connection.fetchval(TAKE, INSTANCE_LOCK) or await self._wait(connection, stopped, said_standby,
                                                                                        on_standby):
                    self._connection = connection
                    await self._fence(connection)
                    log.info(ACTIVE_LINE)
                    return True
                said_standby = True
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("standby: the database connection failed (%s); trying again", exc)
                said_standby = True
            await _close(connection)
            await _pause(stopped, RECONNECT_S)
        return False

    @staticmethod
    async def _wait(connection: asyncpg.Connection, stopped: asyncio.Event, said: bool,
                    on_standby: Callable[[], None]) -> bool:
        """Wait in pg_advisory_lock (True once held) unless ``stopped`` comes first (False)."""
        if not said:
            log.info(STANDBY_LINE)
            on_standby()
        waiting = asyncio.ensure_future(connection.fetchval(WAIT, INSTANCE_LOCK))
        stop = asyncio.ensure_future(stopped.wait())
        await asyncio.wait({waiting, stop}, return_when=asyncio.FIRST_COMPLETED)
        stop.cancel()
        if waiting.done():
            waiting.result()  # raises what the wait raised
            return True
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError, asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            await waiting
        return False

    @staticmethod
    async def _fence(connection: asyncpg.Connection) -> None:
        """End the previous active instance's store connections and wait until they are gone, so that
        whatever it was writing is either committed or rolled back before this one catches up."""
        ended = await connection.fetch(FENCE, STORE_CONNECTIONS)
        if ended:
            log.info("ended %d store connections of the instance that served before", len(ended))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FENCE_WAIT_S
        while await connection.fetchval(FENCED, STORE_CONNECTIONS) and loop.time() < deadline:
            await asyncio.sleep(FENCE_POLL_S)  # a terminated backend is gone within milliseconds

    async def watch(self, lost: Callable[[str], None]) -> None:
        """Ping the lock's connection until it fails; then ``lost(reason)`` (run as a task, cancelled at stop)."""
        assert self._connection is not None
        while True:
            await asyncio.sleep(PING_EVERY_S)
            try:
                await self._connection.fetchval(PING, timeout=PING_TIMEOUT_S)
            except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                reason = str(exc) or type(exc).__name__
                log.error(LOST_LINE.format(reason=reason))
                lost(reason)
                return

    async def release(self) -> None:
        """Let the lock go (closing its connection frees it): a standby takes over now."""
        connection, self._connection = self._connection, None
        if connection is not None:
            await _close(connection)


async def _close(connection: asyncpg.Connection) -> None:
    try:
        await asyncio.wait_for(connection.close(), 5)
    except (OSError, TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError):
        connection.terminate()


async def _pause(stopped: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stopped.wait(), seconds)
