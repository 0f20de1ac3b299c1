"""The bot as a process of its own on the fake Bot API: started, and pressed until the table changes."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from tests.backends import database_env
from tests.bot_harness import CHAT_ID

ROOT = Path(__file__).resolve().parent.parent


TOKEN = "424242:PROCESS-test-token-0000000000000000"


async def spawn(tg: FakeTelegram, database: str | Path, log: Path, **settings: str) -> asyncio.subprocess.Process:
    """`python -m bot` on ``database`` (an SQLite file or a PostgreSQL URL) with ``settings``, logging into ``log``."""
    env = {**os.environ, "BOT_TOKEN": TOKEN, "BOT_API_BASE_URL": tg.base_url, "BOT_API_FILE_URL": tg.file_url,
           "LOG_LEVEL": "DEBUG", "PYTHONPATH": str(ROOT), **database_env(database), **settings}
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=log.parent, env=env,
        stdout=asyncio.subprocess.DEVNULL, stderr=log.open("ab"))


async def press(tg: FakeTelegram, user: FakeUser, message: StoredMessage, label: str) -> str:
    edits = message.edit_count
    handle = await tg.press(user, CHAT_ID, message.message_id, message.button(label))
    answer = await tg.wait_answer(handle, timeout=15)
    await tg.wait_for(lambda s: message.edit_count > edits, timeout=15)
    return answer.get("text", "")
