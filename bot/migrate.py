"""`python -m bot.migrate SOURCE TARGET`: copy the bot's database to another one, typically
an SQLite file to PostgreSQL (``sqlite:///data/bot.sqlite3 postgresql://…``); PostgreSQL to SQLite,
SQLite to SQLite and PostgreSQL to PostgreSQL work the same way.

Both are opened as the bot opens them (:func:`bot.store.open_store`): the source is migrated forward
to the latest schema in place, the target gets the schema. Every table (chats with their language
and settings, games, seats, action logs, pub tallies, results) is copied with its ids in one
transaction on the target, which must be empty: all of it or nothing. Then the copy is checked: the
rows of every table are as many on both sides, and every unfinished game and a sample of the
finished ones are equal on both sides and replay from their action logs to their stored states.

Exit 0: copied and checked; 1: the copy failed (nothing written) or a check failed (which game is
said); 2: bad input (an unknown scheme, a missing file, a server that cannot be reached, a target
that already holds data), with nothing written. Each failure is one line, with no password shown.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn
from urllib.parse import urlsplit

import aiosqlite
import asyncpg

from bot.config import shown_database
from bot.games import GAMES, Registry
from bot.migrate_sides import BOOKKEEPING, TABLES, Side, Writer, side_of, sqlite_count
from bot.store import StorageError, Store, is_postgres, open_store
from bot.store.sql import ident
from bot.verify import verify_log
from engines.base import LogEntry

EXIT_CHECK_FAILED, EXIT_BAD_INPUT = 1, 2
SQLITE_SCHEME = "sqlite:///"
SAMPLE = 20  # finished games replayed besides every unfinished one
CONNECT_TIMEOUT_S = 5.0
UNFINISHED = "SELECT id FROM games WHERE status IN ('lobby', 'running') ORDER BY id"
RUNNING = "SELECT id FROM games WHERE status IN ('lobby', 'running') AND state IS NOT NULL ORDER BY id"
FINISHED = "SELECT id FROM games WHERE status = 'finished' AND state IS NOT NULL ORDER BY id"
DRIVER_ERRORS = (StorageError, OSError, asyncio.TimeoutError, asyncpg.PostgresError, asyncpg.InterfaceError,
                 sqlite3.Error, ValueError)

UNKNOWN_SCHEME = ("Неизвестная схема «{scheme}»: нужен sqlite:///путь, путь к файлу или postgresql://… · "
                  "unknown scheme «{scheme}»: give sqlite:///path, a file's path or postgresql://…")
NO_SOURCE_FILE = "Нет файла {path} · no such file: {path}"
SAME_DATABASE = "Источник и цель — одна и та же база ({shown}) · the source and the target are the same ({shown})"
UNREACHABLE = "База {shown} недоступна ({reason}) · the database {shown} cannot be opened ({reason})"
NOT_EMPTY = ("В {shown} уже есть данные ({held}): нужна пустая база (новый файл, или DROP DATABASE и CREATE "
             "DATABASE) · {shown} already holds data ({held}): copy into an empty database (a new file, or "
             "dropdb and createdb)")
SCHEMA_DIFFERS = ("Схемы различаются ({what}): обновите бота · the schemas differ ({what}): update the bot")
COPY_FAILED = ("Копирование не удалось, в {shown} ничего не записано ({reason}) · "
               "the copy failed, nothing was written to {shown} ({reason})")
CHECK_FAILED = ("Проверка не прошла: {what}; копия осталась в {shown}, перед новой попыткой очистите её · "
                "check failed: {what}; the copy stays in {shown}: empty it before trying again")


class MigrateError(Exception):
    """What stops the copy: one line for the operator, and the exit code."""

    def __init__(self, line: str, code: int = EXIT_BAD_INPUT) -> None:
        super().__init__(line)
        self.code = code


@dataclass(frozen=True)
class Database:
    """One end of the copy: what open_store opens (a file's path or a URL), and how it may be printed."""

    name: str
    given: str

    @property
    def postgres(self) -> bool:
        return is_postgres(self.name)

    @property
    def shown(self) -> str:
        return shown_database(self.given)

    def masked(self, text: str) -> str:
        """``text`` (a driver's message) with this database's password, if any, replaced by ***."""
        password = urlsplit(self.name).password if self.postgres else None
        return text.replace(password, "***") if password else text


@dataclass
class Report:
    """What was copied and checked, for the lines printed at the end."""

    rows: dict[str, int] = field(default_factory=dict)
    unfinished: int = 0  # lobbies and running games, each compared with the source
    running: int = 0  # of them, those with a state, replayed
    finished: int = 0
    finished_of: int = 0
    seconds: float = 0.0
    copy_seconds: float = 0.0  # of which the copy (the rest: opening, the checks)

    def lines(self, source: Database, target: Database) -> list[str]:
        rows = ", ".join(f"{table} {count}" for table, count in self.rows.items())
        return [f"Скопировано · copied: {source.shown} → {target.shown}",
                f"  строк · rows: {rows} (поровну с обеих сторон · equal on both sides)",
                f"  игры · games: сверено незаконченных {self.unfinished} (переиграно {self.running}), "
                f"законченных переиграно {self.finished} из {self.finished_of} · unfinished compared "
                f"{self.unfinished} ({self.running} replayed), finished replayed {self.finished} of {self.finished_of}",
                f"  за · in {self.seconds:.1f} s (копирование · copy {self.copy_seconds:.1f} s)"]


def database_of(given: str) -> Database:
    """``sqlite:///path`` (SQLAlchemy's form: ``sqlite:////abs/path`` is absolute), a plain path, or a
    PostgreSQL URL; anything else with a scheme is refused."""
    if given.startswith(SQLITE_SCHEME):
        return Database(given[len(SQLITE_SCHEME):], given)
    if is_postgres(given) or "://" not in given:
        return Database(given, given)
    raise MigrateError(UNKNOWN_SCHEME.format(scheme=given.split("://", 1)[0] + "://"))


def check_names(source: Database, target: Database) -> None:
    """Refuse what can be refused before connecting: a missing source file, the same database twice."""
    if not source.postgres and not Path(source.name).is_file():
        raise MigrateError(NO_SOURCE_FILE.format(path=source.name))
    same = (source.name == target.name if source.postgres or target.postgres
            else Path(target.name).exists() and Path(source.name).samefile(target.name))
    if same:
        raise MigrateError(SAME_DATABASE.format(shown=target.shown))


def held(counts: dict[str, int]) -> str:
    return ", ".join(f"{table} {count}" for table, count in counts.items() if count) or "—"


async def probe(database: Database) -> dict[str, int]:
    """The rows of the bot's tables that exist there, read only (nothing is created, nothing migrated);
    refuses a database that cannot be reached, or a file that is not an SQLite database."""
    try:
        return await (_postgres_counts(database.name) if database.postgres else _sqlite_counts(database.name))
    except DRIVER_ERRORS as exc:
        raise MigrateError(UNREACHABLE.format(shown=database.shown, reason=database.masked(reason_of(exc)))) from exc


async def probe_both(source: Database, target: Database) -> None:
    """Refuse, before anything is written, a target that cannot be reached or already holds data, and a
    source file that is not a database (a server source is checked as it is opened: nothing is written
    to the target before)."""
    counts = await probe(target)
    if any(counts.values()):
        raise MigrateError(NOT_EMPTY.format(shown=target.shown, held=held(counts)))
    if not source.postgres:
        await probe(source)


async def _postgres_counts(url: str) -> dict[str, int]:
    connection = await asyncpg.connect(url, timeout=CONNECT_TIMEOUT_S)
    try:
        counts = {}
        for table in TABLES:
            if await connection.fetchval("SELECT to_regclass($1) IS NOT NULL", table):
                counts[table] = int(await connection.fetchval(f"SELECT COUNT(*) FROM {ident(table)}"))
        return counts
    finally:
        await connection.close()


async def _sqlite_counts(path: str) -> dict[str, int]:
    if not Path(path).exists():
        return {}
    async with aiosqlite.connect(Path(path).resolve().as_uri() + "?mode=ro", uri=True) as db:
        names = {row[0] for row in await db.execute_fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")}
        return {table: await sqlite_count(db, table)
                for table in TABLES if table in names}


def reason_of(exc: BaseException) -> str:
    """A driver's error as a few words on one line."""
    text = " ".join(str(exc).split())
    return text[:200] or type(exc).__name__


async def open_database(database: Database, stack: AsyncExitStack) -> Store:
    """The store, opened (and migrated) as the bot opens it; closed when ``stack`` closes."""
    try:
        store = await asyncio.wait_for(open_store(database.name), 2 * CONNECT_TIMEOUT_S)
    except DRIVER_ERRORS as exc:
        raise MigrateError(UNREACHABLE.format(shown=database.shown, reason=database.masked(reason_of(exc)))) from exc
    stack.push_async_callback(store.close)
    return store


async def plan(source: Side, target: Side, source_store: Store, target_store: Store) -> dict[str, list[str]]:
    """The columns to copy of every table; refuses schemas that differ, or tables this tool does not know."""
    versions = await source_store.schema_version(), await target_store.schema_version()
    if versions[0] != versions[1]:
        raise MigrateError(SCHEMA_DIFFERS.format(what=f"schema {versions[0]} → {versions[1]}"))
    unknown = sorted((await source.tables()) - BOOKKEEPING - set(TABLES))
    if unknown:
        raise MigrateError(SCHEMA_DIFFERS.format(what="unknown tables: " + ", ".join(unknown)))
    columns = {}
    for table in TABLES:
        mine, theirs = await source.columns(table), await target.columns(table)
        if set(mine) != set(theirs):
            raise MigrateError(SCHEMA_DIFFERS.format(what=f"{table}: {sorted(set(mine) ^ set(theirs))}"))
        columns[table] = mine
    return columns


async def copy_rows(source: Side, target: Side, columns: dict[str, list[str]], shown: str) -> dict[str, int]:
    """Every table's rows in one transaction on the target (refused if it holds any by now)."""
    copied: dict[str, int] = {}
    async with source.snapshot(), target.transaction() as writer:
        await refuse_rows(writer, shown)
        for table, names in columns.items():
            copied[table] = 0
            async for batch in source.batches(table, names):
                await writer.insert(table, names, batch)
                copied[table] += len(batch)
        await writer.finish()
    return copied


async def refuse_rows(writer: Writer, shown: str) -> None:
    """The probe found the target empty; someone may have written since."""
    counts = {table: await writer.count(table) for table in TABLES}
    if any(counts.values()):
        raise MigrateError(NOT_EMPTY.format(shown=shown, held=held(counts)))


async def check_counts(source: Side, target: Side, copied: dict[str, int]) -> None:
    """Every table holds as many rows on both sides as were copied."""
    for table, count in copied.items():
        counts = await source.count(table), await target.count(table)
        if counts != (count, count):
            raise MigrateError(f"{table}: {count} rows copied, {counts[0]} in the source, {counts[1]} in the "
                               "target", EXIT_CHECK_FAILED)


def spread(ids: Sequence[int], count: int) -> list[int]:
    """``count`` of ``ids`` spread evenly from the first to the last (all, if there are no more)."""
    if len(ids) <= count:
        return list(ids)
    step = (len(ids) - 1) / (count - 1) if count > 1 else 0
    return sorted({ids[round(i * step)] for i in range(count)})


async def game_problem(source: Store, target: Store, game_id: int, games: Registry) -> str | None:
    """What is wrong with the copy of a game (None: nothing): it differs from the source, or its
    action log does not replay from its seed to its stored state (bot.verify's check)."""
    copied, actions = await target.game(game_id), await target.actions(game_id)
    if copied is None or copied != await source.game(game_id):
        return "differs from the source"
    if actions != await source.actions(game_id):
        return "its action log differs from the source"
    if copied.state is None:  # a lobby: nothing to replay yet
        return None
    if copied.code not in games:
        return f"«{copied.code}» is not a game this bot knows"
    log = [LogEntry(a.seat, a.code, a.dice) for a in actions if a.n >= 0]  # n = -1: the bot's own «start»
    if [a.n for a in actions if a.n >= 0] != list(range(copied.version)):
        return f"its log holds other action numbers than 0…{copied.version - 1}"
    engine = games[copied.code].engine
    result = await asyncio.to_thread(verify_log, engine, engine.options_from_json(copied.options),
                                     len(copied.seats), copied.seed, log, copied.state)
    bad = result.mismatch
    return None if bad is None else f"its log does not replay (action {bad.action}: {bad.kind})"


async def check_games(source: Store, target: Store, sides: tuple[Side, Side], report: Report, games: Registry,
                      sample: int) -> None:
    """Every unfinished game and ``sample`` finished ones: equal on both sides, and they replay."""
    unfinished, finished = await sides[0]._ids(UNFINISHED), await sides[0]._ids(FINISHED)
    chosen = spread(finished, sample)
    for game_id in [*unfinished, *chosen]:
        problem = await game_problem(source, target, game_id, games)
        if problem is not None:
            raise MigrateError(f"game #{game_id}: {problem}", EXIT_CHECK_FAILED)
    report.unfinished, report.running = len(unfinished), len(await sides[0]._ids(RUNNING))
    report.finished, report.finished_of = len(chosen), len(finished)


async def migrate(source: Database, target: Database, sample: int = SAMPLE, games: Registry = GAMES) -> Report:
    """Copy ``source`` into ``target`` and check the copy; raises MigrateError with the line to print."""
    started = time.monotonic()
    check_names(source, target)
    await probe_both(source, target)
    async with AsyncExitStack() as stack:
        source_store = await open_database(source, stack)
        target_store = await open_database(target, stack)
        sides = side_of(source_store), side_of(target_store)
        columns = await plan(*sides, source_store, target_store)
        copy_started = time.monotonic()
        try:
            copied = await copy_rows(*sides, columns, target.shown)
        except DRIVER_ERRORS as exc:
            raise MigrateError(COPY_FAILED.format(shown=target.shown, reason=target.masked(reason_of(exc))),
                               EXIT_CHECK_FAILED) from exc
        report = Report(rows=copied, copy_seconds=time.monotonic() - copy_started)
        try:
            await check_counts(*sides, copied)
            await check_games(source_store, target_store, sides, report, games, sample)
        except DRIVER_ERRORS as exc:
            raise MigrateError(CHECK_FAILED.format(what=target.masked(reason_of(exc)), shown=target.shown),
                               EXIT_CHECK_FAILED) from exc
        except MigrateError as exc:
            raise MigrateError(CHECK_FAILED.format(what=exc, shown=target.shown), EXIT_CHECK_FAILED) from exc
    report.seconds = time.monotonic() - started
    return report


class OneLineParser(argparse.ArgumentParser):
    """Bad arguments are one line too (argparse's usage block would be several), exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"Неверные аргументы · bad arguments: {message} ({self.prog} --help)\n")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = OneLineParser(
        prog="python -m bot.migrate", formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Copies the bot's database (chats with their language and settings, games, action logs,\n"
                    "pub tallies, results) into an empty one in one transaction, then checks the copy: rows per\n"
                    "table, and every unfinished game and a sample of finished ones replay to their stored state.\n"
                    "Stop the bot first. The source is upgraded in place to the latest schema, as the bot would\n"
                    "on start.",
        epilog="databases: sqlite:///relative/path, sqlite:////absolute/path, a plain path, or postgresql://…\n"
               "exit codes: 0 copied and checked, 1 the copy or a check failed, 2 bad input (nothing written)")
    parser.add_argument("source", help="the bot's database now (e.g. sqlite:///data/bot.sqlite3)")
    parser.add_argument("target", help="an empty database to copy it into (e.g. postgresql://user:pass@host/db)")
    parser.add_argument("--sample", type=int, default=SAMPLE, metavar="N",
                        help=f"finished games to replay besides every unfinished one (default: {SAMPLE})")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        source, target = database_of(args.source), database_of(args.target)
        report = asyncio.run(migrate(source, target, max(args.sample, 0)))
    except MigrateError as exc:
        print(exc, file=sys.stderr)
        return exc.code
    except Exception as exc:  # not foreseen: still one line (the operator reads it, a traceback helps nobody)
        print(f"Сбой · failed: {type(exc).__name__}: {reason_of(exc)}", file=sys.stderr)
        return EXIT_CHECK_FAILED
    print("\n".join(report.lines(source, target)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
