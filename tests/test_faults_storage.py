"""Storage faults: a locked or read-only database and a full disk.

Each fault is injected into the running bot's real SQLite database: another connection holding
the write lock, ``PRAGMA query_only`` (SQLite's own «attempt to write a readonly database»), and
``PRAGMA max_page_count`` at the file's size («database or disk is full»). Whatever the players
do meanwhile gets one log line and a short message, changes nothing, and once the fault is gone
the game goes on from where it was; its stored state is still the replay of its action log.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest

import bot.app
from bot.fake_telegram import StoredMessage
from bot.store import Move, SQLiteStore, StorageError, Store
from bot.store.sqlite import BUSY_S
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    assert_replays,
    current_player_name,
    game_id_of,
    group_world,
    start_against_a_bot,
)

STORAGE_ERROR = ("⚠️ Не получилось: база данных бота сейчас недоступна. Ничего не изменилось — "
                 "попробуйте ещё раз чуть позже.")
FAULTS = ("locked", "read-only", "full")
PROTOCOL_METHODS = [name for name in dir(Store) if not name.startswith("_")]


def store_of(runner: BotRunner) -> Store:
    assert runner.app is not None
    return runner.app.bot_data["flow"].store


@asynccontextmanager
async def fault(runner: BotRunner, kind: str) -> AsyncIterator[None]:
    """The database fails every write while inside (reads still work, as with the real faults):
    SQLite's own faults, injected into the bot's connection (``SQLiteStore.connection``)."""
    store = store_of(runner)
    assert isinstance(store, SQLiteStore)
    db = store.connection
    if kind == "locked":  # another process holds the write lock longer than the bot waits
        store.busy_s = 0.05
        holder = sqlite3.connect(runner.db_path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            yield
        finally:
            holder.execute("ROLLBACK")
            holder.close()
            store.busy_s = BUSY_S
    elif kind == "read-only":
        await db.execute("PRAGMA query_only = ON")
        try:
            yield
        finally:
            await db.execute("PRAGMA query_only = OFF")
    else:  # the disk is full: the file may not grow by a single page; packed into small pages,
        # as good as every write needs a new one
        for pragma in ("journal_mode = DELETE", "page_size = 512", "", "journal_mode = WAL"):
            await db.execute(f"PRAGMA {pragma}" if pragma else "VACUUM")
        async with db.execute("PRAGMA page_count") as cur:
            row = await cur.fetchone()
        assert row is not None
        await db.execute(f"PRAGMA max_page_count = {row[0]}")
        try:
            yield
        finally:
            await db.execute("PRAGMA max_page_count = 1073741823")


def mover_of(users, table: StoredMessage):  # type: ignore[no-untyped-def]
    return next(u for u in users.values() if u.first_name == current_player_name(table.caption))


async def stored(runner: BotRunner, game_id: int) -> tuple[object, ...]:
    game = await store_of(runner).game(game_id)
    assert game is not None
    return game.version, game.state, game.status, game.seats, len(await store_of(runner).actions(game_id))


def storage_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    lines = [r for r in caplog.records if "storage failed" in r.getMessage()]
    assert all(r.exc_info is None and r.levelno == logging.ERROR for r in lines)  # a line, not a traceback
    assert not [r for r in caplog.records if r.exc_info], "no tracebacks"
    return lines


async def press_until_refused(runner: BotRunner, users, table: StoredMessage,  # type: ignore[no-untyped-def]
                              limit: int = 40) -> tuple[object, ...]:
    """The player to move rolls until a press is refused (a full disk lets a save through while
    its page has room); returns what was stored just before the refused press."""
    game_id = game_id_of(table)
    for _ in range(limit):
        before = await stored(runner, game_id)
        edits, caption = table.edit_count, table.caption
        answer = await runner.press(mover_of(users, table), table, "🎲")
        if answer.get("text") == STORAGE_ERROR:
            assert answer.get("show_alert") is True
            assert (table.edit_count, table.caption) == (edits, caption)  # the table is untouched
            return before
        assert answer["text"].startswith("🎲 ")
    raise AssertionError(f"no press was refused in {limit}")


@pytest.mark.parametrize("kind", FAULTS)
async def test_a_press_during_a_storage_fault_changes_nothing(started_sosedi, caplog, kind: str) -> None:
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    async with fault(runner, kind):
        before = await press_until_refused(runner, users, table)
        assert await stored(runner, game_id) == before  # nothing stored, not even in part
        assert len(storage_lines(caplog)) == 1
        assert " during a button press in chat " in storage_lines(caplog)[0].getMessage()
    await assert_replays(runner, game_id)
    answer = await runner.press(mover_of(users, table), table, "🎲")  # the fault is gone: play goes on
    assert answer["text"].startswith("🎲 ")
    assert (await stored(runner, game_id))[0] == before[0] + 1
    await assert_replays(runner, game_id)
    assert tg.violations == []


@pytest.mark.parametrize("kind", ["locked", "read-only"])  # a stop rewrites a row: it needs no new page
async def test_a_command_during_a_storage_fault_gets_a_short_message(started_sosedi, caplog, kind: str) -> None:
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    before = await stored(runner, game_id)
    async with fault(runner, kind):
        await runner.say(users["anya"], "/stop")
        assert tg.last_bot_message(CHAT_ID).text == STORAGE_ERROR
        assert await stored(runner, game_id) == before
        assert len(storage_lines(caplog)) == 1
    await runner.say(users["anya"], "/stop")  # and now it works
    assert tg.last_bot_message(CHAT_ID).text == "Игра «Помоги своему соседу» остановлена."
    assert (await store_of(runner).game(game_id)).status == "stopped"  # type: ignore[union-attr]


async def test_no_lobby_is_half_opened_while_the_database_is_locked(tmp_path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=3) as (tg, runner, users):
        async with fault(runner, "locked"):
            posted = len(tg.bot_messages(CHAT_ID))
            await runner.say(users["anya"], "/newgame sosedi")
            messages = tg.bot_messages(CHAT_ID)
            assert len(messages) == posted + 1 and messages[-1].text == STORAGE_ERROR  # no lobby picture
            assert await store_of(runner).active_game(CHAT_ID) is None
            assert len(storage_lines(caplog)) == 1
        await runner.say(users["anya"], "/newgame sosedi")
        assert runner.table().photo is not None
        assert (await store_of(runner).active_game(CHAT_ID)) is not None


async def test_the_answer_comes_when_even_reading_fails(tmp_path, caplog, monkeypatch) -> None:
    """With nothing cached and the file unreadable, the chat still hears why, in the default language."""
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=3) as (tg, runner, users):
        await runner.say(users["anya"], "/lang en")  # an admin (the chat's creator)
        assert tg.last_bot_message(CHAT_ID).text != STORAGE_ERROR
        await runner.restart()  # a fresh process: nothing cached, so the chat's language is read too
        store = store_of(runner)

        async def failing(*args: object) -> None:
            raise StorageError("disk I/O error")

        with monkeypatch.context() as patch:
            for method in PROTOCOL_METHODS:  # every read and write of the store fails
                patch.setattr(store, method, failing)
            await runner.say(users["anya"], "/stop")
        assert tg.last_bot_message(CHAT_ID).text == STORAGE_ERROR  # in the default language (ru)
        assert len(storage_lines(caplog)) == 1



async def test_a_turn_timer_that_meets_a_locked_database_tries_again(started_sosedi, caplog, monkeypatch) -> None:
    monkeypatch.setattr(bot.app, "STORAGE_RETRY_S", 0.2)
    (_, runner, _), table = started_sosedi
    game_id = game_id_of(table)
    assert runner.app is not None
    flow = runner.app.bot_data["flow"]
    game = await flow.store.game(game_id)
    assert game is not None and game.deadline is not None
    flow.clock = lambda: game.deadline + 1  # the player to move ran out of time
    outcomes: list[object] = []
    changed = asyncio.Event()
    on_deadline = flow.on_deadline

    async def watched(gid: int) -> bool:
        try:
            outcomes.append(await on_deadline(gid))
        except StorageError as exc:
            outcomes.append(exc)
            raise
        finally:
            changed.set()
        return bool(outcomes[-1])

    flow.on_deadline = watched
    async with fault(runner, "locked"):
        bot.app.arm_deadline(runner.app, game_id, 0.0)
        await asyncio.wait_for(changed.wait(), 10)
        assert isinstance(outcomes[0], StorageError)
        assert (await stored(runner, game_id))[0] == 0  # the turn is not played yet
    while True not in outcomes:  # the timer tries again after STORAGE_RETRY_S and plays the turn
        changed.clear()
        await asyncio.wait_for(changed.wait(), 10)
    await runner.handled()
    assert "время вышло — ход сделал бот (1 из 3)" in table.caption
    assert (await stored(runner, game_id))[0] == 1
    assert len([r for r in storage_lines(caplog) if "turn timer" in r.getMessage()]) >= 1
    await assert_replays(runner, game_id)


async def test_a_computer_turn_that_cannot_be_stored_is_played_a_moment_later(tmp_path, caplog, monkeypatch) -> None:
    import bot.flow.catch_up

    monkeypatch.setattr(bot.flow.catch_up, "TABLE_RETRY_S", 0.2)
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=3) as (tg, runner, users):
        table = await start_against_a_bot(runner, users["anya"], "sosedi")
        game_id = game_id_of(table)
        assert current_player_name(table.caption) == "Аня"
        store = store_of(runner)
        save_move, calls = store.save_move, []

        async def failing_once(move: Move) -> None:
            calls.append(move.expected_version)
            if len(calls) == 2:  # Аня's move is stored; the computer's answer meets a full disk
                raise StorageError("database or disk is full")
            await save_move(move)

        monkeypatch.setattr(store, "save_move", failing_once)
        answer = await runner.press(users["anya"], table, "🎲")
        assert answer["text"].startswith("🎲 ")
        assert (await stored(runner, game_id))[0] == 1  # her move stands
        await tg.wait_for(lambda _: current_player_name(table.caption) == "Аня", timeout=5)  # the bot played
        assert len(calls) == 3 and (await stored(runner, game_id))[0] >= 2
        assert [r.getMessage() for r in storage_lines(caplog)] == [
            f"game {game_id}: storage failed (database or disk is full) at the computer's turn; trying again"]
        await assert_replays(runner, game_id)


# another process: takes the database's write lock, says so, and holds it until told to let go
HOLD_LOCK = """
import sqlite3, sys
holder = sqlite3.connect(sys.argv[1], isolation_level=None)
holder.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
sys.stdin.readline()
holder.execute("ROLLBACK")
"""


async def test_presses_behind_another_process_lock_fail_together_and_play_resumes(started_sosedi) -> None:
    """Presses queued while another process holds the write lock share one wait (``busy_s``) and fail
    together with the storage message, not one wait each in turn; while the lock is still held a press
    fails at once; once it is let go, play goes on."""
    (tg, runner, users), table = started_sosedi
    store = store_of(runner)
    assert isinstance(store, SQLiteStore)
    store.busy_s = 1.0  # the default 5 s, shortened: the test measures the shape, not the figure
    holder = await asyncio.create_subprocess_exec(sys.executable, "-c", HOLD_LOCK, str(runner.db_path),
                                                  stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert holder.stdin is not None and holder.stdout is not None
    try:
        assert await holder.stdout.readline() == b"locked\n"
        mover, before = mover_of(users, table), await stored(runner, game_id_of(table))
        started = time.monotonic()
        handles = [await tg.press(mover, table.chat, table.message_id, table.button("🎲"), check_buttons=False)
                   for _ in range(4)]
        answers = [await tg.wait_answer(handle) for handle in handles]
        waited = time.monotonic() - started
        assert [a.get("text") for a in answers] == [STORAGE_ERROR] * 4
        assert waited < 2 * store.busy_s  # one wait for the four (in turn it took 4 × busy_s)
        started = time.monotonic()
        answer = await runner.press(mover, table, "🎲")  # the lock still held: refused at the first try
        assert answer.get("text") == STORAGE_ERROR and time.monotonic() - started < store.busy_s / 2
        assert await stored(runner, game_id_of(table)) == before
    finally:
        holder.stdin.write(b"go\n")
        await holder.stdin.drain()
        assert await holder.wait() == 0
    answer = await runner.press(mover_of(users, table), table, "🎲")  # the lock is gone: play goes on
    assert answer["text"].startswith("🎲 ")
    await assert_replays(runner, game_id_of(table))
