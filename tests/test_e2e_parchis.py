"""End to end: four users in a supergroup play «Парчис» through the fake Bot API."""

from __future__ import annotations

import pytest

from engines.parchis import ENGINE
from tests.bot_harness import CHAT_ID, game_id_of, play_to_end, stored_state

PLAYERS = ("anya", "boris", "vera", "gleb")


pytestmark = pytest.mark.world(first_seed=5)  # group_world's arguments (tests/conftest.py)


async def test_four_players_play_to_the_end(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame parchis")
    lobby = runner.table()
    assert "Игроки (1/4)" in lobby.caption and "выход на 5" in lobby.caption
    for name in PLAYERS[1:]:
        await runner.press(users[name], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)
    assert table.caption.startswith("🎲 Парчис · испанские правила")
    captions = await play_to_end(runner, table, ENGINE, [users[p] for p in PLAYERS], seed=9)
    log = "\n".join(captions)
    for phrase in ("выводит фишку", "рубит фишку", "+20", "в центре, +10", "шестёрка идёт за 7"):
        assert phrase in log, phrase
    state = await stored_state(runner, ENGINE, game_id)
    winner = ("Аня", "Борис", "Вера", "Глеб")[state.winner]
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and f"{winner} заводит все четыре фишки в центр и побеждает!" in result.text
    assert table.buttons == []


async def test_rules_of_parchis(world) -> None:
    tg, runner, users = world
    await runner.say(users["boris"], "/rules parchis")
    text = tg.last_bot_message(CHAT_ID).text
    assert text is not None and text.startswith("Парчис (испанские правила)") and "+20" in text
