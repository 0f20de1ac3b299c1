"""What the outbox holds back, as the outbox tests read it."""

from __future__ import annotations

import asyncio

from bot.outbox import Outbox


def held() -> tuple[Outbox, GateBudget]:
    """An outbox whose chats have no room until the test opens the budget."""
    budget = GateBudget()
    budget.room.clear()
    return Outbox(budget), budget


class GateBudget:
    """A chat budget the test opens and closes by hand."""

    def __init__(self) -> None:
        self.room = asyncio.Event()
        self.room.set()

    def wait_s(self, chat_id: int, new_message: bool = True) -> float:
        return 0.0 if self.room.is_set() else 0.01

    def free(self, chat_id: int) -> int | None:
        return None
