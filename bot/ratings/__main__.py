"""``python -m bot.ratings --rebuild``: every skill rating recomputed from the stored finished games.

A command-line tool beside the bot, never imported by it (the database forms it takes come from the
migration tool, bot/migrate.py, which the running bot has no use for)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from dotenv import load_dotenv

from bot.config import ConfigError, database_from_env, shown_database
from bot.migrate import MigrateError, database_of
from bot.ratings import ratings_of, rebuild
from bot.store import StorageError, is_postgres, open_store


async def _rebuild(database: str) -> int:
    store = await open_store(database)
    try:
        return await rebuild(ratings_of(store))
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ratings",
                                     description="Recompute every skill rating from the stored finished games.")
    parser.add_argument("--rebuild", action="store_true", required=True, help="clear the ratings and rate again")
    parser.add_argument("--database", help="an SQLite path or a postgresql:// URL (default: DATABASE_URL, "
                                           "else DATABASE_PATH, as the bot reads them from .env)")
    args = parser.parse_args(argv)
    load_dotenv(".env")  # the database forms are the migration tool's

    try:
        database = database_of(args.database).name if args.database else database_from_env(os.environ)
    except (ConfigError, MigrateError) as exc:
        print(exc, file=sys.stderr)
        return 2
    if not is_postgres(database) and not Path(database).is_file():  # never create an empty database to rate
        print(f"Нет такой базы · no such database: {shown_database(database)}", file=sys.stderr)
        return 1
    try:
        games = asyncio.run(_rebuild(database))
    except (StorageError, OSError) as exc:  # the database cannot be opened or read: say so in one line
        print(f"Рейтинги не пересчитаны · ratings not rebuilt: {exc}", file=sys.stderr)
        return 1
    print(f"Рейтинги пересчитаны по {games} играм · ratings rebuilt from {games} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
