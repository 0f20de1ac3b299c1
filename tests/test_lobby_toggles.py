"""The lobby speaks one way, through the fake Bot API: every toggle shows what is set now, as the caption
does («Быстрый заряд: нет» under «Быстрый заряд: нет», never «вкл»), and a press answers with what it
changed («Фишки: 15», not «Настройка изменена.»); /set takes an option and its values by the names the
bot shows them by (/set mode башня, /set фишки 20) and says so when the variant chosen ignores the option
(/set tower 10 in «наоборот»: nothing changes); the caption shows how the table plays (⏱, 🔔, 🎲 and the
computer's level), and «🤖 Уровень бота» appears once a computer sits at the table."""

from __future__ import annotations

from typing import Any

import pytest

from bot.fake_telegram import StoredMessage
from bot.games import GAMES
from tests.bot_harness import CHAT_ID, BotRunner, flow_of, game_id_of

pytestmark = pytest.mark.world(first_seed=700, count=3)  # group_world's arguments (tests/conftest.py)


async def options_of(runner: BotRunner, lobby: StoredMessage) -> Any:
    game = await flow_of(runner).store.game(game_id_of(lobby))
    assert game is not None
    return GAMES[game.code].engine.options_from_json(game.options)


# each toggle of each game: the label it shows now, what a press answers (and the toggle then shows), and
# the caption's line after it; pressed in turn, round to where each began
TOGGLES = {
    "sosedi": [("Вариант: классика", "Вариант: наоборот", "Вариант: наоборот"),
               ("Бросающий: платит", "Бросающий: не платит", "Бросающий за свои числа не платит"),
               ("Вариант: наоборот", "Вариант: Башня", "Вариант: Башня"),
               ("Вариант: Башня", "Вариант: классика", "Вариант: классика"),
               ("Бросающий: не платит", "Бросающий: платит", "Бросающий платит и за свои числа")],
    "spichki": [("Дубль числа цели: +2 спички", "Дубль числа цели: +1 спичка", "Дубль числа цели: +1 спичка"),
                ("Дубль числа цели: +1 спичка", "Дубль числа цели: +2 спички", "Дубль числа цели: +2 спички")],
    "tishe": [("Вариант: до 100 одной фишкой", "Вариант: обе фишки до 100", "Побеждает: обе фишки до 100"),
              ("Вариант: обе фишки до 100", "Вариант: до 100 одной фишкой", "Побеждает: до 100 одной фишкой")],
    "ludo": [("Вариант: классика", "Вариант: с бонусами", "Вариант: с бонусами"),
             ("Вариант: с бонусами", "Вариант: классика", "Вариант: классика")],
    "shishbesh": [("Поле: обычное", "Поле: длинное", "Поле: длинное поле"),
                  ("Быстрый заряд: нет", "Быстрый заряд: да", "Быстрый заряд: три броска на выход"),
                  ("Избушки: напротив", "Избушки: через один", "Избушки: через один"),
                  ("Выход из парка: на шестёрку", "Выход из парка: на дубль", "Выход из парка: на дубль"),
                  ("Выход из парка: на дубль", "Выход из парка: на шестёрку или дубль",
                   "Выход из парка: на шестёрку или дубль"),
                  ("Выход из парка: на шестёрку или дубль", "Выход из парка: на шестёрку",
                   "Выход из парка: на шестёрку"),
                  ("Быстрый заряд: да", "Быстрый заряд: нет", "Быстрый заряд: нет")],
    "lions": [("Ничья без взятий: 100", "Ничья без взятий: выкл",
               "🤝 Ничьей по затишью нет, только при двух фигурах и меньше"),
              ("Ничья без взятий: выкл", "Ничья без взятий: 100", "🤝 Ничья после 100 ходов подряд без взятий")],
}


@pytest.mark.parametrize("code", list(TOGGLES))
async def test_every_toggle_shows_the_value_set_now_and_a_press_says_what_changed(world, code: str) -> None:
    """(«⇄ Поменять стороны» is no toggle: it says what it does, and the caption shows the sides.)"""
    _, runner, users = world
    await runner.say(users["anya"], f"/newgame {code}")
    lobby = runner.table()
    for shown, answered, line in TOGGLES[code]:
        labels = [label for label, _ in lobby.buttons]
        assert shown in labels, (shown, labels)  # what is set now, not what a press would set
        answer = await runner.press(users["anya"], lobby, shown)
        assert answer["text"] == answered  # what changed, not «Настройка изменена.»
        assert answered in [label for label, _ in lobby.buttons] and shown not in [label for label, _ in lobby.buttons]
        assert line in lobby.caption.splitlines(), (line, lobby.caption)


