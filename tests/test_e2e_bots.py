"""End to end: computer players in the lobby and at the table, through the fake Bot API.

Two people and two bots play «Помоги своему соседу»: the host seats the bots, nobody else
may; every run of bot turns is played at once and shown in the same edit as the human press
before it, so bots cost no edits of their own; the log names the bots' throws.
"""

from __future__ import annotations

import pytest

from tests.bot_harness import CHAT_ID, current_player_name
from tests.sosedi_steps import game_requests

MAX_PRESSES = 500


pytestmark = pytest.mark.world(first_seed=40)  # group_world's arguments (tests/conftest.py)


async def test_two_people_and_two_bots_play_sosedi_with_one_edit_per_human_press(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    # only the host (or an admin) seats a bot
    answer = await runner.press(users["boris"], lobby, "🤖 Добавить бота")
    assert answer["text"] == "Это может только хост (или админ)."
    assert "Игроки (2/6)" in lobby.caption
    for _ in range(3):
        answer = await runner.press(users["anya"], lobby, "🤖 Добавить бота")
        assert answer["text"] == "Бот сел за стол."
    assert "1. Аня\n2. Борис\n3. 🤖 Кеша\n4. 🤖 Дуся\n5. 🤖 Федя" in lobby.caption
    answer = await runner.press(users["anya"], lobby, "➖ Убрать бота")
    assert answer["text"] == "Бот встал из-за стола."
    assert "Игроки (4/6)" in lobby.caption and "Федя" not in lobby.caption
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    people = {"Аня": users["anya"], "Борис": users["boris"]}
    start = len(tg.requests)
    presses = 0
    bot_lines_seen = False
    while any(label.startswith("🎲") for label, _ in table.buttons):
        mover = current_player_name(table.caption)
        assert mover in people, table.caption  # the bots never wait for a press
        before = len(game_requests(tg))
        answer = await runner.press(people[mover], table, "🎲")
        assert answer["text"].startswith("🎲 ")
        presses += 1
        finished = not table.buttons
        # one edit per human press, the bots' turns included (plus the result message at the end)
        assert len(game_requests(tg)) - before == 1 + (1 if finished else 0)
        bot_lines_seen |= "Кеша" in table.caption or "Дуся" in table.caption
        assert presses < MAX_PRESSES
    assert bot_lines_seen  # the log shows the bots' throws
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and "🏁" in result.text
    assert len(game_requests(tg, start)) == presses + 1


async def test_a_lobby_of_bots_alone_closes(world) -> None:
    _, runner, users = world
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    await runner.press(users["anya"], lobby, "Выйти")
    assert lobby.buttons == []
    await runner.say(users["boris"], "/newgame sosedi")  # the chat is free for a new game
    assert "Помоги своему соседу" in runner.table().caption


async def test_every_bot_turn_since_the_last_press_is_in_the_log(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    for _ in range(5):
        await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    names = ["Кеша", "Дуся", "Федя", "Муся", "Гоша"]
    while any(label.startswith("🎲") for label, _ in table.buttons):
        assert current_player_name(table.caption) == "Аня"
        await runner.press(users["anya"], table, "🎲")
        if table.buttons:  # five bots threw after Аня: her throw and each of theirs is in the log
            assert "Аня бросает" in table.caption
            assert all(f"🤖 {name} бросает" in table.caption for name in names), table.caption
    assert "🏁" in (tg.last_bot_message(CHAT_ID).text or "")
