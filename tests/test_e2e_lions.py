"""End to end: «Охота на львов» through the fake Bot API — two members building turns step by
step, and one member against the computer."""

from __future__ import annotations

import random

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from engines.lions import ENGINE, LionsState
from engines.lions_ai import LEVELS
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, game_id_of, stored_state

pytestmark = pytest.mark.world(first_seed=21, count=3)  # group_world's arguments (tests/conftest.py)


def codes(table: StoredMessage) -> list[str]:
    return [data.rsplit(":", 1)[1] for _, data in table.buttons]


async def press_code(runner: BotRunner, user: FakeUser, table: StoredMessage, code: str) -> dict:
    """Press the button of action ``code``; exactly one edit of the table follows."""
    data = next(d for _, d in table.buttons if d.rsplit(":", 1)[1] == code)
    edits = table.edit_count
    answer = await runner.press_data(user, table, data)
    assert table.edit_count == edits + 1, answer
    return answer


async def checked_state(runner: BotRunner, table: StoredMessage) -> LionsState:
    """The stored state; the keyboard offers exactly its legal actions."""
    state = await stored_state(runner, ENGINE, game_id_of(table))
    assert codes(table) == [a.code for a in ENGINE.legal_actions(state)]
    return state


async def open_lobby(runner: BotRunner, tg, user: FakeUser) -> StoredMessage:
    await runner.say(user, "/newgame lions")
    return runner.table()


async def test_two_members_build_turns_step_by_step(world) -> None:
    tg, runner, users = world
    anya, boris, vera = users["anya"], users["boris"], users["vera"]
    lobby = await open_lobby(runner, tg, anya)
    assert "🦁 Львы: Аня · 🏹 Охотники: ждём игрока" in lobby.caption.splitlines()
    assert any("Играть с ботом" in label for label, _ in lobby.buttons)
    answer = await runner.press(boris, lobby, "Поменять стороны")
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(boris, lobby, "Играю")
    await runner.press(anya, lobby, "Поменять стороны")
    assert "🦁 Львы: Борис · 🏹 Охотники: Аня" in lobby.caption.splitlines()
    await runner.press(anya, lobby, "Начать")
    table = runner.table()
    assert table.caption.startswith("🦁 Охота на львов · поле восстановлено по описанию")
    assert "🦁 Борис: 6/6 · 🏹 Аня: 6/6" in table.caption
    players = {0: anya, 1: boris}

    # the first turn: pick, step, see it, undo it; the other player cannot touch it
    state = await checked_state(runner, table)
    mover, other = players[state.turn], players[1 - state.turn]
    pick = next(c for c in codes(table) if c.startswith("p"))
    await press_code(runner, mover, table, pick)
    state = await checked_state(runner, table)
    step = next(c for c in codes(table) if c.startswith("s"))
    await press_code(runner, mover, table, step)
    assert "осталось 2 шага" in table.caption
    answer = await runner.press_data(other, table, table.button("Готово"))
    assert answer["text"].startswith("Сейчас ходит")
    answer = await runner.press_data(vera, table, table.button("Готово"))
    assert answer["text"].startswith("Сейчас ходит")
    await press_code(runner, mover, table, "u")
    state = await checked_state(runner, table)
    assert state.segments == ((int(pick[1:]),),) and "Ход:" not in table.caption

    # both members play at random (seeded), button by button, until a piece is taken
    rng = random.Random(3)
    presses = 0
    while "взят" not in table.caption:
        state = await checked_state(runner, table)
        choices = [c for c in codes(table) if c not in ("x", "o", "u")]
        await press_code(runner, players[state.current_player], table, rng.choice(choices))
        presses += 1
        assert presses < 1500, table.caption  # the sides start five circles apart (engines/lions_board.py)

    # a draw offer, declined; the offerer goes on and cannot offer again this turn
    state = await checked_state(runner, table)
    offerer, answerer = players[state.turn], players[1 - state.turn]
    await press_code(runner, offerer, table, "o")  # it asks first (lions.md), then offers
    await runner.press(offerer, table, "🤝 Да, предложить")
    assert "предлагает ничью" in table.caption
    answer = await runner.press_data(offerer, table, table.button("Принять ничью"))
    assert answer["text"].startswith("Сейчас ходит")
    await press_code(runner, answerer, table, "n")
    assert "играет дальше" in table.caption
    state = await checked_state(runner, table)
    assert state.current_player == state.turn and "o" not in codes(table)

    await press_code(runner, offerer, table, "x")  # «Сдаться» asks first: one stray tap must not lose
    assert "🏳 Да, сдаюсь" in [label for label, _ in table.buttons]
    await runner.press(offerer, table, "🏳 Да, сдаюсь")
    assert table.buttons == []
    result = tg.last_bot_message(CHAT_ID)
    winner = "Аня" if offerer is boris else "Борис"
    assert result.text is not None and f"🏆 {winner}" in result.text and "соперник сдался" in result.text


