"""The «Людо» computer player (engines/ludo_ai.py) against the engine (engines/ludo.py).

Every code it plays is legal, in every option variant and player count; it is pure; each
part of its heuristic is pinned by a position where the right move is clear (checked for
several tie-break seeds, so a test fails if its part of the heuristic were removed and the
choice fell to the tie-break); and it beats random players in a small seeded sample (the
1,000-game rates are in test_beats_random_players).

Positions list every seat's four pieces as progress, as in tests/test_engine_ludo.py: Y (the
yard), 0..50 on the circuit from the colour's start cell, 51..55 in the lane, C (the centre).
With two players seat 1 is colour 2, whose start cell is 26: a seat-1 piece on cell x has
progress (x - 26) % 52.
"""

from __future__ import annotations

from typing import Any

import pytest

from engines.ludo import ENGINE, LudoOptions, LudoState
from engines.ludo_ai import AI
from tests.engine_helpers import new_state, roll_die
from tests.policy_helpers import assert_same_state_same_code, play_game

Y = -1  # the yard
C = 56  # the centre
TIE_SEEDS = range(8)  # a choice left to the tie-break would differ for some of these
VARIANTS = [LudoOptions(bonuses=False), LudoOptions(bonuses=True)]


def opp(cell: int) -> int:
    """The progress of a seat-1 piece (colour 2) standing on circuit cell ``cell``, 2 players."""
    return (cell - 26) % 52


def to_choose(mine: tuple[int, int, int, int], theirs: tuple[int, int, int, int], die: int,
              bonuses: bool = False) -> LudoState:
    """Seat 0 of a 2-player game has thrown ``die`` and must choose among several moves."""
    state = new_state(ENGINE, LudoOptions(bonuses=bonuses), 2, turn=0, pieces=(*mine, *theirs))
    state, _ = roll_die(ENGINE, state, die)
    assert state.phase == "move" and len(ENGINE.legal_actions(state)) >= 2
    return state


def choices(state: LudoState) -> set[str]:
    """Every code the AI plays here over several tie-break seeds."""
    return {code for seed in TIE_SEEDS for code in AI.plan(state, seed)}


def play(seats: int, options: LudoOptions, index: int, ai_seats: set[int]) -> Any:
    return play_game(ENGINE, AI, options, seats, index, ai_seats)


# ====================================================================== legality, purity


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("options", VARIANTS)
def test_every_code_is_legal_in_whole_games(seats: int, options: LudoOptions) -> None:
    for index in range(3):
        assert play(seats, options, index, set(range(seats))).finished  # the AI in every seat
        assert play(seats, options, 100 + index, {index % seats}).finished  # against random players


@pytest.mark.parametrize("options", VARIANTS)
def test_same_state_and_seed_same_code(options: LudoOptions) -> None:
    assert_same_state_same_code(ENGINE, AI, options)


# ====================================================================== one test per heuristic


def test_captures_rather_than_a_plain_move() -> None:
    """Rule 4: p1 from cell 30 lands on the lone opposing piece on cell 33; p0 just moves."""
    assert choices(to_choose((2, 30, Y, Y), (opp(33), Y, Y, Y), 3)) == {"p1"}


def test_a_threatened_piece_flees_to_a_safe_cell() -> None:
    """Rule 1: the star on cell 8 is safe, though the opponent on cell 3 is still 5 behind it;
    p0 on cell 5 (2 ahead of it) goes there rather than p1 taking a plain step."""
    assert choices(to_choose((5, 30, Y, Y), (opp(3), Y, Y, Y), 3)) == {"p0"}


def test_the_rearmost_piece_under_threat_runs_out_of_range() -> None:
    """p0 on cell 2 has an opponent 3 behind it (cell 51); 5 steps take it 8 ahead, out of
    one throw's reach, while the front piece p1 on cell 20 is not threatened."""
    assert choices(to_choose((2, 20, Y, Y), (opp(51), Y, Y, Y), 5)) == {"p0"}


@pytest.mark.parametrize("bonuses", [False, True])
def test_forms_a_pair_under_threat(bonuses: bool) -> None:
    """The opponent on cell 9 threatens p0 (cell 10) and p1 (cell 14): joining p0 to p1 makes
    both safe (settled: two opposing pieces are not captured; rule 9: a block), while moving p1
    out of range leaves p0 exposed."""
    assert choices(to_choose((10, 14, Y, Y), (opp(9), Y, Y, Y), 4, bonuses)) == {"p0"}


@pytest.mark.parametrize("opponent", [opp(9), Y])
def test_keeps_a_block(opponent: int) -> None:
    """Rule 9: p0 and p1 hold a block on cell 14; p2 moves instead of breaking it, both when an
    opponent is 5 behind (p0 alone would get away, leaving p1 exposed) and when none is near."""
    assert choices(to_choose((14, 14, 30, Y), (opponent, Y, Y, Y), 2, bonuses=True)) == {"p2"}


def test_shelters_behind_own_block() -> None:
    """Rule 9: nobody passes a block, so p2 on cell 11 (2 ahead of the opponent on cell 9)
    hops over its own block on cell 12 to cell 14, out of the opponent's reach."""
    assert choices(to_choose((12, 12, 11, 30), (opp(9), Y, Y, Y), 3, bonuses=True)) == {"p2"}


def test_a_six_brings_a_piece_out() -> None:
    """Rule 2: only a 6 leaves the yard, so it is spent on an exit, not on six plain steps."""
    assert choices(to_choose((10, Y, Y, Y), (Y, Y, Y, Y), 6)) == {"e"}


def test_prefers_entering_the_lane() -> None:
    """Rule 5: from progress 48, 4 steps reach the lane where nobody can capture it."""
    assert choices(to_choose((48, 10, Y, Y), (Y, Y, Y, Y), 4)) == {"p0"}


def test_prefers_reaching_the_centre() -> None:
    """Rule 5: a lane piece at 52 reaches the centre with the exact 4."""
    assert choices(to_choose((52, 10, Y, Y), (Y, Y, Y, Y), 4)) == {"p0"}


# ====================================================================== against random players


@pytest.mark.parametrize(("seats", "games", "at_least"), [(2, 300, 0.75), (4, 120, 0.45)])
@pytest.mark.parametrize("options", VARIANTS)
def test_beats_random_players(seats: int, games: int, at_least: float, options: LudoOptions) -> None:
    """Seats rotate. Measured over 1,000 games: 2 players 88 % / 87 % (base / bonuses),
    4 players 62 % / 69 %; a random seat wins 50 % and 25 %."""
    wins = sum(play(seats, options, index, {index % seats}).winner == index % seats for index in range(games))
    assert wins / games >= at_least
