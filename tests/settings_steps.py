"""The /settings message and what the bot stored for it."""

from __future__ import annotations

from typing import Any

from bot.fake_telegram import FakeUser, StoredMessage
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    flow_of,
)


async def open_settings(runner: BotRunner, user: FakeUser) -> StoredMessage:
    await runner.say(user, "/settings")
    message = runner.tg.last_bot_message(CHAT_ID)
    assert message.text is not None
    return message


async def stored(runner: BotRunner) -> tuple[str | None, dict[str, Any]]:
    """The chat's language and settings as the bot stored them."""
    store = flow_of(runner).store
    return (await store.chat(CHAT_ID)).locale, dict((await store.chat(CHAT_ID)).settings)
