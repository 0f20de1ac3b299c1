"""/settings through the fake Bot API: the chat's defaults (language, turn timer, the table's
pace, each game's variant) in one message with buttons only admins may press, new lobbies
starting from them, and the fast table: the bot rolls for people and plays their only move, in
the same edit, up to a person's real choice (docs/players.md: the fast table).

In :func:`group_world` Аня created the chat (an admin); Борис and Вера are members.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Any

import pytest

from bot import callback_data as cb
from bot.fake_telegram import FakeUser, StoredMessage
from bot.flow.context import default_options
from bot.games import GAMES
from bot.store import LoggedAction
from bot.turns import only_choice
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    assert_replays,
    flow_of,
    game_id_of,
    start_against_a_bot,
    start_for_two,
    stored_state,
)
from tests.clock_steps import time_out
from tests.settings_steps import open_settings, stored

ADMINS_ONLY = "Это могут только администраторы чата."
STALE = "Кнопка устарела."


pytestmark = pytest.mark.world(first_seed=40, count=3)  # group_world's arguments (tests/conftest.py)


async def test_the_admin_sees_the_defaults_and_every_button_switches_one(world) -> None:
    _, runner, users = world
    message = await open_settings(runner, users["anya"])
    text = message.text
    assert text is not None
    for line in ("🌐 Язык: русский", "⏱ Таймер хода: 3 мин", "🎲 Стол: быстрый",
                 "Помоги своему соседу: классика", "Тише едешь — дальше будешь: до 100 одной фишкой",
                 "Шиш-беш: обычное поле", "Людо: классика"):
        assert line in text.splitlines(), text
    assert "«Помоги своему соседу», «Спички»" in text  # where the roll button stays, said so
    assert "Спички:" not in text and "Парчис:" not in text  # no variant to pick: no line, no button
    assert all(len(data.encode()) <= 64 and data.startswith("s:") for _, data in message.buttons)
    # each button shows the setting as it is now, as its line does; a press sets the next choice and says
    # what the setting is now, and the button shows that (one way of speaking, the lobby's too)
    assert [label for label, _ in message.buttons] == [
        "🌐 Язык: русский", "⏱ Таймер хода: 3 мин", "🔔 Напоминание о ходе: через 30 с", "🎲 Стол: быстрый",
        "🧹 Убирать за собой: вкл.", "🕒 Часовой пояс: Москва (UTC+3)", "Помоги своему соседу: классика",
        "Тише едешь: до 100 одной фишкой", "Шиш-беш: обычное поле", "Людо: классика"]
    presses = [("⏱ Таймер хода: 3 мин", "⏱ Таймер хода: 10 мин"),
               ("🎲 Стол: быстрый", "🎲 Стол: классический"),
               ("Помоги своему соседу: классика", "Помоги своему соседу: наоборот"),
               ("Помоги своему соседу: наоборот", "Помоги своему соседу: Башня"),
               ("Тише едешь: до 100 одной фишкой", "Тише едешь — дальше будешь: обе фишки до 100"),
               ("Шиш-беш: обычное поле", "Шиш-беш: длинное поле"),
               ("Людо: классика", "Людо: с бонусами"),
               ("🎲 Стол: классический", "🎲 Стол: быстрый")]
    for label, line in presses:
        edits = message.edit_count
        answer = await runner.press(users["anya"], message, label)
        assert answer["text"] == line  # what changed, not «Настройка изменена.»
        assert message.edit_count == edits + 1  # edited in place, once
        assert message.text is not None and line in message.text.splitlines(), (label, message.text)
        assert label not in [text for text, _ in message.buttons]  # the button shows the new state
    _, settings = await stored(runner)
    assert settings["turn_timer"] == 10 and settings["pace"] == "fast"
    assert settings["defaults"] == {"sosedi": {"mode": "tower"}, "tishe": {"both_home": True},
                                    "shishbesh": {"board": "long"}, "ludo": {"bonuses": True}}
    # a double tap (the same button data again) sets the same value: nothing to edit, still answered
    edits = message.edit_count
    answer = await runner.press_data(users["anya"], message, cb.chat_setting("bonuses", "on", "ludo"))
    assert answer["text"] == "Людо: с бонусами" and message.edit_count == edits
    assert (await stored(runner))[1] == settings


async def test_only_admins_may_open_or_press_and_forged_data_changes_nothing(world) -> None:
    tg, runner, users = world
    await runner.say(users["boris"], "/settings")
    assert tg.last_bot_message(CHAT_ID).text == ADMINS_ONLY
    message = await open_settings(runner, users["anya"])
    before, text, edits = await stored(runner), message.text, message.edit_count
    for _, data in message.buttons:  # every real button, pressed by a member who is no admin
        answer = await runner.press_data(users["boris"], message, data)
        assert answer["text"] == ADMINS_ONLY
    forged = ["s:lang:de", "s:timer:5", "s:timer:03", "s:auto:on", "s:pace:slow", "s:pace:FAST",
              "s:ludo.bonuses:1", "s:ludo.bonuses:yes",
              "s:ludo.mode:tower", "s:ludo.bonuses:maybe",
              "s:sosedi.mode:nonsense", "s:sosedi.chips:15", "s:spichki.goal:12", "s:parchis.bonuses:on",
              "s:nosuch.mode:tower", "s:colour:red", "s:lang:ru:x", "s:LANG:en", "s:" + "a" * 70]
    for data in forged:
        answer = await runner.press_data(users["anya"], message, data)
        assert answer["text"] == STALE, data
    assert await stored(runner) == before
    assert message.text == text and message.edit_count == edits
    settings = (await flow_of(runner).chat(CHAT_ID)).settings
    assert settings.turn_timer == 3 and settings.pace == "fast"


async def test_in_a_private_chat_settings_are_for_groups(world) -> None:
    tg, runner, users = world
    await tg.send_private(users["boris"], "/settings")
    await runner.handled()
    reply = tg.last_bot_message(tg.private_chat(users["boris"]))
    assert reply.text == "Настройки есть только у групп: напишите /settings в группе." and not reply.buttons


async def test_a_new_lobby_starts_from_the_chat_default_and_a_stale_value_falls_back(world) -> None:
    _, runner, users = world
    message = await open_settings(runner, users["anya"])
    await runner.press(users["anya"], message, "Людо: классика")
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    assert "Вариант: с бонусами" in lobby.caption
    game = await flow_of(runner).store.game(game_id_of(lobby))
    assert game is not None and game.options["bonuses"] is True
    await runner.press(users["anya"], lobby, "Отмена")
    # values stored earlier that the engine no longer takes: the engine's default, the rest kept
    await flow_of(runner).store.set_chat_setting(CHAT_ID, "defaults", {
        "ludo": {"bonuses": "maybe"}, "sosedi": {"mode": "nonsense", "chips": 15}, "tishe": "junk"})
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    assert "Вариант: классика" in lobby.caption
    game = await flow_of(runner).store.game(game_id_of(lobby))
    assert game is not None and (game.options["mode"], game.options["chips"]) == ("classic", 15)
    await runner.press(users["anya"], lobby, "Отмена")
    for code in ("ludo", "tishe"):
        settings = (await flow_of(runner).chat(CHAT_ID)).settings
        assert default_options(GAMES[code], settings, CHAT_ID) == GAMES[code].engine.options_from_json(None)


async def test_a_new_lobby_starts_from_the_chats_timer_and_changes_only_its_own(world) -> None:
    _, runner, users = world
    message = await open_settings(runner, users["anya"])
    await runner.press(users["anya"], message, "⏱ Таймер хода: 3 мин")
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    assert "⏱ Таймер хода: 10 мин" in [label for label, _ in lobby.buttons]
    await runner.press(users["anya"], lobby, "⏱ Таймер хода")  # this lobby's: 10 → off
    assert "⏱ Таймер хода: выкл." in [label for label, _ in lobby.buttons]
    again = await open_settings(runner, users["anya"])
    assert again.text is not None and "⏱ Таймер хода: 10 мин" in again.text.splitlines()


async def test_the_language_switch_speaks_the_new_language(world) -> None:
    tg, runner, users = world
    message = await open_settings(runner, users["anya"])
    answer = await runner.press(users["anya"], message, "🌐 Язык: русский")
    assert answer["text"] == "🌐 Language: English"  # in the chat's new language
    assert message.text is not None and message.text.startswith("⚙️ Chat settings")
    assert "🌐 Language: English" in message.text.splitlines() and "Ludo: classic" in message.text.splitlines()
    assert "🌐 Language: English" in [label for label, _ in message.buttons]
    assert (await flow_of(runner).store.chat(CHAT_ID)).locale == "en"
    await runner.say(users["anya"], "/newgame ludo")
    assert "Variant: classic" in runner.table().caption  # the chat speaks English now
    await runner.press(users["anya"], message, "🌐 Language: English")
    assert message.text.startswith("⚙️ Настройки чата") and (await flow_of(runner).chat(CHAT_ID)).lang == "ru"
    assert tg.violations == []


# the fast table ---------------------------------------------------------------------------


async def set_pace(runner: BotRunner, admin: FakeUser, pace: str) -> None:
    message = await open_settings(runner, admin)
    if pace == "classic":
        await runner.press(admin, message, "🎲 Стол: быстрый")
    assert (await flow_of(runner).chat(CHAT_ID)).settings.pace == pace


async def actions(runner: BotRunner, game_id: int) -> list[LoggedAction]:
    return [a for a in await flow_of(runner).store.actions(game_id) if a.code != "start"]


@dataclass
class Press:
    """What one press stored, the state before it, the caption and buttons after it, and whether the
    game then waits for a person's real choice (or a computer's turn, or nobody: it ended)."""

    before: Any
    stored: list[LoggedAction]
    caption: str
    labels: list[str]
    choice_left: bool


async def play_presses(runner: BotRunner, table: StoredMessage, code: str, players: list[FakeUser],
                       presses: int, seed: int) -> list[Press]:
    """The player to move presses a (seeded) button, ``presses`` times or to the end; each press
    costs exactly one table edit."""
    engine, game_id, rng = GAMES[code].engine, game_id_of(table), random.Random(seed)
    per_press = []
    for _ in range(presses):
        state = await stored_state(runner, engine, game_id)
        if state.current_player is None:
            break
        done, edits = len(await actions(runner, game_id)), table.edit_count
        await runner.press(players[state.current_player], table, rng.choice([label for label, _ in table.buttons]))
        assert table.edit_count == edits + 1  # one edit per press, whatever the bot played after it
        after = await stored_state(runner, engine, game_id)
        choice_left = after.current_player is None or len(GAMES[code].engine.legal_actions(after)) > 1
        per_press.append(Press(state, (await actions(runner, game_id))[done:], table.caption,
                               [label for label, _ in table.buttons], choice_left))
    return per_press


def assert_only_moves_after(code: str, press: Press, people: set[int]) -> None:
    """Every action stored after the press itself was one a person had no choice about (or a computer's)."""
    engine = GAMES[code].engine
    state, _, _ = engine.apply(press.before, press.stored[0].code)
    for action in press.stored[1:]:
        if action.seat in people:
            assert only_choice(engine, state, GAMES[code].position) == action.code, action
        state, _, entry = engine.apply(state, action.code)
        assert entry.dice == action.dice  # the same fair dice: each throw from the committed seed


@pytest.mark.parametrize("code", ["ludo", "shishbesh", "tishe", "parchis"])
async def test_the_fast_table_plays_on_to_a_real_choice_in_the_same_edit(world, code: str) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, code)  # the chat never chose: the fast table
    game_id = game_id_of(table)
    first = await actions(runner, game_id)
    assert first and first[0].code == "r"  # the starter's throw came with the deal
    assert len(table.buttons) > 1 and "🎲 Бросить" not in [label for label, _ in table.buttons]
    per_press = await play_presses(runner, table, code, [users["anya"], users["boris"]], presses=60, seed=5)
    assert sum(len(p.stored) > 2 for p in per_press) >= 3, "never a run of throws after a press"
    for press in per_press:
        assert press.choice_left  # never left waiting for a roll or a forced move
        assert press.labels == [] or len(press.labels) > 1
        assert_only_moves_after(code, press, people={0, 1})
    await assert_replays(runner, game_id)
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and (game.deadline is not None or game.status != "running")  # the timer runs