async def test_a_step_says_the_new_value(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    answer = await runner.press(users["anya"], lobby, "Фишки +5")
    assert answer["text"] == "Фишки: 15" and "Фишек у каждого: 15" in lobby.caption
    await runner.say(users["anya"], "/set chips 20")  # /set answers as the press does
    assert runner.tg.last_bot_message(CHAT_ID).text == "Фишки: 20"


# /set with the names the bot shows (any case, «ё» or «е»): the option's, then the value's
NAMED = [("sosedi", "/set mode башня", "mode", "tower"), ("sosedi", "/set Вариант классика", "mode", "classic"),
         ("sosedi", "/set фишки 20", "chips", 20), ("sosedi", "/set бросающий не платит", "roller_immune", True),
         ("sosedi", "/set mode наоборот", "mode", "reverse"),
         ("spichki", "/set до победы 15", "goal", 15), ("spichki", "/set double_hit +1 спичка", "double_hit", 1),
         ("spichki", "/set спичек в кучу от игрока 12", "per_player", 12),
         ("tishe", "/set вариант обе фишки до 100", "both_home", True),
         ("shishbesh", "/set поле длинное", "board", "long"), ("shishbesh", "/set избушки через один", "shelters",
                                                                "staggered"),
         ("shishbesh", "/set ВЫХОД ИЗ ПАРКА на шестерку или дубль", "start", "six_or_double"),
         ("shishbesh", "/set быстрый заряд да", "fast_charge", True),
         ("ludo", "/set вариант с бонусами", "bonuses", True),
         ("lions", "/set львами играет второй за столом", "lions_seat", 1),
         ("lions", "/set ничья без взятий выкл", "quiet_draw", 0)]


@pytest.mark.parametrize(("code", "command", "key", "value"), NAMED)
async def test_set_takes_options_and_values_by_their_names(world, code: str, command: str, key: str,
                                                           value: Any) -> None:
    _, runner, users = world
    await runner.say(users["anya"], f"/newgame {code}")
    lobby = runner.table()
    await runner.say(users["anya"], command)
    reply = runner.tg.last_bot_message(CHAT_ID).text
    assert getattr(await options_of(runner, lobby), key) == value, reply


async def test_set_mode_bashnya_and_an_option_the_variant_ignores(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    await runner.say(users["anya"], "/set mode башня")
    assert tg.last_bot_message(CHAT_ID).text == "Вариант: Башня"
    assert "Вариант: Башня" in lobby.caption
    await runner.say(users["anya"], "/set вариант наоборот")
    assert (await options_of(runner, lobby)).mode == "reverse"
    before = await options_of(runner, lobby)
    await runner.say(users["anya"], "/set tower 10")  # «наоборот» has no tower: said, and nothing changed
    assert tg.last_bot_message(CHAT_ID).text == ("Башня — только в варианте «Башня», а сейчас «наоборот»: ничего "
                                                 "не изменено. Сменить вариант: /set mode tower")
    assert await options_of(runner, lobby) == before
    await runner.say(users["anya"], "/set mode tower")
    await runner.say(users["anya"], "/set tower 10")
    assert (await options_of(runner, lobby)).tower == 10 and "В башне: 10 подставок" in lobby.caption
    await runner.say(users["anya"], "/set фишки 20")  # the tower has no chips
    assert tg.last_bot_message(CHAT_ID).text.startswith("Фишки — только в вариантах «классика» или «наоборот»")
    assert (await options_of(runner, lobby)).chips == before.chips
    await runner.say(users["anya"], "/set бросающий не платит")
    assert (await options_of(runner, lobby)).roller_immune is True
    assert tg.last_bot_message(CHAT_ID).text == "Бросающий: не берёт"  # in the tower: coasters, not paying


async def test_the_caption_shows_how_the_table_plays(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    assert "⏱ 3 мин на ход · 🔔 напомнит через 30 с · 🎲 быстрый стол" in lobby.caption.splitlines()
    await runner.press(users["anya"], lobby, "⏱ Таймер хода")
    await runner.press(users["anya"], lobby, "🔔 Напоминание")
    await runner.press(users["anya"], lobby, "🎲 Стол")
    assert "⏱ 10 мин на ход · 🔔 напомнит через 60 с · 🎲 классический стол" in lobby.caption.splitlines()
    await runner.say(users["anya"], "/stop")
    await runner.say(users["anya"], "/newgame spichki")  # the roll is the turn: no fast table to show
    assert "⏱ 3 мин на ход · 🔔 напомнит через 30 с" in runner.table().caption.splitlines()


async def test_the_level_appears_once_a_computer_sits(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()

    def level_shown() -> tuple[bool, bool]:
        return (any("Уровень бота" in label for label, _ in lobby.buttons),
                any("🤖 уровень: " in line for line in lobby.caption.splitlines()))

    assert level_shown() == (False, False)
    await runner.press(users["boris"], lobby, "Играю")
    assert level_shown() == (False, False)
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    assert level_shown() == (True, True)
    await runner.press(users["anya"], lobby, "🤖 Уровень бота")
    assert "🤖 уровень: Сильный" in lobby.caption
    await runner.press(users["anya"], lobby, "Убрать бота")
    assert level_shown() == (False, False)
