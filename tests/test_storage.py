"""Storage: migrations, one active game per chat, atomic optimistic moves, pub tally."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.storage import MIGRATIONS, ActiveGameExistsError, Repository, Seat, StaleVersionError

HOST = Seat(0, 10, "Аня")


async def test_creates_directory_wal_and_migrates_once(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "dir" / "bot.sqlite3"
    repo = await Repository.open(path)
    assert path.exists()
    async with repo.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    assert await repo.schema_version() == len(MIGRATIONS) == 5
    await repo.close()
    repo = await Repository.open(path)  # re-opening does not re-run migrations
    assert await repo.schema_version() == 5
    async with repo.db.execute("SELECT COUNT(*) FROM schema_version") as cur:
        assert (await cur.fetchone())[0] == 5
    await repo.close()


async def test_one_active_game_per_chat(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game = await repo.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    with pytest.raises(ActiveGameExistsError):
        await repo.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    other = await repo.create_game(-2, "sosedi", {}, "00" * 32, HOST)  # another chat is fine
    assert other.id != game.id
    assert await repo.stop_game(game.id, {"kind": "stopped"})
    assert not await repo.stop_game(game.id, {"kind": "stopped"})
    again = await repo.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    assert (await repo.active_game(-1)).id == again.id
    await repo.close()


async def test_save_move_is_optimistic_and_atomic(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game = await repo.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    await repo.save_move(game.id, 0, {"v": 0}, 0, [(None, "start", (), [])])
    await repo.save_move(game.id, 0, {"v": 1}, 1, [(0, "r", (1, 2, 3), [{"kind": "roll"}])])
    with pytest.raises(StaleVersionError):  # the same version twice: the second is refused
        await repo.save_move(game.id, 0, {"v": 1}, 1, [(0, "r", (4, 5, 6), [])])
    stored = await repo.game(game.id)
    assert stored.version == 1 and stored.state == {"v": 1}
    assert [a["dice"] for a in await repo.actions(game.id)] == [[], [1, 2, 3]]
    # a failing log insert (duplicate action number) leaves the state untouched
    with pytest.raises(Exception):  # noqa: B017 - sqlite3.IntegrityError through aiosqlite
        await repo.save_move(game.id, 1, {"v": 2}, 2, [(0, "r", (), []), (0, "r", (), []), (0, "r", (), [])])
    stored = await repo.game(game.id)
    assert stored.version == 1 and stored.state == {"v": 1}
    await repo.close()


async def test_pub_tally_counts_in_the_finishing_transaction(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    for _ in range(2):
        game = await repo.create_game(-5, "sosedi", {}, "00" * 32, HOST)
        await repo.save_move(game.id, 0, {}, 0, [(None, "start", (), [])])
        await repo.save_move(game.id, 0, {}, 1, [(0, "r", (1, 1, 1), [])], status="finished",
                             result={"kind": "lose"}, pub_payer=Seat(1, 20, "Борис"))
    assert await repo.pub_tally(-5) == [("Борис", 2)]
    assert await repo.pub_tally(-6) == []
    await repo.reset_pub_tally(-5)
    assert await repo.pub_tally(-5) == []
    await repo.close()


async def test_lobby_rewrite_and_shown_version(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game = await repo.create_game(-1, "sosedi", {"mode": "classic"}, "00" * 32, HOST)
    await repo.set_lobby(game.id, [(20, "Борис"), (30, "Вера")], 20, {"mode": "tower"})
    game = await repo.game(game.id)
    assert game.names == ["Борис", "Вера"] and game.host_id == 20 and game.options == {"mode": "tower"}
    await repo.set_message_id(game.id, 77)
    await repo.save_move(game.id, 0, {}, 0, [(None, "start", (), [])])
    await repo.save_move(game.id, 0, {}, 1, [(0, "r", (), [])])
    assert [g.id for g in await repo.games_behind()] == [game.id]
    await repo.set_shown_version(game.id, 1)
    await repo.set_shown_version(game.id, 0)  # never goes back
    assert await repo.games_behind() == []
    await repo.close()


async def test_stopped_games_are_not_redrawn_at_start_up(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game = await repo.create_game(-1, "sosedi", {}, "00" * 32, HOST)
    await repo.set_message_id(game.id, 5)
    await repo.save_move(game.id, 0, {}, 0, [(None, "start", (), [])])
    await repo.save_move(game.id, 0, {}, 1, [(0, "r", (), [])])
    assert [g.id for g in await repo.games_behind()] == [game.id]
    await repo.stop_game(game.id, {"kind": "stopped"})  # its table shows «остановлена» already
    assert await repo.games_behind() == []
    await repo.close()


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
    repo = await Repository.open(path)
    assert await repo.schema_version() == len(MIGRATIONS)
    game = await repo.active_game(-5)
    assert game is not None and game.deadline is None and game.timeouts == {} and game.names == ["Аня"]
    assert game.paused is False
    await repo.close()


async def test_deadline_timeouts_and_a_seat_handed_over_are_saved_with_the_move(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "bot.sqlite3")
    game = await repo.create_game(-7, "sosedi", {}, "cd", Seat(0, 1, "Аня"), (Seat(0, 1, "Аня"), Seat(1, 2, "Борис")))
    await repo.save_move(game.id, 0, {"x": 1}, 1, [(0, "r", (3,), [])], deadline=1234.5, timeouts={"1": 2})
    saved = await repo.game(game.id)
    assert saved is not None and saved.deadline == 1234.5 and saved.timeouts == {"1": 2}
    assert [g.id for g in await repo.games_with_deadlines()] == [game.id]
    await repo.save_move(game.id, 1, {"x": 2}, 2, [(1, "r", (4,), [])], new_seat=Seat(1, -1, "🤖 Борис"))
    saved = await repo.game(game.id)
    assert saved is not None and saved.deadline is None and saved.timeouts == {"1": 2}  # kept when not given
    assert [(s.user_id, s.name) for s in saved.seats] == [(1, "Аня"), (-1, "🤖 Борис")]
    assert await repo.games_with_deadlines() == []
    with pytest.raises(StaleVersionError):  # a stale save changes nothing, the seat included
        await repo.save_move(game.id, 1, {"x": 3}, 2, [], new_seat=Seat(0, -2, "🤖 Аня"))
    assert (await repo.game(game.id)).names == ["Аня", "🤖 Борис"]
    assert await repo.chat_settings(-7) == {}
    await repo.set_chat_setting(-7, "turn_timer", 10)
    await repo.set_chat_locale(-7, "en")
    await repo.set_chat_setting(-7, "other", 1)
    assert await repo.chat_settings(-7) == {"turn_timer": 10, "other": 1}
    assert await repo.chat_locale(-7) == "en"
    (await repo.chat_settings(-7))["other"] = 2  # a caller's copy, not the cached settings
    assert await repo.chat_settings(-7) == {"turn_timer": 10, "other": 1}
    await repo.close()
    repo = await Repository.open(tmp_path / "bot.sqlite3")  # what was cached was also written
    assert (await repo.chat_locale(-7), await repo.chat_settings(-7)) == ("en", {"turn_timer": 10, "other": 1})
    await repo.close()


async def test_many_chats_writing_at_once_neither_collide_nor_lose_writes(tmp_path: Path) -> None:
    """One connection serves every chat: each transaction runs in one go, so another chat's
    statements never land inside it (the old awaited BEGIN … COMMIT failed here with «cannot
    start a transaction within a transaction» and rolled other chats' writes back with it)."""
    repo = await Repository.open(tmp_path / "bot.sqlite3")
    games = [await repo.create_game(-1000 - i, "sosedi", {}, "ab", Seat(0, 1, "Аня"),
                                    (Seat(0, 1, "Аня"), Seat(1, 2, "Борис"))) for i in range(40)]

    async def play(game_id: int) -> int:
        stale = 0
        for version in range(6):
            await repo.save_move(game_id, version, {"v": version + 1}, version + 1, [(0, "r", (version,), [])])
            await repo.set_shown_version(game_id, version + 1)
            try:  # a losing writer of the same version: rolled back, nobody else's write with it
                await repo.save_move(game_id, version, {"v": -1}, version + 1, [(1, "x", (), [])])
            except StaleVersionError:
                stale += 1
        return stale

    assert await asyncio.gather(*(play(g.id) for g in games)) == [6] * len(games)
    for g in games:
        saved = await repo.game(g.id)
        assert saved is not None and saved.state == {"v": 6} and saved.version == saved.shown_version == 6
        assert [a["code"] for a in await repo.actions(g.id)] == ["r"] * 6
    await repo.close()


async def _logged_game(repo: Repository, moves: int) -> int:
    game = await repo.create_game(-9, "sosedi", {}, "00" * 32, HOST)
    await repo.save_move(game.id, 0, {}, 0, [(None, "start", (), [{"kind": "start"}])])
    for v in range(moves):
        await repo.save_move(game.id, v, {}, v + 1, [(0, "r", (v,), [{"kind": "roll", "data": {"v": v}}])])
    return game.id


async def test_recent_events_come_from_memory_after_a_save_and_match_the_database(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game_id = await _logged_game(repo, 3)
    first = await repo.recent_events(game_id, 3)  # read once, kept
    await repo.save_move(game_id, 3, {}, 5, [(0, "r", (), [{"kind": "a"}]), (None, "bot", (), [{"kind": "b"}])])
    reads = []
    repo._run = lambda work: reads.append(work)  # type: ignore[method-assign]  # a read now would fail here
    kept = await repo.recent_events(game_id, 4)
    assert reads == [] and kept[:2] == first[1:]
    assert [events for _, events in kept[-2:]] == [[{"kind": "a"}], [{"kind": "b"}]]
    assert await repo.recent_events(game_id, 40) == await repo.recent_events(game_id, 6)  # the whole log is kept
    del repo._run
    assert kept == await repo.recent_events(game_id, 4)
    await repo.close()
    fresh = await Repository.open(tmp_path / "db")
    assert await fresh.recent_events(game_id, 4) == kept  # the same as read from the database
    await fresh.close()


async def test_a_long_log_keeps_only_its_tail_and_reads_further_back(tmp_path: Path) -> None:
    from bot.storage import RECENT_KEPT

    repo = await Repository.open(tmp_path / "db")
    game_id = await _logged_game(repo, RECENT_KEPT + 5)
    await repo.recent_events(game_id, 3)
    assert len(repo._recent[game_id][1]) == RECENT_KEPT and not repo._recent[game_id][0]
    longer = await repo.recent_events(game_id, RECENT_KEPT + 2)  # more than is kept: from the database
    assert len(longer) == RECENT_KEPT + 2 and longer[-RECENT_KEPT:] == repo._recent[game_id][1]
    await repo.close()


async def test_a_save_during_a_log_read_is_not_lost_from_the_log(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game_id = await _logged_game(repo, 2)
    real_run, fetched, go_on = repo._run, asyncio.Event(), asyncio.Event()

    async def slow_read(work):  # the read's rows come back before the save, its caller resumes after it
        rows = await real_run(work)
        fetched.set()
        await go_on.wait()
        return rows

    repo._run = slow_read  # type: ignore[method-assign]
    reading = asyncio.create_task(repo.recent_events(game_id, 3))
    await fetched.wait()
    repo._run = real_run  # type: ignore[method-assign]
    await repo.save_move(game_id, 2, {}, 3, [(0, "r", (), [{"kind": "late"}])])
    go_on.set()
    assert [events for _, events in await reading][-1] != [{"kind": "late"}]  # read before the save
    assert (await repo.recent_events(game_id, 1))[0][1] == [{"kind": "late"}]
    assert repo._reading == {}
    await repo.close()


async def test_a_stale_save_does_not_reach_the_kept_log(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "db")
    game_id = await _logged_game(repo, 2)
    before = await repo.recent_events(game_id, 3)
    with pytest.raises(StaleVersionError):
        await repo.save_move(game_id, 0, {}, 1, [(0, "r", (), [{"kind": "stale"}])])
    assert await repo.recent_events(game_id, 3) == before
    await repo.close()


async def test_pause_and_resume_a_running_game(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "bot.sqlite3")
    lobby = await repo.create_game(-3, "sosedi", {}, "ab", Seat(0, 1, "Аня"))
    assert not await repo.pause_game(lobby.id)  # only a running game pauses
    await repo.save_move(lobby.id, 0, {"v": 0}, 0, [(None, "start", (), [])], deadline=100.0)
    await repo.set_message_id(lobby.id, 7)
    assert await repo.pause_game(lobby.id) and not await repo.pause_game(lobby.id)
    game = await repo.game(lobby.id)
    assert game is not None and game.paused and game.deadline is None and game.status == "running"
    assert await repo.games_behind() == []  # a paused game's table is not redrawn at start-up
    assert await repo.resume_game(lobby.id, 250.0) and not await repo.resume_game(lobby.id, 300.0)
    game = await repo.game(lobby.id)
    assert game is not None and not game.paused and game.deadline == 250.0 and game.message_id is None
    assert [g.id for g in await repo.games_behind()] == [lobby.id]  # to be posted afresh
    await repo.close()


async def test_a_migration_moves_games_language_settings_and_tally_once(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "bot.sqlite3")
    old, new = -4001, -1000000004001
    done = await repo.create_game(old, "sosedi", {}, "ab", Seat(0, 1, "Аня"))
    await repo.stop_game(done.id, {"kind": "stopped"})
    await repo.set_message_id(done.id, 3)
    active = await repo.create_game(old, "sosedi", {}, "cd", Seat(0, 1, "Аня"))
    await repo.set_message_id(active.id, 9)
    await repo.set_chat_locale(old, "en")
    await repo.set_chat_setting(old, "turn_timer", 10)
    await repo._write("INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, 2, 'Борис', 3)", (old,))
    await repo._write("INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, 2, 'Борис', 1)", (new,))
    assert await repo.migrate_chat(old, new)
    assert not await repo.migrate_chat(old, new)  # Telegram tells both chats: the second finds nothing
    moved = await repo.active_game(new)
    assert moved is not None and moved.id == active.id and moved.message_id is None  # its message stayed behind
    assert (await repo.game(done.id)).message_id == 3  # type: ignore[union-attr]
    assert await repo.active_game(old) is None
    assert (await repo.chat_locale(new), await repo.chat_settings(new)) == ("en", {"turn_timer": 10})
    assert (await repo.chat_locale(old), await repo.chat_settings(old)) == (None, {})
    assert await repo.pub_tally(new) == [("Борис", 4)] and await repo.pub_tally(old) == []
    await repo.close()


async def test_a_migration_onto_a_chat_with_a_game_stops_the_old_one(tmp_path: Path) -> None:
    repo = await Repository.open(tmp_path / "bot.sqlite3")
    old, new = -4002, -1000000004002
    first = await repo.create_game(old, "sosedi", {}, "ab", Seat(0, 1, "Аня"))
    second = await repo.create_game(new, "sosedi", {}, "cd", Seat(0, 2, "Борис"))
    assert await repo.migrate_chat(old, new)
    assert (await repo.active_game(new)).id == second.id  # type: ignore[union-attr]
    assert (await repo.game(first.id)).status == "stopped"  # type: ignore[union-attr]
    await repo.close()
