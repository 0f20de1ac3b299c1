"""State of the fake Telegram world shared by the Bot API methods and the test-side API."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .models import (
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    JSONDict,
    RecordedRequest,
    StoredMessage,
    bad_request,
)
from .parsing import check_photo, photo_size_ladder

DEFAULT_ALLOWED_UPDATES = frozenset({
    "message", "edited_message", "channel_post", "edited_channel_post", "business_connection",
    "business_message", "edited_business_message", "deleted_business_messages", "inline_query",
    "chosen_inline_result", "callback_query", "shipping_query", "pre_checkout_query",
    "purchased_paid_media", "poll", "poll_answer", "my_chat_member", "chat_join_request",
    "chat_boost", "removed_chat_boost",
})


@dataclass
class StoredPhoto:
    """An uploaded photo, addressable later by any of its file_ids."""

    data: bytes
    sha256: str
    sizes: list[JSONDict]


@dataclass
class Fault:
    """An injected error to return for the next call(s) of one method."""

    error: ApiError
    remaining: int


@dataclass
class Delay:
    """A late answer for the next call(s) of one method; ``applied`` says the effect is not late."""

    seconds: float
    remaining: int
    applied: bool


Injected = TypeVar("Injected", Fault, Delay)


def take_next(queues: dict[str, list[Injected]], method: str) -> Injected | None:
    """Use up one call of the first injection queued for ``method`` (None when none is)."""
    queue = queues.get(method)
    if not queue:
        return None
    first = queue[0]
    first.remaining -= 1
    if first.remaining <= 0:
        queue.pop(0)
    return first


# Restricted ChatMember rights (Bot API 10): the sending ones follow ``can_send``, the rest are off.
SEND_RIGHTS = (
    "can_send_messages", "can_send_audios", "can_send_documents", "can_send_photos",
    "can_send_videos", "can_send_video_notes", "can_send_voice_notes", "can_send_polls",
    "can_send_other_messages", "can_add_web_page_previews", "can_react_to_messages",
)
OTHER_RIGHTS = ("can_change_info", "can_invite_users", "can_pin_messages", "can_manage_topics",
                "can_edit_tag")


class WorldState:
    """Users, chats, messages, files, updates and bookkeeping of the fake server."""

    def __init__(self, token: str, bot_username: str, bot_first_name: str | None) -> None:
        bot_id_text, _, _secret = token.partition(":")
        if not bot_id_text.isdigit() or not _secret:
            raise ValueError(f"token must look like '<digits>:<secret>', got {token!r}")
        self.token = token
        self.bot = FakeUser(
            id=int(bot_id_text), first_name=bot_first_name or bot_username,
            username=bot_username, language_code=None, is_bot=True,
        )
        self.clock: Callable[[], float] = time.monotonic
        self.wall_clock: Callable[[], float] = time.time
        self.privacy_mode = True
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.messages: dict[int, dict[int, StoredMessage]] = {}
        self.photos: dict[str, StoredPhoto] = {}
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.requests: list[RecordedRequest] = []
        self.violations: list[str] = []
        self.callbacks: dict[str, CallbackAnswer] = {}
        self.dropped_updates: list[JSONDict] = []
        self._updates: list[JSONDict] = []
        self._update_ids = itertools.count(700_000_001)
        self._query_ids = itertools.count(4_000_000_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._delivered_upto = 0
        self.last_update_id = 0
        self._allowed_updates: frozenset[str] = DEFAULT_ALLOWED_UPDATES
        self._next_message_id: dict[int, int] = {}
        self._rate_per_minute: int | None = None
        self._rate_log: dict[int, deque[float]] = {}
        self._rate_period = 60.0
        self._faults: dict[str, list[Fault]] = {}
        self._delays: dict[str, list[Delay]] = {}
        self._late_calls: set[asyncio.Task[RecordedRequest]] = set()
        self._late_answers = 0
        self._changed = asyncio.Condition()
        self._poll_generation = 0
        self._waiting_pollers = 0
        self._closing = False

    # ------------------------------------------------------------------ change notification

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    # ------------------------------------------------------------------ lookups

    def _now_date(self) -> int:
        return int(self.wall_clock())

    def _chat_or_error(self, chat_id: Any) -> FakeChat:
        if chat_id is None or chat_id == "":
            raise bad_request("chat_id is empty")
        if isinstance(chat_id, str):
            if chat_id.startswith("@"):
                for chat in self.chats.values():
                    if chat.username and chat.username.lower() == chat_id[1:].lower():
                        return chat
            raise bad_request("chat not found")
        found = self.chats.get(chat_id)
        if found is None:
            raise bad_request("chat not found")
        return found

    def _bot_chat(self, chat_id: Any) -> FakeChat:
        """The chat for a call acting in it: 400 once upgraded, 403 once the bot left or was kicked."""
        chat = self._chat_or_error(chat_id)
        if chat.migrated_to is not None:
            # the bot cannot know of an upgrade in advance, so this is no violation
            raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                           migrate_to_chat_id=chat.migrated_to, violation=False)
        if chat.has_bot:
            return chat
        if chat.bot_status == "kicked":
            raise ApiError(403, f"Forbidden: bot was kicked from the {chat.type} chat",
                           violation=False)
        raise ApiError(403, f"Forbidden: bot is not a member of the {chat.type} chat",
                       violation=False)

    def _chat_for_send(self, chat_id: Any) -> FakeChat:
        if isinstance(chat_id, int) and chat_id not in self.chats and chat_id in self.users:
            raise ApiError(403, "Forbidden: bot can't initiate conversation with a user",
                           violation=False)
        chat = self._bot_chat(chat_id)
        user = self.users.get(chat.id) if chat.type == "private" else None
        if user is not None and user.blocked_bot:
            raise ApiError(403, "Forbidden: bot was blocked by the user", violation=False)
        return chat

    @staticmethod
    def _require_send_right(chat: FakeChat, description: str) -> None:
        """Refuse a send or edit of a bot restricted without the right to send (not its fault)."""
        if chat.bot_muted:
            raise bad_request(description, violation=False)

    # ------------------------------------------------------------------ messages and files

    def _take_message_id(self, chat: FakeChat) -> int:
        message_id = self._next_message_id.get(chat.id, 1)
        self._next_message_id[chat.id] = message_id + 1
        return message_id

    def _new_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> StoredMessage:
        message_id = self._take_message_id(chat)
        message = StoredMessage(chat=chat, message_id=message_id, sender=sender,
                                date=self._now_date(), **fields)
        self.messages.setdefault(chat.id, {})[message_id] = message
        return message

    def _store_photo(self, data: bytes) -> StoredPhoto:
        info = check_photo(data)
        digest = hashlib.sha256(data).hexdigest()
        unique_base = "AQAD" + digest[:16]
        sizes: list[JSONDict] = []
        ladder = photo_size_ladder(info.width, info.height)
        for index, (width, height) in enumerate(ladder):
            file_id = f"AgACAgIAAxkBAAI{next(self._file_ids):06d}{digest[:10]}_{index}"
            approx = len(data) if (width, height) == (info.width, info.height) else max(
                1, len(data) * width * height // max(1, info.width * info.height))
            sizes.append({"file_id": file_id, "file_unique_id": f"{unique_base}{index}",
                          "file_size": approx, "width": width, "height": height})
        stored = StoredPhoto(data=data, sha256=digest, sizes=sizes)
        for size in sizes:
            self.photos[size["file_id"]] = stored
        return stored

    def _resolve_photo(self, ref: Any, files: dict[str, bytes], field: str) -> StoredPhoto:
        if ref is None and field in files:
            return self._store_photo(files[field])
        if not isinstance(ref, str) or not ref:
            raise bad_request("there is no photo in the request")
        if ref.startswith("attach://"):
            name = ref.removeprefix("attach://")
            if name not in files:
                raise bad_request(f"file of type photo not found in the request: {name}")
            return self._store_photo(files[name])
        if ref in self.photos:
            return self.photos[ref]
        raise bad_request("wrong file identifier/HTTP URL specified")

    # ------------------------------------------------------------------ updates

    @staticmethod
    def _update_type(update: JSONDict) -> str:
        return next((key for key in update if key != "update_id"), "")

    def _enqueue(self, payload: JSONDict) -> JSONDict:
        update = {"update_id": next(self._update_ids), **payload}
        self.last_update_id = update["update_id"]
        self._updates.append(update)
        return update

    def _undelivered(self) -> list[JSONDict]:
        return [u for u in self._updates if u["update_id"] > self._delivered_upto
                and self._update_type(u) in self._allowed_updates]

    def _deliverable(self) -> list[JSONDict]:
        return [u for u in self._updates if self._update_type(u) in self._allowed_updates]

    # ------------------------------------------------------------------ commands

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if scope is None:
            scope = {"type": "default"}
        if not isinstance(scope, dict) or not isinstance(scope.get("type"), str):
            raise bad_request("can't parse BotCommandScope JSON object")
        return json.dumps(scope, sort_keys=True, separators=(",", ":"))

    # ------------------------------------------------------------------ rate limiting

    def _rate_gate(self, chat: FakeChat) -> None:
        if self._rate_per_minute is None or not chat.is_group:
            return
        now = self.clock()
        log = self._rate_log.setdefault(chat.id, deque())
        while log and log[0] <= now - self._rate_period:
            log.popleft()
        if len(log) >= self._rate_per_minute:
            retry = max(1, int(log[0] + self._rate_period - now + 0.999))
            raise ApiError(429, f"Too Many Requests: retry after {retry}", retry_after=retry,
                           violation=False)

    def _rate_note(self, chat: FakeChat) -> None:
        if self._rate_per_minute is not None and chat.is_group:
            self._rate_log.setdefault(chat.id, deque()).append(self.clock())

    # ------------------------------------------------------------------ chat members

    def _member_dict(self, chat: FakeChat, user: FakeUser) -> JSONDict:
        status = chat.bot_status if user.id == self.bot.id else chat.status_of(user.id)
        data: JSONDict = {"status": status, "user": user.to_dict()}
        if status == "creator":
            data["is_anonymous"] = False
        elif status == "administrator":
            data.update({
                "can_be_edited": False, "is_anonymous": False, "can_manage_chat": True,
                "can_delete_messages": True, "can_manage_video_chats": True,
                "can_restrict_members": True, "can_promote_members": False,
                "can_change_info": True, "can_invite_users": True, "can_post_stories": True,
                "can_edit_stories": True, "can_delete_stories": True, "can_pin_messages": True,
                "can_manage_topics": False,
            })
        elif status == "restricted":
            data.update({"is_member": True, "until_date": 0,
                         **dict.fromkeys(SEND_RIGHTS, chat.bot_can_send),
                         **dict.fromkeys(OTHER_RIGHTS, False)})
        elif status == "kicked":
            data["until_date"] = 0
        return data
