"""The lobby: a game's message before it starts, where people take seats and the host sets it up.

Each lobby button is a command of :data:`COMMANDS`: who may press it, whether the game needs a
computer player for it, and what it does to the seats and options (stored in one write, then shown).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from telegram.error import TelegramError

from bot import callback_data as cb
from bot import texts
from bot.flow.context import AdminCheck, Chat, Game, Reply, Sources, default_options
from bot.flow.dealer import Dealer
from bot.flow.messages import Card, Messages
from bot.flow.table_settings import TableSettings, choice_named, level_of, next_choice, own_choices, with_choices
from bot.games import GameSpec
from bot.games.common import Tr, option_state, set_option
from bot.store import ActiveGameExistsError, GameRow, Seat, Store
from bot.turns import free_bot_id, is_bot
from engines.base import LEVELS, OptionsError

log = logging.getLogger(__name__)
AI_USER_ID = -1  # the first computer player's seat; the n-th is -n (Telegram user ids are positive)


def title_card(spec: GameSpec[Any, Any], options: Any, tr: Tr) -> Card:
    """The title card of the game's lobby set to ``options``: its name, the line under it and its picture."""
    art, tagline = spec.cover(options)
    return tr(f"game-{spec.code}"), tr(tagline), art


@dataclass(frozen=True, slots=True)
class LobbyPress:
    """One press of a lobby button, with what the command needs."""

    chat: Chat
    game: Game
    user_id: int
    name: str
    key: str
    value: str


@dataclass(frozen=True, slots=True)
class Seating:
    """What a lobby command changes: the seats (in join order), the host, the options; the toast."""

    seats: Sequence[tuple[int, str]]
    host_id: int
    options: Any
    toast: str
    table: dict[str, Any] | None = None  # the game's own ⏱, 🔔, 🤖 level and 🎲 pace, if the command changed them


Command = Callable[["Lobby", LobbyPress], Awaitable[Reply | Seating]]


@dataclass(frozen=True, slots=True)
class LobbyCommand:
    """A lobby button: what it does, and who may press it."""

    run: Command
    host_only: bool = False  # the host or a chat admin
    needs_computer: bool = False  # only in a game that has a computer player


