"""Bot API methods for forum topics: create, edit, close, reopen and delete a topic.

The rights and their refusals are TDLib's (``ForumTopicManager``, which the Bot API server
runs): creating needs ``can_manage_topics``; editing, closing and reopening need it too unless
the bot created the topic; deleting needs ``can_delete_messages`` unless the bot created it.
A topic id that is no live topic is the server's ``TOPIC_ID_INVALID``.
"""

from __future__ import annotations

from typing import Any

from .. import forum
from ..models import FakeChat, ForumTopic, JSONDict, bad_request
from ..world import World
from .access import bot_chat
from .registry import Files, api_method

NO_RIGHTS_CREATE = "not enough rights to create a topic"
NO_RIGHTS_EDIT = "not enough rights to edit the topic"
NO_RIGHTS_CLOSE = "not enough rights to close or open the topic"
NO_RIGHTS_DELETE = "not enough rights to delete the topic"
NOT_MODIFIED = "TOPIC_NOT_MODIFIED"


def _forum(world: World, p: JSONDict) -> FakeChat:
    """The forum a topic call acts in; 400 for a chat that is no forum."""
    chat = bot_chat(world, p.get("chat_id"))
    if not chat.is_forum:
        raise bad_request("the chat is not a forum")
    return chat


def _topic(world: World, chat: FakeChat, p: JSONDict, may: bool, no_rights: str) -> ForumTopic:
    """The topic a call manages: 400 when it is no live topic (a deleted one is news the bot
    never got, no rule broken), and without the right ``may`` unless the bot created it."""
    thread_id = p.get("message_thread_id")
    if not isinstance(thread_id, int) or thread_id <= 0:
        raise bad_request("invalid forum topic identifier specified")
    topic = world.live_topic(chat, thread_id)
    if topic is None:
        raise bad_request("TOPIC_ID_INVALID", violation=thread_id not in world.topics.get(chat.id, {}))
    if not may and topic.creator != world.bot.id:
        raise bad_request(no_rights)
    return topic


def _icon_color(value: Any) -> int:
    """The icon colour asked for: one of Telegram's six, the first when none (0) is given."""
    if value is None or value == 0:
        return forum.ICON_COLORS[0]
    if value not in forum.ICON_COLORS:
        raise bad_request(f"icon_color must be one of {forum.ICON_COLORS} (the Bot API documents no other)")
    return int(value)


def _no_custom_emoji(p: JSONDict) -> None:
    """Custom emoji icons are beyond the fake: refuse rather than pretend one was set."""
    if p.get("icon_custom_emoji_id"):
        raise bad_request("the fake server does not support custom emoji topic icons")


@api_method("createForumTopic")
async def create_forum_topic(world: World, p: JSONDict, files: Files) -> JSONDict:
    chat = _forum(world, p)
    if not chat.bot_manages_topics:
        raise bad_request(NO_RIGHTS_CREATE)
    name = forum.topic_name(p.get("name"))
    color = _icon_color(p.get("icon_color"))
    _no_custom_emoji(p)
    return forum.open_topic(world, chat, world.bot, name, color).to_dict()


@api_method("editForumTopic")
async def edit_forum_topic(world: World, p: JSONDict, files: Files) -> bool:
    chat = _forum(world, p)
    topic = _topic(world, chat, p, chat.bot_manages_topics, NO_RIGHTS_EDIT)
    _no_custom_emoji(p)
    raw = p.get("name")
    if not raw:  # nothing to change: TDLib answers True without asking Telegram
        return True
    name = forum.topic_name(raw)
    if name == topic.name:
        raise bad_request(NOT_MODIFIED, violation=False)
    forum.rename(world, topic, world.bot, name)
    return True


async def _set_closed(world: World, p: JSONDict, closed: bool) -> bool:
    """closeForumTopic and reopenForumTopic: the topic changes and its service message is posted."""
    chat = _forum(world, p)
    topic = _topic(world, chat, p, chat.bot_manages_topics, NO_RIGHTS_CLOSE)
    if topic.closed == closed:
        raise bad_request(NOT_MODIFIED, violation=False)
    forum.set_closed(world, topic, world.bot, closed)
    return True


@api_method("closeForumTopic")
async def close_forum_topic(world: World, p: JSONDict, files: Files) -> bool:
    return await _set_closed(world, p, closed=True)


@api_method("reopenForumTopic")
async def reopen_forum_topic(world: World, p: JSONDict, files: Files) -> bool:
    return await _set_closed(world, p, closed=False)


@api_method("deleteForumTopic")
async def delete_forum_topic(world: World, p: JSONDict, files: Files) -> bool:
    chat = _forum(world, p)
    topic = _topic(world, chat, p, chat.bot_deletes_messages, NO_RIGHTS_DELETE)
    forum.delete(world, topic)
    return True
