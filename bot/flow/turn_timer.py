"""Turn timers: when the person to move times out, and arming that moment on the job queue."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.flow.context import Chat, Sources
from bot.flow.table_settings import TableSettings
from bot.store import GameRow, Seat
from bot.turns import is_bot


class TurnTimer:
    """The deadlines of the people to move; ``arm`` (set by the application) schedules one."""

    def __init__(self, sources: Sources) -> None:
        self.sources = sources
        self.arm: Callable[[int, float], None] | None = None  # schedules the flow's on_deadline(game id) at a time

    def deadline(self, chat: Chat, row: GameRow, seats: Sequence[Seat], state: Any) -> float | None:
        """When the person to move times out (by the game's own timer, else the chat's); None if the
        game is over, a bot moves or the timer is off."""
        seat, minutes = state.current_player, TableSettings.of(chat.settings, row.options).turn_timer
        if seat is None or is_bot(seats[seat].user_id) or not minutes:
            return None
        return self.sources.clock() + 60 * minutes

    def start(self, game_id: int, deadline: float | None) -> None:
        """Arm the game's timer for ``deadline`` (nothing when there is none)."""
        if deadline is not None and self.arm is not None:
            self.arm(game_id, deadline)
