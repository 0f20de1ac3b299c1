"""End to end: four users in a supergroup play «Людо» through the fake Bot API."""

from __future__ import annotations

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from engines.ludo import ENGINE
from tests.bot_harness import CHAT_ID, BotRunner, game_id_of, play_to_end, stored_state

PLAYERS = ("anya", "boris", "vera", "gleb")


pytestmark = pytest.mark.world(first_seed=11, count=5)  # group_world's arguments (tests/conftest.py)


async def open_table(runner: BotRunner, users: dict[str, FakeUser], bonuses: bool) -> StoredMessage:
    await runner.say(users["anya"], "/newgame")
    await runner.press(users["anya"], runner.tg.last_bot_message(CHAT_ID), "Людо")
    lobby = runner.table()
    assert "Вариант: классика" in lobby.caption and "Игроки (1/4)" in lobby.caption
    for name in PLAYERS[1:]:
        await runner.press(users[name], lobby, "Играю")
    answer = await runner.press(users["dima"], lobby, "Играю")  # a fifth player: no seat left
    assert answer["text"] == "Мест нет: максимум 4."
    if bonuses:
        await runner.press(users["anya"], lobby, "Вариант: ")
        assert "Вариант: с бонусами" in lobby.caption
    await runner.press(users["anya"], lobby, "Начать")
    return runner.table()


@pytest.mark.parametrize("bonuses", [False, True])
async def test_four_players_play_to_the_end(world, bonuses: bool) -> None:
    tg, runner, users = world
    table = await open_table(runner, users, bonuses)
    game_id = game_id_of(table)
    assert len(table.buttons) > 1  # the fast table: the throws and only moves up to a real choice, in one update
    # the log of that run, oldest lines dropped only when the caption is full
    assert "Жребий: начинает" in table.caption or len(table.caption) > 900
    captions = await play_to_end(runner, table, ENGINE, [users[p] for p in PLAYERS], seed=3)
    log = "\n".join(captions)
    assert "выводит фишку" in log and "в центре" in log and "рубит фишку" in log
    if bonuses:
        assert "бонус — бросает ещё" in log
    state = await stored_state(runner, ENGINE, game_id)
    winner = ("Аня", "Борис", "Вера", "Глеб")[state.winner]
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and f"{winner} заводит все четыре фишки в центр и побеждает!" in result.text
    assert table.buttons == []
    assert [label for label, _ in result.buttons] == ["🔁 Ещё раунд", "🔎 Проверить кости", "🎬 Повтор"]


async def test_only_the_player_to_move_may_choose(world) -> None:
    _, runner, users = world
    table = await open_table(runner, users, bonuses=False)
    game_id = game_id_of(table)
    names = ("Аня", "Борис", "Вера", "Глеб")
    for _ in range(400):  # roll until someone has a choice to make
        state = await stored_state(runner, ENGINE, game_id)
        if len(table.buttons) > 1:
            break
        await runner.press(users[PLAYERS[state.turn]], table, table.buttons[0][0])
    else:
        pytest.fail("no choice came up")
    assert all(len(row) == 1 for row in table.inline_keyboard)  # long labels get a row each
    other = users[PLAYERS[(state.turn + 1) % 4]]
    edits = table.edit_count
    answer = await runner.press(other, table, table.buttons[-1][0])
    assert answer["text"] == f"Сейчас ходит {names[state.turn]}." and table.edit_count == edits
