"""Old databases still open: a database of every schema version, written by the bot's code as it was
at that version (tests/fixtures/make_fixtures.py, run once), opened with today's code.

Each fixture holds a finished «наоборот» (a pub round paid; its results, rating and replay clip where
the version had them), running games («соседи», from schema 2 on with a seat a computer player took
from a person who left; one against a computer player; one in a forum topic from schema 7 on), a
stopped game, open lobbies, and chats' language and settings; its JSON holds the rows as that version
stored them. Opened (a copy: the fixtures are never changed), every game must read back as stored,
replay from its action log and play on, and the chats, pub tallies, results, ratings, clips and
handled updates must read back; and today's bot, started on the oldest and the newest, plays on at a
press on a table and starts an old lobby.
"""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot import app
from bot.fake_telegram import FakeTelegram
from bot.games import GAMES
from bot.ratings import ratings_of
from bot.store import GameRow, GameTotals, Move, NewAction, Seat, SQLiteStore, Store, open_store
from bot.store.sqlite_dialect import MIGRATIONS
from tests.bot_harness import (
    USERS,
    BotRunner,
    assert_replays,
    assert_replays_in,
    current_player_name,
    flow_of,
    game_id_of,
)

FIXTURES = Path(__file__).parent / "fixtures"
VERSIONS = sorted(int(path.stem.removeprefix("schema-")) for path in FIXTURES.glob("schema-*.sqlite3"))
Manifest = dict[str, Any]


def manifest_of(version: int) -> Manifest:
    """What the fixture of ``version`` holds, as that version's code stored it."""
    manifest: Manifest = json.loads((FIXTURES / f"schema-{version:02d}.json").read_text())
    return manifest


@pytest.fixture(params=VERSIONS, ids=lambda version: f"schema-{version:02d}")
async def old(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[SQLiteStore, Manifest]]:
    """A copy of one fixture opened (so migrated) by today's code, and what it held."""
    copy = tmp_path / "bot.sqlite3"
    shutil.copyfile(FIXTURES / f"schema-{request.param:02d}.sqlite3", copy)
    store = await SQLiteStore.open(copy)
    try:
        yield store, manifest_of(request.param)
    finally:
        await store.close()


def games(manifest: Manifest, *statuses: str) -> list[dict[str, Any]]:
    return [g for g in manifest["games"] if g["status"] in statuses]


def seats_of(manifest: Manifest, game_id: int) -> tuple[Seat, ...]:
    """The game's seats as stored; the columns a version did not have yet read back as None."""
    return tuple(Seat(s["seat"], s["user_id"], s["name"], s.get("left_user_id"), s.get("left_name"), s.get("left_at"))
                 for s in manifest["seats"] if s["game_id"] == game_id)


def as_migrated(manifest: Manifest, row: dict[str, Any]) -> GameTotals:
    """A results row's totals once migration 12 ran: a pub round («lose») is marked as one, and not
    paying it is its win for a person still seated at its end."""
    if "pub" in row:  # written by a version that had the column
        return GameTotals(row["code"], 1, row["won"], row["pub"], row["paid"])
    game = next(g for g in manifest["games"] if g["id"] == row["game_id"])
    pub = int(game["result"]["kind"] == "lose")
    seated = any(s.user_id == row["user_id"] for s in seats_of(manifest, game["id"]))
    return GameTotals(row["code"], 1, int(row["won"] or (pub and not row["paid"] and seated)), pub, row["paid"])


def active_at(stored: dict[str, Any]) -> float:
    """When a person last acted in the game: a version before schema 6 did not keep it, and migration 6
    counts an active game's last change (its lobby's, always)."""
    acted = stored.get("acted_at")
    return float(stored["updated_at"] if stored["status"] == "lobby" or acted is None else acted)


