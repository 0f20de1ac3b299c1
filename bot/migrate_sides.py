"""The two ends of a copy (:mod:`bot.migrate`), one class a driver: the tables of an open store read
and written straight through its connection (aiosqlite) or its pool (asyncpg), in batches.

A source is read in one snapshot (a read transaction), so a copy never mixes two moments of it; a
target is written in one transaction, so it gets every row or none.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import aiosqlite
import asyncpg

from bot.store import PostgresStore, SQLiteStore, Store
from bot.store.sql import ident, idents, placeholders

# the bot's tables, parents before the tables whose foreign keys name them, with their primary keys
TABLES: dict[str, str] = {
    "chats": "chat_id", "games": "id", "seats": "game_id, seat", "actions": "game_id, n",
    "pub_tally": "chat_id, user_id", "results": "game_id, user_id",
    "ratings": "chat_id, code, player", "rated_games": "game_id", "replays": "game_id",
    "handled_updates": "update_id",
}
# tables each store keeps for itself: its schema's migrations, SQLite's AUTOINCREMENT counters
BOOKKEEPING = frozenset({"schema_version", "sqlite_sequence"})
BATCH = 5000  # rows a read fetches and a write sends at a time
Rows = Sequence[tuple[Any, ...]]


class Writer(Protocol):
    """The statements of the target's one transaction."""

    async def count(self, table: str) -> int: ...

    async def insert(self, table: str, columns: Sequence[str], rows: Rows) -> None: ...

    async def finish(self) -> None:
        """After the last row: what the database needs to go on from the copied ids."""
        ...


class Side(Protocol):
    """One database of a copy, through its store's own connection."""

    async def tables(self) -> set[str]: ...

    async def columns(self, table: str) -> list[str]: ...

    async def count(self, table: str) -> int: ...

    async def _ids(self, statement: str) -> list[int]:
        """The ids the statement (one of bot.migrate's) selects, in order."""
        ...

    def snapshot(self) -> Any:
        """An async context: the reads inside see one moment of the database."""
        ...

    def batches(self, table: str, columns: Sequence[str]) -> AsyncIterator[Rows]:
        """The table's rows (of ``columns``, in its key's order), BATCH at a time."""
        ...

    def transaction(self) -> Any:
        """An async context giving a :class:`Writer`: committed at its end, rolled back if it raises."""
        ...


def side_of(store: Store) -> Side:
    """The copy's view of an open store."""
    if isinstance(store, PostgresStore):
        return PostgresSide(store.pool)
    assert isinstance(store, SQLiteStore), type(store)
    return SQLiteSide(store.connection)


async def sqlite_count(db: aiosqlite.Connection, table: str) -> int:
    async with db.execute(f"SELECT COUNT(*) FROM {ident(table)}") as cursor:
        row = await cursor.fetchone()
    assert row is not None
    return int(row[0])


class SQLiteSide:
    """An SQLite file, through the store's one aiosqlite connection (nothing else uses it meanwhile)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def tables(self) -> set[str]:
        rows = await self._db.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        return [row[1] for row in await self._db.execute_fetchall(f"PRAGMA table_info({ident(table)})")]

    async def count(self, table: str) -> int:
        return await sqlite_count(self._db, table)

    async def _ids(self, statement: str) -> list[int]:
        return [row[0] for row in await self._db.execute_fetchall(statement)]

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        await self._db.execute("BEGIN")  # deferred: a read transaction from the first read on (WAL)
        try:
            yield
        finally:
            await self._db.execute("COMMIT")

    async def batches(self, table: str, columns: Sequence[str]) -> AsyncIterator[Rows]:
        async with self._db.execute(
                f"SELECT {idents(columns)} FROM {ident(table)} ORDER BY {idents(TABLES[table].split(', '))}") as cursor:
            while rows := await cursor.fetchmany(BATCH):
                yield [tuple(row) for row in rows]

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Writer]:
        await self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self
            await self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            raise

    async def insert(self, table: str, columns: Sequence[str], rows: Rows) -> None:
        await self._db.executemany(f"INSERT INTO {ident(table)}({idents(columns)}) VALUES "
                                   f"({placeholders(len(columns))})", rows)

    async def finish(self) -> None:
        """Nothing: an explicit id moves SQLite's AUTOINCREMENT counter past itself."""


class PostgresSide:
    """A PostgreSQL database, through the store's asyncpg pool: a read or a write holds one connection."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._held: asyncpg.Connection | asyncpg.pool.PoolConnectionProxy | None = None

    async def tables(self) -> set[str]:
        rows = await self._pool.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        return {row[0] for row in rows}

    async def columns(self, table: str) -> list[str]:
        rows = await self._pool.fetch("SELECT column_name FROM information_schema.columns "
                                      "WHERE table_schema = current_schema() AND table_name = $1 "
                                      "ORDER BY ordinal_position", table)
        return [row[0] for row in rows]

    async def count(self, table: str) -> int:
        connection = self._held or self._pool
        return int(await connection.fetchval(f"SELECT COUNT(*) FROM {ident(table)}"))

    async def _ids(self, statement: str) -> list[int]:
        return [row[0] for row in await self._pool.fetch(statement)]

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[None]:
        async with self._pool.acquire() as connection, connection.transaction(isolation="repeatable_read",
                                                                              readonly=True):
            self._held = connection
            try:
                yield
            finally:
                self._held = None

    async def batches(self, table: str, columns: Sequence[str]) -> AsyncIterator[Rows]:
        assert self._held is not None, "inside snapshot() only (a cursor needs its transaction)"
        batch: list[tuple[Any, ...]] = []
        async for record in self._held.cursor(
                f"SELECT {idents(columns)} FROM {ident(table)} ORDER BY {idents(TABLES[table].split(', '))}",
                prefetch=BATCH):
            batch.append(tuple(record))
            if len(batch) == BATCH:
                yield batch
                batch = []
        if batch:
            yield batch

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Writer]:
        async with self._pool.acquire() as connection, connection.transaction():
            self._held = connection
            try:
                yield self
            finally:
                self._held = None

    async def insert(self, table: str, columns: Sequence[str], rows: Rows) -> None:
        """COPY, the fastest way in; JSON text goes into the jsonb columns as it is (the server parses it)."""
        assert self._held is not None
        await self._held.copy_records_to_table(table, records=rows, columns=list(columns))

    async def finish(self) -> None:
        """The games' identity goes on after the highest copied id (else the next lobby would take id 1)."""
        assert self._held is not None
        await self._held.execute("SELECT setval(pg_get_serial_sequence('games', 'id'), MAX(id)) FROM games "
                                 "HAVING MAX(id) IS NOT NULL")
