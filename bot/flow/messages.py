"""The bot's messages in its chats: posted and edited in each chat's order and within its budget.

A refusal that concerns the whole chat (the bot kicked or muted, the group become a supergroup) is
handed to ``on_refused`` (:class:`bot.flow.chat_life.ChatLife`), which acts apart from the caller.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from markupsafe import Markup
from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from bot.drawing import Drawing
from bot.outbox import Outbox
from bot.store import GameRow
from render.cover import CoverArt, render_cover

log = logging.getLogger(__name__)
Refused = Callable[[int, TelegramError, int], bool]  # (chat id, error, topic) → whether it was about all of it


def not_modified(exc: TelegramError) -> bool:
    """Telegram's «message is not modified»: the message shows it already (a double tap)."""
    return "not modified" in exc.message.lower()


class Messages:
    """Sends and edits of the bot's own messages (the table's photo edits are the table view's)."""

    def __init__(self, bot: Bot, outbox: Outbox, drawing: Drawing) -> None:
        self.bot, self.outbox, self.drawing = bot, outbox, drawing
        self.on_refused: Refused = lambda chat_id, exc, thread: False
        # title card → Telegram's file id of its upload; bounded by nature: one card per game and language
        self.cover_ids: dict[tuple[str, str, CoverArt], str] = {}
        self._drawing_cover = asyncio.Lock()

    def refused(self, chat_id: int, exc: TelegramError, thread: int = 0) -> bool:
        """Tell the chat's keeper of a refusal (of a send into the topic ``thread``); True if it was
        about the whole chat or topic."""
        return self.on_refused(chat_id, exc, thread)

    async def send(self, chat_id: int, text: Markup, keyboard: InlineKeyboardMarkup | None = None,
                   thread: int = 0, reply_to: int | None = None) -> None:
        """Post a message (into the forum topic ``thread``; as a reply to the message ``reply_to``, if it
        is still there) after the chat's edits asked for before it."""
        await self.outbox.send(chat_id, lambda: self._send_now(chat_id, text, keyboard, thread, reply_to))

    async def _send_now(self, chat_id: int, text: Markup, keyboard: InlineKeyboardMarkup | None, thread: int,
                        reply_to: int | None) -> None:
        await self.post_now(chat_id, text, keyboard, thread, reply_to)

    async def post_now(self, chat_id: int, text: Markup, keyboard: InlineKeyboardMarkup | None = None,
                       thread: int = 0, reply_to: int | None = None) -> Message | None:
        """Post a message now, bypassing the outbox (a caller that runs inside it, or must know the
        message); None if Telegram refused, which is logged and handed to ``refused``."""
        try:
            return await self.bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=keyboard,
                                               reply_to_message_id=reply_to, allow_sending_without_reply=True,
                                               message_thread_id=thread or None)
        except TelegramError as exc:
            log.warning("chat %s: send failed: %s", chat_id, exc)
            self.refused(chat_id, exc, thread)
            return None

    async def delete(self, chat_id: int, message_id: int) -> bool:
        """Delete a message (the bot's own, or another's where it may); a refusal is logged and changes nothing."""
        try:
            return await self.bot.delete_message(chat_id, message_id)
        except TelegramError as exc:
            log.info("chat %s: could not delete message %s: %s", chat_id, message_id, exc.message)
            return False

    async def retire(self, chat_id: int, message_id: int) -> None:
        """A lobby or table that is no longer the live one: deleted, or where Telegram refuses that,
        left without its buttons."""
        if not await self.delete(chat_id, message_id):
            await self._drop_keyboard(chat_id, message_id)

    async def _drop_keyboard(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.edit_message_reply_markup(chat_id, message_id, reply_markup=None)
        except TelegramError as exc:
            log.info("chat %s: could not take the keyboard off message %s: %s", chat_id, message_id, exc.message)

    async def edit_caption(self, game: GameRow, caption: Markup, keyboard: InlineKeyboardMarkup | None) -> None:
        """Edit the lobby or table message's caption, now or once the chat has room (coalesced)."""
        if game.message_id is not None:
            await self.outbox.edit(game.chat_id, game.id, lambda: self._caption_now(game, caption, keyboard))

    async def _caption_now(self, game: GameRow, caption: Markup, keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await self.bot.edit_message_caption(chat_id=game.chat_id, message_id=game.message_id, caption=caption,
                                                parse_mode=ParseMode.HTML, reply_markup=keyboard)
        except TelegramError as exc:
            if not not_modified(exc):
                log.warning("game %s: caption edit failed: %s", game.id, exc.message)
                self.refused(game.chat_id, exc)

    async def edit_keyboard(self, game: GameRow, keyboard: InlineKeyboardMarkup | None) -> None:
        """Change only the table message's buttons (a question asked on the table), now or once the chat
        has room; coalesced apart from its caption edits, which it must never replace."""
        if game.message_id is not None:
            await self.outbox.edit(game.chat_id, ("keyboard", game.id), lambda: self._keyboard_now(game, keyboard))

    async def _keyboard_now(self, game: GameRow, keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await self.bot.edit_message_reply_markup(game.chat_id, game.message_id, reply_markup=keyboard)
        except TelegramError as exc:
            if not not_modified(exc):
                log.warning("game %s: keyboard edit failed: %s", game.id, exc.message)
                self.refused(game.chat_id, exc)

    async def edit_text(self, chat_id: int, message_id: int, text: Markup,
                        keyboard: InlineKeyboardMarkup | None) -> None:
        """Edit a text message of the bot (the /settings message), now or once the chat has room
        (coalesced: a newer edit of it replaces one still waiting)."""
        await self.outbox.edit(chat_id, ("text", message_id),
                               lambda: self._text_now(chat_id, message_id, text, keyboard))

    async def _text_now(self, chat_id: int, message_id: int, text: Markup,
                        keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await self.bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, parse_mode=ParseMode.HTML,
                                             reply_markup=keyboard)
        except TelegramError as exc:
            if not not_modified(exc):
                log.warning("chat %s: text edit failed: %s", chat_id, exc.message)
                self.refused(chat_id, exc)

    async def post_cover(self, chat_id: int, title: tuple[str, str, CoverArt], caption: Markup,
                         keyboard: InlineKeyboardMarkup, thread: int = 0) -> Message:
        """Post a lobby's title card (its name, line and the game's picture; into the forum topic
        ``thread``): uploaded once, then sent again by Telegram's file id."""
        file_id = self.cover_ids.get(title)
        if file_id is not None:
            try:
                return await self.bot.send_photo(chat_id, file_id, caption=caption, parse_mode=ParseMode.HTML,
                                                 reply_markup=keyboard, message_thread_id=thread or None)
            except BadRequest:  # the id is no longer valid: upload the picture again
                self.cover_ids.pop(title, None)
        async with self._drawing_cover:  # many lobbies at once after a start: draw the card once, not in each
            cover = await self.drawing.draw(render_cover, *title)
        message = await self.bot.send_photo(chat_id, cover, caption=caption, parse_mode=ParseMode.HTML,
                                            reply_markup=keyboard, message_thread_id=thread or None)
        if message.photo:
            self.cover_ids[title] = message.photo[-1].file_id
        return message
