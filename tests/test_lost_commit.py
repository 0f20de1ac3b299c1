"""A table ahead of its store: the store lost its last commits (SQLite's ``synchronous=NORMAL`` after a
power cut, or a PostgreSQL replica that took over without them) while Telegram shows the table they
made. Simulated by putting back a copy of the database taken before the last move. A press on that
table (a version the store never reached, on a button the message carries) is not applied: the table
of the stored state is posted anew, once, with a line that says so, and play goes on from there; a
table marked shown beyond its game's version is posted anew at start-up. On both databases.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

from bot import callback_data as cb
from bot.fake_telegram import FakeUser, StoredMessage
from bot.store import Seat, open_store
from bot.store.sql import placeholders
from tests.backends import execute, fetch
from tests.bot_harness import (
    BotRunner,
    assert_replays,
    current_player_name,
    flow_of,
    game_id_of,
    group_world,
    start_against_a_bot,
    start_for_two,
)
from tests.store_helpers import moved

LINE = "⚠️ Последний ход не сохранился — стол восстановлен."
TOAST = "Последний ход не сохранился — стол показан заново."
GameRows = tuple[list[tuple[Any, ...]], ...]  # a game's rows in games, seats and actions


def where(runner: BotRunner) -> str:
    """The bot's database as tests/backends.py names it."""
    return runner.database_url or str(runner.db_path)


async def copy_of_game(runner: BotRunner, game_id: int) -> GameRows:
    """The game's rows as a copy of the database taken now holds them."""
    db = where(runner)
    return (await fetch(db, "SELECT * FROM games WHERE id = ?", game_id),
            await fetch(db, "SELECT * FROM seats WHERE game_id = ?", game_id),
            await fetch(db, "SELECT * FROM actions WHERE game_id = ?", game_id))


async def put_back(runner: BotRunner, game_id: int, copy: GameRows) -> None:
    """What restoring that copy does to the game: its rows as they were then, whatever came after gone."""
    db = where(runner)
    games, seats, actions = copy
    await execute(db, "DELETE FROM actions WHERE game_id = ?", game_id)
    await execute(db, "DELETE FROM seats WHERE game_id = ?", game_id)
    await execute(db, "DELETE FROM games WHERE id = ?", game_id)
    for row in games:
        await execute(db, f"INSERT INTO games VALUES ({placeholders(len(row))})", *row)
    for row in seats:
        await execute(db, f"INSERT INTO seats VALUES ({placeholders(len(row))})", *row)
    for row in actions:
        await execute(db, f"INSERT INTO actions VALUES ({placeholders(len(row))})", *row)


def mover(users: dict[str, FakeUser], table: StoredMessage) -> FakeUser:
    """The player the table says is to move."""
    name = current_player_name(table.caption or "")
    return next(u for u in users.values() if u.first_name == name)


async def roll(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage) -> dict[str, Any]:
    """The player to move presses the table's first button; the answer."""
    return await runner.press(mover(users, table), table, table.buttons[0][0])


async def stored(runner: BotRunner, game_id: int) -> tuple[int, int, int | None]:
    """The game's version, the version its table is marked shown at, and its table message."""
    game = await flow_of(runner).store.game(game_id)
    assert game is not None
    return game.version, game.shown_version, game.message_id


def photos(runner: BotRunner) -> list[StoredMessage]:
    return [m for m in runner.tg.bot_messages(runner.chat_id) if m.photo is not None]


def assert_restored(new: StoredMessage, old: StoredMessage, then: tuple[str, list[Any], str | None]) -> None:
    """``new`` is the table as it was when the copy was taken, with the line; ``old`` is gone."""
    caption, buttons, photo = then
    assert new is not old and old.deleted
    lines = (new.caption or "").splitlines()
    assert lines.count(LINE) == 1
    assert [line for line in lines if line != LINE] == caption.splitlines()
    assert new.buttons == buttons and new.photo_hash == photo


