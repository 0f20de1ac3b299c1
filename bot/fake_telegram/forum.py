"""Forum topics changing: created, closed, reopened, renamed and deleted, with their service messages.

The Bot API methods and the test-facing helpers both change topics through these, so a topic
a user closes and one the bot closes look the same to the bot.
"""

from __future__ import annotations

from typing import Any

from .models import FakeChat, FakeUser, ForumTopic, JSONDict, StoredMessage, bad_request
from .world import World

ICON_COLORS = (7322096, 16766590, 13338331, 9367192, 16749490, 16478047)
"""The topic icon colours Telegram accepts; the first is what a topic gets when none is asked for."""
MAX_TOPIC_NAME = 128


def topic_name(raw: Any) -> str:
    """A topic name as Telegram keeps it: trimmed, cut to 128 characters; 400 when nothing is left."""
    name = raw.strip()[:MAX_TOPIC_NAME].strip() if isinstance(raw, str) else ""
    if not name:
        raise bad_request("name must be non-empty")
    return name


def open_topic(world: World, chat: FakeChat, creator: FakeUser, name: str, icon_color: int) -> ForumTopic:
    """Create a topic: its ``forum_topic_created`` message starts it (its id is the topic's)."""
    created = {"forum_topic_created": {"name": name, "icon_color": icon_color}}
    root = world.new_message(chat, creator, service=created)
    root.thread_id = root.message_id
    topic = ForumTopic(root=root, name=name, icon_color=icon_color, creator=creator.id)
    world.topics.setdefault(chat.id, {})[topic.thread_id] = topic
    _deliver(world, root)
    return topic


def set_closed(world: World, topic: ForumTopic, by: FakeUser, closed: bool) -> StoredMessage:
    """Close (or reopen) a topic; ``forum_topic_closed`` (``forum_topic_reopened``) is posted in it."""
    topic.closed = closed
    return _announce(world, topic, by, {"forum_topic_closed" if closed else "forum_topic_reopened": {}})


def rename(world: World, topic: ForumTopic, by: FakeUser, name: str) -> StoredMessage:
    """Rename a topic; ``forum_topic_edited`` with the new name is posted in it."""
    topic.name = name
    return _announce(world, topic, by, {"forum_topic_edited": {"name": name}})


def delete(world: World, topic: ForumTopic) -> None:
    """Delete a topic and every message in it; Telegram tells a bot nothing about this."""
    topic.deleted = True
    for message in world.messages.get(topic.chat.id, {}).values():
        if message.thread_id == topic.thread_id:
            message.deleted = True


def _announce(world: World, topic: ForumTopic, by: FakeUser, service: JSONDict) -> StoredMessage:
    """Post a service message about ``topic`` in it and deliver it."""
    message = world.new_message(topic.chat, by, service=service, thread_id=topic.thread_id,
                                reply_to=topic.root)
    _deliver(world, message)
    return message


def _deliver(world: World, message: StoredMessage) -> None:
    """Queue a topic's service message: a bot in the chat gets each one, privacy mode or not,
    its own included (the Bot API skips a bot's own messages, but not these)."""
    if message.chat.has_bot:
        world.updates.push({"message": message.to_dict()})