async def test_the_fast_table_logs_an_only_move(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "ludo")
    per_press = await play_presses(runner, table, "ludo", [users["anya"], users["boris"]], presses=120, seed=3)
    forced = [p for p in per_press if any(a.dice and len(a.dice) == 1 and a.code == "r" for a in p.stored[1:])
              and ", единственный ход" in p.caption]
    assert forced, "no throw with its only move logged as such"
    assert any(":" in line and "→" in line and "единственный ход" in line for line in forced[0].caption.splitlines())
    # throws that moved nothing, two or more in a row, share one line; one alone keeps the game's words
    captions = [p.caption for p in per_press]
    shared = [line for c in captions for line in c.splitlines() if line.startswith("🎲 хода нет: ")]
    assert shared and all(re.fullmatch(r"🎲 хода нет: (?:(?:Аня|Борис) \d)(?: · (?:Аня|Борис) \d)+", line)
                          for line in shared), shared
    assert any(re.fullmatch(r"(?:Аня|Борис): 🎲 \d → хода нет", line) for c in captions for line in c.splitlines())


async def test_the_classic_table_rolls_for_nobody(world) -> None:
    _, runner, users = world
    await set_pace(runner, users["anya"], "classic")
    table = await start_for_two(runner, users, "ludo")
    game_id = game_id_of(table)
    assert table.buttons == [("🎲 Бросить", table.buttons[0][1])] and await actions(runner, game_id) == []
    per_press = await play_presses(runner, table, "ludo", [users["anya"], users["boris"]], presses=40, seed=5)
    assert all(len(stored) == 1 for stored in [p.stored for p in per_press])
    assert any(p.labels == ["🎲 Бросить"] for p in per_press[1:])
    await assert_replays(runner, game_id)


