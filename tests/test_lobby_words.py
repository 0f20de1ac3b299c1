"""Each lobby speaks of its own game: «Охота на львов», a game without dice for
exactly two, shows who plays which side, «нужны 2 игрока», no dice and no dice commitment; a dice
game's lobby still shows its commitment line. Through the fake Bot API."""

from __future__ import annotations

import pytest

from engines.base import seed_commitment
from tests.bot_harness import flow_of, game_id_of

pytestmark = pytest.mark.world(first_seed=70, count=3)  # group_world's arguments (tests/conftest.py)


async def test_the_lions_lobby_names_the_sides_and_has_no_dice(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame lions")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    caption = lobby.caption or ""
    lines = caption.splitlines()
    assert lines[0] == "🦁 Охота на львов"
    assert "🦁 Львы: Аня · 🏹 Охотники: Борис" in lines
    assert lines[-1] == "Жмите «Играю», чтобы сесть за стол: нужны 2 игрока."
    for dice_words in ("🎲", "Кости", "sha256", "от 2 до 2", "игрок 1", "игрок 2", "Игроки ("):
        assert dice_words not in caption, dice_words
    await runner.press(users["anya"], lobby, "Поменять стороны")
    assert "🦁 Львы: Борис · 🏹 Охотники: Аня" in (lobby.caption or "").splitlines()
    await runner.press(users["boris"], lobby, "Выйти")
    assert not any("Начать" in text for text, _ in lobby.buttons)
    answer = await runner.press_data(users["anya"], lobby, f"l:{lobby.button('Играю').split(':')[1]}:start")
    assert answer["text"] == "Нужны 2 игрока."


async def test_a_dice_games_lobby_still_shows_its_commitment(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    game = await flow_of(runner).store.game(game_id_of(lobby))
    assert game is not None
    lines = (lobby.caption or "").splitlines()
    assert lines[0] == "🎲 Помоги своему соседу"
    assert any(seed_commitment(game.seed) in line and "Кости" in line for line in lines)
    assert "Игроки (1/6):" in lines and "1. Аня" in lines
    assert lines[-1] == "Жмите «Играю», чтобы сесть за стол. Хост начинает, когда игроков от 2 до 6."
