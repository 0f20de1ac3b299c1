"""Where a new message lands: its forum topic or chain of replies, and what it shows as replied to."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .models import FakeChat, ForumTopic, JSONDict, StoredMessage, bad_request
from .world import World

THREAD_NOT_FOUND = "message thread not found"


@dataclass(frozen=True)
class Placement:
    """The thread and reply fields of a message about to be stored."""

    topic: ForumTopic | None = None
    reply_to: StoredMessage | None = None
    reply_thread_id: int | None = None
    external_reply: StoredMessage | None = None

    def fields(self) -> dict[str, Any]:
        """The StoredMessage keyword arguments of this placement."""
        return {"thread_id": self.topic.thread_id if self.topic is not None else None,
                "reply_to": self.reply_to, "reply_thread_id": self.reply_thread_id,
                "external_reply": self.external_reply}


def thread_param(p: JSONDict) -> int | None:
    """The ``message_thread_id`` of a call; the Bot API reads a missing, zero or negative one as none."""
    value = p.get("message_thread_id")
    return value if isinstance(value, int) and value > 0 else None


def topic_of(world: World, message: StoredMessage) -> ForumTopic | None:
    """The topic a message is in, deleted or not; None in General and outside forums."""
    if message.thread_id is None:
        return None
    return world.topics.get(message.chat_id, {}).get(message.thread_id)


def gone_with_topic(world: World, message: StoredMessage) -> bool:
    """True for a message deleted together with its topic, which Telegram never tells a bot of."""
    topic = topic_of(world, message)
    return topic is not None and topic.deleted


def named_topic(world: World, chat: FakeChat, thread_id: int | None) -> ForumTopic | None:
    """The topic a send's ``message_thread_id`` names; None when it names none or is ignored.

    In a forum an id that is no live topic (General's 1 included) is 400 «message thread not
    found», and so is any id in a private chat (no topics there); other chats ignore it, as
    Bot API 10 does. Only a deleted topic's id is a mistake the bot could not have seen coming.
    """
    if thread_id is None:
        return None
    if chat.is_forum:
        topic = world.live_topic(chat, thread_id)
        if topic is None:
            deleted = thread_id in world.topics.get(chat.id, {})
            raise bad_request(THREAD_NOT_FOUND, violation=not deleted)
        return topic
    if chat.type == "private":
        raise bad_request(THREAD_NOT_FOUND)
    return None


def place(world: World, chat: FakeChat, topic: ForumTopic | None,
          target: StoredMessage | None) -> Placement:
    """Where a message sent to ``topic`` (None: not named) replying to ``target`` lands.

    A reply without a named topic goes to its target's topic (or General); a reply to a
    message of another topic than the named one is an external reply there, and shows the
    topic's first message as ``reply_to_message``, like every message of a topic that replies
    to nothing in it. Outside forums a reply in a supergroup joins its target's chain of replies.
    """
    if not chat.is_forum:
        if target is None or chat.type != "supergroup":
            return Placement(reply_to=target)
        root = target.reply_thread_id if target.reply_thread_id is not None else target.message_id
        return Placement(reply_to=target, reply_thread_id=root)
    target_topic = topic_of(world, target) if target is not None else None
    topic = target_topic if topic is None else topic
    if topic is None:
        return Placement(reply_to=target)  # General
    if target is not None and target_topic is not topic:
        return Placement(topic=topic, reply_to=topic.root, external_reply=target)
    return Placement(topic=topic, reply_to=target or topic.root)


def may_write(topic: ForumTopic, user_id: int, manages_topics: bool) -> bool:
    """Whether someone may post in ``topic``: anyone while it is open; once it is closed, those
    who manage topics and its creator."""
    return not topic.closed or manages_topics or topic.creator == user_id
