"""engines/ludo.py against THE SPEC (docs/rules/ludo.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the nine numbered
rules of the engine docstring, 8 and 9 being the option ``bonuses``; ``test_settled_...`` for
the points the docstring settles). Throws are loaded: a test names the faces it wants
(``LoadedDice``) and the engine rolls them through its own dice path. Mid-game positions are
built with dataclasses.replace.

Positions list every seat's four pieces in seat order as progress: Y (the yard), 0..50 on the
circuit counted from the colour's start cell, 51..55 in the colour's lane, C (the centre).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given

from engines.base import Action, Event, IllegalActionError, LogEntry
from engines.ludo import (
    EFFECT_CAPTURE,
    EFFECT_CENTRE,
    EFFECT_NONE,
    EFFECT_SAFE,
    ENGINE,
    SAFE_CELLS,
    LudoOptions,
    LudoState,
    cell_of,
    move_actions,
)
from tests.engine_helpers import (
    NOT_BOOLS,
    apply_choice,
    assert_nothing_legal,
    assert_options_refused,
    assert_step_matches,
    assert_won_alone,
    flag_option_games,
    kinds,
    new_state,
    play_random,
    playthrough,
    random_wins,
    roll_die,
    seed_str,
    starter_games,
    states_of,
)
from tests.engine_setups import GAME_SETUPS

Y = -1  # the yard
C = 56  # the centre
LANE = range(51, 56)
SAFE = {0, 8, 13, 21, 26, 34, 39, 47}  # rule 1: the start cells 13 × colour and the stars 8 after them
ROLL = Action("r", "roll")


def game(seats: int = 2, *pieces: tuple[int, int, int, int], bonuses: bool = False, turn: int = 0,
         **changes) -> LudoState:
    """A game (seat ``turn`` to throw) with every seat's four pieces given in seat order
    (seats not given stay in the yard) and other fields changed by dataclasses.replace."""
    assert len(pieces) <= seats
    board = [p for own in pieces for p in own] + [Y] * (4 * (seats - len(pieces)))
    return new_state(ENGINE, LudoOptions(bonuses=bonuses), seats, turn=turn, pieces=tuple(board), **changes)


def progress_at(colour: int, cell: int) -> int:
    """The progress of a piece of ``colour`` standing on circuit cell ``cell``."""
    progress = (cell - 13 * colour) % 52
    assert progress <= 50, "a colour never stands on the cell just before its start"
    return progress


def roll(state: LudoState, die: int):
    """Apply one throw that shows exactly ``die``; returns (state, events)."""
    return roll_die(ENGINE, state, die)


def pick(state: LudoState, code: str):
    """Apply a choice in the move phase; returns (state, events)."""
    after, events = apply_choice(ENGINE, state, code, "move")
    assert after.phase == "roll" and after.moves == () and after.die == 0
    return after, events


def exit_action() -> Action:
    return Action("e", "exit")


def move_action(piece: int, start: int, to: int, effect: int) -> Action:
    """The ``p<i>`` action: the piece numbered from 1, from + 1, to + 1, the effect."""
    return Action(f"p{piece}", "move", {"piece": piece + 1, "start": start + 1, "to": to + 1, "effect": effect})


def exited(seat: int, piece: int) -> Event:
    return Event("exit", seat=seat, data={"piece": piece, "from": Y, "to": 0})


def moved(seat: int, piece: int, start: int, to: int) -> Event:
    return Event("move", seat=seat, data={"piece": piece, "from": start, "to": to})


def captured(seat: int, piece: int, by: int) -> Event:
    return Event("capture", seat=seat, data={"piece": piece, "by": by})


def again(seat: int, bonus: bool = False) -> Event:
    return Event("again", seat=seat, data={"bonus": bonus})


def centre(seat: int, piece: int) -> Event:
    return Event("centre", seat=seat, data={"piece": piece})


def codes(state: LudoState) -> list[str]:
    return [a.code for a in ENGINE.legal_actions(state)]


# ====================================================================== rule 1: the circuit


@pytest.mark.parametrize("colour", range(4))
def test_rule1_cells_are_13_per_colour_plus_progress(colour):
    cells = [cell_of(colour, p) for p in range(51)]
    assert cells[0] == 13 * colour and cells[8] == 13 * colour + 8
    assert cells == [(13 * colour + p) % 52 for p in range(51)]
    assert set(range(52)) - set(cells) == {(13 * colour - 1) % 52}  # 51 cells: a full lap, then the lane
    assert cell_of(colour, Y) is None
    assert all(cell_of(colour, p) is None for p in (*LANE, C))


def test_rule1_safe_cells_are_the_four_starts_and_the_four_stars():
    assert set(SAFE_CELLS) == SAFE


@pytest.mark.parametrize(("seats", "seat", "start_cell"), [
    (2, 0, 0), (2, 1, 26),  # two players sit opposite: colours 0 and 2
    (3, 0, 0), (3, 1, 13), (3, 2, 26),
    (4, 1, 13), (4, 2, 26), (4, 3, 39),
])
def test_rule1_start_cell_is_13_times_the_colour(seats, seat, start_cell):
    after, events = roll(game(seats, turn=seat), 6)
    assert events[1:] == [exited(seat, 0), again(seat)]
    assert after.of(seat) == (0, Y, Y, Y)
    assert after.on_cell(start_cell) == [(seat, 0)]
    assert after.colour(seat) == start_cell // 13


def test_rule1_the_circuit_has_52_cells_and_wraps():
    """Colour 3 (start 39) at progress 11 is on cell 50; 4 on is cell 2, where colour 0 stands."""
    before = game(4, (2, C, C, C), (C, C, C, C), (C, C, C, C), (11, C, C, C), turn=3)
    assert before.on_cell(50) == [(3, 0)] and before.on_cell(2) == [(0, 0)]
    after, events = roll(before, 4)
    assert events[1:] == [moved(3, 0, 11, 15), captured(0, 0, by=3)]
    assert after.of(0) == (Y, C, C, C) and after.on_cell(2) == [(3, 0)]


def test_rule1_play_goes_round_the_seats():
    state = game(4, turn=2)
    for seat in (2, 3, 0, 1, 2):
        assert state.turn == state.current_player == seat
        state, _ = roll(state, 2)


# ====================================================================== rule 2: leaving the yard


@pytest.mark.parametrize("die", range(1, 6))
def test_rule2_no_exit_without_a_six(die):
    before = game(3, turn=1)
    after, events = roll(before, die)
    assert events[1:] == [Event("no_move", seat=1)]
    assert after.pieces == before.pieces and after.turn == 2 and after.sixes == 0
    assert move_actions(before, 1, die) == []


def test_rule2_a_six_exits_onto_the_start_cell():
    after, events = roll(game(2, (C, Y, 53, Y)), 6)
    assert events[1:] == [exited(0, 1), again(0)]  # the lowest piece in the yard
    assert after.of(0) == (C, 0, 53, Y) and after.on_cell(0) == [(0, 1)]
    assert after.last_move == (0, 1, Y, 0)


def test_rule2_exit_or_move_is_a_choice():
    state, events = roll(game(2, (10, Y, Y, C)), 6)
    assert events[1:] == [Event("choose", seat=0)]
    assert ENGINE.legal_actions(state) == [exit_action(), move_action(0, 10, 16, EFFECT_NONE)]
    out, events = pick(state, "e")
    assert events == [exited(0, 1), again(0)]
    assert out.of(0) == (10, 0, Y, C) and out.turn == 0


# ====================================================================== rule 3: sixes


def test_rule3_a_six_gives_another_throw():
    state, events = roll(game(2, (10, C, C, C)), 6)
    assert events[1:] == [moved(0, 0, 10, 16), again(0)]
    assert state.turn == 0 and state.sixes == 1
    state, events = roll(state, 2)
    assert events[1:] == [moved(0, 0, 16, 18)]
    assert state.turn == 1 and state.sixes == 0


def test_rule3_the_third_six_ends_the_turn_and_is_not_played():
    state, _ = roll(game(3, (10, C, C, C)), 6)
    state, _ = roll(state, 6)
    assert state.of(0) == (22, C, C, C) and state.sixes == 2 and state.turn == 0
    after, events = roll(state, 6)
    assert events == [Event("roll", seat=0, data={"die": 6}), Event("third_six", seat=0)]
    assert after.of(0) == (22, C, C, C)  # the earlier moves stand
    assert after.last_move == (0, 0, 16, 22)
    assert after.turn == 1 and after.sixes == 0 and after.phase == "roll"


def test_rule3_the_third_six_is_not_played_even_when_there_is_a_choice():
    after, events = roll(game(2, (10, 20, Y, Y), sixes=2), 6)
    assert kinds(events) == ["roll", "third_six"]
    assert after.of(0) == (10, 20, Y, Y) and after.phase == "roll" and after.turn == 1


def test_rule3_the_third_six_counts_sixes_of_a_choice_too():
    state, _ = roll(game(2, (10, Y, Y, Y)), 6)
    state, _ = pick(state, "p0")
    state, _ = roll(state, 6)
    state, _ = pick(state, "e")
    assert state.of(0) == (16, 0, Y, Y) and state.sixes == 2
    after, events = roll(state, 6)
    assert kinds(events) == ["roll", "third_six"] and after.of(0) == (16, 0, Y, Y)


def test_rule3_sixes_count_in_a_row_within_one_turn():
    state, _ = roll(game(2, (10, C, C, C), (10, C, C, C)), 6)
    state, _ = roll(state, 6)
    state, _ = roll(state, 1)  # not a six: the turn passes, the count starts again
    assert state.turn == 1 and state.sixes == 0
    state, _ = roll(state, 6)
    state, events = roll(state, 6)
    assert kinds(events) == ["roll", "move", "again"] and state.sixes == 2 and state.turn == 1


def test_settled_a_six_with_no_move_still_throws_again():
    before = game(2, (53, C, C, C))  # three cells left: a six cannot be played
    state, events = roll(before, 6)
    assert events[1:] == [Event("no_move", seat=0), again(0)]
    assert state.pieces == before.pieces and state.turn == 0 and state.sixes == 1
    state, _ = roll(state, 6)
    assert state.turn == 0 and state.sixes == 2
    state, events = roll(state, 6)
    assert kinds(events) == ["roll", "third_six"] and state.turn == 1
    assert roll(before, 4)[0].turn == 1  # a larger throw that is not a six just passes


# ====================================================================== rule 4: capturing


def test_rule4_landing_on_a_lone_opposing_piece_sends_it_to_its_yard():
    before = game(4, (10, C, C, C), (C, C, C, C), (Y, 30, progress_at(2, 14), C))
    after, events = roll(before, 4)
    assert events[1:] == [moved(0, 0, 10, 14), captured(2, 2, by=0)]
    assert after.of(2) == (Y, 30, Y, C) and after.on_cell(14) == [(0, 0)]
    assert after.turn == 1  # base game: no extra throw


def test_rule4_capture_by_choice():
    state, _ = roll(game(2, (10, 20, C, C), (progress_at(2, 13 + 2), C, C, C)), 5)
    assert ENGINE.legal_actions(state) == [move_action(0, 10, 15, EFFECT_CAPTURE),
                                           move_action(1, 20, 25, EFFECT_NONE)]
    after, events = pick(state, "p0")
    assert events == [moved(0, 0, 10, 15), captured(1, 0, by=0)]
    assert after.of(1) == (Y, C, C, C)


@pytest.mark.parametrize("cell", [c for c in range(52) if c != 51])  # colour 0 never stands on 51
def test_rule4_every_cell_captures_unless_safe(cell):
    """Colour 0 lands on each cell where a lone piece of another colour stands."""
    seat = 1 if cell == 25 else 2  # colour 2 never stands on 25
    victim = progress_at(seat, cell)
    others = [(C, C, C, C)] * 3
    others[seat - 1] = (victim, C, C, C)
    die = 6 if cell == 0 else min(cell, 1 + cell % 6)  # cell 0 is reached by leaving the yard
    before = game(4, (Y if cell == 0 else cell - die, C, C, C), *others)
    after, events = roll(before, die)
    if cell in SAFE:
        assert "capture" not in kinds(events)
        assert sorted(after.on_cell(cell)) == [(0, 0), (seat, 0)]  # different colours share
    else:
        assert events[2] == captured(seat, 0, by=0)
        assert after.on_cell(cell) == [(0, 0)] and after.of(seat)[0] == Y


def test_rule4_no_capture_on_a_star_or_a_start_cell_by_any_colour():
    """Colour 1: 5 → 8 is its star (cell 21, colour 0 there); 23 → 26 is colour 3's start (cell 39)."""
    before = game(4, (21, C, C, C), (5, 23, C, C), (C, C, C, C), (0, C, C, C), turn=1)
    state, _ = roll(before, 3)
    assert ENGINE.legal_actions(state) == [move_action(0, 5, 8, EFFECT_SAFE), move_action(1, 23, 26, EFFECT_SAFE)]
    after, events = pick(state, "p0")
    assert events == [moved(1, 0, 5, 8)] and sorted(after.on_cell(21)) == [(0, 0), (1, 0)]
    after, events = pick(state, "p1")
    assert events == [moved(1, 1, 23, 26)] and sorted(after.on_cell(39)) == [(1, 1), (3, 0)]


