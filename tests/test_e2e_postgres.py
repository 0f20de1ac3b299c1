"""One whole game of each kind on PostgreSQL: the e2e tests' own games (the same seeds, players and
presses), played by the real Application through the fake Bot API with its data on a PostgreSQL
database of the test's own. The other e2e files play the same games on SQLite."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from tests import (
    test_e2e_lions,
    test_e2e_ludo,
    test_e2e_parchis,
    test_e2e_shishbesh,
    test_e2e_sosedi,
    test_e2e_spichki,
    test_e2e_tishe,
)
from tests.backends import fresh_database
from tests.bot_harness import World, assert_replays_in, group_world

Play = Callable[[World], Awaitable[None]]
# the game, how its e2e file's `world` fixture builds the group, and its whole-game test
GAMES: dict[str, tuple[dict[str, Any], Play]] = {
    "sosedi-tower": ({"first_seed": 7, "english": ("vera",)},
                     lambda w: test_e2e_sosedi.test_full_game_of_each_mode(w, 2, "Башня", "проставляется")),
    "spichki": ({"first_seed": 21, "count": 5}, test_e2e_spichki.test_four_players_play_to_the_end),
    "tishe": ({"first_seed": 3}, lambda w: test_e2e_tishe.test_three_players_play_to_the_end(w, True)),
    "shishbesh": ({"first_seed": 13}, test_e2e_shishbesh.test_four_players_play_to_the_end),
    "ludo": ({"first_seed": 11, "count": 5}, lambda w: test_e2e_ludo.test_four_players_play_to_the_end(w, True)),
    "parchis": ({"first_seed": 5}, test_e2e_parchis.test_four_players_play_to_the_end),
    "lions": ({"first_seed": 21, "count": 3}, test_e2e_lions.test_a_member_plays_the_computer),
}


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_whole_game_on_postgresql(game: str, postgres_server: str, tmp_path: Path) -> None:
    world_options, play = GAMES[game]
    async with fresh_database(postgres_server) as url, group_world(tmp_path, database=url, **world_options) as world:
        _, runner, _ = world
        await play(world)
        store = runner.app.bot_data["flow"].store if runner.app else None
        assert store is not None and type(store).__name__ == "PostgresStore"
        finished = [row for row in await store.past_games(runner.chat_id, 10) if row.status == "finished"]
        assert finished, "the game did not finish"
        for past in finished:  # stored whole: the state is the replay of the log
            await assert_replays_in(store, past.id, runner.games)
