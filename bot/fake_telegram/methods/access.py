"""Which chat a Bot API call acts in, and whether the bot may act there (Telegram's 400 and 403)."""

from __future__ import annotations

from typing import Any

from ..models import ApiError, FakeChat, JSONDict, StoredMessage, bad_request
from ..world import World

MAX_DELETE_AGE = 2 * 86400
"""Bots can delete no message older than 48 hours."""
CANT_DELETE = "message can't be deleted"
CANT_DELETE_FOR_ALL = "message can't be deleted for everyone"


def find_chat(world: World, chat_id: Any) -> FakeChat:
    """The chat ``chat_id`` names (an id or an ``@username``); 400 when there is none."""
    if chat_id is None or chat_id == "":
        raise bad_request("chat_id is empty")
    if isinstance(chat_id, str):
        if chat_id.startswith("@"):
            for chat in world.chats.values():
                if chat.username and chat.username.lower() == chat_id[1:].lower():
                    return chat
        raise bad_request("chat not found")
    found = world.chats.get(chat_id)
    if found is None:
        raise bad_request("chat not found")
    return found


def bot_chat(world: World, chat_id: Any) -> FakeChat:
    """The chat for a call acting in it: 400 once upgraded, 403 once the bot left or was kicked."""
    chat = find_chat(world, chat_id)
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


def chat_for_send(world: World, p: JSONDict) -> FakeChat:
    """The chat a send goes to (``p["chat_id"]``); also 403 for a user who never wrote or blocked the bot."""
    chat_id = p.get("chat_id")
    if isinstance(chat_id, int) and chat_id not in world.chats and chat_id in world.users:
        raise ApiError(403, "Forbidden: bot can't initiate conversation with a user",
                       violation=False)
    chat = bot_chat(world, chat_id)
    user = world.users.get(chat.id) if chat.type == "private" else None
    if user is not None and user.blocked_bot:
        raise ApiError(403, "Forbidden: bot was blocked by the user", violation=False)
    return chat


def require_send_right(chat: FakeChat, description: str) -> None:
    """Refuse a send or edit of a bot restricted without the right to send (not its fault)."""
    if chat.bot_muted:
        raise bad_request(description, violation=False)


def check_deletable(world: World, chat: FakeChat, message: StoredMessage) -> None:
    """Refuse a deleteMessage that Telegram refuses a bot.

    A bot deletes its own messages and, as an administrator with ``can_delete_messages``,
    anyone's; in a private chat both sides' messages; never one older than 48 h nor the
    message that started a forum topic. A supergroup answers «message can't be deleted», a
    group or a private chat «… for everyone» (TDLib checks them in these two ways).
    """
    age = world.now_date() - message.date
    own = message.sender.id == world.bot.id
    if chat.type == "supergroup":
        if age >= MAX_DELETE_AGE:  # an old message is a normal thing to try: no rule broken
            raise bad_request(CANT_DELETE, violation=False)
        if "forum_topic_created" in message.service or not (own or chat.bot_deletes_messages):
            raise bad_request(CANT_DELETE)
        return
    if age > MAX_DELETE_AGE:
        raise bad_request(CANT_DELETE_FOR_ALL, violation=False)
    if chat.type == "group" and not ((own and not message.service) or chat.bot_deletes_messages):
        raise bad_request(CANT_DELETE_FOR_ALL)
