"""Answers to presses: a toast only when it tells something — the dice thrown,
«не ваш ход», «кнопка устарела» — and a plain move is answered silently."""

from __future__ import annotations

import pytest

from tests.bot_harness import current_player_name, start_for_two, use_classic_table

pytestmark = pytest.mark.world(first_seed=350, count=3)  # group_world's arguments (tests/conftest.py)


async def test_a_move_is_answered_silently_and_a_roll_tells_its_dice(world) -> None:
    _, runner, users = world
    await use_classic_table(runner)  # where a roll is a press
    table = await start_for_two(runner, users, "ludo")
    by_name = {u.first_name: u for u in users.values()}
    silent = told = 0
    for _ in range(60):  # roll, and whenever a choice is offered, move
        mover = by_name[current_player_name(table.caption or "")]
        label = table.buttons[0][0]
        answer = await runner.press(mover, table, label)
        if label.startswith("🎲"):
            assert "🎲" in (answer.get("text") or "") or any(c.isdigit() for c in answer.get("text") or "")
            told += 1
        else:
            assert not answer.get("text"), answer  # no «Готово.»
            silent += 1
        if not table.buttons:
            break
    assert silent and told
    someone_else = next(u for u in users.values() if u.first_name != current_player_name(table.caption or ""))
    answer = await runner.press(someone_else, table, table.buttons[0][0])
    assert answer.get("text")  # «сейчас ходит …» still says why
