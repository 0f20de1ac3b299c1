"""Results: recorded once in the finishing transaction, ranked, and shown by /stats, /top, /history."""

from __future__ import annotations

import contextlib
import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from bot.ratings import shown as rating_number
from bot.stats import (
    Ranked,
    fit_lines,
    history_text,
    percent,
    ranking,
    stats_text,
    top_text,
    when,
)
from bot.store import (
    GameTotals,
    PastGame,
    PlayerTotals,
    RatingRow,
    Seat,
    SQLiteStore,
    StaleVersionError,
    StorageError,
    Store,
)
from bot.store.sqlite_dialect import MIGRATIONS
from bot.texts import CAPTION_LIMIT, visible_length
from locales import Translator
from tests.bot_harness import CHAT_ID, BotRunner, group_world
from tests.sosedi_steps import play_to_end
from tests.stats_steps import ANYA, BORIS, CHAT, VERA, finish, started


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    store = await SQLiteStore.open(tmp_path / "bot.sqlite3")
    yield store
    await store.close()


@pytest.fixture(scope="module")
def tr() -> Any:
    translator = Translator.load(strict=True)
    return lambda key, /, **args: translator.t("ru", key, **args)


async def results(store: Store, game_id: int | None = None) -> list[tuple[Any, ...]]:
    """The stored results rows (game, chat, code, user, name, won, paid), in a fixed order."""
    assert isinstance(store, SQLiteStore)
    rows = await store.connection.execute_fetchall(
        "SELECT game_id, chat_id, code, user_id, name, won, paid FROM results "
        "WHERE ? IS NULL OR game_id = ? ORDER BY game_id, user_id", (game_id, game_id))
    return [tuple(r) for r in rows]


# storage -----------------------------------------------------------------------


async def test_a_finished_game_records_one_row_per_person_once(store: Store) -> None:
    game_id = await started(store)
    assert await results(store) == []  # a running game has no results
    await finish(store, game_id, {"kind": "win", "winners": [1], "losers": [], "ranking": [1, 0, 2]})
    expected = [(game_id, CHAT, "sosedi", 10, "Аня", 0, 0), (game_id, CHAT, "sosedi", 20, "Борис", 1, 0)]
    assert await results(store) == expected  # the computer player (-1) has no row
    with pytest.raises(StaleVersionError):  # the same finishing save again: refused, nothing recorded twice
        await finish(store, game_id, {"kind": "win", "winners": [0]})
    assert await results(store) == expected
    assert await store.user_totals(CHAT, 20) == [GameTotals("sosedi", 1, 1)]
    assert await store.user_totals(CHAT, -1) == []


async def test_results_are_written_in_the_finishing_transaction(store: Store) -> None:
    game_id = await started(store)

    def no_results(action: int, table: str | None, *_: object) -> int:  # SQLite refuses to write them
        return sqlite3.SQLITE_DENY if action == sqlite3.SQLITE_INSERT and table == "results" else sqlite3.SQLITE_OK

    assert isinstance(store, SQLiteStore)
    await store.connection.set_authorizer(no_results)
    with pytest.raises(StorageError):
        await finish(store, game_id, {"kind": "win", "winners": [0]})
    await store.connection.set_authorizer(None)
    game = await store.game(game_id)
    assert game is not None and game.status == "running" and game.version == 1  # the finish rolled back with it
    assert len(await store.actions(game_id)) == 2


async def test_a_stopped_game_records_nothing_but_is_in_the_history(store: Store) -> None:
    game_id = await started(store)
    assert await store.stop_game(game_id, {"kind": "stopped"})
    lobby = await store.create_game(CHAT, "spichki", {}, "00" * 32, ANYA)
    await store.stop_game(lobby.id, {"kind": "cancelled"})  # closed before it began: not a game played
    assert await results(store) == []
    past = await store.past_games(CHAT, 10)
    assert [(g.id, g.status, g.names) for g in past] == [(game_id, "stopped", ("Аня", "Борис", "🤖 Кеша"))]


async def test_a_draw_is_played_not_won(store: Store) -> None:
    game_id = await started(store, (ANYA, BORIS), code="lions")
    await finish(store, game_id, {"kind": "draw", "winners": [0, 1], "losers": [], "ranking": [0, 1]})
    assert [(r[3], r[5], r[6]) for r in await results(store)] == [(10, 0, 0), (20, 0, 0)]
    assert await store.user_totals(CHAT, 10) == [GameTotals("lions", 1, 0)]


