"""What `python -m bot` lets into its log: ids, never the token, the webhook secret, names or people's words.

The bot's own log lines name chats, games, messages and updates by id. Two libraries would put more
there: PTB logs, at DEBUG, every update it processes and every Bot API call with its parameters and
its answer (the players' names and messages, the captions that name them, setWebhook's secret), and
aiosqlite every statement with its parameters. The handlers of the root logger therefore carry
:class:`PeopleOutOfLogs`, which shows the objects in PTB's records by their ids, and
:class:`RedactToken`, which cuts the two secrets out of whatever line is left; aiosqlite logs at INFO
at most (``python -m bot`` sets it, see ``setup_logging``).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from enum import Enum
from typing import Any

from telegram import Message, TelegramObject, Update

ID_FIELDS = frozenset({
    "update_id", "message_id", "message_ids", "chat_id", "from_chat_id", "user_id", "message_thread_id",
    "callback_query_id", "id", "offset", "limit", "timeout", "max_connections",
})
"""Fields shown with their values; every other field is shown by its name alone."""
MOST_ITEMS = 10  # of a list, the rest counted
LONGEST_TEXT = 200  # characters of a bare string argument before it is shown by its length only


class RedactToken(logging.Filter):
    """Replaces the bot token, and the webhook secret if there is one, wherever they would appear in a log line."""

    def __init__(self, token: str, webhook_secret: str | None = None) -> None:
        super().__init__()
        self.token = token
        self.replacements = [(token, "<token>")]
        if webhook_secret:
            self.replacements.append((webhook_secret, "<webhook secret>"))

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        redacted = self.redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        if record.exc_info and not record.exc_text:  # a traceback quotes exception messages too
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        for name in ("exc_text", "stack_info"):
            text = getattr(record, name)
            if text:
                setattr(record, name, self.redact(text))
        return True

    def redact(self, text: str) -> str:
        """``text`` with the secrets replaced."""
        for secret, placeholder in self.replacements:
            text = text.replace(secret, placeholder)
        return text


class PeopleOutOfLogs(logging.Filter):
    """Shows the Telegram objects, parameter dicts and lists in PTB's log records by their ids.

    PTB puts people's names and words into its records only inside such objects (an Update, the
    parameters of a call, the Message a call returned); its bare string arguments are method names,
    URLs and loop names. A string longer than :data:`LONGEST_TEXT` is shown by its length anyway.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.name.startswith("telegram"):
            return True  # the bot's own lines log ids already
        if not isinstance(record.msg, str):
            record.msg = shown(record.msg)
        if isinstance(record.args, Mapping):
            record.args = {key: shown(value) for key, value in record.args.items()}
        elif record.args:
            record.args = tuple(shown(value) for value in record.args)
        return True


def shown(value: object) -> object:
    """``value`` as a log line may show it: numbers, flags and short strings as they are, the rest by ids."""
    if value is None or isinstance(value, bool | int | float | Enum):
        return value
    if isinstance(value, str):
        return value if len(value) <= LONGEST_TEXT else f"<{len(value)} characters>"
    if isinstance(value, type):
        return value.__qualname__
    if isinstance(value, bytes | bytearray):
        return f"<{len(value)} bytes>"
    if isinstance(value, Update):
        return update_ids(value)
    if isinstance(value, Message):
        return f"message {value.message_id} in chat {value.chat_id}"
    if isinstance(value, TelegramObject):
        return f"{type(value).__name__}({fields(value.to_dict())})"
    if isinstance(value, Mapping):
        return fields(value)
    if isinstance(value, list | tuple):
        items = [str(shown(item)) for item in value[:MOST_ITEMS]]
        more = f", … {len(value)} in all" if len(value) > MOST_ITEMS else ""
        return f"[{', '.join(items)}{more}]"
    return f"<{type(value).__name__}>"


def update_ids(update: Update) -> str:
    """An update by its id, kind, chat and sender: «7 (callback_query, chat -100123, user 2)» (PTB's lines
    say «update» before it)."""
    kind = next((key for key in update.to_dict() if key != "update_id"), "unknown")
    where = [kind]
    if update.effective_chat is not None:
        where.append(f"chat {update.effective_chat.id}")
    if update.effective_user is not None:
        where.append(f"user {update.effective_user.id}")
    return f"{update.update_id} ({', '.join(where)})"


def fields(mapping: Mapping[Any, object]) -> str:
    """A dict's fields: the ids with their values (a nested object by its id), the rest by name."""
    parts = []
    for key, value in mapping.items():
        nested_id = value.get("id") if isinstance(value, Mapping) else getattr(value, "id", None)
        if key in ID_FIELDS and isinstance(value, int | str | list | tuple):
            parts.append(f"{key}={_id_value(value)}")
        elif isinstance(nested_id, int) and not isinstance(nested_id, bool):
            parts.append(f"{key}={nested_id}")  # the chat, the sender: by their ids
        else:
            parts.append(str(key))
    return ", ".join(parts)


def _id_value(value: int | str | list[object] | tuple[object, ...]) -> str:
    """An id as it is, if it looks like one (a number, or digits); else only that it is there."""
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_id_value(v) for v in value if isinstance(v, int | str)) + "]"
    text = str(value)
    return text if text.lstrip("-").isdigit() else "…"