def test_rule4_a_captured_piece_needs_a_six_again():
    state, _ = roll(game(2, (10, C, C, C), (progress_at(2, 14), 30, C, C)), 4)
    assert state.of(1) == (Y, 30, C, C) and state.turn == 1
    assert move_actions(state, 1, 5) == [move_action(1, 30, 35, EFFECT_NONE)]
    assert [a.code for a in move_actions(state, 1, 6)] == ["e", "p1"]


@pytest.mark.parametrize("bonuses", [False, True])
def test_settled_landing_on_two_opposing_pieces_captures_nothing(bonuses):
    """Two of one colour (base game only: with bonuses they are a block, see rule 9)."""
    victim = progress_at(2, 14)
    before = game(4, (10, C, C, C), (C, C, C, C), (victim, victim, C, C), bonuses=bonuses)
    after, events = roll(before, 4)
    if bonuses:
        assert kinds(events) == ["roll", "no_move"] and after.pieces == before.pieces
    else:
        assert kinds(events) == ["roll", "move"]
        assert sorted(after.on_cell(14)) == [(0, 0), (2, 0), (2, 1)]


@pytest.mark.parametrize("bonuses", [False, True])
def test_settled_two_opposing_pieces_of_different_colours_are_not_captured(bonuses):
    """Two colours on a plain cell can only meet in the base game; checked in both all the same."""
    before = game(4, (10, C, C, C), (progress_at(1, 14), C, C, C), (progress_at(2, 14), C, C, C),
                  bonuses=bonuses)
    assert move_actions(before, 0, 4) == [move_action(0, 10, 14, EFFECT_NONE)]
    after, events = roll(before, 4)
    assert kinds(events) == ["roll", "move"]
    assert sorted(after.on_cell(14)) == [(0, 0), (1, 0), (2, 0)]


