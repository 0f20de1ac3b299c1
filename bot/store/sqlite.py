"""SQLite, the default :class:`~bot.store.protocol.Store`: one file, WAL, forward migrations.

Only aiosqlite's public API is used: one connection, whose thread runs the statements in the order
they are given. Every write of a press is a single statement (a move, a new lobby and a lobby's
seating are compound writes made by one statement each: :mod:`bot.store.sqlite_dialect`), so each is
atomic on its own and the writes of many chats follow each other on that thread without a lock. The
rare writes of several statements (a group moving to a supergroup, the migrations) are transactions:
while one runs, every other statement waits for it, so none lands inside it.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.store import sql
from bot.store.protocol import StorageError
from bot.store.sql_store import Row, SQLStore, Transaction
from bot.store.sqlite_dialect import (
    BEGIN,
    COMMIT,
    CONNECTION_SETUP,
    CREATE_GAME,
    GAMES_BY_IDS,
    MIGRATIONS,
    NEW_GAME_ID,
    ROLLBACK,
    SAVE_MOVE,
    SET_LOBBY,
    SET_SHOWN_VERSIONS,
)

T = TypeVar("T")
BUSY_S = 5.0  # how long the writes waiting together wait for another process's write lock
BUSY_STEP_S = (0.01, 0.25)  # the first pause between two tries of a write, and the longest


class SQLiteStore(SQLStore):
    """The bot's data in one SQLite file. Open with :meth:`open`, close with :meth:`close`."""

    INTEGRITY_ERRORS = (sqlite3.IntegrityError,)  # a broken constraint: one active game a topic, a stale save

    def __init__(self, connection: aiosqlite.Connection) -> None:
        super().__init__()
        self._db = connection
        self._transaction_lock = asyncio.Lock()
        self.busy_s = BUSY_S
        self._busy_until: float | None = None  # the deadline of the writes waiting for another process's lock

    @classmethod
    async def open(cls, path: str | Path) -> SQLiteStore:
        """Open (creating its folder, then the file) and migrate the database at ``path``."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = cls(await _connect(path))
        return await store._migrated()

    @property
    def connection(self) -> aiosqlite.Connection:
        """The connection (for the storage fault tests, which inject SQLite's own faults into it)."""
        return self._db

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        await self._write(sql.SCHEMA_TABLE, ())
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number > current:
                async with self._transaction() as tx:
                    for statement in filter(str.strip, script.split(";")):
                        await tx._exec(statement, ())
                    await tx._exec(sql.SCHEMA_DONE, (number,))

    # the compound writes: one statement each (sqlite_dialect's triggers) ---------------------

    async def _insert_game(self, tx: Transaction, params: Sequence[Any]) -> int:
        await tx._exec(CREATE_GAME, params)
        chat_id, thread_id, seed = params[0], params[1], params[4]
        return int((await tx._fetch(NEW_GAME_ID, (chat_id, thread_id, seed)))[0]["id"])

    async def _seat_lobby(self, tx: Transaction, params: Sequence[Any]) -> None:
        await tx._exec(SET_LOBBY, params)

    async def _save(self, params: Sequence[Any]) -> None:
        await self._write(SAVE_MOVE, params)

    async def _read_games(self, params: Sequence[Any]) -> list[Row]:
        return await self._read(GAMES_BY_IDS, params)

    async def _save_shown(self, params: Sequence[Any]) -> None:
        await self._write(SET_SHOWN_VERSIONS, params)

    # the hops to the database thread ----------------------------------------------------

    async def _read(self, statement: str, params: Sequence[Any]) -> list[Row]:
        """The rows of one statement."""
        if self._transaction_lock.locked():
            await self._after_transaction()
        with STORAGE_ERRORS:
            return list(await self._db.execute_fetchall(statement, params))

    async def _write(self, statement: str, params: Sequence[Any]) -> int:
        """One autocommitted statement (atomic on its own); the number of rows it changed."""
        if self._transaction_lock.locked():
            await self._after_transaction()
        with STORAGE_ERRORS:
            return (await self._patiently(lambda: self._db.execute(statement, params))).rowcount

    async def _patiently(self, write: Callable[[], Awaitable[T]]) -> T:
        """``write`` tried again while another process holds the write lock, until one deadline shared
        by every write waiting for it: the connection never waits itself (its busy timeout is 0), so
        the writes queued behind the lock fail together when it runs out, not five seconds each in
        turn, and while the lock is still held after that a write fails at its first try. Reads never
        wait: in WAL mode a writer does not block them."""
        pause = BUSY_STEP_S[0]
        while True:
            try:
                done = await write()
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode != sqlite3.SQLITE_BUSY:
                    raise
                now = time.monotonic()
                if self._busy_until is None:
                    self._busy_until = now + self.busy_s
                if now >= self._busy_until:
                    raise
                await asyncio.sleep(min(pause, self._busy_until - now))  # no event tells when another process lets go
                pause = min(2 * pause, BUSY_STEP_S[1])
                continue
            self._busy_until = None
            return done

    async def _after_transaction(self) -> None:
        """Wait for the transaction that runs, so that no other statement lands inside it. The
        statement that follows is handed to the database thread before anything else can run (no
        await comes between), so a transaction begun later is queued behind it there."""
        async with self._transaction_lock:
            pass

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Transaction]:
        """BEGIN IMMEDIATE … COMMIT around the body, ROLLBACK if it raises."""
        async with self._transaction_lock:
            with STORAGE_ERRORS:
                await self._patiently(lambda: self._db.execute(BEGIN))
                try:
                    yield self
                    await self._db.execute(COMMIT)  # may fail too (disk full, locked): then nothing is stored
                except BaseException:
                    if self._db.in_transaction:
                        await self._db.execute(ROLLBACK)
                    raise

    async def _exec(self, statement: str, params: Sequence[Any]) -> int:
        """A statement of the transaction in progress; the number of rows it changed."""
        assert self._transaction_lock.locked(), "only inside _transaction (its Transaction is the store)"
        with STORAGE_ERRORS:
            return (await self._db.execute(statement, params)).rowcount

    async def _fetch(self, statement: str, params: Sequence[Any]) -> list[Row]:
        """Rows from inside the transaction in progress (what it has written included)."""
        assert self._transaction_lock.locked(), "only inside _transaction (its Transaction is the store)"
        with STORAGE_ERRORS:
            return list(await self._db.execute_fetchall(statement, params))


async def _connect(path: str | Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(str(path), isolation_level=None)  # autocommit: transactions are explicit
    conn.row_factory = aiosqlite.Row
    try:
        with STORAGE_ERRORS:
            for statement in CONNECTION_SETUP:
                await conn.execute(statement)
    except BaseException:  # not a database, say: its thread must not outlive the failed open
        await conn.close()
        raise
    return conn


class _StorageErrors:
    """A failure of the database itself (locked, read-only, disk full, I/O error, corrupt) as
    StorageError; a broken constraint, which callers expect (one active game per chat), as it is.
    (A class, not a generator: it wraps every hop to the database.)"""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.IntegrityError):
            raise StorageError(str(exc)) from exc


STORAGE_ERRORS = _StorageErrors()
