"""Skill ratings: who is placed where, what the model does with it, how storage
keeps it on both databases, that a rebuild equals what play stored, and that games played before
ratings existed are rated.

The result message's rating lines are checked through the fake Telegram server in
tests/test_bot_results.py and tests/test_stats.py (/top of one game by rating)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.flow import GameFlow
from bot.flow.table_settings import TABLE_KEY, level_of
from bot.games.places import in_ranking_order
from bot.ratings import BASE, COMPUTER, MODEL, Entrant, entrants, rate, ratings_of, rebuild, result_places, shown
from bot.store import GameRow, RatingRow, Seat, SQLiteStore, Store, open_store
from tests.stats_steps import ANYA, BORIS, CHAT, KESHA, VERA, finish, started

ROOT = Path(__file__).resolve().parent.parent
GLEB = Seat(3, 40, "Глеб")


def game_row(seats: tuple[Seat, ...], result: dict[str, Any], options: dict[str, Any] | None = None) -> GameRow:
    """A finished game's row as storage would give it."""
    return GameRow(id=1, chat_id=CHAT, code="ludo", options=options or {}, seed="00" * 32, state={}, version=3,
                   shown_version=3, status="finished", host_id=seats[0].user_id, message_id=None, result=result,
                   seats=seats)


def places_of(players: list[Entrant]) -> dict[str, int]:
    return {p.player: p.place for p in players}


# who is placed where ---------------------------------------------------------------


def test_a_game_that_ranks_everyone_places_by_its_ranking_and_a_draw_ties() -> None:
    result = {"kind": "win", "winners": [2], "ranking": [2, 0, 3, 1]}
    assert result_places(result, 4, in_ranking_order) == {2: 1, 0: 2, 3: 3, 1: 4}
    draw = {"kind": "draw", "winners": [0, 1], "ranking": [1, 0, 2]}
    assert result_places(draw, 3, in_ranking_order) == {1: 1, 0: 1, 2: 3}
    # a stored result whose ranking does not cover every seat falls back to who won
    assert result_places({"kind": "win", "winners": [1], "ranking": [1]}, 3, in_ranking_order) == {0: 2, 1: 1, 2: 2}


def test_without_a_ranking_the_winners_lead_the_payers_trail_and_a_draw_ties_everyone() -> None:
    assert result_places({"kind": "win", "winners": [1]}, 3, None) == {0: 2, 1: 1, 2: 2}
    assert result_places({"kind": "lose", "winners": [], "losers": [0]}, 3, None) == {0: 2, 1: 1, 2: 1}
    assert result_places({"kind": "draw", "winners": []}, 2, None) == {0: 1, 1: 1}


def test_a_person_who_left_is_placed_last_and_the_computer_seats_are_one_entrant_at_their_best() -> None:
    left = Seat(1, -2, "🤖 вместо Бориса", left_user_id=BORIS.user_id, left_name=BORIS.name)
    seats = (ANYA, left, Seat(2, -3, "🤖 Кеша"), Seat(3, -4, "🤖 Гена"))
    # the computer that took Борис's seat won (it is Борис's, placed last: the computer did not play
    # the game for itself); Аня came second, Кеша third, Гена last
    players = entrants(game_row(seats, {"kind": "win", "winners": [1], "ranking": [1, 0, 2, 3]}),
                       in_ranking_order, "strong")
    assert places_of(players) == {"10": 2, "bot:strong": 3, "20": 5}
    assert [p.computer for p in players] == [False, True, False]
    assert players[-1].name == "Борис"


def test_the_level_a_game_chose_is_the_computer_it_rates() -> None:
    game = game_row((ANYA, KESHA), {"kind": "win", "winners": [0]}, {TABLE_KEY: {"level": "easy"}})
    assert [p.player for p in entrants(game, None, level_of(game.options))] == ["10", COMPUTER + "easy"]


# what the model does with it ---------------------------------------------------------------


def test_a_first_game_lifts_the_winner_and_drops_the_last_from_the_newcomers_number() -> None:
    rows, changes = rate({}, [Entrant("10", "Аня", 1), Entrant("20", "Борис", 2), Entrant("30", "Вера", 3)])
    assert [c.before for c in changes] == [BASE] * 3 == [shown(MODEL.mu, MODEL.sigma)] * 3
    assert changes[0].delta > changes[1].delta > changes[2].delta and changes[0].delta > 0 > changes[2].delta
    assert [r.games for r in rows] == [1, 1, 1] and rows[0].mu > rows[1].mu > rows[2].mu
    assert [c.after for c in changes] == [shown(r.mu, r.sigma) for r in rows]