def test_rule4_own_piece_on_the_cell_does_not_shield_a_single_opponent():
    """Base game: an own piece and one opposing piece share a plain cell (they met when the
    opponent landed on two own pieces and one left). Landing there takes the opposing piece:
    it is the single opposing piece of rule 4 (settled in the engine's docstring)."""
    before = game(2, (10, 14, C, C), (progress_at(2, 14), C, C, C))
    assert move_actions(before, 0, 4) == [move_action(0, 10, 14, EFFECT_CAPTURE),
                                          move_action(1, 14, 18, EFFECT_NONE)]
    state, _ = roll(before, 4)
    after, events = pick(state, "p0")
    assert events[:2] == [moved(0, 0, 10, 14), Event("capture", 1, {"piece": 0, "by": 0})]
    assert sorted(after.on_cell(14)) == [(0, 0), (0, 1)] and after.of(1)[0] == Y


# ====================================================================== rule 5: the lane and the centre


@pytest.mark.parametrize(("start", "die", "to"), [(45, 6, 51), (48, 3, 51), (50, 1, 51), (50, 5, 55), (47, 6, 53)])
def test_rule5_after_a_full_lap_the_piece_turns_into_its_lane(start, die, to):
    before = game(2, (start, C, C, C), (Y, Y, Y, Y))
    assert cell_of(0, start) == start
    after, events = roll(before, die)
    assert events[1] == moved(0, 0, start, to)
    assert after.of(0) == (to, C, C, C)
    assert cell_of(0, to) is None and all(after.on_cell(c) == [] for c in range(52))


