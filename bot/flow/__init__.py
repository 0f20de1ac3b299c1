"""What happens on each press, command and timer: load → engine → save → render → edit.

:class:`GameFlow` is what the handlers call. Every press or command takes its chat's lock, loads the
chat and its game once (:class:`~bot.flow.loader.Loader`), hands them to the room that knows what to
do, and answers while the edits that follow go out. Every change to a game is committed before any
message is edited, so a crash between the two loses nothing: the next press (or start-up) re-sends
the missing edit. The rooms: :mod:`~bot.flow.lobby`, :mod:`~bot.flow.dealer`, :mod:`~bot.flow.moves`,
:mod:`~bot.flow.departures`, :mod:`~bot.flow.table_view`, :mod:`~bot.flow.chat_life`,
:mod:`~bot.flow.catch_up`, :mod:`~bot.flow.settings_menu`, :mod:`~bot.flow.dice_check`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

from markupsafe import Markup, escape
from telegram import Bot, InlineKeyboardMarkup
from telegram.error import TelegramError

from bot import callback_data as cb
from bot import texts
from bot.config import Config
from bot.drawing import Drawing
from bot.flood import CommandFlood
from bot.flow.alarms import Alarms, LoopAlarms
from bot.flow.catch_up import CatchUp
from bot.flow.chat_life import ChatLife
from bot.flow.context import AdminCheck, Chat, ChatLocks, Game, Reply, Sources
from bot.flow.dealer import Dealer
from bot.flow.departures import Departures
from bot.flow.dice_check import DiceCheck
from bot.flow.expiry import Expiry
from bot.flow.loader import BrokenGame, Loader
from bot.flow.lobby import Lobby
from bot.flow.messages import Messages
from bot.flow.moves import Moves
from bot.flow.pings import TurnPings
from bot.flow.quarantine import Quarantine
from bot.flow.replays import Replays
from bot.flow.settings_menu import SettingsMenu
from bot.flow.table_settings import level_of
from bot.flow.table_view import TableView
from bot.flow.tidy import Tidy
from bot.flow.turn_timer import TurnTimer
from bot.games import GAMES, Registry
from bot.games.common import named_option, set_option
from bot.outbox import Outbox
from bot.ratings import Ratings
from bot.store import (
    GameRow,
    GameTotals,
    LoggedAction,
    PastGame,
    PlayerTotals,
    RatingRow,
    Seat,
    StorageError,
    Store,
    TallyRow,
)
from engines.base import OptionsError
from locales import SUPPORTED, Translator

__all__ = ["AdminCheck", "BrokenGame", "Chat", "GameFlow", "Reply", "Say"]
Answer = Callable[[Reply], Awaitable[None]]  # answers the press (the toast or the alert)
log = logging.getLogger(__name__)
REPOST_EVERY_S = 30  # /table re-posts a game's table at most this often
# what a press that is not a move came to, by its kind (bot/metrics.py; a move's Reply says it itself)
PRESS_KINDS = {"n": "picked", "s": "settings", "l": "lobby", "r": "rematch", "k": "kick", "v": "dice_check",
               "w": "replay"}
AT_A_VERSION = ("g", "y", "u", "k")  # the presses that carry the version of the table they were on


class Say(Protocol):
    """Posts a reply to the command being handled (as a reply to ``to``, or to the command);
    a ``transient`` one (a refusal) goes after a minute with the command, in a tidy chat."""

    def __call__(self, text: Markup, markup: InlineKeyboardMarkup | None = None, to: int | None = None,
                 transient: bool = False) -> Awaitable[None]: ...


class GameFlow:
    """The bot's game logic, as the handlers and the application's jobs call it."""

    def __init__(self, config: Config, store: Store, translator: Translator, bot: Bot, games: Registry = GAMES,
                 outbox: Outbox | None = None, drawing: Drawing | None = None) -> None:
        self.config, self.store, self.translator, self.games = config, store, translator, games
        self.outbox, self.drawing = outbox or Outbox(), drawing or Drawing()
        self.sources, self.locks = Sources(), ChatLocks()
        self.flood = CommandFlood(config.user_commands_per_minute)
        self.sources.clock = store.clock  # one clock for the deadlines the flow sets and the times stored
        self.caught_up = asyncio.Event()  # set once start-up's catch-up is done
        self.loader = Loader(store, games, translator, config.default_locale)
        self.messages = Messages(bot, self.outbox, self.drawing)
        self.table = TableView(store, self.messages, self.drawing, lambda: self.sources.clock())
        self.timer = TurnTimer(self.sources)
        self.loop_alarms = LoopAlarms(lambda: self.sources.clock())
        self.pings = TurnPings(self.loader, self.locks, self.messages, self.sources, self.loop_alarms)
        self.tidy = Tidy(self.messages, self.sources, self.loop_alarms)
        self.pings.tidy = self.tidy
        self.quarantine = Quarantine(store, self.loader, self.messages, self.pings)
        self.loader.on_broken = self.quarantine.end  # a game that cannot be decoded is ended where it is met
        self.ratings = Ratings(store, {code: games[code].places for code in games}, level_of)
        self.moves = Moves(store, self.table, self.messages, self.timer, self.sources, self.pings, self.ratings)
        self.dealer = Dealer(store, self.moves, self.sources)
        self.lobby = Lobby(store, self.messages, self.dealer, self.sources)
        self.dealer.post_lobby = self.lobby.post  # a rematch with a seat left open is a lobby
        self.departures = Departures(store, self.loader, self.locks, self.moves, self.messages, self.sources)
        self.expiry = Expiry(store, self.loader, self.locks, self.moves, self.sources, 3600 * config.game_idle_hours)
        self.catch_up = CatchUp(store, self.loader, self.locks, self.moves, self.lobby, self.table, self.messages)
        self.chat_life = ChatLife(store, self.loader, self.locks, self.outbox, self.timer, self.catch_up)
        self.settings = SettingsMenu(store, games, self.loader, self.messages)
        self.dice_check = DiceCheck(self, self.messages, self.sources)
        # the replay clips get a drawing worker of their own: a table never waits behind a clip
        self.clips = Drawing(min(1, self.drawing.processes))
        self.replays = Replays(self, store, self.messages, self.clips)
        self.messages.on_refused = self.chat_life.refused
        self.table.on_lost_edit = self.moves.retry_later = self.catch_up.retry_later
        self.on_press: Callable[[str, int, float], None] = lambda outcome, game_id, arrived: None  # bot/metrics.py

    # what tests and the application set -----------------------------------------------

    @property
    def clock(self) -> Callable[[], float]:
        return self.sources.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.sources.clock = self.store.clock = clock

    @property
    def seed_factory(self) -> Callable[[], str]:
        return self.sources.new_seed

    @seed_factory.setter
    def seed_factory(self, new_seed: Callable[[], str]) -> None:
        self.sources.new_seed = new_seed

    @property
    def arm(self) -> Callable[[int, float], None] | None:
        """Schedules on_deadline(game id) at a clock time (the application's job queue)."""
        return self.timer.arm

    @arm.setter
    def arm(self, arm: Callable[[int, float], None] | None) -> None:
        self.timer.arm = arm

    @property
    def alarms(self) -> Alarms:
        """What runs the turn pings and tidies the chat at their time (tests fire them by hand)."""
        return self.pings.alarms

    @alarms.setter
    def alarms(self, alarms: Alarms) -> None:
        self.pings.alarms = self.tidy.alarms = alarms

    async def chat(self, chat_id: int) -> Chat:
        """The chat's language, settings and words."""
        return await self.loader.chat(chat_id)

    # presses ------------------------------------------------------------------------

    async def press(self, chat_id: int, user: Seat, data: cb.Callback, message_id: int | None,
                    is_admin: AdminCheck, answer: Answer, thread: int = 0, on_message: bool = False) -> None:
        """A parsed press of ``user`` in a group (on a message in the forum topic ``thread``; ``on_message``:
        its data is on a button of that message as Telegram keeps it, not only the client's word): done
        under the chat's lock; the answer goes out while the edits that follow are made."""
        arrived = time.monotonic()  # before the lock: waiting behind the chat's other presses counts
        async with self.locks(chat_id):
            reply = await self._press(chat_id, user, data, message_id, is_admin, thread, on_message)
            self.on_press(reply.outcome or PRESS_KINDS.get(data.kind, "other"), data.game_id, arrived)
            # the toast goes out while the table is drawn: neither waits for the other's round trip
            await asyncio.gather(answer(reply), reply.finish())

    async def _press(self, chat_id: int, user: Seat, data: cb.Callback, message_id: int | None,
                     is_admin: AdminCheck, thread: int, on_message: bool = False) -> Reply:
        if data.kind == "n":
            return await self._pick(chat_id, user, data.code, message_id, thread)
        if data.kind == "s":  # /settings: the chat's admins only
            chat = await self.loader.chat(chat_id)
            return await self.settings.press(chat, message_id, data) if await is_admin() else Reply(
                chat.tr("admins-only"))
        chat, game = await self.loader.load(chat_id, data.game_id)
        if game is None or game.row.chat_id != chat_id:
            return Reply(chat.tr("toast-stale"), outcome="stale")
        if self._ahead(game, data, on_message):
            return self.catch_up.ahead(chat, game, message_id, data.version)
        if data.kind == "l":
            return await self.lobby.press(chat, game, user, data.command, data.key, data.value, is_admin)
        if data.kind in ("g", "y", "u"):  # a move, or the question a move asks first
            return await self.moves.press(chat, game, user.user_id, data)
        if data.kind == "r":
            return await self.dealer.rematch(chat, game, user.user_id)
        if data.kind == "k":
            if user.user_id != game.row.host_id and not await is_admin():
                return Reply(chat.tr("kick-denied"))
            return await self.departures.skip(chat, game, data.version, texts.shown_name(user.name, chat.tr))
        if data.kind == "v":
            return self.dice_check.press(chat, game, message_id)
        if data.kind == "w":
            key, args = await self.replays.ask(chat, game.id, game.row.thread_id, message_id)
            return Reply(chat.tr(key, **args))
        return Reply(chat.tr("toast-stale"))

    @staticmethod
    def _ahead(game: Game, data: cb.Callback, on_message: bool) -> bool:
        """Whether the press is on a table ahead of its running game: the store lost the commits that made
        it. Only a button Telegram's copy of the message carries counts: the client may send any version."""
        return (data.kind in AT_A_VERSION and data.version > game.row.version and on_message
                and game.row.status == "running" and not game.row.paused)

    async def _pick(self, chat_id: int, host: Seat, code: str, message_id: int | None, thread: int) -> Reply:
        """A game picked from /newgame's list: its lobby opens (in the list's topic) and the list goes."""
        chat, active = await self.loader.load(chat_id, thread=thread)
        spec = self.games.get(code)
        if spec is None:
            return Reply(chat.tr("toast-stale"))
        if active is not None:
            return Reply(chat.tr("toast-game-exists"), alert=True)
        if await self.lobby.open(chat, spec, host, thread) is not None and message_id is not None:
            with contextlib.suppress(TelegramError):  # if it fails the picker just stays
                await self.messages.bot.delete_message(chat_id, message_id)
        return Reply(chat.tr("toast-lobby-open"))

    # commands -------------------------------------------------------------------------

    async def newgame(self, chat_id: int, host: Seat, code: str | None, say: Say, thread: int = 0) -> None:
        """/newgame [code]: the game picker, or straight to a lobby (in the topic it was typed in)."""
        async with self.locks(chat_id):
            chat, active = await self.loader.load(chat_id, thread=thread)
            tr, html = chat.tr, chat.html
            if active is not None:
                await say(html("game-exists", game=tr(f"game-{active.spec.code}")), to=active.row.message_id,
                          transient=True)
            elif code is None:
                await say(html("picker-title"), texts.picker_keyboard(self.games, tr))
            elif (spec := self.games.get(code)) is None:
                await say(html("unknown-game", codes=", ".join(self.games)), transient=True)
            else:
                await self.lobby.open(chat, spec, host, thread)

    async def rules(self, chat_id: int, code: str | None, thread: int = 0) -> Markup:
        """/rules [code]: the rules of the named game or the topic's current one (or which games there are)."""
        chat, active = (await self.loader.load(chat_id, thread=thread) if code is None
                        else (await self.loader.chat(chat_id), None))
        html = chat.html
        if code is None and active is not None:
            code = active.spec.code
        if code is None and len(self.games) == 1:
            code = next(iter(self.games))
        if code is None:
            return html("rules-which", commands=", ".join(f"/rules {c}" for c in self.games))
        return html(f"rules-{code}") if code in self.games else html("unknown-game", codes=", ".join(self.games))

    async def stop(self, chat_id: int, user_id: int, is_admin: AdminCheck, say: Say, thread: int = 0) -> None:
        """/stop: the host or an admin ends the lobby or game."""
        async with self.locks(chat_id):
            chat, game = await self.loader.load(chat_id, thread=thread)
            if game is None:
                await say(chat.html("no-game"), transient=True)
            elif user_id != game.row.host_id and not await is_admin():
                await say(chat.html("stop-denied"), transient=True)
            elif await self.moves.stop(chat, game):
                await say(chat.html("stopped", game=chat.tr(f"game-{game.spec.code}")))

    async def repost_table(self, chat_id: int, say: Say, thread: int = 0) -> None:
        """/table: the game's table (or its lobby) posted again at the bottom of the chat, at most once
        per :data:`REPOST_EVERY_S` seconds a game."""
        async with self.locks(chat_id):
            chat, game = await self.loader.load(chat_id, thread=thread)
            if game is None:
                return await say(chat.html("no-game"), transient=True)
            if (wait := self.table.repost_wait(game.id, REPOST_EVERY_S)) > 0:
                return await say(chat.html("table-too-soon", seconds=math.ceil(wait)), transient=True)
            await (self.lobby.repost(chat, game) if game.state is None else self.table.repost(game, chat))

    async def leave(self, chat_id: int, user_id: int, say: Say, thread: int = 0) -> None:
        """/leave: leave the running game; a bot takes the seat (in a game one can resign, you resign)."""
        async with self.locks(chat_id):
            chat, game = await self.loader.load(chat_id, thread=thread)
            if game is None or game.row.status != "running":
                await say(chat.html("leave-no-game"), transient=True)
            elif (seat := game.row.seat_of(user_id)) is None:
                gone = game.row.left_seat_of(user_id) is not None  # left already: the computer plays on
                await say(chat.html("leave-already-left" if gone else "leave-not-a-player"), transient=True)
            else:
                await self.departures.leave(chat, game, seat, say)

    async def kick(self, chat_id: int, user: Seat, is_admin: AdminCheck, say: Say, thread: int = 0) -> None:
        """/kick: the host or an admin (``user``) skips the person to move for good (a bot takes the seat)."""
        user_id = user.user_id
        async with self.locks(chat_id):
            chat, game = await self.loader.load(chat_id, thread=thread)
            if game is None or game.row.status != "running" or game.state is None:
                await say(chat.html("leave-no-game"), transient=True)
            elif user_id != game.row.host_id and not await is_admin():
                await say(chat.html("kick-denied"), transient=True)
            elif (seat := game.person_to_move()) is None:
                await say(chat.html("kick-nobody"), transient=True)
            else:
                await self.departures.leave(chat, game, seat, say, texts.shown_name(user.name, chat.tr))

    async def set_option(self, chat_id: int, user_id: int, args: list[str], is_admin: AdminCheck, say: Say,
                         thread: int = 0) -> None:
        """/set <option> <value>: the lobby host sets any option value, e.g. /set chips 17, named by its key or
        by its name in words as the bot shows them (/set фишки 17, /set mode башня, /set бросающий не платит)."""
        async with self.locks(chat_id):
            chat, game = await self.loader.load(chat_id, thread=thread)
            html = chat.html
            if game is None or game.row.status != "lobby":
                return await say(html("set-no-lobby"), transient=True)
            if len(args) < 2:
                return await say(html("set-usage"), transient=True)
            if user_id != game.row.host_id and not await is_admin():
                return await say(html("toast-host-only"), transient=True)
            words = [self.loader.words(lang) for lang in dict.fromkeys((chat.lang, *SUPPORTED))]
            key, value = named_option(game.spec.code, game.options, args, words)
            try:
                set_option(game.options, key, value)
            except OptionsError as exc:
                return await say(escape(texts.option_error(exc, game.spec.code, game.options, chat.tr)), transient=True)
            reply = await self.lobby.press(chat, game, Seat(-1, user_id, ""), "set", key, value, _already_checked)
            await reply.finish()
            await say(escape(reply.text), transient=True)  # the toast a press would show; the lobby shows it too

    async def set_language(self, chat_id: int, lang: str) -> Markup:
        """/lang: the chat's language; the answer in the new one."""
        await self.store.set_chat_locale(chat_id, lang)
        return (await self.loader.chat(chat_id)).html("lang-set")

    async def tally(self, chat_id: int) -> list[TallyRow]:
        """Who paid how many pub rounds in the chat, most first."""
        return await self.store.pub_tally(chat_id)

    async def reset_tally(self, chat_id: int) -> None:
        await self.store.reset_pub_tally(chat_id)

    async def settings_view(self, chat_id: int) -> tuple[Markup, InlineKeyboardMarkup]:
        """The /settings message of the chat."""
        return self.settings.view(await self.loader.chat(chat_id))

    # results, for /stats, /top, /history and /verify ---------------------------------------

    async def user_totals(self, chat_id: int, user_id: int) -> list[GameTotals]:
        return await self.store.user_totals(chat_id, user_id)

    async def player_totals(self, chat_id: int, code: str | None) -> list[PlayerTotals]:
        return await self.store.player_totals(chat_id, code)

    async def ratings_of(self, chat_id: int, code: str) -> dict[str, RatingRow]:
        """The chat's ratings of one game, by player key (a person's user id as text)."""
        return {r.player: r for r in await self.store.ratings(chat_id, code)}

    async def past_games(self, chat_id: int, limit: int) -> list[PastGame]:
        return await self.store.past_games(chat_id, limit)

    async def game_log(self, game_id: int) -> tuple[GameRow, list[LoggedAction]] | None:
        """A game and its whole action log (None: no such game)."""
        game = await self.store.game(game_id)
        return None if game is None else (game, await self.store.actions(game_id))

    # the chat itself, timers, start-up -------------------------------------------------------

    def chat_refused(self, chat_id: int, exc: TelegramError) -> bool:
        return self.chat_life.refused(chat_id, exc)

    async def on_deadline(self, game_id: int) -> bool:
        """A turn timer ran out: the computer plays the turn (False if it is no longer due)."""
        return await self.departures.timed_out(game_id)

    async def expire_idle(self) -> int:
        """Close the lobbies nobody touched for 15 minutes and stop the games nobody plays; how many."""
        return await self.expiry.sweep()

    async def catch_up_after_start(self) -> tuple[int, int]:
        """Redraw the tables a crash left behind, play the turns whose timer ran out while the bot was
        down, arm the other timers; (tables redrawn, timers) counted."""
        repaired = await self.catch_up.repair_tables()
        await self.rate_unrated()
        timers = 0
        for game in await self.store.games_with_deadlines():
            try:
                await self._resume_timer(game)
                timers += 1
            except BrokenGame:  # quarantined where it was met: the other games' timers go on
                continue
        return repaired, timers

    async def _resume_timer(self, row: GameRow) -> None:
        """Play the turn whose timer ran out while the bot was down, or arm the timer of a game that
        decodes (one that does not is quarantined now rather than when its timer rings)."""
        assert row.deadline is not None
        if row.deadline <= self.clock():
            await self.on_deadline(row.id)
            return
        async with self.locks(row.chat_id):
            await self.loader.decode(row)
        self.timer.start(row.id, row.deadline)

    async def rate_unrated(self) -> int:
        """Rate the finished games not rated yet (those played before ratings existed, or whose rating a
        storage failure put off); how many. A failure here only leaves them for the next game's catch-up."""
        try:
            return await self.ratings.catch_up()
        except StorageError as exc:
            log.warning("ratings not caught up at start: %s", exc)
            return 0

    async def settled(self, timeout: float = 5.0) -> None:
        """Wait for the pauses and migrations the bot started apart from the updates that found them."""
        await self.chat_life.settled(timeout)

    def retries_pending(self) -> int:
        """Games whose lost table edit waits to be tried again."""
        return self.catch_up.pending()

    async def close(self) -> None:
        """Drop pending retries and let the drawing workers go (at shutdown, after the last update; a
        table still behind is redrawn at the next start)."""
        self.catch_up.close()
        self.chat_life.close()
        await self.loop_alarms.close()
        self.replays.close()
        await self.drawing.close()
        await self.clips.close()


async def _already_checked() -> bool:
    return True