async def test_the_lobby_chooses_the_table_for_its_own_game(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    answer = await runner.press(users["boris"], lobby, "🎲 Стол: быстрый")  # not the host
    assert answer["text"] != "Классический стол: каждый бросок — нажатие."
    answer = await runner.press(users["anya"], lobby, "🎲 Стол: быстрый")
    assert answer["text"] == "Классический стол: каждый бросок — нажатие."
    assert "🎲 Стол: классический" in [label for label, _ in lobby.buttons]
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    assert [label for label, _ in table.buttons] == ["🎲 Бросить"]
    assert (await flow_of(runner).chat(CHAT_ID)).settings.pace == "fast"  # the chat's default stays


async def test_a_forged_pace_press_changes_nothing(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    assert not any("Стол" in label for label, _ in lobby.buttons)  # the roll is the whole turn there
    game_id = game_id_of(lobby)
    before = await flow_of(runner).store.game(game_id)
    answer = await runner.press_data(users["anya"], lobby, cb.lobby(game_id, "pace"))
    assert answer["text"] == STALE
    assert await flow_of(runner).store.game(game_id) == before


async def test_the_fast_table_does_nothing_where_the_roll_is_the_whole_turn(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "sosedi")
    game_id = game_id_of(table)
    assert await actions(runner, game_id) == [] and table.buttons[0][0].startswith("🎲")
    per_press = await play_presses(runner, table, "sosedi", [users["anya"], users["boris"]], presses=500, seed=1)
    assert len(per_press) >= 5 and not table.buttons  # played to the end, every roll pressed by its player
    assert all(len(p.stored) == 1 for p in per_press)  # the game does not play itself
    await assert_replays(runner, game_id)


async def test_the_fast_table_after_the_computer_moved(world) -> None:
    _, runner, users = world
    table = await start_against_a_bot(runner, users["anya"], "ludo")
    game_id = game_id_of(table)
    per_press = await play_presses(runner, table, "ludo", [users["anya"]], presses=30, seed=2)
    # the computer's turns and Аня's throws after them came in the edit of her press
    assert any(p.stored[-1].seat == 0 and any(a.seat == 1 for a in p.stored) for p in per_press)
    for press in per_press:
        assert press.choice_left
        assert_only_moves_after("ludo", press, people={0})
    await assert_replays(runner, game_id)


async def test_the_fast_table_after_a_timeout(world) -> None:
    _, runner, users = world
    table = await start_for_two(runner, users, "ludo")
    game_id = game_id_of(table)
    engine = GAMES["ludo"].engine
    # Аня plays until Борис is to move
    while (await stored_state(runner, engine, game_id)).current_player == 0:
        await runner.press(users["anya"], table, table.buttons[0][0])
    done = len(await actions(runner, game_id))
    assert await time_out(runner, table)  # the computer plays Борис's turn: one edit
    stored = (await actions(runner, game_id))[done:]
    after = await stored_state(runner, engine, game_id)
    assert after.current_player is None or len(engine.legal_actions(after)) > 1  # and on to a real choice
    assert stored[0].seat == 1 and "⏱ Борис: время вышло" in table.caption
    await assert_replays(runner, game_id)


def test_settings_callback_data_fits_and_is_strict() -> None:
    assert cb.parse(cb.chat_setting("bonuses", "on", "ludo")) == cb.Callback(kind="s", code="ludo", key="bonuses",
                                                                             value="on")
    assert cb.parse(cb.chat_setting("timer", "10")) == cb.Callback(kind="s", key="timer", value="10")
    assert len(cb.chat_setting("k" * 20, "v" * 20, "c" * 12).encode()) <= 64
    for junk in ("s:", "s:lang", "s:lang:", "s:.lang:en", "s:ludo.:on", "s:a.b.c:d", "s:lang:en:x", "s:lang:Ру"):
        assert cb.parse(junk) is None, junk
    with pytest.raises(ValueError):
        cb.chat_setting("lang", "en ru")