def test_rule5_other_colours_go_on_past_your_lane():
    """Colour 1 on cell 50 goes on round the circuit to cell 1; colour 0 on cell 50 turns in."""
    before = game(4, (50, 1, 53, C), (37, C, C, C), (C, C, C, C), (C, C, C, C), turn=1)
    after, events = roll(before, 3)
    assert events[1:] == [moved(1, 0, 37, 40), captured(0, 1, by=1)]
    assert after.on_cell(1) == [(1, 0)] and after.of(0) == (50, Y, 53, C)  # the lane piece is out of reach
    after, events = roll(replace(after, turn=0), 3)
    assert ENGINE.legal_actions(after) == [move_action(0, 50, 53, EFFECT_NONE), move_action(2, 53, 56, EFFECT_CENTRE)]


@pytest.mark.parametrize(("die", "to"), [(1, 54), (2, 55), (3, C)])
def test_rule5_exact_throws_in_the_lane(die, to):
    after, events = roll(game(2, (53, Y, C, C)), die)
    assert events[1] == moved(0, 0, 53, to)
    assert after.of(0) == (to, Y, C, C)
    assert (events[2:] == [centre(0, 0)]) == (to == C)
    assert after.turn == 1  # base game: reaching the centre gives no extra throw


@pytest.mark.parametrize("die", [4, 5])
def test_rule5_a_larger_throw_cannot_be_played_with_that_piece(die):
    after, events = roll(game(2, (53, 10, C, C)), die)
    assert events[1:] == [moved(0, 1, 10, 10 + die)]  # the only legal move, made with the throw
    after, events = roll(game(2, (53, 54, C, C)), die)
    assert events[1:] == [Event("no_move", seat=0)] and after.of(0) == (53, 54, C, C) and after.turn == 1


def test_rule5_a_six_in_the_lane_leaves_only_the_exit():
    after, events = roll(game(2, (53, Y, C, C)), 6)
    assert events[1:] == [exited(0, 1), again(0)] and after.of(0) == (53, 0, C, C)


@pytest.mark.parametrize(("start", "die"), [(52, 4), (50, 6), (55, 1)])
def test_rule5_all_four_in_the_centre_win(start, die):
    before = game(3, (C, C, C, start), (20, 30, Y, 51), (40, Y, Y, Y))
    after, events = roll(before, die)
    assert events[1:] == [moved(0, 3, start, C), centre(0, 3), Event("win", seat=0)]  # no throw again on a 6
    assert after.finished and after.winner == 0 and after.current_player is None
    assert ENGINE.legal_actions(after) == []
    out = ENGINE.outcome(after)
    assert out.kind == "win" and out.winners == (0,) and out.ranking == (0, 1, 2)


def test_the_others_rank_by_pieces_in_the_centre_then_by_steps():
    # one piece in the centre (57 steps) beats four at 50 (204 steps)
    after, _ = roll(game(3, (C, C, C, 55), (C, Y, Y, Y), (50, 50, 50, 50)), 1)
    assert after.winner == 0 and ENGINE.outcome(after).ranking == (0, 1, 2)


def test_rule5_three_in_the_centre_is_not_a_win():
    after, events = roll(game(2, (C, C, 52, Y)), 4)
    assert events[1:] == [moved(0, 2, 52, C), centre(0, 2)]
    assert not after.finished and ENGINE.outcome(after) is None and after.turn == 1


# ====================================================================== rule 6: own pieces share


def test_rule6_two_own_pieces_share_a_cell_in_the_base_game():
    state, _ = roll(game(2, (10, 14, 14, C)), 4)
    assert ENGINE.legal_actions(state) == [move_action(0, 10, 14, EFFECT_NONE), move_action(1, 14, 18, EFFECT_NONE)]
    after, events = pick(state, "p0")
    assert events == [moved(0, 0, 10, 14)]  # own pieces are never captured
    assert after.on_cell(14) == [(0, 0), (0, 1), (0, 2)]  # a third joins too


def test_rule6_own_pieces_on_one_cell_do_not_block_in_the_base_game():
    opp = progress_at(2, 12)
    assert move_actions(game(2, (14, 14, C, C), (opp, C, C, C)), 1, 6) == [move_action(0, opp, opp + 6, EFFECT_NONE)]
    after, events = roll(game(2, (14, 14, C, C), (opp, C, C, C), turn=1), 2)
    assert events[1:] == [moved(1, 0, opp, opp + 2)]
    assert sorted(after.on_cell(14)) == [(0, 0), (0, 1), (1, 0)]


# ====================================================================== rule 7: forced moves


def test_rule7_a_single_legal_move_is_made_with_the_throw():
    after, events = roll(game(2, (10, C, C, C)), 2)
    assert events[1:] == [moved(0, 0, 10, 12)]
    assert after.phase == "roll" and after.moves == () and after.die == 0 and after.turn == 1


