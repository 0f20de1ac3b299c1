"""Every place where the rules rank everyone, through the fake Bot API: the
result message of a three-player race lists all three, best first, as the engine ranked them, and
/history shows them too; a pub game and «Охота на львов» end as before; a past game stored without
a ranking shows its winner alone.

A game declares that it ranks everyone (``GameSpec.places``); the core never names one.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.places import by_score, in_ranking_order
from bot.stats import history_text
from bot.store import PastGame
from locales import Translator
from tests.bot_harness import game_id_of
from tests.result_steps import MEDALS, blocks_of, finished, history, open_for, play_out, result_text
from tests.sosedi_steps import play_to_end as roll_to_end

pytestmark = pytest.mark.world(first_seed=240, count=4)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def tr() -> Any:
    translator = Translator.load(strict=True)
    return lambda key, **args: translator.t("ru", key, **args)


async def test_a_three_player_race_lists_every_place_in_the_result_and_the_history(world) -> None:
    _, runner, users = world
    table = await open_for(runner, users, "tishe", ("anya", "boris", "vera"))
    game_id = game_id_of(table)
    await play_out(runner, users, table, seed=3)
    names, result = await finished(runner, game_id)
    ranking = result["ranking"]
    assert sorted(ranking) == [0, 1, 2] and ranking[0] == result["winners"][0]
    blocks = blocks_of(result_text(runner))
    placed = [f"{medal} {names[seat]}" for medal, seat in zip(MEDALS, ranking, strict=True)]
    # the winner's line, then a blank line and every place, best first, then everyone's rating change
    assert blocks[1] == placed, blocks
    header, *ratings = blocks[2]
    assert header == "📈 Рейтинг:" and [line.split(" ")[0] for line in ratings] == [names[s] for s in ranking]
    assert "▲ +" in ratings[0] and "▼ −" in ratings[-1], ratings  # a first game: the winner up, the last down
    past = await history(runner, users["gleb"])
    assert f"Аня, Борис, Вера — {', '.join(placed)}" in past.splitlines()


async def test_matches_place_everyone_and_equal_counts_share_a_place(world) -> None:
    _, runner, users = world
    table = await open_for(runner, users, "spichki", ("anya", "boris", "vera", "gleb"))
    game_id = game_id_of(table)
    await play_out(runner, users, table, seed=1)
    names, result = await finished(runner, game_id)
    matches = result["data"]["matches"]
    places = blocks_of(result_text(runner))[1]
    assert len(places) == 4
    shown = []
    for line, seat in zip(places, result["ranking"], strict=True):
        mark, name = line.split(" ", 1)
        assert name == names[seat]
        shown.append((mark, matches[seat]))
    assert [count for _, count in shown] == sorted(matches, reverse=True)  # most matches first
    for (mark, count), (next_mark, next_count) in itertools.pairwise(shown):
        assert (mark == next_mark) == (count == next_count)  # a place is shared exactly by equal counts


async def test_a_pub_game_ends_as_before(world) -> None:
    _, runner, users = world
    table = await open_for(runner, users, "sosedi", ("anya", "boris", "vera"))
    game_id = game_id_of(table)
    await roll_to_end(runner, users, table)
    names, result = await finished(runner, game_id)
    text = result_text(runner)
    assert not any(medal in text for medal in MEDALS)
    entry = (await history(runner, users["anya"])).splitlines()[-1]
    assert entry.startswith("Аня, Борис, Вера — ")
    if result["kind"] == "win":
        assert entry.endswith(f"— 🏆 {names[result['winners'][0]]}")
    else:
        assert entry.endswith(f"— 🍺 проставляется {names[result['losers'][0]]}")


async def test_the_lions_end_as_before(world) -> None:
    _, runner, users = world
    table = await open_for(runner, users, "lions", ("anya", "boris"))
    game_id = game_id_of(table)
    await runner.say(users["boris"], "/leave")  # resigns: Аня wins
    await finished(runner, game_id)
    assert not any(medal in result_text(runner) for medal in MEDALS)
    assert (await history(runner, users["anya"])).splitlines()[-1] == "Аня, Борис — 🏆 Аня"


def test_only_the_games_whose_rules_rank_everyone_declare_it() -> None:
    ranked = {code for code, spec in GAMES.items() if spec.places is not None}
    assert ranked == {"spichki", "tishe", "shishbesh", "ludo", "parchis"}


def test_a_past_game_without_a_ranking_shows_its_winner_as_before(tr: Any) -> None:
    def entry(code: str, result: dict[str, Any], names: tuple[str, ...] = ("Аня", "Борис", "Вера")) -> str:
        past = PastGame(7, code, "finished", result, names, 0.0)
        return history_text([past], {code: code}, tr, places={code: GAMES[code].places}).splitlines()[-1]

    assert entry("ludo", {"kind": "win", "winners": [1]}) == "Аня, Борис, Вера — 🏆 Борис"  # stored before rankings
    assert entry("ludo", {"kind": "win", "winners": [1], "ranking": [1, 0]}).endswith("— 🏆 Борис")  # not every seat
    assert entry("ludo", {"kind": "win", "winners": [1], "ranking": [1, 2, 0]}).endswith(
        "— 🥇 Борис, 🥈 Вера, 🥉 Аня")
    two = ("Аня", "Борис")
    assert entry("ludo", {"kind": "win", "winners": [1], "ranking": [1, 0]}, two).endswith("— 🏆 Борис")
    # «Помоги своему соседу» keeps a ranking too, but the pub game does not place everyone
    assert entry("sosedi", {"kind": "win", "winners": [0], "ranking": [0, 2, 1]}).endswith("— 🏆 Аня")


def test_places_follow_the_ranking_and_a_score_shares_them() -> None:
    assert in_ranking_order({"kind": "win", "ranking": [2, 0, 1]}) == [(1, 2), (2, 0), (3, 1)]
    assert in_ranking_order({"kind": "win", "ranking": [2, 0, 0]}) == []  # not a ranking of every seat
    assert in_ranking_order({"kind": "draw", "winners": [0, 1], "ranking": [0, 1, 2]}) == [(1, 0), (1, 1), (3, 2)]
    matches = by_score("matches")
    result = {"kind": "win", "ranking": [2, 0, 3, 1], "data": {"matches": [5, 3, 9, 5]}}
    assert matches(result) == [(1, 2), (2, 0), (2, 3), (4, 1)]
    assert matches({"kind": "win", "ranking": [1, 0, 2]}) == [(1, 1), (2, 0), (3, 2)]  # no scores kept
