"""The real `python -m bot` process: SIGKILL mid-game, start again, and the game goes on."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from tests.backends import database_env
from tests.bot_harness import CHAT_ID, current_player_name

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "424242:PROCESS-test-token-0000000000000000"


async def spawn(tg: FakeTelegram, database: str | Path, log: Path, **settings: str) -> asyncio.subprocess.Process:
    """`python -m bot` on ``database`` (an SQLite file or a PostgreSQL URL) with ``settings``, logging into ``log``."""
    env = {**os.environ, "BOT_TOKEN": TOKEN, "BOT_API_BASE_URL": tg.base_url, "BOT_API_FILE_URL": tg.file_url,
           "LOG_LEVEL": "DEBUG", "PYTHONPATH": str(ROOT), **database_env(database), **settings}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=log.parent, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=log.open("ab"))


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as server:
        yield server


async def press(tg: FakeTelegram, user: FakeUser, message: StoredMessage, label: str) -> str:
    edits = message.edit_count
    handle = await tg.press(user, CHAT_ID, message.message_id, message.button(label))
    answer = await tg.wait_answer(handle, timeout=15)
    await tg.wait_for(lambda s: message.edit_count > edits, timeout=15)
    return answer.get("text", "")


async def test_sigkill_mid_game_then_restart_continues(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис")]
    by_name = {u.first_name: u for u in users}
    tg.add_chat(CHAT_ID, "supergroup", creator=1)
    db, log = tmp_path / "bot.sqlite3", tmp_path / "bot.log"
    bot = await spawn(tg, db, log)
    try:
        await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)  # started and polling
        await tg.send_message(users[0], CHAT_ID, "/newgame sosedi")
        await tg.wait_for(lambda s: any(m.photo for m in s.bot_messages(CHAT_ID)), timeout=15)
        table = next(m for m in tg.bot_messages(CHAT_ID) if m.photo)
        await press(tg, users[1], table, "Играю")
        await press(tg, users[0], table, "Начать")
        for _ in range(3):
            await press(tg, by_name[current_player_name(table.caption)], table, "🎲")
        caption = table.caption
        bot.send_signal(signal.SIGKILL)
        assert await bot.wait() == -signal.SIGKILL
        bot = await spawn(tg, db, log)
        await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)
        assert table.caption == caption  # nothing was lost and nothing redrawn needlessly
        answer = await press(tg, by_name[current_player_name(table.caption)], table, "🎲")
        assert answer.startswith("🎲 ")
        assert table.caption != caption
        assert "Ходит:" in table.caption or "🏆" in table.caption  # going on, or just won
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGTERM)
            await asyncio.wait_for(bot.wait(), 30)
    text = log.read_text(encoding="utf-8")
    assert TOKEN not in text and "PROCESS-test-token" not in text  # the token is never logged
    assert "Traceback" not in text
    assert tg.violations == []
