"""A seat the computer finished for a person (skipped by /kick, gone by /leave, or timed out three times)
keeps its place under the person's name with «(доигрывал компьютер)» in the result message and in
/history, through the fake Bot API: a 🥇 there does not read as theirs alone while their rating, which
counts them last (bot/ratings/), goes down.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games import GAMES
from bot.stats import history_text
from bot.store import PastGame, Seat, open_store
from locales import Translator
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, game_id_of
from tests.result_steps import MEDALS, blocks_of, finished, history, open_for, play_out, result_text
from tests.store_helpers import moved

FINISHED = "Борис (доигрывал компьютер)"


pytestmark = pytest.mark.world(first_seed=310, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def tr() -> Any:
    translator = Translator.load(strict=True)
    return lambda key, **args: translator.t("ru", key, **args)


async def kick_boris(runner: BotRunner, users: dict[str, Any], table: Any, seed: int) -> None:
    """The others press on until Борис is to move, then Аня (the host) skips him: the computer takes his seat."""
    by_name, rng = {u.first_name: u for u in users.values()}, random.Random(seed)
    while current_player_name(table.caption) != "Борис":
        await runner.press(by_name[current_player_name(table.caption)], table, rng.choice(table.buttons)[0])
    await runner.say(users["anya"], "/kick")
    assert runner.tg.last_bot_message(CHAT_ID).text == "Аня пропускает игрока Борис — его место занимает компьютер."


async def test_the_seat_the_computer_finished_shows_its_place_with_the_persons_name(world) -> None:
    _, runner, users = world
    table = await open_for(runner, users, "tishe", ("anya", "boris", "vera"))
    game_id = game_id_of(table)
    await kick_boris(runner, users, table, seed=5)
    await play_out(runner, users, table, seed=5)
    names, result = await finished(runner, game_id)
    assert names == ["Аня", "🤖 Борис", "Вера"]
    shown = ["Аня", FINISHED, "Вера"]
    placed = [f"{medal} {shown[seat]}" for medal, seat in zip(MEDALS, result["ranking"], strict=True)]
    winner = shown[result["winners"][0]]
    blocks = blocks_of(result_text(runner))
    assert winner in blocks[0][-1] and blocks[0][-1].startswith("🏆"), blocks[0]
    assert blocks[1] == placed, blocks
    assert not any("🤖" in line for line in blocks[0] + blocks[1])
    ratings = {line.split(" ")[0]: line for line in blocks[2][1:]}
    assert "▼ −" in ratings["Борис"]  # he left: his rating counts him last, whatever the seat's medal
    past = (await history(runner, users["vera"])).splitlines()
    assert f"Аня, 🤖 Борис, Вера — {', '.join(placed)}" in past


async def test_a_winner_line_names_the_person_the_computer_won_for(world) -> None:
    _, runner, users = world
    table = await open_for(runner, users, "ludo", ("anya", "boris"))
    game_id = game_id_of(table)
    await kick_boris(runner, users, table, seed=2)
    await play_out(runner, users, table, seed=2)
    names, result = await finished(runner, game_id)
    assert names == ["Аня", "🤖 Борис"] and result["winners"] == [1]  # these dice: the computer wins
    lines = result_text(runner).splitlines()
    assert lines[1] == f"🏆 {FINISHED} заводит все четыре фишки в центр и побеждает!", lines
    assert any(line.startswith("Борис ") and "▼ −" in line for line in lines)  # the 🏆 is not his rating's
    past = (await history(runner, users["anya"])).splitlines()
    assert past[-1] == f"Аня, 🤖 Борис — 🏆 {FINISHED}"


def test_history_names_a_seat_the_computer_finished_and_a_computer_of_its_own_as_they_are(tr: Any) -> None:
    def entry(code: str, result: dict[str, Any], left: tuple[str | None, ...]) -> str:
        past = PastGame(9, code, "finished", result, ("Аня", "🤖 Борис", "🤖 Кеша"), 0.0, left, frozenset({1, 2}))
        return history_text([past], {code: code}, tr, places={code: GAMES[code].places}).splitlines()[-1]

    ranked = {"kind": "win", "winners": [1], "ranking": [1, 2, 0]}
    assert entry("ludo", ranked, (None, "Борис", None)) == (
        "Аня, 🤖 Борис, 🤖 Кеша — 🥇 Борис (доигрывал компьютер), 🥈 🤖 Кеша, 🥉 Аня")
    assert entry("sosedi", {"kind": "win", "winners": [1]}, (None, "Борис", None)).endswith(
        "— 🏆 Борис (доигрывал компьютер)")
    assert entry("sosedi", {"kind": "win", "winners": [1]}, ()).endswith("— 🏆 🤖 Борис")  # kept before: as it was
    # a pub round a computer seat lost: nobody bought it (a computer never pays)
    assert entry("sosedi", {"kind": "lose", "losers": [1]}, (None, "Борис", None)).endswith(
        "— 🍺 проиграл Борис (доигрывал компьютер) — раунд никто не ставил")
    assert entry("sosedi", {"kind": "lose", "losers": [2]}, ()).endswith(
        "— 🍺 проиграл 🤖 Кеша — раунд никто не ставил")
    assert entry("sosedi", {"kind": "lose", "losers": [0]}, ()).endswith("— 🍺 проставляется Аня")


async def test_past_games_keep_whom_a_computer_took_each_seat_from(database: str) -> None:
    store = await open_store(database)
    seats = (Seat(0, 1, "Аня"), Seat(1, 2, "Борис"), Seat(2, -3, "🤖 Кеша"))
    game = await store.create_game(-5, "ludo", {}, "ef", seats[0], seats)
    await store.save_move(moved(game.id, 0, {"x": 1}, 1, [(1, "r", (3,), [])], new_seat=Seat(1, -1, "🤖 Борис")))
    await store.save_move(moved(game.id, 1, {"x": 2}, 2, [(1, "r", (4,), [])], status="finished",
                                result={"kind": "win", "winners": [1], "ranking": [1, 2, 0]}))
    (past,) = await store.past_games(-5, 10)
    assert past.names == ("Аня", "🤖 Борис", "🤖 Кеша") and past.left_names == (None, "Борис", None)
    assert past.computers == {1, 2}
    assert [past.left_name(seat) for seat in range(4)] == [None, "Борис", None, None]
    await store.close()


def test_english_says_the_computer_finished_it() -> None:
    en = Translator.load(strict=True)
    assert en.t("en", "finished-by-computer", name="Boris") == "Boris (finished by the computer)"
