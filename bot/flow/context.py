"""What a press works on, decoded once: its chat (language, settings, words) and its game.

A press, a command or a timer loads the chat and the game in one read (:meth:`Store.load`), decodes
them here, and every room of the flow works on these values instead of reading and decoding again.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.games import GameSpec
from bot.games.common import Html, Tr, html_words
from bot.store import ChatRow, GameRow, Seat
from bot.turns import is_bot
from bot.zones import ZONE_CHOICES, default_zone
from engines.base import OptionsError, Outcome, new_seed

log = logging.getLogger(__name__)
TIMER_CHOICES = (0, 1, 3, 10)  # the turn timer in minutes, 0 = off (a chat setting, «⏱» in the lobby)
DEFAULT_TIMER = 3
PING_CHOICES = (0, 15, 30, 60, 120)  # seconds a person's turn waits before the bot pings them, 0 = off («🔔»)
DEFAULT_PING = 30
# the table's pace (a chat setting, «🎲 Стол» in the lobby): on the fast table the bot rolls for a person and
# plays their only legal move itself, up to their next real choice (docs/players.md: the fast table); on the classic one
# every roll is a press
FAST, CLASSIC = "fast", "classic"
PACE_CHOICES = (FAST, CLASSIC)
AdminCheck = Callable[[], Awaitable[bool]]  # whether the presser administers the chat (asked only when needed)


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """A chat's defaults for new lobbies (/settings), read from what is stored; a value that is not
    valid (any more) falls back to the default."""

    turn_timer: int = DEFAULT_TIMER  # minutes, 0: off
    pace: str = FAST  # FAST or CLASSIC, for the games that have a fast table (GameSpec.fast_table)
    defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # game code → option → value
    ping: int = DEFAULT_PING  # seconds, 0: off
    tidy: bool = True  # the bot's transient replies (and the commands they refuse) go after a minute
    time_zone: str | None = None  # one of ZONE_CHOICES; None: the chat's language's default (Chat.time_zone)

    @classmethod
    def of(cls, raw: Mapping[str, Any]) -> ChatSettings:
        minutes, ping = raw.get("turn_timer", DEFAULT_TIMER), raw.get("ping", DEFAULT_PING)
        defaults = raw.get("defaults")
        return cls(turn_timer=minutes if minutes in TIMER_CHOICES else DEFAULT_TIMER,
                   pace=pace if (pace := raw.get("pace")) in PACE_CHOICES else FAST,
                   ping=ping if ping in PING_CHOICES and not isinstance(ping, bool) else DEFAULT_PING,
                   tidy=raw.get("tidy") is not False,
                   time_zone=zone if (zone := raw.get("time_zone")) in ZONE_CHOICES else None,
                   defaults={code: values for code, values in defaults.items() if isinstance(values, dict)}
                   if isinstance(defaults, dict) else {})


@dataclass(frozen=True, slots=True)
class Chat:
    """One chat as the bot speaks to it: its id, language, settings and words, as plain text (``tr``:
    toasts, alerts, buttons) and as HTML (``html``: messages and captions)."""

    id: int
    lang: str
    settings: ChatSettings
    tr: Tr
    html: Html

    @property
    def time_zone(self) -> str:
        """The zone its times are shown in (/history): its own, or its language's default."""
        return self.settings.time_zone or default_zone(self.lang)


@dataclass(frozen=True, slots=True)
class Game:
    """A stored game with its options and state decoded by its engine."""

    row: GameRow
    spec: GameSpec[Any, Any]
    options: Any
    state: Any | None  # None: a lobby (or a lobby closed before it began)

    @classmethod
    def decode(cls, row: GameRow, games: Mapping[str, GameSpec[Any, Any]]) -> Game:
        spec = games[row.code]
        engine = spec.engine
        state = engine.state_from_json(row.state) if row.state is not None else None
        return cls(row, spec, engine.options_from_json(row.options), state)

    def stored(self, row: GameRow, state: Any | None = None) -> Game:
        """This game as ``row`` now stores it (``state``: its state, already decoded)."""
        return replace(self, row=row, state=state if state is not None else self.state)

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.row.seats

    @property
    def bots(self) -> tuple[bool, ...]:
        """Per seat, whether a computer player sits there."""
        return tuple(is_bot(s.user_id) for s in self.row.seats)

    def person_to_move(self) -> int | None:
        """The seat of the person to move in a running game (None if a bot moves or it is over)."""
        seat = None if self.state is None else self.state.current_player
        return None if seat is None or is_bot(self.row.seats[seat].user_id) else seat

    def outcome(self) -> Outcome | None:
        return None if self.state is None else self.spec.engine.outcome(self.state)


@dataclass
class Sources:
    """Where the flow takes time and new seeds from (tests move the clock on and fix the seeds)."""

    clock: Callable[[], float] = time.time  # deadlines are in this clock's seconds
    new_seed: Callable[[], str] = new_seed


class ChatLocks:
    """One lock per chat around load → engine → save (one move at a time in a chat)."""

    def __init__(self) -> None:
        # weak: a chat's lock is kept only while someone holds or waits for it, so idle chats cost nothing
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def __call__(self, chat_id: int) -> asyncio.Lock:
        lock = self._locks.get(chat_id)
        if lock is None:
            lock = self._locks[chat_id] = asyncio.Lock()
        return lock


def default_options(spec: GameSpec[Any, Any], settings: ChatSettings, chat_id: int) -> Any:
    """The options a new lobby of ``spec`` starts with: the engine's defaults, overridden by the
    chat's (/settings) one by one, each checked by the engine, so a stored value that is no longer
    valid falls back to the engine's default."""
    engine = spec.engine
    options = engine.options_from_json(None)
    for key, value in settings.defaults.get(spec.code, {}).items():
        try:
            options = engine.options_from_json({**options.to_json(), key: value})
        except (OptionsError, TypeError, ValueError):  # never trust what is stored either
            log.info("chat %s: the stored default %s=%r of %s is not valid; ignored", chat_id, key, value, spec.code)
    return options


def chat_of(row: ChatRow, default_lang: str, words: Callable[[str], Tr]) -> Chat:
    """The chat ``row`` stores, speaking its own language or the bot's default."""
    lang = row.locale or default_lang
    tr = words(lang)
    return Chat(row.chat_id, lang, ChatSettings.of(row.settings), tr, html_words(tr))


@dataclass
class Reply:
    """What to tell the presser (a toast, or an alert), and the message edits that follow.

    ``after`` runs while the press is being answered, still under the chat's lock, so the toast is
    instant and table edits keep the order of the moves.
    """

    text: str = ""
    alert: bool = False
    after: Callable[[], Awaitable[None]] | None = None
    outcome: str = ""  # what a move press came to, as bot/metrics.py counts it ("" for other presses)

    async def finish(self) -> None:
        if self.after is not None:
            await self.after()
