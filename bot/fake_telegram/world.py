"""The state of the fake Telegram world, shared by the Bot API methods and the test-facing API."""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .changes import ChangeSignal
from .faults import InjectedFaults
from .models import (
    GENERAL_TOPIC_ID,
    CallbackAnswer,
    FakeChat,
    FakeUser,
    ForumTopic,
    JSONDict,
    RecordedRequest,
    StoredAnimation,
    StoredMessage,
    StoredPhoto,
)
from .parsing import check_animation, check_photo, photo_size_ladder
from .rate_limit import GroupRateLimit
from .updates import UpdateQueue
from .webhook import WebhookDelivery


@dataclass
class _Shifted:
    """A clock running ``offset`` seconds ahead of ``base``: advancing it again adds to the offset
    (a lambda wrapping the last one would nest a call per advance, past Python's recursion limit)."""

    base: Callable[[], float]
    offset: float

    def __call__(self) -> float:
        return self.base() + self.offset


def _shifted(clock: Callable[[], float], seconds: float) -> _Shifted:
    """``clock`` advanced by ``seconds``."""
    if isinstance(clock, _Shifted):
        return _Shifted(clock.base, clock.offset + seconds)
    return _Shifted(clock, seconds)


class World:
    """Everything the fake server keeps: the bot, users, chats and their messages and forum
    topics, photos, commands, pressed buttons, the update queue and webhook, the calls the bot made, and
    what a test asked to go wrong."""

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
        self.topics: dict[int, dict[int, ForumTopic]] = {}
        """Forum topics by chat id and thread id, deleted ones included."""
        self.photos: dict[str, StoredPhoto] = {}
        self.animations: dict[str, StoredAnimation] = {}  # by file_id
        self.animation_uploads = 0  # animations uploaded (a send by file_id uploads nothing)
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.requests: list[RecordedRequest] = []
        self.violations: list[str] = []
        self.callbacks: dict[str, CallbackAnswer] = {}
        self.changes = ChangeSignal()
        self.updates = UpdateQueue(self.changes)
        self.webhook = WebhookDelivery(self.updates, self.changes, clock=lambda: self.clock(),
                                       now_date=self.now_date)
        self.faults = InjectedFaults()
        self.rate_limit = GroupRateLimit()
        self._query_ids = itertools.count(4_000_000_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._next_message_id: dict[int, int] = {}

    def now_date(self) -> int:
        """The current Unix time, as Telegram dates messages and updates."""
        return int(self.wall_clock())

    async def deliver_again(self, update_id: int) -> JSONDict:
        """Deliver update ``update_id`` to the bot again (:meth:`UpdateQueue.deliver_again`)."""
        update = self.updates.deliver_again(update_id)
        await self.changes.notify()
        return update

    def restart_update_ids(self, start: int) -> None:
        """Number the bot's next update ``start`` (and on), as Telegram does after a week without updates:
        a new sequence, usually far below the last one (updates.py tells how getUpdates takes it). The
        queue must be empty, as it is after such a week (a ValueError if not)."""
        self.updates.restart_ids(start)

    def advance_clock(self, seconds: float) -> None:
        """Let ``seconds`` pass on both clocks: message dates and ages, and the flood windows."""
        self.clock, self.wall_clock = _shifted(self.clock, seconds), _shifted(self.wall_clock, seconds)

    def take_message_id(self, chat: FakeChat) -> int:
        """The next message id in ``chat`` (ids count up per chat, service messages included)."""
        message_id = self._next_message_id.get(chat.id, 1)
        if chat.is_forum and message_id == GENERAL_TOPIC_ID:
            # in a real forum message 1 is the supergroup's own service message, and thread id 1
            # means General, so no message (and no topic) of a forum takes it
            message_id += 1
        self._next_message_id[chat.id] = message_id + 1
        return message_id

    def live_topic(self, chat: FakeChat, thread_id: object) -> ForumTopic | None:
        """The forum topic ``thread_id`` names in ``chat``, unless there is none or it was deleted."""
        topic = self.topics.get(chat.id, {}).get(thread_id) if isinstance(thread_id, int) else None
        return topic if topic is not None and not topic.deleted else None

    def new_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> StoredMessage:
        """Store a new message of ``sender`` in ``chat``; ``fields`` are StoredMessage's."""
        message_id = self.take_message_id(chat)
        message = StoredMessage(chat=chat, message_id=message_id, sender=sender,
                                date=self.now_date(), **fields)
        self.messages.setdefault(chat.id, {})[message_id] = message
        return message

    def store_animation(self, data: bytes, file_name: str) -> StoredAnimation:
        """Keep an uploaded animation (checked like Telegram) under a new file_id."""
        info = check_animation(data)
        digest = hashlib.sha256(data).hexdigest()
        stored = StoredAnimation(data=data, file_id=f"CgACAgIAAxkBAAI{next(self._file_ids):06d}{digest[:10]}",
                                 file_unique_id="AgAD" + digest[:16], width=info.width, height=info.height,
                                 duration=round(info.duration), file_name=file_name,
                                 mime_type="image/gif" if info.codec == "gif" else "video/mp4")
        self.animations[stored.file_id] = stored
        self.animation_uploads += 1
        return stored

    def store_photo(self, data: bytes) -> StoredPhoto:
        """Keep an uploaded photo (checked like Telegram) under a file_id for each of its sizes."""
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
