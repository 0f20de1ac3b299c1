"""Hostile or odd input: a clear answer or silence, never a traceback, never a change of state.

A «соседи» game runs in the group; every input below is thrown at the bot, and after each one
the stored game, the table message and the set of games must be exactly as they were. The
group_world fixture also checks that every press was answered and the server saw no misuse.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot import callback_data as cb
from tests.bot_harness import CHAT_ID, current_player_name, game_id_of, group_world
from tests.input_steps import OTHER_CHAT, snapshot

STALE = "Кнопка устарела."


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


async def test_forged_callback_data_is_refused_and_changes_nothing(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    by_name = {u.first_name: u for u in users.values()}
    await runner.press(by_name[current_player_name(table.caption)], table, "🎲")  # so an older version exists
    game_id = game_id_of(table)
    version = int(table.buttons[0][1].split(":")[2])
    roll = table.buttons[0][1].rsplit(":", 1)[1]
    # another group's started_sosedi game: its buttons must not work from here
    tg.add_chat(OTHER_CHAT, "supergroup", "Другой клуб", creator=users["boris"].id)
    await tg.send_message(users["boris"], OTHER_CHAT, "/newgame sosedi")
    await runner.handled()
    other_table = next(m for m in tg.bot_messages(OTHER_CHAT) if m.photo is not None)
    await runner.press(users["gleb"], other_table, "Играю")
    await runner.press(users["boris"], other_table, "Начать")
    assert "Ходит:" in other_table.caption
    other_id = game_id_of(other_table)
    before = await snapshot(tg, runner, table)
    forged = [
        cb.move(999_999, version, roll),  # no such game
        cb.move(game_id, version + 5, roll),  # a version from the future
        cb.move(game_id, version - 1, roll),  # an old one
        cb.move(game_id, version, "zz"),  # no such action
        cb.move(other_id, 1, roll),  # another chat's game
        cb.lobby(other_id, "start"),
        cb.kick(other_id, 1),
        cb.rematch(other_id),
        cb.check_dice(game_id),  # the dice check of a game still running: its seed would tell the coming dice
        cb.check_dice(other_id),
        cb.lobby(game_id, "join"),  # a lobby button of a game that already runs
        "n:nosuchgame",
        f"g:{game_id}:{version}:ы",  # non-ASCII
        "g:::",
        "x" * 64,  # 64 bytes of junk
        bytes(range(32, 96)).decode(),
        "",
    ]
    mover = by_name[current_player_name(table.caption)]
    for data in forged:
        answer = await runner.press_data(mover, table, data)
        assert answer.get("text"), data  # a clear answer, not a silent spinner
        assert await snapshot(tg, runner, table) == before, data
    no_tracebacks(caplog)


async def test_junk_commands_get_a_clear_answer_or_silence(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    before = await snapshot(tg, runner, table)
    for text in ("/newgame qwerty", "/newgame sosedi and more", "/newgame@OtherBot sosedi", "/set",
                 "/set chips=abc", "/set =", "/kick junk", "/lang xx", "/stop now please", "/tally ?",
                 "/rules nosuchgame", "/leave everything", "/start@OtherBot", "/" + "я" * 4000,
                 "/newgame " + "x" * 4080, "я" * 4096):
        await runner.say(users["gleb"], text)  # not seated, not an admin: junk from anyone
        assert await snapshot(tg, runner, table) == before, text[:40]
    # the game is there still, and answers to its own player
    no_tracebacks(caplog)


async def test_updates_the_bot_does_not_act_on(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    before = await snapshot(tg, runner, table)
    anya = users["anya"].to_dict()
    chat = tg.chats[CHAT_ID].to_dict()
    await tg.push_update({"edited_message": {"message_id": 1, "date": 0, "edit_date": 1, "chat": chat,
                                             "from": anya, "text": "/stop"}})
    await tg.push_update({"channel_post": {"message_id": 5, "date": 0, "text": "/newgame sosedi",
                                           "chat": {"id": -100555, "type": "channel", "title": "Канал"}}})
    robot = tg.add_user(9_000, "Робот", username="other_bot")
    robot.is_bot = True
    await runner.say(robot, "/stop")
    await runner.say(robot, "/newgame sosedi")
    answer = await runner.press_data(robot, table, table.buttons[0][1])
    assert answer.get("text") == STALE
    await runner.handled()
    assert await snapshot(tg, runner, table) == before
    no_tracebacks(caplog)


async def test_presses_in_a_private_chat_change_nothing(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    before = await snapshot(tg, runner, table)
    vera = users["vera"]
    await tg.send_private(vera, "/start")
    await runner.handled()
    private = next(m for m in reversed(tg.bot_messages(vera.id)))
    for data in (table.buttons[0][1], cb.picker("sosedi"), cb.lobby(game_id_of(table), "join")):
        handle = await tg.press(vera, vera.id, private.message_id, data, check_buttons=False)
        answer = await tg.wait_answer(handle)
        assert answer.get("text")  # a clear answer: games are played in groups
        await runner.handled()
    assert await snapshot(tg, runner, table) == before
    no_tracebacks(caplog)


async def test_double_taps_and_simultaneous_presses_apply_once(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    by_name = {u.first_name: u for u in users.values()}
    for _ in range(5):
        if not table.buttons:
            break
        mover = by_name[current_player_name(table.caption)]
        other = next(u for u in users.values() if u is not mover)
        data, edits = table.buttons[0][1], table.edit_count
        version = (await snapshot(tg, runner, table))[0]
        # the mover taps three times and someone else once, all before the bot sees any of them
        handles = [await tg.press(user, CHAT_ID, table.message_id, data, check_buttons=False)
                   for user in (mover, mover, other, mover)]
        answers = [await tg.wait_answer(h) for h in handles]
        await runner.handled()
        assert (await snapshot(tg, runner, table))[0] == version + 1  # applied once
        assert table.edit_count == edits + 1
        assert sum(a.get("text", "").startswith("🎲 ") for a in answers) == 1
    no_tracebacks(caplog)


async def test_presses_on_a_finished_game_change_nothing(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    by_name = {u.first_name: u for u in users.values()}
    game_id, last_data = game_id_of(table), table.buttons[0][1]
    while table.buttons:
        last_data = table.buttons[0][1]
        await runner.press(by_name[current_player_name(table.caption)], table, "🎲")
    before = await snapshot(tg, runner, table, game_id)
    assert before[2] == "finished"
    messages = len(tg.bot_messages(CHAT_ID))
    for user in users.values():
        answer = await runner.press_data(user, table, last_data)  # the last roll button, pressed again
        assert answer.get("text")
    assert await snapshot(tg, runner, table, game_id) == before and len(tg.bot_messages(CHAT_ID)) == messages
    no_tracebacks(caplog)


async def test_names_cannot_make_the_bot_post_html(tmp_path: Path) -> None:
    evil_name = '<b>Ева</b> & <a href="x.evil">'  # within the name length the bot shows
    async with group_world(tmp_path, first_seed=5) as (tg, runner, users):
        evil = tg.add_user(66, evil_name)
        await runner.say(users["anya"], "/newgame sosedi")
        lobby = runner.table()
        await runner.press(evil, lobby, "Играю")
        assert evil_name in lobby.caption  # shown as the text it is, not as markup
        await runner.press(users["anya"], lobby, "Начать")
        for _ in range(6):
            if not lobby.buttons:
                break
            mover = evil if current_player_name(lobby.caption) == evil_name else users["anya"]
            await runner.press(mover, lobby, "🎲")
        assert evil_name in lobby.caption
        urls = [e.get("url", "") for e in lobby.caption_entities or []]
        assert not any("evil" in url for url in urls)  # no link but the bot's own mentions
