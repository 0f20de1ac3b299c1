"""What the bot stores and reads back, as typed values: no database type crosses the :class:`Store`.

JSON columns (a game's options, state and result, a chat's settings, an action's events) travel as
decoded JSON; the bot decodes them further (engines, chat settings) where it knows their shape.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, NamedTuple

JSON = dict[str, Any]
Status = Literal["lobby", "running", "finished", "stopped"]
ACTIVE: tuple[Status, ...] = ("lobby", "running")  # one of these per chat at a time
OVER: tuple[Status, ...] = ("finished", "stopped")


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat at a table: its index, who sits there (a computer player has a negative id), their name;
    for a seat a computer player took from a person (they left, were skipped or timed out for good),
    that person and the action number from which the computer plays (``left_at``: None in a game
    stored before it was kept)."""

    seat: int
    user_id: int
    name: str
    left_user_id: int | None = None
    left_name: str | None = None
    left_at: int | None = None

    def name_at(self, n: int) -> str:
        """Who played action ``n`` from this seat, by name: the person until the computer took over."""
        if self.left_name is not None and self.left_at is not None and n < self.left_at:
            return self.left_name
        return self.name


@dataclass(frozen=True, slots=True)
class ChatRow:
    """A chat as stored: its language (None: the bot's default) and its settings (/settings), read-only
    (the store keeps it for the next press)."""

    chat_id: int
    locale: str | None = None
    settings: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as stored; ``state`` and ``options`` are decoded JSON."""

    id: int
    chat_id: int
    code: str
    options: JSON
    seed: str
    state: JSON | None
    version: int
    shown_version: int
    status: Status
    host_id: int
    message_id: int | None
    result: JSON | None
    seats: tuple[Seat, ...]
    deadline: float | None = None  # when the player to move times out (unix seconds), if a timer runs
    timeouts: dict[str, int] = field(default_factory=dict)  # seat (as text) → timeouts in a row
    paused: bool = False  # the bot cannot post in the chat: the game waits for it to be back
    next_seed: str | None = None  # a finished game's seed for «Ещё раунд» (secret; its SHA-256 is shown)
    active_at: float = 0.0  # when a person last changed the lobby, or last acted in the game (unix seconds)
    thread_id: int = 0  # the forum topic it lives in (0: General, or a chat that is not a forum)
    unreadable: str = ""  # the JSON columns that could not be read back (the game is broken: bot/flow/loader.py)

    @property
    def names(self) -> list[str]:
        """The names by seat as stored (shown through ``bot.texts.seat_names``: cleaned, «Игрок N» if empty)."""
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    def left_seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` sat at until a computer player took it (None: not one they left)."""
        return next((s.seat for s in self.seats if s.left_user_id == user_id and s.user_id != user_id), None)


class NewAction(NamedTuple):
    """One action to append to a game's log: who, which code, the dice it threw, its events as JSON."""

    seat: int | None
    code: str
    dice: Sequence[int]
    events: list[JSON]


class LoggedAction(NamedTuple):
    """One action of a game's log as stored; ``n`` is its number (-1: the bot's own «start»)."""

    n: int
    seat: int | None
    code: str
    dice: tuple[int, ...]
    events: list[JSON]


RecentEvents = list[tuple[int, list[JSON]]]  # (action number, its events), oldest first


@dataclass(frozen=True, slots=True)
class Move:
    """Everything one save stores, in one transaction: the state after ``actions``, the next
    deadline, timeouts in a row, a seat handed to a computer player (or, at the deal, all the seats
    and the host), the pub round's payer and, once the game is over, its result and the seed of
    its rematch."""

    game_id: int
    expected_version: int  # the version the save starts from: another save of it first makes this one stale
    state: JSON
    version: int
    actions: Sequence[NewAction]
    status: Status = "running"
    result: JSON | None = None
    pub_payer: Seat | None = None
    deadline: float | None = None
    timeouts: dict[str, int] | None = None  # None: unchanged
    new_seat: Seat | None = None
    next_seed: str | None = None
    seating: Sequence[Seat] | None = None  # all the seats, rewritten first (a deal against the computer)
    host_id: int | None = None  # the host, with seating
    by_person: bool = False  # a person's press made this move (a running game nobody plays is abandoned)


@dataclass(frozen=True, slots=True)
class GameTotals:
    """One person's results in one game (``code``) in a chat."""

    code: str
    games: int
    wins: int  # a pub round not paid is a win
    pub: int = 0  # of ``games``, the pub rounds («наоборот», «Башня»)
    paid: int = 0  # the pub rounds paid


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One person's results in a chat (one game or all), under the name they last played with."""

    user_id: int
    name: str
    games: int
    wins: int  # a pub round not paid is a win
    pub: int = 0  # of ``games``, the pub rounds
    paid: int = 0  # the pub rounds paid


class TallyRow(NamedTuple):
    """One payer of a chat's pub tally: who (their id tells apart the people whose name is empty once
    cleaned), under the name they last paid with, and the rounds paid."""

    user_id: int
    name: str
    rounds: int


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A player's skill rating in a chat's game (bot/ratings/): ``player`` is a person's Telegram id
    or a computer level («bot:strong»), ``mu`` and ``sigma`` OpenSkill's, ``games`` the games rated."""

    player: str
    name: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class PastGame:
    """A game that ended (finished or stopped), for /history."""

    id: int
    code: str
    status: Status
    result: JSON
    names: tuple[str, ...]  # by seat
    ended_at: float
    left_names: tuple[str | None, ...] = ()  # by seat: the person a computer took it from (None, or none kept: nobody)
    computers: frozenset[int] = frozenset()  # the seats a computer played at the end

    def left_name(self, seat: int) -> str | None:
        """Who sat at ``seat`` until a computer took it and finished the game for them (None: nobody)."""
        return self.left_names[seat] if seat < len(self.left_names) else None
