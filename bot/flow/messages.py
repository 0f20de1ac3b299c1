"""The bot's messages in its chats: posted and edited in each chat's order and within its budget.

A refusal that concerns the whole chat (the bot kicked or muted, the group become a supergroup) is
handed to ``on_refused`` (:class:`bot.flow.chat_life.ChatLife`), which acts apart from the caller.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from markupsafe import Markup
from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from bot.bounded import LruDict
from bot.drawing import Drawing
from bot.outbox import Outbox
from bot.store import GameRow
from render.cover import CoverArt, render_cover

log = logging.getLogger(__name__)
Refused = Callable[[int, TelegramError, int], bool]  # (chat id, error, topic) → whether it was about all of it
Card = tuple[str, str, CoverArt]  # a lobby's title card: the game's name, the line under it, its picture
T = TypeVar("T")
CARDS_KEPT = 10_000  # lobby messages whose title card is remembered (a lobby whose variant has a card of its own)


def not_modified(exc: TelegramError) -> bool:
    """Telegram's «message is not modified»: the message shows it already (a double tap)."""
    return "not modified" in exc.message.lower()


class Messages:
    """Sends and edits of the bot's own messages (the table's photo edits are the table view's)."""

    def __init__(self, bot: Bot, outbox: Outbox, drawing: Drawing) -> None:
        self.bot, self.outbox, self.drawing = bot, outbox, drawing
        self.on_refused: Refused = lambda chat_id, exc, thread: False
        # title card → Telegram's file id of its upload; bounded by nature: one card per game (or variant) and language
        self.cover_ids: dict[Card, str] = {}
        self._drawing_cover = asyncio.Lock()
        # (chat, message) → the card a lobby message shows, as last posted or edited: a lobby edit compares
        # with it when it goes out, since a waiting edit may be replaced by a newer one (the outbox coalesces)
        self.shown_cards: LruDict[tuple[int, int], Card] = LruDict(CARDS_KEPT)

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

    async def post_cover(self, chat_id: int, card: Card, caption: Markup,
                         keyboard: InlineKeyboardMarkup, thread: int = 0) -> Message:
        """Post a lobby's title card (its name, line and the game's picture; into the forum topic
        ``thread``): uploaded once, then sent again by Telegram's file id."""
        async def send(photo: str | bytes) -> Message:
            return await self.bot.send_photo(chat_id, photo, caption=caption, parse_mode=ParseMode.HTML,
                                             reply_markup=keyboard, message_thread_id=thread or None)

        message = await self._with_card(card, send)
        self.shown_cards[(chat_id, message.message_id)] = card
        return message

    async def edit_lobby(self, game: GameRow, caption: Markup, keyboard: InlineKeyboardMarkup | None,
                         cards: tuple[Card, Card] | None = None) -> None:
        """Edit the lobby message's caption, and its title card with it where ``cards`` (the card it showed,
        the card it shows now; None: the game has one card) say the card changed with the variant; now or
        once the chat has room (coalesced)."""
        if game.message_id is not None:
            await self.outbox.edit(game.chat_id, game.id, lambda: self._lobby_now(game, caption, keyboard, cards))

    async def _lobby_now(self, game: GameRow, caption: Markup, keyboard: InlineKeyboardMarkup | None,
                         cards: tuple[Card, Card] | None) -> None:
        where = (game.chat_id, game.message_id or 0)
        if cards is None or self.shown_cards.get(where, cards[0]) == cards[1]:  # not known: as the lobby was
            return await self._caption_now(game, caption, keyboard)

        async def edit(photo: str | bytes) -> Message | bool:
            return await self.bot.edit_message_media(InputMediaPhoto(photo, caption=caption, parse_mode=ParseMode.HTML),
                                                     chat_id=game.chat_id, message_id=game.message_id,
                                                     reply_markup=keyboard)

        try:
            await self._with_card(cards[1], edit)
        except TelegramError as exc:
            if not not_modified(exc):
                log.warning("game %s: title card edit failed: %s", game.id, exc.message)
                self.refused(game.chat_id, exc)
                return
        self.shown_cards[where] = cards[1]

    async def _with_card(self, card: Card, send: Callable[[str | bytes], Awaitable[T]]) -> T:
        """``send`` the title card: by Telegram's file id of its upload if there is one, else (or if Telegram
        no longer knows that id) drawn and uploaded, and the id of the upload kept."""
        file_id = self.cover_ids.get(card)
        if file_id is not None:
            try:
                return await send(file_id)
            except BadRequest as exc:  # the id is no longer valid: upload the picture again
                if not_modified(exc):
                    raise
                self.cover_ids.pop(card, None)
        async with self._drawing_cover:  # many lobbies at once after a start: draw the card once, not in each
            cover = await self.drawing.draw(render_cover, *card)
        sent = await send(cover)
        if isinstance(sent, Message) and sent.photo:
            self.cover_ids[card] = sent.photo[-1].file_id
        return sent
