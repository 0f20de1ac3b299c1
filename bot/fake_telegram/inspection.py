"""Looking at the fake world from a test: the calls the bot made, its messages, the update queue."""

from __future__ import annotations

import enum
from typing import Literal

from .methods.commands import scope_key
from .models import (
    CallbackAnswer,
    ChatRef,
    ForumTopic,
    JSONDict,
    RecordedRequest,
    StoredMessage,
    chat_id_of,
)
from .world import World


class AnyThread(enum.Enum):
    """The type of :data:`ANY_THREAD`."""

    ANY = "any"


ANY_THREAD = AnyThread.ANY
"""A thread filter that takes every message of a chat, whatever topic it is in."""
ThreadFilter = int | None | Literal[AnyThread.ANY]
"""A forum topic's thread id, None for General (or a chat without topics), or ANY_THREAD."""


def in_thread(message: StoredMessage, thread: ThreadFilter) -> bool:
    """Whether ``message`` is in the forum topic ``thread`` (None: General) or ``thread`` is ANY_THREAD."""
    return thread is ANY_THREAD or message.thread_id == thread


class Inspection(World):
    """The test-facing reads of the world, and ``dump()`` for failure messages."""

    @property
    def polls_started(self) -> int:
        """getUpdates calls received so far, counted on arrival (``requests`` records them on return)."""
        return self.updates.polls_started

    @property
    def waiting_pollers(self) -> int:
        """Number of getUpdates calls currently blocked in long polling."""
        return self.updates.waiting_pollers

    @property
    def last_update_id(self) -> int:
        """update_id of the newest update queued for the bot (0 before the first)."""
        return self.updates.last_update_id

    @property
    def dropped_updates(self) -> list[JSONDict]:
        """Updates thrown away unseen: not in allowed_updates, or dropped by deleteWebhook."""
        return self.updates.dropped

    @property
    def delivered_at(self) -> dict[int, float]:
        """update_id -> ``clock()`` when a getUpdates answer first carried it (benchmarks)."""
        return self.updates.delivered_at

    def pending_updates_count(self) -> int:
        """Updates queued and not yet confirmed by getUpdates (like getWebhookInfo)."""
        return len(self.updates.pending)

    def requests_for(self, method: str) -> list[RecordedRequest]:
        """Recorded calls of one method (name matched case-insensitively)."""
        return [r for r in self.requests if r.method.lower() == method.lower()]

    def failed_requests(self) -> list[RecordedRequest]:
        """Every recorded call that got an error answer."""
        return [r for r in self.requests if not r.ok]

    def message(self, chat: ChatRef, message_id: int) -> StoredMessage:
        """Stored message (also deleted ones) by chat and id."""
        chat_id = chat_id_of(chat)
        try:
            return self.messages[chat_id][message_id]
        except KeyError:
            raise LookupError(f"no message {chat_id}/{message_id}") from None

    def bot_messages(self, chat: ChatRef, thread: ThreadFilter = ANY_THREAD) -> list[StoredMessage]:
        """Live (not deleted) messages the bot sent in ``chat`` (in forum topic ``thread``: an id,
        or None for General), oldest first."""
        chat_id = chat_id_of(chat)
        return [m for m in self.messages.get(chat_id, {}).values()
                if m.from_bot and not m.deleted and in_thread(m, thread)]

    def last_bot_message(self, chat: ChatRef, thread: ThreadFilter = ANY_THREAD) -> StoredMessage:
        """The newest live bot message in ``chat`` (in forum topic ``thread``, if given)."""
        messages = self.bot_messages(chat, thread)
        if not messages:
            where = "" if thread is ANY_THREAD else f" (thread {thread})"
            raise LookupError(f"the bot has no live messages in chat {chat}{where}\n{self.dump()}")
        return messages[-1]

    def messages_in(self, chat: ChatRef, thread: int | None) -> list[StoredMessage]:
        """Live messages of the bot and of users in forum topic ``thread`` (None: General, or the
        whole of a chat without topics), service messages included, oldest first."""
        return [m for m in self.messages.get(chat_id_of(chat), {}).values()
                if not m.deleted and m.thread_id == thread]

    def topic(self, chat: ChatRef, thread: int) -> ForumTopic:
        """A forum topic by its thread id (deleted ones too: see ``.deleted``)."""
        chat_id = chat_id_of(chat)
        try:
            return self.topics[chat_id][thread]
        except KeyError:
            raise LookupError(f"chat {chat_id} has no topic {thread}") from None

    def unanswered_callbacks(self) -> list[CallbackAnswer]:
        """Pressed buttons the bot has not answered yet."""
        return [h for h in self.callbacks.values() if not h.answered]

    def commands_for(self, scope: JSONDict | None = None, language_code: str = "") -> list[JSONDict]:
        """Commands stored by setMyCommands for a scope (default scope if None) and language."""
        return list(self.commands.get((scope_key(scope), language_code), []))

    def dump(self, last_requests: int = 25) -> str:
        """Human-readable state: recent requests, chats, pending updates, violations."""
        lines = [f"--- last {last_requests} of {len(self.requests)} requests:"]
        lines += [f"  {r.summary()}" for r in self.requests[-last_requests:]]
        for chat_id, messages in self.messages.items():
            if messages:
                lines.append(f"--- chat {chat_id}:")
                lines += [f"  {m.summary()}" for m in messages.values()]
        updates = self.updates
        lines.append(f"--- pending updates: {len(updates.pending)}, undelivered: "
                     f"{len(updates.undelivered())}, waiting pollers: {updates.waiting_pollers}")
        lines += [f"  unanswered callback {h.query_id} data={h.data!r}"
                  for h in self.unanswered_callbacks()]
        lines.append(f"--- violations: {self.violations or 'none'}")
        return "\n".join(lines)
