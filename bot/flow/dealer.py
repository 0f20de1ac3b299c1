"""Dealing a game: a lobby turned into the table («Начать», «🤖 Играть с ботом»), or «Ещё раунд»: pressed
by the host, straight to a new table with the same players and settings; pressed by another player, to a
new lobby with the same people seated, for the host to start; if a person left the game and a computer
played on for them, to a new lobby where their seat is open."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

from telegram.error import TelegramError

from bot import texts
from bot.flow.context import Chat, Game, Reply, Sources
from bot.flow.moves import Moves
from bot.store import ActiveGameExistsError, GameRow, Seat, StaleVersionError, Store
from engines.base import LogEntry, OptionsError

log = logging.getLogger(__name__)
START = LogEntry(seat=None, code="start")  # the bot's own first entry of every log: the deal (action -1)


def rematch_seats(row: GameRow, user_id: int) -> tuple[tuple[Seat, ...], bool]:
    """The seats of «Ещё раунд» pressed by ``user_id``, and whether a seat is left open: a computer
    that took a person's seat is not carried over (the seat goes to a person in a lobby), and the
    presser, if they are the one who left, sits down again (their press says they play)."""
    kept = [s for s in row.seats if s.left_user_id is None]
    if len(kept) == len(row.seats):
        return tuple(Seat(s.seat, s.user_id, s.name) for s in row.seats), False
    if (seat := row.left_seat_of(user_id)) is not None:
        kept.insert(sum(s.seat < seat for s in kept), Seat(seat, user_id, row.seats[seat].left_name or ""))
    return tuple(Seat(i, s.user_id, s.name) for i, s in enumerate(kept)), True


class Dealer:
    """Starts games from their lobby, and rematches."""

    def __init__(self, store: Store, moves: Moves, sources: Sources) -> None:
        self.store, self.moves, self.sources = store, moves, sources
        self.post_lobby: Callable[[Chat, Game], Awaitable[None]] | None = None  # Lobby.post (set by the flow)

    async def start(self, chat: Chat, game: Game, seating: Sequence[Seat] | None = None) -> Reply:
        """Deal the game from the lobby (``seating``: its seats and host rewritten first, the host in
        seat 0) and turn the lobby message into the table."""
        tr, engine = chat.tr, game.spec.engine
        seats = tuple(seating) if seating is not None else game.seats
        if engine.min_players == engine.max_players != len(seats):  # «нужны 2 игрока», not «от 2 до 2»
            return Reply(tr("toast-need-players-exact", count=engine.min_players), alert=True)
        if not engine.min_players <= len(seats) <= engine.max_players:
            return Reply(tr("toast-need-players", min=engine.min_players, max=engine.max_players), alert=True)
        try:
            game.options.validate(len(seats))
        except OptionsError as exc:  # e.g. a goal bigger than the pile for this many players
            return Reply(texts.option_error(exc, game.spec.code, game.options, tr), alert=True)
        state, events = engine.new_game(game.options, len(seats), game.row.seed)
        if seating is not None:
            game = game.stored(replace(game.row, seats=seats, host_id=seats[0].user_id))
        try:
            fresh = await self.moves.save(chat, game, state, [(START, events)], reseated=seating is not None,
                                          by_person=True)
        except StaleVersionError:
            return Reply(tr("toast-stale"))
        return Reply(tr("toast-started"), after=lambda: self.moves.after_move(chat, fresh))

    async def rematch(self, chat: Chat, game: Game, user_id: int) -> Reply:
        """«Ещё раунд»: the same players and settings, with the seed whose SHA-256 the result message
        showed (a fresh one if that seed has served a game already). Anyone who played may press it, one
        who left included. The host's press goes straight to the table; anyone else's opens a lobby with
        the same people seated, where the host may change the settings or seat a computer first and
        starts it, as does a rematch with a seat left open (:func:`rematch_seats`)."""
        tr, row = chat.tr, game.row
        if row.status != "finished":
            return Reply(tr("toast-stale"))
        if row.seat_of(user_id) is None and row.left_seat_of(user_id) is None:
            return Reply(tr("toast-not-a-player"))
        seats, open_seat = rematch_seats(row, user_id)
        # the host keeps the role if still seated (a bot may have taken their seat); else the presser
        host = next((s for s in seats if s.user_id == row.host_id), next(s for s in seats if s.user_id == user_id))
        seed = row.next_seed
        if seed is None or await self.store.seed_used(seed):
            seed = self.sources.new_seed()
        try:
            new = await self.store.create_game(chat.id, row.code, row.options, seed, host, seats, row.thread_id)
        except ActiveGameExistsError:
            return Reply(tr("toast-game-exists"), alert=True)
        if open_seat:
            return await self._open_lobby(chat, Game(new, game.spec, game.options, None),
                                          chat.tr("toast-rematch-lobby"))
        if user_id != host.user_id:  # not theirs to start: the host starts it, once it is set up as they like
            return await self._open_lobby(chat, Game(new, game.spec, game.options, None),
                                          chat.tr("toast-rematch-host", name=texts.shown_name(host.name, chat.tr)))
        return await self.start(chat, Game(new, game.spec, game.options, None))

    async def _open_lobby(self, chat: Chat, game: Game, toast: str) -> Reply:
        """Post the rematch's lobby, the presser told ``toast``; if Telegram refuses it, the lobby is closed
        again (as /newgame's)."""
        assert self.post_lobby is not None, "the flow sets Lobby.post"
        try:
            await self.post_lobby(chat, game)
        except TelegramError as exc:
            log.warning("chat %s: could not post the rematch's lobby: %s", chat.id, exc)
            await self.store.stop_game(game.id, {"kind": "cancelled"})
            return Reply(chat.tr("lobby-post-failed"), alert=True)
        return Reply(toast)
