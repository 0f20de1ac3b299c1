"""The move's write exists twice: SQLite's save_move trigger and PostgreSQL's save_move function (with its
results trigger). The same moves played through both stores must leave the same rows, every table and
every column; a change made to one and not the other fails here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bot.store import Seat, Store, open_store
from tests.backends import fetch, fresh_database
from tests.store_helpers import moved

CHAT = -700
ANYA, BORIS, VERA, KESHA = Seat(0, 10, "Аня"), Seat(1, 20, "Борис"), Seat(2, 30, "Вера"), Seat(2, -1, "🤖 Кеша")
# every table a move writes, by its primary key
TABLES = {"games": "id", "seats": "game_id, seat", "actions": "game_id, n", "pub_tally": "chat_id, user_id",
          "results": "game_id, user_id", "handled_updates": "update_id"}


async def play(store: Store) -> None:
    """A classic game won, a pub round a person pays, one a computer seat loses after a person left,
    and a stopped game: every kind of row a move writes."""
    store.clock = lambda: 1_000.5  # type: ignore[method-assign]  # both stores write the same moments
    won = await store.create_game(CHAT, "sosedi", {}, "00" * 32, ANYA, (ANYA, BORIS, KESHA))
    await store.save_move(moved(won.id, 0, {"v": 1}, 1, [(None, "start", (), []), (0, "r", (1, 2, 3), [])],
                                by_person=True))
    await store.save_move(moved(won.id, 1, {"v": 2}, 2, [(1, "r", (6, 6, 6), [{"kind": "win", "seat": 1}])],
                                status="finished", result={"kind": "win", "winners": [1], "losers": []}))
    paid = await store.create_game(CHAT, "sosedi", {"mode": "reverse"}, "01" * 32, ANYA, (ANYA, BORIS, VERA))
    await store.save_move(moved(paid.id, 0, {"v": 1}, 1, [(0, "r", (4, 4, 4), [])], status="finished",
                                result={"kind": "lose", "winners": [1, 2], "losers": [0]}, pub_payer=ANYA))
    left = await store.create_game(CHAT, "sosedi", {"mode": "tower"}, "02" * 32, ANYA, (ANYA, BORIS, VERA))
    await store.save_move(moved(left.id, 0, {"v": 1}, 1, [(1, "r", (1, 5, 6), [])],
                                new_seat=Seat(1, -2, "🤖 Борис")))
    await store.save_move(moved(left.id, 1, {"v": 2}, 2, [(1, "r", (2, 2, 2), [])], status="finished",
                                result={"kind": "lose", "winners": [0, 2], "losers": [1]}))
    stopped = await store.create_game(CHAT, "ludo", {}, "03" * 32, VERA, (VERA, ANYA))
    await store.save_move(moved(stopped.id, 0, {"v": 1}, 1, [(0, "r", (3,), [])]))
    await store.stop_game(stopped.id, {"kind": "stopped"})


def plain(value: Any) -> Any:
    """A stored value as Python sees it whichever database: JSON text (SQLite) and JSONB (PostgreSQL) parsed."""
    if isinstance(value, str) and value[:1] in ("{", "["):
        return json.loads(value)
    return value


async def rows(database: str | Path, columns: dict[str, list[str]]) -> dict[str, list[dict[str, Any]]]:
    """Every row of each table, by column name (the two schemas order their columns differently)."""
    tables = {}
    for table, key in TABLES.items():
        found = await fetch(database, f"SELECT {', '.join(columns[table])} FROM {table} ORDER BY {key}")
        tables[table] = [dict(zip(columns[table], map(plain, row), strict=True)) for row in found]
    return tables


async def test_both_databases_write_a_move_alike(tmp_path: Path, postgres_server: str) -> None:
    sqlite_path = tmp_path / "bot.sqlite3"
    async with fresh_database(postgres_server) as url:
        for database in (str(sqlite_path), url):
            store = await open_store(database)
            try:
                await play(store)
            finally:
                await store.close()
        columns = {table: [str(c[1]) for c in await fetch(sqlite_path, f"PRAGMA table_info({table})")]
                   for table in TABLES}
        on_sqlite, on_postgres = await rows(sqlite_path, columns), await rows(url, columns)
    assert on_sqlite["results"] and on_sqlite["pub_tally"] and on_sqlite["actions"]
    for table in TABLES:
        assert on_sqlite[table] == on_postgres[table], table
