"""End to end in webhook mode: the bot registers its webhook with the fake Bot API,
which POSTs every update to it; a whole game is played so. A request without the right secret, a
forged body, a press from a foreign chat and a redelivered update change nothing."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

import pytest

from bot.fake_telegram import FakeTelegram
from engines.shishbesh import ENGINE
from tests.bot_harness import (
    CHAT_ID,
    WEBHOOK_SECRET,
    World,
    game_id_of,
    play_to_end,
    start_for_two,
    stored_state,
)
from tests.webhook_steps import post, redeliver, snapshot

PLAYERS = ("anya", "boris", "vera", "gleb")
OTHER_CHAT = -100777


pytestmark = pytest.mark.world(first_seed=13, webhook=True)  # group_world's arguments (tests/conftest.py)


def newgame_update(tg: FakeTelegram, update_id: int, chat_id: int = CHAT_ID) -> dict[str, Any]:
    """An Update of Аня's «/newgame sosedi» in ``chat_id``, as Telegram would send it."""
    anya = tg.users[1]
    return {"update_id": update_id, "message": {
        "message_id": 9000 + update_id % 1000, "date": tg.now_date(), "text": "/newgame sosedi",
        "entities": [{"type": "bot_command", "offset": 0, "length": 8}],
        "chat": {"id": chat_id, "type": "supergroup", "title": "Пятничный клуб"},
        "from": {"id": anya.id, "is_bot": False, "first_name": anya.first_name, "language_code": "ru"}}}


async def test_a_whole_game_through_the_webhook(world: World) -> None:
    tg, runner, users = world
    hook = tg.webhook.hook
    assert hook is not None and hook.url == runner.webhook_settings().url and hook.secret_token == WEBHOOK_SECRET
    assert hook.allowed_updates == ["message", "callback_query", "my_chat_member"]
    await runner.say(users["anya"], "/newgame")
    await runner.press(users["anya"], tg.last_bot_message(CHAT_ID), "Шиш-беш")
    lobby = runner.table()
    for name in PLAYERS[1:]:
        await runner.press(users[name], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)
    captions = await play_to_end(runner, table, ENGINE, [users[p] for p in PLAYERS], seed=4)
    state = await stored_state(runner, ENGINE, game_id)
    winner = ("Аня", "Борис", "Вера", "Глеб")[state.winner]
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and f"{winner} заводит все четыре фишки в домик и побеждает!" in result.text
    assert len(captions) > 50 and table.buttons == []
    assert tg.requests_for("getUpdates") == [] and tg.webhook.failures == 0  # every update came by the webhook
    assert len(tg.webhook.delivered) == tg.webhook.attempts and tg.pending_updates_count() == 0


@pytest.mark.parametrize("secret", [None, "", "wrong", WEBHOOK_SECRET + "x", WEBHOOK_SECRET[:-1]])
async def test_a_request_without_the_right_secret_is_403_and_changes_nothing(world: World,
                                                                             secret: str | None) -> None:
    tg, runner, users = world
    before = snapshot(tg, runner)
    assert await post(runner, newgame_update(tg, 1), secret=secret) == 403
    assert snapshot(tg, runner) == before and tg.bot_messages(CHAT_ID) == []
    await runner.say(users["anya"], "/newgame sosedi")  # the real one still works
    assert runner.table().photo is not None


@pytest.mark.parametrize(("body", "content_type", "status"), [
    ("{not json", "application/json", 400),  # not JSON: no Update either
    ('{"hello": "world"}', "application/json", 400),
    ('{"update_id": 5, "message": "a string"}', "application/json", 400),
    ('{"update_id": 5, "message": {"text": "/newgame sosedi"}}', "application/json", 400),
    ('["update_id", 5]', "application/json", 400),
    (json.dumps({"update_id": 5, "message": {"text": "/newgame"}}), "text/plain", 403),
    ("", "application/json", 400),
])
async def test_a_forged_body_changes_nothing(world: World, body: str, content_type: str, status: int) -> None:
    tg, runner, users = world
    before = snapshot(tg, runner)
    assert await post(runner, body, content_type=content_type) == status
    assert snapshot(tg, runner) == before and tg.bot_messages(CHAT_ID) == []
    await runner.say(users["anya"], "/newgame sosedi")
    assert runner.table().photo is not None


