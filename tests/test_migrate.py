"""`python -m bot.migrate`, as an operator runs it: a database the real bot filled by playing
(a whole «соседи» Башня game with its pub tally and results, a «Людо» game left mid-way, a lobby, a
chat's language and settings) is copied from SQLite into a PostgreSQL database of the test's own; both
sides hold the same, and the bot started on the copy plays the next move of the unfinished game.
Bad input is one line, exit 2, with nothing written."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path

import asyncpg

from bot.fake_telegram import FakeUser, StoredMessage
from bot.store import PostgresStore, Seat, Store, open_store
from engines.ludo import ENGINE as LUDO
from tests import test_e2e_ludo, test_e2e_sosedi
from tests.backends import fetch, fresh_database, with_database
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    World,
    assert_replays_in,
    flow_of,
    free_port,
    game_id_of,
    group_world,
    stored_state,
)

ROOT = Path(__file__).resolve().parent.parent
OTHER_CHAT, NEW_CHAT = -100456, -100789
PASSWORD = "s3cret-pass"  # the test server trusts every login: a password is accepted, and must never be shown
TABLES = ("chats", "games", "seats", "actions", "pub_tally", "results", "ratings", "rated_games")


async def run_migrate(*args: str) -> tuple[int, str, str]:
    """`python -m bot.migrate ARGS` as a process: its exit code, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.migrate", *args, env={**os.environ, "PYTHONPATH": str(ROOT)},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def with_password(url: str) -> str:
    return url.replace("postgres@", f"postgres:{PASSWORD}@", 1)


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"  # an absolute path: sqlite:////tmp/…


async def counts(database: str | Path) -> dict[str, int]:
    """Rows per table (of the tables that exist)."""
    found: dict[str, int] = {}
    for table in TABLES:
        try:
            found[table] = (await fetch(database, f"SELECT COUNT(*) FROM {table}"))[0][0]
        except (sqlite3.OperationalError, asyncpg.UndefinedTableError):  # no such table (yet)
            continue
    return found


async def play_ludo_half_way(runner: BotRunner, users: dict[str, FakeUser], presses: int) -> StoredMessage:
    """Four players open a «Людо» table and make ``presses`` moves (seeded choices); the table."""
    table = await test_e2e_ludo.open_table(runner, users, bonuses=False)
    players = [users[p] for p in test_e2e_ludo.PLAYERS]
    rng = random.Random(5)
    for _ in range(presses):
        state = await stored_state(runner, LUDO, game_id_of(table))
        await runner.press(players[state.current_player], table, rng.choice([label for label, _ in table.buttons]))
    assert table.buttons, "the game ended: it should be unfinished"
    return table


async def fill(world: World) -> StoredMessage:
    """What a group's bot stores in a few evenings; the unfinished «Людо» table."""
    tg, runner, users = world
    await test_e2e_sosedi.test_full_game_of_each_mode(world, 2, "Башня", "проставляется")
    await runner.say(users["anya"], "/settings")
    await runner.press(users["anya"], tg.last_bot_message(CHAT_ID), "⏱ Таймер хода: 3 мин")  # → 10 min
    tg.add_chat(OTHER_CHAT, "supergroup", "Второй клуб", creator=1)
    runner.chat_id = OTHER_CHAT
    await runner.say(users["anya"], "/lang en")
    await runner.say(users["anya"], "/newgame sosedi")  # a lobby nobody started
    runner.chat_id = CHAT_ID
    return await play_ludo_half_way(runner, users, presses=12)


async def assert_same(source: Store, target: Store) -> None:
    """Both stores answer alike: every game with its log, the chats, the pub tally, the results."""
    for (game_id,) in await fetch_ids(source):
        assert await target.game(game_id) == await source.game(game_id), game_id
        assert await target.actions(game_id) == await source.actions(game_id), game_id
    for chat_id in (CHAT_ID, OTHER_CHAT):
        assert await target.chat(chat_id) == await source.chat(chat_id)
        assert await target.pub_tally(chat_id) == await source.pub_tally(chat_id)
        assert await target.player_totals(chat_id) == await source.player_totals(chat_id)
        assert await target.past_games(chat_id, 50) == await source.past_games(chat_id, 50)
    assert (await target.chat(OTHER_CHAT)).locale == "en"
    assert (await target.chat(CHAT_ID)).settings["turn_timer"] == 10
    assert await target.pub_tally(CHAT_ID) and await target.player_totals(CHAT_ID)
    assert [g.status for g in await target.past_games(CHAT_ID, 50)] == ["finished"]


