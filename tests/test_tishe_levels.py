"""The three levels of the «Тише едешь» computer player (engines/tishe_ai.py ``LEVELS``).

Every level plays only legal codes and is pure over the positions of seeded random games; small
seeded samples show the order of strength (the 1,000-game figures, measured as bench/policies.py
does, are in the docstrings); and a position shows what «Сильный» sees that «Лёгкий» does not.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from engines import tishe_ai
from engines.base import Action, Policy
from engines.playout import at_random, by_policy, play_on, playout
from engines.tishe import ENGINE, TisheOptions, TisheState
from engines.tishe_ai import AI, LEVELS
from tests.engine_helpers import apply_throw, new_state
from tests.engine_setups import seed_str
from tests.policy_helpers import play_game

VARIANTS = [TisheOptions(both_home=False), TisheOptions(both_home=True)]
TIE_SEEDS = range(8)


def cheap_chances(_both_home: bool) -> tuple[float, ...]:
    """A flat stand-in for ``chances(True)``: legality does not depend on its values, and solving
    the both_home table would cost this file a few seconds."""
    return (0.5,) * (tishe_ai.RING * tishe_ai.RING)


def test_the_levels() -> None:
    assert list(LEVELS) == ["easy", "medium", "strong"]
    assert LEVELS["medium"] is AI


@pytest.mark.parametrize("level", list(LEVELS))
@pytest.mark.parametrize("options", VARIANTS)
def test_legal_and_pure_over_random_games(level: str, options: TisheOptions, monkeypatch: pytest.MonkeyPatch) -> None:
    """Along seeded random games (2 and 4 players), every position the level is asked about gets
    one legal code, the same again, from a JSON copy too, for each seed."""
    if options.both_home:
        monkeypatch.setattr(tishe_ai, "chances", cheap_chances)
    policy = LEVELS[level]
    asked = 0
    for seats, index in ((2, 1), (4, 2)):
        state, _ = ENGINE.new_game(options, seats, seed_str(index))
        for before, *_ in playout(ENGINE, state, at_random(random.Random(index))):
            legal = [a.code for a in ENGINE.legal_actions(before)]
            copy = ENGINE.state_from_json(before.to_json())
            for seed in (0, 3):
                plan = policy.plan(before, seed)
                assert len(plan) == 1 and plan[0] in legal, (plan, legal)
                assert policy.plan(before, seed) == policy.plan(copy, seed) == plan
            asked += len(legal) > 1
    assert asked > 20  # the games did ask for choices


@pytest.mark.parametrize("level", list(LEVELS))
def test_whole_games_in_every_seat(level: str) -> None:
    for seats in (2, 3):
        assert play_game(ENGINE, LEVELS[level], TisheOptions(), seats, 7, set(range(seats))).finished


# ====================================================================== strength


def test_strong_beats_three_random_players() -> None:
    """Over 1,000 four-player games (bench/policies.py) «Сильный» wins 75.7 %, «Средний» 71.0 %,
    a random seat 25 %. Here 81 of these 100 (seats rotate); «Средний» wins 72 of them, so the
    bar fails a level that is only as good as «Средний»."""
    wins = sum(play_game(ENGINE, LEVELS["strong"], TisheOptions(), 4, index, {index % 4}).winner == index % 4
               for index in range(100))
    assert wins >= 77


def duel(first: Policy[TisheState], second: Policy[TisheState], games: int) -> int:
    """Two-player games, seats rotating: how many ``first`` wins."""
    wins = 0
    for index in range(games):
        seat = index % 2

        def never(_state: Any, _actions: Sequence[Action]) -> Action:
            raise AssertionError("both seats have a policy")

        choose = by_policy(first, {seat}, by_policy(second, {1 - seat}, never, index), index)
        state, _ = ENGINE.new_game(TisheOptions(), 2, seed_str(1000 + index))
        final, _ = play_on(ENGINE, state, choose, 5000)
        wins += final.winner == seat
    return wins


def test_medium_beats_easy() -> None:
    """Over 1,000 two-player games (bench/policies.py) «Средний» beats «Лёгкий» 72.4 %. Here it wins
    67 of these 100; against itself 48, so the bar fails an «easy» that plays as well as «Средний»."""
    assert duel(AI, LEVELS["easy"], 100) >= 60


# ====================================================================== what strong sees


def to_choose(mine: tuple[int, int], theirs: tuple[int, int], dice: tuple[int, int]) -> TisheState:
    """Seat 0 of a 2-player game has thrown ``dice`` and must choose among several moves."""
    state = new_state(ENGINE, TisheOptions(), 2, turn=0, checkers=(*mine, *theirs))
    thrown: TisheState = apply_throw(ENGINE, state, dice)[0]
    assert thrown.phase == "choose" and len(ENGINE.legal_actions(thrown)) >= 2
    return thrown


def codes(policy: Policy[TisheState], state: TisheState) -> set[str]:
    return {code for seed in TIE_SEEDS for code in policy.plan(state, seed)}


def test_strong_keeps_a_good_finishing_circle_easy_does_not() -> None:
    """Rule 9: 100 must be hit exactly; from 92 an 8 finishes (5 throws in 36), from 98 only 1 + 1.
    Both moves go 6 plain circles, so «Лёгкий», who looks at the distance, takes either."""
    state = to_choose((92, 39), (34, 0), (2, 4))
    assert codes(LEVELS["strong"], state) == {"m1"}
    assert codes(LEVELS["easy"], state) == {"m0", "m1"}


def test_strong_brings_in_the_second_checker() -> None:
    """Rules 1, 2: with 6 + 2 the checker off the board enters (to 8) rather than the one on 26
    moving to 34: two checkers on the board let later throws dodge bad circles, which the solved
    pair values know. «Лёгкий» sees 8 circles either way."""
    state = to_choose((26, 0), (34, 0), (6, 2))
    assert codes(LEVELS["strong"], state) == {"e"}
    assert codes(LEVELS["easy"], state) == {"e", "m0"}


def test_easy_still_avoids_a_zero_circle() -> None:
    """Rule 6: 44 + 6 = 50 would send the leader off the board; even «Лёгкий» sees that."""
    state = to_choose((44, 23), (34, 0), (4, 2))
    assert codes(LEVELS["easy"], state) == codes(LEVELS["strong"], state) == {"m1"}
