"""SQLite storage behind one repository class (aiosqlite, WAL, forward migrations).

Every move is one transaction, committed before the bot edits the table message; the
optimistic ``WHERE version = ?`` makes a second writer of the same version fail instead
of doubling a move.
"""

from __future__ import annotations

import collections
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

ACTIVE = ("lobby", "running")
RECENT_KEPT = 16  # per game, the last actions' events kept in memory for the table caption's log
RECENT_GAMES = 1024  # games whose last actions are kept (least recently used go first)
T = TypeVar("T")

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema
    """
    CREATE TABLE chats (
        chat_id INTEGER PRIMARY KEY,
        locale TEXT,
        settings TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    );
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        chat_id INTEGER NOT NULL,
        code TEXT NOT NULL,
        options TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        shown_version INTEGER NOT NULL DEFAULT -1,
        status TEXT NOT NULL,
        host_id INTEGER NOT NULL,
        message_id INTEGER,
        result TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE UNIQUE INDEX games_one_active ON games(chat_id) WHERE status IN ('lobby', 'running');
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, seat),
        UNIQUE (game_id, user_id)
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        n INTEGER NOT NULL,
        seat INTEGER,
        code TEXT NOT NULL,
        dice TEXT NOT NULL,
        events TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, n)
    );
    CREATE TABLE pub_tally (
        chat_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        rounds INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (chat_id, user_id)
    );
    """,
    # 2: turn timers (issue #8): the running game's deadline for the player to move, and each
    # seat's timeouts in a row (JSON {"seat": count})
    """
    ALTER TABLE games ADD COLUMN deadline REAL;
    ALTER TABLE games ADD COLUMN timeouts TEXT NOT NULL DEFAULT '{}'
    """,
    # 3: a running game is paused while the bot cannot post in its chat (kicked, or no right to
    # send): no turn timer runs, and the game goes on once the bot is back (issue #10)
    """
    ALTER TABLE games ADD COLUMN paused INTEGER NOT NULL DEFAULT 0
    """,
    # 4: results (issue #11): one row per person seated at a finished game, written by the save
    # that finishes it; /stats, /top and /history read them. Games finished before this
    # migration are filled in from their stored result (kind win: the winners won; kind lose:
    # the first loser paid the round); computer players (negative ids) have no row.
    """
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        chat_id INTEGER NOT NULL,
        code TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        won INTEGER NOT NULL,
        paid INTEGER NOT NULL,
        finished_at REAL NOT NULL,
        PRIMARY KEY (game_id, user_id)
    );
    CREATE INDEX results_chat_code ON results(chat_id, code);
    CREATE INDEX games_chat ON games(chat_id);
    INSERT INTO results(game_id, chat_id, code, user_id, name, won, paid, finished_at)
    SELECT g.id, g.chat_id, g.code, s.user_id, s.name,
           COALESCE(json_extract(g.result, '$.kind') = 'win'
                    AND EXISTS (SELECT 1 FROM json_each(g.result, '$.winners') WHERE value = s.seat), 0),
           COALESCE(json_extract(g.result, '$.kind') = 'lose' AND json_extract(g.result, '$.losers[0]') = s.seat, 0),
           g.updated_at
    FROM games g JOIN seats s ON s.game_id = g.id
    WHERE g.status = 'finished' AND g.result IS NOT NULL AND s.user_id > 0
    """,
    # 5 (issue #11): the person a computer player took a seat from (they left, were skipped or
    # timed out for good): their game still counts for them, played and not won. And the seed of
    # «Ещё раунд», drawn when a game finishes, so its SHA-256 is shown before any of its rolls.
    """
    ALTER TABLE seats ADD COLUMN left_user_id INTEGER;
    ALTER TABLE seats ADD COLUMN left_name TEXT;
    ALTER TABLE games ADD COLUMN next_seed TEXT
    """,
)