def test_rule7_several_legal_moves_wait_for_a_choice():
    before = game(2, (10, 20, Y, C))
    state, events = roll(before, 6)
    assert events[1:] == [Event("choose", seat=0)]
    assert state.phase == "move" and state.die == 6 and state.turn == state.current_player == 0
    assert state.pieces == before.pieces and state.sixes == 1
    assert ENGINE.legal_actions(state) == [exit_action(), move_action(0, 10, 16, EFFECT_NONE),
                                           move_action(1, 20, 26, EFFECT_SAFE)]
    assert [m[0] for m in state.moves] == ["e", "p0", "p1"]
    after, events = pick(state, "p1")
    assert events == [moved(0, 1, 20, 26), again(0)]
    assert after.of(0) == (10, 26, Y, C) and after.turn == 0 and after.sixes == 1


def test_settled_pieces_in_one_place_are_one_choice():
    assert [a.code for a in move_actions(game(2, (10, 10, 20, 20)), 0, 3)] == ["p0", "p2"]
    assert [a.code for a in move_actions(game(2, (Y, 30, Y, 30)), 0, 6)] == ["e", "p1"]
    after, events = roll(game(2, (C, 10, Y, 10)), 3)  # one place, one choice: made with the throw
    assert events[1:] == [moved(0, 1, 10, 13)] and after.of(0) == (C, 13, Y, 10)
    after, events = roll(game(2, (C, Y, Y, 54)), 6)
    assert events[1:] == [exited(0, 1), again(0)]


def test_settled_action_args():
    """The piece (numbered from 1), from + 1, to + 1 and the effect; an exit has no args."""

    def shown(code: str, piece: int, start: int, to: int, effect: int) -> Action:
        return Action(code, "move", {"piece": piece, "start": start, "to": to, "effect": effect})

    state = game(4, (Y, 10, 48, 53), (1, C, C, C))  # colour 1 alone on cell 14
    assert (EFFECT_NONE, EFFECT_CAPTURE, EFFECT_CENTRE, EFFECT_SAFE) == (0, 1, 2, 3)
    assert move_actions(state, 0, 4) == [shown("p1", 2, 11, 15, EFFECT_CAPTURE), shown("p2", 3, 49, 53, EFFECT_NONE)]
    assert move_actions(state, 0, 3) == [shown("p1", 2, 11, 14, EFFECT_SAFE), shown("p2", 3, 49, 52, EFFECT_NONE),
                                         shown("p3", 4, 54, 57, EFFECT_CENTRE)]
    assert move_actions(state, 0, 6) == [Action("e", "exit"), shown("p1", 2, 11, 17, EFFECT_NONE),
                                         shown("p2", 3, 49, 55, EFFECT_NONE)]


# ====================================================================== rule 8: bonus throws


def test_rule8_a_capture_gives_another_throw():
    before = game(2, (10, C, C, C), (progress_at(2, 14), C, C, C), bonuses=True)
    after, events = roll(before, 4)
    assert events[1:] == [moved(0, 0, 10, 14), captured(1, 0, by=0), again(0, bonus=True)]
    assert after.turn == 0 and after.sixes == 0 and after.phase == "roll"


def test_rule8_reaching_the_centre_gives_another_throw():
    after, events = roll(game(2, (53, Y, C, C), bonuses=True), 3)
    assert events[1:] == [moved(0, 0, 53, C), centre(0, 0), again(0, bonus=True)]
    assert after.turn == 0 and after.sixes == 0
    after, events = roll(game(2, (50, 20, C, C), bonuses=True), 6)
    assert ENGINE.legal_actions(after) == [move_action(0, 50, C, EFFECT_CENTRE), move_action(1, 20, 26, EFFECT_SAFE)]
    after, events = pick(after, "p0")
    assert events == [moved(0, 0, 50, C), centre(0, 0), again(0, bonus=False)]  # a six: counted as a six
    assert after.sixes == 1


def test_rule8_the_last_piece_into_the_centre_wins_without_a_bonus_throw():
    after, events = roll(game(2, (53, C, C, C), bonuses=True), 3)
    assert events[1:] == [moved(0, 0, 53, C), centre(0, 0), Event("win", seat=0)]
    assert after.finished and after.winner == 0


def test_rule8_six_with_a_capture_counts_once_toward_the_three_sixes():
    state, events = roll(game(2, (8, C, C, C), (progress_at(2, 14), C, C, C), bonuses=True), 6)
    assert events[1:] == [moved(0, 0, 8, 14), captured(1, 0, by=0), again(0)]
    assert state.sixes == 1
    state, _ = roll(state, 6)
    assert state.sixes == 2 and state.of(0) == (20, C, C, C) and state.turn == 0
    state, events = roll(state, 6)
    assert kinds(events) == ["roll", "third_six"] and state.turn == 1


def test_rule8_bonus_throws_do_not_count_toward_the_three_sixes():
    """6, 6, then a 4 that captures: the bonus throw starts a fresh run of sixes, so two more
    sixes are played and only the third one in a row burns."""
    state, _ = roll(game(2, (2, C, C, C), (progress_at(2, 18), C, C, C), bonuses=True), 6)
    state, _ = roll(state, 6)
    assert state.of(0) == (14, C, C, C) and state.sixes == 2
    state, events = roll(state, 4)
    assert events[1:] == [moved(0, 0, 14, 18), captured(1, 0, by=0), again(0, bonus=True)]
    assert state.sixes == 0 and state.turn == 0
    state, events = roll(state, 6)
    assert kinds(events) == ["roll", "move", "again"] and state.sixes == 1
    state, events = roll(state, 6)
    assert kinds(events) == ["roll", "move", "again"] and state.sixes == 2 and state.of(0) == (30, C, C, C)
    state, events = roll(state, 6)
    assert kinds(events) == ["roll", "third_six"] and state.of(0) == (30, C, C, C) and state.turn == 1


