"""The three levels of the «Парчис» computer player (engines/parchis_ai.py ``LEVELS``).

Measured over 1,000 seeded games each by a single-process loop (bench/policies.py's
method): «Сильный» against three random players, «Средний» against «Лёгкий» with two players. The
samples here are small and seeded, their bounds a little below those measurements, so that a level
playing at random fails them; a position tells «Сильный» from «Лёгкий» by what it does. Positions are written as in
tests/test_parchis_ai.py: a piece's progress from its exit (-1 at home, 0..63 the circuit).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from engines.base import DEFAULT_LEVEL, Action, Policy, seed_digest
from engines.base import LEVELS as LEVEL_NAMES
from engines.parchis import CENTRE, ENGINE, ParchisOptions, ParchisState
from engines.parchis_ai import AI, LEVELS, capture_chances
from engines.playout import at_random, by_policy, play_on, playout
from tests.engine_helpers import new_state, roll_die, seed_str
from tests.parchis_steps import on, rolled

HOME = -1
EXITS = {0: 5, 2: 39}  # the two colours of a two-player game
MAX_ACTIONS = 20_000
STRONG_LEAST = 80  # of 100 games: 87 measured here (a random player wins about 25)
MEDIUM_LEAST = 68  # of 100 games: 76 measured here (even levels win about 50)


def choices(seats: int, game: int) -> list[ParchisState]:
    """The positions with a choice to make along one seeded random game."""
    state, _ = ENGINE.new_game(ParchisOptions(), seats, seed_str(300 + 10 * seats + game))
    return [before for before, *_ in playout(ENGINE, state, at_random(random.Random(game)), MAX_ACTIONS)
            if before.phase == "move"]


POSITIONS = [s for seats in (2, 3, 4) for s in choices(seats, 1)[::4]]


def test_levels_are_named_as_the_lobby_names_them() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES == ("easy", "medium", "strong") and LEVELS[DEFAULT_LEVEL] is AI
    assert len({id(policy) for policy in LEVELS.values()}) == 3


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_every_level_is_legal_and_deterministic(level: str) -> None:
    policy = LEVELS[level]
    assert len(POSITIONS) > 30
    for state in POSITIONS:
        legal = [a.code for a in ENGINE.legal_actions(state)]
        copy = ENGINE.state_from_json(json.loads(json.dumps(state.to_json())))
        for seed in (0, 3):
            codes = policy.plan(state, seed)
            assert len(codes) == 1 and codes[0] in legal
            assert codes == policy.plan(copy, seed) == policy.plan(state, seed)
    roll = ENGINE.new_game(ParchisOptions(), 4, seed_str(1))[0]
    assert policy.plan(roll) == ["r"]


def wins_vs_random(policy: Policy[ParchisState], games: int) -> int:
    """bench/policies.py's method on its own labels: the policy in seat game % 4, random elsewhere."""
    wins = 0
    for game in range(games):
        seat, label = game % 4, f"levels test parchis 4 {game}"
        state, _ = ENGINE.new_game(ParchisOptions(), 4, seed_digest(label))
        state, _ = play_on(ENGINE, state, by_policy(policy, {seat}, at_random(random.Random(label)), game), MAX_ACTIONS)
        wins += state.winner == seat
    return wins


def test_strong_beats_three_random_players() -> None:
    """Measured over 1,000 games (bench/policies.py's seeds): «Сильный» wins 86.2 %, «Средний» 81.1 %."""
    assert wins_vs_random(LEVELS["strong"], 100) >= STRONG_LEAST


def duel_wins(games: int = 100) -> int:
    """Two players, «Средний» in seat game % 2 and «Лёгкий» in the other: «Средний»'s wins."""
    wins = 0
    for game in range(games):
        seat, label = game % 2, f"levels test parchis duel {game}"
        state, _ = ENGINE.new_game(ParchisOptions(), 2, seed_digest(label))

        def never(_state: ParchisState, _actions: Sequence[Action]) -> Action:
            raise AssertionError("both seats are computer players")

        choose = by_policy(AI, {seat}, by_policy(LEVELS["easy"], {1 - seat}, never, game), game)
        state, _ = play_on(ENGINE, state, choose, MAX_ACTIONS)
        wins += state.winner == seat
    return wins


def test_medium_beats_easy() -> None:
    """Measured over 1,000 two-player games: «Средний» wins 75.8 % against «Лёгкий»."""
    assert duel_wins() >= MEDIUM_LEAST


def test_strong_keeps_out_of_reach_where_easy_walks_into_it() -> None:
    """Rule 5: a 4 takes the front-runner from 40 past an opponent on 42 to 44 (not a seguro, 2 ahead
    of it: a 2 captures it), or the piece on 20 to 24, out of everybody's reach. «Сильный» works out
    the opponent's throws and keeps out of reach; «Лёгкий» likes its front-runner and never looks."""
    state = rolled((on(0, 20), on(0, 40), HOME, HOME), (on(2, 42), HOME, HOME, HOME), 4)
    moved = {m[0]: m[1] for m in state.moves}
    assert sorted(moved.values()) == [0, 1]
    exposed = ENGINE.apply(state, next(c for c, p in moved.items() if p == 1))[0]
    assert capture_chances(exposed, 0)[1] == pytest.approx(1 / 6)  # the opponent's 2
    assert {moved[LEVELS["strong"].plan(state, seed)[0]] for seed in range(20)} == {0}
    assert 1 in {moved[LEVELS["easy"].plan(state, seed)[0]] for seed in range(20)}


def test_strong_moves_the_piece_with_least_to_lose_on_a_second_six() -> None:
    """Rule 4: a third 6 in a row sends the piece moved last home. With pieces on 40 and 30, one in
    the centre and one on its exit (so a 6 counts 7), «Сильный» plays the engine's own throw after
    the 6 face by face: on a first 6 it takes the piece on 30 on, on a second 6 it moves the piece
    on the exit instead (onto the seguro 7 cells on), which a third 6 would cost least."""
    def six(sixes_before: int) -> ParchisState:
        state = new_state(ENGINE, ParchisOptions(), 2, turn=0, pieces=(40, 30, CENTRE, 0, HOME, HOME, HOME, HOME),
                          stamps=(0,) * 8, sixes=sixes_before)
        state, _ = roll_die(ENGINE, state, 6)
        assert state.count == 7 and state.again and state.sixes == sixes_before + 1
        return state

    for sixes_before, piece in ((0, 1), (1, 3)):
        state = six(sixes_before)
        moved = {m[0]: m[1] for m in state.moves}
        assert sorted(moved.values()) == [0, 1, 3]
        assert {moved[LEVELS["strong"].plan(state, seed)[0]] for seed in range(10)} == {piece}
