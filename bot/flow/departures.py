"""People who are gone from a running game: a turn timer that ran out, /leave, /kick and «⏭».

The computer plays a timed-out person's turn; the third time in a row, or when they leave or are
skipped, a computer player takes their seat for good (in a game one can resign, they resign).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from markupsafe import Markup

from bot import texts
from bot.flow.context import Chat, ChatLocks, Game, Reply, Sources
from bot.flow.loader import Loader
from bot.flow.messages import Messages
from bot.flow.moves import Moves
from bot.store import Seat, StaleVersionError, Store
from bot.turns import Applied, free_bot_id, is_bot, turn_for
from engines.base import Event

Announce = Callable[[Markup], Awaitable[None]]  # posts a line in the game's chat (a reply to a command, or not)
TIMEOUTS_TO_REPLACE = 3  # timeouts in a row: a bot takes the seat (where one can resign, they resign)


def bot_seat(game: Game, seat: int, chat: Chat, since: int) -> Seat:
    """A computer player for ``seat``, named after the person it replaces, who is kept with the action
    number ``since`` from which the computer plays (the log's earlier lines name the person)."""
    person = game.seats[seat]
    shown = texts.shown_name(person.name, chat.tr, seat)
    return Seat(seat, free_bot_id(s.user_id for s in game.seats), chat.tr("bot-instead", name=shown),
                left_user_id=person.user_id, left_name=person.name, left_at=since)


class Departures:
    """Turn timers that run out, people who leave or are skipped."""

    def __init__(self, store: Store, loader: Loader, locks: ChatLocks, moves: Moves, messages: Messages,
                 sources: Sources) -> None:
        self.store, self.loader, self.locks = store, loader, locks
        self.moves, self.messages, self.sources = moves, messages, sources

    async def timed_out(self, game_id: int) -> bool:
        """The player to move let the timer run out: the computer plays their turn and the log says
        so. False if the deadline is not (or no longer) due."""
        row = await self.store.game(game_id)
        if row is None:
            return False
        async with self.locks(row.chat_id):
            chat, game = await self.loader.load(row.chat_id, game_id)
            if (game is None or game.row.status != "running" or game.state is None or game.row.deadline is None
                    or self.sources.clock() < game.row.deadline or game.spec.policy is None):
                return False
            seat = game.state.current_player
            if seat is None or is_bot(game.seats[seat].user_id):
                return False
            count = game.row.timeouts.get(str(seat), 0) + 1
            played = await self._play_for(chat, game, seat, count)
            if played is None:
                return False
            applied, state, new_seat = played
            try:
                fresh = await self.moves.save(chat, game, state, applied, {**game.row.timeouts, str(seat): count},
                                              new_seat)
            except StaleVersionError:
                return False
            if not await self._abandoned(chat, fresh):
                await self.moves.after_move(chat, fresh)
            return True

    async def _abandoned(self, chat: Chat, game: Game) -> bool:
        """No person is left at a running table (every seat a computer's): the game ends at once as
        abandoned, before the computers could play it out among themselves."""
        if game.row.status != "running" or not all(game.bots):
            return False
        return await self.moves.stop(chat, game, "abandoned")

    async def _play_for(self, chat: Chat, game: Game, seat: int,
                        count: int) -> tuple[Applied, Any, Seat | None] | None:
        """The turn of ``seat``'s ``count``-th timeout in a row, flagged in the log; None if there is none."""
        flag = [Event("timeout", seat=seat, data={"count": count})]
        resign, engine = game.spec.resign, game.spec.engine
        if count >= TIMEOUTS_TO_REPLACE and resign is not None:
            state, events, entry = engine.apply(game.state, resign(seat))
            return [(entry, flag + events)], state, None
        assert game.spec.policy is not None
        state, applied = await asyncio.to_thread(turn_for, engine, game.spec.policy, game.state, seat)
        if not applied:
            return None
        applied[0] = (applied[0][0], flag + applied[0][1])
        new_seat = None
        if count >= TIMEOUTS_TO_REPLACE:
            new_seat = bot_seat(game, seat, chat, state.version)  # this turn was still theirs
            entry, events = applied[-1]
            applied[-1] = (entry, [*events, Event("replaced", seat=seat)])
        return applied, state, new_seat

    async def leave(self, chat: Chat, game: Game, seat: int, announce: Announce, by: str | None = None) -> None:
        """``seat`` leaves the running game (/leave), or is skipped ``by`` the host or an admin (/kick, «⏭»):
        in a game one can resign they resign, otherwise a bot takes the seat and plays at once if it is to
        move. The caller holds the chat's lock. ``announce`` posts the line that says so («Борис вышел — за
        него доигрывает компьютер», or who skipped whom: «Аня пропускает игрока Борис — его место занимает
        компьютер») once the change is stored and before the table moves on, so that the result it may
        bring comes after the line that explains it."""
        name, resign = texts.shown_name(game.seats[seat].name, chat.tr, seat), game.spec.resign
        if resign is not None:
            state, events, entry = game.spec.engine.apply(game.state, resign(seat))
            fresh = await self.moves.save(chat, game, state, [(entry, events)])
            await announce(chat.html("left-resigned", name=name))
            await self.moves.after_move(chat, fresh)
            return
        new_seat = bot_seat(game, seat, chat, game.row.version)
        if not await self.store.hand_seat(game.id, new_seat):
            await announce(chat.html("toast-game-over"))
            return
        seats = tuple(new_seat if s.seat == seat else s for s in game.seats)
        fresh = game.stored(replace(game.row, seats=seats))
        await announce(chat.html("left-bot", name=name) if by is None else chat.html("kicked-bot", name=name, by=by))
        if not await self._abandoned(chat, fresh):
            await self.moves.after_move(chat, fresh)

    async def skip(self, chat: Chat, game: Game, version: int, by: str) -> Reply:
        """«⏭ Пропустить игрока», pressed by ``by`` (the caller checked the rights and holds the lock)."""
        if game.row.status != "running" or game.state is None or version != game.row.version:
            return Reply(chat.tr("toast-stale"))
        seat = game.person_to_move()
        if seat is None:
            return Reply(chat.tr("kick-nobody"))

        async def post(line: Markup) -> None:
            await self.messages.send(chat.id, line, thread=game.row.thread_id)

        async def skip() -> None:  # after the toast, still under the chat's lock
            await self.leave(chat, game, seat, post, by)

        return Reply(after=skip)  # silent: the line it posts says what happened