def test_rule8_bonus_throw_after_a_non_six_then_a_non_six_passes():
    state, _ = roll(game(2, (10, C, C, C), (progress_at(2, 14), C, C, C), bonuses=True), 4)
    state, events = roll(state, 2)
    assert events[1:] == [moved(0, 0, 14, 16)] and state.turn == 1 and state.sixes == 0


# ====================================================================== rule 9: blocks


@pytest.mark.parametrize("die", range(1, 7))
def test_rule9_opponents_can_neither_land_on_nor_pass_a_block(die):
    block = progress_at(2, 14)
    for bonuses in (False, True):
        before = game(2, (10, C, C, C), (block, block, C, C), bonuses=bonuses)
        after, events = roll(before, die)
        if bonuses and die >= 4:
            assert events[1:] == [Event("no_move", seat=0)] + ([again(0)] if die == 6 else [])
            assert after.pieces == before.pieces
        else:
            assert events[1] == moved(0, 0, 10, 10 + die)


def test_rule9_a_block_stops_one_piece_not_the_others():
    block = progress_at(2, 14)
    before = game(2, (10, 20, C, C), (block, block, C, C), bonuses=True)
    after, events = roll(before, 5)
    assert events[1:] == [moved(0, 1, 20, 25)] and after.of(0) == (10, 25, C, C)


def test_rule9_the_owner_passes_its_own_block_but_a_third_piece_cannot_join():
    state = game(2, (10, 14, 14, C), bonuses=True)
    assert move_actions(state, 0, 6) == [move_action(0, 10, 16, EFFECT_NONE), move_action(1, 14, 20, EFFECT_NONE)]
    assert move_actions(state, 0, 4) == [move_action(1, 14, 18, EFFECT_NONE)]
    after, events = roll(state, 4)  # the only legal move breaks the block
    assert events[1:] == [moved(0, 1, 14, 18)] and after.of(0) == (10, 18, 14, C)
    assert [a.code for a in move_actions(game(2, (0, 0, Y, Y), bonuses=True), 0, 6)] == ["p0"]  # no third exit
    assert [a.code for a in move_actions(game(2, (0, 0, Y, Y)), 0, 6)] == ["e", "p0"]
    assert [a.code for a in move_actions(game(2, (52, 52, 50, C), bonuses=True), 0, 2)] == ["p0"]  # lane too


def test_rule9_two_own_pieces_form_a_block():
    state, _ = roll(game(2, (10, 12, C, C), (progress_at(2, 9), C, C, C), bonuses=True), 2)
    state, _ = pick(state, "p0")
    assert state.on_cell(12) == [(0, 0), (0, 1)] and state.turn == 1
    assert move_actions(state, 1, 3) == [] and move_actions(state, 1, 2) == [move_action(0, 35, 37, EFFECT_NONE)]


def test_rule9_a_block_on_your_start_cell_keeps_you_in_the_yard():
    start = progress_at(2, 0)
    before = game(2, (Y, Y, Y, Y), (start, start, C, C), bonuses=True)
    after, events = roll(before, 6)
    assert events[1:] == [Event("no_move", seat=0), again(0)]
    base = replace(before, options=LudoOptions())
    after, events = roll(base, 6)
    assert events[1:] == [exited(0, 0), again(0)] and sorted(after.on_cell(0)) == [(0, 0), (1, 0), (1, 1)]


def test_rule9_a_block_on_a_safe_cell_blocks_too():
    star = progress_at(2, 8)
    state = game(2, (5, C, C, C), (star, star, C, C), bonuses=True)
    assert [m.args["to"] for m in move_actions(state, 0, 2)] == [8]
    assert move_actions(state, 0, 3) == [] and move_actions(state, 0, 4) == []


def test_rule9_a_block_just_behind_the_lane_entry_is_no_obstacle():
    """Colour 0 turns in after cell 50; an opposing block on cell 51 is not on its way."""
    block = progress_at(2, 51)
    state = game(2, (48, C, C, C), (block, block, C, C), bonuses=True)
    assert move_actions(state, 0, 5) == [move_action(0, 48, 53, EFFECT_NONE)]
    state = game(4, (48, C, C, C), (36, C, C, C), (block, block, C, C), bonuses=True)
    assert move_actions(state, 0, 5) == [move_action(0, 48, 53, EFFECT_NONE)]
    assert move_actions(state, 1, 1) == [move_action(0, 36, 37, EFFECT_NONE)]  # colour 1: cell 49 → 50
    assert move_actions(state, 1, 2) == move_actions(state, 1, 3) == []  # it must pass cell 51


# ====================================================================== settled: the start


@pytest.mark.parametrize("seats", range(2, 5))
def test_settled_starter_drawn_from_throw0(seats):
    for seat, (state, events) in enumerate(starter_games(ENGINE, LudoOptions(), seats)):
        assert events == [Event("starter", seat=seat)]
        assert state.phase == "roll" and state.sixes == 0
        assert state.pieces == (Y,) * (4 * seats)
        assert not state.finished and state.winner is None


def test_settled_a_throw_is_one_die():
    _, events, entry = ENGINE.apply(game(4), "r")
    assert len(entry.dice) == 1 and events[0].data == {"die": entry.dice[0]}


