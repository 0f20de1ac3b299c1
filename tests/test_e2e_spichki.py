"""End to end: four users in a supergroup play «Спички» through the fake Bot API."""

from __future__ import annotations

import re

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name

MAX_THROWS = 3000
LOG_LINE = re.compile(r"^(?:Цель: (\d) и (\d)|Цель ставится) · (.+?): (\d)–(\d) → (.+)$")
HELD = re.compile(r"(Аня|Борис|Вера|Глеб): (\d+)")
PILE = re.compile(r"в куче (\d+) · играем до (\d+)")


pytestmark = pytest.mark.world(first_seed=21, count=5)  # group_world's arguments (tests/conftest.py)


async def open_lobby(runner: BotRunner, users: dict[str, FakeUser], players: tuple[str, ...]) -> StoredMessage:
    """Аня picks «Спички» in the picker; the others join."""
    await runner.say(users["anya"], "/newgame")
    picker = runner.tg.last_bot_message(CHAT_ID)
    await runner.press(users["anya"], picker, "Спички")
    lobby = runner.table()
    assert "Игроки (1/8)" in lobby.caption and "Играем до 11 спичек" in lobby.caption
    for name in players:
        await runner.press(users[name], lobby, "Играю")
    return lobby


def throw_label(table: StoredMessage) -> str | None:
    """The one throw button of the table (🎯 while setting a target, 🎲 while chasing)."""
    labels = [label for label, _ in table.buttons if label.startswith(("🎯", "🎲"))]
    assert len(labels) <= 1, table.buttons
    return labels[0] if labels else None


def counts(caption: str) -> tuple[int, dict[str, int]]:
    pile = PILE.search(caption)
    assert pile, caption
    return int(pile.group(1)), {name: int(n) for name, n in HELD.findall(caption.split("\n")[-2])}