def results_of(manifest: Manifest) -> list[dict[str, Any]]:
    """The results rows as stored, or (before schema 4) as migration 4 fills them in from the finished
    games: every person seated played; a «win» result's winners won; a «lose» one's first loser paid."""
    if "results" in manifest:
        return list(manifest["results"])
    filled = []
    for game in games(manifest, "finished"):
        result = game["result"]
        for seat in seats_of(manifest, game["id"]):
            if seat.user_id > 0:
                filled.append({"game_id": game["id"], "chat_id": game["chat_id"], "code": game["code"],
                               "user_id": seat.user_id, "name": seat.name,
                               "won": int(result["kind"] == "win" and seat.seat in result["winners"]),
                               "paid": int(result["kind"] == "lose" and result["losers"][:1] == [seat.seat])})
    return filled


async def play_on(store: SQLiteStore, game: GameRow) -> GameRow:
    """The engine's first legal action in ``game``, saved through the store as a person's press; the game
    read back."""
    engine = GAMES[game.code].engine
    assert game.state is not None
    state = engine.state_from_json(game.state)
    action = engine.legal_actions(state)[0]
    after, events, entry = engine.apply(state, action.code)
    outcome = engine.outcome(after)
    await store.save_move(Move(game.id, game.version, after.to_json(), after.version,
                               [NewAction(entry.seat, entry.code, entry.dice, [e.to_json() for e in events])],
                               status="finished" if outcome else "running",
                               result=outcome.to_json() if outcome else None, by_person=True))
    played = await store.game(game.id)
    assert played is not None
    return played


def test_a_fixture_of_every_schema_version_and_each_still_as_made() -> None:
    assert list(range(1, len(MIGRATIONS) + 1)) == VERSIONS, (
        "a new schema version needs its fixture: tests/fixtures/make_fixtures.py says how")
    for version in VERSIONS:
        manifest = manifest_of(version)
        uri = f"file:{FIXTURES / f'schema-{version:02d}.sqlite3'}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True)) as conn:
            stored = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()[0]
            ids = [row[0] for row in conn.execute("SELECT id FROM games ORDER BY id")]
        assert stored == manifest["schema_version"] == version  # never migrated in place
        assert ids == [g["id"] for g in manifest["games"]]
        assert {g["status"] for g in manifest["games"]} == {"finished", "running", "stopped", "lobby"}


async def test_opens_at_todays_schema(old: tuple[SQLiteStore, Manifest]) -> None:
    store, _ = old
    assert await store.schema_version() == len(MIGRATIONS)


