"""The two databases the bot runs on, for the tests that must hold on both (storage, crashes, whole games).

``database`` (a fixture of conftest.py, run once per backend) is what ``DATABASE_URL`` or
``DATABASE_PATH`` would name: an SQLite file in the test's folder, or a new PostgreSQL database of its
own on the test server (tests/postgres_server.py), dropped afterwards.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg
import pytest

from bot.store import is_postgres
from bot.store.sql import numbered
from tests import postgres_server

BACKENDS = ("sqlite", "postgres")
_numbers = itertools.count()


def server_url() -> Iterator[str]:
    """The URL of a PostgreSQL server's admin database for this test session: the one CI started
    (SOSEDI_POSTGRES_URL), else one started here for the session, else the test is skipped (in CI,
    where SOSEDI_REQUIRE_POSTGRES is set, it fails)."""
    given = os.environ.get(postgres_server.URL_VARIABLE, "").strip()
    if given:
        yield given
        return
    if postgres_server.server_programs() is None:
        reason = ("PostgreSQL is not installed here (no pg_ctl, initdb): the PostgreSQL backend's tests are "
                  f"skipped (install Debian's postgresql, or set {postgres_server.URL_VARIABLE} to a server)")
        if os.environ.get(postgres_server.REQUIRE_VARIABLE):
            pytest.fail(reason)
        pytest.skip(reason)
    cluster = postgres_server.create()
    try:
        yield cluster.url
    finally:
        postgres_server.destroy(cluster)


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


@asynccontextmanager
async def fresh_database(admin_url: str, prefix: str = "test") -> AsyncIterator[str]:
    """A new empty database on the server of ``admin_url``; its URL. Dropped on the way out."""
    name = f"{prefix}_{os.getpid()}_{next(_numbers)}"
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
        yield with_database(admin_url, name)
        await admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        await admin.close()


async def execute(database: str, statement: str, *params: object) -> None:
    """Write straight into the database, as another program would (``?`` placeholders)."""
    await fetch(database, statement, *params)


async def fetch(database: str | Path, statement: str, *params: object) -> list[tuple[Any, ...]]:
    """The rows of one statement (``?`` placeholders) run straight on the database, beside the bot."""
    if not is_postgres(database):
        async with aiosqlite.connect(database) as db:
            rows = await db.execute_fetchall(statement, params)
            await db.commit()
            return [tuple(row) for row in rows]
    connection = await asyncpg.connect(str(database))
    try:
        return [tuple(row) for row in await connection.fetch(numbered(statement), *params)]
    finally:
        await connection.close()


def database_env(database: str | Path) -> dict[str, str]:
    """The environment variable that points `python -m bot` at ``database``."""
    return {"DATABASE_URL": str(database)} if is_postgres(database) else {"DATABASE_PATH": str(database)}