# ====================================================================== options


@pytest.mark.parametrize("value", NOT_BOOLS)
def test_options_bonuses_must_be_a_bool(value):
    assert_options_refused(ENGINE, LudoOptions, {"bonuses": value}, "bonuses", 3)


def test_options_two_to_four_players():
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)


@pytest.mark.parametrize("raw", [None, {}, {"bonuses": False}, {"bonuses": True}, {"colour": "red"}])
def test_options_valid(raw):
    states = flag_option_games(ENGINE, raw, "bonuses")
    assert [len(state.pieces) for state in states] == [4 * seats for seats in range(2, 5)]
    assert ENGINE.code == "ludo"


# ====================================================================== actions


@pytest.mark.parametrize("code", ["", "x", "R", "r ", "roll", "e", "p0", "p1", "p4", "m0"])
def test_roll_phase_rejects_other_codes(code):
    with pytest.raises(IllegalActionError):
        ENGINE.apply(game(2, (10, 20, Y, Y)), code)


@pytest.mark.parametrize("code", ["r", "", "p1", "p3", "p4", "E", "e0", "m0", "roll"])
def test_move_phase_rejects_other_codes(code):
    state, _ = roll(game(2, (10, 10, 20, Y)), 6)
    assert codes(state) == ["e", "p0", "p2"]
    with pytest.raises(IllegalActionError):
        ENGINE.apply(state, code)


def test_move_phase_without_an_exit_rejects_e():
    state, _ = roll(game(2, (10, 20, C, C)), 3)
    assert codes(state) == ["p0", "p1"]
    with pytest.raises(IllegalActionError):
        ENGINE.apply(state, "e")


def test_after_the_end_nothing_is_legal():
    state, _ = roll(game(2, (53, C, C, C)), 3)
    assert_nothing_legal(ENGINE, state, ("r", "e", "p0"))


# ====================================================================== independent move rules


def ref_colours(seats: int) -> tuple[int, ...]:
    return (0, 2) if seats == 2 else tuple(range(seats))


def ref_cell(colour: int, progress: int) -> int | None:
    return (13 * colour + progress) % 52 if 0 <= progress <= 50 else None


