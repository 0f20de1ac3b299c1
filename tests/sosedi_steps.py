"""Steps of a «соседи» game in the group world: open the lobby, roll to the end, count the game's requests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner, World, current_player_name, group_world

GAME_METHODS = ("sendMessage", "sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageText")
MAX_ROLLS = 2000


async def open_lobby(runner: BotRunner, users: dict[str, FakeUser], mode_presses: int = 0) -> StoredMessage:
    """Аня opens the picker, picks the game, Борис and Вера join; the host picks the mode."""
    tg = runner.tg
    await runner.say(users["anya"], "/newgame")
    picker = tg.last_bot_message(CHAT_ID)
    assert picker.text == "Во что играем?"
    await runner.press(users["anya"], picker, "Помоги своему соседу")
    lobby = runner.table()
    assert lobby.photo is not None and "Игроки (1/6)" in lobby.caption
    assert tg.message(CHAT_ID, picker.message_id).deleted
    for name in ("boris", "vera"):
        answer = await runner.press(users[name], lobby, "Играю")
        assert answer["text"] == "Вы за столом!"
    for _ in range(mode_presses):
        await runner.press(users["anya"], lobby, "Вариант: ")
    assert "Игроки (3/6)" in lobby.caption and "1. Аня\n2. Борис\n3. Вера" in lobby.caption
    return lobby


async def play_to_end(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage,
                      restart_after: int | None = None) -> int:
    """Whoever the caption names rolls until the game ends; returns the number of rolls."""
    by_name = {u.first_name: u for u in users.values()}
    rolls = 0
    while any(label.startswith("🎲") for label, _ in table.buttons):
        mover = by_name[current_player_name(table.caption)]
        answer = await runner.press(mover, table, "🎲")
        assert answer["text"].startswith("🎲 ")
        rolls += 1
        assert rolls < MAX_ROLLS
        if restart_after is not None and rolls == restart_after:
            await runner.restart()
    return rolls


def game_requests(tg: FakeTelegram, since: int = 0) -> list[str]:
    return [r.method for r in tg.requests[since:] if r.method in GAME_METHODS and r.ok]


@asynccontextmanager
async def sosedi_started(tmp_path: Path) -> AsyncIterator[tuple[World, StoredMessage]]:
    """A «соседи» game of Аня, Борис and Вера, just started (seed 11), and its table."""
    async with group_world(tmp_path, first_seed=11) as world:
        _, runner, users = world
        lobby = await open_lobby(runner, users)
        await runner.press(users["anya"], lobby, "Начать")
        yield world, runner.table()
