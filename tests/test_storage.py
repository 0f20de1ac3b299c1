"""Storage: migrations, one active game per chat, atomic optimistic moves, pub tally; on both databases
(the ``database`` fixture), but for what only SQLite has (its file, its authorizer, its old schemas)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.store import (
    ActiveGameExistsError,
    RecentEvents,
    Seat,
    SQLiteStore,
    StaleVersionError,
    StorageError,
    Store,
    TallyRow,
    open_store,
)
from bot.store.caches import RECENT_KEPT, RecentLog
from bot.store.sqlite_dialect import MIGRATIONS
from tests.backends import execute
from tests.store_helpers import moved

HOST = Seat(0, 10, "Аня")


async def test_creates_directory_wal_and_migrates_once(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    assert path.exists()
    assert await store.schema_version() == len(MIGRATIONS) == 12
    await store.close()
    store = await SQLiteStore.open(path)  # re-opening does not re-run migrations
    assert await store.schema_version() == 12
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as conn:  # WAL is a setting of the file itself
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT COUNT(*) FROM schema_version").fetchone()[0] == 12


async def test_migration_6_counts_an_active_game_as_acted_in_when_it_was_last_changed(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    lobby = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    done = await store.create_game(-2, "sosedi", {}, "01" * 32, HOST)
    await store.stop_game(done.id, {"kind": "stopped"})
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as old, old:  # the schema before it (version 5)
        old.executescript("DROP INDEX games_one_active; ALTER TABLE games DROP COLUMN thread_id; "
                          "CREATE UNIQUE INDEX games_one_active ON games(chat_id) "
                          "WHERE status IN ('lobby', 'running'); "
                          "DROP INDEX games_active_since; ALTER TABLE games DROP COLUMN acted_at; "
                          "ALTER TABLE seats DROP COLUMN left_at; ALTER TABLE results DROP COLUMN pub; "
                          "DROP TABLE handled_updates; DROP TABLE replays; DROP TABLE rated_games; DROP TABLE ratings; "
                          "UPDATE games SET updated_at = 1000; DELETE FROM schema_version WHERE version > 5")
    store = await SQLiteStore.open(path)
    assert await store.schema_version() == 12
    assert [g.id for g in await store.idle_games(1001, 1001)] == [lobby.id]  # the stopped one is not idle
    assert await store.idle_games(999, 999) == []
    await store.close()


async def test_one_active_game_per_forum_topic(database: str) -> None:
    store = await open_store(database)
    general = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    topic = await store.create_game(-1, "ludo", {}, "01" * 32, HOST, thread_id=7)  # another topic: fine
    with pytest.raises(ActiveGameExistsError):
        await store.create_game(-1, "ludo", {}, "02" * 32, HOST, thread_id=7)
    assert (await store.active_game(-1)).id == general.id
    assert (await store.active_game(-1, 7)).id == topic.id and topic.thread_id == 7
    assert (await store.game(topic.id)).thread_id == 7
    assert (await store.active_game(-1, 8)) is None
    assert [g.id for g in await store.active_games(-1)] == [general.id, topic.id]
    _, loaded = await store.load(-1, thread_id=7)
    assert loaded is not None and loaded.id == topic.id
    await store.close()


async def test_one_active_game_per_chat(database: str) -> None:
    store = await open_store(database)
    game = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    with pytest.raises(ActiveGameExistsError):
        await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    other = await store.create_game(-2, "sosedi", {}, "00" * 32, HOST)  # another chat is fine
    assert other.id != game.id
    assert await store.stop_game(game.id, {"kind": "stopped"})
    assert not await store.stop_game(game.id, {"kind": "stopped"})
    again = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    assert (await store.active_game(-1)).id == again.id
    await store.close()


async def test_save_move_is_optimistic_and_atomic(database: str) -> None:
    store = await open_store(database)
    game = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    await store.save_move(moved(game.id, 0, {"v": 0}, 0, [(None, "start", (), [])]))
    await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (1, 2, 3), [{"kind": "roll"}])]))
    with pytest.raises(StaleVersionError):  # the same version twice: the second is refused
        await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (4, 5, 6), [])]))
    stored = await store.game(game.id)
    assert stored.version == 1 and stored.state == {"v": 1}
    assert [a.dice for a in await store.actions(game.id)] == [(), (1, 2, 3)]
    # a failing log insert (duplicate action number) leaves the state untouched
    with pytest.raises(Exception):  # noqa: B017 - the driver's own integrity error
        await store.save_move(moved(game.id, 1, {"v": 2}, 2, [(0, "r", (), []), (0, "r", (), []), (0, "r", (), [])]))
    stored = await store.game(game.id)
    assert stored.version == 1 and stored.state == {"v": 1}
    await store.close()


async def test_pub_tally_counts_in_the_finishing_transaction(database: str) -> None:
    store = await open_store(database)
    for _ in range(2):
        game = await store.create_game(-5, "sosedi", {}, "00" * 32, HOST)
        await store.save_move(moved(game.id, 0, {}, 0, [(None, "start", (), [])]))
        await store.save_move(moved(game.id, 0, {}, 1, [(0, "r", (1, 1, 1), [])], status="finished",
                             result={"kind": "lose"}, pub_payer=Seat(1, 20, "Борис")))
    assert await store.pub_tally(-5) == [TallyRow(20, "Борис", 2)]
    assert await store.pub_tally(-6) == []
    await store.reset_pub_tally(-5)
    assert await store.pub_tally(-5) == []
    await store.close()


async def test_lobby_rewrite_and_shown_version(database: str) -> None:
    store = await open_store(database)
    game = await store.create_game(-1, "sosedi", {"mode": "classic"}, "00" * 32, HOST)
    await store.set_lobby(game.id, [(20, "Борис"), (30, "Вера")], 20, {"mode": "tower"})
    game = await store.game(game.id)
    assert game.names == ["Борис", "Вера"] and game.host_id == 20 and game.options == {"mode": "tower"}
    await store.set_message_id(game.id, 77)
    await store.save_move(moved(game.id, 0, {}, 0, [(None, "start", (), [])]))
    await store.save_move(moved(game.id, 0, {}, 1, [(0, "r", (), [])]))
    assert [g.id for g in await store.games_behind()] == [game.id]
    await store.set_shown_version(game.id, 1)
    await store.set_shown_version(game.id, 0)  # never goes back
    assert await store.games_behind() == []
    await store.close()


async def test_stopped_games_are_not_redrawn_at_start_up(database: str) -> None:
    store = await open_store(database)
    game = await store.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    await store.set_message_id(game.id, 5)
    await store.save_move(moved(game.id, 0, {}, 0, [(None, "start", (), [])]))
    await store.save_move(moved(game.id, 0, {}, 1, [(0, "r", (), [])]))
    assert [g.id for g in await store.games_behind()] == [game.id]
    await store.stop_game(game.id, {"kind": "stopped"})  # its table shows «остановлена» already
    assert await store.games_behind() == []
    await store.close()


async def test_a_first_schema_database_gains_the_timer_and_pause_columns(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(MIGRATIONS[0])
    old.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
    old.execute("INSERT INTO schema_version VALUES (1)")
    old.execute("INSERT INTO games(chat_id, code, options, seed, status, host_id, created_at, updated_at) "
                "VALUES (-5, 'sosedi', '{}', 'ab', 'lobby', 1, 0, 0)")
    old.execute("INSERT INTO seats VALUES (1, 0, 1, 'Аня')")
    old.commit()
    old.close()
    store = await SQLiteStore.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    game = await store.active_game(-5)
    assert game is not None and game.deadline is None and game.timeouts == {} and game.names == ["Аня"]
    assert game.paused is False
    await store.close()


async def test_deadline_timeouts_and_a_seat_handed_over_are_saved_with_the_move(database: str) -> None:
    store = await open_store(database)
    game = await store.create_game(-7, "sosedi", {}, "cd", Seat(0, 1, "Аня"), (Seat(0, 1, "Аня"), Seat(1, 2, "Борис")))
    await store.save_move(moved(game.id, 0, {"x": 1}, 1, [(0, "r", (3,), [])], deadline=1234.5, timeouts={"1": 2}))
    saved = await store.game(game.id)
    assert saved is not None and saved.deadline == 1234.5 and saved.timeouts == {"1": 2}
    assert [g.id for g in await store.games_with_deadlines()] == [game.id]
    await store.save_move(moved(game.id, 1, {"x": 2}, 2, [(1, "r", (4,), [])], new_seat=Seat(1, -1, "🤖 Борис")))
    saved = await store.game(game.id)
    assert saved is not None and saved.deadline is None and saved.timeouts == {"1": 2}  # kept when not given
    assert [(s.user_id, s.name) for s in saved.seats] == [(1, "Аня"), (-1, "🤖 Борис")]
    assert await store.games_with_deadlines() == []
    with pytest.raises(StaleVersionError):  # a stale save changes nothing, the seat included
        await store.save_move(moved(game.id, 1, {"x": 3}, 2, [], new_seat=Seat(0, -2, "🤖 Аня")))
    assert (await store.game(game.id)).names == ["Аня", "🤖 Борис"]
    assert dict((await store.chat(-7)).settings) == {}
    await store.set_chat_setting(-7, "turn_timer", 10)
    await store.set_chat_locale(-7, "en")
    await store.set_chat_setting(-7, "other", 1)
    assert dict((await store.chat(-7)).settings) == {"turn_timer": 10, "other": 1}
    assert (await store.chat(-7)).locale == "en"
    with pytest.raises(TypeError):  # read-only: a caller cannot change the settings the store keeps
        (await store.chat(-7)).settings["other"] = 2  # type: ignore[index]
    assert dict((await store.chat(-7)).settings) == {"turn_timer": 10, "other": 1}
    await store.close()
    store = await open_store(database)  # what was cached was also written
    chat = await store.chat(-7)
    assert (chat.locale, dict(chat.settings)) == ("en", {"turn_timer": 10, "other": 1})
    await store.close()


async def test_many_chats_writing_at_once_neither_collide_nor_lose_writes(database: str) -> None:
    """One writing connection serves every chat: transactions take turns, so another chat's
    statements never land inside one (an awaited BEGIN … COMMIT without that failed here with
    «cannot start a transaction within a transaction» and rolled other chats' writes back with it)."""
    store = await open_store(database)
    games = [await store.create_game(-1000 - i, "sosedi", {}, "ab", Seat(0, 1, "Аня"),
                                    (Seat(0, 1, "Аня"), Seat(1, 2, "Борис"))) for i in range(40)]

    async def play(game_id: int) -> int:
        stale = 0
        for version in range(6):
            await store.save_move(moved(game_id, version, {"v": version + 1}, version + 1, [(0, "r", (version,), [])]))
            await store.set_shown_version(game_id, version + 1)
            try:  # a losing writer of the same version: rolled back, nobody else's write with it
                await store.save_move(moved(game_id, version, {"v": -1}, version + 1, [(1, "x", (), [])]))
            except StaleVersionError:
                stale += 1
        return stale

    assert await asyncio.gather(*(play(g.id) for g in games)) == [6] * len(games)
    for g in games:
        saved = await store.game(g.id)
        assert saved is not None and saved.state == {"v": 6} and saved.version == saved.shown_version == 6
        assert [a.code for a in await store.actions(g.id)] == ["r"] * 6
    await store.close()


async def _logged_game(store: Store, moves: int) -> int:
    game = await store.create_game(-9, "sosedi", {}, "00" * 32, HOST)
    await store.save_move(moved(game.id, 0, {}, 0, [(None, "start", (), [{"kind": "start"}])]))
    for v in range(moves):
        await store.save_move(moved(game.id, v, {}, v + 1, [(0, "r", (v,), [{"kind": "roll", "data": {"v": v}}])]))
    return game.id


def deny_reading(table: str) -> Callable[..., int]:
    """An SQLite authorizer under which any read of ``table`` fails («not authorized»)."""
    def authorize(action: int, arg1: str | None, *_: object) -> int:
        return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_READ and arg1 == table else sqlite3.SQLITE_OK
    return authorize


async def test_recent_events_come_from_memory_after_a_save_and_match_the_database(tmp_path: Path) -> None:
    store = await SQLiteStore.open(tmp_path / "db")
    game_id = await _logged_game(store, 3)
    first = await store.recent_events(game_id, 3)  # read once, kept
    await store.save_move(moved(game_id, 3, {}, 5, [(0, "r", (), [{"kind": "a"}]), (None, "bot", (), [{"kind": "b"}])]))
    db = store.connection
    await db.set_authorizer(deny_reading("actions"))  # a read of the log now would fail
    kept = await store.recent_events(game_id, 4)
    assert kept[:2] == first[1:]
    assert [events for _, events in kept[-2:]] == [[{"kind": "a"}], [{"kind": "b"}]]
    assert await store.recent_events(game_id, 40) == await store.recent_events(game_id, 6)  # the whole log is kept
    with pytest.raises(StorageError):  # the authorizer does deny reading the log
        await store.actions(game_id)
    await db.set_authorizer(None)
    assert kept == await store.recent_events(game_id, 4)
    await store.close()
    fresh = await SQLiteStore.open(tmp_path / "db")
    assert await fresh.recent_events(game_id, 4) == kept  # the same as read from the database
    await fresh.close()


def logged(actions: int) -> RecentEvents:
    return [(n, [{"kind": "roll", "n": n}]) for n in range(-1, actions)]


class FakeLog:
    """The reads behind a RecentLog: a log of ``actions`` actions; each read can be held up."""

    def __init__(self, actions: int) -> None:
        self.log, self.reads = logged(actions), 0
        self.fetched, self.go_on = asyncio.Event(), asyncio.Event()
        self.go_on.set()

    async def read(self, game_id: int, limit: int) -> RecentEvents:
        self.reads += 1
        rows = self.log[-limit:]  # the rows come back; the caller resumes once go_on is set
        self.fetched.set()
        await self.go_on.wait()
        return rows


async def test_a_long_log_keeps_only_its_tail_and_reads_further_back() -> None:
    source = FakeLog(RECENT_KEPT + 5)
    recent = RecentLog(source.read)
    assert await recent.get(7, 3) == source.log[-3:]
    assert recent.holds(7) == (False, RECENT_KEPT) and source.reads == 1
    assert await recent.get(7, RECENT_KEPT) == source.log[-RECENT_KEPT:] and source.reads == 1  # from memory
    longer = await recent.get(7, RECENT_KEPT + 2)  # more than is kept: from the database
    assert longer == source.log[-RECENT_KEPT - 2:] and source.reads == 2 and recent.holds(7) == (False, RECENT_KEPT)
    short = FakeLog(2)
    whole = RecentLog(short.read)
    assert await whole.get(8, 3) == short.log and whole.holds(8) == (True, 3)
    assert await whole.get(8, 40) == short.log and short.reads == 1  # the whole log is kept: nothing more to read


async def test_a_save_during_a_log_read_is_not_lost_from_the_log() -> None:
    source = FakeLog(2)
    recent = RecentLog(source.read)
    source.go_on.clear()
    reading = asyncio.create_task(recent.get(7, 3))
    await source.fetched.wait()  # the read's rows are on their way back …
    late = [{"kind": "late"}]
    source.log.append((2, late))
    recent.saved(7, 2, [late])  # … when a save commits
    source.go_on.set()
    assert [events for _, events in await reading][-1] != late  # read before the save
    assert recent.holds(7) is None and recent.reads_in_flight() == 0  # so it is not kept
    assert (await recent.get(7, 1))[0][1] == late


async def test_a_stale_save_does_not_reach_the_kept_log(database: str) -> None:
    store = await open_store(database)
    game_id = await _logged_game(store, 2)
    before = await store.recent_events(game_id, 3)
    with pytest.raises(StaleVersionError):
        await store.save_move(moved(game_id, 0, {}, 1, [(0, "r", (), [{"kind": "stale"}])]))
    assert await store.recent_events(game_id, 3) == before
    await store.close()


async def test_pause_and_resume_a_running_game(database: str) -> None:
    store = await open_store(database)
    lobby = await store.create_game(-3, "sosedi", {}, "ab", Seat(0, 1, "Аня"))
    assert not await store.pause_game(lobby.id)  # only a running game pauses
    await store.save_move(moved(lobby.id, 0, {"v": 0}, 0, [(None, "start", (), [])], deadline=100.0))
    await store.set_message_id(lobby.id, 7)
    assert await store.pause_game(lobby.id) and not await store.pause_game(lobby.id)
    game = await store.game(lobby.id)
    assert game is not None and game.paused and game.deadline is None and game.status == "running"
    assert await store.games_behind() == []  # a paused game's table is not redrawn at start-up
    assert await store.resume_game(lobby.id, 250.0) and not await store.resume_game(lobby.id, 300.0)
    game = await store.game(lobby.id)
    assert game is not None and not game.paused and game.deadline == 250.0 and game.message_id is None
    assert [g.id for g in await store.games_behind()] == [lobby.id]  # to be posted afresh
    await store.close()


async def test_a_migration_moves_games_language_settings_and_tally_once(database: str) -> None:
    store = await open_store(database)
    old, new = -4001, -1000000004001
    done = await store.create_game(old, "sosedi", {}, "ab", Seat(0, 1, "Аня"))
    await store.stop_game(done.id, {"kind": "stopped"})
    await store.set_message_id(done.id, 3)
    active = await store.create_game(old, "sosedi", {}, "cd", Seat(0, 1, "Аня"))
    await store.set_message_id(active.id, 9)
    await store.set_chat_locale(old, "en")
    await store.set_chat_setting(old, "turn_timer", 10)
    for chat, rounds in [(old, 3), (new, 1)]:  # as pub games leave it
        await execute(database, "INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, 2, 'Борис', ?)",
                      chat, rounds)
    assert await store.migrate_chat(old, new)
    assert not await store.migrate_chat(old, new)  # Telegram tells both chats: the second finds nothing
    moved = await store.active_game(new)
    assert moved is not None and moved.id == active.id and moved.message_id is None  # its message stayed behind
    assert (await store.game(done.id)).message_id == 3  # type: ignore[union-attr]
    assert await store.active_game(old) is None
    assert ((await store.chat(new)).locale, dict((await store.chat(new)).settings)) == ("en", {"turn_timer": 10})
    assert ((await store.chat(old)).locale, dict((await store.chat(old)).settings)) == (None, {})
    assert await store.pub_tally(new) == [TallyRow(2, "Борис", 4)] and await store.pub_tally(old) == []
    await store.close()


async def test_a_migration_onto_a_chat_with_a_game_stops_the_old_one(database: str) -> None:
    store = await open_store(database)
    old, new = -4002, -1000000004002
    first = await store.create_game(old, "sosedi", {}, "ab", Seat(0, 1, "Аня"))
    second = await store.create_game(new, "sosedi", {}, "cd", Seat(0, 2, "Борис"))
    assert await store.migrate_chat(old, new)
    assert (await store.active_game(new)).id == second.id  # type: ignore[union-attr]
    assert (await store.game(first.id)).status == "stopped"  # type: ignore[union-attr]
    await store.close()


async def test_running_games_are_counted_by_game(database: str) -> None:
    store = await open_store(database)
    lobby = await store.create_game(-1, "ludo", {}, "00" * 32, HOST)
    for chat, code in ((-2, "ludo"), (-3, "ludo"), (-4, "tishe")):
        game = await store.create_game(chat, code, {}, "01" * 32, HOST)
        await store.save_move(moved(game.id, 0, {}, 0, [(None, "start", (), [])]))
    assert await store.running_games() == {"ludo": 2, "tishe": 1}  # the lobby is not running
    assert await store.stop_game(lobby.id, {"kind": "stopped"})
    await store.close()
