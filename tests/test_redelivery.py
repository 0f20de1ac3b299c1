"""Exactly once across restarts: Telegram delivers an update again when the bot never confirmed it
(it stopped, or was killed, before its next getUpdates or before it answered the webhook's POST).
Every kind of update the bot handles, delivered again after a restart, changes neither the store
nor the chat (bot/redelivery.py, bot/store/claims.py); in polling and in webhook mode. A change
whose answer never went out (the process killed between the two) is not made twice either, and an
update whose change was never stored is handled when it comes again.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot import callback_data as cb
from bot.fake_telegram import FakeTelegram
from bot.flow.table_settings import TableSettings
from bot.redelivery import Redelivery
from bot.store import AlreadyHandledError, Seat, SQLiteStore, claims, open_store
from tests.backends import fetch
from tests.bot_harness import CHAT_ID, BotRunner, World, current_player_name, flow_of
from tests.crash_steps import Bot as CrashableBot
from tests.crash_steps import table_of
from tests.process_steps import TOKEN as PROCESS_TOKEN
from tests.process_steps import press as press_and_see
from tests.store_helpers import moved

Snapshot = tuple[str, list[tuple[Any, ...]]]


pytestmark = pytest.mark.world(first_seed=70)  # group_world's arguments (tests/conftest.py)


@pytest.fixture(params=["polling", "webhook"])
def world_options(request: pytest.FixtureRequest, world_options: dict[str, Any]) -> dict[str, Any]:
    return {**world_options, "webhook": request.param == "webhook"}


def snapshot(tg: FakeTelegram, runner: BotRunner) -> Snapshot:
    """What an update could change: the whole database, and every message of the chat as it stands."""
    with contextlib.closing(sqlite3.connect(runner.db_path)) as conn:
        dump = "\n".join(conn.iterdump())
    chat = [(m.message_id, m.text, m.caption, m.photo_hash, json.dumps(m.reply_markup), m.edit_count, m.deleted)
            for m in tg.messages.get(CHAT_ID, {}).values()]
    return dump, chat


async def delivered_again_changes_nothing(tg: FakeTelegram, runner: BotRunner) -> None:
    """The last update, delivered again after a restart, is skipped: the store and the chat stay as they were."""
    update_id = tg.last_update_id
    await runner.stop()
    before = snapshot(tg, runner)
    await tg.deliver_again(update_id)
    count = runner.processed_count
    await runner.start()
    await runner.processed_upto(count + 1)  # it went through the bot (and was skipped there)
    await runner.handled()
    assert update_id in runner.done_ids
    after = snapshot(tg, runner)
    assert after[0] == before[0]
    assert after[1] == before[1]


async def test_every_kind_of_update_delivered_again_after_a_restart_changes_nothing(world: World) -> None:
    tg, runner, users = world
    anya, boris = users["anya"], users["boris"]
    steps: list[tuple[str, Any]] = [
        ("/newgame without a game: the picker", lambda: runner.say(anya, "/newgame")),
        ("the picker's button: a lobby", lambda: runner.press_data(anya, tg.last_bot_message(CHAT_ID),
                                                                   cb.picker("sosedi"))),
        ("✋ Играю", lambda: runner.press(boris, runner.table(), "Играю")),
        ("🤖 Добавить бота", lambda: runner.press(anya, runner.table(), "🤖 Добавить бота")),
        ("🤖 Убрать бота", lambda: runner.press(anya, runner.table(), "Убрать бота")),
        ("🤖 Добавить бота again", lambda: runner.press(anya, runner.table(), "🤖 Добавить бота")),
        ("⏱ the timer's next choice", lambda: runner.press(anya, runner.table(), "⏱")),
        ("/set", lambda: runner.say(anya, "/set chips 5")),
        ("▶️ Начать", lambda: runner.press(anya, runner.table(), "Начать")),
        ("/table", lambda: runner.say(boris, "/table")),
        ("/leave: a computer takes the seat", lambda: runner.say(boris, "/leave")),
        ("the bot muted: the game paused", lambda: member_update(tg, runner, "restricted", can_send=False)),
        ("the bot may write again: the table posted afresh", lambda: member_update(tg, runner, "member")),
        ("/help", lambda: runner.say(boris, "/help")),
        ("/rules", lambda: runner.say(boris, "/rules sosedi")),
        ("/lang", lambda: runner.say(anya, "/lang en")),
        ("/settings", lambda: runner.say(anya, "/settings")),
        ("a /settings button", lambda: runner.press_data(anya, tg.last_bot_message(CHAT_ID),
                                                         tg.last_bot_message(CHAT_ID).buttons[0][1])),
        ("/stats", lambda: runner.say(boris, "/stats")),
        ("/tally", lambda: runner.say(boris, "/tally")),
        ("/top", lambda: runner.say(boris, "/top")),
        ("/history", lambda: runner.say(boris, "/history")),
        ("/stop", lambda: runner.say(anya, "/stop")),
        ("/start", lambda: runner.say(anya, "/start")),
    ]
    for name, step in steps:
        await step()
        try:
            await delivered_again_changes_nothing(tg, runner)
        except AssertionError as exc:
            raise AssertionError(f"{name} delivered again changed something") from exc


async def member_update(tg: FakeTelegram, runner: BotRunner, status: str, can_send: bool = True) -> None:
    """An admin changes the bot's rights in the group (a ``my_chat_member`` update); handled."""
    await tg.set_bot_status(CHAT_ID, status, can_send=can_send)
    await runner.handled()


