"""The «Шиш-беш» computer player (engines/shishbesh_ai.py) against the engine (engines/shishbesh.py).

Every code it plays is legal, in every option variant and player count; it is pure; each
part of its heuristic is pinned by a position where the right turn is clear (checked for
several tie-break seeds, so a test fails if its part of the heuristic were removed and the
choice fell to the tie-break); and it beats random players in a small seeded sample (the
1,000-game rates are in test_beats_random_players).

Positions are a piece's own count, as in tests/test_engine_shishbesh.py: P (the park), 0..48
on the circuit from its own end cell, then the home 49..52. All scenarios are 2-player games
on the standard board: seat 1 sits on arm 2, so a seat-1 piece on absolute cell x (seat 0's
count) has position (x - 24) % 48. Corners are 6, 18, 30, 42; huts are on 3, 9, 15, 21, 27,
33, 39, 45.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from engines.shishbesh import ENGINE, ShishbeshOptions
from engines.shishbesh_ai import AI
from tests.engine_helpers import apply_throw, new_state
from tests.policy_helpers import assert_same_state_same_code, play_game

P = -1  # the park
TIE_SEEDS = range(8)  # a choice left to the tie-break would differ for some of these
VARIANTS = [ShishbeshOptions(board, shelters, start, fast)
            for board, shelters, start, fast in itertools.product(("standard", "long"), ("opposite", "staggered"),
                                                                  ("six", "double", "six_or_double"), (False, True))]


def opp(cell: int) -> int:
    """The position of a seat-1 piece standing on absolute cell ``cell`` (2 players)."""
    return (cell - 24) % 48


def turns(mine: tuple[int, ...], theirs: tuple[int, ...], dice: tuple[int, int]) -> set[tuple[int, ...]]:
    """Seat 0 of a 2-player game throws ``dice`` (it has a choice) and the AI plays the turn
    out: every board it leaves (all eight pieces), over several tie-break seeds."""
    state = new_state(ENGINE, ShishbeshOptions(), 2, turn=0, pieces=(*mine, *theirs), huts=(False,) * 8)
    state, _, _ = apply_throw(ENGINE, state, dice)
    assert state.phase == "move" and len(ENGINE.legal_actions(state)) >= 2
    boards = set()
    for seed in TIE_SEEDS:
        after = state
        while after.phase == "move" and after.turn == 0 and not after.finished:
            after, _, _ = ENGINE.apply(after, AI.plan(after, seed)[0])
        boards.add(after.pieces)
    return boards


def play(seats: int, options: ShishbeshOptions, index: int, ai_seats: set[int]) -> Any:
    return play_game(ENGINE, AI, options, seats, index, ai_seats)


# ====================================================================== legality, purity


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: f"{o.board}-{o.shelters}-{o.start}-{o.fast_charge}")
def test_every_code_is_legal_in_every_variant(options: ShishbeshOptions) -> None:
    index = VARIANTS.index(options)
    seats = 2 + index % 3  # 2, 3 and 4 players over the variants
    assert play(seats, options, index, {index % seats}).finished  # against random players


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_code_is_legal_with_the_ai_in_every_seat(seats: int) -> None:
    assert play(seats, ShishbeshOptions(), seats, set(range(seats))).finished
    assert play(seats, ShishbeshOptions(board="long", start="six_or_double", fast_charge=True), 10 + seats,
                set(range(seats))).finished


def test_same_state_and_seed_same_code() -> None:
    assert_same_state_same_code(ENGINE, AI, ShishbeshOptions(shelters="staggered"))


# ====================================================================== one test per heuristic


def test_captures_rather_than_an_equal_plain_move() -> None:
    """Rule 5: the 4 takes p0 from 10 onto the opponent on cell 14; playing both dice with p1
    (30 → 40) gains as much ground and risks nothing, but captures nothing."""
    assert {board[4] for board in turns((10, 30, 51, 52), (opp(14), P, P, P), (4, 6))} == {P}


def test_jumps_back_to_capture() -> None:
    """Rule 6: jumps capture; p0 jumps back from corner 30 to corner 18 with the 1, onto the
    opponent there, though it gives up 12 cells of ground."""
    boards = turns((30, 20, 51, 52), (opp(18), P, P, P), (1, 2))
    assert {board[4] for board in boards} == {P}


def test_goes_into_a_hut_when_threatened() -> None:
    """Rule 7: the opponent on cell 8 reaches 9..20; only the hut on 15 (p0 12 → 15) is safe."""
    boards = turns((12, 40, 51, 52), (opp(8), P, P, P), (3, 1))
    assert boards == {(15, 41, 51, 52, opp(8), P, P, P)}


def test_the_piece_in_danger_runs_out_of_range() -> None:
    """Rule 5: the opponent on cell 5 reaches 6..17; p0 on 10 takes both dice to 20, rather
    than p1 (30, out of reach) taking them."""
    assert {board[:4] for board in turns((10, 30, 51, 52), (opp(5), P, P, P), (6, 4))} == {(20, 30, 51, 52)}


def test_does_not_step_into_reach() -> None:
    """Rules 4, 5: the opponent on cell 34 reaches 35..46; p1 on 31 stays put (35 and 37 are in
    reach; the hut on 33 would leave p0 on 24, the opponent's start field, hit by an entry) and
    p0 takes both dice (20 → 26)."""
    assert {board[:4] for board in turns((20, 31, 51, 52), (opp(34), P, P, P), (4, 2))} == {(26, 31, 51, 52)}


def test_captures_with_both_dice() -> None:
    """Rule 2: the dice are played one after the other, so p0 on 10 reaches the opponent on
    cell 17 with 3 + 4; the first die is chosen for where the second one leads."""
    assert {board[4] for board in turns((10, 30, 51, 52), (opp(17), P, P, P), (3, 4))} == {P}


def test_takes_the_srez() -> None:
    """Rule 6: from corner 6 a 1 jumps back to corner 42, right before the home (+36)."""
    assert {board[0] >= 42 for board in turns((6, 20, 51, 52), (P, P, P, P), (1, 2))} == {True}


def test_jumps_forward_from_a_corner() -> None:
    """Rule 6: from corner 18 a 1 jumps to corner 30 (+12) rather than stepping 1."""
    assert {board[0] >= 30 for board in turns((18, 10, 51, 52), (P, P, P, P), (1, 5))} == {True}


def test_a_six_brings_a_piece_out() -> None:
    """Rule 4: only a 6 leaves the park, so it is spent on an entry, not on six plain steps."""
    assert {board[:4].count(P) for board in turns((20, P, P, P), (P, P, P, P), (6, 2))} == {2}


def test_prefers_an_exact_move_home() -> None:
    """Rule 8: p0 on 46 enters the home by an exact 3 or 4, where nothing can capture it,
    rather than p1 taking both dice."""
    assert {board[0] in (49, 50) for board in turns((46, 10, P, 52), (P, P, P, P), (4, 3))} == {True}


# ====================================================================== against random players


def test_beats_random_players() -> None:
    """The AI in one seat (rotating), uniformly random legal actions in the others. Measured
    over 1,000 games each (tests seeds 0..999, standard options): 2 players 86.2 % (random: 50 %),
    4 players 75.6 % (random: 25 %). The small samples below assert well under that."""
    two = sum(play(2, ShishbeshOptions(), i, {i % 2}).winner == i % 2 for i in range(60))
    four = sum(play(4, ShishbeshOptions(), i, {i % 4}).winner == i % 4 for i in range(24))
    assert two >= 42  # 70 %
    assert four >= 12  # 50 %
