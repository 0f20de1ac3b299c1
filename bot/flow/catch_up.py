"""Catching up what a crash, a restart or a fault left behind: tables behind their game, turns the
computer could not store, games whose message is gone, and tables ahead of their game (the store lost
its last commits: put back from an earlier copy, or a replica that took over without them). A game
that cannot be decoded is quarantined by the loader and stepped over (:class:`BrokenGame`), so it
never keeps the other games behind."""

from __future__ import annotations

import asyncio
import logging

from bot.flow.context import Chat, ChatLocks, Game, Reply
from bot.flow.loader import BrokenGame, Loader
from bot.flow.lobby import Lobby
from bot.flow.messages import Messages
from bot.flow.moves import Moves
from bot.flow.table_view import TableView
from bot.store import GameRow, StorageError, Store

log = logging.getLogger(__name__)
TABLE_RETRY_S = 2.0  # a table edit lost to a server error or a timeout is tried again once after this


class CatchUp:
    """Redraws and replays what is behind: once a little later, and at start-up."""

    def __init__(self, store: Store, loader: Loader, locks: ChatLocks, moves: Moves, lobby: Lobby,
                 table: TableView, messages: Messages) -> None:
        self.store, self.loader, self.locks = store, loader, locks
        self.moves, self.lobby, self.table, self.messages = moves, lobby, table, messages
        # game → its lost table edit, again; bounded by expiry: each entry goes when its retry has run
        self._retries: dict[int, asyncio.Task[None]] = {}

    def pending(self) -> int:
        """How many games wait for their retry."""
        return len(self._retries)

    def cancel(self, game_id: int) -> None:
        """Drop the game's retry (its chat is lost to the bot)."""
        if (retry := self._retries.pop(game_id, None)) is not None:
            retry.cancel()

    def close(self) -> None:
        for task in self._retries.values():
            task.cancel()

    def retry_later(self, game_id: int) -> None:
        """Once, a little later: redraw the table if it is still behind (its edit was lost to a server
        error or a timeout), and let the computer play a turn it could not store, so the players need
        not press a stale button, or wait for a restart, to go on."""
        if game_id in self._retries:  # this is the retry failing: the next press or restart will do
            return
        task = self._retries[game_id] = asyncio.get_running_loop().create_task(self._again(game_id))
        task.add_done_callback(lambda _: self._retries.pop(game_id, None))

    async def _again(self, game_id: int) -> None:
        await asyncio.sleep(TABLE_RETRY_S)
        try:
            row = await self.store.game(game_id)
            if row is None:
                return
            async with self.locks(row.chat_id):  # what the game is now, under its chat's lock
                chat, game = await self.loader.load(row.chat_id, game_id)
                if game is None or game.row.paused:
                    return
                behind = game.row.shown_version < game.row.version
                if game.row.status == "running" and (behind or game.person_to_move() is None):
                    await self.moves.after_move(chat, game, for_people=False)  # the computer may still owe its turn
                elif game.row.status == "finished" and behind:
                    await self.table.show(game, chat)
        except StorageError as exc:
            log.error("game %s: storage failed (%s) while catching the table up", game_id, exc)
        except BrokenGame:  # quarantined where it was met: there is no table to catch up
            return

    def ahead(self, chat: Chat, game: Game, pressed: int | None, version: int) -> Reply:
        """A press on the table message ``pressed`` at ``version``, a version the running game has not
        reached: the table shows moves the store lost. The press is not applied; the table of the stored
        state is posted anew with a line that says so, once per table pressed (the caller holds the lock)."""
        if not self.table.replaces(chat.id, pressed, version):  # a second press on it: the first restores it
            return Reply(chat.tr("toast-stale"), outcome="stale")
        return Reply(chat.tr("toast-restored"), after=lambda: self._restore(chat, game, pressed, version),
                     outcome="restored")

    async def _restore(self, chat: Chat, game: Game, pressed: int | None, version: int) -> None:
        """The table of the stored game (its message ``pressed``, if known, showed ``version``) posted anew,
        saying so; first the computer plays the turns it owes there (their save may have been lost too)."""
        log.warning("game %s: its table shows version %s, the store has %s: the last commits were lost; the "
                    "table is posted again", game.id, version, game.row.version)

        async def restore(played: Game) -> None:
            await self.table.restore(played, chat, pressed, version)
        await self.moves.after_move(chat, game, for_people=False, show=restore)

    async def show_anew(self, game_id: int) -> None:
        """Post the lobby or table of a game whose message is gone (the caller holds the lock)."""
        loaded = await self.loader.game(game_id)
        if loaded is None or loaded[1].row.status not in ("lobby", "running"):
            return
        chat, game = loaded
        if game.row.status == "running":  # the computer may owe its turn; the table is posted anew
            await self.moves.after_move(chat, game, for_people=False)
            return
        await self.lobby.post_again(chat, game)

    async def repair_tables(self) -> int:
        """At start-up: re-send every table edit that a crash or a fault left undone."""
        behind = await self.store.games_behind()
        repaired = 0
        for row in behind:
            try:
                await self._repair(row)
                repaired += 1
            except BrokenGame:  # quarantined where it was met: the next game's table goes on
                continue
        return repaired

    async def _repair(self, row: GameRow) -> None:
        """Re-send the game's table edit (or post it anew), under its chat's lock; a table marked shown at
        a version the game has not reached (the store lost its last commits) is posted anew, saying so."""
        async with self.locks(row.chat_id):
            chat, game = await self.loader.load(row.chat_id, row.id)
            if game is None or game.row.paused:
                return
            if (game.row.status == "running" and game.row.shown_version > game.row.version
                    and game.row.message_id is not None):
                await self._restore(chat, game, None, game.row.shown_version)
            elif game.row.message_id is None:  # never posted, or left behind by a migration
                await self.show_anew(game.id)
            elif game.row.status == "running":  # the computer may still owe its turn
                await self.moves.after_move(chat, game, for_people=False)
            elif game.row.status == "finished":
                await self.table.show(game, chat)