# a seat goes to someone else (a computer player); the person who sat there first is kept
HAND_SEAT = ("UPDATE seats SET user_id = ?, name = ?, "
             "left_user_id = CASE WHEN user_id > 0 THEN user_id ELSE left_user_id END, "
             "left_name = CASE WHEN user_id > 0 THEN name ELSE left_name END "
             "WHERE game_id = ? AND seat = ?")


class StaleVersionError(Exception):
    """Someone else saved this game's version first; the caller's move is not applied."""


class ActiveGameExistsError(Exception):
    """The chat already has a lobby or a running game."""


class StorageError(Exception):
    """The database could not be read or written (locked, read-only, disk full, …); whatever the
    call was to write is not stored, not even in part."""


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as stored; ``state`` and ``options`` are decoded JSON."""

    id: int
    chat_id: int
    code: str
    options: dict[str, Any]
    seed: str
    state: dict[str, Any] | None
    version: int
    shown_version: int
    status: str
    host_id: int
    message_id: int | None
    result: dict[str, Any] | None
    seats: tuple[Seat, ...]
    deadline: float | None = None  # when the player to move times out (unix seconds), if a timer runs
    timeouts: dict[str, int] = field(default_factory=dict)  # seat (as text) → timeouts in a row
    paused: bool = False  # the bot cannot post in the chat: the game waits for it to be back
    next_seed: str | None = None  # a finished game's seed for «Ещё раунд» (secret; its SHA-256 is shown)

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None


def _game_row(conn: sqlite3.Connection, row: sqlite3.Row | None) -> GameRow | None:
    """A games row and its seats as a :class:`GameRow` (on the database thread)."""
    if row is None:
        return None
    seats = conn.execute("SELECT seat, user_id, name FROM seats WHERE game_id = ? ORDER BY seat", (row["id"],))
    return GameRow(
        id=row["id"],
        chat_id=row["chat_id"],
        code=row["code"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        state=json.loads(row["state"]) if row["state"] else None,
        version=row["version"],
        shown_version=row["shown_version"],
        status=row["status"],
        host_id=row["host_id"],
        message_id=row["message_id"],
        result=json.loads(row["result"]) if row["result"] else None,
        seats=tuple(Seat(r["seat"], r["user_id"], r["name"]) for r in seats.fetchall()),
        deadline=row["deadline"],
        timeouts=json.loads(row["timeouts"]),
        paused=bool(row["paused"]),
        next_seed=row["next_seed"],
    )


def _record_results(conn: sqlite3.Connection, game_id: int, result: dict[str, Any], payer: Seat | None,
                    now: float) -> None:
    """One results row per person at the game that has just finished (inside its transaction).

    Whoever sits at a seat at the end played it; a person whose seat a computer player took
    (they left, were skipped or timed out for good) played it too, and did not win it. A draw
    is played, not won; ``paid`` is the pub round.
    """
    winners = set(result.get("winners") or ()) if result.get("kind") == "win" else set()
    seats = conn.execute("SELECT seat, user_id, name, left_user_id, left_name FROM seats "
                         "WHERE game_id = ? AND (user_id > 0 OR left_user_id > 0)", (game_id,)).fetchall()
    rows = []
    for s in seats:
        stayed = s["user_id"] > 0
        user_id, name = (s["user_id"], s["name"]) if stayed else (s["left_user_id"], s["left_name"])
        paid = payer is not None and payer.user_id == user_id
        rows.append((user_id, name, int(stayed and s["seat"] in winners), int(paid), now, game_id))
    conn.executemany(
        "INSERT OR IGNORE INTO results(game_id, chat_id, code, user_id, name, won, paid, finished_at) "
        "SELECT id, chat_id, code, ?, ?, ?, ?, ? FROM games WHERE id = ?", rows)


@dataclass(frozen=True, slots=True)
class GameTotals:
    """One person's results in one game (``code``) in a chat."""

    code: str
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """One person's results in a chat (one game or all), under the name they last played with."""

    user_id: int
    name: str
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PastGame:
    """A game that ended (finished or stopped), for /history."""

    id: int
    code: str
    status: str
    result: dict[str, Any]
    names: tuple[str, ...]  # by seat
    ended_at: float