async def test_the_pub_payer_paid_and_nobody_won(store: Store) -> None:
    game_id = await started(store, (ANYA, BORIS, VERA))
    await finish(store, game_id, {"kind": "lose", "winners": [], "losers": [1]}, payer=BORIS)
    assert [(r[3], r[5], r[6]) for r in await results(store)] == [(10, 0, 0), (20, 0, 1), (30, 0, 0)]
    assert await store.pub_rounds(CHAT, 20) == 1 and await store.pub_rounds(CHAT, 10) == 0


async def test_a_seat_handed_to_a_bot_in_the_finishing_save_still_counts_for_its_person(store: Store) -> None:
    game_id = await started(store, (ANYA, BORIS, VERA))
    await finish(store, game_id, {"kind": "win", "winners": [2]}, new_seat=Seat(2, -1, "🤖 Вера"))
    # Вера timed out for good and the bot won her seat: she played it and did not win it
    assert [(r[3], r[4], r[5]) for r in await results(store)] == [(10, "Аня", 0), (20, "Борис", 0), (30, "Вера", 0)]


async def test_leaving_a_losing_game_does_not_erase_it_from_the_stats(store: Store) -> None:
    game_id = await started(store, (ANYA, BORIS))
    assert await store.hand_seat(game_id, Seat(1, -1, "🤖 вместо Бориса"))  # /leave, /kick or timeouts
    assert await store.hand_seat(game_id, Seat(1, -2, "🤖 другой"))  # a second hand-over keeps the person
    await finish(store, game_id, {"kind": "win", "winners": [0]})
    assert await store.user_totals(CHAT, 20) == [GameTotals("sosedi", 1, 0)]
    assert await store.player_totals(CHAT) == [PlayerTotals(10, "Аня", 1, 1), PlayerTotals(20, "Борис", 1, 0)]


async def test_the_pub_rounds_in_stats_survive_a_tally_reset(store: Store) -> None:
    game_id = await started(store, (ANYA, BORIS))
    await finish(store, game_id, {"kind": "lose", "winners": [], "losers": [0]}, payer=ANYA)
    await store.reset_pub_tally(CHAT)
    assert await store.pub_tally(CHAT) == [] and await store.pub_rounds(CHAT, 10) == 1


async def test_totals_per_game_and_the_latest_name(store: Store) -> None:
    for code, winner in (("sosedi", 0), ("sosedi", 1), ("spichki", 0)):
        await finish(store, await started(store, (ANYA, BORIS), code=code), {"kind": "win", "winners": [winner]})
    renamed = Seat(0, 10, "Анна")
    await finish(store, await started(store, (renamed, BORIS), code="spichki"), {"kind": "win", "winners": [1]})
    assert await store.user_totals(CHAT, 10) == [GameTotals("sosedi", 2, 1), GameTotals("spichki", 2, 1)]
    assert await store.player_totals(CHAT) == [PlayerTotals(10, "Анна", 4, 2), PlayerTotals(20, "Борис", 4, 2)]
    assert await store.player_totals(CHAT, "spichki") == [PlayerTotals(10, "Анна", 2, 1),
                                                         PlayerTotals(20, "Борис", 2, 1)]
    assert await store.player_totals(CHAT, "ludo") == [] and await store.player_totals(CHAT - 1) == []


async def test_a_chat_migration_moves_the_results(store: Store) -> None:
    old, new = -4011, -1000000004011
    await finish(store, await started(store, (ANYA, BORIS), chat=old), {"kind": "win", "winners": [0]})
    await finish(store, await started(store, (ANYA, BORIS), chat=new), {"kind": "win", "winners": [1]})
    assert await store.migrate_chat(old, new)
    assert await store.user_totals(old, 10) == [] and await store.player_totals(old) == []
    assert await store.player_totals(new) == [PlayerTotals(10, "Аня", 2, 1), PlayerTotals(20, "Борис", 2, 1)]
    assert len(await store.past_games(new, 10)) == 2


