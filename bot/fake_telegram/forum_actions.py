"""What users do with a forum's topics: create, close, reopen, rename and delete them.

The bot gets each one's service message as an update, and nothing for a deletion, as from
Telegram. Who may: anyone in the chat creates a topic; its creator and the chat's creator and
administrators change or delete it.
"""

from __future__ import annotations

from . import forum
from .models import ChatRef, FakeChat, FakeUser, ForumTopic, JSONDict, UserRef
from .user_actions import UserActions


class ForumActions(UserActions):
    """The test-facing methods by which users manage forum topics."""

    async def create_topic(self, chat: ChatRef, name: str, *, by: UserRef | None = None,
                           icon_color: int = forum.ICON_COLORS[0]) -> ForumTopic:
        """``by`` (default: the chat's creator or an administrator) creates a topic in a forum;
        returns it (``topic.thread_id`` is its ``message_thread_id``)."""
        c = self._forum(chat)
        actor = self._actor(c, by)
        if icon_color not in forum.ICON_COLORS:
            raise ValueError(f"icon_color must be one of {forum.ICON_COLORS}")
        if not name.strip():
            raise ValueError("a topic needs a name")
        c.add_member(actor.id)
        topic = forum.open_topic(self, c, actor, forum.topic_name(name), icon_color)
        await self.changes.notify()
        return topic

    async def close_topic(self, chat: ChatRef, thread: int, *, by: UserRef | None = None) -> JSONDict:
        """``by`` closes a topic: from now on the bot's sends there answer TOPIC_CLOSED unless it
        manages topics (or created it). Returns the ``forum_topic_closed`` Message dict."""
        return await self._set_closed(chat, thread, by, closed=True)

    async def reopen_topic(self, chat: ChatRef, thread: int, *, by: UserRef | None = None) -> JSONDict:
        """``by`` reopens a closed topic; returns the ``forum_topic_reopened`` Message dict."""
        return await self._set_closed(chat, thread, by, closed=False)

    async def edit_topic(self, chat: ChatRef, thread: int, name: str, *,
                         by: UserRef | None = None) -> JSONDict:
        """``by`` renames a topic; returns the ``forum_topic_edited`` Message dict."""
        topic, actor = self._managed_topic(chat, thread, by)
        if not name.strip() or forum.topic_name(name) == topic.name:
            raise ValueError(f"topic {thread} would not change: Telegram's apps offer no such edit")
        message = forum.rename(self, topic, actor, forum.topic_name(name))
        await self.changes.notify()
        return message.to_dict()

    async def delete_topic(self, chat: ChatRef, thread: int, *, by: UserRef | None = None) -> None:
        """``by`` deletes a topic with all its messages; the bot is told nothing, and its sends,
        edits and deletes there are refused from now on."""
        topic, _ = self._managed_topic(chat, thread, by)
        forum.delete(self, topic)
        await self.changes.notify()

    async def _set_closed(self, chat: ChatRef, thread: int, by: UserRef | None, closed: bool) -> JSONDict:
        """Close or reopen a topic, refusing what is already so."""
        topic, actor = self._managed_topic(chat, thread, by)
        if topic.closed == closed:
            raise ValueError(f"topic {thread} is already {'closed' if closed else 'open'}")
        message = forum.set_closed(self, topic, actor, closed)
        await self.changes.notify()
        return message.to_dict()

    def _forum(self, chat: ChatRef) -> FakeChat:
        """The chat of a topic action, which must be a forum a user may act in."""
        c = self._open_chat(chat)
        if not c.is_forum:
            raise ValueError(f"chat {c.id} is not a forum (add_chat(..., is_forum=True) makes one)")
        return c

    def _managed_topic(self, chat: ChatRef, thread: int, by: UserRef | None) -> tuple[ForumTopic, FakeUser]:
        """A live topic and who changes it: ``by`` (default: a manager of the chat), who must be
        the topic's creator or one of the chat's managers."""
        c = self._forum(chat)
        topic = self.live_topic(c, thread)
        if topic is None:
            raise ValueError(f"chat {c.id} has no topic {thread} (or it was deleted)")
        actor = self._actor(c, by)
        if actor.id != topic.creator and actor.id not in c.managers:
            raise ValueError(f"user {actor.id} neither created topic {thread} nor administers chat {c.id}")
        return topic, actor
