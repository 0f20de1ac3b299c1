"""Moves: a press checked and applied, stored in one transaction, then the computer's turns and
the fast table's actions for people who have no choice, the table, and the result once the game is over."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from bot import callback_data as cb
from bot import texts
from bot.flow.context import FAST, Chat, Game, Reply, Sources
from bot.flow.messages import Messages
from bot.flow.pings import TurnPings
from bot.flow.table_settings import TableSettings, level_of
from bot.flow.table_view import TableView
from bot.flow.turn_timer import TurnTimer
from bot.ratings import Change, Ratings
from bot.store import GameRow, Move, NewAction, Seat, StaleVersionError, StorageError, Store
from bot.turns import Applied, is_bot, until_choice

log = logging.getLogger(__name__)
Show = Callable[[Game], Awaitable[None]]  # how a game's table is shown once its turns are played


def seats_after(game: Game, new_seat: Seat | None) -> list[Seat]:
    """The game's seats once ``new_seat`` (if any) took its place."""
    return [new_seat if new_seat is not None and s.seat == new_seat.seat else s for s in game.seats]


def stored_row(game: Game, state: Any, applied: Applied, deadline: float | None, timeouts: dict[str, int] | None,
               new_seat: Seat | None, next_seed: str | None, reseated: bool, by_person: bool) -> tuple[GameRow, Move]:
    """The row ``game`` has once ``applied`` led to ``state``, and the move that stores it (with all of
    the game's seats and its host when ``reseated``)."""
    spec, row = game.spec, game.row
    outcome = spec.engine.outcome(state)
    payer = None
    if outcome is not None and spec.ui.is_pub(state.options) and outcome.losers:
        loser = row.seats[outcome.losers[0]]
        payer = None if is_bot(loser.user_id) else loser  # a computer never buys the round: nobody does
    fresh = replace(row, state=state.to_json(), version=state.version, status="finished" if outcome else "running",
                    result=outcome.to_json() if outcome else None, seats=tuple(seats_after(game, new_seat)),
                    deadline=deadline,
                    timeouts=row.timeouts if timeouts is None else timeouts, next_seed=next_seed)
    move = Move(row.id, row.version, fresh.state or {}, fresh.version,
                [NewAction(entry.seat, entry.code, entry.dice, [e.to_json() for e in events])
                 for entry, events in applied],
                status=fresh.status, result=fresh.result, pub_payer=payer, deadline=deadline, timeouts=timeouts,
                new_seat=new_seat, next_seed=next_seed, seating=row.seats if reseated else None,
                host_id=row.host_id if reseated else None, by_person=by_person)
    return fresh, move


