"""The real `python -m bot` process against the fake Bot API, as the benchmarks run it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.config import SETTINGS
from bot.fake_telegram import FakeTelegram
from tests.backends import database_env

ROOT = Path(__file__).resolve().parent.parent


def default_env(tg: FakeTelegram, token: str, database: str | Path, **lifted: str) -> dict[str, str]:
    """`python -m bot`'s environment against ``tg`` on ``database``: none of the bot's own settings taken
    from this shell, so every limit is its default, as a README reader gets it; ``lifted`` sets those a
    benchmark says it lifts (or METRICS_PORT, which changes no limit)."""
    own = {setting.name for setting in SETTINGS} | {"DATABASE_URL", "DATABASE_PATH"}
    env = {k: v for k, v in os.environ.items() if k not in own}
    return {**env, "BOT_TOKEN": token, "BOT_API_BASE_URL": tg.base_url, "BOT_API_FILE_URL": tg.file_url,
            **database_env(database), "PYTHONPATH": str(ROOT), **lifted}


@asynccontextmanager
async def running_bot(tg: FakeTelegram, env: dict[str, str], log: Path) -> AsyncIterator[tuple[int, float]]:
    """`python -m bot` with ``env`` (in ``log``'s folder, stderr to ``log``): its pid and the seconds until
    its first getUpdates arrived; SIGTERM at the end (SIGKILL if it does not stop within 30 s)."""
    polls, t0 = tg.polls_started, tg.clock()
    bot = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=log.parent, env=env,
                                               stdout=asyncio.subprocess.DEVNULL, stderr=log.open("ab"))
    try:
        # a long poll is recorded only when it returns: wait for the new bot's first one to arrive
        await tg.wait_for(lambda s: s.polls_started > polls, timeout=60)
        yield bot.pid, tg.clock() - t0
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(bot.wait(), 30)
            except TimeoutError:
                bot.kill()
                await bot.wait()
