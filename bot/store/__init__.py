"""The bot's storage: the :class:`Store` protocol, its row types, and its two implementations (SQLite, PostgreSQL)."""

from __future__ import annotations

from pathlib import Path

from bot.store.postgres import PostgresStore
from bot.store.protocol import ActiveGameExistsError, AlreadyHandledError, StaleVersionError, StorageError, Store
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
    RatingRow,
    RecentEvents,
    Seat,
    TallyRow,
)
from bot.store.sqlite import SQLiteStore

__all__ = [
    "ACTIVE", "JSON", "OVER", "ActiveGameExistsError", "AlreadyHandledError", "ChatRow", "GameRow", "GameTotals",
    "LoggedAction", "Move", "NewAction", "PastGame", "PlayerTotals", "PostgresStore", "RatingRow", "RecentEvents",
    "SQLiteStore", "Seat", "StaleVersionError", "StorageError", "Store", "TallyRow", "is_postgres", "open_store",
]


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(database: str | Path) -> bool:
    """Whether ``database`` is a PostgreSQL URL (else it is an SQLite file's path)."""
    return str(database).startswith(POSTGRES_SCHEMES)


async def open_store(database: str | Path) -> Store:
    """The store the configuration names: a PostgreSQL URL (postgresql://…) or an SQLite file's path."""
    if is_postgres(database):
        return await PostgresStore.open(str(database))
    return await SQLiteStore.open(database)