class Moves:
    """A person's move, the computer's answer, and what the chat sees of them."""

    def __init__(self, store: Store, table: TableView, messages: Messages, timer: TurnTimer, sources: Sources,
                 pings: TurnPings, ratings: Ratings) -> None:
        self.store, self.table, self.messages, self.timer, self.sources = store, table, messages, timer, sources
        self.pings, self.ratings = pings, ratings
        self.retry_later: Callable[[int], None] = lambda game_id: None  # CatchUp: play what storage refused, later

    async def press(self, chat: Chat, game: Game, user_id: int, data: cb.Callback) -> Reply:
        """A press on the table: a move (``g``), the second press of one that asks first (``y``), or
        «Отмена» of its question (``u``); the caller holds the lock."""
        if data.kind == "u":
            return self.unask(chat, game, user_id, data.version)
        return await self.act(chat, game, user_id, data.version, data.code, confirmed=data.kind == "y")

    async def act(self, chat: Chat, game: Game, user_id: int, version: int, code: str,
                  confirmed: bool = False) -> Reply:
        """Apply the presser's action if it is theirs, current and legal; one the game wants confirmed
        (``GameSpec.confirm``) asks on the table first, unless this press is the ``confirmed`` one."""
        tr, row = chat.tr, game.row
        if row.status != "running" or game.state is None:  # its last edit may have been lost: show it
            behind = row.status == "finished" and row.shown_version < row.version
            return Reply(tr("toast-game-over"), after=(lambda: self.table.show(game, chat)) if behind else None,
                         outcome="game_over")
        if row.paused:
            return Reply(tr("toast-paused"), alert=True, outcome="paused")
        if version != row.version:
            behind = row.shown_version < row.version  # a lost edit: show the current table
            return Reply(tr("toast-stale"), after=(lambda: self.table.show(game, chat)) if behind else None,
                         outcome="stale")
        current = game.state.current_player
        if current is None:
            return Reply(tr("toast-game-over"), outcome="game_over")
        if row.seat_of(user_id) != current:
            refusal = "toast-not-your-question" if confirmed else "toast-not-your-turn"
            return Reply(tr(refusal, name=texts.seat_names(row.seats, tr)[current]), outcome="not_your_turn")
        engine = game.spec.engine
        kind = next((a.kind for a in engine.legal_actions(game.state) if a.code == code), None)
        if kind is None:
            return Reply(tr("toast-illegal"), outcome="illegal")
        if kind in game.spec.confirm and not confirmed:  # lions.md: one stray tap must not lose the game
            asking = texts.confirm_keyboard(game, tr, code, kind)
            return Reply(tr("toast-confirm"), after=lambda: self.messages.edit_keyboard(row, asking), outcome="asked")
        state, events, entry = engine.apply(game.state, code)
        timeouts = {**row.timeouts, str(current): 0} if row.timeouts.get(str(current)) else None
        try:
            fresh = await self.save(chat, game, state, [(entry, events)], timeouts, by_person=True)
        except StaleVersionError:
            return Reply(tr("toast-stale"), outcome="stale")
        # a toast only when it tells something: the dice thrown; a plain move answers silently
        toast = tr("toast-dice", dice=" · ".join(map(str, entry.dice))) if entry.dice else ""
        return Reply(toast, after=lambda: self.after_move(chat, fresh), outcome="moved")

    def unask(self, chat: Chat, game: Game, user_id: int, version: int) -> Reply:
        """«Отмена» of a question on the table: its keyboard as it was, if the turn is still the one
        asked at ``version`` and the presser the one who asked."""
        tr, row, state = chat.tr, game.row, game.state
        if row.status != "running" or state is None or version != row.version or state.current_player is None:
            return Reply(tr("toast-stale"), outcome="stale")
        if row.seat_of(user_id) != state.current_player:
            return Reply(tr("toast-not-your-question", name=texts.seat_names(row.seats, tr)[state.current_player]),
                         outcome="not_your_turn")
        keyboard = texts.table_keyboard(game, tr)
        return Reply("", after=lambda: self.messages.edit_keyboard(row, keyboard), outcome="unasked")

    async def save(self, chat: Chat, game: Game, state: Any, applied: Applied, timeouts: dict[str, int] | None = None,
                   new_seat: Seat | None = None, reseated: bool = False, by_person: bool = False) -> Game:
        """Store the actions that led from ``game`` to ``state`` (and the result, if it ended), with
        the next player's deadline, in one transaction; then arm the deadline. ``reseated``: the
        game's seats and host are stored too (a deal against the computer); ``by_person``: a
        person's press made it (the game is not idle)."""
        deadline = self.timer.deadline(chat, game.row, seats_after(game, new_seat), state)
        # «Ещё раунд» gets its seed now, before any of its rolls; its first table shows the commitment
        next_seed = self.sources.new_seed() if game.spec.engine.outcome(state) else None
        fresh, move = stored_row(game, state, applied, deadline, timeouts, new_seat, next_seed, reseated, by_person)
        await self.store.save_move(move)
        self.timer.start(game.id, deadline)
        self.pings.acted(game.id, [entry for entry, _ in applied])
        return game.stored(fresh, state)  # what was just stored: no need to read it back

    async def after_move(self, chat: Chat, game: Game, for_people: bool = True, show: Show | None = None) -> None:
        """Let the computer play its turns and, on the fast table (unless ``for_people`` is False: a
        table shown again, not a move), the turns of people who have no choice; then show the table
        (by ``show``, if given: a table posted anew) and the result, if the game ended."""
        try:
            game = await self._play_on(chat, game, for_people)
        except StorageError as exc:  # the person's move stands; show it, and the computer tries again
            log.error("game %s: storage failed (%s) at the computer's turn; trying again", game.id, exc)
            self.retry_later(game.id)
        await (show(game) if show is not None else self.table.show(game, chat))
        if game.row.status == "finished" and (outcome := game.outcome()) is not None:
            tally = await self.store.pub_tally(chat.id) if game.spec.ui.is_pub(game.options) else []
            keyboard = texts.result_keyboard(game, chat.tr)
            changes = await self._rated(game)
            await self.messages.send(chat.id, texts.result_message(game, outcome, tally, chat.tr, changes), keyboard,
                                     thread=game.row.thread_id)
        await self.pings.review(chat, game)

    async def _rated(self, game: Game) -> list[Change]:
        """The finished game rated (with any of its chat's games not rated yet): its rating changes; none
        if storage failed (the ratings are derived: the next catch-up rates it)."""
        try:
            await self.ratings.catch_up(game.row.chat_id)
            return await self.ratings.changes(game.id)
        except StorageError as exc:
            log.warning("game %s: not rated now (%s)", game.id, exc)
            return []

    async def _play_on(self, chat: Chat, game: Game, for_people: bool) -> Game:
        """Apply, in one save, the computer's turns and (on the fast table, ``for_people``) every action a
        person has no choice about, up to a person's real choice or the end (``bot.turns.until_choice``)."""
        row, state = game.row, game.state
        if row.status != "running" or state is None or state.current_player is None:
            return game
        fast = (for_people and not row.paused and game.spec.fast_table
                and TableSettings.of(chat.settings, row.options).pace == FAST)
        policy = game.spec.policy_at(level_of(row.options))  # the level the lobby chose
        bots = game.bots
        if not bots[state.current_player] and not fast:
            return game
        if any(bots):  # a computer's plan may take a while: off the event loop
            state, applied = await asyncio.to_thread(until_choice, game.spec.engine, policy, state, bots, fast,
                                                     game.spec.position)
        else:
            state, applied = until_choice(game.spec.engine, policy, state, bots, fast, game.spec.position)
        return await self._save_unless_moved_on(chat, game, state, applied)

    async def _save_unless_moved_on(self, chat: Chat, game: Game, state: Any, applied: Applied) -> Game:
        """Store the actions the bot took itself (computer turns, the fast table's); if someone else moved
        the game on meanwhile, their save stands and this one is dropped."""
        if not applied:
            return game
        try:
            return await self.save(chat, game, state, applied)
        except StaleVersionError:
            row = await self.store.game(game.id)
            return game if row is None else Game.decode(row, {row.code: game.spec})

    async def stop(self, chat: Chat, game: Game, kind: str = "stopped") -> bool:
        """Stop a lobby or game (result ``kind``: «stopped» by its host or an admin, «abandoned» when
        nobody plays it, «expired» for a lobby nobody touched); the caller checked the rights."""
        if not await self.store.stop_game(game.id, {"kind": kind}):
            return False
        await self.pings.end(chat.id, game.id)
        if game.row.status == "lobby" or game.state is None:
            closed = "lobby-expired" if kind == "expired" else "lobby-cancelled"
            await self.messages.edit_caption(game.row, chat.html(closed), None)
        else:
            await self.table.show_stopped(game, chat, "table-abandoned" if kind == "abandoned" else "table-stopped")
        return True