async def fetch_ids(store: Store) -> list[tuple[int]]:
    games = [g for chat in (CHAT_ID, OTHER_CHAT) for g in await store.active_games(chat)]
    games += [await store.game(p.id) for p in await store.past_games(CHAT_ID, 50)]  # type: ignore[misc]
    return sorted((g.id,) for g in games if g is not None)


@asynccontextmanager
async def both(source: str | Path, target: str) -> AsyncIterator[tuple[Store, Store]]:
    async with AsyncExitStack() as stack:
        stores = await open_store(source), await open_store(target)
        for store in stores:
            stack.push_async_callback(store.close)
        yield stores


async def test_a_played_database_moves_to_postgresql_and_the_bot_plays_on(postgres_server: str,
                                                                        tmp_path: Path) -> None:
    async with fresh_database(postgres_server) as url, group_world(tmp_path, first_seed=7, count=5,
                                                                   english=("vera",)) as world:
        tg, runner, users = world
        table = await fill(world)
        ludo_id = game_id_of(table)
        await runner.stop()
        path = runner.db_path
        rows = await counts(path)
        last_id = (await fetch(path, "SELECT MAX(id) FROM games"))[0][0]
        code, out, err = await run_migrate(sqlite_url(path), with_password(url))
        assert (code, err) == (0, ""), out + err
        assert PASSWORD not in out and "postgres:***@" in out
        assert f"games {rows['games']}" in out and f"actions {rows['actions']}" in out
        assert "unfinished compared 2 (1 replayed)" in out and "finished replayed 1 of 1" in out
        print(out)
        assert await counts(url) == rows and rows["actions"] > 20 and rows["results"] == 3
        assert (rows["rated_games"], rows["ratings"]) == (1, 3)  # the finished game was rated as it ended
        ratings_of = "SELECT player, mu, sigma, games FROM ratings ORDER BY player"
        assert await fetch(url, ratings_of) == await fetch(path, ratings_of)
        async with both(path, url) as (source, target):
            await assert_same(source, target)
            for (game_id,) in await fetch_ids(target):
                if (await target.game(game_id)).state is not None:  # type: ignore[union-attr]
                    await assert_replays_in(target, game_id)
            before = await source.game(ludo_id)
        # the real proof: the bot, pointed at the copy, plays the next move of the unfinished game
        runner.database_url = url
        await runner.start()
        store = flow_of(runner).store
        assert isinstance(store, PostgresStore)
        state = await stored_state(runner, LUDO, ludo_id)
        mover = [users[p] for p in test_e2e_ludo.PLAYERS][state.current_player]
        edits = table.edit_count
        answer = await runner.press(mover, table, table.buttons[0][0])
        assert "устарела" not in answer.get("text", "") and table.edit_count == edits + 1
        after = await store.game(ludo_id)
        assert before is not None and after is not None and after.version > before.version
        await assert_replays_in(store, ludo_id)
        assert (await fetch(path, "SELECT version FROM games WHERE id = ?", ludo_id))[0][0] == before.version
        # a new lobby takes an id after the copied ones: the identity sequence was moved on
        tg.add_chat(NEW_CHAT, "supergroup", "Третий клуб", creator=1)
        runner.chat_id = NEW_CHAT
        await runner.say(users["anya"], "/newgame sosedi")
        assert game_id_of(runner.table()) == last_id + 1
        runner.chat_id = CHAT_ID


