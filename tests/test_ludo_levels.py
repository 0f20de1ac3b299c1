"""The «Людо» computer's levels (engines/ludo_ai.py ``LEVELS``): «Лёгкий», «Средний», «Сильный».

Every level plays only legal codes and is pure, in both variants and every player count; small
seeded samples show the order of strength (the 1,000-game rates are in the module docstring:
«Сильный» wins about 73 % of four-player games against three random players, «Средний» about
three of four two-player games against «Лёгкий»); and positions pin what «Сильный» sees that
the others do not.

Positions list every seat's four pieces as progress, as in tests/test_ludo_ai.py: Y (the yard),
0..50 on the circuit from the colour's start cell, C (the centre). With four players seat s has colour s, whose
start cell is 13 × s.
"""

from __future__ import annotations

import random

import pytest

from engines.base import DEFAULT_LEVEL, Policy, seed_digest
from engines.base import LEVELS as LEVEL_NAMES
from engines.ludo import ENGINE, LudoOptions, LudoState
from engines.ludo_ai import AI, EASY, LEVELS, STRONG
from engines.playout import at_random, by_policy, play_on
from tests.engine_helpers import new_state, roll_die
from tests.policy_helpers import assert_same_state_same_code, play_game

Y = -1  # the yard
C = 56  # the centre
TIE_SEEDS = range(8)  # a choice left to the tie-break would differ for some of these
VARIANTS = [LudoOptions(bonuses=False), LudoOptions(bonuses=True)]
SAMPLE = 100
# measured on these seeds: «Сильный» 80 of 100 (over 1,000 bench games about 73 %), «Средний» 64,
# «Лёгкий» 41; «Средний» beat «Лёгкий» in 80 of 100 two-player games
STRONG_LEAST = 72
MEDIUM_OVER_EASY_LEAST = 70


def to_choose(pieces: tuple[int, ...], die: int, seats: int = 4) -> LudoState:
    """Seat 0 has thrown ``die`` and must choose among several moves."""
    state = new_state(ENGINE, LudoOptions(), seats, turn=0, pieces=pieces)
    state, _ = roll_die(ENGINE, state, die)
    assert state.phase == "move" and len(ENGINE.legal_actions(state)) >= 2
    return state


def choices(policy: Policy[LudoState], state: LudoState) -> set[str]:
    """Every code ``policy`` plays here over several tie-break seeds."""
    return {code for seed in TIE_SEEDS for code in policy.plan(state, seed)}


def test_the_three_levels() -> None:
    assert tuple(LEVELS) == LEVEL_NAMES and LEVELS[DEFAULT_LEVEL] is AI
    assert LEVELS["easy"] is EASY and LEVELS["strong"] is STRONG


# ====================================================================== legality, purity


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("seats", [2, 4])
@pytest.mark.parametrize("options", VARIANTS)
def test_every_code_is_legal_in_whole_games(level: str, seats: int, options: LudoOptions) -> None:
    policy = LEVELS[level]
    assert play_game(ENGINE, policy, options, seats, 7, set(range(seats))).finished  # the level in every seat
    assert play_game(ENGINE, policy, options, seats, 8, {1}).finished  # against random players


@pytest.mark.parametrize("level", LEVEL_NAMES)
@pytest.mark.parametrize("options", VARIANTS)
def test_same_state_and_seed_same_code(level: str, options: LudoOptions) -> None:
    assert_same_state_same_code(ENGINE, LEVELS[level], options)


def test_easy_depends_on_the_seed() -> None:
    """«Лёгкий» sometimes plays any legal move, drawn by tie_break: the seed changes some choices."""
    state = to_choose((10, 20, 30, Y, *(Y,) * 12), 2)
    assert len(choices(EASY, state)) >= 2


# ====================================================================== strength


def wins_against_random(policy: Policy[LudoState], label: str) -> int:
    """Four-player games (bench/policies.py's way): ``policy`` in seat game % 4, random players elsewhere."""
    wins = 0
    for game in range(SAMPLE):
        seat = game % 4
        seed = f"ludo levels test {label} {game}"
        state, _ = ENGINE.new_game(LudoOptions(), 4, seed_digest(seed))
        state, _ = play_on(ENGINE, state, by_policy(policy, {seat}, at_random(random.Random(seed)), game), 20_000)
        outcome = ENGINE.outcome(state)
        wins += outcome is not None and seat in outcome.winners
    return wins


def test_strong_beats_random_players_more_than_medium() -> None:
    strong = wins_against_random(STRONG, "strong")
    assert strong >= STRONG_LEAST  # «Средний» won 64 on these seeds: it would fail here
    assert strong > wins_against_random(AI, "strong")  # the same seeds


def test_medium_beats_easy() -> None:
    wins = 0
    for game in range(SAMPLE):
        seat = game % 2
        seed = f"ludo levels test medium easy {game}"
        state, _ = ENGINE.new_game(LudoOptions(), 2, seed_digest(seed))
        choose = by_policy(AI, {seat}, by_policy(EASY, {1 - seat}, at_random(random.Random(seed)), game), game)
        state, _ = play_on(ENGINE, state, choose, 20_000)
        outcome = ENGINE.outcome(state)
        wins += outcome is not None and seat in outcome.winners
    assert wins >= MEDIUM_OVER_EASY_LEAST


# ====================================================================== what «Сильный» sees


def test_strong_flees_a_threat_easy_ignores() -> None:
    """Rule 1: seat 1's piece on cell 3 is 2 behind p0 on cell 5; 3 steps take p0 to the star on
    cell 8. «Сильный» goes there; «Лёгкий» pushes its front piece p1 on (but for a slip)."""
    state = to_choose((5, 30, Y, Y, (3 - 13) % 52, Y, Y, Y, *(Y,) * 8), 3)
    assert choices(STRONG, state) == {"p0"}
    assert "p1" in choices(EASY, state)


def test_strong_takes_a_capture() -> None:
    """Rule 4: p1 from cell 30 lands on seat 2's lone piece on cell 33."""
    state = to_choose((2, 30, Y, Y, *(Y,) * 4, (33 - 26) % 52, Y, Y, Y, *(Y,) * 4), 3)
    assert choices(STRONG, state) == {"p1"}


def test_strong_sees_a_piece_coming_out_of_the_yard() -> None:
    """Rules 2 and 3: p0 stands 2 cells past seat 1's start cell (13) while all of seat 1's pieces
    are in the yard: a 6 brings one out and the extra throw of 2 lands on p0. «Сильный» runs 5
    steps out of that reach rather than bring p1 from cell 9 into it; «Средний» sees no opposing
    piece on the board and leaves it to the tie-break."""
    state = to_choose((15, 9, Y, Y, *(Y,) * 12), 5)
    assert choices(STRONG, state) == {"p0"}
    assert choices(AI, state) == {"p0", "p1"}


def test_strong_counts_every_opponent() -> None:
    """Every opponent moves before seat 0 again. p0 on cell 30 has one opposing piece 4 behind it
    (seat 1's, on cell 26); p1 on cell 20 has three, one of each opponent, 4 behind it on cell 16.
    «Средний» counts one «next throw» for all of them — a 4 either way — and saves the further
    piece, p0; «Сильный» sees that p1 must survive three throws and moves it, 5 steps out of reach."""
    theirs = ((16 - 13) % 52, (26 - 13) % 52, Y, Y, (16 - 26) % 52, C, C, C, (16 - 39) % 52, Y, Y, Y)
    state = to_choose((30, 20, Y, Y, *theirs), 5)
    assert choices(STRONG, state) == {"p1"}
    assert choices(AI, state) == {"p0"}
