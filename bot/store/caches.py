"""What every store keeps in memory: each chat's row, and the last actions' events of recent games.

Both are read on every press, and the bot that keeps them is the only writer of its database (one
active instance at a time), so a copy stays right as long as every write goes through here, and as
long as the database keeps its commits: a game read at a lower version than its kept actions tells
that it did not, and its entry goes.
"""

from __future__ import annotations

import collections
from collections.abc import Awaitable, Callable

from bot.bounded import LruDict
from bot.store.rows import JSON, ChatRow, RecentEvents

# chats whose row stays in memory (the least recently used go first; a forgotten one costs one indexed
# read at its next command or press). A row and the chat decoded from it (bot/flow/loader.py keeps as
# many) take about 1.1 KB, 1.6 KB of the process's RSS: the chats of a busy bot's last hour in about
# 16 MB, where one per chat that ever wrote grew without end (bench/chat_memory.py: target 50 MB, with
# the limiter's and flood control's minute of chats beside it)
CHATS_KEPT = 10_000
RECENT_KEPT = 16  # per game, the last actions' events kept for the table caption's log
RECENT_GAMES = 1024  # games whose last actions are kept (least recently used go first)

ReadRecent = Callable[[int, int], Awaitable[RecentEvents]]  # (game id, how many) → the last actions, oldest first


class ChatCache:
    """Each chat's locale and settings, read once (again, once forgotten: at most CHATS_KEPT are kept)."""

    def __init__(self) -> None:
        self._rows: LruDict[int, ChatRow] = LruDict(CHATS_KEPT)

    def get(self, chat_id: int) -> ChatRow | None:
        return self._rows.get(chat_id)

    def put(self, row: ChatRow) -> None:
        self._rows[row.chat_id] = row

    def forget(self, *chat_ids: int) -> None:
        for chat_id in chat_ids:
            self._rows.pop(chat_id, None)

    def __len__(self) -> int:
        return len(self._rows)


class RecentLog:
    """The events of each game's last actions: every redraw shows the last few, and the save
    before it has just written them, so most redraws read nothing.

    A game's entry holds its last ``RECENT_KEPT`` actions and whether that is its whole log. A read
    that a save overtakes (the save commits while the read's rows are on their way) is not kept,
    since it may lack the saved actions.
    """

    def __init__(self, read: ReadRecent) -> None:
        self._read = read
        self._games: collections.OrderedDict[int, tuple[bool, RecentEvents]] = collections.OrderedDict()
        self._reading: dict[int, list[list[bool]]] = {}  # game id → per read in flight: no save since?

    async def get(self, game_id: int, limit: int) -> RecentEvents:
        """The events of the last ``limit`` actions, oldest first, with their action numbers."""
        kept = self._games.get(game_id)
        if kept is not None and (kept[0] or len(kept[1]) >= limit):
            self._games.move_to_end(game_id)
            return kept[1][-limit:]
        want, untouched = max(limit, RECENT_KEPT), [True]
        self._reading.setdefault(game_id, []).append(untouched)
        try:
            actions = await self._read(game_id, want)
        finally:
            readers = self._reading[game_id]
            readers[:] = [r for r in readers if r is not untouched]  # by identity: [True] == [True]
            if not readers:
                del self._reading[game_id]
        if untouched[0]:
            self._games[game_id] = (len(actions) < want, actions[-RECENT_KEPT:])
            while len(self._games) > RECENT_GAMES:
                self._games.popitem(last=False)
        return actions[-limit:]

    def saved(self, game_id: int, first: int, events: list[list[JSON]]) -> None:
        """A save of ``game_id`` committed the actions ``first``, ``first + 1``, … with ``events``."""
        for untouched in self._reading.get(game_id, ()):
            untouched[0] = False  # a read in flight may miss this save: it must not be kept
        kept = self._games.get(game_id)
        if kept is not None:
            whole, actions = kept
            actions = actions + [(first + offset, e) for offset, e in enumerate(events)]
            self._games[game_id] = (whole and len(actions) <= RECENT_KEPT, actions[-RECENT_KEPT:])

    def read_at(self, game_id: int, version: int) -> None:
        """The game was read at ``version``: actions kept from that number on (action n made version n + 1)
        came from commits the store has lost since (put back from an earlier copy, or a replica took
        over, while the bot ran), and the game's entry goes."""
        kept = self._games.get(game_id)
        if kept is not None and kept[1] and kept[1][-1][0] >= version:
            del self._games[game_id]

    def holds(self, game_id: int) -> tuple[bool, int] | None:
        """Whether the whole log of ``game_id`` is kept and how many actions are (None: nothing kept)."""
        kept = self._games.get(game_id)
        return None if kept is None else (kept[0], len(kept[1]))

    def reads_in_flight(self) -> int:
        return sum(len(r) for r in self._reading.values())
