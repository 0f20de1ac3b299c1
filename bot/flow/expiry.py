"""Expiry: a lobby nobody touched for 15 minutes closes itself (its message says so and
loses its buttons); a running game in which no person acted for ``GAME_IDLE_HOURS`` is stopped as
abandoned: kept in /history, left out of the stats. (A game with no person left at the table ends
the same way at once: :mod:`bot.flow.departures` sees to that.) A game the sweep cannot decode is
quarantined by the loader and stepped over, so the sweep still closes every other idle game.
"""

from __future__ import annotations

import logging

from bot.flow.context import ChatLocks, Sources
from bot.flow.loader import BrokenGame, Loader
from bot.flow.moves import Moves
from bot.store import GameRow, Store

log = logging.getLogger(__name__)
LOBBY_IDLE_S = 15 * 60
SWEEP_EVERY_S = 60  # how often the application looks for idle lobbies and games


class Expiry:
    """Finds the lobbies and games nobody plays, and closes them."""

    def __init__(self, store: Store, loader: Loader, locks: ChatLocks, moves: Moves, sources: Sources,
                 game_idle_s: float) -> None:
        self.store, self.loader, self.locks, self.moves, self.sources = store, loader, locks, moves, sources
        self.game_idle_s = game_idle_s

    async def sweep(self) -> int:
        """Close every lobby and game that has been idle too long; how many."""
        now = self.sources.clock()
        lobby_since, game_since = now - LOBBY_IDLE_S, now - self.game_idle_s
        closed = 0
        for row in await self.store.idle_games(lobby_since, game_since):
            try:
                closed += await self._close(row, now, lobby_since, game_since)
            except BrokenGame:  # quarantined where it was met: the sweep goes on with the next game
                continue
        return closed

    async def _close(self, row: GameRow, now: float, lobby_since: float, game_since: float) -> bool:
        """Close the lobby or game of ``row`` if it is still idle, under its chat's lock."""
        async with self.locks(row.chat_id):
            chat, game = await self.loader.load(row.chat_id, row.id)
            if game is None:
                return False
            fresh = game.row  # read again under the lock: a press may just have come in
            if fresh.status == "lobby" and fresh.active_at < lobby_since:
                return await self.moves.stop(chat, game, "expired")
            if fresh.status == "running" and fresh.active_at < game_since:
                log.info("game %s: no person has acted for %.0f h; stopped as abandoned", game.id,
                         (now - fresh.active_at) / 3600)
                return await self.moves.stop(chat, game, "abandoned")
            return False
