"""End to end: four users in a supergroup play «Шиш-беш» through the fake Bot API."""

from __future__ import annotations

import pytest

from engines.shishbesh import ENGINE
from tests.bot_harness import CHAT_ID, game_id_of, play_to_end, stored_state

PLAYERS = ("anya", "boris", "vera", "gleb")


pytestmark = pytest.mark.world(first_seed=13)  # group_world's arguments (tests/conftest.py)


async def test_four_players_play_to_the_end(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame")
    await runner.press(users["anya"], tg.last_bot_message(CHAT_ID), "Шиш-беш")
    lobby = runner.table()
    assert "Поле: обычное поле" in lobby.caption and "Игроки (1/4)" in lobby.caption
    answer = await runner.press(users["boris"], lobby, "Поле: ")
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(users["anya"], lobby, "Быстрый заряд: нет")
    assert "Быстрый заряд: три броска на выход" in lobby.caption
    for name in PLAYERS[1:]:
        await runner.press(users[name], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)
    assert table.caption.startswith("🎲 Шиш-беш · обычное поле")
    captions = await play_to_end(runner, table, ENGINE, [users[p] for p in PLAYERS], seed=4)
    log = "\n".join(captions)
    for phrase in ("выводит фишку", "рубит фишку", "прячется в избушке", "выбирает ход", "быстрый заряд"):
        assert phrase in log, phrase
    state = await stored_state(runner, ENGINE, game_id)
    winner = ("Аня", "Борис", "Вера", "Глеб")[state.winner]
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and f"{winner} заводит все четыре фишки в домик и побеждает!" in result.text
    assert table.buttons == []