async def test_migration_4_fills_in_games_finished_before_it(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await SQLiteStore.open(path)
    won = await started(store)
    await finish(store, won, {"kind": "win", "winners": [1], "losers": [0]})
    paid = await started(store, (ANYA, BORIS, VERA))
    await finish(store, paid, {"kind": "lose", "winners": [], "losers": [2]}, payer=VERA)
    drawn = await started(store, (ANYA, BORIS))
    await finish(store, drawn, {"kind": "draw", "winners": [0, 1]})
    await store.stop_game(await started(store), {"kind": "stopped"})
    await store.close()
    with contextlib.closing(sqlite3.connect(path)) as old:  # the schema before results (version 3)
        old.executescript("DROP TABLE results; DROP INDEX games_chat; ALTER TABLE seats DROP COLUMN left_user_id; "
                          "ALTER TABLE seats DROP COLUMN left_name; ALTER TABLE seats DROP COLUMN left_at; "
                          "ALTER TABLE games DROP COLUMN next_seed; "
                          "DROP INDEX games_one_active; ALTER TABLE games DROP COLUMN thread_id; "
                          "CREATE UNIQUE INDEX games_one_active ON games(chat_id) "
                          "WHERE status IN ('lobby', 'running'); "
                          "DROP INDEX games_active_since; ALTER TABLE games DROP COLUMN acted_at; "
                          "DROP TABLE handled_updates; DROP TABLE replays; DROP TABLE rated_games; DROP TABLE ratings; "
                          "DELETE FROM schema_version WHERE version > 3")
    store = await SQLiteStore.open(path)
    assert await store.schema_version() == len(MIGRATIONS)
    assert [(r[0], r[3], r[5], r[6]) for r in await results(store)] == [
        (won, 10, 0, 0), (won, 20, 1, 0),
        (paid, 10, 1, 0), (paid, 20, 1, 0), (paid, 30, 0, 1),  # and migration 12: not paying is the win
        (drawn, 10, 0, 0), (drawn, 20, 0, 0),
    ]
    await store.close()


# ranking -----------------------------------------------------------------------


def player(user_id: int, name: str, games: int, wins: int) -> PlayerTotals:
    return PlayerTotals(user_id, name, games, wins)


def places(ranked: list[Ranked]) -> list[tuple[int, str]]:
    return [(r.place, r.player.name) for r in ranked]


def test_ranking_orders_by_wins_then_rate_then_games() -> None:
    players = [player(1, "Аня", 10, 3), player(2, "Борис", 4, 3), player(3, "Вера", 8, 5),
               player(4, "Глеб", 6, 0), player(5, "Дима", 3, 0), player(6, "Женя", 9, 3)]
    # Вера most wins; Борис, Женя, Аня 3 wins each: Борис the best rate, then Женя (3/9) over Аня (3/10);
    # Глеб and Дима none: 0 % both, Глеб more games
    assert places(ranking(players)) == [(1, "Вера"), (2, "Борис"), (3, "Женя"), (4, "Аня"), (5, "Глеб"),
                                        (6, "Дима")]


def test_equal_players_share_a_place_and_names_only_keep_it_stable() -> None:
    players = [player(3, "Вера", 5, 2), player(2, "Борис", 5, 3), player(1, "аня", 5, 3), player(4, "Глеб", 6, 2)]
    # Аня and Борис equal on all three: both 1st, then 3rd; Вера (2/5) beats Глеб (2/6) on rate
    assert places(ranking(players)) == [(1, "аня"), (1, "Борис"), (3, "Вера"), (4, "Глеб")]
    assert places(ranking(list(reversed(players)))) == places(ranking(players))  # the input order does not matter


def test_ranking_needs_three_games_and_keeps_ten() -> None:
    players = [player(i, f"P{i:02}", 3 + i % 2, 20 - i) for i in range(1, 15)]
    players += [player(99, "Новичок", 2, 2), player(98, "Никто", 0, 0)]
    ranked = ranking(players)
    assert len(ranked) == 10 and "Новичок" not in {r.player.name for r in ranked}
    assert places(ranked)[0] == (1, "P01") and places(ranked)[-1] == (10, "P10")
    tied = [player(i, f"P{i:02}", 3, 1) for i in range(12)]
    assert {r.place for r in ranking(tied)} == {1} and len(ranking(tied)) == 10
    assert ranking(players, min_games=5) == []


def test_a_games_board_ranks_by_rating_before_wins() -> None:
    players = [player(1, "Аня", 10, 6), player(2, "Борис", 10, 2), player(3, "Вера", 4, 1), player(4, "Глеб", 8, 8)]
    ratings = {"1": RatingRow("1", "Аня", 25.0, 8.0, 10),     # μ − 3σ = 1: 1 020
               "2": RatingRow("2", "Борис", 30.0, 2.0, 10),   # 24: 1 480
               "3": RatingRow("3", "Вера", 27.0, 3.0, 4)}     # 18: 1 360; Глеб not rated yet: 1 000
    # by wins alone: Глеб, Аня, Борис, Вера; by rating (μ − 3σ): Борис, Вера, Аня, Глеб
    assert places(ranking(players)) == [(1, "Глеб"), (2, "Аня"), (3, "Борис"), (4, "Вера")]
    ranked = ranking(players, ratings=ratings)
    assert places(ranked) == [(1, "Борис"), (2, "Вера"), (3, "Аня"), (4, "Глеб")]
    assert [r.rating for r in ranked] == [1480, 1360, 1020, 1000]
    # equal ratings fall back to wins
    even = {key: RatingRow(key, row.name, 25.0, 5.0, 10) for key, row in ratings.items()} | {
        "4": RatingRow("4", "Глеб", 25.0, 5.0, 8)}
    assert places(ranking(players, ratings=even)) == [(1, "Глеб"), (2, "Аня"), (3, "Борис"), (4, "Вера")]


@pytest.mark.parametrize(("wins", "games", "expected"), [(0, 3, 0), (1, 3, 33), (2, 3, 67), (1, 8, 13),
                                                         (1, 200, 1), (3, 3, 100), (0, 0, 0)])
def test_percent_rounds_halves_up(wins: int, games: int, expected: int) -> None:
    assert percent(wins, games) == expected


# texts -------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "games", "wins"), [(1, "1 партия", "1 победа"), (2, "2 партии", "2 победы"),
                                                 (5, "5 партий", "5 побед"), (11, "11 партий", "11 побед"),
                                                 (21, "21 партия", "21 победа")])