async def test_a_member_plays_the_computer(world) -> None:
    tg, runner, users = world
    anya, boris = users["anya"], users["boris"]
    lobby = await open_lobby(runner, tg, anya)
    answer = await runner.press(boris, lobby, "Играть с ботом")
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(anya, lobby, "Играть с ботом")
    table = runner.table()
    assert "🤖 Кеша" in table.caption and "🤖 Бот" not in table.caption  # named as every game names its computers
    game_id = game_id_of(table)
    rng = random.Random(5)
    presses = 0
    while table.buttons:
        state = await checked_state(runner, table)
        assert state.current_player == 0  # the computer has always moved already
        if presses % 10 == 0:  # a member who is not playing changes nothing
            edits = table.edit_count
            answer = await runner.press_data(boris, table, table.buttons[0][1])
            assert answer["text"] == "Сейчас ходит Аня." and table.edit_count == edits
        # Аня plays at random (never resigning or offering a draw)
        choices = [c for c in codes(table) if c not in ("x", "o", "u")]
        await press_code(runner, anya, table, rng.choice(choices))
        presses += 1
        assert presses < 1500
    state = await stored_state(runner, ENGINE, game_id)
    assert state.finished and state.winner == 1  # the computer beats random play
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and "🏆 🤖 Кеша" in result.text


async def test_the_host_chooses_the_computers_level_and_the_computer_plays_it(world) -> None:
    """«🤖 Уровень бота» in the lobby cycles Средний → Сильный → Лёгкий (host only),
    and the computer then plays that level's turns (engines/lions_ai.py ``LEVELS``), not the default's."""
    tg, runner, users = world
    anya, boris = users["anya"], users["boris"]
    lobby = await open_lobby(runner, tg, anya)
    assert "🤖 Уровень бота: Средний" in [label for label, _ in lobby.buttons]
    answer = await runner.press(boris, lobby, "Уровень бота")
    assert answer["text"] == "Это может только хост (или админ)."
    assert "🤖 Уровень бота: Средний" in [label for label, _ in lobby.buttons]
    answer = await runner.press(anya, lobby, "Уровень бота")
    assert answer["text"] == "Бот играет на уровне «Сильный»."
    answer = await runner.press(anya, lobby, "Уровень бота")
    assert answer["text"] == "Бот играет на уровне «Лёгкий»."
    assert "🤖 Уровень бота: Лёгкий" in [label for label, _ in lobby.buttons]
    forged = lobby.button("Уровень бота").replace(":level", ":levels")
    answer = await runner.press_data(anya, lobby, forged)
    assert "🤖 Уровень бота: Лёгкий" in [label for label, _ in lobby.buttons]  # a forged button changes nothing
    await runner.press(anya, lobby, "Играть с ботом")
    table = runner.table()
    game_id = game_id_of(table)
    rng = random.Random(9)
    differs = 0
    for _ in range(8):
        state = await checked_state(runner, table)
        if state.finished:
            break
        assert state.current_player == 0
        mine = state
        while mine.current_player == 0 and not mine.finished:  # Аня's whole turn, at random
            code = rng.choice([a.code for a in ENGINE.legal_actions(mine) if a.code not in ("x", "o", "u")])
            mine, _, _ = ENGINE.apply(mine, code)
            await press_code(runner, anya, table, code)
        if mine.finished:
            break
        expected = mine
        for code in LEVELS["easy"].plan(mine):
            expected, _, _ = ENGINE.apply(expected, code)
        other = mine
        for code in LEVELS["medium"].plan(mine):
            other, _, _ = ENGINE.apply(other, code)
        stored = await stored_state(runner, ENGINE, game_id)
        assert (stored.lions, stored.hunters) == (expected.lions, expected.hunters)
        differs += (other.lions, other.hunters) != (expected.lions, expected.hunters)
    assert differs  # the levels played differently here, so the stored turns show which one played


async def two_at_the_table(runner: BotRunner, tg, users: dict[str, FakeUser]) -> StoredMessage:
    """Аня opens «Охота на львов», Борис joins, Аня starts: the table."""
    lobby = await open_lobby(runner, tg, users["anya"])
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    return runner.table()


def texts_since(tg, count: int) -> list[str]:
    """The texts of the bot's messages after its first ``count`` (the table pictures have none)."""
    return [m.text for m in tg.bot_messages(CHAT_ID)[count:] if m.text]


@pytest.mark.parametrize("command", ["/leave", "/kick"])
async def test_the_line_that_explains_a_departure_comes_before_the_result(world, command: str) -> None:
    """Leaving «Охота на львов» (or being skipped) resigns: «🏳 Борис выходит из игры и сдаётся.» is posted
    first, then the result it brings, never the other way round."""
    tg, runner, users = world
    table = await two_at_the_table(runner, tg, users)
    leaver = current_player_name(table.caption) if command == "/kick" else "Борис"
    winner = "Борис" if leaver == "Аня" else "Аня"
    before = len(tg.bot_messages(CHAT_ID))
    await runner.say(users["boris" if command == "/leave" else "anya"], command)
    said = texts_since(tg, before)
    assert said[0] == f"🏳 {leaver} выходит из игры и сдаётся."
    assert len(said) == 2 and f"🏆 {winner}" in said[1] and "соперник сдался" in said[1]
    assert table.buttons == []
