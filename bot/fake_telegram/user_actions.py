"""What users do in the fake world: write messages and press inline buttons (queued as updates)."""

from __future__ import annotations

import hashlib
import re

from .inspection import Inspection
from .models import ApiError, CallbackAnswer, ChatRef, FakeChat, FakeUser, JSONDict, StoredMessage, UserRef
from .parsing import utf16_len
from .threads import Placement, may_write, named_topic, place
from .world_building import WorldBuilding


class UserActions(WorldBuilding, Inspection):
    """The test-facing methods by which users write to the bot and press its buttons."""

    async def push_update(self, payload: JSONDict) -> JSONDict:
        """Queue a raw update body (e.g. ``{"my_chat_member": {...}}``); returns it with update_id."""
        update = self.updates.push(payload)
        await self.changes.notify()
        return update

    async def send_message(
        self, user: UserRef, chat: ChatRef, text: str, *, reply_to: int | None = None,
        thread: int | None = None,
    ) -> JSONDict:
        """A user writes ``text`` in ``chat``; returns the Message dict (queued if the bot sees it).

        In a forum it lands in topic ``thread``; without one, in the topic of the message it
        replies to (``reply_to``), else in General.
        """
        u, c = self._user(user), self._open_chat(chat)
        if c.is_group:
            c.add_member(u.id)
        entities: list[JSONDict] = []
        command = re.match(r"/\S+", text)
        if command:
            entities.append({"type": "bot_command", "offset": 0,
                             "length": utf16_len(command.group())})
        target = None
        if reply_to is not None:
            target = self.message(c.id, reply_to)
        placement = self._user_placement(c, u, thread, target)
        message = self.new_message(c, u, text=text, entities=entities, **placement.fields())
        data = message.to_dict()
        if self._bot_sees(c, text, target):
            self.updates.push({"message": data})
        await self.changes.notify()
        return data

    async def send_private(self, user: UserRef, text: str) -> JSONDict:
        """A user writes ``text`` to the bot in their private chat (chat id = user id)."""
        return await self.send_message(user, self.private_chat(user), text)

    def _user_placement(self, chat: FakeChat, user: FakeUser, thread: int | None,
                        target: StoredMessage | None) -> Placement:
        """Where a user's message lands; ValueError for what Telegram's apps would not let them do."""
        if thread is not None and not chat.is_forum:
            raise ValueError(f"chat {chat.id} is not a forum (add_chat(..., is_forum=True) makes one)")
        try:
            placement = place(self, chat, named_topic(self, chat, thread), target)
        except ApiError as err:
            raise ValueError(f"{err.description}: thread {thread} of chat {chat.id}") from None
        topic = placement.topic
        if topic is not None and topic.deleted:  # a reply to a message that went with its topic
            raise ValueError(f"topic {topic.thread_id} of chat {chat.id} was deleted")
        if topic is not None and not may_write(topic, user.id, user.id in chat.managers):
            raise ValueError(f"topic {topic.thread_id} of chat {chat.id} is closed: only its creator "
                             f"and the administrators write there")
        return placement

    def _bot_sees(self, chat: FakeChat, text: str, reply_to: StoredMessage | None) -> bool:
        if chat.type == "private":
            return True
        if not chat.has_bot:
            return False
        if chat.bot_status == "administrator" or not self.privacy_mode:
            return True
        if reply_to is not None and reply_to.from_bot:
            return True
        command = re.match(r"/[^\s@]+(?:@(\S+))?", text)
        if command is None:
            return False
        own = (self.bot.username or "").lower()
        return (command.group(1) or own).lower() == own

    async def press(
        self,
        user: UserRef,
        chat: ChatRef,
        message_id: int,
        data: str,
        *,
        check_buttons: bool = True,
    ) -> CallbackAnswer:
        """A user presses an inline button with callback ``data`` on a bot message."""
        u, c = self._user(user), self._open_chat(chat)
        if not c.has_bot:
            raise ValueError(f"the bot is {c.bot_status!r} in chat {c.id}: Telegram delivers no "
                             f"callback queries from a group the bot is not in")
        message = self.message(c.id, message_id)
        if message.deleted or not message.from_bot:
            raise ValueError(f"message {c.id}/{message_id} is deleted or not from the bot")
        if check_buttons and data not in [d for _, d in message.buttons]:
            raise ValueError(f"message {c.id}/{message_id} has no button with data {data!r}; "
                             f"buttons: {message.buttons}")
        query_id = str(next(self._query_ids))
        handle = CallbackAnswer(query_id=query_id, user=u, chat_id=c.id, message_id=message_id,
                                data=data)
        self.callbacks[query_id] = handle
        instance = int(hashlib.sha256(str(c.id).encode()).hexdigest()[:15], 16)
        handle.update_id = self.updates.push({"callback_query": {
            "id": query_id, "from": u.to_dict(), "message": message.to_dict(),
            "chat_instance": str(instance), "data": data,
        }})["update_id"]
        await self.changes.notify()
        return handle

    async def click(self, user: UserRef, message: StoredMessage, text: str) -> CallbackAnswer:
        """Press the button whose label equals/contains ``text`` on ``message``."""
        return await self.press(user, message.chat, message.message_id, message.button(text))
