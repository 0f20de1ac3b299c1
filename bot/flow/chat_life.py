"""The chat around a game: the bot kicked or muted there (its games pause), let back in (they go on),
the group become a supergroup (its games, settings and tally move to the new id), and a forum's
topics: a closed topic pauses its game like a muted bot (it goes on when reopened), a deleted topic
ends it as stopped; nothing else in the chat is touched."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from telegram.error import BadRequest, ChatMigrated, Forbidden, TelegramError

from bot.flow.catch_up import CatchUp
from bot.flow.context import ChatLocks
from bot.flow.loader import Loader
from bot.flow.turn_timer import TurnTimer
from bot.outbox import Outbox
from bot.store import GameRow, Store

log = logging.getLogger(__name__)
NO_RIGHTS = ("not enough rights", "have no rights", "chat_write_forbidden")  # 400s of a bot muted in a chat
TOPIC_CLOSED, TOPIC_GONE = "topic_closed", "message thread not found"  # 400s of a send into a forum topic


def cannot_post(exc: TelegramError) -> bool:
    """Whether Telegram refused because the bot may not post in the chat at all (kicked, left, or
    restricted), not because of this one message."""
    return isinstance(exc, Forbidden) or (
        isinstance(exc, BadRequest) and any(text in exc.message.lower() for text in NO_RIGHTS))


class ChatLife:
    """What happens to a chat's game when the chat itself changes."""

    def __init__(self, store: Store, loader: Loader, locks: ChatLocks, outbox: Outbox, timer: TurnTimer,
                 catch_up: CatchUp) -> None:
        self.store, self.loader, self.locks, self.outbox = store, loader, locks, outbox
        self.timer, self.catch_up = timer, catch_up
        self._changes: set[asyncio.Task[None]] = set()  # pauses and migrations found by refused calls

    def refused(self, chat_id: int, exc: TelegramError, thread: int = 0) -> bool:
        """React to a send or edit that Telegram refused for the whole chat or topic: the group became
        a supergroup (move there), the bot may not post (pause), the topic ``thread`` was closed
        (pause its game) or deleted (stop it). Runs apart from the caller, which may hold the chat's
        lock. True if the error was of that kind."""
        change: Coroutine[Any, Any, None]
        text = exc.message.lower()
        if isinstance(exc, ChatMigrated):
            change = self.migrate(chat_id, exc.new_chat_id)
        elif thread and isinstance(exc, BadRequest) and TOPIC_GONE in text:
            change = self.topic_gone(chat_id, thread)
        elif thread and isinstance(exc, BadRequest) and TOPIC_CLOSED in text:
            change = self.topic_closed(chat_id, thread)
        elif cannot_post(exc):
            change = self.lost(chat_id, exc.message)
        else:
            return False
        task = asyncio.get_running_loop().create_task(change)
        self._changes.add(task)
        task.add_done_callback(self._changes.discard)
        return True

    async def settled(self, timeout: float = 5.0) -> None:
        """Wait (at most ``timeout`` s) for the pauses and migrations started apart from the updates
        that found them."""
        if self._changes:
            await asyncio.wait(set(self._changes), timeout=timeout)

    def close(self) -> None:
        for task in self._changes:
            task.cancel()

    async def lost(self, chat_id: int, why: str) -> None:
        """The bot may not post in the chat any more (kicked, or muted): its lobbies are closed, its
        running games paused (no turn timer, no queued edits) until the bot is back."""
        async with self.locks(chat_id):
            self.outbox.drop(chat_id)
            for game in await self.store.active_games(chat_id):
                await self._pause(game, f"chat {chat_id}: {why}")

    async def topic_closed(self, chat_id: int, thread: int) -> None:
        """The forum topic was closed: its lobby closes, its game pauses until it is reopened."""
        async with self.locks(chat_id):
            game = await self.store.active_game(chat_id, thread)
            if game is not None:
                await self._pause(game, f"chat {chat_id}: topic {thread} is closed")

    async def _pause(self, game: GameRow, why: str) -> None:
        if game.status == "lobby":
            await self.store.stop_game(game.id, {"kind": "cancelled"})
            log.warning("%s; its lobby (game %s) is closed", why, game.id)
        elif await self.store.pause_game(game.id):
            self.catch_up.cancel(game.id)
            log.warning("%s; game %s is paused until the bot may post there again", why, game.id)

    async def back(self, chat_id: int) -> None:
        """The bot may post in the chat again: its paused games go on in freshly posted tables, with
        the turn timers started anew."""
        async with self.locks(chat_id):
            for row in await self.store.active_games(chat_id):
                await self._resume(chat_id, row.id)

    async def topic_reopened(self, chat_id: int, thread: int) -> None:
        """The forum topic was reopened: its paused game goes on."""
        async with self.locks(chat_id):
            row = await self.store.active_game(chat_id, thread)
            if row is not None:
                await self._resume(chat_id, row.id)

    async def _resume(self, chat_id: int, game_id: int) -> None:
        chat, game = await self.loader.load(chat_id, game_id)
        if game is None or not game.row.paused or game.state is None:
            return
        deadline = self.timer.deadline(chat, game.row, game.seats, game.state)
        if not await self.store.resume_game(game.id, deadline):
            return
        self.timer.start(game.id, deadline)
        log.info("chat %s: the bot may post again; game %s goes on", chat_id, game.id)
        await self.catch_up.show_anew(game.id)

    async def topic_gone(self, chat_id: int, thread: int) -> None:
        """The forum topic was deleted (its messages with it): its game ends as stopped."""
        async with self.locks(chat_id):
            game = await self.store.active_game(chat_id, thread)
            if game is not None and await self.store.stop_game(game.id, {"kind": "stopped"}):
                self.catch_up.cancel(game.id)
                log.warning("chat %s: topic %s is gone; game %s is stopped", chat_id, thread, game.id)

    async def migrate(self, old: int, new: int) -> None:
        """The group ``old`` became the supergroup ``new``: its games, language, settings and pub tally
        move there, and its active game is posted afresh there (the old messages stay behind)."""
        first, second = sorted((old, new))
        async with self.locks(first), self.locks(second):
            if not await self.store.migrate_chat(old, new):
                return  # done already (Telegram tells both chats, and a refused call tells again)
            self.outbox.drop(old)
            log.info("chat %s became the supergroup %s: its games, settings and tally moved", old, new)
            for game in await self.store.active_games(new):
                if not game.paused:
                    await self.catch_up.show_anew(game.id)
