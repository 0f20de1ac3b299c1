"""/table: the game's table (or its lobby) posted again at the bottom of the chat, the old
one deleted, at most once per 30 s a game, in at most two calls."""

from __future__ import annotations

import pytest

from bot.flow import REPOST_EVERY_S
from tests.bot_harness import (
    current_player_name,
    flow_of,
    game_id_of,
    start_for_two,
    use_classic_table,
)
from tests.clock_steps import later

CALLS = ("sendPhoto", "deleteMessage", "editMessageReplyMarkup", "editMessageMedia", "editMessageCaption",
         "sendMessage")


pytestmark = pytest.mark.world(first_seed=310, count=3)  # group_world's arguments (tests/conftest.py)


def calls_since(tg, start: int) -> list[str]:
    return [r.method for r in tg.requests[start:] if r.method in CALLS]


async def test_table_posts_the_table_again_at_the_bottom_and_deletes_the_old_one(world) -> None:
    tg, runner, users = world
    await use_classic_table(runner)  # a table whose log is the last few actions, as the new one's is
    old = await start_for_two(runner, users, "ludo")
    await runner.say(users["vera"], "hello")  # the chat has moved on
    start = len(tg.requests)
    await runner.say(users["vera"], "/table")
    assert calls_since(tg, start) == ["sendPhoto", "deleteMessage"]
    new = runner.table()
    assert new.message_id > old.message_id and old.deleted
    assert new.buttons == old.buttons
    shown_once = [line for line in (old.caption or "").splitlines() if "🔒" not in line]  # the commitment
    assert shown_once == (new.caption or "").splitlines()
    game = await flow_of(runner).store.game(game_id_of(new))
    assert game is not None and game.message_id == new.message_id
    mover = next(u for u in users.values() if u.first_name == current_player_name(new.caption or ""))
    edits = new.edit_count
    await runner.press(mover, new, new.buttons[0][0])  # the new table plays on
    assert new.edit_count == edits + 1


async def test_table_is_refused_within_30_seconds_of_the_last_and_allowed_after(world) -> None:
    tg, runner, users = world
    await start_for_two(runner, users, "ludo")
    await runner.say(users["vera"], "/table")
    first = runner.table()
    start = len(tg.requests)
    await runner.say(users["boris"], "/table")
    assert calls_since(tg, start) == ["sendMessage"]
    assert "Стол только что показан заново" in (tg.bot_messages(runner.chat_id)[-1].text or "")
    assert runner.table() is first
    later(flow_of(runner), REPOST_EVERY_S + 1)
    await runner.say(users["boris"], "/table")
    assert runner.table() is not first and first.deleted


async def test_table_in_a_lobby_posts_the_lobby_again(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    await runner.say(users["boris"], "/table")
    new = runner.table()
    assert new is not lobby and lobby.deleted and new.buttons == lobby.buttons
    await runner.press(users["boris"], new, "Играю")
    assert "Борис" in (new.caption or "")


async def test_table_without_a_game_says_how_to_start_one(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/table")
    assert "/newgame" in (tg.bot_messages(runner.chat_id)[-1].text or "")
