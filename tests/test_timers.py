"""Turn timers through the fake Bot API: the lobby setting, a deadline per game kept in
the database and armed on PTB's JobQueue, the computer playing a timed-out turn, a bot taking
the seat after three timeouts in a row (in «Охота на львов» the player resigns instead), and
deadlines that passed or are pending across a restart.

Time is the flow's ``clock``: the tests move it on instead of waiting.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiosqlite
import pytest

from bot import callback_data as cb
from bot.app import arm_deadline
from bot.fake_telegram import FakeUser, StoredMessage
from bot.games import GAMES
from engines.lions_ai import AI as LIONS_AI
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    current_player_name,
    flow_of,
    game_id_of,
    start_for_two,
    stored_state,
)
from tests.clock_steps import boris_times_out_three_times, later, time_out

pytestmark = pytest.mark.world(first_seed=60, count=3)  # group_world's arguments (tests/conftest.py)


async def test_the_lobby_cycles_its_timer_and_only_the_host_may(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    assert any(label == "⏱ Таймер хода: 3 мин" for label, _ in lobby.buttons)  # the default
    answer = await runner.press(users["boris"], lobby, "⏱ Таймер хода")
    assert answer["text"] == "Это может только хост (или админ)."
    assert (await flow_of(runner).chat(CHAT_ID)).settings.turn_timer == 3
    seen = []
    for _ in range(4):
        await runner.press(users["anya"], lobby, "⏱ Таймер хода")
        seen.append(next(label for label, _ in lobby.buttons if label.startswith("⏱")))
    assert seen == ["⏱ Таймер хода: 10 мин", "⏱ Таймер хода: выкл.", "⏱ Таймер хода: 1 мин",
                    "⏱ Таймер хода: 3 мин"]


async def test_a_deadline_is_stored_and_armed_and_a_timeout_plays_the_turn(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    flow = flow_of(runner)
    game = await flow.store.game(game_id_of(table))
    assert game is not None and game.deadline is not None
    assert abs(game.deadline - (flow.clock() + 180)) < 5
    assert runner.app is not None and runner.app.job_queue is not None
    assert [j.data for j in runner.app.job_queue.get_jobs_by_name(f"deadline:{game.id}")] == [game.id]
    # not due yet: nothing happens
    assert not await flow.on_deadline(game.id)
    mover = current_player_name(table.caption)
    before = await stored_state(runner, GAMES["spichki"].engine, game.id)
    assert await time_out(runner, table)
    after = await stored_state(runner, GAMES["spichki"].engine, game.id)
    assert after.version > before.version and after.current_player != before.current_player
    assert f"⏱ {mover}: время вышло — ход сделал бот (1 из 3)." in table.caption
    fresh = await flow.store.game(game.id)
    assert fresh is not None and fresh.timeouts == {str(before.current_player): 1}
    assert fresh.deadline is not None and fresh.deadline > flow.clock()  # the next player's clock runs
    # the same deadline fired twice (a stale job) plays nothing more
    assert not await flow.on_deadline(game.id)


async def test_three_timeouts_in_a_row_hand_the_seat_to_a_bot(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "spichki")

    async def anya_turn() -> None:
        await runner.press(users["anya"], table, next(label for label, _ in table.buttons))

    await boris_times_out_three_times(runner, table, anya_turn)
    assert "🤖 Борис: три пропуска подряд — дальше за этого игрока играет бот." in table.caption
    game = await flow_of(runner).store.game(game_id_of(table))
    assert game is not None and [s.name for s in game.seats] == ["Аня", "🤖 Борис"]
    assert game.seats[1].user_id < 0
    # from now on only Аня is ever asked to move; the bot's turns come with her presses
    while table.buttons and game.status == "running":
        assert current_player_name(table.caption) == "Аня"
        await runner.press(users["anya"], table, next(label for label, _ in table.buttons))
        game = await flow_of(runner).store.game(game.id)
        assert game is not None
    assert game.status == "finished"


async def test_a_person_who_moves_again_starts_counting_from_zero(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    people = {"Аня": users["anya"], "Борис": users["boris"]}
    flow = flow_of(runner)
    first = current_player_name(table.caption)
    assert await time_out(runner, table)
    game = await flow.store.game(game_id_of(table))
    assert game is not None and set(game.timeouts.values()) == {1}
    while current_player_name(table.caption) != first:
        other = current_player_name(table.caption)
        await runner.press(people[other], table, next(label for label, _ in table.buttons))
    await runner.press(people[first], table, next(label for label, _ in table.buttons))
    game = await flow.store.game(game.id)
    assert game is not None and set(game.timeouts.values()) == {0}


async def lions_person_turn(runner: BotRunner, user: FakeUser, table: StoredMessage) -> None:
    """A person plays the turn the lions AI would, pressing its buttons one by one."""
    game_id = game_id_of(table)
    engine = GAMES["lions"].engine
    state: Any = await stored_state(runner, engine, game_id)
    for code in LIONS_AI.plan(state):
        await runner.press_data(user, table, cb.move(game_id, state.version, code))
        state = await stored_state(runner, engine, game_id)


async def test_in_lions_the_third_timeout_resigns(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "lions")
    game_id = game_id_of(table)
    await boris_times_out_three_times(runner, table, lambda: lions_person_turn(runner, users["anya"], table))
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and game.status == "finished" and game.result is not None
    assert game.result["winners"] == [0] and game.result["data"]["end"] == "resign"
    assert [s.name for s in game.seats] == ["Аня", "Борис"]  # nobody replaced: he lost


async def test_a_deadline_that_passed_while_the_bot_was_down_is_played_at_start(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    game_id = game_id_of(table)
    before = await stored_state(runner, GAMES["spichki"].engine, game_id)
    mover = current_player_name(table.caption)
    await runner.stop()
    # the deadline passes while the bot is down
    async with aiosqlite.connect(runner.db_path) as db:
        await db.execute("UPDATE games SET deadline = 1 WHERE id = ?", (game_id,))
        await db.commit()
    await runner.start()
    after = await stored_state(runner, GAMES["spichki"].engine, game_id)
    assert after.version > before.version and after.current_player != before.current_player
    assert f"⏱ {mover}: время вышло" in table.caption
    # the next player's deadline is armed on the new JobQueue
    assert runner.app is not None and runner.app.job_queue is not None
    assert runner.app.job_queue.get_jobs_by_name(f"deadline:{game_id}")


async def test_a_pending_deadline_is_re_armed_after_a_restart(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    game_id = game_id_of(table)
    game = await flow_of(runner).store.game(game_id)
    assert game is not None
    await runner.restart()
    assert runner.app is not None and runner.app.job_queue is not None
    jobs = runner.app.job_queue.get_jobs_by_name(f"deadline:{game_id}")
    assert [j.data for j in jobs] == [game_id]
    again = await flow_of(runner).store.game(game_id)
    assert again is not None and again.deadline == game.deadline and again.version == game.version


async def test_with_the_timer_off_there_is_no_deadline(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "⏱ Таймер хода")  # 10
    await runner.press(users["anya"], lobby, "⏱ Таймер хода")  # off
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    game = await flow_of(runner).store.game(game_id_of(runner.table()))
    assert game is not None and game.status == "running" and game.deadline is None
    assert runner.app is not None and runner.app.job_queue is not None
    assert not runner.app.job_queue.get_jobs_by_name(f"deadline:{game.id}")


async def test_leave_hands_the_seat_to_a_bot_that_plays_at_once(world) -> None:
    tg, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    mover = current_player_name(table.caption)
    people = {"Аня": users["anya"], "Борис": users["boris"]}
    await runner.say(users["vera"], "/leave")  # not a player
    assert tg.last_bot_message(CHAT_ID).text == "Вы не играете в этой партии."
    await runner.say(people[mover], "/leave")
    assert tg.last_bot_message(CHAT_ID).text == f"{mover} вышел — за него доигрывает компьютер."
    game = await flow_of(runner).store.game(game_id_of(table))
    assert game is not None and f"🤖 {mover}" in game.names
    # the bot played the leaver's turn at once: the other person is to move (or the game ended)
    if game.status == "running":
        assert current_player_name(table.caption) != mover


async def test_kick_is_for_the_host_or_an_admin_and_skips_the_player_to_move(world) -> None:
    tg, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    people = {"Аня": users["anya"], "Борис": users["boris"]}
    while current_player_name(table.caption) != "Борис":
        await runner.press(people["Аня"], table, next(label for label, _ in table.buttons))
    await runner.say(users["boris"], "/kick")  # Борис is neither host nor admin
    assert tg.last_bot_message(CHAT_ID).text == "Пропускать игроков может только хост или администратор чата."
    game = await flow_of(runner).store.game(game_id_of(table))
    assert game is not None and game.names == ["Аня", "Борис"]
    await runner.say(users["anya"], "/kick")  # not «вышел»: who skipped whom
    assert tg.last_bot_message(CHAT_ID).text == "Аня пропускает игрока Борис — его место занимает компьютер."
    game = await flow_of(runner).store.game(game.id)
    assert game is not None and game.names == ["Аня", "🤖 Борис"]


async def test_leaving_lions_out_of_turn_resigns(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "lions")
    game_id = game_id_of(table)
    mover = current_player_name(table.caption)
    other = {"Аня": "Борис", "Борис": "Аня"}[mover]
    key = {"Аня": "anya", "Борис": "boris"}[other]
    await runner.say(users[key], "/leave")
    assert table.buttons == []  # the table shows the finished game
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and game.status == "finished" and game.result is not None
    assert game.result["data"]["end"] == "resign" and game.names[game.result["winners"][0]] == mover


async def test_after_a_timeout_the_host_can_skip_that_player_with_a_button(world) -> None:
    tg, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    people = {"Аня": users["anya"], "Борис": users["boris"]}
    while current_player_name(table.caption) != "Борис":
        await runner.press(people["Аня"], table, next(label for label, _ in table.buttons))
    assert not any(label == "⏭ Пропустить игрока" for label, _ in table.buttons)
    assert await time_out(runner, table)  # Борис runs out of time once
    while current_player_name(table.caption) != "Борис":
        await runner.press(people["Аня"], table, next(label for label, _ in table.buttons))
    assert any(label == "⏭ Пропустить игрока" for label, _ in table.buttons)
    game_id = game_id_of(table)
    kick_version = (await stored_state(runner, GAMES["spichki"].engine, game_id)).version
    answer = await runner.press(users["boris"], table, "⏭ Пропустить игрока")
    assert answer["text"] == "Пропускать игроков может только хост или администратор чата."
    answer = await runner.press(users["anya"], table, "⏭ Пропустить игрока")
    assert not answer.get("text")  # silent: the line posted says it, and who skipped whom
    assert tg.last_bot_message(CHAT_ID).text == "Аня пропускает игрока Борис — его место занимает компьютер."
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and game.names == ["Аня", "🤖 Борис"]
    if game.status == "running":
        assert current_player_name(table.caption) == "Аня"
    # the old button is stale now: nothing changes
    answer = await runner.press_data(users["anya"], table, cb.kick(game_id, kick_version))
    assert answer["text"] == "Кнопка устарела."
    again = await flow_of(runner).store.game(game_id)
    assert again is not None and again.version == game.version and again.names == game.names


async def test_the_job_queue_runs_a_due_deadline(world) -> None:
    """The wiring: a job armed on PTB's JobQueue calls the flow, which plays the timed-out turn."""
    _, runner, users = world
    table = await start_for_two(runner, users, "spichki")
    game_id = game_id_of(table)
    flow = flow_of(runner)
    game = await flow.store.game(game_id)
    assert game is not None and game.deadline is not None
    later(flow, game.deadline - flow.clock() + 1)
    done = asyncio.Event()
    played: list[bool] = []
    on_deadline = flow.on_deadline

    async def watched(gid: int) -> bool:
        played.append(await on_deadline(gid))
        done.set()
        return played[-1]

    flow.on_deadline = watched  # type: ignore[method-assign]
    assert runner.app is not None
    arm_deadline(runner.app, game_id, 0.0)
    await asyncio.wait_for(done.wait(), 10)
    assert played == [True]
    assert "время вышло — ход сделал бот (1 из 3)" in table.caption
