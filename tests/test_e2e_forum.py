"""Forum topics: in a forum supergroup a lobby and its game live in the topic where
/newgame was typed; one game per topic (General counts as one), so a forum runs several at once.
/stop, /leave, /kick, /table and /rules act on the game of their topic; a closed topic pauses its
game, a reopened one lets it go on, a deleted one ends it as stopped; nothing else is touched.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.fake_telegram import StoredMessage
from tests.bot_harness import (
    BotRunner,
    assert_replays,
    current_player_name,
    flow_of,
    game_id_of,
    group_world,
)
from tests.clock_steps import later

pytestmark = pytest.mark.world(first_seed=340, count=4, forum=True)  # group_world's arguments (tests/conftest.py)


async def topic(runner: BotRunner, name: str) -> int:
    created = await runner.tg.create_topic(runner.chat_id, name)
    await runner.handled()  # its service message reaches the bot, which leaves it be
    return created.thread_id


async def open_in(runner: BotRunner, thread: int | None, host, guest, code: str) -> StoredMessage:
    """``host`` opens a lobby of ``code`` in the topic, ``guest`` joins, the host starts; the table."""
    await runner.say(host, f"/newgame {code}", thread=thread)
    lobby = runner.table(thread)
    await runner.press(guest, lobby, "Играю")
    await runner.press(host, lobby, "Начать")
    return runner.table(thread)


def mover(table: StoredMessage, users) -> object:
    name = current_player_name(table.caption or "")
    return next(u for u in users.values() if u.first_name == name)


async def test_two_games_in_two_topics_play_to_the_end_each_in_its_own_topic(world) -> None:
    tg, runner, users = world
    dice, pub = await topic(runner, "Кости"), await topic(runner, "Паб")
    first = await open_in(runner, dice, users["anya"], users["boris"], "spichki")
    second = await open_in(runner, pub, users["vera"], users["gleb"], "sosedi")
    rng = random.Random(5)
    tables = [first, second]
    while any(t.buttons for t in tables):  # the two games take turns, press by press
        for table in tables:
            if table.buttons:
                await runner.press(mover(table, users), table, rng.choice(table.buttons)[0])
    for thread in (dice, pub):
        game = await flow_of(runner).store.game(game_id_of_result(runner, thread))
        assert game is not None and game.status == "finished" and game.thread_id == thread
        await assert_replays(runner, game.id)
    for message in tg.bot_messages(runner.chat_id):  # every send landed in its own topic
        assert message.thread_id in (dice, pub), (message.thread_id, message.text or message.caption)
    assert {m.thread_id for m in tg.bot_messages(runner.chat_id) if "🏁" in (m.text or "")} == {dice, pub}
    assert [m for m in tg.bot_messages(runner.chat_id, None)] == []  # General is untouched


def game_id_of_result(runner: BotRunner, thread: int) -> int:
    """The game whose «Ещё раунд» sits under the topic's result."""
    result = [m for m in runner.tg.bot_messages(runner.chat_id, thread) if "🏁" in (m.text or "")][-1]
    return game_id_of(result)


async def test_one_game_per_topic_and_general_counts_as_one(world) -> None:
    tg, runner, users = world
    dice = await topic(runner, "Кости")
    await runner.say(users["anya"], "/newgame ludo")  # General
    await runner.say(users["boris"], "/newgame ludo", thread=dice)
    general, in_topic = runner.table(None), runner.table(dice)
    assert general is not in_topic and general.thread_id is None and in_topic.thread_id == dice
    await runner.say(users["vera"], "/newgame spichki", thread=dice)  # that topic has one already
    refusal = tg.bot_messages(runner.chat_id, dice)[-1]
    assert "уже" in (refusal.text or "") and refusal.thread_id == dice
    assert runner.table(dice) is in_topic


async def test_commands_act_on_the_game_of_their_topic(world) -> None:
    tg, runner, users = world
    dice, pub = await topic(runner, "Кости"), await topic(runner, "Паб")
    first = await open_in(runner, dice, users["anya"], users["boris"], "ludo")
    second = await open_in(runner, pub, users["anya"], users["vera"], "ludo")
    await runner.say(users["anya"], "/stop", thread=pub)
    flow = flow_of(runner)
    assert (await flow.store.game(game_id_of(first))).status == "running"
    assert second.buttons == [] and "остановлена" in (second.caption or "")
    await runner.say(users["gleb"], "/stop", thread=pub)  # no game there now
    assert "/newgame" in (tg.bot_messages(runner.chat_id, pub)[-1].text or "")
    await runner.say(users["boris"], "/table", thread=dice)
    assert runner.table(dice) is not first and first.deleted
    await runner.say(users["gleb"], "/rules", thread=dice)
    assert "Людо" in (tg.bot_messages(runner.chat_id, dice)[-1].text or "")


async def test_a_closed_topic_pauses_its_game_and_reopening_lets_it_go_on(world) -> None:
    tg, runner, users = world
    dice, pub = await topic(runner, "Кости"), await topic(runner, "Паб")
    first = await open_in(runner, dice, users["anya"], users["boris"], "ludo")
    second = await open_in(runner, pub, users["vera"], users["gleb"], "ludo")
    await tg.close_topic(runner.chat_id, dice)
    await runner.handled()
    await flow_of(runner).settled()
    flow = flow_of(runner)
    assert (await flow.store.game(game_id_of(first))).paused
    assert not (await flow.store.game(game_id_of(second))).paused  # nothing else is touched
    answer = await runner.press(mover(first, users), first, first.buttons[0][0])
    assert answer.get("show_alert")  # «paused»
    await tg.reopen_topic(runner.chat_id, dice)
    await runner.handled()
    await flow.settled()
    assert not (await flow.store.game(game_id_of(first))).paused
    table = runner.table(dice)
    edits = table.edit_count
    await runner.press(mover(table, users), table, table.buttons[0][0])
    assert table.edit_count == edits + 1


async def test_a_deleted_topic_ends_its_game_as_stopped(world) -> None:
    tg, runner, users = world
    dice, pub = await topic(runner, "Кости"), await topic(runner, "Паб")
    first = await open_in(runner, dice, users["anya"], users["boris"], "ludo")
    game_id = game_id_of(first)
    second = await open_in(runner, pub, users["vera"], users["gleb"], "ludo")
    await tg.delete_topic(runner.chat_id, dice)  # Telegram tells the bot nothing of it
    flow = flow_of(runner)
    row = await flow.store.game(game_id)
    assert row is not None and row.deadline is not None
    later(flow, row.deadline - flow.clock() + 1)  # the turn timer plays: its table edit finds the topic gone
    await flow.on_deadline(game_id)
    await runner.handled()
    await flow.settled()
    game = await flow.store.game(game_id)
    assert game is not None and game.status == "stopped"
    assert (await flow_of(runner).store.game(game_id_of(second))).status == "running"
    assert tg.violations == []


async def test_a_reply_in_an_ordinary_supergroup_is_not_a_topic(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=341, count=2) as (tg, runner, users):
        await runner.say(users["anya"], "/newgame ludo")
        lobby = runner.table()
        await tg.send_message(users["anya"], runner.chat_id, "/stop", reply_to=lobby.message_id)
        await runner.handled()
        reply = tg.bot_messages(runner.chat_id)[-1]
        assert "остановлена" in (reply.text or "") or lobby.buttons == []
        assert (await flow_of(runner).store.active_game(runner.chat_id)) is None
