"""Honest fake Telegram Bot API server for end-to-end tests with a real PTB Application.

Usage::

    async with FakeTelegram(token="123:ABC", bot_username="GameBot") as tg:
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.base_url).base_file_url(tg.file_url).build())
"""

from .methods import METHODS, NOT_MODIFIED, QUERY_TOO_OLD
from .models import (
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    RecordedRequest,
    StoredMessage,
)
from .server import FakeTelegram

__all__ = [
    "METHODS",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "ApiError",
    "CallbackAnswer",
    "FakeChat",
    "FakeTelegram",
    "FakeUser",
    "RecordedRequest",
    "StoredMessage",
]