class Repository:
    """All SQL of the bot. Open with :meth:`open`, close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        self._chats: dict[int, tuple[str | None, dict[str, Any]]] = {}
        # game id -> (the list holds the game's whole log?, its last actions (n, events), oldest first):
        # every redraw shows the last few, and the save before it has just written them
        self._recent: collections.OrderedDict[int, tuple[bool, list[tuple[int, list[dict[str, Any]]]]]] = (
            collections.OrderedDict())
        self._reading: dict[int, list[list[bool]]] = {}  # game id -> per log read in flight: no save since?

    @classmethod
    async def open(cls, path: str | Path) -> Repository:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = aiosqlite.Row
        await db.execute("PRAGMA journal_mode=WAL")
        await db.execute("PRAGMA foreign_keys=ON")
        await db.execute("PRAGMA synchronous=NORMAL")
        await db.execute("PRAGMA busy_timeout=5000")
        repo = cls(db)
        await repo._migrate()
        return repo

    async def close(self) -> None:
        await self.db.close()

    async def _migrate(self) -> None:
        await self.db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        current = row[0] or 0
        for number, script in enumerate(MIGRATIONS, start=1):
            if number <= current:
                continue

            def migrate(conn: sqlite3.Connection, script: str = script, number: int = number) -> None:
                for statement in filter(str.strip, script.split(";")):
                    conn.execute(statement)
                conn.execute("INSERT INTO schema_version(version) VALUES (?)", (number,))

            await self._transaction(migrate)

    async def schema_version(self) -> int:
        async with self.db.execute("SELECT MAX(version) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0] or 0)

    # chats ------------------------------------------------------------------

    async def _chat(self, chat_id: int) -> tuple[str | None, dict[str, Any]]:
        """The chat's locale and settings, read once: every press needs them, and only this
        class writes them (one bot process per database)."""
        cached = self._chats.get(chat_id)
        if cached is None:
            row = await self._run(lambda conn: conn.execute(
                "SELECT locale, settings FROM chats WHERE chat_id = ?", (chat_id,)).fetchone())
            cached = (row["locale"], json.loads(row["settings"])) if row else (None, {})
            self._chats[chat_id] = cached
        return cached

    async def chat_locale(self, chat_id: int) -> str | None:
        return (await self._chat(chat_id))[0]

    async def chat_settings(self, chat_id: int) -> dict[str, Any]:
        return dict((await self._chat(chat_id))[1])

    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None:
        locale, settings = await self._chat(chat_id)
        settings = {**settings, key: value}
        await self._write(
            "INSERT INTO chats(chat_id, settings, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(chat_id) DO UPDATE SET settings = excluded.settings",
            (chat_id, json.dumps(settings), time.time()),
        )
        self._chats[chat_id] = (locale, settings)

    async def set_chat_locale(self, chat_id: int, locale: str) -> None:
        _, settings = await self._chat(chat_id)
        await self._write(
            "INSERT INTO chats(chat_id, locale, created_at) VALUES (?, ?, ?) "
            "ON CONFLICT(chat_id) DO UPDATE SET locale = excluded.locale",
            (chat_id, locale, time.time()),
        )
        self._chats[chat_id] = (locale, settings)

    # games ------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow | None:
        return await self._run(lambda conn: _game_row(conn, conn.execute(
            "SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()))

    async def active_game(self, chat_id: int) -> GameRow | None:
        return await self._run(lambda conn: _game_row(conn, conn.execute(
            "SELECT * FROM games WHERE chat_id = ? AND status IN ('lobby', 'running')", (chat_id,)).fetchone()))

    async def create_game(
        self,
        chat_id: int,
        code: str,
        options: dict[str, Any],
        seed: str,
        host: Seat,
        seats: Sequence[Seat] = (),
    ) -> GameRow:
        """A new lobby with ``seats`` (default: only the host) seated."""
        now = time.time()

        def insert(conn: sqlite3.Connection) -> int:
            cur = conn.execute(
                "INSERT INTO games(chat_id, code, options, seed, status, host_id, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, 'lobby', ?, ?, ?)",
                (chat_id, code, json.dumps(options), seed, host.user_id, now, now),
            )
            game_id = int(cur.lastrowid or 0)
            seated = seats or (Seat(0, host.user_id, host.name),)
            conn.executemany("INSERT INTO seats(game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                             [(game_id, s.seat, s.user_id, s.name) for s in seated])
            return game_id

        try:
            game_id = await self._transaction(insert)
        except sqlite3.IntegrityError as exc:
            raise ActiveGameExistsError(chat_id) from exc
        game = await self.game(game_id)
        assert game is not None
        return game

    async def set_message_id(self, game_id: int, message_id: int) -> None:
        await self._write("UPDATE games SET message_id = ? WHERE id = ?", (message_id, game_id))

    async def set_shown_version(self, game_id: int, version: int) -> None:
        await self._write("UPDATE games SET shown_version = MAX(shown_version, ?) WHERE id = ?", (version, game_id))

    async def set_lobby(self, game_id: int, seats: Sequence[tuple[int, str]], host_id: int,
                        options: dict[str, Any]) -> None:
        """Rewrite a lobby's seats (in join order), host and options in one transaction."""

        def rewrite(conn: sqlite3.Connection) -> None:
            conn.execute("DELETE FROM seats WHERE game_id = ?", (game_id,))
            conn.executemany("INSERT INTO seats(game_id, seat, user_id, name) VALUES (?, ?, ?, ?)",
                             [(game_id, index, user_id, name) for index, (user_id, name) in enumerate(seats)])
            conn.execute(
                "UPDATE games SET host_id = ?, options = ?, updated_at = ? WHERE id = ? AND status = 'lobby'",
                (host_id, json.dumps(options), time.time(), game_id),
            )

        await self._transaction(rewrite)

    async def save_move(
        self,
        game_id: int,
        expected_version: int,
        state: dict[str, Any],
        version: int,
        entries: Sequence[tuple[int | None, str, Sequence[int], list[dict[str, Any]]]],
        status: str = "running",
        result: dict[str, Any] | None = None,
        pub_payer: Seat | None = None,
        deadline: float | None = None,
        timeouts: dict[str, int] | None = None,
        new_seat: Seat | None = None,
        next_seed: str | None = None,
    ) -> None:
        """Store a new state, its log entries, the turn's deadline, the timeouts in a row,
        a seat handed to a computer player, (pub modes) the payer's round and (a finished game)
        the seed of its rematch atomically.

        Raises :class:`StaleVersionError` (and stores nothing) if the version moved on.
        """
        now = time.time()
        state_json, result_json = json.dumps(state), json.dumps(result) if result else None
        timeouts_json = json.dumps(timeouts) if timeouts is not None else None
        first = version - len(entries)  # the action number of the first entry
        rows = [(game_id, first + offset, seat, code, json.dumps(list(dice)), json.dumps(events), now)
                for offset, (seat, code, dice, events) in enumerate(entries)]

        def write(conn: sqlite3.Connection) -> None:
            cur = conn.execute(
                "UPDATE games SET state = ?, version = ?, status = ?, result = ?, updated_at = ?, deadline = ?, "
                "timeouts = COALESCE(?, timeouts), next_seed = ? "
                "WHERE id = ? AND version = ? AND status IN ('lobby', 'running')",
                (state_json, version, status, result_json, now, deadline, timeouts_json, next_seed, game_id,
                 expected_version),
            )
            if cur.rowcount != 1:
                raise StaleVersionError(game_id)
            if new_seat is not None:
                conn.execute(HAND_SEAT, (new_seat.user_id, new_seat.name, game_id, new_seat.seat))
            conn.executemany(
                "INSERT INTO actions(game_id, n, seat, code, dice, events, at) VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            if pub_payer is not None:
                conn.execute(
                    "INSERT INTO pub_tally(chat_id, user_id, name, rounds) "
                    "SELECT chat_id, ?, ?, 1 FROM games WHERE id = ? "
                    "ON CONFLICT(chat_id, user_id) DO UPDATE SET rounds = rounds + 1, name = excluded.name",
                    (pub_payer.user_id, pub_payer.name, game_id),
                )
            if status == "finished":  # only one save gets here per game: the version check above
                _record_results(conn, game_id, result or {}, pub_payer, now)

        await self._transaction(write)
        for untouched in self._reading.get(game_id, ()):
            untouched[0] = False  # a log read in flight may miss this save: it must not be kept
        kept = self._recent.get(game_id)
        if kept is not None:  # only after the commit: a stale write must not show up in the log
            whole, actions = kept
            actions = actions + [(first + offset, events) for offset, (*_, events) in enumerate(entries)]
            self._recent[game_id] = (whole and len(actions) <= RECENT_KEPT, actions[-RECENT_KEPT:])

    async def actions(self, game_id: int) -> list[dict[str, Any]]:
        rows = await self._run(lambda conn: conn.execute(
            "SELECT n, seat, code, dice, events FROM actions WHERE game_id = ? ORDER BY n", (game_id,)).fetchall())
        return [
            {"n": r["n"], "seat": r["seat"], "code": r["code"], "dice": json.loads(r["dice"]),
             "events": json.loads(r["events"])}
            for r in rows
        ]

    async def recent_events(self, game_id: int, limit: int) -> list[tuple[int, list[dict[str, Any]]]]:
        """The events of the last ``limit`` actions, oldest first, with their action number: from
        memory when the last save of this game went through here, else read (and kept)."""
        kept = self._recent.get(game_id)
        if kept is not None and (kept[0] or len(kept[1]) >= limit):
            self._recent.move_to_end(game_id)
            return kept[1][-limit:]
        want, untouched = max(limit, RECENT_KEPT), [True]
        self._reading.setdefault(game_id, []).append(untouched)
        try:
            rows = await self._run(lambda conn: conn.execute(
                "SELECT n, events FROM actions WHERE game_id = ? ORDER BY n DESC LIMIT ?", (game_id, want)).fetchall())
        finally:
            readers = self._reading[game_id]
            readers[:] = [r for r in readers if r is not untouched]  # by identity: [True] == [True]
            if not readers:
                del self._reading[game_id]
        actions = [(r["n"], json.loads(r["events"])) for r in reversed(rows)]
        if untouched[0]:
            self._recent[game_id] = (len(rows) < want, actions[-RECENT_KEPT:])
            while len(self._recent) > RECENT_GAMES:
                self._recent.popitem(last=False)
        return actions[-limit:]

    async def stop_game(self, game_id: int, result: dict[str, Any]) -> bool:
        """Mark an active game stopped; False if it was not active any more."""
        return await self._write(
            "UPDATE games SET status = 'stopped', result = ?, updated_at = ? "
            "WHERE id = ? AND status IN ('lobby', 'running')",
            (json.dumps(result), time.time(), game_id),
        ) == 1

    async def hand_seat(self, game_id: int, seat: Seat) -> bool:
        """Give a running game's seat to someone else (a computer player); False if not running."""
        return await self._write(  # one statement: atomic on its own
            HAND_SEAT + " AND EXISTS (SELECT 1 FROM games WHERE id = ? AND status = 'running')",
            (seat.user_id, seat.name, game_id, seat.seat, game_id),
        ) == 1

    async def seed_used(self, seed: str) -> bool:
        """Whether a game was already dealt with ``seed`` (a seed serves one game only)."""
        return await self._run(lambda conn: conn.execute(
            "SELECT 1 FROM games WHERE seed = ? LIMIT 1", (seed,)).fetchone()) is not None

    async def pause_game(self, game_id: int) -> bool:
        """Pause a running game and drop its turn timer; False if it was not running or already paused."""
        return await self._write(
            "UPDATE games SET paused = 1, deadline = NULL WHERE id = ? AND status = 'running' AND paused = 0",
            (game_id,)) == 1

    async def resume_game(self, game_id: int, deadline: float | None) -> bool:
        """Resume a paused game with a new turn deadline; its table is to be posted afresh
        (message id cleared). False if it was not paused."""
        return await self._write(
            "UPDATE games SET paused = 0, deadline = ?, message_id = NULL "
            "WHERE id = ? AND status = 'running' AND paused = 1", (deadline, game_id)) == 1

    async def migrate_chat(self, old: int, new: int) -> bool:
        """A group became a supergroup: its games, language, settings and pub tally move to the
        new id, in one transaction. The messages stay behind in the old group, so the active
        game's message id is cleared. False if nothing was left to move (already done)."""

        def move(conn: sqlite3.Connection) -> bool:
            if conn.execute("SELECT 1 FROM games WHERE chat_id = ? AND status IN ('lobby', 'running')",
                            (new,)).fetchone():  # a game was begun there already: one active game per chat
                conn.execute("UPDATE games SET status = 'stopped', result = ? "
                             "WHERE chat_id = ? AND status IN ('lobby', 'running')",
                             (json.dumps({"kind": "stopped"}), old))
            moved = conn.execute(
                "UPDATE games SET chat_id = ?, message_id = CASE WHEN status IN ('lobby', 'running') "
                "THEN NULL ELSE message_id END WHERE chat_id = ?", (new, old)).rowcount
            moved += conn.execute(
                "INSERT INTO chats(chat_id, locale, settings, created_at) "
                "SELECT ?, locale, settings, created_at FROM chats WHERE chat_id = ? "
                "ON CONFLICT(chat_id) DO UPDATE SET locale = COALESCE(chats.locale, excluded.locale)",
                (new, old)).rowcount
            conn.execute("DELETE FROM chats WHERE chat_id = ?", (old,))
            moved += conn.execute(
                "INSERT INTO pub_tally(chat_id, user_id, name, rounds) "
                "SELECT ?, user_id, name, rounds FROM pub_tally WHERE chat_id = ? "
                "ON CONFLICT(chat_id, user_id) DO UPDATE SET rounds = rounds + excluded.rounds", (new, old)).rowcount
            conn.execute("DELETE FROM pub_tally WHERE chat_id = ?", (old,))
            conn.execute("UPDATE results SET chat_id = ? WHERE chat_id = ?", (new, old))
            return moved > 0

        moved = await self._transaction(move)
        self._chats.pop(old, None)
        self._chats.pop(new, None)
        return moved

    async def games_with_deadlines(self) -> list[GameRow]:
        """Running games whose player to move has a deadline (to re-arm after a restart)."""
        return await self._games("SELECT * FROM games WHERE status = 'running' AND deadline IS NOT NULL "
                                 "ORDER BY deadline")

    async def games_behind(self) -> list[GameRow]:
        """Games whose table message shows an older version than stored (a missed edit), and
        active games with no message to show them (a crash before it was posted, or a migration)."""
        return await self._games(
            "SELECT * FROM games WHERE paused = 0 AND ("
            "(shown_version < version AND status IN ('running', 'finished') AND message_id IS NOT NULL) "
            "OR (message_id IS NULL AND status IN ('lobby', 'running'))) ORDER BY id")

    async def _games(self, sql: str) -> list[GameRow]:
        def read(conn: sqlite3.Connection) -> list[GameRow]:
            return [g for g in (_game_row(conn, r) for r in conn.execute(sql).fetchall()) if g is not None]
        return await self._run(read)

    # one hop to the database thread ------------------------------------------------

    async def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` on the connection's thread in one go.

        One connection serves every chat. A transaction written as several awaited statements
        lets another chat's statements run inside it, to fail («cannot start a transaction
        within a transaction») or be rolled back with it; each hop also waits its turn on a busy
        event loop. aiosqlite runs each of its own calls through ``Connection._execute``; the
        pinned aiosqlite range keeps it (tests/test_storage.py runs every path through it).
        """
        conn = self.db._conn
        try:
            return await self.db._execute(work, conn)
        except sqlite3.IntegrityError:
            raise  # a constraint the caller expects (one active game per chat)
        except sqlite3.DatabaseError as exc:  # locked, read-only, disk full, I/O error, corrupt
            raise StorageError(str(exc)) from exc

    async def _write(self, sql: str, params: Sequence[Any]) -> int:
        """One autocommitted statement (atomic on its own); the number of rows it changed."""
        return await self._run(lambda conn: conn.execute(sql, params).rowcount)

    async def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """``body`` inside BEGIN IMMEDIATE … COMMIT (ROLLBACK if it raises), in one hop."""

        def run(conn: sqlite3.Connection) -> T:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = body(conn)
                conn.execute("COMMIT")  # may fail too (disk full, locked): then nothing is stored
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
            return result

        return await self._run(run)

    # pub tally ---------------------------------------------------------------

    async def pub_tally(self, chat_id: int) -> list[tuple[str, int]]:
        rows = await self._run(lambda conn: conn.execute(
            "SELECT name, rounds FROM pub_tally WHERE chat_id = ? AND rounds > 0 "
            "ORDER BY rounds DESC, name", (chat_id,)).fetchall())
        return [(r["name"], r["rounds"]) for r in rows]

    async def reset_pub_tally(self, chat_id: int) -> None:
        await self._write("DELETE FROM pub_tally WHERE chat_id = ?", (chat_id,))

    async def pub_rounds(self, chat_id: int, user_id: int) -> int:
        """The pub rounds ``user_id`` has paid in this chat's finished games (all of them: /tally
        reset clears the tally, not the results)."""
        row = await self._run(lambda conn: conn.execute(
            "SELECT COALESCE(SUM(paid), 0) AS rounds FROM results WHERE chat_id = ? AND user_id = ?",
            (chat_id, user_id)).fetchone())
        return int(row["rounds"])

    # results -----------------------------------------------------------------

    async def user_totals(self, chat_id: int, user_id: int) -> list[GameTotals]:
        """``user_id``'s games played and won in this chat, per game, most played first."""
        rows = await self._run(lambda conn: conn.execute(
            "SELECT code, COUNT(*) AS games, SUM(won) AS wins FROM results WHERE chat_id = ? AND user_id = ? "
            "GROUP BY code ORDER BY games DESC, code", (chat_id, user_id)).fetchall())
        return [GameTotals(r["code"], r["games"], r["wins"]) for r in rows]

    async def player_totals(self, chat_id: int, code: str | None = None) -> list[PlayerTotals]:
        """Every person's games played and won in this chat, of the game ``code`` or of all games."""
        # a bare column next to MAX() is taken from the row holding the maximum (SQLite's own rule):
        # the name of each player's latest game
        rows = await self._run(lambda conn: conn.execute(
            "SELECT user_id, name, MAX(finished_at) AS last, COUNT(*) AS games, SUM(won) AS wins FROM results "
            "WHERE chat_id = ? AND (? IS NULL OR code = ?) GROUP BY user_id ORDER BY user_id",
            (chat_id, code, code)).fetchall())
        return [PlayerTotals(r["user_id"], r["name"], r["games"], r["wins"]) for r in rows]

    async def past_games(self, chat_id: int, limit: int) -> list[PastGame]:
        """The chat's last ``limit`` games that were played and ended (finished or stopped), newest first;
        lobbies closed before the game began are left out."""

        def read(conn: sqlite3.Connection) -> list[PastGame]:
            # one game at a time per chat, so the latest begun is the latest ended
            games = conn.execute(
                "SELECT id, code, status, result, updated_at FROM games WHERE chat_id = ? "
                "AND status IN ('finished', 'stopped') AND state IS NOT NULL ORDER BY id DESC LIMIT ?",
                (chat_id, limit)).fetchall()
            out = []
            for g in games:
                seats = conn.execute("SELECT name FROM seats WHERE game_id = ? ORDER BY seat", (g["id"],)).fetchall()
                out.append(PastGame(g["id"], g["code"], g["status"], json.loads(g["result"] or "{}"),
                                    tuple(s["name"] for s in seats), g["updated_at"]))
            return out

        return await self._run(read)