async def test_a_copy_that_does_not_replay_fails_its_check_naming_the_game(postgres_server: str,
                                                                         tmp_path: Path) -> None:
    """A running game whose stored state is not where its log leads: copied, then refused by the check."""
    async with group_world(tmp_path, first_seed=11, count=5) as world:
        _, runner, users = world
        table = await play_ludo_half_way(runner, users, presses=4)
    path, game_id = runner.db_path, game_id_of(table)
    tampered = tmp_path / "tampered.sqlite3"
    shutil.copy(path, tampered)
    await fetch(tampered, "UPDATE games SET state = json_set(state, '$.tampered', 1) WHERE id = ?", game_id)
    async with fresh_database(postgres_server) as url:
        code, out, err = await run_migrate(str(tampered), url)
        assert code == 1 and out == "", out + err
        assert err.count("\n") == 1 and f"game #{game_id}: its log does not replay" in err, err


async def small_database(path: Path) -> None:
    """A chat with its language and a lobby, written through the store as the bot writes them."""
    store = await open_store(path)
    try:
        await store.set_chat_locale(CHAT_ID, "en")
        await store.create_game(CHAT_ID, "sosedi", {}, "ab" * 32, Seat(0, 1, "Аня"))
    finally:
        await store.close()


def assert_one_line(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2 and out == "", out + err
    assert err.endswith("\n") and err.count("\n") == 1 and "Traceback" not in err, err
    assert " · " in err and PASSWORD not in err, err  # Russian · English
    for word in words:
        assert word in err, err


async def test_bad_input_is_one_line_and_writes_nothing(postgres_server: str, tmp_path: Path) -> None:
    source = tmp_path / "bot.sqlite3"
    await small_database(source)
    before = source.read_bytes()
    async with fresh_database(postgres_server) as url:
        target = with_password(url)
        assert_one_line(*await run_migrate("mysql://u@localhost/db", target), "unknown scheme «mysql://»")
        assert_one_line(*await run_migrate(sqlite_url(tmp_path / "missing.sqlite3"), target), "no such file")
        dead = with_password(with_database(f"postgresql://postgres@127.0.0.1:{free_port()}/", "gone"))
        assert_one_line(*await run_migrate(str(source), dead), "cannot be opened", ":***@")
        assert_one_line(*await run_migrate(dead, str(tmp_path / "copy.sqlite3")), "cannot be opened")
        assert not (tmp_path / "copy.sqlite3").exists()
        assert_one_line(*await run_migrate(str(source), sqlite_url(source)), "the same")
        assert_one_line(*await run_migrate(str(source)), "required")
        assert await counts(url) == {} and source.read_bytes() == before  # no table made, nothing changed
        code, out, err = await run_migrate(str(source), target)
        assert code == 0, out + err
        copied = await counts(url)
        assert_one_line(*await run_migrate(str(source), target), "already holds data (chats 1, games 1, seats 1)")
        assert await counts(url) == copied


async def test_into_a_non_empty_sqlite_file_and_back(postgres_server: str, tmp_path: Path) -> None:
    """PostgreSQL to SQLite works the same way, and a non-empty SQLite target is refused untouched."""
    source = tmp_path / "bot.sqlite3"
    await small_database(source)
    async with fresh_database(postgres_server) as url:
        assert (await run_migrate(str(source), url))[0] == 0
        back = tmp_path / "back" / "bot.sqlite3"
        code, out, err = await run_migrate(url, sqlite_url(back))
        assert code == 0 and "copied" in out, out + err
        async with both(source, str(back)) as (first, again):
            assert await again.game(1) == await first.game(1) and await again.chat(CHAT_ID) == await first.chat(CHAT_ID)
        held = back.read_bytes()
        assert_one_line(*await run_migrate(url, str(back)), "already holds data")
        assert back.read_bytes() == held
        assert_one_line(*await run_migrate(str(tmp_path), url), "no such file")  # a folder
        not_a_database = tmp_path / "notes.txt"
        not_a_database.write_text("hello")
        assert_one_line(*await run_migrate(str(not_a_database), str(tmp_path / "x.sqlite3")),
                        "file is not a database")