async def test_every_game_reads_back_as_stored_and_replays_from_its_log(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    for stored in manifest["games"]:
        game = await store.game(stored["id"])
        assert game is not None and game.unreadable == "", stored["note"]
        assert (game.chat_id, game.thread_id, game.code, game.status, game.host_id, game.seed) == (
            stored["chat_id"], stored.get("thread_id", 0), stored["code"], stored["status"], stored["host_id"],
            stored["seed"])
        assert (game.version, game.shown_version, game.message_id) == (
            stored["version"], stored["shown_version"], stored["message_id"])
        assert (game.options, game.state, game.result) == (stored["options"], stored["state"], stored["result"])
        assert (game.deadline, game.timeouts, game.paused, game.next_seed) == (
            stored.get("deadline"), stored.get("timeouts", {}), bool(stored.get("paused")), stored.get("next_seed"))
        assert game.active_at == active_at(stored)
        assert game.seats == seats_of(manifest, game.id)
        assert len(await store.actions(game.id)) == stored["actions"]
        if game.state is not None:
            await assert_replays_in(store, game.id)


async def test_every_running_game_plays_on_and_still_replays(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    running = games(manifest, "running")
    assert len(running) >= 3
    for stored in running:
        game = await store.game(stored["id"])
        assert game is not None
        played = await play_on(store, game)
        assert played.version > game.version and played.seats == game.seats, stored["note"]
        await assert_replays_in(store, game.id)


async def test_a_running_game_played_to_its_end_records_its_results(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    stored = next(g for g in games(manifest, "running") if g["code"] == "sosedi")  # rolls only: it ends
    game = await store.game(stored["id"])
    assert game is not None
    for _ in range(2000):
        if game.status != "running":
            break
        game = await play_on(store, game)
    assert game.status == "finished" and game.result is not None
    await assert_replays_in(store, game.id)
    people = {s.user_id for s in game.seats if s.user_id > 0} | {
        s.left_user_id for s in game.seats if s.left_user_id is not None}
    for user_id in people:
        totals = await store.user_totals(game.chat_id, user_id)
        assert [t.code for t in totals] == ["sosedi"] and totals[0].games == 2  # this one and the one before
    before = games(manifest, "finished")[0]
    assert [g.id for g in await store.past_games(game.chat_id, 10)] == [game.id, before["id"]]


async def test_lobbies_read_back_and_take_a_seat(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    active = games(manifest, "lobby", "running")
    since = min(active_at(g) for g in active)  # the sweep of abandoned games finds each once it is idle
    assert await store.idle_games(since, since) == []
    later = max(active_at(g) for g in active) + 1
    assert [g.id for g in await store.idle_games(later, later)] == [g["id"] for g in active]
    for stored in games(manifest, "lobby"):
        lobby = await store.active_game(stored["chat_id"], stored.get("thread_id", 0))
        assert lobby is not None and lobby.id == stored["id"] and lobby.status == "lobby", stored["note"]
        seats = [(s.user_id, s.name) for s in lobby.seats]
        await store.set_lobby(lobby.id, [*seats, (4, "Глеб")], lobby.host_id, lobby.options)
        again = await store.game(lobby.id)
        assert again is not None and [(s.user_id, s.name) for s in again.seats] == [*seats, (4, "Глеб")]
    for stored in games(manifest, "running"):
        game = await store.active_game(stored["chat_id"], stored.get("thread_id", 0))
        assert game is not None and game.id == stored["id"]


async def test_chats_pub_tallies_and_results_read_back(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    for stored in manifest["chats"]:
        chat = await store.chat(stored["chat_id"])
        assert (chat.locale, dict(chat.settings)) == (stored["locale"], stored["settings"])
    chats = {g["chat_id"] for g in manifest["games"]}
    for chat_id in chats:
        tally = [(t["user_id"], t["name"], t["rounds"]) for t in manifest["pub_tally"]  # no computer: migration 12
                 if t["chat_id"] == chat_id and t["user_id"] > 0]
        assert [(row.user_id, row.name, row.rounds) for row in await store.pub_tally(chat_id)] == tally
    results = results_of(manifest)
    assert results and any(r["paid"] for r in results)
    for row in results:
        totals = await store.user_totals(row["chat_id"], row["user_id"])
        assert totals == [as_migrated(manifest, row)]
        assert await store.pub_rounds(row["chat_id"], row["user_id"]) == row["paid"]
    finished = games(manifest, "finished", "stopped")
    past = await store.past_games(finished[0]["chat_id"], 10)
    assert [(p.id, p.status, p.result) for p in past] == [(g["id"], g["status"], g["result"]) for g in finished
                                                          if g["chat_id"] == finished[0]["chat_id"]]


async def test_ratings_read_back_or_are_caught_up(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    finished = games(manifest, "finished")
    if "ratings" not in manifest:  # rated by the catch-up the bot runs when it starts
        assert [g.id for g in await store.unrated_games()] == [g["id"] for g in finished]
        assert await ratings_of(store).catch_up() == len(finished)
    assert await store.unrated_games() == []
    for stored in manifest.get("ratings", []):
        rows = {r.player: r for r in await store.ratings(stored["chat_id"], stored["code"])}
        rating = rows[stored["player"]]
        assert (rating.name, rating.mu, rating.sigma, rating.games) == (
            stored["name"], stored["mu"], stored["sigma"], stored["games"])
    for stored in manifest.get("rated_games", []):
        assert await store.rating_changes(stored["game_id"]) == json.loads(stored["changes"])
    for game in finished:
        assert await store.rating_changes(game["id"])


async def test_replay_clips_and_handled_updates_read_back(old: tuple[SQLiteStore, Manifest]) -> None:
    store, manifest = old
    for game in games(manifest, "finished"):
        clips = [r["file_id"] for r in manifest.get("replays", []) if r["game_id"] == game["id"]]
        assert await store.replay_file(game["id"]) == (clips[0] if clips else None)
    updates = [u["update_id"] for u in manifest.get("handled_updates", [])]
    assert await store.latest_update() == max(updates, default=0)
    for update_id in updates:
        assert await store.update_handled(update_id)
    assert not await store.update_handled(max(updates, default=0) + 1)


def opened_when_made(manifest: Manifest) -> Callable[[str], Awaitable[Store]]:
    """The bot's ``open_store``, its clock set going from just after the fixture's last change: its
    turn timers and the sweep of abandoned games count as if the bot were restarted then, not months on
    (which plays every timed turn out, and stops every game, at start-up)."""
    made = max(g["updated_at"] for g in manifest["games"]) + 1

    async def opened(database: str) -> Store:
        store = await open_store(database)
        started = time.time()
        store.clock = lambda: made + time.time() - started
        return store

    return opened


# what this fake server answers for the old tables' messages, which only the fixture's own server had
GONE = re.compile(r"^(deleteMessage|editMessageReplyMarkup|editMessageMedia|editMessageCaption): "
                  r"Bad Request: message to (delete|edit) not found ")


@pytest.mark.parametrize("version", [VERSIONS[0], VERSIONS[-1]], ids=lambda version: f"schema-{version:02d}")
async def test_todays_bot_starts_on_it_plays_on_at_a_press_and_starts_a_lobby(
        version: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = manifest_of(version)
    monkeypatch.setattr(app, "open_store", opened_when_made(manifest))
    path = tmp_path / "data" / "bot.sqlite3"
    path.parent.mkdir()
    shutil.copyfile(FIXTURES / f"schema-{version:02d}.sqlite3", path)
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        users = {key: tg.add_user(i + 1, name) for i, (key, name) in enumerate(list(USERS.items())[:3])}
        forums = {g["chat_id"] for g in manifest["games"] if g.get("thread_id")}
        for chat_id in sorted({g["chat_id"] for g in manifest["games"]}):
            tg.add_chat(chat_id, "supergroup", "Пятничный клуб", creator=1, is_forum=chat_id in forums)
        # Telegram numbers the updates on from those the old bot handled
        tg.restart_update_ids(max((u["update_id"] for u in manifest.get("handled_updates", [])), default=0) + 1)
        stored = next(g for g in games(manifest, "running") if g["code"] == "sosedi")
        runner = BotRunner(tg, path, chat_id=stored["chat_id"])
        await runner.start()
        try:
            assert await flow_of(runner).store.unrated_games() == []  # the start-up's catch-up rated them
            await runner.say(users["anya"], "/table")  # the table posted afresh
            table = runner.table()
            assert game_id_of(table) == stored["id"]
            mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption or ""))
            answer = await runner.press(mover, table, "🎲")
            assert answer["text"].startswith("🎲 ")
            game = await flow_of(runner).store.game(stored["id"])
            assert game is not None and game.version > stored["version"]
            await assert_replays(runner, stored["id"])
            lobby = next(g for g in games(manifest, "lobby") if not g.get("thread_id"))
            runner.chat_id = lobby["chat_id"]
            await runner.say(users["anya"], "/table")  # the lobby posted afresh: its host starts it
            await runner.press(users["anya"], runner.table(), "Начать")
            started = await flow_of(runner).store.game(lobby["id"])
            assert started is not None and started.status == "running" and started.options == lobby["options"]
            await assert_replays(runner, lobby["id"])
        finally:
            await runner.stop()
        assert all(GONE.match(v) for v in tg.violations), tg.violations
