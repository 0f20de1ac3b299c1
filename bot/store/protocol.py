"""The one interface through which the bot reads and writes its data.

The bot depends on :class:`Store` only; SQLite (:mod:`bot.store.sqlite`) is one implementation of
it, and a server database is another module behind the same protocol. Every implementation keeps
the same guarantees: forward migrations; one transaction per move, checked against the version it
starts from (``UPDATE … WHERE version = ?``) and committed before the bot edits any message; one
active game per chat; and a failure of the database itself raised as :class:`StorageError` with
nothing written, not even in part.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from bot.store.rows import (
    JSON,
    ChatRow,
    GameRow,
    GameTotals,
    LoggedAction,
    Move,
    PastGame,
    PlayerTotals,
    RatingRow,
    RecentEvents,
    Seat,
    TallyRow,
)


class StaleVersionError(Exception):
    """Someone else saved this game's version first; the caller's move is not applied."""


class ActiveGameExistsError(Exception):
    """The chat already has a lobby or a running game."""


class AlreadyHandledError(Exception):
    """The update this change answers was handled before (Telegram delivered it again): nothing is
    written (bot/store/claims.py)."""


class StorageError(Exception):
    """The database could not be read or written (locked, read-only, disk full, …); whatever the
    call was to write is not stored, not even in part."""


class Store(Protocol):
    """Games, their action logs, chats, the pub tally and results. Open it with the module's
    ``open`` and close it with :meth:`close`."""

    clock: Callable[[], float]  # the times it stores, in unix seconds (the flow sets its own clock here)

    async def close(self) -> None: ...

    async def schema_version(self) -> int: ...

    # chats
    async def chat(self, chat_id: int) -> ChatRow: ...

    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None: ...

    async def set_chat_locale(self, chat_id: int, locale: str) -> None: ...

    async def migrate_chat(self, old: int, new: int) -> bool:
        """A group became a supergroup: its games, language, settings, pub tally and results move to
        the new id in one transaction (the active game's message id is cleared). False if nothing
        was left to move."""
        ...

    # games
    async def load(self, chat_id: int, game_id: int | None = None, thread_id: int = 0
                   ) -> tuple[ChatRow, GameRow | None]:
        """What a press needs, in one read: the chat, and the game ``game_id`` (of whatever chat: the
        caller checks) or, without ``game_id``, the active game of the chat's topic ``thread_id``."""
        ...

    async def game(self, game_id: int) -> GameRow | None: ...

    async def active_game(self, chat_id: int, thread_id: int = 0) -> GameRow | None:
        """The lobby or running game of the chat's topic ``thread_id`` (0: General, or not a forum)."""
        ...

    async def active_games(self, chat_id: int) -> list[GameRow]:
        """The lobbies and running games of every topic of the chat."""
        ...

    async def create_game(self, chat_id: int, code: str, options: JSON, seed: str, host: Seat,
                          seats: Sequence[Seat] = (), thread_id: int = 0) -> GameRow:
        """A new lobby in the topic ``thread_id`` with ``seats`` (default: only the host) seated;
        raises ActiveGameExistsError if the topic has one."""
        ...

    async def set_lobby(self, game_id: int, seats: Sequence[tuple[int, str]], host_id: int, options: JSON) -> None:
        """Rewrite a lobby's seats (in join order), host and options in one transaction."""
        ...

    async def set_message_id(self, game_id: int, message_id: int) -> None: ...

    async def set_shown_version(self, game_id: int, version: int) -> None:
        """The table message shows ``version`` now: never lowers what is stored, unless what is stored is
        beyond the game's own version (the store lost its last commits, which the table had shown), and
        is never beyond it (a table drawn before such a loss)."""
        ...

    async def save_move(self, move: Move) -> None:
        """Store ``move`` atomically; raises StaleVersionError (storing nothing) if the version moved on."""
        ...

    async def stop_game(self, game_id: int, result: JSON) -> bool:
        """Mark an active game stopped; False if it was not active any more."""
        ...

    async def hand_seat(self, game_id: int, seat: Seat) -> bool:
        """Give a running game's seat to someone else (a computer player); False if not running."""
        ...

    async def pause_game(self, game_id: int) -> bool:
        """Pause a running game and drop its turn timer; False if not running or already paused."""
        ...

    async def resume_game(self, game_id: int, deadline: float | None) -> bool:
        """Resume a paused game with a new deadline; its table is posted afresh (message id cleared)."""
        ...

    async def seed_used(self, seed: str) -> bool: ...

    async def actions(self, game_id: int) -> list[LoggedAction]: ...

    async def recent_events(self, game_id: int, limit: int) -> RecentEvents:
        """The events of the last ``limit`` actions, oldest first, with their action numbers."""
        ...

    async def games_with_deadlines(self) -> list[GameRow]: ...

    async def idle_games(self, lobby_since: float, game_since: float) -> list[GameRow]:
        """Lobbies unchanged since ``lobby_since``, running games no person acted in since ``game_since``."""
        ...

    async def running_games(self) -> dict[str, int]:
        """How many games of each code are running (for the metrics)."""
        ...

    async def games_behind(self) -> list[GameRow]:
        """Games whose table shows an older version than stored (or a newer one: the store lost its last
        commits), and active games with no message."""
        ...

    # updates handled (bot/store/claims.py): a change a person's update asks for stores the update's
    # id in its own transaction; these are for the updates that changed nothing
    async def update_handled(self, update_id: int) -> bool: ...

    async def record_update(self, update_id: int) -> None:
        """``update_id`` was handled (nothing if it was stored already)."""
        ...

    async def latest_update(self) -> int:
        """The highest update id stored (0: none)."""
        ...

    async def forget_updates(self, before: float) -> int:
        """Drop the ids of updates handled before ``before`` (Telegram keeps an update a day at most)."""
        ...

    # pub tally and results
    async def pub_tally(self, chat_id: int) -> list[TallyRow]: ...

    async def reset_pub_tally(self, chat_id: int) -> None: ...

    async def pub_rounds(self, chat_id: int, user_id: int) -> int: ...

    async def user_totals(self, chat_id: int, user_id: int) -> list[GameTotals]: ...

    async def player_totals(self, chat_id: int, code: str | None = None) -> list[PlayerTotals]: ...

    async def past_games(self, chat_id: int, limit: int) -> list[PastGame]: ...

    # ratings (derived from the finished games: bot/ratings/)
    async def unrated_games(self, chat_id: int | None = None) -> list[GameRow]:
        """The finished games (of one chat, or of all) not rated yet, in the order they finished."""
        ...

    async def ratings(self, chat_id: int, code: str) -> list[RatingRow]: ...

    async def save_ratings(self, game: GameRow, ratings: Sequence[RatingRow], changes: list[JSON]) -> bool:
        """``game`` rated: its players' new ratings and its changes, in one transaction; False (and
        nothing written) if it was rated already."""
        ...

    async def rating_changes(self, game_id: int) -> list[JSON] | None:
        """The changes a game's rating made (None: not rated yet)."""
        ...

    # replay clips (bot/flow/replays.py)
    async def replay_file(self, game_id: int) -> str | None:
        """The file_id of the game's replay clip as Telegram keeps it (None: not sent yet)."""
        ...

    async def save_replay_file(self, game_id: int, file_id: str) -> None: ...

    async def clear_ratings(self) -> None:
        """Every rating and every game's mark as rated gone (a rebuild follows)."""
        ...
