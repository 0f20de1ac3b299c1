"""Turn pings. Telegram notifies nobody of an edited caption, so when a person's turn has
waited the chat's ``ping`` seconds the bot posts one short message that mentions them (a
``tg://user`` link notifies even in a muted chat), as a reply to the table: one tap jumps there.

At most one ping per turn. It goes as soon as its turn is played, the game ends or the next ping goes
out; never for a computer, and never when the group's window has fewer than :data:`ROOM` free sends
(the table's next edit comes first). What is pinged lives in memory: after a restart the next
action arms the next ping, and so it does for a turn forgotten to keep memory bounded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot import texts
from bot.bounded import LruDict
from bot.flow.alarms import Alarms
from bot.flow.context import Chat, ChatLocks, Game, Sources
from bot.flow.loader import Loader
from bot.flow.messages import Messages
from bot.flow.table_settings import TableSettings
from bot.flow.tidy import Tidy
from engines.base import LogEntry

ROOM = 3  # free sends the group's 60-second window must still have for a ping to go out
# games whose waiting turn is remembered (the least recently used go first): a game that ends without a
# review (its chat lost to the bot, say) leaves its turn behind, so the map is bounded, not trusted to
# empty; a forgotten turn goes unpinged and the game's next action arms the next one
TURNS_KEPT = 100_000


@dataclass
class Turn:
    """The turn of the person ``seat`` in a game: which version its ping waits on, and the ping."""

    seat: int
    version: int
    pinged: bool = False  # a ping went out (or was tried) in this turn: never a second one
    message_id: int | None = None  # the ping in the chat, until it is deleted
    over: bool = False  # someone else acted since: the next person's turn is a new one


class TurnPings:
    """The turns that wait on a person, their alarms and their pings."""

    def __init__(self, loader: Loader, locks: ChatLocks, messages: Messages, sources: Sources,
                 alarms: Alarms) -> None:
        self.loader, self.locks, self.messages, self.sources, self.alarms = loader, locks, messages, sources, alarms
        self.turns: LruDict[int, Turn] = LruDict(TURNS_KEPT)  # game id → the turn that waits on a person
        self.tidy: Tidy | None = None  # a ping is transient too: in a tidy chat it goes after a minute

    def acted(self, game_id: int, entries: Sequence[LogEntry]) -> None:
        """Actions were stored: if anyone but the turn's person made one, that turn is over."""
        turn = self.turns.get(game_id)
        if turn is not None and any(entry.seat != turn.seat for entry in entries):
            turn.over = True

    async def review(self, chat: Chat, game: Game) -> None:
        """After the table shows ``game``: a ping of a turn that was played goes, and the turn that
        now waits on a person (if any) gets its alarm."""
        row = game.row
        seat = game.person_to_move() if row.status == "running" and not row.paused else None
        turn = self.turns.get(game.id)
        if turn is not None and (turn.over or turn.seat != seat or turn.version != row.version):
            await self._delete_ping(row.chat_id, turn)  # played (or the game went on without them)
            if turn.over or turn.seat != seat:
                turn = None
        if seat is None:
            await self.end(row.chat_id, game.id)
            return
        if turn is None:
            turn = self.turns[game.id] = Turn(seat, row.version)
        turn.version = row.version
        wait = TableSettings.of(chat.settings, row.options).ping  # the game's own, else the chat's
        if turn.pinged or not wait:
            self.alarms.cancel(("ping", game.id))
            return
        chat_id, version = row.chat_id, row.version
        self.alarms.set(("ping", game.id), self.sources.clock() + wait,
                        lambda: self.due(chat_id, game.id, version))

    async def end(self, chat_id: int, game_id: int) -> None:
        """The game waits on nobody now (over, stopped, paused, a computer to move): its ping goes."""
        turn = self.turns.pop(game_id, None)
        self.alarms.cancel(("ping", game_id))
        if turn is not None:
            await self._delete_ping(chat_id, turn)

    async def due(self, chat_id: int, game_id: int, version: int) -> bool:
        """The alarm of the turn that waited at ``version``: ping its person if it still waits on them
        (True if a ping went out)."""
        async with self.locks(chat_id):
            turn = self.turns.get(game_id)
            chat, fresh = await self.loader.load(chat_id, game_id)
            if fresh is None or turn is None or turn.pinged or not self._waits(fresh, turn, version):
                return False
            room = self.messages.outbox.free(chat.id)
            if room is not None and room < ROOM:  # the table's edits come first; this turn is not pinged
                return False
            turn.pinged = True
            await self.messages.outbox.send(chat.id, lambda: self._post(chat, fresh, turn))
            return True

    @staticmethod
    def _waits(game: Game, turn: Turn, version: int) -> bool:
        row = game.row
        return (row.status == "running" and not row.paused and row.version == version == turn.version
                and game.person_to_move() == turn.seat and not turn.over)

    async def _post(self, chat: Chat, game: Game, turn: Turn) -> None:
        seat = game.seats[turn.seat]
        text = chat.html("turn-ping", name=texts.mention(seat.user_id, texts.shown_name(seat.name, chat.tr, seat.seat)),
                         game=chat.tr(f"game-{game.spec.code}"))
        # inside the outbox's job already; refused (no rights, topic closed, …): this turn has no ping
        message = await self.messages.post_now(chat.id, text, thread=game.row.thread_id, reply_to=game.row.message_id)
        if message is None:
            return
        if self.turns.get(game.id) is turn and not turn.over and turn.version == game.row.version:
            turn.message_id = message.message_id
            if self.tidy is not None:
                self.tidy.later(chat, message.message_id)
        else:  # the turn was played while the ping waited in the queue
            await self.messages.delete(chat.id, message.message_id)

    async def _delete_ping(self, chat_id: int, turn: Turn) -> None:
        if turn.message_id is not None:
            message_id, turn.message_id = turn.message_id, None
            if self.tidy is not None:
                self.tidy.forget(chat_id, message_id)
            await self.messages.delete(chat_id, message_id)
