"""Plain data objects of the fake Telegram world: users, chats, messages, requests."""

from __future__ import annotations

import asyncio
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

JSONDict = dict[str, Any]

GROUP_TYPES = frozenset({"group", "supergroup"})
BOT_GONE = frozenset({"left", "kicked"})
GENERAL_TOPIC_ID = 1
"""The forum's «General» topic: Telegram's thread id 1, never given to a created topic and never shown."""


class ApiError(Exception):
    """A Bot API error answer: ``{"ok": false, "error_code": code, "description": ...}``."""

    def __init__(
        self,
        code: int,
        description: str,
        *,
        retry_after: int | None = None,
        migrate_to_chat_id: int | None = None,
        violation: bool = True,
    ) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.retry_after = retry_after
        self.migrate_to_chat_id = migrate_to_chat_id
        self.violation = violation

    def payload(self) -> JSONDict:
        """Return the JSON body Telegram would send for this error."""
        body: JSONDict = {"ok": False, "error_code": self.code, "description": self.description}
        given = {"migrate_to_chat_id": self.migrate_to_chat_id, "retry_after": self.retry_after}
        parameters = {name: value for name, value in given.items() if value is not None}
        if parameters:
            body["parameters"] = parameters
        return body


def bad_request(description: str, *, violation: bool = True) -> ApiError:
    """Build a 400 error; ``description`` is the part after ``"Bad Request: "``."""
    return ApiError(400, f"Bad Request: {description}", violation=violation)


@dataclass
class FakeUser:
    """A Telegram user (or the bot itself when ``is_bot`` is true)."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = "ru"
    last_name: str | None = None
    is_bot: bool = False
    blocked_bot: bool = False

    def to_dict(self) -> JSONDict:
        """Return the Bot API ``User`` object."""
        data: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name is not None:
            data["last_name"] = self.last_name
        if self.username is not None:
            data["username"] = self.username
        if self.language_code is not None and not self.is_bot:
            data["language_code"] = self.language_code
        return data


@dataclass
class FakeChat:
    """A chat with its member roles; the bot is an administrator unless ``bot_status`` says no.

    ``bot_can_send`` is false only for a bot restricted without the right to send messages;
    ``bot_can_manage_topics`` and ``bot_can_delete`` are the bot's administrator rights
    ``can_manage_topics`` and ``can_delete_messages`` (they count only while it is one);
    ``is_forum`` makes a supergroup a forum with topics; ``migrated_to`` is the id of the
    supergroup a group was upgraded to.
    """

    id: int
    type: str = "supergroup"
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    creator: int | None = None
    admins: set[int] = field(default_factory=set)
    members: set[int] = field(default_factory=set)
    bot_status: str = "administrator"
    bot_can_send: bool = True
    bot_can_manage_topics: bool = False
    bot_can_delete: bool = True
    is_forum: bool = False
    migrated_to: int | None = None
    slow_mode_delay: int = 0  # seconds between a member's messages (an admin's are not spaced)

    @property
    def is_group(self) -> bool:
        """True for groups and supergroups."""
        return self.type in GROUP_TYPES

    @property
    def has_bot(self) -> bool:
        """False once the bot left or was kicked from this group."""
        return not (self.is_group and self.bot_status in BOT_GONE)

    @property
    def bot_muted(self) -> bool:
        """True when the bot is restricted without the right to send messages here."""
        return self.bot_status == "restricted" and not self.bot_can_send

    @property
    def bot_manages_topics(self) -> bool:
        """True when the bot is an administrator with the right to manage topics."""
        return self.bot_status == "administrator" and self.bot_can_manage_topics

    @property
    def bot_deletes_messages(self) -> bool:
        """True when the bot is an administrator with the right to delete others' messages."""
        return self.bot_status == "administrator" and self.bot_can_delete

    @property
    def managers(self) -> list[int]:
        """The creator (if known), then the administrators by id: who may change the group."""
        return ([self.creator] if self.creator is not None else []) + sorted(self.admins)

    def set_admin(self, user_id: int) -> None:
        """Make ``user_id`` an administrator of this chat."""
        self.members.add(user_id)
        self.admins.add(user_id)

    def set_creator(self, user_id: int) -> None:
        """Make ``user_id`` the creator (owner) of this chat."""
        self.members.add(user_id)
        self.creator = user_id

    def add_member(self, user_id: int) -> None:
        """Add ``user_id`` as an ordinary member."""
        self.members.add(user_id)

    def remove_member(self, user_id: int) -> None:
        """Make ``user_id`` leave the chat (drops admin rights too)."""
        self.members.discard(user_id)
        self.admins.discard(user_id)
        if self.creator == user_id:
            self.creator = None

    def status_of(self, user_id: int) -> str:
        """Return ``creator``, ``administrator``, ``member`` or ``left`` for a user."""
        if self.type == "private":
            return "member" if user_id == self.id else "left"
        if user_id == self.creator:
            return "creator"
        if user_id in self.admins:
            return "administrator"
        if user_id in self.members:
            return "member"
        return "left"

    def to_dict(self) -> JSONDict:
        """Return the Bot API ``Chat`` object."""
        data: JSONDict = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.is_forum:
            data["is_forum"] = True
        return data

    def full_info(self) -> JSONDict:
        """What getChat tells beyond the ``Chat`` object (the fields the bot reads)."""
        return {**self.to_dict(), **({"slow_mode_delay": self.slow_mode_delay} if self.slow_mode_delay else {})}