async def test_a_move_delivered_again_is_stale_and_changes_nothing(world: World) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    await runner.press(users["boris"], runner.table(), "Играю")
    await runner.press(users["anya"], runner.table(), "Начать")
    table = runner.table()
    mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption or ""))
    await runner.press(mover, table, table.buttons[0][0])
    await delivered_again_changes_nothing(tg, runner)


async def test_a_change_whose_answer_never_went_out_is_not_made_again(world: World) -> None:
    """Killed between the change and its answer: the change is stored with its update's claim, so the
    update delivered again finds it and writes nothing."""
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    assert runner.app is not None
    store = runner.app.bot_data["flow"].store
    game = await store.active_game(CHAT_ID)
    assert game is not None
    # the change the press «🤖 Добавить бота» makes, stored under the update that is about to come
    update_id = tg.last_update_id + 1
    with claims.answering(update_id):
        await store.set_lobby(game.id, [(s.user_id, s.name) for s in game.seats] + [(-1, "🤖 Кеша")],
                              game.host_id, game.options)
    seated = len((await store.game(game.id)).seats)
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    assert tg.last_update_id == update_id
    assert len((await store.game(game.id)).seats) == seated  # not a second computer player


async def test_a_change_claimed_once_refuses_the_same_update_and_takes_the_next(database: str) -> None:
    store = await open_store(database)
    try:
        with claims.answering(41):
            await store.set_chat_setting(CHAT_ID, "pace", "classic")
        with claims.answering(41), pytest.raises(AlreadyHandledError):
            await store.set_chat_setting(CHAT_ID, "pace", "fast")
        assert (await store.chat(CHAT_ID)).settings["pace"] == "classic"
        with claims.answering(42) as claim:
            await store.set_chat_setting(CHAT_ID, "tidy", False)
            assert claim.taken
            await store.set_chat_setting(CHAT_ID, "pace", "fast")  # a second change of one update: claimed once
        assert (await store.chat(CHAT_ID)).settings == {"pace": "fast", "tidy": False}
        assert await store.update_handled(41) and await store.update_handled(42)
        assert not await store.update_handled(43)
        assert await store.latest_update() == 42
        store.clock = lambda: 10**10
        assert await store.forget_updates(10**10 - 1) == 2 and await store.latest_update() == 0
    finally:
        await store.close()


async def test_a_move_takes_its_claim_in_its_own_save(database: str) -> None:
    """A move's save stores its update's claim in the same statement: the same update again is refused
    as handled (not as stale), and nothing of it is written."""
    store = await open_store(database)
    try:
        game = await store.create_game(CHAT_ID, "sosedi", {}, "00" * 32, Seat(0, 10, "Аня"))
        with claims.answering(7) as claim:
            await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (3,), [])]))
            assert claim.taken
        with claims.answering(7), pytest.raises(AlreadyHandledError):
            await store.save_move(moved(game.id, 1, {"v": 2}, 2, [(0, "r", (4,), [])]))
        stored = await store.game(game.id)
        assert stored is not None and stored.version == 1 and len(await store.actions(game.id)) == 1
        await store.save_move(moved(game.id, 1, {"v": 2}, 2, [(0, "r", (4,), [])]))  # no update: no claim
        assert await store.latest_update() == 7
    finally:
        await store.close()


async def test_lobby_buttons_carry_what_they_were_drawn_for(world: World) -> None:
    """Pressed twice (a double tap, or the same keyboard pressed again before it was redrawn), «⏱» sets the
    choice it showed as next, not the one after; «🤖 Добавить бота» adds one computer player for the seats
    it was drawn for, not a second; a forged choice changes nothing; a button drawn before its choice was
    carried still moves to the next choice."""
    _tg, runner, users = world
    anya = users["anya"]
    await runner.say(anya, "/newgame sosedi")
    lobby = runner.table()
    timer, add_bot = lobby.button("⏱"), lobby.button("🤖 Добавить бота")
    assert cb.parse(timer) is not None and cb.parse(timer).key == cb.TO  # type: ignore[union-attr]
    game = await stored_game(runner)
    for _ in range(2):
        await runner.press_data(anya, lobby, timer)
    chosen = cb.parse(timer).value  # type: ignore[union-attr]
    assert str(TableSettings.of(await chat_settings(runner), (await stored_game(runner)).options).turn_timer) == chosen
    for _ in range(2):
        await runner.press_data(anya, lobby, add_bot)
    assert len((await stored_game(runner)).seats) == len(game.seats) + 1  # one computer player, not two
    before = await stored_game(runner)
    answer = await runner.press_data(anya, lobby, cb.lobby(game.id, "timer", cb.TO, "7"))  # 7 min is no choice
    assert answer.get("text") == "Кнопка устарела." and await stored_game(runner) == before
    await runner.press_data(anya, lobby, cb.lobby(game.id, "ping"))  # drawn before: the next choice
    after = TableSettings.of(await chat_settings(runner), (await stored_game(runner)).options)
    assert after.ping == TableSettings.of(await chat_settings(runner), before.options).after("ping")


