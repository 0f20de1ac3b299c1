"""A tidy chat: the bot's transient replies (refusals, turn pings) go after a minute, and
so does the command a refusal answered, where the bot may delete others' messages. What stays after a
game is its final table and its result. A chat's admins turn it off in /settings (key "tidy").

The bot may always delete its own messages (for 48 hours); deleting a person's message takes an
admin's right (``can_delete_messages``), which the bot asks Telegram once per chat and then learns
from the updates that change it, so it never sends a delete Telegram would refuse. What is to be
deleted lives in memory: after a restart those replies simply stay.
"""

from __future__ import annotations

import logging

from telegram import ChatMember, ChatMemberAdministrator, ChatMemberOwner
from telegram.error import TelegramError

from bot.bounded import LruDict
from bot.flow.alarms import Alarms
from bot.flow.context import Chat, Sources
from bot.flow.messages import Messages

log = logging.getLogger(__name__)

TIDY_AFTER_S = 60
# chats whose right to delete is remembered (the least recently used go first): a forgotten one costs
# one getChatMember at its next tidy-up; as many as the chat rows kept (bot/store/caches.py)
RIGHTS_KEPT = 10_000


class Tidy:
    """Deletes transient messages a minute after they were posted."""

    def __init__(self, messages: Messages, sources: Sources, alarms: Alarms) -> None:
        self.messages, self.sources, self.alarms = messages, sources, alarms
        # chat → whether the bot may delete people's messages there
        self.may_delete: LruDict[int, bool] = LruDict(RIGHTS_KEPT)

    def later(self, chat: Chat, own: int | None, theirs: int | None = None) -> None:
        """Delete the bot's message ``own`` and the person's ``theirs`` in a minute (if the chat wants it)."""
        if not chat.settings.tidy or (own is None and theirs is None):
            return
        chat_id = chat.id
        self.alarms.set(("tidy", chat_id, own, theirs), self.sources.clock() + TIDY_AFTER_S,
                        lambda: self._delete(chat_id, own, theirs))

    def forget(self, chat_id: int, own: int) -> None:
        """The bot's message ``own`` went already (a ping whose turn was played): no second delete."""
        self.alarms.cancel(("tidy", chat_id, own, None))

    def rights_changed(self, chat_id: int, member: ChatMember) -> None:
        """The bot's membership in the chat changed (an update said so): what it may delete now."""
        self.may_delete[chat_id] = _can_delete(member)

    async def _delete(self, chat_id: int, own: int | None, theirs: int | None) -> None:
        if own is not None:
            await self.messages.delete(chat_id, own)
        if theirs is not None and await self._may_delete(chat_id):
            await self.messages.delete(chat_id, theirs)

    async def _may_delete(self, chat_id: int) -> bool:
        known = self.may_delete.get(chat_id)
        if known is None:
            bot = self.messages.bot
            try:
                known = _can_delete(await bot.get_chat_member(chat_id, bot.id))
            except TelegramError as exc:
                log.info("chat %s: could not ask for the bot's rights: %s", chat_id, exc.message)
                return False
            self.may_delete[chat_id] = known
        return known


def _can_delete(member: ChatMember) -> bool:
    return isinstance(member, ChatMemberOwner) or (isinstance(member, ChatMemberAdministrator)
                                                   and member.can_delete_messages)
