"""Leaving a running game, through the fake Bot API: /leave says «Борис вышел —
за него доигрывает компьютер», the log's earlier lines still name Борис as he played them, a second
/leave is told he left already, and «Ещё раунд» leaves his seat to a person: a new lobby in which he
(or anyone) takes it with «Играю» — and Борис himself may press «Ещё раунд», as one who played.
"""

from __future__ import annotations

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, flow_of, game_id_of
from tests.clock_steps import boris_times_out_three_times

MAX_PRESSES = 2000
LEFT = "Борис вышел — за него доигрывает компьютер."


pytestmark = pytest.mark.world(first_seed=300, count=4)  # group_world's arguments (tests/conftest.py)


async def three_at_matches(runner: BotRunner, users: dict[str, FakeUser]) -> StoredMessage:
    """Аня opens «Спички», Борис and Вера join, Аня starts; the table."""
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["vera"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    return runner.table()


async def press_on(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage) -> None:
    """The person the caption names presses the first button."""
    by_name = {u.first_name: u for u in users.values()}
    await runner.press(by_name[current_player_name(table.caption)], table, table.buttons[0][0])


def log_lines_naming(caption: str, name: str) -> list[str]:
    """The caption's log lines that name ``name`` («Цель: 2 и 4 · Борис: 4–5 → +1 спичка, бросает Вера»;
    the status line «Аня: 0 · Борис: 0» is not one)."""
    return [line for line in caption.splitlines()
            if "→" in line and (f"· {name}:" in line or f"бросает {name}" in line)]


async def boris_leaves_after_his_move(runner: BotRunner, users: dict[str, FakeUser],
                                      table: StoredMessage) -> list[str]:
    """Play until Вера is to move right after Борис moved (his line is in the log), then Борис
    /leave; returns the log lines that named him before he left."""
    for _ in range(MAX_PRESSES):
        if current_player_name(table.caption) == "Вера" and log_lines_naming(table.caption, "Борис"):
            break
        await press_on(runner, users, table)
    else:
        pytest.fail("Вера was never to move after Борис")
    before = log_lines_naming(table.caption, "Борис")
    await runner.say(users["boris"], "/leave")
    assert runner.tg.last_bot_message(CHAT_ID).text == LEFT
    return before


async def play_out(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage) -> StoredMessage:
    """The people play the game to its end (the computer plays Борис's seat); the result message."""
    for _ in range(MAX_PRESSES):
        if not table.buttons:
            break
        assert current_player_name(table.caption) != "🤖 Борис"  # the computer is never waited for
        await press_on(runner, users, table)
    return next(m for m in reversed(runner.tg.bot_messages(CHAT_ID)) if m.buttons and "Ещё раунд" in m.buttons[0][0])


async def test_leaving_says_so_and_the_log_keeps_his_past_lines(world) -> None:
    _, runner, users = world
    table = await three_at_matches(runner, users)
    game_id = game_id_of(table)
    before = await boris_leaves_after_his_move(runner, users, table)
    after = table.caption.splitlines()
    assert all(line in after for line in before), (before, table.caption)  # his moves are still his
    assert not log_lines_naming(table.caption, "🤖 Борис")  # nothing he did is the computer's
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and game.names == ["Аня", "🤖 Борис", "Вера"]  # from now on the computer plays
    await runner.say(users["boris"], "/leave")  # again: he left already
    assert runner.tg.last_bot_message(CHAT_ID).text == "Вы уже вышли из этой партии — за вас доигрывает компьютер."
    await runner.say(users["gleb"], "/leave")  # never played
    assert runner.tg.last_bot_message(CHAT_ID).text == "Вы не играете в этой партии."
    # the computer's own moves go under its name
    while table.buttons and not log_lines_naming(table.caption, "🤖 Борис"):
        await press_on(runner, users, table)
    assert log_lines_naming(table.caption, "🤖 Борис") or not table.buttons


async def test_the_rematch_opens_a_lobby_with_his_seat_free(world) -> None:
    _, runner, users = world
    table = await three_at_matches(runner, users)
    await boris_leaves_after_his_move(runner, users, table)
    result = await play_out(runner, users, table)
    messages = len(runner.tg.bot_messages(CHAT_ID))
    answer = await runner.press(users["anya"], result, "Ещё раунд")
    assert answer["text"] == "Новое лобби: место того, кто вышел, свободно — любой может сесть, нажав «Играю»."
    lobby = runner.table()
    assert lobby.message_id != table.message_id and len(runner.tg.bot_messages(CHAT_ID)) > messages
    assert "1. Аня\n2. Вера" in lobby.caption and "Борис" not in lobby.caption
    assert any(label.endswith("Играю") for label, _ in lobby.buttons)  # a lobby, not a table
    game = await flow_of(runner).store.game(game_id_of(lobby))
    assert game is not None and game.status == "lobby" and [s.user_id for s in game.seats] == [1, 3]
    await runner.press(users["boris"], lobby, "Играю")  # he takes a seat again, as a person
    assert "1. Аня\n2. Вера\n3. Борис" in lobby.caption
    await runner.press(users["anya"], lobby, "Начать")
    game = await flow_of(runner).store.game(game.id)
    assert game is not None and game.status == "running" and game.names == ["Аня", "Вера", "Борис"]
    assert all(s.user_id > 0 for s in game.seats)


async def test_he_may_press_the_rematch_himself_and_sits_down_again(world) -> None:
    _, runner, users = world
    table = await three_at_matches(runner, users)
    await boris_leaves_after_his_move(runner, users, table)
    result = await play_out(runner, users, table)
    answer = await runner.press(users["gleb"], result, "Ещё раунд")  # never played
    assert answer["text"] == "Ещё раунд могут начать только игроки этой партии."
    answer = await runner.press(users["boris"], result, "Ещё раунд")
    assert answer["text"].startswith("Новое лобби")  # not «only the players of that game»
    lobby = runner.table()
    assert "1. Аня\n2. Борис\n3. Вера" in lobby.caption
    game = await flow_of(runner).store.game(game_id_of(lobby))
    assert game is not None and game.status == "lobby" and game.host_id == 1  # Аня still hosts
    assert [(s.user_id, s.name) for s in game.seats] == [(1, "Аня"), (2, "Борис"), (3, "Вера")]  # no computer


async def test_a_rematch_nobody_left_goes_straight_to_the_table(world) -> None:
    _, runner, users = world
    table = await three_at_matches(runner, users)
    result = await play_out(runner, users, table)
    await runner.press(users["anya"], result, "Ещё раунд")  # the host's press (another's opens a lobby)
    again = runner.table()
    game = await flow_of(runner).store.game(game_id_of(again))
    assert game is not None and game.status == "running" and game.names == ["Аня", "Борис", "Вера"]


async def test_three_timeouts_keep_his_last_lines_his(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()

    async def anya_turn() -> None:
        await runner.press(users["anya"], table, table.buttons[0][0])

    await boris_times_out_three_times(runner, table, anya_turn)
    # the third timed-out turn was still his: the computer played it for him, then took the seat
    assert "⏱ Борис: время вышло — ход сделал бот (3 из 3)." in table.caption.splitlines()
    assert "🤖 Борис: три пропуска подряд — дальше за этого игрока играет бот." in table.caption
    assert "⏱ 🤖 Борис" not in table.caption
