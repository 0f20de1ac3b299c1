"""The lobby's «⏱» and «🔔» change this lobby's game only: its turn timer and
its turn ping are stored with the game; the chat's defaults (and so the next lobby) stay as /settings
has them. Through the fake Bot API; the turn pings' alarms are rung by hand."""

from __future__ import annotations

import pytest

from bot.flow.context import DEFAULT_PING, DEFAULT_TIMER
from tests.bot_harness import CHAT_ID, ManualAlarms, World, flow_of, game_id_of

pytestmark = pytest.mark.world(first_seed=90, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def world(world: World) -> tuple[World, ManualAlarms]:
    alarms = flow_of(world[1]).alarms = ManualAlarms()
    return world, alarms


def label(buttons: list[tuple[str, str]], mark: str) -> str:
    return next(text for text, _ in buttons if text.startswith(mark))


async def test_the_lobby_timer_is_this_games_and_the_chat_default_stays(world) -> None:
    (_, runner, users), _alarms = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "⏱ Таймер хода")  # 3 → 10 minutes, for this game
    assert label(lobby.buttons, "⏱") == "⏱ Таймер хода: 10 мин"
    assert (await flow.chat(CHAT_ID)).settings.turn_timer == DEFAULT_TIMER
    assert "turn_timer" not in (await flow.store.chat(CHAT_ID)).settings  # never written
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    game = await flow.store.game(game_id_of(lobby))
    assert game is not None and game.deadline is not None
    assert abs(game.deadline - (flow.clock() + 600)) < 5  # the game's 10 minutes, not the chat's 3
    await runner.say(users["anya"], "/stop")
    await runner.say(users["anya"], "/newgame ludo")  # the next lobby starts from the chat's default
    assert label(runner.table().buttons, "⏱") == "⏱ Таймер хода: 3 мин"
    await runner.say(users["anya"], "/settings")
    settings = runner.tg.last_bot_message(CHAT_ID)
    assert settings.text is not None and "⏱ Таймер хода: 3 мин" in settings.text.splitlines()


async def test_the_lobby_ping_is_this_games_and_the_chat_default_stays(world) -> None:
    (_, runner, users), alarms = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "🔔")  # 30 → 60 seconds, for this game
    assert label(lobby.buttons, "🔔") == "🔔 Напоминание о ходе: через 60 с"
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    when = alarms.when(("ping", game_id_of(lobby)))
    assert when is not None and abs(when - (flow.clock() + 60)) < 5
    assert (await flow.chat(CHAT_ID)).settings.ping == DEFAULT_PING
    await runner.say(users["anya"], "/stop")
    await runner.say(users["anya"], "/newgame ludo")
    assert label(runner.table().buttons, "🔔") == "🔔 Напоминание о ходе: через 30 с"


async def test_a_game_against_the_computer_plays_with_the_lobbys_timer(world) -> None:
    (_, runner, users), _alarms = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/newgame lions")
    lobby = runner.table()
    for _ in range(2):  # 3 → 10 → off
        await runner.press(users["anya"], lobby, "⏱ Таймер хода")
    await runner.press(users["anya"], lobby, "Играть с ботом")
    game = await flow.store.game(game_id_of(lobby))
    assert game is not None and game.deadline is None and game.options["table"] == {"turn_timer": 0}


async def test_the_level_is_stored_with_the_game_and_only_games_with_levels_offer_it(world) -> None:
    """«🤖 Уровень бота» is stored with the lobby's game (the chat's settings untouched,
    the next lobby back at «Средний»); a game whose computer has no levels («Спички»: the roll is all there
    is to a turn) shows no such button, and a forged press there changes nothing."""
    (_, runner, users), _alarms = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/newgame lions")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "🤖 Уровень бота")
    assert label(lobby.buttons, "🤖 Уровень") == "🤖 Уровень бота: Сильный"
    game = await flow.store.game(game_id_of(lobby))
    assert game is not None and game.options["table"] == {"level": "strong"}
    assert "level" not in (await flow.store.chat(CHAT_ID)).settings
    await runner.say(users["anya"], "/stop")
    await runner.say(users["anya"], "/newgame lions")
    assert label(runner.table().buttons, "🤖 Уровень") == "🤖 Уровень бота: Средний"
    await runner.say(users["anya"], "/stop")
    await runner.say(users["anya"], "/newgame spichki")
    spichki = runner.table()
    assert not [text for text, _ in spichki.buttons if "Уровень" in text]
    before = await flow.store.game(game_id_of(spichki))
    answer = await runner.press_data(users["anya"], spichki, f"l:{spichki.button('Играю').split(':')[1]}:level")
    assert answer["text"] == "Кнопка устарела."
    after = await flow.store.game(game_id_of(spichki))
    assert before is not None and after is not None and after.options == before.options


async def test_a_dice_games_computer_seats_play_the_level_the_host_picks(world) -> None:
    """«Людо»'s computer seats have the three levels: the host (nobody else) picks
    one, and it is stored with the game, for every computer seat of it."""
    (_, runner, users), _alarms = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    assert label(lobby.buttons, "🤖 Уровень") == "🤖 Уровень бота: Средний"
    answer = await runner.press(users["boris"], lobby, "🤖 Уровень бота")  # not the host: nothing changes
    assert label(lobby.buttons, "🤖 Уровень") == "🤖 Уровень бота: Средний" and answer["text"]
    for shown in ("Сильный", "Лёгкий"):
        await runner.press(users["anya"], lobby, "🤖 Уровень бота")
        assert label(lobby.buttons, "🤖 Уровень") == f"🤖 Уровень бота: {shown}"
    await runner.press(users["anya"], lobby, "Начать")
    game = await flow.store.game(game_id_of(lobby))
    assert game is not None and game.status == "running" and game.options["table"] == {"level": "easy"}
    assert sum(1 for seat in game.seats if seat.user_id < 0) == 2