def test_equal_places_tie_and_a_lone_player_changes_nothing() -> None:
    rows, changes = rate({}, [Entrant("10", "Аня", 1), Entrant("20", "Борис", 1)])
    assert rows[0].mu == pytest.approx(rows[1].mu) and changes[0].delta == changes[1].delta
    assert rate({}, [Entrant("10", "Аня", 1)]) == ([], [])


def test_beating_a_strong_computer_counts_more_than_beating_a_weak_one() -> None:
    current: dict[str, RatingRow] = {}
    for _ in range(6):  # «Сильный» beat Бориса six times, «Лёгкий» lost to him six times
        for level, boris_place in (("strong", 2), ("easy", 1)):
            rows, _ = rate(current, [Entrant(COMPUTER + level, "🤖", 3 - boris_place, True),
                                     Entrant("20", "Борис", boris_place)])
            current.update((r.player, r) for r in rows)
    assert shown(current["bot:strong"].mu, current["bot:strong"].sigma) > shown(current["bot:easy"].mu,
                                                                               current["bot:easy"].sigma)
    gains = {}
    for level in ("strong", "easy"):
        _, changes = rate(current, [Entrant("10", "Аня", 1), Entrant(COMPUTER + level, "🤖", 2, True)])
        gains[level] = changes[0].delta
    assert gains["strong"] > gains["easy"] > 0


# storage, on SQLite and PostgreSQL ---------------------------------------------------------------


async def played(store: Store, games: list[tuple[tuple[Seat, ...], dict[str, Any]]], chat: int = CHAT,
                 code: str = "sosedi") -> list[int]:
    ids = []
    for seats, result in games:
        ids.append(await started(store, tuple(replace(s, seat=i) for i, s in enumerate(seats)), chat, code))
        await finish(store, ids[-1], result)
    return ids


SEASON = [((ANYA, BORIS, VERA), {"kind": "win", "winners": [0]}),
          ((ANYA, BORIS, KESHA), {"kind": "win", "winners": [2]}),
          ((BORIS, VERA), {"kind": "draw", "winners": []}),
          ((ANYA, BORIS, VERA, GLEB), {"kind": "lose", "winners": [], "losers": [3]}),
          ((VERA, BORIS), {"kind": "win", "winners": [0]})]


async def test_play_rates_each_finished_game_once_in_order_and_a_rebuild_gives_the_same(database: str) -> None:
    store = await open_store(database)
    try:
        ratings = ratings_of(store)
        shown_after: list[list[Any]] = []
        for game in SEASON:  # each result message rates its game
            (game_id,) = await played(store, [game])
            assert await ratings.catch_up(CHAT) == 1
            shown_after.append([c.to_json() for c in await ratings.changes(game_id)])
        assert await ratings.catch_up(CHAT) == 0 and await store.unrated_games() == []
        assert [len(c) for c in shown_after] == [3, 3, 2, 4, 2]  # Кеша plays as «bot:medium»
        assert any(c["player"] == "bot:medium" and c["computer"] for c in shown_after[1])
        stored = await store.ratings(CHAT, "sosedi")
        assert {r.player: r.games for r in stored} == {"10": 3, "20": 5, "30": 4, "40": 1, "bot:medium": 1}
        # the last game's «before» is what the one before it left
        vera = {r.player: r for r in stored}["30"]
        assert shown_after[-1][0]["after"] == shown(vera.mu, vera.sigma)

        assert await rebuild(ratings) == len(SEASON)
        assert await store.ratings(CHAT, "sosedi") == stored
        game_ids = [g.id for g in await store.past_games(CHAT, 10)][::-1]
        assert [[c.to_json() for c in await ratings.changes(g)] for g in game_ids] == shown_after
    finally:
        await store.close()