async def two_moves_then_a_lost_one(runner: BotRunner, users: dict[str, FakeUser]
                                    ) -> tuple[StoredMessage, GameRows, tuple[str, list[Any], str | None]]:
    """A «соседи» game of Аня and Борис, two throws in; a copy taken; a third throw the copy has not got.
    The table (showing the third throw), the copy, and the table as it was when the copy was taken."""
    table = await start_for_two(runner, users, "sosedi")
    for _ in range(2):
        await roll(runner, users, table)
    copy = await copy_of_game(runner, game_id_of(table))
    then = (table.caption or "", table.buttons, table.photo_hash)
    await roll(runner, users, table)  # the last move: Telegram shows it, the copy has not got it
    assert table.caption != then[0]
    return table, copy, then


async def test_a_press_on_a_table_ahead_of_the_store_posts_the_stored_table_again(tmp_path: Path,
                                                                                   database: str) -> None:
    async with group_world(tmp_path, first_seed=930, count=3, database=database) as (_, runner, users):
        table, copy, then = await two_moves_then_a_lost_one(runner, users)
        game_id = game_id_of(table)
        await put_back(runner, game_id, copy)  # under the running bot, as a failover to a replica would
        version, shown, _ = await stored(runner, game_id)
        assert shown == version  # a whole copy puts the mark back too: the store cannot tell the table is ahead
        forged = cb.move(game_id, version + 5, table.buttons[0][1].rsplit(":", 1)[1])  # on no button
        answer = await runner.press_data(mover(users, table), table, forged)
        assert answer["text"] == "Кнопка устарела." and photos(runner) == [table]
        answer = await roll(runner, users, table)
        assert answer["text"] == TOAST
        new = runner.table()
        assert_restored(new, table, then)
        assert len(photos(runner)) == 1
        assert await stored(runner, game_id) == (version, version, new.message_id)  # the press not applied
        answer = await roll(runner, users, new)  # the player moves again, from the stored position
        assert answer["text"].startswith("🎲") and new.edit_count == 1 and LINE not in (new.caption or "")
        assert await stored(runner, game_id) == (version + 1, version + 1, new.message_id)
        await assert_replays(runner, game_id)


async def test_two_presses_on_the_table_ahead_post_one_table(tmp_path: Path, database: str) -> None:
    async with group_world(tmp_path, first_seed=940, count=3, database=database) as (tg, runner, users):
        table, copy, then = await two_moves_then_a_lost_one(runner, users)
        await put_back(runner, game_id_of(table), copy)
        async with flow_of(runner).locks(runner.chat_id):  # both on their way before the first is handled
            presses = [await tg.press(mover(users, table), runner.chat_id, table.message_id, data, check_buttons=False)
                       for data in (table.buttons[0][1], table.buttons[0][1])]
        answers = [(await tg.wait_answer(press))["text"] for press in presses]
        await runner.handled()
        assert sorted(answers) == sorted([TOAST, "Кнопка устарела."])
        assert_restored(runner.table(), table, then)
        assert len(photos(runner)) == 1
        await assert_replays(runner, game_id_of(table))


async def test_a_restore_while_the_bot_was_down_is_repaired_at_the_first_press(tmp_path: Path,
                                                                               database: str) -> None:
    """The copy put back while the bot is stopped (SQLite: the file itself, as after a power cut): the
    store says nothing is behind, so start-up leaves the table alone; the first press repairs it."""
    async with group_world(tmp_path, first_seed=950, count=3, database=database) as (tg, runner, users):
        table = await start_for_two(runner, users, "sosedi")
        await roll(runner, users, table)
        await runner.stop()
        file_copy = tmp_path / "copy.sqlite3"
        if not runner.database_url:
            shutil.copyfile(runner.db_path, file_copy)  # stopped: the file is whole, its WAL checkpointed
        else:
            copy = await copy_of_game(runner, game_id_of(table))
        then = (table.caption or "", table.buttons, table.photo_hash)
        await runner.start()
        await roll(runner, users, table)
        await runner.stop()
        if not runner.database_url:
            for leftover in (Path(f"{runner.db_path}-wal"), Path(f"{runner.db_path}-shm")):
                leftover.unlink(missing_ok=True)
            shutil.copyfile(file_copy, runner.db_path)
        else:
            await put_back(runner, game_id_of(table), copy)
        requests = len(tg.requests)
        await runner.start()
        assert [r.method for r in tg.requests[requests:] if r.method in ("sendPhoto", "editMessageMedia")] == []
        assert (await roll(runner, users, table))["text"] == TOAST
        assert_restored(runner.table(), table, then)
        await roll(runner, users, runner.table())
        await assert_replays(runner, game_id_of(table))


