"""Honest fake Telegram Bot API server for end-to-end tests with a real PTB Application.

Usage::

    async with FakeTelegram(token="123:ABC", bot_username="GameBot") as tg:
        app = (ApplicationBuilder().token(tg.token)
               .base_url(tg.base_url).base_file_url(tg.file_url).build())

Layout: ``world`` holds the state (with ``updates``: the update queue and long polling,
``faults`` and ``rate_limit``: what a test asked to go wrong, ``changes``: the signal every
wait watches); ``methods/`` are the Bot API methods, one module per area, each a function
of the world; ``calls`` answers one HTTP call with them; the test-facing API is mixed into
``FakeTelegram`` (``server``) from ``world_building``, ``user_actions``, ``chat_changes``,
``forum_actions``, ``inspection``, ``waiting`` and ``fault_injection``; ``parsing`` checks
content like Telegram. Forum topics change through ``forum`` (for the bot's methods and the
test helpers alike), and ``threads`` decides which topic or reply thread a message lands in.
"""

from .forum import ICON_COLORS
from .inspection import ANY_THREAD
from .methods import METHODS, NOT_MODIFIED, QUERY_TOO_OLD
from .models import (
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    ForumTopic,
    RecordedRequest,
    StoredMessage,
)
from .server import FakeTelegram

__all__ = [
    "ANY_THREAD",
    "ICON_COLORS",
    "METHODS",
    "NOT_MODIFIED",
    "QUERY_TOO_OLD",
    "ApiError",
    "CallbackAnswer",
    "FakeChat",
    "FakeTelegram",
    "FakeUser",
    "ForumTopic",
    "RecordedRequest",
    "StoredMessage",
]