async def test_a_press_on_another_chats_game_changes_nothing(world: World) -> None:
    tg, runner, users = world
    table = await start_for_two(runner, users, "sosedi")
    tg.add_chat(OTHER_CHAT, "supergroup", "Другой клуб", creator=3)
    runner.chat_id = OTHER_CHAT
    await runner.say(users["vera"], "/help")  # some message of the bot's in the other chat
    runner.chat_id = CHAT_ID
    helper, edits = tg.last_bot_message(OTHER_CHAT), table.edit_count
    before = snapshot(tg, runner)
    for user in ("anya", "boris", "vera"):  # the game's own players too: its chat is not this one
        for _, data in table.buttons:
            answer = await runner.press_data(users[user], helper, data)
            assert answer.get("text"), answer  # a toast, nothing else
    dump, calls = snapshot(tg, runner)
    assert dump == before[0]
    assert {r.method for r in tg.requests[before[1]:]} == {"answerCallbackQuery"}
    assert calls - before[1] == 3 * len(table.buttons)
    assert helper.edit_count == 0 and table.edit_count == edits


async def test_a_message_from_a_chat_without_a_game_touches_no_game(world: World) -> None:
    tg, runner, users = world
    table = await start_for_two(runner, users, "sosedi")
    tg.add_chat(OTHER_CHAT, "supergroup", "Другой клуб", creator=3)
    edits, messages = table.edit_count, len(tg.bot_messages(CHAT_ID))
    with contextlib.closing(sqlite3.connect(runner.db_path)) as conn:
        games = conn.execute("SELECT id, chat_id, version, state FROM games").fetchall()
    runner.chat_id = OTHER_CHAT
    for text in ("/stop", "/leave", "/table", "просто текст"):
        await runner.say(users["vera"], text)
    runner.chat_id = CHAT_ID
    with contextlib.closing(sqlite3.connect(runner.db_path)) as conn:
        assert conn.execute("SELECT id, chat_id, version, state FROM games").fetchall() == games
    assert (table.edit_count, len(tg.bot_messages(CHAT_ID))) == (edits, messages)
    assert all(m.photo is None for m in tg.bot_messages(OTHER_CHAT))  # no table appeared there either


async def test_a_redelivered_command_or_press_changes_nothing(world: World) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    newgame = tg.webhook.delivered[-1]
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    join = tg.webhook.delivered[-1]
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    mover = next(u for u in users.values() if u.first_name in (table.caption or "").rsplit("Ходит:", 1)[-1])
    await runner.press(mover, table, table.buttons[0][0])
    roll = tg.webhook.delivered[-1]
    before = snapshot(tg, runner)
    for update in (newgame, join, roll, roll):
        await redeliver(runner, update)
    assert snapshot(tg, runner) == before  # no second lobby, no second join, no second roll, no call at all
    assert len([m for m in tg.bot_messages(CHAT_ID) if m.photo is not None]) == 1


async def test_after_a_restart_a_redelivered_press_is_skipped(world: World) -> None:
    """The webhook's memory of update ids is the process's own; the store's (bot/redelivery.py) says
    the press was handled before the restart: it is neither applied nor answered again."""
    tg, runner, users = world
    table = await start_for_two(runner, users, "sosedi")
    mover = next(u for u in users.values() if u.first_name in (table.caption or "").rsplit("Ходит:", 1)[-1])
    await runner.press(mover, table, table.buttons[0][0])
    roll: dict[str, Any] = tg.webhook.delivered[-1]
    await runner.restart()
    before, edits = snapshot(tg, runner), table.edit_count
    await redeliver(runner, roll)
    assert snapshot(tg, runner) == before and table.edit_count == edits  # not a single call
