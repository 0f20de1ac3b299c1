"""The table message and the chat it lives in: drawing and editing the table (or posting it
anew), its captions' log, retries of lost edits, and what happens when Telegram refuses the
chat itself (the bot kicked or muted, the group become a supergroup).

:class:`TableMessages` is part of :class:`bot.flow.GameFlow`; it uses the flow's storage,
outbox, drawing workers, chat locks, translations and ``_after_move``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, NetworkError, RetryAfter, TelegramError

from bot import texts
from bot.store import GameRow, StorageError
from engines.base import Event

if TYPE_CHECKING:
    from collections.abc import Callable

    from bot.drawing import Drawing
    from bot.games.common import GameUI, Tr
    from bot.outbox import Outbox
    from bot.store import Seat, Store
    from engines.base import Engine

log = logging.getLogger(__name__)
LOG_ACTIONS = 3  # actions whose events appear in the caption
MAX_LOG_ACTIONS = 40  # ... or all since the last edit (bot turns), up to this many
TABLE_RETRY_S = 2.0  # a table edit lost to a server error or a timeout is tried again once after this
NO_RIGHTS = ("not enough rights", "have no rights", "chat_write_forbidden")  # 400s of a bot muted in a chat


def cannot_post(exc: TelegramError) -> bool:
    """Whether Telegram refused because the bot may not post in the chat at all (kicked, left,
    or restricted), not because of this one message."""
    return isinstance(exc, Forbidden) or (
        isinstance(exc, BadRequest) and any(text in exc.message.lower() for text in NO_RIGHTS))


class TableMessages:
    """The table message of each game and the chat around it (mixed into GameFlow)."""

    store: Store
    outbox: Outbox
    drawing: Drawing
    uis: dict[str, GameUI]
    engines: dict[str, Engine[Any, Any]]
    arm: Callable[[int, float], None] | None
    _retries: dict[int, asyncio.Task[None]]
    _chat_changes: set[asyncio.Task[None]]

    if TYPE_CHECKING:  # the rest of GameFlow that the table uses
        def lock(self, chat_id: int) -> asyncio.Lock: ...
        async def tr(self, chat_id: int) -> Tr: ...
        def person_to_move(self, game: GameRow) -> int | None: ...
        async def _deadline(self, chat_id: int, seats: list[Seat], state: Any) -> float | None: ...
        async def _post_lobby(self, bot: Bot, game: GameRow) -> None: ...
        async def _after_move(self, bot: Bot, game: GameRow, autoroll: bool = True) -> None: ...

    def chat_refused(self, bot: Bot, chat_id: int, exc: TelegramError) -> bool:
        """React to a send or edit that Telegram refused for the whole chat: the group became a
        supergroup (move there) or the bot may not post (pause). Runs apart from the caller,
        which may hold the chat's lock. True if the error was of that kind."""
        if isinstance(exc, ChatMigrated):
            change = self.migrate_chat(bot, chat_id, exc.new_chat_id)
        elif cannot_post(exc):
            change = self.chat_lost(chat_id, exc.message)
        else:
            return False
        task = asyncio.get_running_loop().create_task(change)
        self._chat_changes.add(task)
        task.add_done_callback(self._chat_changes.discard)
        return True

    async def chat_lost(self, chat_id: int, why: str) -> None:
        """The bot may not post in the chat any more (kicked, or muted): a lobby there is closed,
        a running game paused (no turn timer, no queued edits) until the bot is back."""
        async with self.lock(chat_id):
            self.outbox.drop(chat_id)
            game = await self.store.active_game(chat_id)
            if game is None:
                return
            if game.status == "lobby":
                await self.store.stop_game(game.id, {"kind": "cancelled"})
                log.warning("chat %s: %s; its lobby (game %s) is closed", chat_id, why, game.id)
            elif await self.store.pause_game(game.id):
                if (retry := self._retries.pop(game.id, None)) is not None:
                    retry.cancel()
                log.warning("chat %s: %s; game %s is paused until the bot may post there again",
                            chat_id, why, game.id)

    async def chat_back(self, bot: Bot, chat_id: int) -> None:
        """The bot may post in the chat again: its paused game goes on in a freshly posted table,
        with the turn timer started anew."""
        async with self.lock(chat_id):
            game = await self.store.active_game(chat_id)
            if game is None or not game.paused or game.state is None:
                return
            state = self.engines[game.code].state_from_json(game.state)
            deadline = await self._deadline(chat_id, list(game.seats), state)
            if not await self.store.resume_game(game.id, deadline):
                return
            if deadline is not None and self.arm is not None:
                self.arm(game.id, deadline)
            log.info("chat %s: the bot may post again; game %s goes on", chat_id, game.id)
            await self._show_anew(bot, game.id)

    async def migrate_chat(self, bot: Bot, old: int, new: int) -> None:
        """The group ``old`` became the supergroup ``new``: its games, language, settings and pub
        tally move there, and its active game is posted afresh there (the old messages stay behind)."""
        first, second = sorted((old, new))
        async with self.lock(first), self.lock(second):
            if not await self.store.migrate_chat(old, new):
                return  # done already (Telegram tells both chats, and a refused call tells again)
            self.outbox.drop(old)
            log.info("chat %s became the supergroup %s: its games, settings and tally moved", old, new)
            game = await self.store.active_game(new)
            if game is not None and not game.paused:
                await self._show_anew(bot, game.id)

    async def _show_anew(self, bot: Bot, game_id: int) -> None:
        """Post the lobby or table of a game whose message is gone (the caller holds the lock)."""
        game = await self.store.game(game_id)
        if game is None or game.status not in ("lobby", "running"):
            return
        if game.status == "running":  # the computer may owe its turn; the table is posted anew
            await self._after_move(bot, game, autoroll=False)
            return
        try:
            await self._post_lobby(bot, game)
        except TelegramError as exc:
            log.warning("chat %s: could not post the lobby again: %s", game.chat_id, exc)
            self.chat_refused(bot, game.chat_id, exc)

    # the table message ---------------------------------------------------------

    async def _recent(self, game: GameRow) -> list[tuple[int, list[Event]]]:
        """The events of the last few actions, oldest first, with their action numbers: at least
        every action since the table was last shown (a run of bot turns), up to MAX_LOG_ACTIONS;
        the caption drops the oldest lines if they do not fit."""
        unseen = game.version - max(game.shown_version, 0)
        limit = min(MAX_LOG_ACTIONS, max(getattr(self.uis[game.code], "log_actions", LOG_ACTIONS), unseen))
        return [(n, [Event.from_json(e) for e in events])
                for n, events in await self.store.recent_events(game.id, limit)]

    @staticmethod
    def _log_lines(recent: list[tuple[int, list[Event]]], game: GameRow, ui: GameUI, tr: Tr) -> list[str]:
        return [line for _, events in recent for line in texts.event_lines(ui, events, game.names, tr)]

    async def show_table(self, bot: Bot, game: GameRow) -> None:
        """Edit the table message to ``game``'s state, now or once the chat has room (coalesced)."""
        await self.outbox.edit(game.chat_id, game.id, lambda: self._draw_table_logged(bot, game))

    async def _draw_table_logged(self, bot: Bot, game: GameRow) -> None:
        try:
            await self._draw_table(bot, game)
        except StorageError as exc:  # the move is stored; the table catches up at the next press or start
            log.error("game %s: storage failed (%s) while redrawing the table", game.id, exc)

    async def _draw_table(self, bot: Bot, game: GameRow) -> None:
        """Edit the table message to the stored state (or post it anew if it is gone)."""
        if game.state is None:
            return
        tr = await self.tr(game.chat_id)
        engine, ui = self.engines[game.code], self.uis[game.code]
        state = engine.state_from_json(game.state)
        outcome = engine.outcome(state)
        recent = await self._recent(game)
        caption = texts.table_caption(game, ui, state, self._log_lines(recent, game, ui, tr), outcome, tr)
        keyboard = texts.table_keyboard(game, ui, engine, state, tr)
        labels = {k: tr(f"board-{k}") for k in ui.label_keys()}
        last_events = recent[-1][1] if recent and recent[-1][0] == game.version else []
        png = await self.drawing.draw(ui.render, state, game.names, labels, last_events)
        media = InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML)
        shown = False
        if game.message_id is not None:
            try:
                await bot.edit_message_media(media, chat_id=game.chat_id, message_id=game.message_id,
                                             reply_markup=keyboard)
                shown = True
            except BadRequest as exc:
                if "not modified" in exc.message.lower():
                    shown = True
                elif "not found" not in exc.message.lower():
                    log.warning("game %s: edit failed: %s", game.id, exc.message)
                    self.chat_refused(bot, game.chat_id, exc)
                    return
            except TelegramError as exc:
                log.warning("game %s: edit failed: %s", game.id, exc)
                if isinstance(exc, NetworkError | RetryAfter):  # a 5xx or a timeout: likely to pass
                    self._retry_table(bot, game.id)
                else:
                    self.chat_refused(bot, game.chat_id, exc)
                return
        if not shown:  # the table message was deleted: post a fresh one and go on
            try:
                message = await bot.send_photo(game.chat_id, png, caption=caption, parse_mode=ParseMode.HTML,
                                               reply_markup=keyboard)
            except TelegramError as exc:
                log.warning("game %s: could not post the table: %s", game.id, exc)
                self.chat_refused(bot, game.chat_id, exc)
                return
            await self.store.set_message_id(game.id, message.message_id)
        await self.store.set_shown_version(game.id, game.version)

    def _retry_table(self, bot: Bot, game_id: int) -> None:
        """Once, a little later: redraw the table if it is still behind (its edit was lost to a
        server error or a timeout), and let the computer play a turn it could not store, so
        the players need not press a stale button, or wait for a restart, to go on."""
        if game_id in self._retries:  # this is the retry failing: the next press or restart will do
            return

        async def again() -> None:
            await asyncio.sleep(TABLE_RETRY_S)
            try:
                game = await self.store.game(game_id)
                if game is None:
                    return
                async with self.lock(game.chat_id):
                    game = await self.store.game(game_id)
                    if game is None or game.paused:
                        return
                    behind = game.shown_version < game.version
                    if game.status == "running" and (behind or self.person_to_move(game) is None):
                        await self._after_move(bot, game, autoroll=False)  # the computer may still owe its turn
                    elif game.status == "finished" and behind:
                        await self.show_table(bot, game)
            except StorageError as exc:
                log.error("game %s: storage failed (%s) while catching the table up", game_id, exc)

        task = self._retries[game_id] = asyncio.get_running_loop().create_task(again())
        task.add_done_callback(lambda _: self._retries.pop(game_id, None))

    async def repair_tables(self, bot: Bot) -> int:
        """At start-up: re-send every table edit that a crash or a fault left undone."""
        behind = await self.store.games_behind()
        for game in behind:
            async with self.lock(game.chat_id):
                fresh = await self.store.game(game.id)
                if fresh is None or fresh.paused:
                    continue
                if fresh.message_id is None:  # never posted, or left behind by a migration
                    await self._show_anew(bot, fresh.id)
                elif fresh.status == "running":  # the computer may still owe its turn
                    await self._after_move(bot, fresh, autoroll=False)
                elif fresh.status == "finished":
                    await self.show_table(bot, fresh)
        return len(behind)

    async def _edit_caption(self, bot: Bot, game: GameRow, caption: str,
                            keyboard: InlineKeyboardMarkup | None) -> None:
        """Edit the lobby or table message's caption, now or once the chat has room (coalesced)."""
        if game.message_id is not None:
            await self.outbox.edit(game.chat_id, game.id, lambda: self._caption_now(bot, game, caption, keyboard))

    async def _caption_now(self, bot: Bot, game: GameRow, caption: str,
                           keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await bot.edit_message_caption(chat_id=game.chat_id, message_id=game.message_id, caption=caption,
                                           parse_mode=ParseMode.HTML, reply_markup=keyboard)
        except TelegramError as exc:
            if "not modified" not in exc.message.lower():
                log.warning("game %s: caption edit failed: %s", game.id, exc.message)
                self.chat_refused(bot, game.chat_id, exc)

    async def edit_text(self, bot: Bot, chat_id: int, message_id: int, text: str,
                        keyboard: InlineKeyboardMarkup | None) -> None:
        """Edit a text message of the bot (the /settings message), now or once the chat has room
        (coalesced: a newer edit of it replaces one still waiting)."""
        await self.outbox.edit(chat_id, ("text", message_id),
                               lambda: self._text_now(bot, chat_id, message_id, text, keyboard))

    async def _text_now(self, bot: Bot, chat_id: int, message_id: int, text: str,
                        keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await bot.edit_message_text(text, chat_id=chat_id, message_id=message_id, parse_mode=ParseMode.HTML,
                                        reply_markup=keyboard)
        except TelegramError as exc:
            if "not modified" not in exc.message.lower():  # a double tap: the message shows it already
                log.warning("chat %s: text edit failed: %s", chat_id, exc.message)
                self.chat_refused(bot, chat_id, exc)

    async def _send(self, bot: Bot, chat_id: int, text: str, keyboard: InlineKeyboardMarkup | None = None) -> None:
        """Post a message after the chat's edits asked for before it."""
        await self.outbox.send(chat_id, lambda: self._send_now(bot, chat_id, text, keyboard))

    async def _send_now(self, bot: Bot, chat_id: int, text: str, keyboard: InlineKeyboardMarkup | None) -> None:
        try:
            await bot.send_message(chat_id, text, parse_mode=ParseMode.HTML, reply_markup=keyboard)
        except TelegramError as exc:
            log.warning("chat %s: send failed: %s", chat_id, exc)
            self.chat_refused(bot, chat_id, exc)
