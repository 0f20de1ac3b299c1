"""Poison rows stay in their chat: a stored game that can no longer be decoded (its JSON corrupt, a
game or option the bot no longer has, a state of a shape the code no longer reads) is ended as
broken wherever it is first met, and its chat is told once; every other chat goes on untouched.

The loader calls :meth:`Quarantine.end` when a decode fails (the one place it happens), then raises
:class:`~bot.flow.loader.BrokenGame`, which whoever met the game only steps over: the start-up
catch-up and the sweep go on with the next game, a press gets a toast, a command nothing more.
A broken game is stopped with the result ``{"kind": "broken"}``: its topic can open a new game,
/history says «повреждена», and like every stopped game it counts in no stats.
"""

from __future__ import annotations

import logging

from bot.bounded import LruDict
from bot.flow.loader import Loader
from bot.flow.messages import Messages
from bot.flow.pings import TurnPings
from bot.store import GameRow, Store

log = logging.getLogger(__name__)
SEEN_BOUND = 1024  # games that ended before they broke, logged by this process already (never stopped as broken)
BROKEN = {"kind": "broken"}  # the result of a quarantined game
REASON_CHARS = 120  # the decode error, cut short: it names a field or a position, never a person


class Quarantine:
    """Ends a game that cannot be decoded as broken, logs it and tells its chat, each once."""

    def __init__(self, store: Store, loader: Loader, messages: Messages, pings: TurnPings) -> None:
        self.store, self.loader, self.messages, self.pings = store, loader, messages, pings
        self._seen: LruDict[int, None] = LruDict(SEEN_BOUND)

    async def end(self, row: GameRow, exc: Exception) -> None:
        """Quarantine the game of ``row``, which ``exc`` kept from being decoded (the caller holds its chat's lock)."""
        reason = f"{type(exc).__name__}: {exc}"[:REASON_CHARS]
        if not await self.store.stop_game(row.id, BROKEN):  # over already, or quarantined before
            if row.result != BROKEN and row.id not in self._seen:  # a game that ended before it broke
                self._seen[row.id] = None
                log.warning("game %s (%s) cannot be decoded (%s); it is over already", row.id, row.status, reason)
            return
        log.error("game %s in chat %s cannot be decoded (%s); ended as broken", row.id, row.chat_id, reason)
        await self.pings.end(row.chat_id, row.id)
        chat = await self.loader.chat(row.chat_id)
        await self.messages.edit_keyboard(row, None)  # its old buttons could only meet it again
        await self.messages.send(row.chat_id, chat.html("game-broken", id=str(row.id)), thread=row.thread_id)
