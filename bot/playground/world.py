"""The playground's world: a fake Telegram with one group of four members, and the real bot in it."""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bot.app import BotApp, build_application, start_app, stop_app
from bot.config import Config
from bot.fake_telegram import FakeTelegram, FakeUser
from bot.playground.server import serve_view

TOKEN = "123456:PLAYGROUND"  # the fake server's, not a Telegram token
BOT_NAME, BOT_USERNAME = "Соседи", "SosediBot"
CHAT_ID, CHAT_TITLE = -1001000000001, "Игровая"
MEMBERS = ("Аня", "Борис", "Вера", "Глеб")  # Аня created the group, so she is its admin
POLL_TIMEOUT_S = 10
# One person plays every seat and presses fast: Telegram's 20 messages a minute per group
# would keep them waiting, and the fake server does not enforce it here.
GROUP_MAX_RATE = 10_000


@dataclass
class Playground:
    """What :func:`open_playground` runs: the fake server, the bot, the members and the page's URL."""

    tg: FakeTelegram
    app: BotApp
    members: tuple[FakeUser, ...]
    chat_id: int
    url: str
    database_path: Path


@asynccontextmanager
async def open_playground(port: int = 8080, database: Path | None = None, *,
                          host: str = "127.0.0.1") -> AsyncIterator[Playground]:
    """Start the fake server, the bot (on ``database``, or a temporary one) and the page on ``port``."""
    async with AsyncExitStack() as stack:
        if database is None:
            database = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="playground-"))) / "bot.sqlite3"
        database.parent.mkdir(parents=True, exist_ok=True)
        tg = await stack.enter_async_context(FakeTelegram(TOKEN, BOT_USERNAME, bot_first_name=BOT_NAME))
        members = tuple(tg.add_user(i, name) for i, name in enumerate(MEMBERS, start=1))
        tg.add_chat(CHAT_ID, "supergroup", CHAT_TITLE, creator=members[0].id)
        for member in members:
            tg.chats[CHAT_ID].add_member(member.id)
        config = Config(token=tg.token, base_url=tg.base_url, base_file_url=tg.file_url,
                        database_path=str(database), group_max_rate=GROUP_MAX_RATE, private_max_rate=GROUP_MAX_RATE,
                        poll_timeout=POLL_TIMEOUT_S)
        app = build_application(config)
        await start_app(app, POLL_TIMEOUT_S)
        stack.push_async_callback(stop_app, app)
        url = await stack.enter_async_context(serve_view(tg, CHAT_ID, port=port, host=host, members=members))
        yield Playground(tg, app, members, CHAT_ID, url, database)
