"""What happens on each lobby and game action: load → engine → save → render → edit.

Handlers stay thin and call into :class:`GameFlow`. Every change to a game happens under
the chat's lock and is committed before any message is edited, so a crash between the two
loses nothing: the next press (or start-up) re-sends the missing edit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from bot import callback_data as cb
from bot import texts
from bot.config import Config
from bot.drawing import Drawing
from bot.games import GAME_UIS
from bot.games.common import GameUI, Tr, set_option
from bot.outbox import Outbox
from bot.storage import ActiveGameExistsError, GameRow, Repository, Seat, StaleVersionError, StorageError
from bot.table import TableMessages
from bot.turns import ROLL_IS_THE_TURN, Applied, bot_actions, free_bot_id, is_bot, roll_for, turn_for
from engines import AI_PLAYERS, GAMES
from engines.base import Engine, Event, OptionsError, Outcome, new_seed
from locales import Translator
from render.cover import render_cover

log = logging.getLogger(__name__)
AI_USER_ID = -1  # the first computer player's seat; the n-th is -n (Telegram user ids are positive)
TIMER_CHOICES = (0, 1, 3, 10)  # the turn timer in minutes, 0 = off (a chat setting, «⏱» in the lobby)
DEFAULT_TIMER = 3
TIMEOUTS_TO_REPLACE = 3  # timeouts in a row: a bot takes the seat (where one can resign, they resign)


@dataclass
class Reply:
    """What to tell the presser (a toast, or an alert), and the message edits that follow.

    ``after`` runs while the press is being answered, still under the chat's lock, so the
    toast is instant and table edits keep the order of the moves.
    """

    text: str = ""
    alert: bool = False
    after: Callable[[], Awaitable[None]] | None = None

    async def finish(self) -> None:
        if self.after is not None:
            await self.after()


@dataclass
class GameFlow(TableMessages):
    """All game logic of the bot that talks to both storage and Telegram (its table messages
    and their chats: :class:`bot.table.TableMessages`)."""

    config: Config
    repo: Repository
    translator: Translator
    uis: dict[str, GameUI] = field(default_factory=lambda: dict(GAME_UIS))
    engines: dict[str, Engine[Any, Any]] = field(default_factory=lambda: dict(GAMES))
    ais: dict[str, Any] = field(default_factory=lambda: dict(AI_PLAYERS))
    seed_factory: Callable[[], str] = new_seed  # tests pass fixed seeds
    clock: Callable[[], float] = time.time  # deadlines are in this clock's seconds (tests move it on)
    arm: Callable[[int, float], None] | None = None  # schedules on_deadline(game id) at a clock time
    outbox: Outbox = field(default_factory=Outbox)  # build_application gives it the chat budgets
    drawing: Drawing = field(default_factory=Drawing)  # threads here; build_application gives it processes
    caught_up: asyncio.Event = field(default_factory=asyncio.Event)  # set once start-up's catch-up is done
    _covers: dict[tuple[str, str], str] = field(default_factory=dict)  # title card → Telegram file id
    _drawing_cover: asyncio.Lock = field(default_factory=asyncio.Lock)
    _locks: weakref.WeakValueDictionary[int, asyncio.Lock] = field(default_factory=weakref.WeakValueDictionary)
    _retries: dict[int, asyncio.Task[None]] = field(default_factory=dict)  # game → its lost table edit, again
    _chat_changes: set[asyncio.Task[None]] = field(default_factory=set)  # pauses and migrations found by errors

    async def close(self) -> None:
        """Drop pending table retries and let the drawing workers go (at shutdown, after the last
        update; a table still behind is redrawn at the next start)."""
        for task in [*self._retries.values(), *self._chat_changes]:
            task.cancel()
        await self.drawing.close()

    def lock(self, chat_id: int) -> asyncio.Lock:
        """The chat's lock around load-apply-save (one move at a time per chat)."""
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[chat_id] = lock
        return lock

    async def lang(self, chat_id: int) -> str:
        return await self.repo.chat_locale(chat_id) or self.config.default_locale

    async def tr(self, chat_id: int) -> Tr:
        lang = await self.lang(chat_id)
        return lambda key, /, **args: self.translator.t(lang, key, **args)

    # lobby ------------------------------------------------------------------

    async def open_lobby(self, bot: Bot, chat_id: int, code: str, host: Seat,
                         options: dict[str, Any] | None = None) -> GameRow | None:
        """Create a lobby and post its message; None if the chat already has a game. Without
        ``options`` the lobby starts from the chat's defaults (/settings)."""
        engine = self.engines[code]
        opts = engine.options_from_json(options) if options is not None else await self.default_options(chat_id, code)
        try:
            game = await self.repo.create_game(chat_id, code, opts.to_json(), self.seed_factory(), host)
        except ActiveGameExistsError:
            return None
        try:
            await self._post_lobby(bot, game)
        except TelegramError as exc:  # e.g. no right to send photos: don't leave an invisible lobby behind
            log.warning("chat %s: could not post the lobby: %s", chat_id, exc)
            await self.repo.stop_game(game.id, {"kind": "cancelled"})
            await self._send(bot, chat_id, (await self.tr(chat_id))("lobby-post-failed"))
            return None
        return game

    async def default_options(self, chat_id: int, code: str) -> Any:
        """The options a new lobby of ``code`` starts with: the engine's defaults, overridden by
        the chat's (/settings, ``settings["defaults"][code]``) one by one, each checked by the
        engine, so a stored value that is no longer valid falls back to the engine's default."""
        engine = self.engines[code]
        options = engine.options_from_json(None)
        defaults = (await self.repo.chat_settings(chat_id)).get("defaults")
        stored = defaults.get(code) if isinstance(defaults, dict) else None
        for key, value in (stored.items() if isinstance(stored, dict) else ()):
            try:
                options = engine.options_from_json({**options.to_json(), key: value})
            except (OptionsError, TypeError, ValueError):  # never trust what is stored either
                log.info("chat %s: the stored default %s=%r of %s is not valid; ignored", chat_id, key, value, code)
        return options

    async def autoroll(self, chat_id: int) -> bool:
        """Whether the chat has «автобросок» on (/settings; off by default)."""
        return (await self.repo.chat_settings(chat_id)).get("autoroll") is True

    async def _post_lobby(self, bot: Bot, game: GameRow) -> None:
        """Post the lobby's message (its title card, players and buttons) and remember it."""
        tr = await self.tr(game.chat_id)
        engine, ui = self.engines[game.code], self.uis[game.code]
        opts = engine.options_from_json(game.options)
        title = (tr(f"game-{game.code}"), tr(f"game-{game.code}-tagline"))
        caption = texts.lobby_caption(game, ui, engine, opts, tr)
        keyboard = texts.lobby_keyboard(game, ui, engine, opts, tr, game.code in self.ais,
                                        await self.turn_timer(game.chat_id))
        message = await self._send_cover(bot, game.chat_id, title, caption, keyboard)
        await self.repo.set_message_id(game.id, message.message_id)

    async def _send_cover(self, bot: Bot, chat_id: int, title: tuple[str, str], caption: str,
                          keyboard: InlineKeyboardMarkup) -> Message:
        """Post the lobby's title card: uploaded once, then sent again by Telegram's file id."""
        file_id = self._covers.get(title)
        if file_id is not None:
            try:
                return await bot.send_photo(chat_id, file_id, caption=caption, parse_mode=ParseMode.HTML,
                                            reply_markup=keyboard)
            except BadRequest:  # the id is no longer valid: upload the picture again
                self._covers.pop(title, None)
        async with self._drawing_cover:  # many lobbies at once after a start: draw the card once, not in each
            cover = await self.drawing.draw(render_cover, *title)
        message = await bot.send_photo(chat_id, cover, caption=caption, parse_mode=ParseMode.HTML,
                                       reply_markup=keyboard)
        if message.photo:
            self._covers[title] = message.photo[-1].file_id
        return message

    async def lobby_action(self, bot: Bot, game: GameRow, user_id: int, name: str, command: str,
                           key: str = "", value: str = "", is_admin: bool = False) -> Reply:
        """Join, leave, change a setting, cancel or start; the caller holds the chat lock."""
        tr = await self.tr(game.chat_id)
        engine, ui = self.engines[game.code], self.uis[game.code]
        options = engine.options_from_json(game.options)
        seats = [(s.user_id, s.name) for s in game.seats]
        host_id = game.host_id
        is_host = user_id == game.host_id or is_admin
        if command == "join":
            if any(uid == user_id for uid, _ in seats):
                return Reply(tr("toast-already-joined"))
            if len(seats) >= engine.max_players:
                return Reply(tr("toast-lobby-full", max=engine.max_players))
            seats.append((user_id, name))
            reply = Reply(tr("toast-joined"))
        elif command == "leave":
            if not any(uid == user_id for uid, _ in seats):
                return Reply(tr("toast-not-in-lobby"))
            seats = [(uid, n) for uid, n in seats if uid != user_id]
            humans = [uid for uid, _ in seats if not is_bot(uid)]
            if not humans:  # computer players alone do not keep a lobby open
                return Reply(tr("toast-left"), after=await self._close_lobby(bot, game, tr))
            if host_id == user_id:
                host_id = humans[0]  # the host's role passes to the longest-seated player
            reply = Reply(tr("toast-left"))
        elif command == "set":
            if not is_host:
                return Reply(tr("toast-host-only"))
            try:
                options = set_option(options, key, value)
            except OptionsError:
                return Reply(tr("toast-bad-setting"), alert=True)
            reply = Reply(tr("toast-setting-changed"))
        elif command == "cancel":
            if not is_host:
                return Reply(tr("toast-host-only"))
            return Reply(tr("toast-cancelled"), after=await self._close_lobby(bot, game, tr))
        elif command == "start":
            if not is_host:
                return Reply(tr("toast-host-only"))
            return await self.start(bot, game)
        elif command == "ai":
            return await self._start_against_ai(bot, game, is_host, tr)
        elif command == "bot":
            if game.code not in self.ais:
                return Reply(tr("toast-stale"))
            if not is_host:
                return Reply(tr("toast-host-only"))
            if len(seats) >= engine.max_players:
                return Reply(tr("toast-lobby-full", max=engine.max_players))
            bot_id = free_bot_id(uid for uid, _ in seats)
            seats.append((bot_id, tr("bot-name", n=-bot_id)))
            reply = Reply(tr("toast-bot-added"))
        elif command == "timer":
            if not is_host:
                return Reply(tr("toast-host-only"))
            minutes = await self.turn_timer(game.chat_id)
            minutes = TIMER_CHOICES[(TIMER_CHOICES.index(minutes) + 1) % len(TIMER_CHOICES)]
            await self.repo.set_chat_setting(game.chat_id, "turn_timer", minutes)
            reply = Reply(tr("toast-timer", minutes=minutes))
        elif command == "unbot":
            if not is_host:
                return Reply(tr("toast-host-only"))
            bots = [i for i, (uid, _) in enumerate(seats) if is_bot(uid)]
            if not bots:
                return Reply(tr("toast-stale"))
            del seats[bots[-1]]
            reply = Reply(tr("toast-bot-removed"))
        else:
            return Reply(tr("toast-stale"))
        await self.repo.set_lobby(game.id, seats, host_id, options.to_json())
        fresh = await self.repo.game(game.id)
        assert fresh is not None
        keyboard = texts.lobby_keyboard(fresh, ui, engine, options, tr, game.code in self.ais,
                                        await self.turn_timer(game.chat_id))
        reply.after = lambda: self._edit_caption(bot, fresh, texts.lobby_caption(fresh, ui, engine, options, tr),
                                                 keyboard)
        return reply

    async def _start_against_ai(self, bot: Bot, game: GameRow, is_host: bool, tr: Tr) -> Reply:
        """«🤖 Играть с ботом»: the presser against the computer, straight to the table."""
        if game.code not in self.ais:
            return Reply(tr("toast-stale"))
        if not is_host:
            return Reply(tr("toast-host-only"))
        humans = [(s.user_id, s.name) for s in game.seats if not is_bot(s.user_id)]
        if len(humans) > 1:
            return Reply(tr("toast-ai-seats-taken"), alert=True)
        human = humans[0]
        engine = self.engines[game.code]
        options = engine.options_from_json(game.options)
        # the human keeps the seat the lobby showed them (seat 0 = the first player)
        await self.repo.set_lobby(game.id, [human, (AI_USER_ID, tr("ai-player-name"))], human[0],
                                  options.to_json())
        fresh = await self.repo.game(game.id)
        assert fresh is not None
        return await self.start(bot, fresh)

    async def _close_lobby(self, bot: Bot, game: GameRow, tr: Tr) -> Callable[[], Awaitable[None]]:
        """Store the lobby as cancelled; returns the edit that shows it closed."""
        await self.repo.stop_game(game.id, {"kind": "cancelled"})
        closed = tr("lobby-cancelled")
        return lambda: self._edit_caption(bot, game, closed, None)

    async def start(self, bot: Bot, game: GameRow) -> Reply:
        """Deal the game from the lobby and turn the lobby message into the table."""
        tr = await self.tr(game.chat_id)
        engine = self.engines[game.code]
        options = engine.options_from_json(game.options)
        if not engine.min_players <= len(game.seats) <= engine.max_players:
            return Reply(tr("toast-need-players", min=engine.min_players, max=engine.max_players), alert=True)
        try:
            options.validate(len(game.seats))
        except OptionsError as exc:  # e.g. a goal bigger than the pile for this many players
            return Reply(texts.option_error(exc, tr, escape=False), alert=True)
        state, events = engine.new_game(options, len(game.seats), game.seed)
        deadline = await self._deadline(game.chat_id, list(game.seats), state)
        try:
            await self.repo.save_move(game.id, 0, state.to_json(), 0,
                                      [(None, "start", (), [e.to_json() for e in events])], deadline=deadline)
        except StaleVersionError:
            return Reply(tr("toast-stale"))
        if deadline is not None and self.arm is not None:
            self.arm(game.id, deadline)
        fresh = await self.repo.game(game.id)
        assert fresh is not None
        return Reply(tr("toast-started"), after=lambda: self._after_move(bot, fresh))

    # game -----------------------------------------------------------------

    async def act(self, bot: Bot, game: GameRow, user_id: int, version: int, code: str) -> Reply:
        """Apply the presser's action if it is theirs, current and legal; the caller holds the lock."""
        tr = await self.tr(game.chat_id)
        engine = self.engines[game.code]
        if game.status != "running" or game.state is None:  # its last edit may have been lost: show it
            behind = game.status == "finished" and game.shown_version < game.version
            return Reply(tr("toast-game-over"), after=(lambda: self.show_table(bot, game)) if behind else None)
        if game.paused:
            return Reply(tr("toast-paused"), alert=True)
        if version != game.version:
            behind = game.shown_version < game.version  # a lost edit: show the current table
            return Reply(tr("toast-stale"), after=(lambda: self.show_table(bot, game)) if behind else None)
        state = engine.state_from_json(game.state)
        current = state.current_player
        if current is None:
            return Reply(tr("toast-game-over"))
        if game.seat_of(user_id) != current:
            return Reply(tr("toast-not-your-turn", name=game.seats[current].name))
        if code not in {a.code for a in engine.legal_actions(state)}:
            return Reply(tr("toast-illegal"))
        state, events, entry = engine.apply(state, code)
        timeouts = {**game.timeouts, str(current): 0} if game.timeouts.get(str(current)) else None
        try:
            fresh = await self._save(game, state, [(entry, events)], timeouts)
        except StaleVersionError:
            return Reply(tr("toast-stale"))
        toast = tr("toast-dice", dice=" · ".join(map(str, entry.dice))) if entry.dice else tr("toast-done")
        return Reply(toast, after=lambda: self._after_move(bot, fresh))

    async def _save(self, game: GameRow, state: Any, applied: list[tuple[Any, list[Event]]],
                    timeouts: dict[str, int] | None = None, new_seat: Seat | None = None) -> GameRow:
        """Store the actions that led from ``game`` to ``state`` (and the result, if it ended),
        with the next player's deadline, and arm it."""
        engine, ui = self.engines[game.code], self.uis[game.code]
        outcome = engine.outcome(state)
        payer = None
        if outcome is not None and ui.is_pub(state.options) and outcome.losers:
            payer = game.seats[outcome.losers[0]]
        seats = [new_seat if new_seat is not None and s.seat == new_seat.seat else s for s in game.seats]
        deadline = await self._deadline(game.chat_id, seats, state)
        # «Ещё раунд» gets its seed now, so the result message can show its SHA-256 before any roll
        next_seed = self.seed_factory() if outcome else None
        fresh = dataclasses.replace(
            game, state=state.to_json(), version=state.version, status="finished" if outcome else "running",
            result=outcome.to_json() if outcome else None, seats=tuple(seats), deadline=deadline,
            timeouts=game.timeouts if timeouts is None else timeouts, next_seed=next_seed)
        await self.repo.save_move(
            game.id, game.version, fresh.state or {}, fresh.version,
            [(entry.seat, entry.code, entry.dice, [e.to_json() for e in events]) for entry, events in applied],
            status=fresh.status, result=fresh.result,
            pub_payer=payer, deadline=deadline, timeouts=timeouts, new_seat=new_seat, next_seed=next_seed,
        )
        if deadline is not None and self.arm is not None:
            self.arm(game.id, deadline)
        return fresh  # what was just stored: no need to read it back

    # turn timers ----------------------------------------------------------------

    async def turn_timer(self, chat_id: int) -> int:
        """The chat's turn timer in minutes (0: off)."""
        minutes = (await self.repo.chat_settings(chat_id)).get("turn_timer", DEFAULT_TIMER)
        return minutes if minutes in TIMER_CHOICES else DEFAULT_TIMER

    async def _deadline(self, chat_id: int, seats: list[Seat], state: Any) -> float | None:
        """When the person to move times out; None if the game is over, a bot moves or the timer is off."""
        seat = state.current_player
        if seat is None or is_bot(seats[seat].user_id):
            return None
        minutes = await self.turn_timer(chat_id)
        return self.clock() + 60 * minutes if minutes else None

    async def on_deadline(self, bot: Bot, game_id: int) -> bool:
        """The player to move let the timer run out: the computer plays their turn and the log
        says so; the third time in a row a bot takes their seat for good (in a game one can
        resign, they resign instead). False if the deadline is not (or no longer) due."""
        game = await self.repo.game(game_id)
        if game is None:
            return False
        async with self.lock(game.chat_id):
            game = await self.repo.game(game_id)
            if (game is None or game.status != "running" or game.state is None or game.deadline is None
                    or self.clock() < game.deadline or game.code not in self.ais):
                return False
            engine = self.engines[game.code]
            state = engine.state_from_json(game.state)
            seat = state.current_player
            if seat is None or is_bot(game.seats[seat].user_id):
                return False
            count = game.timeouts.get(str(seat), 0) + 1
            flag = [Event("timeout", seat=seat, data={"count": count})]
            new_seat = None
            resign = getattr(engine, "resign_code", None)  # a game one can resign: leaving is resigning
            if count >= TIMEOUTS_TO_REPLACE and resign is not None:
                state, events, entry = engine.apply(state, resign(seat))
                applied = [(entry, flag + events)]
            else:
                state, applied = await asyncio.to_thread(turn_for, engine, self.ais[game.code], state, seat)
                if not applied:
                    return False
                applied[0] = (applied[0][0], flag + applied[0][1])
                if count >= TIMEOUTS_TO_REPLACE:
                    new_seat = self._bot_seat(game, seat, await self.tr(game.chat_id))
                    entry, events = applied[-1]
                    applied[-1] = (entry, [*events, Event("replaced", seat=seat)])
            try:
                fresh = await self._save(game, state, applied, {**game.timeouts, str(seat): count}, new_seat)
            except StaleVersionError:
                return False
            await self._after_move(bot, fresh)
            return True

    def _bot_seat(self, game: GameRow, seat: int, tr: Tr) -> Seat:
        """A computer player for ``seat``, named after the person it replaces."""
        return Seat(seat, free_bot_id(s.user_id for s in game.seats), tr("bot-instead", name=game.seats[seat].name))

    async def leave_game(self, bot: Bot, game: GameRow, seat: int) -> str:
        """``seat`` leaves the running game (/leave, or kicked by the host): in a game one can
        resign they resign, otherwise a bot takes the seat and plays at once if it is to move.
        The caller holds the chat's lock; returns the line to post."""
        tr = await self.tr(game.chat_id)
        engine = self.engines[game.code]
        name = game.seats[seat].name
        resign = getattr(engine, "resign_code", None)
        if resign is not None:
            state, events, entry = engine.apply(engine.state_from_json(game.state), resign(seat))
            fresh = await self._save(game, state, [(entry, events)])
            await self._after_move(bot, fresh)
            return tr("left-resigned", name=name)
        if not await self.repo.hand_seat(game.id, self._bot_seat(game, seat, tr)):
            return tr("toast-game-over")
        fresh = await self.repo.game(game.id)
        assert fresh is not None
        await self._after_move(bot, fresh)
        return tr("left-bot", name=name)

    def person_to_move(self, game: GameRow) -> int | None:
        """The seat of the person to move in a running game (None if a bot moves or it is over)."""
        if game.state is None:
            return None
        seat = self.engines[game.code].state_from_json(game.state).current_player
        return None if seat is None or is_bot(game.seats[seat].user_id) else seat

    async def kick(self, bot: Bot, game: GameRow, version: int) -> Reply:
        """«⏭ Пропустить игрока» (the caller checked the rights and holds the lock)."""
        tr = await self.tr(game.chat_id)
        if game.status != "running" or game.state is None or version != game.version:
            return Reply(tr("toast-stale"))
        seat = self.person_to_move(game)
        if seat is None:
            return Reply(tr("kick-nobody"))

        async def skip() -> None:  # after the toast, still under the chat's lock
            await self._send(bot, game.chat_id, await self.leave_game(bot, game, seat))

        return Reply(tr("toast-done"), after=skip)

    async def arm_all(self, bot: Bot) -> int:
        """At start-up: play the turns whose deadline passed while the bot was down, arm the rest."""
        games = await self.repo.games_with_deadlines()
        for game in games:
            assert game.deadline is not None
            if game.deadline <= self.clock():
                await self.on_deadline(bot, game.id)
            elif self.arm is not None:
                self.arm(game.id, game.deadline)
        return len(games)

    async def _after_move(self, bot: Bot, game: GameRow, autoroll: bool = True) -> None:
        """Let the computer play its turns and, with «автобросок» (unless ``autoroll`` is False:
        a table shown again, not a move), roll for the person to move; then show the table (and
        the result, if the game ended)."""
        try:
            game = await self._play_ai(game)
            if autoroll and (rolled := await self._autoroll(game)) is not game:
                game = await self._play_ai(rolled)  # a throw with no move may pass the turn to the computer
        except StorageError as exc:  # the person's move stands; show it, and the computer tries again
            log.error("game %s: storage failed (%s) at the computer's turn; trying again", game.id, exc)
            self._retry_table(bot, game.id)
        await self.show_table(bot, game)
        if game.status == "finished" and game.state is not None:
            engine, ui = self.engines[game.code], self.uis[game.code]
            state = engine.state_from_json(game.state)
            outcome = engine.outcome(state)
            if outcome is not None:
                await self._announce_result(bot, game, ui, state, outcome, await self.tr(game.chat_id))

    async def _autoroll(self, game: GameRow) -> GameRow:
        """«Автобросок» (issue #11): one roll for the person to move if the chat wants it and a roll
        is all they may do; the roll is logged like a press, and their turn timer starts anew."""
        if (game.code in ROLL_IS_THE_TURN or game.status != "running" or game.state is None or game.paused
                or not await self.autoroll(game.chat_id)):
            return game
        engine = self.engines[game.code]
        bots = tuple(is_bot(s.user_id) for s in game.seats)
        state, applied = roll_for(engine, engine.state_from_json(game.state), bots)
        return await self._save_unless_moved_on(game, state, applied)

    async def _play_ai(self, game: GameRow) -> GameRow:
        """Apply the computer players' actions while one of them is to move; one save for all."""
        ai = self.ais.get(game.code)
        if ai is None or game.status != "running" or game.state is None:
            return game
        engine = self.engines[game.code]
        state = engine.state_from_json(game.state)
        if state.current_player is None or not is_bot(game.seats[state.current_player].user_id):
            return game
        bots = tuple(is_bot(s.user_id) for s in game.seats)
        state, applied = await asyncio.to_thread(bot_actions, engine, ai, state, bots)
        return await self._save_unless_moved_on(game, state, applied)

    async def _save_unless_moved_on(self, game: GameRow, state: Any, applied: Applied) -> GameRow:
        """Store the actions the bot took itself (computer turns, «автобросок»); if someone else
        moved the game on meanwhile, their save stands and this one is dropped."""
        if not applied:
            return game
        try:
            return await self._save(game, state, applied)
        except StaleVersionError:
            return await self.repo.game(game.id) or game

    async def _announce_result(self, bot: Bot, game: GameRow, ui: GameUI, state: Any, outcome: Outcome,
                               tr: Tr) -> None:
        tally = await self.repo.pub_tally(game.chat_id) if ui.is_pub(state.options) else []
        keyboard = texts.game_keyboard([[(tr("btn-rematch"), cb.rematch(game.id))]])
        await self._send(bot, game.chat_id, texts.result_message(game, ui, state, outcome, tally, tr), keyboard)

    async def stop(self, bot: Bot, game: GameRow) -> bool:
        """Stop a lobby or game (result «остановлена»); the caller checked the rights."""
        if not await self.repo.stop_game(game.id, {"kind": "stopped"}):
            return False
        tr = await self.tr(game.chat_id)
        if game.status == "lobby" or game.state is None:
            await self._edit_caption(bot, game, tr("lobby-cancelled"), None)
            return True
        engine, ui = self.engines[game.code], self.uis[game.code]
        state = engine.state_from_json(game.state)
        log_lines = self._log_lines(await self._recent(game), game, ui, tr)
        caption = texts.table_caption(game, ui, state, log_lines, None, tr, stopped=True)
        await self._edit_caption(bot, game, caption, None)
        return True

    async def rematch(self, bot: Bot, game: GameRow, user_id: int) -> Reply:
        """«Ещё раунд»: the same players and settings, straight to the table, with the seed whose
        SHA-256 the result message showed (a fresh one if that seed has served a game already)."""
        tr = await self.tr(game.chat_id)
        if game.status != "finished":
            return Reply(tr("toast-stale"))
        if game.seat_of(user_id) is None:
            return Reply(tr("toast-not-a-player"))
        # the host keeps the role if still seated (a bot may have taken their seat); else the presser
        host = next((s for s in game.seats if s.user_id == game.host_id),
                    next(s for s in game.seats if s.user_id == user_id))
        seed = game.next_seed
        if seed is None or await self.repo.seed_used(seed):
            seed = self.seed_factory()
        try:
            new = await self.repo.create_game(game.chat_id, game.code, game.options, seed, host, game.seats)
        except ActiveGameExistsError:
            return Reply(tr("toast-game-exists"), alert=True)
        return await self.start(bot, new)
