"""A tidy chat: refusals and turn pings go after a minute, with the command a refusal
answered where the bot may delete it; what stays after a game is its final table and its result.
Without the right nothing breaks, and /settings turns it off.

The flow's alarms are rung by hand (:class:`ManualAlarms`) instead of waited for.
"""

from __future__ import annotations

import pytest

from bot.fake_telegram import StoredMessage
from bot.flow.tidy import TIDY_AFTER_S
from bot.games import GAMES
from tests.bot_harness import (
    BotRunner,
    ManualAlarms,
    World,
    flow_of,
    game_id_of,
    play_to_end,
    start_for_two,
)

pytestmark = pytest.mark.world(first_seed=320, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def world(world: World) -> tuple[World, ManualAlarms]:
    alarms = flow_of(world[1]).alarms = ManualAlarms()
    return world, alarms


def tidy_keys(alarms: ManualAlarms) -> list[tuple[object, ...]]:
    return [k for k in alarms.armed if isinstance(k, tuple) and k[0] == "tidy"]


async def ring_tidy(alarms: ManualAlarms) -> None:
    for key in tidy_keys(alarms):
        await alarms.ring(key)


def last_bot_text(runner: BotRunner) -> StoredMessage:
    return [m for m in runner.tg.bot_messages(runner.chat_id) if m.text is not None][-1]


def user_message(runner: BotRunner, text: str) -> StoredMessage:
    return [m for m in runner.tg.messages[runner.chat_id].values() if not m.from_bot and m.text == text][-1]


async def test_a_refusal_and_the_command_it_refused_go_after_a_minute(world) -> None:
    (_, runner, users), alarms = world
    await start_for_two(runner, users, "ludo")
    await runner.say(users["vera"], "/stop")  # not the host, not an admin
    refusal, command = last_bot_text(runner), user_message(runner, "/stop")
    assert "хост" in (refusal.text or "").lower() or "админ" in (refusal.text or "").lower()
    [key] = tidy_keys(alarms)
    assert alarms.when(key) == pytest.approx(flow_of(runner).clock() + TIDY_AFTER_S, abs=2)
    assert not refusal.deleted and not command.deleted
    await alarms.ring(key)
    assert refusal.deleted and command.deleted


async def test_answers_that_are_not_refusals_stay(world) -> None:
    (_, runner, users), alarms = world
    await runner.say(users["anya"], "/help")
    await runner.say(users["anya"], "/rules ludo")
    assert tidy_keys(alarms) == []


async def test_without_the_right_to_delete_the_command_stays_and_nothing_is_refused(world) -> None:
    (tg, runner, users), alarms = world
    tg.chats[runner.chat_id].bot_status = "member"  # no admin: only its own messages may go
    for _ in range(2):
        await runner.say(users["vera"], "/kick")
        await ring_tidy(alarms)
    refusals = [m for m in tg.messages[runner.chat_id].values() if m.from_bot and m.text]
    assert len(refusals) == 2 and all(m.deleted for m in refusals)
    commands = [m for m in tg.messages[runner.chat_id].values() if m.text == "/kick"]
    assert len(commands) == 2 and not any(m.deleted for m in commands)
    assert [r.method for r in tg.requests if r.method == "getChatMember"] == ["getChatMember"]  # asked once
    assert [r for r in tg.requests if r.method == "deleteMessage" and not r.ok] == []  # never a refused delete


async def test_settings_turn_tidying_off(world) -> None:
    (_, runner, users), alarms = world
    await runner.say(users["anya"], "/settings")  # Аня created the group
    settings = last_bot_text(runner)
    await runner.press(users["anya"], settings, "🧹")
    assert "выкл" in (settings.text or "").split("🧹", 1)[1].splitlines()[0]
    await runner.say(users["vera"], "/stop")
    assert tidy_keys(alarms) == []


async def test_a_ping_goes_after_a_minute_in_a_tidy_chat(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    await alarms.ring(("ping", game_id_of(table)))
    await runner.handled()
    ping = last_bot_text(runner)
    assert ", ваш ход" in (ping.text or "")
    await ring_tidy(alarms)
    assert ping.deleted


async def test_after_a_game_its_final_table_and_result_are_what_stays(world) -> None:
    (tg, runner, users), alarms = world
    table = await start_for_two(runner, users, "spichki")
    await runner.say(users["vera"], "/newgame ludo")  # refused: a game is on
    await runner.say(users["vera"], "/kick")  # refused: not the host
    await alarms.ring(("ping", game_id_of(table)))
    await play_to_end(runner, table, GAMES["spichki"].engine, [users["anya"], users["boris"]], seed=3)
    await ring_tidy(alarms)
    left = [m for m in tg.bot_messages(runner.chat_id) if not m.deleted]
    assert [m.message_id for m in left][:1] == [table.message_id] and len(left) == 2
    assert "🏁" in (left[1].text or "")
    assert [m.text for m in tg.messages[runner.chat_id].values() if not m.from_bot and not m.deleted] == [
        "/newgame spichki"]