async def test_a_table_marked_shown_beyond_its_game_is_posted_again_at_start_up(tmp_path: Path,
                                                                               database: str) -> None:
    """A copy put back in part (the game's moves, not the mark of what its table shows): the store says
    the table is ahead, and start-up posts it anew with the line; play goes on from the new table."""
    async with group_world(tmp_path, first_seed=960, count=3, database=database) as (_, runner, users):
        table, copy, then = await two_moves_then_a_lost_one(runner, users)
        game_id = game_id_of(table)
        await runner.stop()
        _, shown, _ = await stored_offline(runner, game_id)
        await put_back(runner, game_id, copy)
        await execute(where(runner), "UPDATE games SET shown_version = ? WHERE id = ?", shown, game_id)
        await runner.start()
        await runner.handled()
        new = runner.table()
        assert_restored(new, table, then)
        version, shown_now, message = await stored(runner, game_id)
        assert shown_now == version == shown - 1 and message == new.message_id
        assert await flow_of(runner).store.games_behind() == []
        await roll(runner, users, new)
        assert await stored(runner, game_id) == (version + 1, version + 1, new.message_id)
        await assert_replays(runner, game_id)


async def stored_offline(runner: BotRunner, game_id: int) -> tuple[int, int, int | None]:
    """:func:`stored`, read beside the stopped bot."""
    ((version, shown, message),) = await fetch(where(runner), "SELECT version, shown_version, message_id "
                                                              "FROM games WHERE id = ?", game_id)
    return version, shown, message


async def test_a_table_shown_lowers_a_mark_beyond_its_game_and_never_marks_one(database: str) -> None:
    store = await open_store(database)
    try:
        game = await store.create_game(-1, "sosedi", {}, "00" * 32, Seat(0, 10, "Аня"))
        await store.save_move(moved(game.id, 0, {}, 0, [(None, "start", (), [])]))
        await store.save_move(moved(game.id, 0, {}, 1, [(0, "r", (), [])]))
        await store.set_message_id(game.id, 5)
        await store.set_shown_version(game.id, 2)  # drawn before the store lost version 2: not marked
        assert (await store.game(game.id)).shown_version == -1  # type: ignore[union-attr]
        await execute(database, "UPDATE games SET shown_version = 2 WHERE id = ?", game.id)  # put back in part
        assert [g.id for g in await store.games_behind()] == [game.id]
        await asyncio.gather(store.set_shown_version(game.id, 1), store.set_shown_version(game.id, 0))
        assert (await store.game(game.id)).shown_version == 1  # type: ignore[union-attr]
        assert await store.games_behind() == []
    finally:
        await store.close()


async def test_the_computers_turn_among_the_lost_commits_is_played_again(tmp_path: Path, database: str) -> None:
    """The person's throw stored, the computer's answer (a save of its own) lost: a press on the table
    lets the computer play its turn again from the store, then posts that table, with the line."""
    async with group_world(tmp_path, first_seed=970, count=2, database=database) as (_, runner, users):
        table = await start_against_a_bot(runner, users["anya"], "sosedi")
        flow, copies = flow_of(runner), []
        play_on = flow.moves._play_on

        async def copied_first(*args: Any) -> Any:  # the copy: the person's throw in, the computer's not
            copies.append(await copy_of_game(runner, game_id_of(table)))
            return await play_on(*args)

        flow.moves._play_on = copied_first  # type: ignore[method-assign]
        await roll(runner, users, table)
        flow.moves._play_on = play_on  # type: ignore[method-assign]
        game_id = game_id_of(table)
        version, _, _ = await stored(runner, game_id)
        then = (table.caption or "", table.buttons, table.photo_hash)
        await put_back(runner, game_id, copies[0])
        behind, _, _ = await stored(runner, game_id)
        assert behind < version and current_player_name(table.caption or "") == "Аня"
        assert (await roll(runner, users, table))["text"] == TOAST
        assert_restored(runner.table(), table, then)  # the computer's dice are the seed's: the same turn
        assert await stored(runner, game_id) == (version, version, runner.table().message_id)
        await assert_replays(runner, game_id)