UserRef = FakeUser | int
"""A user, or its id, as the test-facing methods take one."""
ChatRef = FakeChat | int
"""A chat, or its id, as the test-facing methods take one."""


def chat_id_of(chat: ChatRef) -> int:
    """The id of a chat given as itself or as its id."""
    return chat.id if isinstance(chat, FakeChat) else chat


Button = tuple[str, str | None]


@dataclass
class StoredPhoto:
    """An uploaded photo, addressable later by any of its file_ids."""

    data: bytes
    sha256: str
    sizes: list[JSONDict]


@dataclass
class StoredAnimation:
    """An uploaded animation (a GIF or a silent H.264 MP4), addressable later by its file_id."""

    data: bytes
    file_id: str
    file_unique_id: str
    width: int
    height: int
    duration: int
    mime_type: str
    file_name: str

    def to_dict(self) -> JSONDict:
        return {"file_id": self.file_id, "file_unique_id": self.file_unique_id, "width": self.width,
                "height": self.height, "duration": self.duration, "mime_type": self.mime_type,
                "file_name": self.file_name, "file_size": len(self.data)}

    def document(self) -> JSONDict:
        """The ``document`` Telegram sends beside an ``animation``, for clients that know no animations."""
        return {key: value for key, value in self.to_dict().items() if key not in ("width", "height", "duration")}


