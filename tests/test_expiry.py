"""Expiry: a lobby nobody touched for 15 minutes closes itself; a game in which no person
acted for GAME_IDLE_HOURS is stopped as abandoned (kept in /history, left out of the stats); a game
with no person left at the table ends the same way at once.

Time is the flow's clock: the tests move it on and run the sweep the application runs every minute.
"""

from __future__ import annotations

import pytest

from bot.flow.expiry import LOBBY_IDLE_S
from tests.bot_harness import current_player_name, flow_of, game_id_of, start_for_two
from tests.clock_steps import later

DAY = 24 * 3600


pytestmark = pytest.mark.world(first_seed=330, count=3)  # group_world's arguments (tests/conftest.py)


async def test_a_lobby_nobody_touches_for_15_minutes_closes_itself(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    flow, game_id = flow_of(runner), game_id_of(lobby)
    later(flow, LOBBY_IDLE_S - 30)
    assert await flow.expire_idle() == 0
    await runner.press(users["boris"], lobby, "Играю")  # a press: 15 more minutes
    later(flow, LOBBY_IDLE_S - 60)  # (the clock moves on from where it is)
    assert await flow.expire_idle() == 0
    later(flow, 120)
    assert await flow.expire_idle() == 1
    await runner.handled()
    assert "15 минут" in (lobby.caption or "") and lobby.buttons == []
    game = await flow.store.game(game_id)
    assert game is not None and game.status == "stopped" and game.result == {"kind": "expired"}
    await runner.say(users["anya"], "/newgame ludo")  # the chat is free for a new one
    assert runner.table() is not lobby


async def test_a_game_nobody_plays_for_a_day_is_abandoned_kept_in_history_and_out_of_stats(world) -> None:
    tg, runner, users = world
    flow = flow_of(runner)
    await flow.store.set_chat_setting(runner.chat_id, "turn_timer", 0)  # no timer: nobody moves at all
    table = await start_for_two(runner, users, "ludo")
    game_id = game_id_of(table)
    mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption or ""))
    later(flow, DAY - 60)
    assert await flow.expire_idle() == 0
    await runner.press(mover, table, table.buttons[0][0])  # a person acts: a day more
    later(flow, DAY - 120)
    assert await flow.expire_idle() == 0
    later(flow, 240)
    assert await flow.expire_idle() == 1
    await runner.handled()
    assert "брошена" in (table.caption or "") and table.buttons == []
    game = await flow.store.game(game_id)
    assert game is not None and game.status == "stopped" and game.result == {"kind": "abandoned"}
    await runner.say(users["anya"], "/history")
    assert "брошена" in (tg.bot_messages(runner.chat_id)[-1].text or "")
    assert await flow.user_totals(runner.chat_id, users["anya"].id) == []  # not a game played


async def test_the_computers_playing_for_everybody_do_not_keep_a_game_alive(world) -> None:
    _, runner, users = world
    flow = flow_of(runner)
    table = await start_for_two(runner, users, "ludo")
    game_id = game_id_of(table)
    for _ in range(40):  # nobody presses: the turn timer plays for them, then the computer takes the seats
        game = await flow.store.game(game_id)
        assert game is not None
        if game.status != "running":
            break
        assert game.deadline is not None
        later(flow, game.deadline - flow.clock() + 1)
        await flow.on_deadline(game_id)
    await runner.handled()
    game = await flow.store.game(game_id)
    assert game is not None and game.status == "stopped" and game.result == {"kind": "abandoned"}
    assert "брошена" in (table.caption or "")


async def test_a_game_ends_at_once_when_its_last_person_leaves(world) -> None:
    _, runner, users = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    game_id = game_id_of(lobby)
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    await runner.press(users["anya"], lobby, "Начать")
    await runner.say(users["anya"], "/leave")
    game = await flow.store.game(game_id)
    assert game is not None and game.status == "stopped" and game.result == {"kind": "abandoned"}
    assert game.version < 20  # the computer did not play it out on its own
