"""Changes users make to a group: upgrading it to a supergroup, changing the bot's membership."""

from __future__ import annotations

from typing import Any

from .methods.chats import chat_member
from .models import ChatRef, FakeChat, FakeUser, JSONDict, UserRef
from .user_actions import UserActions

BOT_STATUSES = frozenset({"member", "administrator", "restricted", "left", "kicked"})
# Telegram signs service messages posted on behalf of a group with this placeholder user.
GROUP_ANONYMOUS_BOT_ID = 1087968824


class ChatChanges(UserActions):
    """The test-facing methods that change a group the way its creator or an administrator can."""

    async def migrate_to_supergroup(self, chat: ChatRef, *, by: UserRef | None = None) -> FakeChat:
        """Upgrade a group to a new supergroup, as Telegram does, and return the supergroup.

        The supergroup gets a fresh -100… id and the group's title, members, roles and bot
        status. The group stays in ``chats`` with ``migrated_to`` set: read-only for users,
        and every Bot API call naming it answers 400 with ``migrate_to_chat_id``. If the bot is
        in the group it receives two service messages: ``migrate_to_chat_id`` in the group from
        ``by`` (default: the creator or an administrator), then ``migrate_from_chat_id`` in the
        supergroup, posted on behalf of the supergroup (``sender_chat``) like Telegram does.
        """
        old = self._open_chat(chat)
        if old.type != "group":
            raise ValueError(f"only a basic group can be upgraded; chat {old.id} is a {old.type}")
        actor = self._actor(old, by)
        new_id = -int(f"100{abs(old.id):010d}")
        while new_id in self.chats:
            new_id -= 1
        new = FakeChat(id=new_id, type="supergroup", title=old.title, creator=old.creator,
                       admins=set(old.admins), members=set(old.members),
                       bot_status=old.bot_status, bot_can_send=old.bot_can_send,
                       bot_can_manage_topics=old.bot_can_manage_topics, bot_can_delete=old.bot_can_delete)
        self.chats[new_id] = new
        self.messages.setdefault(new_id, {})
        old.migrated_to = new_id
        if new.has_bot:
            anonymous = FakeUser(id=GROUP_ANONYMOUS_BOT_ID, first_name="Group",
                                 username="GroupAnonymousBot", language_code=None, is_bot=True)
            self.updates.push({"message": self._service_message(old, actor, migrate_to_chat_id=new_id)})
            self.updates.push({"message": self._service_message(
                new, anonymous, sender_chat=new.to_dict(), migrate_from_chat_id=old.id)})
            await self.changes.notify()
        return new

    def _service_message(self, chat: FakeChat, sender: FakeUser, **fields: Any) -> JSONDict:
        """A service Message object in ``chat`` (it takes a message id, like any message)."""
        return {"message_id": self.take_message_id(chat), "from": sender.to_dict(),
                "chat": chat.to_dict(), "date": self.now_date(), **fields}

    async def set_bot_status(self, chat: ChatRef, status: str, *, by: UserRef | None = None,
                             can_send: bool = True, can_manage_topics: bool | None = None,
                             can_delete: bool | None = None) -> JSONDict:
        """Change the bot's membership in a group and push the ``my_chat_member`` update.

        ``status`` is member, administrator, restricted, left or kicked; ``can_send`` only
        matters for restricted (False: sends and edits answer 400 «not enough rights»);
        ``can_manage_topics`` and ``can_delete`` set the administrator's rights of those names
        (None: unchanged; they count only while the bot is an administrator). ``by`` defaults
        to the creator or an administrator. Returns the queued update.
        """
        c = self._open_chat(chat)
        if not c.is_group:
            raise ValueError("set_bot_status() is for groups; in a private chat set blocked_bot")
        if status not in BOT_STATUSES:
            raise ValueError(f"status must be one of {sorted(BOT_STATUSES)}, got {status!r}")
        actor = self._actor(c, by)
        old_member = chat_member(self, c, self.bot)
        c.bot_status = status
        c.bot_can_send = can_send or status != "restricted"
        if can_manage_topics is not None:
            c.bot_can_manage_topics = can_manage_topics
        if can_delete is not None:
            c.bot_can_delete = can_delete
        return await self.push_update({"my_chat_member": {
            "chat": c.to_dict(), "from": actor.to_dict(), "date": self.now_date(),
            "old_chat_member": old_member, "new_chat_member": chat_member(self, c, self.bot),
        }})
