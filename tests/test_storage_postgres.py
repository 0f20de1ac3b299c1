"""What only the PostgreSQL store has to show (the shared storage suite runs on both, test_storage.py):
its schema as SQLite's latest, JSON as jsonb, migrations once when two instances start together, a
server gone and back under a running store, and `python -m bot`'s one line for a DATABASE_URL that
cannot be used."""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import Iterator
from pathlib import Path

import asyncpg
import pytest

from bot.__main__ import POSTGRES_FAILED
from bot.config import BAD_DATABASE_URL
from bot.store import PostgresStore, Seat, StaleVersionError, StorageError, open_store
from bot.store.postgres_dialect import MIGRATIONS as POSTGRES_MIGRATIONS
from bot.store.sqlite_dialect import MIGRATIONS as SQLITE_MIGRATIONS
from tests import postgres_server
from tests.backends import fetch, fresh_database, with_database
from tests.startup_steps import TOKEN, dead_port, run_bot
from tests.store_helpers import moved

HOST = Seat(0, 10, "Аня")
JSON_COLUMNS = {("chats", "settings"), ("games", "options"), ("games", "state"), ("games", "result"),
                ("games", "timeouts"), ("actions", "dice"), ("actions", "events"),
                ("rated_games", "changes")}


@pytest.fixture
def own_server() -> Iterator[postgres_server.Cluster]:
    """A server of this test's own, to be stopped and started under a running store."""
    if postgres_server.server_programs() is None:
        pytest.skip("PostgreSQL is not installed here (no pg_ctl, initdb)")
    cluster = postgres_server.create()
    try:
        yield cluster
    finally:
        postgres_server.destroy(cluster)


async def test_the_schema_is_sqlites_latest_with_json_as_jsonb(postgres_server: str) -> None:
    async with fresh_database(postgres_server) as url:
        store = await open_store(url)
        assert isinstance(store, PostgresStore)
        assert await store.schema_version() == len(SQLITE_MIGRATIONS) == POSTGRES_MIGRATIONS[-1][0]
        await store.close()
        columns = await fetch(url, "SELECT table_name, column_name, data_type FROM information_schema.columns "
                                   "WHERE table_schema = 'public'")
        jsonb = {(table, column) for table, column, kind in columns if kind == "jsonb"}
        assert jsonb == JSON_COLUMNS
        sqlite_columns = await sqlite_schema()
        assert {(t, c) for t, c, _ in columns} == sqlite_columns  # the same tables and columns as SQLite's


async def sqlite_schema() -> set[tuple[str, str]]:
    """Every (table, column) of a new SQLite database."""
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "bot.sqlite3")
        store = await open_store(path)
        await store.close()
        tables = [t for (t,) in await fetch(path, "SELECT name FROM sqlite_master WHERE type = 'table' "
                                                  "AND name NOT LIKE 'sqlite_%'")]
        found = set()
        for table in tables:
            found |= {(table, column) for _, column, *_ in await fetch(path, f"PRAGMA table_info({table})")}
        return found


async def test_two_instances_starting_at_once_migrate_once(postgres_server: str) -> None:
    async with fresh_database(postgres_server) as url:
        stores = await asyncio.gather(*(open_store(url) for _ in range(4)))
        assert [await s.schema_version() for s in stores] == [len(SQLITE_MIGRATIONS)] * 4
        for store in stores:
            await store.close()
        # each applied once: the schema of version 8, then every migration after it
        applied = [(number,) for number, _ in POSTGRES_MIGRATIONS]
        assert await fetch(url, "SELECT version FROM schema_version ORDER BY version") == applied
        store = await open_store(url)  # and re-opening applies nothing
        assert await fetch(url, "SELECT COUNT(*) FROM schema_version") == [(len(applied),)]
        await store.close()


async def test_a_server_gone_and_back_refuses_then_plays_on(own_server: postgres_server.Cluster) -> None:
    """PostgreSQL stopped under a running store: every call fails as StorageError with nothing
    written; started again, the next call works (the pool opens fresh connections), nothing half-done."""
    admin = await asyncpg.connect(own_server.url)
    await admin.execute('CREATE DATABASE "restart"')
    await admin.close()
    url = with_database(own_server.url, "restart")
    store = await open_store(url)
    try:
        game = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
        await store.save_move(moved(game.id, 0, {"v": 0}, 0, [(None, "start", (), [])]))
        own_server.stop()
        with pytest.raises(StorageError):
            await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (1, 2, 3), [])]))
        with pytest.raises(StorageError):
            await store.game(game.id)
        own_server.start()
        stored = await store.game(game.id)
        assert stored is not None and stored.version == 0 and stored.state == {"v": 0}  # nothing half-written
        assert [a.n for a in await store.actions(game.id)] == [-1]
        await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (1, 2, 3), [])]))  # play goes on
        with pytest.raises(StaleVersionError):
            await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (4, 5, 6), [])]))
        own_server.restart()  # a restart between two presses: the next one works
        assert (await store.game(game.id)).state == {"v": 1}  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_a_bad_database_url_is_one_line_at_start_up(tmp_path: Path, postgres_server: str) -> None:
    unreachable = f"postgresql://postgres@127.0.0.1:{dead_port()}/bot"
    missing = with_database(postgres_server, "no_such_database")
    with_password = with_database(postgres_server, "bot").replace("postgres@", "nobody:s3cret@")
    dead_api = f"http://127.0.0.1:{dead_port()}/bot"
    for url, reason in ((unreachable, "Connect call failed"), (missing, 'database "no_such_database" does not exist'),
                        (with_password, 'role "nobody" does not exist')):
        code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, DATABASE_URL=url, BOT_API_BASE_URL=dead_api)
        shown = url.replace("s3cret", "***")
        head = POSTGRES_FAILED.format(url=shown, reason="\0").partition("\0")[0]
        assert code == 2 and len(lines) == 1 and lines[0].startswith(head) and reason in lines[0], lines
        assert "s3cret" not in lines[0]  # the password is never printed
    code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, DATABASE_URL="mysql://db/bot")
    assert (code, lines) == (2, [BAD_DATABASE_URL.format(shown="mysql://db/bot")])


async def test_a_connection_back_in_the_pool_is_not_reset(postgres_server: str) -> None:
    """asyncpg resets each session it takes back (RESET ALL …: a round trip per statement, which
    doubled the waits for a connection under load); the store's sessions keep no state to reset, so
    the last thing each of its connections ran is the store's own statement."""
    async with fresh_database(postgres_server) as url:
        store = await open_store(url)
        try:
            await asyncio.gather(*(store.chat(-k) for k in range(1, 30)))  # several connections busy at once
            rows = await fetch(url, "SELECT query FROM pg_stat_activity WHERE application_name = $1 "
                                    "AND datname = current_database() AND pid <> pg_backend_pid()",
                               "sosedi-bot store")
        finally:
            await store.close()
    assert len(rows) >= 2
    assert not [q for (q,) in rows if "RESET ALL" in q], rows
    assert any("FROM chats" in q for (q,) in rows)
