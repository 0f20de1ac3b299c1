"""A webhook update sent again, and everything it could have changed."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from typing import Any

import aiohttp

from bot.fake_telegram import FakeTelegram
from bot.fake_telegram.webhook import SECRET_HEADER
from tests.bot_harness import (
    WEBHOOK_SECRET,
    BotRunner,
)


def snapshot(tg: FakeTelegram, runner: BotRunner) -> tuple[str, int]:
    """Everything the bot could change: its whole database but the ids of the updates it answered (a
    refused press is one: bot/redelivery.py), and the Bot API calls it has made."""
    with contextlib.closing(sqlite3.connect(runner.db_path)) as conn:
        dump = "\n".join(line for line in conn.iterdump() if not line.startswith('INSERT INTO "handled_updates"'))
    return dump, len(tg.requests)


async def redeliver(runner: BotRunner, update: dict[str, Any]) -> None:
    """Telegram sends ``update`` again (its answer was lost): the bot takes it (200) and handles it."""
    count = runner.processed_count
    assert await post(runner, update) == 200
    await runner.processed_upto(count + 1)
    assert runner.app is not None
    await runner.app.bot_data["flow"].outbox.idle()


async def post(runner: BotRunner, body: bytes | str | dict[str, Any], secret: str | None = WEBHOOK_SECRET,
               content_type: str = "application/json") -> int:
    """POST ``body`` to the bot's webhook as anyone on the network could; the HTTP status."""
    headers = {"Content-Type": content_type}
    if secret is not None:
        headers[SECRET_HEADER] = secret
    data = json.dumps(body) if isinstance(body, dict) else body
    async with aiohttp.ClientSession() as session, session.post(
            runner.webhook_settings().url, data=data, headers=headers) as response:
        return response.status
