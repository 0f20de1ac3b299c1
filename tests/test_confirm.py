"""«🏳 Сдаться» and «🤝 Предложить ничью» ask first (lions.md: «Сдаться» with a
confirmation, one stray tap must not lose the game): the first press puts «Да, …» / «Отмена» in the
button's row, for the player to move only and for this turn only. Through the fake Bot API."""

from __future__ import annotations

import pytest

from bot import callback_data as cb
from bot.fake_telegram import FakeUser, StoredMessage
from bot.games import GAMES
from locales import Translator
from tests.bot_harness import BotRunner, current_player_name, flow_of, game_id_of, start_for_two

pytestmark = pytest.mark.world(first_seed=80, count=3)  # group_world's arguments (tests/conftest.py)


def labels(table: StoredMessage) -> list[str]:
    return [text for text, _ in table.buttons]


async def lions_table(runner: BotRunner, users: dict[str, FakeUser]) -> tuple[StoredMessage, FakeUser, FakeUser]:
    """A lions game of Аня and Борис: the table, the player to move and the other."""
    table = await start_for_two(runner, users, "lions")
    mover = users["anya"] if current_player_name(table.caption or "") == "Аня" else users["boris"]
    return table, mover, users["boris"] if mover is users["anya"] else users["anya"]


async def status(runner: BotRunner, table: StoredMessage) -> tuple[str, int]:
    game = await flow_of(runner).store.game(game_id_of(table))
    assert game is not None
    return game.status, game.version


async def test_one_press_does_not_resign_and_the_second_does(world) -> None:
    _, runner, users = world
    table, mover, other = await lions_table(runner, users)
    before, asked, game_id = await status(runner, table), labels(table), game_id_of(table)
    answer = await runner.press(mover, table, "🏳 Сдаться")
    assert answer["text"] == "Точно? Подтвердите кнопкой под столом."
    assert await status(runner, table) == before == ("running", before[1])
    assert "🏳 Сдаться" not in labels(table) and "🤝 Ничья?" not in labels(table)
    assert ["🏳 Да, сдаюсь", "↩️ Отмена"] in [[b.get("text") for b in row] for row in table.inline_keyboard]
    assert [label for label in labels(table) if label not in ("🏳 Да, сдаюсь", "↩️ Отмена")] == [
        label for label in asked if label not in ("🏳 Сдаться", "🤝 Ничья?")]  # the rest as it was

    answer = await runner.press(other, table, "🏳 Да, сдаюсь")  # not theirs to confirm
    assert answer["text"] == f"Это решает {mover.first_name}."
    answer = await runner.press(other, table, "↩️ Отмена")
    assert answer["text"] == f"Это решает {mover.first_name}."
    assert await status(runner, table) == before and "🏳 Да, сдаюсь" in labels(table)

    await runner.press(mover, table, "↩️ Отмена")  # the keyboard as it was
    assert labels(table) == asked and await status(runner, table) == before

    await runner.press(mover, table, "🏳 Сдаться")
    await runner.press(mover, table, "🏳 Да, сдаюсь")
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and game.status == "finished" and game.result is not None
    assert game.result["data"]["end"] == "resign" and game.names[game.result["winners"][0]] == other.first_name
    assert table.buttons == []


async def test_a_question_dies_with_its_turn(world) -> None:
    _, runner, users = world
    table, mover, _other = await lions_table(runner, users)
    await runner.press(mover, table, "🏳 Сдаться")
    yes = table.button("🏳 Да, сдаюсь")
    no = table.button("↩️ Отмена")
    pick = next(data for text, data in table.buttons if text.startswith("🦁") or text.startswith("🏹"))
    await runner.press_data(mover, table, pick)  # the turn goes on: the question is gone with it
    assert "🏳 Да, сдаюсь" not in labels(table) and "🏳 Сдаться" in labels(table)
    before = await status(runner, table)
    assert (await runner.press_data(mover, table, yes))["text"] == "Кнопка устарела."
    assert (await runner.press_data(mover, table, no))["text"] == "Кнопка устарела."
    assert await status(runner, table) == before and before[0] == "running"


async def test_a_draw_offer_asks_first_too(world) -> None:
    _, runner, users = world
    table, mover, _other = await lions_table(runner, users)
    await runner.press(mover, table, "🤝 Ничья?")
    assert "предлагает ничью" not in (table.caption or "") and "🤝 Да, предложить" in labels(table)
    await runner.press(mover, table, "🤝 Да, предложить")
    assert "предлагает ничью" in (table.caption or "")


async def test_a_forged_confirmation_is_checked_like_a_move(world) -> None:
    _, runner, users = world
    table, mover, _other = await lions_table(runner, users)
    status_before = await status(runner, table)
    game_id, version = game_id_of(table), status_before[1]
    answer = await runner.press_data(mover, table, cb.confirm(game_id, version, "zz"))
    assert answer["text"] == "Такой ход сейчас невозможен." and await status(runner, table) == status_before
    answer = await runner.press_data(mover, table, cb.confirm(game_id, version + 1, "x"))
    assert answer["text"] == "Кнопка устарела." and await status(runner, table) == status_before


def test_every_question_has_its_words() -> None:
    words = Translator.load(strict=True)
    for code, spec in GAMES.items():
        for kind in spec.confirm:
            for lang in ("ru", "en"):
                assert words.has(lang, f"confirm-{code}-{kind}"), (code, kind, lang)