def test_russian_plurals_of_stats(tr: Any, n: int, games: str, wins: str) -> None:
    assert tr("stats-line", game="Спички", count=n, wins=n, percent=100) == f"Спички: {games}, {wins} (100%)"


@pytest.mark.parametrize(("n", "text"), [(1, "1 победа из 1 партии"), (2, "2 победы из 2 партий"),
                                         (5, "5 побед из 5 партий"), (11, "11 побед из 11 партий"),
                                         (21, "21 победа из 21 партии")])
def test_russian_plurals_of_top(tr: Any, n: int, text: str) -> None:
    assert tr("top-line", place=1, name="Аня", wins=n, count=n, percent=100) == f"1. Аня — {text} (100%)"


@pytest.mark.parametrize(("n", "word"), [(1, "раз"), (2, "раза"), (5, "раз"), (11, "раз"), (21, "раз"),
                                         (22, "раза")])
def test_russian_plurals_of_rounds_paid(tr: Any, n: int, word: str) -> None:
    assert tr("stats-pub", free=30 - n, rounds=30, paid=n) == f"🍺 не платил {30 - n} из 30, платил {n} {word}"


def test_pub_rounds_never_paid_say_only_that(tr: Any) -> None:
    assert tr("stats-pub", free=4, rounds=4, paid=0) == "🍺 не платил 4 из 4"


@pytest.mark.parametrize(("n", "games", "wins"), [(1, "1 game", "1 win"), (2, "2 games", "2 wins"),
                                                 (5, "5 games", "5 wins"), (21, "21 games", "21 wins")])
def test_english_plurals_of_stats(n: int, games: str, wins: str) -> None:
    en = Translator.load(strict=True)
    assert en.t("en", "stats-line", game="Matches", count=n, wins=n, percent=100) == f"Matches: {games}, {wins} (100%)"
    assert en.t("en", "top-line", place=2, name="Ann", wins=n, count=n, percent=100) == (
        f"2. Ann — {wins} in {games} (100%)")


def test_texts_escape_names(tr: Any) -> None:
    text = stats_text("<b>Аня</b>", [GameTotals("sosedi", 3, 1, pub=3, paid=2)], {"sosedi": "Соседи"}, tr)
    assert "&lt;b&gt;Аня&lt;/b&gt;" in text and "<b>Аня" not in text
    assert "Соседи: 3 партии, 1 победа (33%) · 🍺 не платил 1 из 3, платил 2 раза" in text
    top = top_text([Ranked(1, player(1, "<a href='x'>Z</a>", 3, 3))], "все игры", tr)
    assert "&lt;a href=&#39;x&#39;&gt;Z&lt;/a&gt;" in top and "<a" not in top
    past = PastGame(12, "sosedi", "finished", {"kind": "win", "winners": [0]}, ("<i>Ж</i>", "Борис"),
                    dt.datetime(2024, 12, 1, 5, 7, tzinfo=dt.UTC).timestamp())
    history = history_text([past], {"sosedi": "Соседи"}, tr)
    assert "время: UTC" in history.splitlines()[0] and "<b>#12</b> · Соседи · 01.12 05:07\n" in history
    assert "&lt;i&gt;Ж&lt;/i&gt;, Борис — 🏆 &lt;i&gt;Ж&lt;/i&gt;" in history