class Lobby:
    """Lobbies: opened, shown, changed by their buttons, started."""

    def __init__(self, store: Store, messages: Messages, dealer: Dealer, sources: Sources) -> None:
        self.store, self.messages, self.dealer, self.sources = store, messages, dealer, sources

    async def open(self, chat: Chat, spec: GameSpec[Any, Any], host: Seat, thread: int = 0) -> GameRow | None:
        """Create a lobby from the chat's defaults (/settings) in the forum topic ``thread`` and post its
        message; None if the topic already has a game."""
        options = default_options(spec, chat.settings, chat.id)
        try:
            row = await self.store.create_game(chat.id, spec.code, options.to_json(), self.sources.new_seed(), host,
                                               thread_id=thread)
        except ActiveGameExistsError:
            return None
        try:
            await self.post(chat, Game(row, spec, options, None))
        except TelegramError as exc:  # e.g. no right to send photos: don't leave an invisible lobby behind
            log.warning("chat %s: could not post the lobby: %s", chat.id, exc)
            await self.store.stop_game(row.id, {"kind": "cancelled"})
            await self.messages.send(chat.id, chat.html("lobby-post-failed"), thread=thread)
            return None
        return row

    async def post(self, chat: Chat, game: Game) -> None:
        """Post the lobby's message (its title card, players and buttons) and remember it."""
        tr, table = chat.tr, TableSettings.of(chat.settings, game.row.options)
        keyboard = texts.lobby_keyboard(game, tr, table)
        message = await self.messages.post_cover(chat.id, title_card(game.spec, game.options, tr),
                                                 texts.lobby_caption(game, tr, table), keyboard, game.row.thread_id)
        await self.store.set_message_id(game.id, message.message_id)

    async def post_again(self, chat: Chat, game: Game) -> bool:
        """Post the lobby's message anew (its old one gone, or /table); False if Telegram refused."""
        try:
            await self.post(chat, game)
        except TelegramError as exc:
            log.warning("chat %s: could not post the lobby again: %s", chat.id, exc)
            self.messages.refused(chat.id, exc, game.row.thread_id)
            return False
        return True

    async def repost(self, chat: Chat, game: Game) -> None:
        """/table in a lobby: its message posted anew at the bottom, the old one retired."""
        old = game.row.message_id
        if await self.post_again(chat, game) and old is not None:
            await self.messages.retire(chat.id, old)

    async def press(self, chat: Chat, game: Game, user: Seat, command: str, key: str, value: str,
                    is_admin: AdminCheck) -> Reply:
        """A lobby button: checked against who may press it, done, and shown; the caller holds the lock."""
        found = COMMANDS.get(command)
        if found is None or game.row.status != "lobby" or (found.needs_computer and game.spec.policy is None):
            return Reply(chat.tr("toast-stale"))
        if found.host_only and user.user_id != game.row.host_id and not await is_admin():
            return Reply(chat.tr("toast-host-only"))
        done = await found.run(self, LobbyPress(chat, game, user.user_id, user.name, key, value))
        if isinstance(done, Reply):
            return done
        return await self._seat(chat, game, done)

    async def _seat(self, chat: Chat, game: Game, change: Seating) -> Reply:
        """Store the lobby's new seats, host and options (one write, none if nothing changed), and
        edit its message to show them."""
        row = game.row
        options_json = with_choices(change.options.to_json(),
                                    own_choices(row.options) if change.table is None else change.table)
        seats = tuple(Seat(i, user_id, name) for i, (user_id, name) in enumerate(change.seats))
        if (seats, change.host_id, options_json) != (row.seats, row.host_id, row.options):
            await self.store.set_lobby(row.id, change.seats, change.host_id, options_json)
        fresh = replace(game, row=replace(row, seats=seats, host_id=change.host_id, options=options_json),
                        options=change.options)
        table = TableSettings.of(chat.settings, options_json)
        caption = texts.lobby_caption(fresh, chat.tr, table)
        keyboard = texts.lobby_keyboard(fresh, chat.tr, table)
        spec = game.spec  # a variant with a card of its own («Башня»): the lobby's card follows the variant
        cards = ((title_card(spec, game.options, chat.tr), title_card(spec, change.options, chat.tr))
                 if spec.variant_covers else None)
        return Reply(change.toast, after=lambda: self.messages.edit_lobby(fresh.row, caption, keyboard, cards))

    async def close(self, chat: Chat, game: Game, toast: str) -> Reply:
        """Store the lobby as cancelled; the reply shows it closed."""
        await self.store.stop_game(game.id, {"kind": "cancelled"})
        closed = chat.html("lobby-cancelled")
        return Reply(toast, after=lambda: self.messages.edit_caption(game.row, closed, None))

    # the commands -------------------------------------------------------------------

    async def _join(self, press: LobbyPress) -> Reply | Seating:
        tr, seats, engine = press.chat.tr, _seats(press.game), press.game.spec.engine
        if any(uid == press.user_id for uid, _ in seats):
            return Reply(tr("toast-already-joined"))
        if len(seats) >= engine.max_players:
            return Reply(tr("toast-lobby-full", max=engine.max_players))
        return Seating([*seats, (press.user_id, press.name)], press.game.row.host_id, press.game.options,
                       tr("toast-joined"))

    async def _leave(self, press: LobbyPress) -> Reply | Seating:
        tr, seats = press.chat.tr, _seats(press.game)
        if not any(uid == press.user_id for uid, _ in seats):
            return Reply(tr("toast-not-in-lobby"))
        seats = [(uid, n) for uid, n in seats if uid != press.user_id]
        humans = [uid for uid, _ in seats if not is_bot(uid)]
        if not humans:  # computer players alone do not keep a lobby open
            return await self.close(press.chat, press.game, tr("toast-left"))
        host_id = press.game.row.host_id
        if host_id == press.user_id:
            host_id = humans[0]  # the host's role passes to the longest-seated player
        return Seating(seats, host_id, press.game.options, tr("toast-left"))

    async def _set(self, press: LobbyPress) -> Reply | Seating:
        """An option of the game (a lobby button, or /set): refused, with why, if the value is not one the
        option takes or the variant chosen ignores the option; else set, the toast saying to what («Фишки: 20»)."""
        spec, tr = press.game.spec, press.chat.tr
        try:
            options = set_option(press.game.options, press.key, press.value)
        except OptionsError as exc:  # a stale or forged button, or a typo: say what the option takes
            return Reply(texts.option_error(exc, spec.code, press.game.options, tr), alert=True)
        if (elsewhere := texts.ignored_option(spec, options, press.key, tr)) is not None:
            return Reply(elsewhere, alert=True)  # nothing changed: the game would not use it
        return Seating(_seats(press.game), press.game.row.host_id, options,
                       option_state(spec.code, options, press.key, tr))

    async def _cancel(self, press: LobbyPress) -> Reply | Seating:
        return await self.close(press.chat, press.game, press.chat.tr("toast-cancelled"))

    async def _start(self, press: LobbyPress) -> Reply | Seating:
        return await self.dealer.start(press.chat, press.game)

    async def _play_computer(self, press: LobbyPress) -> Reply | Seating:
        """«🤖 Играть с ботом»: the presser against the computer, straight to the table."""
        humans = [s for s in press.game.seats if not is_bot(s.user_id)]
        if len(humans) > 1:
            return Reply(press.chat.tr("toast-ai-seats-taken"), alert=True)
        # the human keeps the seat the lobby showed them (seat 0 = the first player)
        human = Seat(0, humans[0].user_id, humans[0].name)
        return await self.dealer.start(press.chat, press.game,
                                       (human, Seat(1, AI_USER_ID, press.chat.tr("bot-name", n=-AI_USER_ID))))

    async def _add_bot(self, press: LobbyPress) -> Reply | Seating:
        tr, seats, engine = press.chat.tr, _seats(press.game), press.game.spec.engine
        if not _drawn_for(press, seats):
            return Reply(tr("toast-stale"))
        if len(seats) >= engine.max_players:
            return Reply(tr("toast-lobby-full", max=engine.max_players))
        bot_id = free_bot_id(uid for uid, _ in seats)
        return Seating([*seats, (bot_id, tr("bot-name", n=-bot_id))], press.game.row.host_id, press.game.options,
                       tr("toast-bot-added"))

    async def _remove_bot(self, press: LobbyPress) -> Reply | Seating:
        seats = _seats(press.game)
        bots = [i for i, (uid, _) in enumerate(seats) if is_bot(uid)]
        if not bots or not _drawn_for(press, seats):
            return Reply(press.chat.tr("toast-stale"))
        del seats[bots[-1]]
        return Seating(seats, press.game.row.host_id, press.game.options, press.chat.tr("toast-bot-removed"))

    async def _next_timer(self, press: LobbyPress) -> Reply | Seating:
        """«⏱»: this game's turn timer moves to its next choice."""
        return await self._next_choice(press, "turn_timer", "toast-timer", "minutes")

    async def _next_ping(self, press: LobbyPress) -> Reply | Seating:
        """«🔔»: this game's turn ping moves to its next choice."""
        return await self._next_choice(press, "ping", "toast-ping", "seconds")

    async def _next_pace(self, press: LobbyPress) -> Reply | Seating:
        """«🎲 Стол»: this game's table turns fast or classic (only a game with a fast table has the button)."""
        if not press.game.spec.fast_table:  # a forged button
            return Reply(press.chat.tr("toast-stale"))
        return await self._next_choice(press, "pace", "toast-pace", "pace")

    async def _next_level(self, press: LobbyPress) -> Reply | Seating:
        """«🤖 Уровень»: the level of this game's computer players moves to the next one the game offers."""
        row, tr = press.game.row, press.chat.tr
        levels = [level for level in LEVELS if level in press.game.spec.levels]
        if not levels:  # a forged button: this game's computer has no levels
            return Reply(tr("toast-stale"))
        value = _pressed_choice(press, "level", level_of(row.options), tuple(levels))
        if value is None:  # a forged button: a level this game's computer does not play
            return Reply(tr("toast-stale"))
        return Seating(_seats(press.game), row.host_id, press.game.options,
                       tr("toast-level", level=tr(f"level-{value}")), {**own_choices(row.options), "level": value})

    async def _next_choice(self, press: LobbyPress, key: str, toast: str, unit: str) -> Reply | Seating:
        """This game's ``key`` (``turn_timer``, ``ping`` or ``pace``) moves to the choice its button carries (the
        next one when it was drawn), stored with the game's options: the chat's default, and so the next
        lobby's, stays as /settings has it."""
        row = press.game.row
        value = _pressed_choice(press, key, getattr(TableSettings.of(press.chat.settings, row.options), key))
        if value is None:  # a forged choice
            return Reply(press.chat.tr("toast-stale"))
        return Seating(_seats(press.game), row.host_id, press.game.options, press.chat.tr(toast, **{unit: value}),
                       {**own_choices(row.options), key: value})