@dataclass
class StoredMessage:
    """A message as the fake server stores it (bot messages and user messages alike)."""

    chat: FakeChat
    message_id: int
    sender: FakeUser
    date: int
    text: str | None = None
    entities: list[JSONDict] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[JSONDict] = field(default_factory=list)
    photo: bytes | None = None
    photo_sizes: list[JSONDict] = field(default_factory=list)
    photo_hash: str | None = None
    animation: StoredAnimation | None = None
    reply_markup: JSONDict | None = None
    parse_mode: str | None = None
    reply_to: StoredMessage | None = None
    edit_count: int = 0
    edit_date: int | None = None
    deleted: bool = False
    thread_id: int | None = None
    """The forum topic the message is in; None in a forum's General topic and outside forums."""
    reply_thread_id: int | None = None
    """Outside forums, in a supergroup: the first message of the chain of replies it belongs to."""
    external_reply: StoredMessage | None = None
    """A message of another topic that this one replies to (``reply_to`` is then the topic's start)."""
    service: JSONDict = field(default_factory=dict)
    """A service message's own fields, e.g. ``{"forum_topic_created": {...}}``."""

    @property
    def chat_id(self) -> int:
        """Id of the chat the message lives in."""
        return self.chat.id

    @property
    def from_bot(self) -> bool:
        """True when the bot sent this message."""
        return self.sender.is_bot

    @property
    def inline_keyboard(self) -> list[list[JSONDict]]:
        """Rows of inline keyboard buttons (empty when there is no inline keyboard)."""
        if not self.reply_markup:
            return []
        rows = self.reply_markup.get("inline_keyboard")
        return rows if isinstance(rows, list) else []

    @property
    def buttons(self) -> list[Button]:
        """Flat list of ``(text, callback_data)`` for every inline button, row by row."""
        return [(b.get("text", ""), b.get("callback_data")) for row in self.inline_keyboard
                for b in row]

    def _matching(self, text: str) -> list[str | None]:
        """callback_data of the buttons whose text equals ``text``, else of those containing it."""
        exact = [data for label, data in self.buttons if label == text]
        return exact or [data for label, data in self.buttons if text in label]

    def has_button(self, text: str) -> bool:
        """Whether :meth:`button` finds a button for ``text`` (a test waits for one before pressing)."""
        found = self._matching(text)
        return len(found) == 1 and found[0] is not None

    def button(self, text: str) -> str:
        """Return callback_data of the button whose text equals or (uniquely) contains ``text``."""
        found = self._matching(text)
        if len(found) != 1 or found[0] is None:
            raise LookupError(
                f"{len(found)} callback buttons match {text!r} in message "
                f"{self.message_id}; buttons: {self.buttons}"
            )
        return found[0]

    def to_dict(self, *, with_reply: bool = True) -> JSONDict:
        """Return the Bot API ``Message`` object for the current state."""
        data: JSONDict = {
            "message_id": self.message_id,
            "from": self.sender.to_dict(),
            "chat": self.chat.to_dict(),
            "date": self.date,
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        thread = self.thread_id if self.thread_id is not None else self.reply_thread_id
        if thread is not None:
            data["message_thread_id"] = thread
        if self.thread_id is not None:
            data["is_topic_message"] = True
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_dict(with_reply=False)
        if self.external_reply is not None:
            data["external_reply"] = self.external_reply.external_reply_info()
        data.update(self.service)
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.animation is not None:
            data["animation"] = self.animation.to_dict()
            data["document"] = self.animation.document()
        if self.photo is not None or self.animation is not None:
            if self.photo is not None:
                data["photo"] = self.photo_sizes
            if self.caption:
                data["caption"] = self.caption
                if self.caption_entities:
                    data["caption_entities"] = self.caption_entities
        if self.inline_keyboard:
            data["reply_markup"] = {"inline_keyboard": self.inline_keyboard}
        return data

    def external_reply_info(self) -> JSONDict:
        """The Bot API ``ExternalReplyInfo`` a reply from another topic shows of this message."""
        info: JSONDict = {
            "origin": {"type": "user", "sender_user": self.sender.to_dict(), "date": self.date},
            "chat": self.chat.to_dict(), "message_id": self.message_id,
        }
        if self.photo is not None:
            info["photo"] = self.photo_sizes
        return info

    def summary(self) -> str:
        """One-line human description used in failure dumps."""
        if self.service:
            body = f"[{', '.join(self.service)}]"
        else:
            kind = "animation" if self.animation is not None else "photo"
            body = self.text if self.text is not None else f"[{kind}] {self.caption or ''}"
        body = body.replace("\n", "\\n")
        if len(body) > 70:
            body = body[:67] + "..."
        flags = " (deleted)" if self.deleted else ""
        flags += f" [topic {self.thread_id}]" if self.thread_id is not None else ""
        edits = f" edits={self.edit_count}" if self.edit_count else ""
        who = "bot" if self.from_bot else f"user {self.sender.id}"
        buttons = f" buttons={self.buttons}" if self.buttons else ""
        return f"#{self.message_id} {who}{flags}{edits}: {body!r}{buttons}"


@dataclass
class ForumTopic:
    """A topic of a forum; its thread id is the message id of its ``forum_topic_created`` message."""

    root: StoredMessage
    name: str
    icon_color: int
    creator: int
    """Id of the user (or the bot) who created it: they may close, reopen and edit it."""
    closed: bool = False
    deleted: bool = False

    @property
    def thread_id(self) -> int:
        """The topic's ``message_thread_id``."""
        return self.root.message_id

    @property
    def chat(self) -> FakeChat:
        """The forum the topic is in."""
        return self.root.chat

    def to_dict(self) -> JSONDict:
        """Return the Bot API ``ForumTopic`` object."""
        return {"message_thread_id": self.thread_id, "name": self.name, "icon_color": self.icon_color}


@dataclass
class RecordedRequest:
    """One Bot API call the bot made, with decoded params, uploaded files and our answer."""

    method: str
    params: JSONDict
    files: dict[str, bytes]
    at: float
    response: JSONDict
    http_status: int = 200
    delayed: float = 0.0  # seconds the answer was held back by delay_next()

    @property
    def ok(self) -> bool:
        """True when the call succeeded."""
        return bool(self.response.get("ok"))

    @property
    def error_code(self) -> int | None:
        """Error code of a failed call, else None."""
        code = self.response.get("error_code")
        return code if isinstance(code, int) else None

    @property
    def description(self) -> str | None:
        """Error description of a failed call, else None."""
        desc = self.response.get("description")
        return desc if isinstance(desc, str) else None

    @property
    def result(self) -> Any:
        """The ``result`` of a successful call."""
        return self.response.get("result")

    def summary(self) -> str:
        """One-line human description used in failure dumps."""
        shown = {k: v for k, v in self.params.items() if k not in {"reply_markup", "media"}}
        text = repr(shown)
        if len(text) > 120:
            text = text[:117] + "..."
        status = "ok" if self.ok else f"{self.error_code} {self.description}"
        files = f" files={sorted(self.files)}" if self.files else ""
        return f"{self.method} {text}{files} -> {status}"


@dataclass(eq=False)
class CallbackAnswer:
    """Handle for one pressed button; completed when the bot calls answerCallbackQuery."""

    query_id: str
    user: FakeUser
    chat_id: int
    message_id: int
    data: str
    params: JSONDict | None = None
    answer_count: int = 0
    update_id: int = 0  # of the callback_query update that carries the press
    _event: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def answered(self) -> bool:
        """True once answerCallbackQuery succeeded for this query."""
        return self._event.is_set()

    @property
    def text(self) -> str | None:
        """Notification text the bot answered with (None if none or not answered yet)."""
        return None if self.params is None else self.params.get("text")

    @property
    def show_alert(self) -> bool:
        """Whether the bot asked for an alert box instead of a toast."""
        return bool(self.params and self.params.get("show_alert"))

    def _resolve(self, params: JSONDict) -> None:
        self.params = params
        self._event.set()

    def __await__(self) -> Generator[Any, None, JSONDict]:
        return self.wait().__await__()

    async def wait(self, timeout: float = 5.0) -> JSONDict:
        """Wait until the bot answers this query and return the answerCallbackQuery params."""
        try:
            await asyncio.wait_for(self._event.wait(), timeout)
        except TimeoutError:
            raise TimeoutError(
                f"callback query {self.query_id} (data={self.data!r}) was not answered "
                f"within {timeout}s"
            ) from None
        assert self.params is not None
        return self.params