def test_history_says_how_each_game_ended(tr: Any) -> None:
    def line(status: str, result: dict[str, Any]) -> str:
        past = PastGame(1, "sosedi", status, result, ("Аня", "Борис", "Вера"), 0.0)
        return history_text([past], {"sosedi": "Соседи"}, tr).splitlines()[-1]

    assert line("finished", {"kind": "win", "winners": [0, 2]}).endswith("— 🏆 Аня, Вера")
    assert line("finished", {"kind": "lose", "losers": [1]}).endswith("— 🍺 проставляется Борис")
    assert line("finished", {"kind": "draw", "winners": [0, 1]}).endswith("— 🤝 ничья")
    assert line("stopped", {"kind": "stopped"}).endswith("— ⏹ остановлена")
    assert line("finished", {"kind": "win", "winners": [7]}).endswith("— 🏆 ?")  # a seat that is not there
    assert when(0.0) == "01.01 00:00"


def test_long_texts_are_cut_to_the_caption_limit() -> None:
    body = [f"{i}. " + "Ж" * 60 for i in range(40)]
    text = fit_lines(["title"], body, ["", "rule"])
    assert visible_length(text) <= CAPTION_LIMIT
    lines = text.splitlines()
    assert lines[0] == "title" and lines[-2:] == ["", "rule"] and lines[-3] == "…" and lines[1] == body[0]
    assert fit_lines(["a"], ["b"], ["c"]) == "a\nb\nc"  # what fits is left alone


# end to end ------------------------------------------------------------------------


def photos_since(runner: BotRunner, count: int) -> list[StoredMessage]:
    return [m for m in runner.tg.bot_messages(CHAT_ID)[count:] if m.photo is not None]


async def ask(runner: BotRunner, user: FakeUser, text: str) -> StoredMessage:
    """``user`` sends a command; returns the one message the bot answered with."""
    before = len(runner.tg.bot_messages(CHAT_ID))
    await runner.say(user, text)
    sent = runner.tg.bot_messages(CHAT_ID)[before:]
    assert len(sent) == 1, [m.text or m.caption for m in sent]
    assert sent[0].parse_mode == "HTML"
    return sent[0]