def _pressed_choice(press: LobbyPress, key: str, now: Any, offered: tuple[Any, ...] = ()) -> Any | None:
    """The choice of ``key`` a press sets: the one its button carries (cb.TO), or on a button drawn before
    buttons carried it the next after ``now``; None for one we do not offer (forged)."""
    if press.key != cb.TO:
        return next_choice(key, now, offered)
    value = choice_named(key, press.value)
    return value if value is not None and (not offered or value in offered) else None


def _drawn_for(press: LobbyPress, seats: list[tuple[int, str]]) -> bool:
    """Whether the lobby still has the seats the button was drawn for (one without the count: yes)."""
    return press.key != cb.SEATS or press.value == str(len(seats))


def _seats(game: Game) -> list[tuple[int, str]]:
    return [(s.user_id, s.name) for s in game.seats]


COMMANDS: dict[str, LobbyCommand] = {
    "join": LobbyCommand(Lobby._join),
    "leave": LobbyCommand(Lobby._leave),
    "set": LobbyCommand(Lobby._set, host_only=True),
    "cancel": LobbyCommand(Lobby._cancel, host_only=True),
    "start": LobbyCommand(Lobby._start, host_only=True),
    "ai": LobbyCommand(Lobby._play_computer, host_only=True, needs_computer=True),
    "bot": LobbyCommand(Lobby._add_bot, host_only=True, needs_computer=True),
    "unbot": LobbyCommand(Lobby._remove_bot, host_only=True),
    "timer": LobbyCommand(Lobby._next_timer, host_only=True),
    "ping": LobbyCommand(Lobby._next_ping, host_only=True),
    "pace": LobbyCommand(Lobby._next_pace, host_only=True),
    "level": LobbyCommand(Lobby._next_level, host_only=True, needs_computer=True),
}
