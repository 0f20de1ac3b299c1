"""SQLite, the default :class:`~bot.store.protocol.Store`: one file, WAL, forward migrations.

Only aiosqlite's public API is used: one connection, whose thread runs the statements in the order
they are given. Every write of a press is a single statement (a move, a new lobby and a lobby's
seating are compound writes made by one statement each: :mod:`bot.store.sqlite_dialect`), so each is
atomic on its own and the writes of many chats follow each other on that thread without a lock. The
rare writes of several statements (a group moving to a supergroup, the migrations) are transactions:
while one runs, every other statement waits for it, so none lands inside it.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from types import MappingProxyType
from typing import Any

import aiosqlite

from bot.store import sql
from bot.store.caches import ChatCache, RecentLog
from bot.store.protocol import ActiveGameExistsError, StaleVersionError, StorageError
from bot.store.rows import (
    JSON,
    ChatRow,
    GameRow,
    GameTotals,
    LoggedAction,
    Move,
    PastGame,
    PlayerTotals,
    RecentEvents,
    Seat,
)
from bot.store.sqlite_dialect import (
    BEGIN,
    COMMIT,
    CONNECTION_SETUP,
    CREATE_GAME,
    MIGRATIONS,
    NEW_GAME_ID,
    ROLLBACK,
    SAVE_MOVE,
    SCHEMA_DONE,
    SCHEMA_TABLE,
    SCHEMA_VERSION,
    SET_LOBBY,
    STALE,
)


def _games(rows: Iterable[sqlite3.Row]) -> list[GameRow]:
    """Game rows joined with their seats (sql.GAME_COLUMNS, ordered by game) as GameRows."""
    games: list[GameRow] = []
    seats: list[Seat] = []
    last: sqlite3.Row | None = None
    for row in rows:
        if last is not None and row["id"] != last["id"]:
            games.append(_game(last, seats))
            seats = []
        if row["s_seat"] is not None:
            seats.append(Seat(row["s_seat"], row["s_user_id"], row["s_name"], row["s_left_user_id"],
                              row["s_left_name"], row["s_left_at"]))
        last = row
    if last is not None:
        games.append(_game(last, seats))
    return games


def _game(row: sqlite3.Row, seats: Sequence[Seat]) -> GameRow:
    return GameRow(
        id=row["id"], chat_id=row["chat_id"], code=row["code"], options=json.loads(row["options"]),
        seed=row["seed"], state=json.loads(row["state"]) if row["state"] else None, version=row["version"],
        shown_version=row["shown_version"], status=row["status"], host_id=row["host_id"],
        message_id=row["message_id"], result=json.loads(row["result"]) if row["result"] else None,
        seats=tuple(seats), deadline=row["deadline"], timeouts=json.loads(row["timeouts"]),
        paused=bool(row["paused"]), next_seed=row["next_seed"],
        active_at=row["updated_at"] if row["status"] == "lobby" or row["acted_at"] is None else row["acted_at"],
        thread_id=row["thread_id"])


class SQLiteStore:
    """The bot's data in one SQLite file. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._db = connection
        self.clock: Callable[[], float] = time.time  # the times it stores (the flow's clock, in tests moved on)
        self._transaction_lock = asyncio.Lock()
        self._chats = ChatCache()
        self._recent = RecentLog(self._read_recent)

    @classmethod
    async def open(cls, path: str | Path) -> SQLiteStore:
        """Open (creating its folder, then the file) and migrate the database at ``path``."""
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        store = cls(await _connect(path))
        try:
            await store._migrate()
        except BaseException:
            await store.close()
            raise
        return store

    @property
    def connection(self) -> aiosqlite.Connection:
        """The connection (for the storage fault tests, which inject SQLite's own faults into it)."""
        return self._db

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        await self._write(SCHEMA_TABLE, ())
        current = await self.schema_version()
        for number, script in enumerate(MIGRATIONS, start=1):
            if number > current:
                async with self._transaction():
                    for statement in filter(str.strip, script.split(";")):
                        await self._exec(statement, ())
                    await self._exec(SCHEMA_DONE, (number,))

    async def schema_version(self) -> int:
        rows = await self._read(SCHEMA_VERSION, ())
        return int(rows[0][0] or 0)

    # chats ------------------------------------------------------------------------

    async def chat(self, chat_id: int) -> ChatRow:
        """The chat's locale and settings, read once (every press needs them)."""
        cached = self._chats.get(chat_id)
        if cached is None:
            rows = await self._read(sql.CHAT, (chat_id,))
            cached = (ChatRow(chat_id, rows[0]["locale"], MappingProxyType(json.loads(rows[0]["settings"]))) if rows
                      else ChatRow(chat_id))
            self._chats.put(cached)
        return cached

    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None:
        chat = await self.chat(chat_id)
        settings = {**chat.settings, key: value}
        await self._write(sql.SET_CHAT_SETTINGS, (chat_id, json.dumps(settings), self.clock()))
        self._chats.put(ChatRow(chat_id, chat.locale, MappingProxyType(settings)))

    async def set_chat_locale(self, chat_id: int, locale: str) -> None:
        chat = await self.chat(chat_id)
        await self._write(sql.SET_CHAT_LOCALE, (chat_id, locale, self.clock()))
        self._chats.put(ChatRow(chat_id, locale, chat.settings))

    async def migrate_chat(self, old: int, new: int) -> bool:
        async with self._transaction():
            if await self._fetch(sql.NEW_CHAT_HAS_GAME, (new,)):
                await self._exec(sql.STOP_ACTIVE_OF_CHAT, (json.dumps({"kind": "stopped"}), old))
            moved = await self._exec(sql.MOVE_GAMES, (new, old))
            moved += await self._exec(sql.COPY_CHAT, (new, old))
            await self._exec(sql.DELETE_CHAT, (old,))
            moved += await self._exec(sql.COPY_TALLY, (new, old))
            await self._exec(sql.RESET_PUB_TALLY, (old,))
            await self._exec(sql.MOVE_RESULTS, (new, old))
        self._chats.forget(old, new)
        return moved > 0

    # games ------------------------------------------------------------------------

    async def load(self, chat_id: int, game_id: int | None = None, thread_id: int = 0
                   ) -> tuple[ChatRow, GameRow | None]:
        """The chat comes from memory once read, so a press reads only its game: one statement."""
        chat = await self.chat(chat_id)
        return chat, await (self.active_game(chat_id, thread_id) if game_id is None else self.game(game_id))

    async def game(self, game_id: int) -> GameRow | None:
        return next(iter(_games(await self._read(sql.GAME_BY_ID, (game_id,)))), None)

    async def active_game(self, chat_id: int, thread_id: int = 0) -> GameRow | None:
        return next(iter(_games(await self._read(sql.ACTIVE_GAME, (chat_id, thread_id)))), None)

    async def active_games(self, chat_id: int) -> list[GameRow]:
        return _games(await self._read(sql.ACTIVE_GAMES_OF_CHAT, (chat_id,)))

    async def create_game(self, chat_id: int, code: str, options: JSON, seed: str, host: Seat,
                          seats: Sequence[Seat] = (), thread_id: int = 0) -> GameRow:
        seated = tuple(seats) or (Seat(0, host.user_id, host.name),)
        try:
            await self._write(CREATE_GAME, (chat_id, thread_id, code, json.dumps(options), seed, host.user_id,
                                            self.clock(), json.dumps([[s.seat, s.user_id, s.name] for s in seated])))
        except sqlite3.IntegrityError as exc:  # games_one_active: the topic has a lobby or game already
            raise ActiveGameExistsError(chat_id) from exc
        (row,) = await self._read(NEW_GAME_ID, (chat_id, thread_id, seed))
        return GameRow(id=row["id"], chat_id=chat_id, code=code, options=options, seed=seed, state=None, version=0,
                       shown_version=-1, status="lobby", host_id=host.user_id, message_id=None, result=None,
                       seats=seated, active_at=self.clock(), thread_id=thread_id)

    async def set_lobby(self, game_id: int, seats: Sequence[tuple[int, str]], host_id: int, options: JSON) -> None:
        await self._write(SET_LOBBY, (game_id, host_id, json.dumps(options), self.clock(),
                                      json.dumps([[user_id, name] for user_id, name in seats])))

    async def set_message_id(self, game_id: int, message_id: int) -> None:
        await self._write(sql.SET_MESSAGE_ID, (message_id, game_id))

    async def set_shown_version(self, game_id: int, version: int) -> None:
        await self._write(sql.SET_SHOWN_VERSION, (version, game_id, version))

    async def save_move(self, move: Move) -> None:
        first = move.version - len(move.actions)  # the action number of the first new action
        result = move.result or {}
        winners = (result.get("winners") or []) if result.get("kind") == "win" else []
        seat, payer = move.new_seat, move.pub_payer
        try:
            await self._write(SAVE_MOVE, (
                move.game_id, move.expected_version, json.dumps(move.state), move.version, move.status,
                json.dumps(move.result) if move.result else None, self.clock(), move.deadline,
                json.dumps(move.timeouts) if move.timeouts is not None else None, move.next_seed,
                json.dumps([{"seat": a.seat, "code": a.code, "dice": list(a.dice), "events": a.events}
                            for a in move.actions]), first,
                seat and seat.seat, seat and seat.user_id, seat and seat.name,
                payer and payer.user_id, payer and payer.name, json.dumps(winners),
                None if move.seating is None else json.dumps([[s.seat, s.user_id, s.name] for s in move.seating]),
                move.host_id, move.by_person))
        except sqlite3.IntegrityError as exc:
            if STALE in str(exc):
                raise StaleVersionError(move.game_id) from exc
            raise
        # only after the commit: a stale save must not show up in the log
        self._recent.saved(move.game_id, first, [a.events for a in move.actions])

    async def stop_game(self, game_id: int, result: JSON) -> bool:
        return await self._write(sql.STOP_GAME, (json.dumps(result), self.clock(), game_id)) == 1

    async def hand_seat(self, game_id: int, seat: Seat) -> bool:
        return await self._write(sql.HAND_SEAT, (seat.user_id, seat.name, game_id, seat.seat, game_id)) == 1

    async def pause_game(self, game_id: int) -> bool:
        return await self._write(sql.PAUSE_GAME, (game_id,)) == 1

    async def resume_game(self, game_id: int, deadline: float | None) -> bool:
        return await self._write(sql.RESUME_GAME, (deadline, game_id)) == 1

    async def seed_used(self, seed: str) -> bool:
        return bool(await self._read(sql.SEED_USED, (seed,)))

    async def actions(self, game_id: int) -> list[LoggedAction]:
        return [LoggedAction(r["n"], r["seat"], r["code"], tuple(json.loads(r["dice"])), json.loads(r["events"]))
                for r in await self._read(sql.ACTIONS, (game_id,))]

    async def recent_events(self, game_id: int, limit: int) -> RecentEvents:
        """From memory when the last save of this game went through here, else read (and kept)."""
        return await self._recent.get(game_id, limit)

    async def _read_recent(self, game_id: int, limit: int) -> RecentEvents:
        rows = await self._read(sql.RECENT_EVENTS, (game_id, limit))
        return [(r["n"], json.loads(r["events"])) for r in reversed(rows)]

    async def games_with_deadlines(self) -> list[GameRow]:
        return _games(await self._read(sql.GAMES_WITH_DEADLINES, ()))

    async def games_behind(self) -> list[GameRow]:
        return _games(await self._read(sql.GAMES_BEHIND, ()))

    async def idle_games(self, lobby_since: float, game_since: float) -> list[GameRow]:
        return _games(await self._read(sql.IDLE_GAMES, (lobby_since, game_since)))

    # pub tally and results --------------------------------------------------------------

    async def pub_tally(self, chat_id: int) -> list[tuple[str, int]]:
        return [(r["name"], r["rounds"]) for r in await self._read(sql.PUB_TALLY, (chat_id,))]

    async def reset_pub_tally(self, chat_id: int) -> None:
        await self._write(sql.RESET_PUB_TALLY, (chat_id,))

    async def pub_rounds(self, chat_id: int, user_id: int) -> int:
        """The pub rounds ``user_id`` paid in this chat's finished games (a /tally reset clears the
        tally, not the results)."""
        return int((await self._read(sql.PUB_ROUNDS, (chat_id, user_id)))[0]["rounds"])

    async def user_totals(self, chat_id: int, user_id: int) -> list[GameTotals]:
        return [GameTotals(r["code"], r["games"], r["wins"])
                for r in await self._read(sql.USER_TOTALS, (chat_id, user_id))]

    async def player_totals(self, chat_id: int, code: str | None = None) -> list[PlayerTotals]:
        rows = await (self._read(sql.PLAYER_TOTALS, (chat_id,)) if code is None
                      else self._read(sql.PLAYER_TOTALS_OF_GAME, (chat_id, code)))
        return [PlayerTotals(r["user_id"], r["name"], r["games"], r["wins"]) for r in rows]

    async def past_games(self, chat_id: int, limit: int) -> list[PastGame]:
        games: dict[int, tuple[sqlite3.Row, list[str]]] = {}
        for row in await self._read(sql.PAST_GAMES, (chat_id, limit)):
            games.setdefault(row["id"], (row, []))[1].append(row["name"])
        return [PastGame(g["id"], g["code"], g["status"], json.loads(g["result"] or "{}"), tuple(names),
                         g["updated_at"]) for g, names in games.values()]

    # the hops to the database thread ----------------------------------------------------

    async def _read(self, statement: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        """The rows of one statement."""
        if self._transaction_lock.locked():
            await self._after_transaction()
        with STORAGE_ERRORS:
            return list(await self._db.execute_fetchall(statement, params))

    async def _write(self, statement: str, params: Sequence[Any]) -> int:
        """One autocommitted statement (atomic on its own); the number of rows it changed."""
        if self._transaction_lock.locked():
            await self._after_transaction()
        with STORAGE_ERRORS:
            return (await self._db.execute(statement, params)).rowcount

    async def _after_transaction(self) -> None:
        """Wait for the transaction that runs, so that no other statement lands inside it. The
        statement that follows is handed to the database thread before anything else can run (no
        await comes between), so a transaction begun later is queued behind it there."""
        async with self._transaction_lock:
            pass

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """BEGIN IMMEDIATE … COMMIT around the body, ROLLBACK if it raises."""
        async with self._transaction_lock:
            with STORAGE_ERRORS:
                await self._db.execute(BEGIN)
                try:
                    yield
                    await self._db.execute(COMMIT)  # may fail too (disk full, locked): then nothing is stored
                except BaseException:
                    if self._db.in_transaction:
                        await self._db.execute(ROLLBACK)
                    raise

    async def _exec(self, statement: str, params: Sequence[Any]) -> int:
        """A statement of the transaction in progress; the number of rows it changed."""
        assert self._transaction_lock.locked(), "only inside _transaction"
        with STORAGE_ERRORS:
            return (await self._db.execute(statement, params)).rowcount

    async def _fetch(self, statement: str, params: Sequence[Any]) -> list[sqlite3.Row]:
        """Rows from inside the transaction in progress (what it has written included)."""
        assert self._transaction_lock.locked(), "only inside _transaction"
        with STORAGE_ERRORS:
            return list(await self._db.execute_fetchall(statement, params))


async def _connect(path: str | Path) -> aiosqlite.Connection:
    conn = await aiosqlite.connect(str(path), isolation_level=None)  # autocommit: transactions are explicit
    conn.row_factory = aiosqlite.Row
    with STORAGE_ERRORS:
        for statement in CONNECTION_SETUP:
            await conn.execute(statement)
    return conn


class _StorageErrors:
    """A failure of the database itself (locked, read-only, disk full, I/O error, corrupt) as
    StorageError; a broken constraint, which callers expect (one active game per chat), as it is.
    (A class, not a generator: it wraps every hop to the database.)"""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.IntegrityError):
            raise StorageError(str(exc)) from exc


STORAGE_ERRORS = _StorageErrors()
