"""Pub rounds («наоборот», «Башня») as a pub plays them: not paying is the win, and a computer never
buys the round (docs/rules/sosedi.md, «Pub rounds"), in /stats, /top, /tally and the result."""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from bot.stats import ranking, stats_text, top_text
from bot.store import GameTotals, PlayerTotals, SQLiteStore, Store, open_store
from engines.sosedi import ENGINE, SosediOptions
from locales import Translator
from tests.bot_harness import CHAT_ID, BotRunner, World, current_player_name
from tests.stats_steps import ANYA, BORIS, CHAT, KESHA, VERA, finish, started

FIRST_SEED = 1  # game 1 («наоборот», three seats): seat 3 is left with no chips; game 2: seat 1


def loser_of(seed: int, mode: str, seats: int = 3) -> int:
    """Who pays the round of this seed: the rolls are the whole game, so the engine alone says it."""
    state, _ = ENGINE.new_game(SosediOptions(mode=mode), seats, f"{seed:064x}")
    while not state.finished:
        state, _, _ = ENGINE.apply(state, "r")
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    return outcome.losers[0]


@pytest.fixture
def tr() -> Any:
    translator = Translator.load(strict=True)
    return lambda key, **args: translator.t("ru", key, **args)


pytestmark = pytest.mark.world(first_seed=FIRST_SEED)  # group_world's arguments (tests/conftest.py)


async def pub_lobby_with_a_computer(runner: BotRunner, users: dict[str, FakeUser]) -> StoredMessage:
    """Аня opens «Помоги своему соседу» in «наоборот», Борис joins, and a computer takes seat 3."""
    await runner.say(users["anya"], "/newgame")
    await runner.press(users["anya"], runner.tg.last_bot_message(CHAT_ID), "Помоги своему соседу")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Вариант: классика")
    assert "Вариант: наоборот" in lobby.caption and "не платит" not in lobby.caption
    await runner.press(users["anya"], lobby, "🤖 Добавить бота")
    return lobby


async def roll_to_end(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage) -> StoredMessage:
    """The people roll whenever the caption names one of them; the result message."""
    by_name = {u.first_name: u for u in users.values()}
    for _ in range(500):
        if not any(label.startswith("🎲") for label, _ in table.buttons):
            return runner.tg.last_bot_message(CHAT_ID)
        await runner.press(by_name[current_player_name(table.caption)], table, "🎲")
    raise AssertionError("the round never ended")


async def said(runner: BotRunner, user: FakeUser, command: str) -> str:
    await runner.say(user, command)
    message = runner.tg.last_bot_message(CHAT_ID)
    return message.text or message.caption or ""


async def test_a_computer_left_holding_buys_nothing_and_the_round_is_everyones_win(world: World) -> None:
    _, runner, users = world
    assert loser_of(FIRST_SEED, "reverse") == 2 and loser_of(FIRST_SEED + 1, "reverse") == 0
    lobby = await pub_lobby_with_a_computer(runner, users)
    assert "🍺 Компьютер за столом не платит: проиграет он — раунд никто не ставит." in lobby.caption
    await runner.press(users["anya"], lobby, "Начать")
    result = await roll_to_end(runner, users, runner.table())
    assert result.text is not None and "Проигрывает 🤖 " in result.text and "раунд никто не ставит" in result.text
    assert "проставляется" not in result.text and "Счёт раундов" not in result.text
    assert "Пока никто не проставлялся" in await said(runner, users["anya"], "/tally")
    stats = await said(runner, users["anya"], "/stats")
    assert "1 партия, 1 победа (100%) · 🍺 не платил 1 из 1" in stats
    history = await said(runner, users["boris"], "/history")
    assert "🍺 проиграл 🤖 " in history and "— раунд никто не ставил" in history and "проставляется" not in history

    await runner.press(users["anya"], result, "Ещё раунд")  # the host's press: the next round at once
    result = await roll_to_end(runner, users, runner.table())
    assert result.text is not None and "🍺 Аня платит" in result.text
    tally = await said(runner, users["boris"], "/tally")
    assert "Аня — 1 раунд" in tally and "🤖" not in tally
    assert "2 партии, 1 победа (50%) · 🍺 не платил 1 из 2, платил 1 раз" in await said(runner, users["anya"], "/stats")
    assert "2 партии, 2 победы (100%) · 🍺 не платил 2 из 2" in await said(runner, users["boris"], "/stats")
    assert "🍺 проставляется Аня" in await said(runner, users["boris"], "/history")


async def pub_round(store: Store, payer: Any) -> None:
    """A «наоборот» round of Аня, Борис and Вера that ``payer`` paid, stored as the bot stores it."""
    game = await started(store, (ANYA, BORIS, VERA))
    others = [s.seat for s in (ANYA, BORIS, VERA) if s != payer]
    await finish(store, game, {"kind": "lose", "winners": others, "losers": [payer.seat]}, payer=payer)


async def test_top_of_the_game_says_pub_rounds_in_the_pubs_words_and_all_games_count_them(
        database: str, tr: Any) -> None:
    store = await open_store(database)  # on both databases: PostgreSQL marks a pub round by its own trigger
    try:
        for payer in (VERA, VERA, BORIS):
            await pub_round(store, payer)
        classic = await started(store, (ANYA, BORIS, KESHA))
        await finish(store, classic, {"kind": "win", "winners": [1], "losers": []})
        board = top_text(ranking(await store.player_totals(CHAT, "sosedi"), ratings={}), "Соседи", tr)
        assert "Аня — <b>1\xa0000</b> · 3 победы из 4 (75%) · 🍺 не платил 3 из 3" in board
        assert "Вера — <b>1\xa0000</b> · 1 победа из 3 (33%) · 🍺 не платил 1 из 3, платил 2 раза" in board
        everyone = await store.player_totals(CHAT)
        assert {(p.name, p.wins, p.games) for p in everyone} == {("Аня", 3, 4), ("Борис", 3, 4), ("Вера", 1, 3)}
        all_games = top_text(ranking(everyone), "все игры", tr)
        assert "не платил" not in all_games and "1. Аня — 3 победы из 4 партий" in all_games
        assert await store.pub_tally(CHAT) and all(t.user_id > 0 for t in await store.pub_tally(CHAT))
    finally:
        await store.close()


def test_stats_of_a_game_without_pub_rounds_say_nothing_of_paying(tr: Any) -> None:
    text = stats_text("Аня", [GameTotals("ludo", 2, 1)], {"ludo": "Людо"}, tr)
    assert "Людо: 2 партии, 1 победа (50%)" in text and "плат" not in text
    assert PlayerTotals(1, "Аня", 2, 1).pub == 0


async def test_migration_12_credits_the_rounds_before_it_and_takes_the_computer_off_the_tally(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    game = await started(store)  # Аня, Борис and 🤖 Кеша: the computer was left holding, and «paid» then
    await finish(store, game, {"kind": "lose", "losers": [2]}, payer=KESHA)
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as old:  # as schema 11 stored it
        old.executescript("UPDATE results SET won = 0; ALTER TABLE results DROP COLUMN pub; "
                          "DELETE FROM schema_version WHERE version > 11")
        assert old.execute("SELECT user_id FROM pub_tally").fetchall() == [(-1,)]
    store = await SQLiteStore.open(path)
    try:
        assert await store.pub_tally(CHAT) == []
        assert await store.user_totals(CHAT, ANYA.user_id) == [GameTotals("sosedi", 1, 1, pub=1, paid=0)]
        assert await store.user_totals(CHAT, BORIS.user_id) == [GameTotals("sosedi", 1, 1, pub=1, paid=0)]
    finally:
        await store.close()
