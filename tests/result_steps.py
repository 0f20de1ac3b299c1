"""The result message and /history of a finished game, as the result tests read them."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, flow_of

MEDALS = ("🥇", "🥈", "🥉")

MAX_PRESSES = 4000


async def open_for(runner: BotRunner, users: dict[str, FakeUser], code: str, keys: tuple[str, ...]) -> StoredMessage:
    """The first of ``keys`` opens a lobby of ``code``, the others join, the first starts; the table."""
    await runner.say(users[keys[0]], f"/newgame {code}")
    lobby = runner.table()
    for key in keys[1:]:
        await runner.press(users[key], lobby, "Играю")
    await runner.press(users[keys[0]], lobby, "Начать")
    return runner.table()


async def play_out(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage, seed: int) -> None:
    """Whoever the caption names presses one of the offered buttons (seeded) until the game ends."""
    by_name, rng = {u.first_name: u for u in users.values()}, random.Random(seed)
    for _ in range(MAX_PRESSES):
        if not table.buttons:
            return
        await runner.press(by_name[current_player_name(table.caption)], table, rng.choice(table.buttons)[0])
    pytest.fail("the game did not end")


async def finished(runner: BotRunner, game_id: int) -> tuple[list[str], dict[str, Any]]:
    game = await flow_of(runner).store.game(game_id)
    assert game is not None and game.status == "finished" and game.result is not None
    return game.names, game.result


def result_text(runner: BotRunner) -> str:
    """The text of the last result message (the one under which «Ещё раунд» sits)."""
    result = next(m for m in reversed(runner.tg.bot_messages(CHAT_ID)) if m.buttons and "Ещё раунд" in m.buttons[0][0])
    assert result.text is not None
    return result.text


def blocks_of(text: str) -> list[list[str]]:
    """A message's blocks (separated by blank lines), each as its lines."""
    return [block.splitlines() for block in text.split("\n\n")]


async def history(runner: BotRunner, user: FakeUser) -> str:
    await runner.say(user, "/history")
    text = runner.tg.last_bot_message(CHAT_ID).text
    assert text is not None and text.startswith("📜")
    return text
