"""End to end: three users in a supergroup play «Тише едешь — дальше будешь» through the fake Bot API."""

from __future__ import annotations

import random

import pytest

from bot import callback_data as cb
from bot.fake_telegram import FakeUser, StoredMessage
from engines.tishe import ENGINE, TisheState
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name

MAX_PRESSES = 4000
GAME_IDS: dict[int, int] = {}  # table message id -> game id, read from the table's first button


pytestmark = pytest.mark.world(first_seed=3)  # group_world's arguments (tests/conftest.py)


async def stored_state(runner: BotRunner, table: StoredMessage) -> TisheState:
    """The game's state as the bot stored it (the game is the chat's latest)."""
    game = await runner.app.bot_data["flow"].store.game(GAME_IDS[table.message_id])
    assert game is not None and game.state is not None
    return ENGINE.state_from_json(game.state)


async def open_table(runner: BotRunner, users: dict[str, FakeUser], both_home: bool = False) -> StoredMessage:
    await runner.say(users["anya"], "/newgame")
    picker = runner.tg.last_bot_message(CHAT_ID)
    await runner.press(users["anya"], picker, "Тише едешь — дальше будешь")
    lobby = runner.table()
    assert "Побеждает: до 100 одной фишкой" in lobby.caption and "Игроки (1/6)" in lobby.caption
    for name in ("boris", "vera"):
        await runner.press(users[name], lobby, "Играю")
    if both_home:
        answer = await runner.press(users["boris"], lobby, "Вариант: ")
        assert answer["text"] == "Это может только хост (или админ)."
        await runner.press(users["anya"], lobby, "Вариант: ")
        assert "Побеждает: обе фишки до 100" in lobby.caption
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    assert table.message_id == lobby.message_id
    parsed = cb.parse(table.buttons[0][1])
    assert parsed is not None
    GAME_IDS[table.message_id] = parsed.game_id
    return table


@pytest.mark.parametrize("both_home", [False, True])
async def test_three_players_play_to_the_end(world, both_home: bool) -> None:
    tg, runner, users = world
    table = await open_table(runner, users, both_home)
    # the fast table's first update: the run up to a real choice, oldest lines dropped only when full
    assert "Жребий: начинает" in table.caption or len(table.caption) > 900
    by_name = {u.first_name: u for u in users.values()}
    rng = random.Random(5)
    presses, edits, choices, skips = 0, table.edit_count, 0, 0
    while table.buttons:
        state = await stored_state(runner, table)
        legal = ENGINE.legal_actions(state)
        # the keyboard offers exactly the legal choices, in order, one per row when they are moves
        assert [data.rsplit(":", 1)[1] for _, data in table.buttons] == [a.code for a in legal]
        mover = by_name[current_player_name(table.caption)]
        assert mover.first_name == ("Аня", "Борис", "Вера")[state.turn]
        labels = [label for label, _ in table.buttons]
        if len(labels) > 1:
            choices += 1
            assert all(label.startswith(("➕ Ввести фишку → ", "Фишка 1: ", "Фишка 2: ")) for label in labels)
            assert len(table.inline_keyboard) == len(labels)
            assert "выберите фишку" in table.caption
            if choices == 1:  # another player's press on a choice changes nothing
                other = by_name["Глеб"]
                answer = await runner.press(other, table, labels[0])
                assert answer["text"] == f"Сейчас ходит {mover.first_name}." and table.edit_count == edits
        else:  # the fast table: the bot rolls and plays an only move itself, so a press is always a choice
            pytest.fail(f"a table with one button: {labels}")
        await runner.press(mover, table, rng.choice(labels))
        presses += 1
        assert presses < MAX_PRESSES
        assert table.edit_count == edits + 1  # one edit per press
        edits = table.edit_count
        skips += table.caption.count("пропускает ход")
    result = tg.last_bot_message(CHAT_ID)
    state = await stored_state(runner, table)
    assert state.finished and state.winner is not None
    winner = ("Аня", "Борис", "Вера")[state.winner]
    expected = "приводит обе фишки к 100" if both_home else "первым доводит фишку до 100"
    assert result.text is not None and f"{winner} {expected} и побеждает!" in result.text
    assert choices == presses > 5


async def test_missed_turns_are_skipped_with_a_line(world) -> None:
    _, runner, users = world
    table = await open_table(runner, users)
    names = ("Аня", "Борис", "Вера")
    by_name = {u.first_name: u for u in users.values()}
    for _ in range(MAX_PRESSES):  # play until someone lands on a double number
        state = await stored_state(runner, table)
        if any(state.missed):
            break
        await runner.press(by_name[current_player_name(table.caption)], table, table.buttons[0][0])
    else:
        pytest.fail("nobody ever landed on a double number")
    seat = state.missed.index(2)
    assert "двойное число: пропуск 2 ходов" in table.caption
    while (await stored_state(runner, table)).missed[seat] and table.buttons:
        mover = current_player_name(table.caption)
        assert mover != names[seat]  # never asked to move while missing turns
        await runner.press(by_name[mover], table, table.buttons[0][0])
    if table.buttons:  # the press that passed the turn over them says so
        assert f"⏸ {names[seat]} пропускает ход" in table.caption.split("\n")


async def test_stale_roll_after_a_choice_is_refused(world) -> None:
    _, runner, users = world
    table = await open_table(runner, users)
    by_name = {u.first_name: u for u in users.values()}
    for _ in range(MAX_PRESSES):
        old = table.buttons[0][1]
        mover = by_name[current_player_name(table.caption)]
        await runner.press(mover, table, table.buttons[0][0])
        if len(table.buttons) > 1:
            break
    caption, edits = table.caption, table.edit_count
    mover = by_name[current_player_name(table.caption)]
    answer = await runner.press_data(mover, table, old)  # the roll button of a past turn
    assert answer["text"] == "Кнопка устарела."
    forged = table.buttons[0][1].rsplit(":", 1)[0] + ":m7"  # a checker that does not exist
    answer = await runner.press_data(mover, table, forged)
    assert answer["text"] == "Такой ход сейчас невозможен."
    assert (table.caption, table.edit_count) == (caption, edits)
