"""The bot's storage: the :class:`Store` protocol, its row types, and the SQLite implementation."""

from __future__ import annotations

from pathlib import Path

from bot.store.protocol import ActiveGameExistsError, StaleVersionError, StorageError, Store
from bot.store.rows import (
    ACTIVE,
    JSON,
    OVER,
    ChatRow,
    GameRow,
    GameTotals,
    LoggedAction,
    Move,
    NewAction,
    PastGame,
    PlayerTotals,
    RecentEvents,
    Seat,
)
from bot.store.sqlite import SQLiteStore

__all__ = [
    "ACTIVE", "JSON", "OVER", "ActiveGameExistsError", "ChatRow", "GameRow", "GameTotals", "LoggedAction", "Move",
    "NewAction", "PastGame", "PlayerTotals", "RecentEvents", "SQLiteStore", "Seat", "StaleVersionError",
    "StorageError", "Store", "open_store",
]


async def open_store(database_path: str | Path) -> Store:
    """The store the configuration names: today the SQLite file at ``database_path``."""
    return await SQLiteStore.open(database_path)