async def test_four_players_play_to_the_end(world) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users, ("boris", "vera", "gleb"))
    answer = await runner.press(users["boris"], lobby, "До победы +1")
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(users["anya"], lobby, "До победы +1")
    await runner.press(users["anya"], lobby, "Куча −1")
    await runner.press(users["anya"], lobby, "Дубль числа цели: +2 спички")
    assert "Играем до 12 спичек\nВ куче: по 9 спичек на игрока\nДубль числа цели: +1 спичка" in lobby.caption
    assert "Игроки (4/8)" in lobby.caption and "1. Аня\n2. Борис\n3. Вера\n4. Глеб" in lobby.caption
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    assert table.message_id == lobby.message_id
    assert table.caption.startswith("🎲 Спички · до 12 спичек")
    assert re.search(r"Жребий: начинает (Аня|Борис|Вера|Глеб)\. В куче 36 спичек\.", table.caption)
    assert throw_label(table) == "🎯 Бросить на цель"

    by_name = {u.first_name: u for u in users.values()}
    throws, edits, seen_kinds = 0, table.edit_count, set()
    target: tuple[int, int] | None = None
    while (label := throw_label(table)) is not None:
        mover_name = current_player_name(table.caption)
        assert (label == "🎯 Бросить на цель") == (target is None)
        if throws % 7 == 0:  # someone else presses: nothing changes
            other = by_name["Дима" if throws % 2 else next(n for n in ("Аня", "Борис") if n != mover_name)]
            answer = await runner.press(other, table, label)
            assert answer["text"] == f"Сейчас ходит {mover_name}."
            assert table.edit_count == edits
        pile_before, held_before = counts(table.caption)
        answer = await runner.press(by_name[mover_name], table, label)
        throws += 1
        assert throws < MAX_THROWS
        assert table.edit_count == edits + 1  # one edit per throw
        edits = table.edit_count
        log = [line for line in table.caption.split("\n") if LOG_LINE.match(line)]
        match = LOG_LINE.match(log[-1])
        assert match is not None
        shown_target = (int(match.group(1)), int(match.group(2))) if match.group(1) else None
        assert shown_target == target and match.group(3) == mover_name
        dice = (int(match.group(4)), int(match.group(5)))
        assert answer["text"] == f"🎲 {dice[0]} · {dice[1]}"
        effects = match.group(6)
        pile, held = counts(table.caption)
        gained = held[mover_name] - held_before[mover_name]
        assert pile + sum(held.values()) == 36 and pile_before - pile == gained
        assert all(held[n] == held_before[n] for n in held if n != mover_name)
        if target is None:
            if dice[0] == dice[1]:
                assert effects.startswith("дубль: +") and gained == min(2, pile_before)
                seen_kinds.add("double")
            else:
                assert effects.startswith(f"новая цель {dice[0]} и {dice[1]}, бросает ") and gained == 0
                target = dice
                seen_kinds.add("target")
        elif sorted(dice) == sorted(target):
            assert effects.startswith("в точку! +") and gained == min(3, pile_before)
            target = None
            seen_kinds.add("exact")
        elif dice[0] == dice[1] and dice[0] in target:
            assert effects.startswith("+1 спичка") and gained == 1  # double_hit was set to 1
            seen_kinds.add("double_hit")
        elif (dice[0] in target) != (dice[1] in target):
            assert effects.startswith("+1 спичка") and gained == 1
            seen_kinds.add("one")
        else:
            assert effects.startswith("мимо, бросает ") and gained == 0
            seen_kinds.add("miss")
        if "бросает ещё" in effects or "ставит новую цель" in effects:
            assert current_player_name(table.caption) == mover_name
        elif "бросает " in effects:
            assert current_player_name(table.caption) == effects.rsplit("бросает ", 1)[1]
    assert seen_kinds >= {"target", "one", "miss"}, seen_kinds
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and result.text.startswith("🏁 Спички")
    pile, held = counts(table.caption)
    best = max(held.values())
    if best >= 12:
        winner = next(n for n, c in held.items() if c == best)
        assert f"{winner} набирает {best} спич" in result.text and "и побеждает!" in result.text
    else:
        assert pile == 0 and ("ничья" in result.text or "Побеждает" in result.text)
    assert table.buttons == []
    assert [label for label, _ in result.buttons] == ["🔁 Ещё раунд", "🔎 Проверить кости", "🎬 Повтор"]


async def test_goal_bigger_than_the_pile_is_refused_with_a_reason(world) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users, ("boris",))
    await runner.say(users["anya"], "/set per_player 8")
    await runner.say(users["anya"], "/set goal 20")
    assert "Играем до 20 спичек" in lobby.caption
    assert "⚠️ При 2 игроках в куче всего 16" in lobby.caption
    answer = await runner.press(users["anya"], lobby, "Начать")
    assert answer["show_alert"] is True and answer["text"] == "До победы: от 5 до 16"
    assert "Игроки (2/8)" in lobby.caption  # still the lobby
    await runner.press(users["vera"], lobby, "Играю")  # a third player makes the pile 24
    assert "⚠️" not in lobby.caption
    await runner.say(users["anya"], "/set double_hit 3")
    assert tg.last_bot_message(CHAT_ID).text.startswith("Дубль числа цели: «+1 спичка» или «+2 спички»")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    assert "до 20 спичек" in table.caption and "в куче 24 · играем до 20" in table.caption


async def test_rules_and_direct_start(world) -> None:
    tg, runner, users = world
    await runner.say(users["anya"], "/rules spichki")
    text = tg.last_bot_message(CHAT_ID).text
    assert text.startswith("Спички — 2–8 игроков") and "в точку" not in text and "3 спички" in text
    await runner.say(users["anya"], "/newgame spichki")
    assert "Игроки (1/8)" in runner.table().caption
    await runner.say(users["boris"], "/rules")  # the current game's rules
    assert tg.last_bot_message(CHAT_ID).text == text
