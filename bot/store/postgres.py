"""PostgreSQL, the server :class:`~bot.store.protocol.Store` (``DATABASE_URL=postgresql://…``), with asyncpg.

A pool of connections: each statement takes one for its own time, each transaction holds one until it
commits, so the presses of many chats run side by side and wait only for the row of their own game.
Every write of a press is one statement (the compound writes are functions of
:mod:`bot.store.postgres_dialect`), committed before the bot edits any message. A connection the
server dropped (it restarted, or went away) fails the statement it carried, as :class:`StorageError`
with nothing written; the pool opens a fresh one for the next.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.store import sql
from bot.store.postgres_dialect import (
    CREATE_GAME,
    GAMES_BY_IDS,
    MIGRATION_LOCK,
    MIGRATIONS,
    SAVE_MOVE,
    SET_LOBBY,
    SET_SHOWN_VERSIONS,
    TAKE_MIGRATION_LOCK,
)
from bot.store.protocol import StorageError
from bot.store.sql_store import Row, SQLStore, Transaction

STORE_CONNECTIONS = "sosedi-bot store"  # application_name: a new active instance ends the old one's (bot/instance.py)
# connections at most, each held for one statement (of many presses: batches.py); two instances
# with their lock's connections fit PostgreSQL's default max_connections of 100
POOL_SIZE = 20
STATEMENT_TIMEOUT_S = 10.0  # a statement the server has not answered by then fails (StorageError)
CONNECT_TIMEOUT_S = 5.0


def rowcount(status: str) -> int:
    """The rows a statement changed, from asyncpg's status line («UPDATE 3», «INSERT 0 1»)."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


class _PoolTransaction:
    """The statements of one transaction, on the connection it holds."""

    def __init__(self, connection: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy) -> None:
        self._connection = connection

    async def _exec(self, statement: str, params: Sequence[Any]) -> int:
        with STORAGE_ERRORS:
            return rowcount(await self._connection.execute(sql.numbered(statement), *params))

    async def _fetch(self, statement: str, params: Sequence[Any]) -> list[Row]:
        with STORAGE_ERRORS:
            return list(await self._connection.fetch(sql.numbered(statement), *params))


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a connection back in the pool needs: nothing. asyncpg's default resets every session
    (RESET ALL, UNLISTEN *, advisory unlocks: one more round trip per statement, which under load
    doubled the time a press waited for a connection); the store never changes a session's state
    (the instance's lock has a connection of its own, the migrations' lock ends with their transaction)."""


class PostgresStore(SQLStore):
    """The bot's data in a PostgreSQL database. Open with :meth:`open`, close with :meth:`close`."""

    INTEGRITY_ERRORS = (asyncpg.IntegrityConstraintViolationError,)

    def __init__(self, pool: asyncpg.Pool) -> None:
        super().__init__()
        self._pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresStore:
        """Connect to the database at ``url`` and migrate it (once, whoever of several instances comes first)."""
        with STORAGE_ERRORS:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=POOL_SIZE, timeout=CONNECT_TIMEOUT_S,
                                             command_timeout=STATEMENT_TIMEOUT_S,
                                             server_settings={"application_name": STORE_CONNECTIONS},
                                             reset=_keep_session)
        store = cls(pool)
        return await store._migrated()

    @property
    def pool(self) -> asyncpg.Pool:
        return self._pool

    async def close(self) -> None:
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._transaction() as tx:
            await tx._exec(TAKE_MIGRATION_LOCK, (MIGRATION_LOCK,))
            await tx._exec(sql.SCHEMA_TABLE, ())
            current = int((await tx._fetch(sql.SCHEMA_VERSION, ()))[0]["version"] or 0)
            for number, script in MIGRATIONS:
                if number > current:
                    await tx._exec(script, ())
                    await tx._exec(sql.SCHEMA_DONE, (number,))

    # the compound writes: one function call each (postgres_dialect) ---------------------------

    async def _insert_game(self, tx: Transaction, params: Sequence[Any]) -> int:
        return int((await tx._fetch(CREATE_GAME, params))[0]["id"])

    async def _seat_lobby(self, tx: Transaction, params: Sequence[Any]) -> None:
        await tx._exec(SET_LOBBY, params)

    async def _save(self, params: Sequence[Any]) -> None:
        await self._write(SAVE_MOVE, params)

    async def _read_games(self, params: Sequence[Any]) -> list[Row]:
        return await self._read(GAMES_BY_IDS, params)

    async def _save_shown(self, params: Sequence[Any]) -> None:
        await self._write(SET_SHOWN_VERSIONS, params)

    # statements on a connection of the pool ---------------------------------------------------

    async def _read(self, statement: str, params: Sequence[Any]) -> list[Row]:
        """The rows of one statement."""
        return list(await self._on_a_live_connection(statement, params, rows=True))

    async def _write(self, statement: str, params: Sequence[Any]) -> int:
        """One autocommitted statement (atomic on its own); the number of rows it changed."""
        return rowcount(await self._on_a_live_connection(statement, params, rows=False))

    async def _on_a_live_connection(self, statement: str, params: Sequence[Any], rows: bool) -> Any:
        """The statement's rows (``rows``) or status line. A connection the server dropped before
        answering is tried once more on a fresh one (the server restarted: every idle one is dead too).
        Every write of the bot may be repeated: a save checks its version, so a save that did commit
        the first time is refused as stale, never applied twice; the others set what they set."""
        with STORAGE_ERRORS:
            try:
                return await self._run(statement, params, rows)
            except asyncpg.ConnectionDoesNotExistError:
                await self._pool.expire_connections()
                return await self._run(statement, params, rows)

    async def _run(self, statement: str, params: Sequence[Any], rows: bool) -> Any:
        if rows:
            return await self._pool.fetch(sql.numbered(statement), *params)
        return await self._pool.execute(sql.numbered(statement), *params)

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        """BEGIN … COMMIT on one connection of the pool, ROLLBACK if the body raises."""
        with STORAGE_ERRORS:
            async with self._pool.acquire() as connection, connection.transaction():
                yield _PoolTransaction(connection)


class _StorageErrors:
    """A failure of the database or of the way to it (server gone or restarting, connection dropped,
    no answer in time, disk full) as StorageError; a broken constraint, which callers expect (one
    active game per topic, a stale save), as it is."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if exc is None or isinstance(exc, asyncpg.IntegrityConstraintViolationError):
            return
        if isinstance(exc, asyncpg.PostgresError | asyncpg.InterfaceError | OSError | asyncio.TimeoutError):
            raise StorageError(str(exc) or type(exc).__name__) from exc


STORAGE_ERRORS = _StorageErrors()