async def test_a_game_is_marked_rated_once_and_its_chats_and_games_stay_apart(database: str) -> None:
    store = await open_store(database)
    try:
        (first,) = await played(store, [SEASON[0]])
        await played(store, [SEASON[0]], chat=CHAT - 1)
        await played(store, [SEASON[0]], code="spichki")
        game = await store.game(first)
        assert game is not None
        assert await store.rating_changes(first) is None
        assert await store.save_ratings(game, [RatingRow("10", "Аня", 30.0, 7.0, 1)], [{"player": "10"}])
        # a second rating of the same game (another catch-up got there first) writes nothing
        assert not await store.save_ratings(game, [RatingRow("10", "Аня", 1.0, 1.0, 9)], [])
        assert await store.ratings(CHAT, "sosedi") == [RatingRow("10", "Аня", 30.0, 7.0, 1)]
        assert await store.rating_changes(first) == [{"player": "10"}]
        assert [g.chat_id for g in await store.unrated_games()] == [CHAT - 1, CHAT]
        assert [g.code for g in await store.unrated_games(CHAT)] == ["spichki"]
        await ratings_of(store).catch_up()
        assert {r.player for r in await store.ratings(CHAT - 1, "sosedi")} == {"10", "20", "30"}
        assert len(await store.ratings(CHAT, "spichki")) == 3 and await store.ratings(CHAT, "ludo") == []
        await store.clear_ratings()
        assert await store.ratings(CHAT, "sosedi") == [] and len(await store.unrated_games()) == 3
    finally:
        await store.close()


async def test_a_chat_migration_takes_its_ratings_along_or_rates_both_chats_anew(database: str) -> None:
    old, new, other = -4011, -1000000004011, -1000000005011
    store = await open_store(database)
    try:
        ratings = ratings_of(store)
        await played(store, SEASON[:2], chat=old)
        await ratings.catch_up()
        before = await store.ratings(old, "sosedi")
        assert await store.migrate_chat(old, new)
        assert await store.ratings(old, "sosedi") == [] and await store.ratings(new, "sosedi") == before
        assert await store.unrated_games() == []
        # the new chat rated games of its own before the old one's arrived: both are rated again, in order
        await played(store, SEASON[:1], chat=other)
        await ratings.catch_up()
        await played(store, SEASON[2:3], chat=new)
        assert await store.migrate_chat(new, other)
        assert await store.ratings(other, "sosedi") == [] and len(await store.unrated_games()) == 4
        assert await ratings.catch_up() == 4
        merged = await store.ratings(other, "sosedi")
        assert await rebuild(ratings) == 4 and await store.ratings(other, "sosedi") == merged
    finally:
        await store.close()


# games played before ratings existed ---------------------------------------------------------------


async def test_migration_9_and_the_start_up_catch_up_rate_the_games_played_before(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    await played(store, SEASON)
    played_now = ratings_of(store)
    await played_now.catch_up()
    expected = await store.ratings(CHAT, "sosedi")
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as old, old:  # the schema before ratings (version 8)
        old.executescript("ALTER TABLE results DROP COLUMN pub; "
                          "DROP TABLE handled_updates; DROP TABLE replays; DROP TABLE rated_games; DROP TABLE ratings; "
                          "DELETE FROM schema_version WHERE version > 8")
    store = await SQLiteStore.open(path)
    try:
        assert await store.schema_version() == 12
        assert await store.ratings(CHAT, "sosedi") == [] and len(await store.unrated_games()) == len(SEASON)
        flow = GameFlow.__new__(GameFlow)  # only what start-up's rating needs
        flow.ratings = ratings_of(store)
        assert await flow.rate_unrated() == len(SEASON)
        assert await store.ratings(CHAT, "sosedi") == expected
    finally:
        await store.close()


def rebuild_command(folder: Path, database: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot.ratings", "--rebuild", "--database", database], cwd=folder,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                          timeout=60, check=False)


def test_the_rebuild_command_refuses_a_database_that_is_not_there(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "bot.sqlite3"
    run = rebuild_command(tmp_path, str(missing))
    assert (run.returncode, run.stdout) == (1, "") and "no such database" in run.stderr
    assert not missing.parent.exists()  # nothing was created
    run = rebuild_command(tmp_path, "mysql://db/x")
    assert run.returncode == 2 and "unknown scheme" in run.stderr


def test_the_rebuild_command_recomputes_every_rating(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"

    async def season() -> list[RatingRow]:
        store = await SQLiteStore.open(path)
        await played(store, SEASON)
        await ratings_of(store).catch_up()
        await store.connection.execute("UPDATE ratings SET mu = 0")  # spoilt: the rebuild mends it
        await store.connection.commit()
        rows = await store.ratings(CHAT, "sosedi")
        await store.close()
        return rows

    spoilt = asyncio.run(season())
    run = rebuild_command(tmp_path, f"sqlite:///{path}")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "Рейтинги пересчитаны по 5 играм · ratings rebuilt from 5 games"

    async def after() -> list[RatingRow]:
        store = await SQLiteStore.open(path)
        try:
            return await store.ratings(CHAT, "sosedi")
        finally:
            await store.close()

    mended = asyncio.run(after())
    assert [r.player for r in mended] == [r.player for r in spoilt] and all(r.mu > 0 for r in mended)