async def test_stats_top_and_history_in_a_group(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=40) as (tg, runner, users):
        anya, boris, vera = users["anya"], users["boris"], users["vera"]
        assert (await ask(runner, anya, "/history")).text == "В этом чате ещё нет сыгранных игр. Начать: /newgame"
        # three games of Аня, Борис and a computer player: the lobby, then «Ещё раунд» twice
        await runner.say(anya, "/newgame sosedi")
        lobby = runner.table()
        await runner.press(boris, lobby, "Играю")
        await runner.press(anya, lobby, "🤖 Добавить бота")
        await runner.press(anya, lobby, "Начать")
        game_ids = []
        for round_ in range(3):
            table = runner.table()
            await play_to_end(runner, users, table)
            result = tg.last_bot_message(CHAT_ID)
            assert "Ещё раунд" in result.buttons[0][0]
            game_ids.append((await runner.app.bot_data["flow"].store.past_games(CHAT_ID, 1))[0].id)
            if round_ < 2:
                await runner.press(anya, result, "Ещё раунд")  # the host's: dealt at once
        # a fourth game is stopped: it counts nowhere but the history
        await runner.say(vera, "/newgame spichki")
        await runner.press(anya, runner.table(), "Играю")
        await runner.press(vera, runner.table(), "Начать")
        await runner.say(vera, "/stop")
        store = runner.app.bot_data["flow"].store
        totals = {p.name: p for p in await store.player_totals(CHAT_ID)}
        assert set(totals) == {"Аня", "Борис"} and totals["Аня"].games == totals["Борис"].games == 3
        anya_wins, boris_wins = totals["Аня"].wins, totals["Борис"].wins
        assert anya_wins + boris_wins <= 3

        shown = len(tg.bot_messages(CHAT_ID))
        mine = await ask(runner, anya, "/stats")
        assert mine.photo is not None and mine.photo.startswith(b"\x89PNG") and len(mine.photo) <= 100_000
        assert mine.caption.startswith("📊 Аня — ваши игры в этом чате:")
        n = {0: "0 побед", 1: "1 победа", 2: "2 победы", 3: "3 победы"}[anya_wins]
        assert f"Помоги своему соседу: 3 партии, {n} ({percent(anya_wins, 3)}%)" in mine.caption
        assert "Спички" not in mine.caption  # the stopped game is not a game played
        assert mine.reply_to is not None and mine.reply_to.text == "/stats"
        empty = await ask(runner, vera, "/stats")
        assert empty.photo is None and empty.text.startswith("Вера, у вас пока нет законченных игр")

        board = await ask(runner, boris, "/top")
        assert board.photo is not None and board.photo != mine.photo and len(board.photo) <= 100_000
        lines = board.caption.splitlines()
        assert lines[0] == "🏆 Лучшие игроки · все игры"
        first, second = sorted([("Аня", anya_wins), ("Борис", boris_wins)], key=lambda p: -p[1])
        second_place = 1 if first[1] == second[1] else 2
        assert lines[1].startswith(f"1. {first[0]} — ") and lines[2].startswith(f"{second_place}. {second[0]} — ")
        assert "Кеша" not in board.caption and "Вера" not in board.caption
        # one game's board goes by rating: μ − 3σ as the friendly number, beside the wins
        same = await ask(runner, boris, "/top sosedi")
        assert same.photo is not None and same.caption.splitlines()[0] == "🏆 Лучшие игроки · Помоги своему соседу"
        rated = {r.player: rating_number(r.mu, r.sigma) for r in await store.ratings(CHAT_ID, "sosedi")}
        assert set(rated) == {str(anya.id), str(boris.id), "bot:medium"}  # Кеша is rated as its level
        people = sorted([(rated[str(anya.id)], "Аня", anya_wins), (rated[str(boris.id)], "Борис", boris_wins)],
                        key=lambda p: (-p[0], -p[2]))
        for line, (place, (rating, name, wins)) in zip(same.caption.splitlines()[1:3], enumerate(people, 1),
                                                       strict=True):
            assert line.startswith(f"{place}. {name} — {rating:,} · {wins} ".replace(",", "\xa0")), line
        assert "Места — по рейтингу" in same.caption and "Кеша" not in same.caption
        assert "Рейтинг — в таблице одной игры" in board.caption
        # the last result message showed the two people's new ratings, the computer's not
        assert result.text is not None
        rating_block = result.text.split("📈 Рейтинг:\n", 1)[1].split("\n\n")[0].splitlines()
        assert sorted(line.split(" ")[0] for line in rating_block) == ["Аня", "Борис"], result.text
        for line in rating_block:
            name = line.split(" ")[0]
            assert f"{rated[str({'Аня': anya, 'Борис': boris}[name].id)]:,}".replace(",", "\xa0") in line
        nobody = await ask(runner, boris, "/top spichki")
        assert nobody.photo is None and nobody.text.startswith("В таблицу попадают сыгравшие от 3 партий")
        for junk in ("/top junk", "/top " + "<b>" * 300, "/top SOSEDI<script>"):
            reply = await ask(runner, vera, junk)
            assert reply.photo is None and reply.text.startswith("Такой игры нет. Доступные: sosedi, spichki")
            assert "<" not in reply.text
        usage = await ask(runner, vera, "/top sosedi spichki")
        assert usage.text.startswith("Использование: /top или /top <код игры>.")
        assert len(photos_since(runner, shown)) == 3  # /stats, /top, /top sosedi: one photo each, no other

        past = (await ask(runner, vera, "/history")).text
        assert past.startswith("📜 Последние игры в этом чате")
        stopped_id = game_ids[-1] + 1
        assert past.index(f"#{stopped_id} · Спички") < past.index(f"#{game_ids[2]} · Помоги своему соседу")
        assert "Вера, Аня — ⏹ остановлена" in past
        for game_id in game_ids:
            assert f"#{game_id} · Помоги своему соседу · " in past
        assert past.count("Аня, Борис, 🤖 Кеша — 🏆 ") == 3
        assert past.startswith("📜 Последние игры в этом чате · время: Москва\n")  # a Russian chat's time zone
        # the results agree with how each game ended (its stored outcome, which /history shows)
        assert (past.count("— 🏆 Аня"), past.count("— 🏆 Борис")) == (anya_wins, boris_wins)