def ref_where(pieces: tuple[int, ...], seats: int) -> list[tuple[int, int | None]]:
    """(seat, circuit cell or None) of every piece."""
    colours = ref_colours(seats)
    return [(k // 4, ref_cell(colours[k // 4], p)) for k, p in enumerate(pieces)]


def ref_blocks(pieces: tuple[int, ...], seats: int) -> dict[int, int]:
    """Circuit cell -> seat of every pair of one colour on one cell."""
    counts = Counter((s, c) for s, c in ref_where(pieces, seats) if c is not None)
    return {c: s for (s, c), n in counts.items() if n >= 2}


def ref_moves(pieces: tuple[int, ...], seats: int, seat: int, die: int, bonuses: bool):
    """THE SPEC's legal moves for ``die``: (code, piece, from, to, effect), in piece order."""
    mine = ref_colours(seats)[seat]
    own = pieces[4 * seat:4 * seat + 4]
    where = ref_where(pieces, seats)
    blocks = {c for c, s in ref_blocks(pieces, seats).items() if s != seat} if bonuses else set()
    moves = []
    for i, p in enumerate(own):
        if p == C or p in own[:i]:
            continue
        if p == Y:
            if die != 6:
                continue
            to, path = 0, [0]
        else:
            to = p + die
            if to > C:
                continue
            path = list(range(p + 1, min(to, 50) + 1))
        if bonuses and any(ref_cell(mine, q) in blocks for q in path):
            continue
        if bonuses and to != C and own.count(to) >= 2:
            continue
        cell = ref_cell(mine, to)
        if to == C:
            effect = EFFECT_CENTRE
        elif cell is None:
            effect = EFFECT_NONE
        elif cell in SAFE:
            effect = EFFECT_SAFE
        else:
            there = [s for s, c in where if c == cell and s != seat]
            effect = EFFECT_CAPTURE if len(there) == 1 else EFFECT_NONE
        moves.append(("e" if p == Y else f"p{i}", i, p, to, effect))
    return moves


def ref_actions(moves) -> list[Action]:
    return [Action(code, "exit") if start == Y else move_action(i, start, to, effect)
            for code, i, start, to, effect in sorted(moves)]


def reference_step(before: LudoState, entry: LogEntry) -> dict:
    """THE SPEC for one action, independently of the engine: the fields after it."""
    seat, seats, bonuses = before.turn, before.seats, before.options.bonuses
    nxt = (seat + 1) % seats
    if before.phase == "move":
        die, sixes = before.die, before.sixes
        moves = ref_moves(before.pieces, seats, seat, die, bonuses)
        chosen = next(m for m in moves if m[0] == entry.code)
    else:
        (die,) = entry.dice
        sixes = before.sixes + 1 if die == 6 else 0
        if sixes == 3:
            return {"pieces": before.pieces, "turn": nxt, "phase": "roll", "sixes": 0, "finished": False}
        moves = ref_moves(before.pieces, seats, seat, die, bonuses)
        if not moves:
            again_ = die == 6
            return {"pieces": before.pieces, "turn": seat if again_ else nxt, "phase": "roll",
                    "sixes": sixes if again_ else 0, "finished": False}
        if len(moves) > 1:
            return {"pieces": before.pieces, "turn": seat, "phase": "move", "die": die, "sixes": sixes,
                    "moves": tuple(sorted(moves)), "finished": False}
        chosen = moves[0]
    _, i, _, to, effect = chosen
    pieces = list(before.pieces)
    if effect == EFFECT_CAPTURE:
        cell = ref_cell(ref_colours(seats)[seat], to)
        # the single opposing piece there: the mover's own pieces do not shield it (rule 4)
        (victim,) = [k for k, (_, c) in enumerate(ref_where(before.pieces, seats)) if c == cell and k // 4 != seat]
        pieces[victim] = Y
    pieces[4 * seat + i] = to
    if pieces[4 * seat:4 * seat + 4] == [C] * 4:
        return {"pieces": tuple(pieces), "finished": True, "winner": seat, "phase": "roll"}
    again_ = die == 6 or (bonuses and effect in (EFFECT_CAPTURE, EFFECT_CENTRE))
    return {"pieces": tuple(pieces), "turn": seat if again_ else nxt, "phase": "roll", "moves": (),
            "sixes": sixes if again_ else 0, "finished": False, "last_move": (seat, i, chosen[2], to)}


# ====================================================================== properties

SPEC = GAME_SETUPS["ludo"]
MAX_ACTIONS, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props


@PROPS
@given(SETUPS)
def test_prop_the_winner_alone_has_all_four_pieces_in_the_centre(setup):
    assert_won_alone(playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1][-1][1], lambda piece: piece == C)


@PROPS
@given(SETUPS)
def test_prop_every_step_matches_the_reference(setup):
    options, seats, _, _ = setup
    for before, after, _, entry in playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1]:
        assert_step_matches(before, after, entry, reference_step(before, entry))
        if before.phase == "move":
            assert before.moves == tuple(sorted(ref_moves(before.pieces, seats, before.turn, before.die,
                                                          options.bonuses)))
            assert ENGINE.legal_actions(before) == ref_actions(before.moves)
        else:
            assert ENGINE.legal_actions(before) == [ROLL]
        for die in range(1, 7):
            assert move_actions(before, before.turn, die) == \
                ref_actions(ref_moves(before.pieces, seats, before.turn, die, options.bonuses))


@PROPS
@given(SETUPS)
def test_prop_board_invariants(setup):
    options, seats, _, _ = setup
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    colours = ref_colours(seats)
    for state in states_of(start, steps):
        assert all(Y <= p <= C for p in state.pieces)
        where = ref_where(state.pieces, seats)
        for k, p in enumerate(state.pieces):  # cell_of agrees with one circuit for every colour
            assert cell_of(colours[k // 4], p) == where[k][1]
        occupied = Counter(c for _, c in where if c is not None)
        for cell in occupied:
            assert state.on_cell(cell) == [divmod(k, 4) for k, (_, c) in enumerate(where) if c == cell]
        if options.bonuses:  # at most two of a colour on any cell, circuit or lane
            per_place = Counter((k // 4, p) for k, p in enumerate(state.pieces) if 0 <= p < C)
            assert max(per_place.values(), default=0) <= 2, state.pieces
    for before, after, events, _ in steps:
        blocks = ref_blocks(before.pieces, seats) if options.bonuses else {}
        for e in events:
            if e.kind in ("exit", "move"):
                mine = colours[e.seat]
                path = [0] if e.data["from"] == Y else range(e.data["from"] + 1, min(e.data["to"], 50) + 1)
                for q in path:  # opponents never land on or pass a block standing before the move
                    assert blocks.get(ref_cell(mine, q), e.seat) == e.seat, (before, e)
            if e.kind == "capture":
                victim = 4 * e.seat + e.data["piece"]
                cell = ref_cell(colours[e.seat], before.pieces[victim])
                assert cell is not None and cell not in SAFE
                by, _, _, to = after.last_move
                # it was the single opposing piece there (the mover's own pieces do not shield it, rule 4)
                assert [c for k, (_, c) in enumerate(ref_where(before.pieces, seats)) if k // 4 != by].count(cell) == 1
                assert by == e.data["by"] != e.seat and ref_cell(colours[by], to) == cell
                assert after.pieces[victim] == Y


# ====================================================================== random play


@pytest.mark.parametrize("bonuses", [False, True])
@pytest.mark.parametrize("seats", range(2, 5))
def test_random_play_every_seat_count(seats, bonuses):
    seeds = [seed_str(100 * seats + 10 * bonuses + i) for i in range(3)]
    for state, _ in random_wins(ENGINE, LudoOptions(bonuses=bonuses), seats, seeds, MAX_ACTIONS):
        centres = [state.of(s).count(C) for s in range(seats)]
        assert centres[state.winner] == 4 and all(n < 4 for s, n in enumerate(centres) if s != state.winner)


def test_random_play_shows_every_event():
    seen: Counter[str] = Counter()
    bonus_flags: set[bool] = set()
    for i in range(12):
        seats, bonuses = 2 + i % 3, bool(i % 2)
        _, per_action, _ = play_random(ENGINE, LudoOptions(bonuses=bonuses), seats, seed_str(7000 + i),
                                       limit=MAX_ACTIONS, choice_seed=i)
        for events in per_action:
            seen.update(kinds(events))
            bonus_flags.update(e.data["bonus"] for e in events if e.kind == "again")
    assert set(seen) == {"roll", "no_move", "choose", "exit", "move", "capture", "centre", "again",
                         "third_six", "win"}
    assert bonus_flags == {False, True}