async def stored_game(runner: BotRunner) -> Any:
    game = await flow_of(runner).store.active_game(CHAT_ID)
    assert game is not None
    return game


async def chat_settings(runner: BotRunner) -> Any:
    return (await flow_of(runner).chat(CHAT_ID)).settings


@pytest.mark.parametrize("mode", ["polling", "webhook"])
async def test_killed_between_the_change_and_its_answer_the_update_again_changes_nothing(
        tmp_path: Path, mode: str) -> None:
    """The real bot process: «/newgame» stores its lobby, and the process is SIGKILLed while the lobby's
    picture is on its way (Telegram never shows it). Telegram delivers «/newgame» again to the bot started
    afresh: the lobby is not opened a second time, nor refused as «a game is on»; start-up posts the
    stored lobby, and it plays on."""
    async with FakeTelegram(token=PROCESS_TOKEN, bot_username="SosediBot") as tg:
        anya, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
        tg.add_chat(CHAT_ID, "supergroup", "Пятничный клуб", creator=1)
        bot = CrashableBot(tg, str(tmp_path / "bot.sqlite3"), tmp_path, mode)
        await bot.start()
        try:
            tg.delay_next("sendPhoto", 600, applied=False)  # the lobby's picture: never shown before the kill
            await tg.send_message(anya, CHAT_ID, "/newgame sosedi")
            update_id = tg.last_update_id
            await tg.wait_for(lambda s: s.late_answers == 1, timeout=30)  # stored, its picture on the way
            await bot.kill()
            await tg.deliver_again(update_id)
            await bot.start()
            await tg.wait_for(lambda s: s.pending_updates_count() == 0 and table_of(s, CHAT_ID) is not None,
                              timeout=30)
            await tg.wait_idle(timeout=15)
            lobby = table_of(tg, CHAT_ID)
            assert lobby is not None and lobby.has_button("Играю")
            # the chat's messages go out in order: once the press's edit is out, so is any reply of before
            assert await press_and_see(tg, boris, lobby, "Играю") == "Вы за столом!"
            assert [m for m in tg.bot_messages(CHAT_ID) if m.photo is None] == []  # no «a game is on» reply
            assert await fetch(bot.db, "SELECT COUNT(*) FROM games") == [(1,)]
        finally:
            await bot.stop()


async def test_ids_too_old_to_come_again_are_forgotten_at_start_up(tmp_path: Path) -> None:
    """After a week down Telegram may number afresh from any id: the ids of then must not make a new
    update look handled, so start-up forgets those older than two days before reading the highest."""
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    try:
        store.clock = lambda: 1_000_000.0
        await store.record_update(500)  # a week before start-up
        store.clock = lambda: 1_000_000.0 + 7 * 24 * 3600
        await store.record_update(90)  # lately
        opened = await Redelivery.opened(lambda: store)
        assert not await store.update_handled(500) and await store.update_handled(90)
        assert opened.earlier_up_to == 90
    finally:
        await store.close()


async def test_the_result_buttons_delivered_again_after_a_restart_change_nothing(world: World) -> None:
    """«🔎 Проверить кости», «🎬 Повтор» and «🔁 Ещё раунд» under a finished game: each delivered again after a
    restart posts nothing more and opens no second game."""
    tg, runner, users = world
    anya, boris = users["anya"], users["boris"]
    await runner.say(anya, "/newgame spichki")
    await runner.press(boris, runner.table(), "Играю")
    await runner.press(anya, runner.table(), "Начать")
    table = runner.table()
    for _ in range(500):
        if not table.buttons:
            break
        mover = next(u for u in (anya, boris) if u.first_name == current_player_name(table.caption or ""))
        await runner.press(mover, table, table.buttons[0][0])
    result = next(m for m in reversed(tg.bot_messages(CHAT_ID)) if m.buttons and "Ещё раунд" in m.buttons[0][0])
    for label in ("Проверить кости", "Повтор", "Ещё раунд"):
        await runner.press(anya, result, label)
        try:
            await delivered_again_changes_nothing(tg, runner)
        except AssertionError as exc:
            raise AssertionError(f"{label} delivered again changed something") from exc
