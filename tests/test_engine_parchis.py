"""engines/parchis.py against THE SPEC (docs/rules/parchis.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the nine rules
the engine docstring numbers, ``test_settled_...`` for the points it settles). Throws
are loaded: a test names the faces it wants (``LoadedDice``) and the engine rolls them
through its own dice path. Mid-game positions are built with dataclasses.replace;
positions are written as a piece's progress from its exit (0..63 on the circuit, 64..70
the corridor, 71 the centre, -1 at home), and :func:`at` turns a circuit cell number
into that progress.

The property tests check every step of random games against :func:`ref_action`, a
straightforward re-implementation of the rules that walks the board cell by cell.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import combinations

import pytest
from hypothesis import given

from engines.base import Action, Event, IllegalActionError, LogEntry
from engines.parchis import (
    EFFECT_CAPTURE,
    EFFECT_CENTRE,
    EFFECT_NONE,
    EFFECT_SAFE,
    ENGINE,
    WHERE_CENTRE,
    WHERE_CIRCUIT,
    WHERE_CORRIDOR,
    WHERE_HOME,
    ParchisOptions,
    ParchisState,
    cell_number,
    exit_cell,
    find_moves,
)
from tests.engine_helpers import (
    apply_choice,
    assert_nothing_legal,
    assert_step_matches,
    assert_won_alone,
    kinds,
    new_state,
    play_out,
    playthrough,
    random_wins,
    roll_die,
    seed_str,
    starter_games,
    states_of,
    valid_option_games,
)
from tests.engine_setups import GAME_SETUPS, random_choice

HOME = -1
CENTRE = 71
CELLS = 68
EXITS = (5, 22, 39, 56)
TURN_OFFS = (68, 17, 34, 51)
SEGUROS = {5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68}
COLOURS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # settled: two players sit opposite
ROLL = Action("r", "roll")


def walk(colour: int) -> tuple[tuple, ...]:
    """A colour's road, one step at a time: the circuit cells from its exit, counting up (68
    is followed by 1), to its turn-off cell, then its corridor cells 1..7, then the centre."""
    road: list[tuple] = [("cell", EXITS[colour])]
    while road[-1][1] != TURN_OFFS[colour]:
        road.append(("cell", road[-1][1] % CELLS + 1))
    road += [("corridor", colour, k) for k in range(1, 8)]
    road.append(("centre",))
    return tuple(road)


ROADS = tuple(walk(c) for c in range(4))


def at(colour: int, cell: int) -> int:
    """The progress of a piece of ``colour`` standing on circuit cell ``cell``."""
    return ROADS[colour].index(("cell", cell))


def game(seats: int = 4, turn: int = 0, pieces: dict[int, tuple[int, ...]] | None = None,
         stamps: dict[tuple[int, int], int] | None = None, **changes) -> ParchisState:
    """A fresh game, seat ``turn`` to throw. ``pieces`` maps a seat to its four progresses
    (other seats at home); ``stamps`` maps (seat, piece) to an arrival stamp."""
    board = [HOME] * (4 * seats)
    for seat, own in (pieces or {}).items():
        assert len(own) == 4
        board[4 * seat:4 * seat + 4] = own
    marks = [0] * (4 * seats)
    for (seat, piece), stamp in (stamps or {}).items():
        marks[4 * seat + piece] = stamp
    return new_state(ENGINE, ParchisOptions(), seats, turn=turn, pieces=tuple(board), stamps=tuple(marks),
                     **changes)


def roll(state: ParchisState, die: int):
    """Apply one throw that shows exactly ``die``; returns (state, events)."""
    return roll_die(ENGINE, state, die)


def pick(state: ParchisState, code: str):
    """Apply a choice in the move phase; returns (state, events)."""
    return apply_choice(ENGINE, state, code, "move")


def mv(seat: int, piece: int, start: int, to: int, count: int, bonus: bool = False, kind: str = "move") -> Event:
    return Event(kind, seat=seat, data={"piece": piece, "from": start, "to": to, "count": count, "bonus": bonus})


def out(seat: int, piece: int) -> Event:
    """Leaving home on a 5."""
    return mv(seat, piece, HOME, 0, 5, kind="exit")


def captured(seat: int, piece: int, by: int) -> Event:
    return Event("capture", seat=seat, data={"piece": piece, "by": by})


def choose(seat: int, count: int, bonus: bool = False) -> Event:
    return Event("choose", seat=seat, data={"count": count, "bonus": bonus})


def where(colour: int, progress: int) -> tuple[int, int]:
    """(where, number) as the buttons show a position, from the walked road."""
    if progress == HOME:
        return WHERE_HOME, 0
    place = ROADS[colour][progress]
    if place[0] == "cell":
        return WHERE_CIRCUIT, place[1]
    if place[0] == "corridor":
        return WHERE_CORRIDOR, place[2]
    return WHERE_CENTRE, 0


def shown(code: str, piece: int, start_where: int, start: int, to_where: int, to: int, effect: int,
          bonus: int = 0) -> Action:
    """A move button: the piece (numbered from 1), where from and to (a place and its number),
    the effect, the bonus count played (0 for a throw)."""
    return Action(code, "move", {"piece": piece, "start_where": start_where, "start": start, "to_where": to_where,
                                 "to": to, "effect": effect, "bonus": bonus})


def move_action(piece: int, start: int, to: int, effect: int, bonus: int = 0, colour: int = 0) -> Action:
    """The ``p<i>`` button of moving ``piece`` (from 0) from progress ``start`` to ``to``."""
    return shown(f"p{piece}", piece + 1, *where(colour, start), *where(colour, to), effect, bonus)


def targets(state: ParchisState) -> list[tuple[str, int]]:
    return [(m[0], m[3]) for m in state.moves]


# ====================================================================== rule 1: the board


def test_rule1_board_numbers():
    assert EFFECT_NONE != EFFECT_CAPTURE != EFFECT_CENTRE != EFFECT_SAFE
    assert len({WHERE_HOME, WHERE_CIRCUIT, WHERE_CORRIDOR, WHERE_CENTRE}) == 4
    for colour in range(4):
        road = ROADS[colour]
        assert len(road) == CENTRE + 1 == 64 + 7 + 1  # the centre is 8 steps after the turn-off cell
        assert exit_cell(colour) == EXITS[colour] == 5 + 17 * colour
        assert cell_number(colour, 0) == EXITS[colour]
        assert cell_number(colour, 63) == TURN_OFFS[colour] == (EXITS[colour] - 5 - 1) % CELLS + 1
        for progress in range(64):
            assert ("cell", cell_number(colour, progress)) == road[progress]
        for progress in (HOME, *range(64, CENTRE + 1)):
            assert cell_number(colour, progress) is None
        circuit = {cell_number(colour, p) for p in range(64)}
        assert len(circuit) == 64 and circuit <= set(range(1, CELLS + 1))
        skipped = set(range(1, CELLS + 1)) - circuit  # the 4 cells between turn-off and exit
        assert skipped == {(TURN_OFFS[colour] + k - 1) % CELLS + 1 for k in range(1, 5)}
    assert {place for road in ROADS for place in road if place[0] == "cell"} == {("cell", c) for c in range(1, 69)}


def test_rule1_circuit_runs_from_68_to_1():
    state, events = roll(game(4, turn=1, pieces={1: (at(1, 66), at(1, 30), HOME, HOME)}), 4)
    assert events[1:] == [choose(1, 4)]
    assert ENGINE.legal_actions(state) == [
        move_action(0, at(1, 66), at(1, 2), EFFECT_NONE, colour=1),
        move_action(1, at(1, 30), at(1, 34), EFFECT_SAFE, colour=1),
    ]
    args = ENGINE.legal_actions(state)[0].args
    assert [args[k] for k in ("piece", "start_where", "start", "to_where", "to")] == [1, WHERE_CIRCUIT, 66,
                                                                                     WHERE_CIRCUIT, 2]
    after, events = pick(state, "p0")
    assert events == [mv(1, 0, 44, 48, 4)]
    assert after.of(1) == (48, 8, HOME, HOME) and cell_number(1, 48) == 2


@pytest.mark.parametrize("colour", range(4))
def test_rule1_turns_into_the_corridor_after_the_turn_off_cell(colour):
    """Two cells before the turn-off, a 3 enters corridor cell 1 and does not go on round the
    circuit (where a lone opponent waits on the next cell)."""
    other = (colour + 1) % 4
    beyond = TURN_OFFS[colour] % CELLS + 1
    cell = (TURN_OFFS[colour] - 3) % CELLS + 1
    start = at(colour, cell)
    assert start == 61
    before = game(4, turn=colour, pieces={colour: (start, 10, HOME, HOME),
                                          other: (at(other, beyond), HOME, HOME, HOME)})
    state, events = roll(before, 3)
    assert ENGINE.legal_actions(state)[0] == shown("p0", 1, WHERE_CIRCUIT, cell, WHERE_CORRIDOR, 1, EFFECT_SAFE)
    after, events = pick(state, "p0")
    assert events == [mv(colour, 0, 61, 64, 3)]
    assert after.of(colour)[0] == 64 and after.of(other)[0] == at(other, beyond)


def test_rule1_centre_is_eight_steps_after_the_turn_off():
    state, events = roll(game(4, turn=2, pieces={2: (63, HOME, HOME, HOME)}), 6)
    assert events[1:] == [mv(2, 0, 63, 69, 6)]  # corridor cell 6
    assert state.turn == 2
    state, events = roll(state, 2)
    assert events[1:] == [mv(2, 0, 69, 71, 2), Event("centre", seat=2, data={"piece": 0}),
                          Event("bonus_lost", seat=2, data={"count": 10})]
    assert state.of(2) == (CENTRE, HOME, HOME, HOME) and state.turn == 3


# ====================================================================== rule 2: two per cell


@pytest.mark.parametrize("others", [
    {1: (at(1, 12), HOME, HOME, HOME), 2: (at(2, 12), HOME, HOME, HOME)},  # two colours on a seguro
    {1: (at(1, 12), at(1, 12), HOME, HOME)},  # an opponent's barrier
])
def test_rule2_move_onto_a_full_cell_is_illegal(others):
    before = game(4, turn=0, pieces={0: (at(0, 8), at(0, 20), HOME, HOME), **others})
    assert find_moves(before, 0, 4, False) == [("p1", 1, 15, 19, EFFECT_NONE)]  # 8 + 4 = 12 is full
    after, events = roll(before, 4)
    assert events[1:] == [mv(0, 1, 15, 19, 4)]
    assert after.of(0) == (3, 19, HOME, HOME)


def test_rule2_own_barrier_is_full_too():
    before = game(4, turn=0, pieces={0: (1, 4, 4, HOME)})
    assert find_moves(before, 0, 3, False) == [("p1", 1, 4, 7, EFFECT_SAFE)]
    after, events = roll(before, 3)
    assert events[1:] == [mv(0, 1, 4, 7, 3)]
    assert after.of(0) == (1, 7, 4, HOME)


def test_rule2_own_and_opponent_on_a_seguro_is_full():
    before = game(4, turn=0, pieces={0: (at(0, 8), at(0, 12), HOME, HOME), 1: (at(1, 12), HOME, HOME, HOME)})
    after, events = roll(before, 4)
    assert events[1:] == [mv(0, 1, 7, 11, 4)]
    assert after.of(0) == (3, 11, HOME, HOME) and after.of(1)[0] == at(1, 12)


# ====================================================================== rule 3: leaving home


@pytest.mark.parametrize("die", range(1, 7))
def test_rule3_only_a_five_leaves_home(die):
    after, events = roll(game(4, turn=0), die)
    if die == 5:
        assert events[1:] == [out(0, 0)]
        assert after.of(0) == (0, HOME, HOME, HOME) and cell_number(0, 0) == 5
    else:
        assert events[1:] == [Event("no_move", seat=0, data={"count": die})]
        assert after.of(0) == (HOME,) * 4
    assert after.turn == (0 if die == 6 else 1)


@pytest.mark.parametrize(("own", "piece"), [((10, 20, HOME, HOME), 2), ((10, HOME, 20, HOME), 1)])
def test_rule3_leaving_home_on_a_five_is_compulsory(own, piece):
    before = game(4, turn=0, pieces={0: own})
    assert find_moves(before, 0, 5, False) == [("e", piece, HOME, 0, EFFECT_NONE)]  # 10 and 20 could move 5
    after, events = roll(before, 5)
    assert events[1:] == [out(0, piece)]
    assert after.of(0)[piece] == 0 and after.turn == 1


def test_rule3_exit_holding_two_own_pieces_plays_the_five_elsewhere():
    state, events = roll(game(4, turn=0, pieces={0: (0, 0, 20, HOME)}), 5)
    assert events[1:] == [choose(0, 5)]
    assert ENGINE.legal_actions(state) == [move_action(0, 0, 5, EFFECT_NONE), move_action(2, 20, 25, EFFECT_NONE)]
    after, events = pick(state, "p2")
    assert events == [mv(0, 2, 20, 25, 5)]
    assert after.of(0) == (0, 0, 25, HOME) and after.turn == 1


def test_rule3_exit_with_own_and_enemy_captures_the_enemy_and_counts_20():
    before = game(4, turn=0, pieces={0: (0, HOME, HOME, HOME), 1: (at(1, 5), HOME, HOME, HOME)})
    after, events = roll(before, 5)
    assert events[1:] == [out(0, 1), captured(1, 0, by=0), mv(0, 0, 0, 20, 20, bonus=True)]
    assert after.of(0) == (20, 0, HOME, HOME) and after.of(1) == (HOME,) * 4
    assert after.turn == 1


def test_rule3_exit_with_a_lone_enemy_captures_it():
    before = game(4, turn=0, pieces={2: (HOME, at(2, 5), HOME, HOME)})
    after, events = roll(before, 5)
    assert events[1:] == [out(0, 0), captured(2, 1, by=0), mv(0, 0, 0, 20, 20, bonus=True)]
    assert after.of(0) == (20, HOME, HOME, HOME) and after.of(2) == (HOME,) * 4


@pytest.mark.parametrize(("stamp1", "stamp3", "victim"), [(4, 9, 3), (9, 4, 1), (30, 29, 1)])
def test_rule3_exit_with_two_enemies_captures_the_last_to_arrive(stamp1, stamp3, victim):
    before = game(4, turn=0, pieces={1: (at(1, 5), HOME, HOME, HOME), 3: (HOME, HOME, at(3, 5), HOME)},
                  stamps={(1, 0): stamp1, (3, 2): stamp3})
    after, events = roll(before, 5)
    assert events[1:] == [out(0, 0), captured(victim, 0 if victim == 1 else 2, by=0), mv(0, 0, 0, 20, 20, True)]
    survivor = 1 if victim == 3 else 3
    assert after.of(0) == (20, HOME, HOME, HOME)
    assert after.of(victim) == (HOME,) * 4
    assert [cell_number(survivor, p) for p in after.of(survivor) if p != HOME] == [5]  # still on the exit


@pytest.mark.parametrize(("stamps", "victim"), [((7, 3), 0), ((3, 7), 2)])
def test_rule3_exit_with_an_enemy_barrier_captures_its_later_piece(stamps, victim):
    before = game(4, turn=0, pieces={1: (at(1, 5), HOME, at(1, 5), HOME)},
                  stamps={(1, 0): stamps[0], (1, 2): stamps[1]})
    after, events = roll(before, 5)
    assert events[1:3] == [out(0, 0), captured(1, victim, by=0)]
    assert after.of(1)[victim] == HOME and after.of(1)[2 - victim] == at(1, 5)


@pytest.mark.parametrize(("throws", "victim"), [
    ([(1, 2), (2, 3)], 2),  # seat 1 reaches cell 5, then seat 2
    ([(2, 3), (0, 1), (1, 2), (2, 5)], 1),  # seat 2 first, then seat 1 (seat 2's 5 comes out at 39)
])
def test_rule3_arrival_order_is_recorded_by_the_moves(throws, victim):
    """Two opponents walk onto exit 5 one after the other (all stamps start equal): coming
    out captures the one that arrived second."""
    state = game(3, turn=throws[0][0], pieces={1: (at(1, 3), HOME, HOME, HOME), 2: (at(2, 2), HOME, HOME, HOME)})
    assert set(state.stamps) == {0}
    for seat, die in throws:
        assert state.turn == seat
        state, _ = roll(state, die)
    assert state.turn == 0
    assert [cell_number(s, state.of(s)[0]) for s in (1, 2)] == [5, 5]
    assert state.stamps[4 * victim] > state.stamps[4 * (3 - victim)]
    after, events = roll(state, 5)
    assert events[1:3] == [out(0, 0), captured(victim, 0, by=0)]
    assert after.of(victim)[0] == HOME and cell_number(3 - victim, after.of(3 - victim)[0]) == 5


def test_rule3_only_a_throw_leaves_home_not_a_bonus():
    before = game(4, turn=0, pieces={0: (1, HOME, HOME, HOME), 1: (at(1, 9), HOME, HOME, HOME)})
    assert find_moves(before, 0, 20, True) == [("p0", 0, 1, 21, EFFECT_NONE)]


# ====================================================================== rule 4: sixes


def test_rule4_six_gives_another_throw():
    state, events = roll(game(4, turn=0, pieces={0: (10, HOME, HOME, HOME)}), 6)
    assert events[1:] == [mv(0, 0, 10, 16, 6)]
    assert state.turn == 0 and state.phase == "roll" and state.sixes == 1 and state.moved == 0
    assert ENGINE.legal_actions(state) == [ROLL]
    state, events = roll(state, 2)
    assert events[1:] == [mv(0, 0, 16, 18, 2)]
    assert state.turn == 1 and state.sixes == 0 and state.moved == -1


@pytest.mark.parametrize(("own", "count"), [
    ((10, 30, 40, 50), 7),
    ((10, 30, CENTRE, CENTRE), 7),  # pieces in the centre count as out
    ((10, 30, CENTRE, HOME), 6),
    ((10, 30, HOME, HOME), 6),
])
def test_rule4_six_counts_seven_when_nobody_is_at_home(own, count):
    state, events = roll(game(4, turn=0, pieces={0: own}), 6)
    assert events[1:] == ([Event("six_as_seven", seat=0)] if count == 7 else []) + [choose(0, count)]
    assert state.count == count and not state.bonus
    assert targets(state) == [(f"p{i}", p + count) for i, p in enumerate(own) if 0 <= p < CENTRE]
    after, events = pick(state, "p1")
    assert events == [mv(0, 1, 30, 30 + count, count)]
    assert after.turn == 0  # still a 6: throw again


def test_rule4_third_six_sends_the_piece_moved_last_home():
    state, _ = roll(game(4, turn=0, pieces={0: (10, 30, HOME, HOME)}), 6)
    state, _ = pick(state, "p0")
    state, _ = roll(state, 6)
    state, _ = pick(state, "p1")
    assert state.of(0) == (16, 36, HOME, HOME) and state.sixes == 2 and state.moved == 1
    after, events = roll(state, 6)
    assert events[1:] == [Event("third_six", seat=0, data={"piece": 1})]  # the throw is not played
    assert after.of(0) == (16, HOME, HOME, HOME)
    assert after.turn == 1 and after.sixes == 0 and after.moved == -1 and after.phase == "roll"


def test_rule4_third_six_in_a_row_of_forced_moves():
    state = game(4, turn=3, pieces={3: (10, HOME, HOME, HOME)})
    for start in (10, 16):
        state, events = roll(state, 6)
        assert events[1:] == [mv(3, 0, start, start + 6, 6)] and state.turn == 3
    after, events = roll(state, 6)
    assert events[1:] == [Event("third_six", seat=3, data={"piece": 0})]
    assert after.of(3) == (HOME,) * 4 and after.turn == 0


@pytest.mark.parametrize(("progress", "home"), [(0, True), (63, True), (64, False), (70, False), (CENTRE, False)])
def test_rule4_third_six_leaves_a_piece_in_its_corridor_or_the_centre(progress, home):
    before = game(4, turn=0, pieces={0: (progress, 10, HOME, HOME)}, sixes=2, moved=0)
    after, events = roll(before, 6)
    assert events[1:] == [Event("third_six", seat=0, data={"piece": 0 if home else None})]
    assert after.of(0) == ((HOME if home else progress), 10, HOME, HOME)
    assert after.turn == 1


def test_rule4_third_six_when_no_piece_moved_this_turn():
    state = game(4, turn=1)
    for _ in range(2):
        state, events = roll(state, 6)
        assert events[1:] == [Event("no_move", seat=1, data={"count": 6})] and state.turn == 1
    after, events = roll(state, 6)
    assert events[1:] == [Event("third_six", seat=1, data={"piece": None})]
    assert after.turn == 2 and after.sixes == 0
    # a piece moved in an earlier turn is not "the piece moved last"
    after, events = roll(game(4, turn=0, pieces={0: (10, 20, HOME, HOME)}, sixes=2, moved=-1), 6)
    assert events[1:] == [Event("third_six", seat=0, data={"piece": None})]
    assert after.of(0) == (10, 20, HOME, HOME)


def test_rule4_a_non_six_breaks_the_row():
    after, events = roll(game(4, turn=0, pieces={0: (10, HOME, HOME, HOME)}, sixes=2, moved=0), 3)
    assert events[1:] == [mv(0, 0, 10, 13, 3)]
    assert after.sixes == 0 and after.turn == 1


# ====================================================================== rule 5: capture and bonuses


def test_rule5_capture_sends_the_lone_opponent_home_and_counts_20():
    before = game(4, turn=0, pieces={0: (at(0, 6), HOME, HOME, HOME), 1: (HOME, at(1, 9), HOME, HOME)})
    after, events = roll(before, 3)
    assert events[1:] == [mv(0, 0, 1, 4, 3), captured(1, 1, by=0), mv(0, 0, 4, 24, 20, bonus=True)]
    assert after.of(0) == (24, HOME, HOME, HOME) and after.of(1) == (HOME,) * 4
    assert after.turn == 1 and after.phase == "roll"


def test_rule5_the_bonus_is_a_choice_when_several_pieces_can_use_it():
    before = game(4, turn=0, pieces={0: (at(0, 6), at(0, 35), HOME, HOME), 1: (at(1, 9), HOME, HOME, HOME)})
    state, events = roll(before, 3)
    assert events[1:] == [choose(0, 3)]
    assert ENGINE.legal_actions(state) == [move_action(0, 1, 4, EFFECT_CAPTURE), move_action(1, 30, 33, EFFECT_NONE)]
    state, events = pick(state, "p0")
    assert events == [mv(0, 0, 1, 4, 3), captured(1, 0, by=0), choose(0, 20, bonus=True)]
    assert state.phase == "move" and state.count == 20 and state.bonus and state.turn == 0
    assert ENGINE.legal_actions(state) == [move_action(0, 4, 24, EFFECT_SAFE, 20),
                                           move_action(1, 30, 50, EFFECT_NONE, 20)]
    assert [a.args["to"] for a in ENGINE.legal_actions(state)] == [29, 55]
    after, events = pick(state, "p1")
    assert events == [mv(0, 1, 30, 50, 20, bonus=True)]
    assert after.of(0) == (4, 50, HOME, HOME) and after.turn == 1


def test_rule5_reaching_the_centre_counts_10():
    state, _ = roll(game(4, turn=0, pieces={0: (68, 20, HOME, HOME)}), 3)
    assert ENGINE.legal_actions(state) == [move_action(0, 68, CENTRE, EFFECT_CENTRE),
                                           move_action(1, 20, 23, EFFECT_NONE)]
    assert ENGINE.legal_actions(state)[0].args == {"piece": 1, "start_where": WHERE_CORRIDOR, "start": 5,
                                                   "to_where": WHERE_CENTRE, "to": 0, "effect": EFFECT_CENTRE,
                                                   "bonus": 0}
    after, events = pick(state, "p0")
    assert events == [mv(0, 0, 68, CENTRE, 3), Event("centre", seat=0, data={"piece": 0}), mv(0, 1, 20, 30, 10, True)]
    assert after.of(0) == (CENTRE, 30, HOME, HOME) and after.turn == 1


def test_rule5_centre_bonus_lost_when_no_piece_can_use_it():
    after, events = roll(game(4, turn=0, pieces={0: (70, HOME, HOME, HOME)}), 1)
    assert events[1:] == [mv(0, 0, 70, CENTRE, 1), Event("centre", seat=0, data={"piece": 0}),
                          Event("bonus_lost", seat=0, data={"count": 10})]
    assert after.of(0) == (CENTRE, HOME, HOME, HOME) and after.turn == 1 and after.phase == "roll"


def test_rule5_capture_bonus_lost_when_too_long():
    before = game(4, turn=0, pieces={0: (at(0, 55), HOME, HOME, HOME), 1: (at(1, 58), HOME, HOME, HOME)})
    after, events = roll(before, 3)
    assert events[1:] == [mv(0, 0, 50, 53, 3), captured(1, 0, by=0), Event("bonus_lost", seat=0, data={"count": 20})]
    assert after.of(0) == (53, HOME, HOME, HOME) and after.turn == 1


def test_rule5_capture_bonus_lost_behind_a_barrier():
    before = game(4, turn=0, pieces={0: (at(0, 6), HOME, HOME, HOME), 1: (at(1, 9), HOME, HOME, HOME),
                                     2: (at(2, 20), at(2, 20), HOME, HOME)})
    after, events = roll(before, 3)  # 9 + 20 would pass the barrier on 20
    assert events[1:] == [mv(0, 0, 1, 4, 3), captured(1, 0, by=0), Event("bonus_lost", seat=0, data={"count": 20})]
    assert after.of(0) == (4, HOME, HOME, HOME) and after.turn == 1


def test_rule5_bonuses_chain():
    """A +20 move that captures earns another +20 (settled)."""
    before = game(4, turn=0, pieces={0: (at(0, 7), HOME, HOME, HOME), 1: (at(1, 10), HOME, HOME, HOME),
                                     2: (at(2, 30), HOME, HOME, HOME)})
    after, events = roll(before, 3)
    assert events[1:] == [mv(0, 0, 2, 5, 3), captured(1, 0, by=0), mv(0, 0, 5, 25, 20, True), captured(2, 0, by=0),
                          mv(0, 0, 25, 45, 20, True)]
    assert after.of(0) == (45, HOME, HOME, HOME) and after.pieces.count(HOME) == 15
    assert cell_number(0, 45) == 50 and after.turn == 1


def test_rule5_own_lone_piece_is_not_captured():
    before = game(4, turn=0, pieces={0: (at(0, 6), at(0, 9), HOME, HOME)})
    state, events = roll(before, 3)
    assert ENGINE.legal_actions(state)[0] == move_action(0, 1, 4, EFFECT_NONE)
    after, events = pick(state, "p0")
    assert events == [mv(0, 0, 1, 4, 3)] and after.of(0) == (4, 4, HOME, HOME)


# ====================================================================== rule 6: seguros


@pytest.mark.parametrize("cell", sorted(SEGUROS - {5}))
def test_rule6_no_capture_on_a_seguro(cell):
    start = at(0, cell) - 3
    before = game(4, turn=0, pieces={0: (start, HOME, HOME, HOME), 1: (at(1, cell), HOME, HOME, HOME)})
    assert find_moves(before, 0, 3, False) == [("p0", 0, start, start + 3, EFFECT_SAFE)]
    after, events = roll(before, 3)
    assert events[1:] == [mv(0, 0, start, start + 3, 3)]  # no capture, no bonus
    assert after.of(1)[0] == at(1, cell) and after.turn == 1


def test_rule6_the_corridor_is_safe():
    assert find_moves(game(4, pieces={0: (62, HOME, HOME, HOME)}), 0, 3, False) == [("p0", 0, 62, 65, EFFECT_SAFE)]


# ====================================================================== rule 7: barriers


@pytest.mark.parametrize(("die", "to"), [(1, 4), (2, None), (3, None), (4, None), (6, None)])
def test_rule7_barrier_blocks_opponents(die, to):
    before = game(4, turn=0, pieces={0: (at(0, 8), HOME, HOME, HOME), 1: (at(1, 10), at(1, 10), HOME, HOME)})
    after, events = roll(before, die)
    if to is None:  # 2 lands on the full barrier, more passes it
        assert events[1:] == [Event("no_move", seat=0, data={"count": die})]
        assert after.of(0) == before.of(0)
    else:
        assert events[1:] == [mv(0, 0, 3, to, die)]


def test_rule7_barrier_blocks_its_owner():
    before = game(4, turn=0, pieces={0: (3, 5, 5, HOME)})
    assert find_moves(before, 0, 4, False) == [("p1", 1, 5, 9, EFFECT_NONE)]  # 3 + 4 would pass 5
    assert [m[0] for m in find_moves(before, 0, 1, False)] == ["p0", "p1"]
    after, events = roll(before, 4)
    assert events[1:] == [mv(0, 1, 5, 9, 4)]
    assert after.of(0) == (3, 9, 5, HOME)


def test_rule7_barrier_in_the_corridor_blocks_its_owner():
    before = game(4, turn=0, pieces={0: (65, 65, 63, HOME)})
    after, events = roll(before, 3)
    assert events[1:] == [mv(0, 0, 65, 68, 3)]
    after, events = roll(game(4, turn=0, pieces={0: (70, 70, 66, HOME)}), 4)  # 66 + 4: onto the full 70
    assert events[1:] == [Event("no_move", seat=0, data={"count": 4})]
    after, events = roll(game(4, turn=0, pieces={0: (68, 68, 66, HOME)}), 3)  # 66 + 3 would pass 68
    assert events[1:] == [mv(0, 0, 68, CENTRE, 3), Event("centre", seat=0, data={"piece": 0}),
                          Event("bonus_lost", seat=0, data={"count": 10})]
    assert after.of(0) == (CENTRE, 68, 66, HOME)


def test_rule7_two_colours_on_a_seguro_are_no_barrier():
    before = game(4, turn=0, pieces={0: (at(0, 10), HOME, HOME, HOME), 1: (at(1, 12), HOME, HOME, HOME),
                                     2: (at(2, 12), HOME, HOME, HOME)})
    after, events = roll(before, 4)
    assert events[1:] == [mv(0, 0, 5, 9, 4)]
    assert after.of(0)[0] == at(0, 14)


@pytest.mark.parametrize(("own", "count", "moved"), [
    ((5, 5, 30, HOME), 6, (0, 5, 11)),
    ((5, 5, 30, 40), 7, (0, 5, 12)),
    ((30, 64, 64, HOME), 6, (1, 64, 70)),  # a barrier in the corridor too
])
def test_rule7_six_must_open_a_barrier(own, count, moved):
    before = game(4, turn=0, pieces={0: own})
    assert len(find_moves(before, 0, 4, False)) > 1  # any other throw: a free choice
    state, events = roll(before, 6)
    piece, start, to = moved
    assert events[1:] == ([Event("six_as_seven", seat=0)] if count == 7 else []) + [mv(0, piece, start, to, count)]
    assert state.of(0)[piece] == to and state.turn == 0


def test_rule7_with_two_barriers_the_player_chooses_which_to_open():
    state, events = roll(game(4, turn=0, pieces={0: (5, 5, 30, 30)}), 6)
    assert events[1:] == [Event("six_as_seven", seat=0), choose(0, 7)]
    assert ENGINE.legal_actions(state) == [move_action(0, 5, 12, EFFECT_SAFE), move_action(2, 30, 37, EFFECT_NONE)]
    after, _ = pick(state, "p2")
    assert after.of(0) == (5, 5, 37, 30)


def test_rule7_six_plays_elsewhere_when_no_barrier_can_open():
    before = game(4, turn=0, pieces={0: (5, 5, 30, HOME), 1: (at(1, 12), at(1, 12), HOME, HOME)})
    after, events = roll(before, 6)  # 5 + 6 would pass the barrier on 12
    assert events[1:] == [mv(0, 2, 30, 36, 6)]
    assert after.of(0) == (5, 5, 36, HOME) and after.turn == 0


def test_rule7_a_bonus_need_not_open_a_barrier():
    before = game(4, turn=0, pieces={0: (5, 5, 10, HOME), 2: (at(2, 18), HOME, HOME, HOME)})
    state, _ = roll(before, 3)
    state, events = pick(state, "p2")
    assert events == [mv(0, 2, 10, 13, 3), captured(2, 0, by=0), choose(0, 20, bonus=True)]
    assert targets(state) == [("p0", 25), ("p2", 33)]


# ====================================================================== rule 8: exact centre


@pytest.mark.parametrize(("die", "offered"), [(1, [("p0", 69), ("p1", 21)]), (2, [("p0", 70), ("p1", 22)]),
                                               (3, [("p0", CENTRE), ("p1", 23)]), (4, None)])
def test_rule8_centre_needs_an_exact_count(die, offered):
    state, events = roll(game(4, turn=0, pieces={0: (68, 20, HOME, HOME)}), die)
    if offered is None:  # 68 + 4 overshoots the centre: only the other piece moves
        assert events[1:] == [mv(0, 1, 20, 24, 4)]
    else:
        assert targets(state) == offered


def test_rule8_overshoot_is_no_move():
    after, events = roll(game(4, turn=0, pieces={0: (68, CENTRE, CENTRE, CENTRE)}), 6)  # counts 7
    assert events[1:] == [Event("six_as_seven", seat=0), Event("no_move", seat=0, data={"count": 7})]
    assert after.turn == 0


# ====================================================================== rule 9: the end


def test_rule9_first_with_all_four_in_the_centre_wins_and_the_rest_rank_by_progress():
    before = game(4, turn=2, pieces={0: (40, 10, HOME, HOME), 1: (CENTRE, HOME, HOME, HOME),
                                     2: (CENTRE, CENTRE, CENTRE, 70), 3: (20, 20, 21, HOME)})
    assert ENGINE.outcome(before) is None
    after, events = roll(before, 1)
    assert events[1:] == [mv(2, 3, 70, CENTRE, 1), Event("centre", seat=2, data={"piece": 3}), Event("win", seat=2)]
    assert after.finished and after.winner == 2 and after.current_player is None
    assert ENGINE.legal_actions(after) == []
    result = ENGINE.outcome(after)
    assert result.kind == "win" and result.winners == (2,) and result.losers == ()
    assert result.ranking == (2, 1, 3, 0)  # steps made: 72, 64, 52


def test_rule9_win_with_a_bonus_move():
    state, _ = roll(game(4, turn=0, pieces={0: (CENTRE, CENTRE, 68, 61)}), 3)
    after, events = pick(state, "p2")
    assert events == [mv(0, 2, 68, CENTRE, 3), Event("centre", seat=0, data={"piece": 2}),
                      mv(0, 3, 61, CENTRE, 10, True), Event("centre", seat=0, data={"piece": 3}), Event("win", seat=0)]
    assert after.finished and after.winner == 0


def test_rule9_win_with_a_six_throws_no_more():
    after, events = roll(game(2, turn=1, pieces={1: (CENTRE, CENTRE, CENTRE, 64)}), 6)
    assert kinds(events) == ["roll", "six_as_seven", "move", "centre", "win"]
    assert after.finished and after.winner == 1 and ENGINE.legal_actions(after) == []
    assert ENGINE.outcome(after).ranking == (1, 0)


def test_rule9_the_others_rank_by_pieces_in_the_centre_then_by_steps():
    # one piece in the centre (72 steps) beats four at 60 (244 steps)
    before = game(3, turn=0, pieces={0: (CENTRE, CENTRE, CENTRE, 70), 1: (CENTRE, HOME, HOME, HOME),
                                     2: (60, 60, 60, 60)})
    after, _ = roll(before, 1)
    assert after.winner == 0 and ENGINE.outcome(after).ranking == (0, 1, 2)


# ====================================================================== settled points


@pytest.mark.parametrize("seats", range(2, 5))
def test_settled_starter_drawn_from_throw0(seats):
    for seat, (state, events) in enumerate(starter_games(ENGINE, ParchisOptions(), seats)):
        assert events == [Event("starter", seat=seat)]
        assert state.phase == "roll"
        assert state.pieces == (HOME,) * (4 * seats) and state.stamps == (0,) * (4 * seats)
        assert state.sixes == 0 and state.moved == -1 and not state.finished and state.winner is None


def test_settled_a_throw_is_one_die():
    _, events, entry = ENGINE.apply(game(4), "r")
    assert len(entry.dice) == 1 and events[0].data == {"die": entry.dice[0]}


def test_settled_two_players_sit_opposite():
    before = game(2, turn=1, pieces={0: (at(0, 39), HOME, HOME, HOME)})
    assert [before.colour(s) for s in range(2)] == [0, 2]
    assert [game(3).colour(s) for s in range(3)] == [0, 1, 2]
    after, events = roll(before, 5)  # seat 1 comes out on 39 and captures there
    assert events[1:] == [out(1, 0), captured(0, 0, by=1), mv(1, 0, 0, 20, 20, True)]
    assert after.of(0) == (HOME,) * 4 and cell_number(2, 20) == 59


def test_settled_six_with_no_legal_move_still_throws_again():
    before = game(4, turn=0, pieces={0: (68, HOME, HOME, HOME)})
    after, events = roll(before, 6)  # 68 + 6 overshoots
    assert events[1:] == [Event("no_move", seat=0, data={"count": 6})]
    assert after.turn == 0 and after.sixes == 1 and ENGINE.legal_actions(after) == [ROLL]


def test_settled_extra_throw_of_a_six_comes_after_its_bonus():
    before = game(4, turn=0, pieces={0: (2, 30, HOME, HOME), 1: (at(1, 13), HOME, HOME, HOME)})
    state, _ = roll(before, 6)
    state, events = pick(state, "p0")
    assert events == [mv(0, 0, 2, 8, 6), captured(1, 0, by=0), choose(0, 20, True)]
    after, events = pick(state, "p1")
    assert events == [mv(0, 1, 30, 50, 20, True)]
    assert after.turn == 0 and after.phase == "roll" and after.sixes == 1 and after.moved == 1


def test_settled_pieces_in_one_place_are_one_choice():
    state, _ = roll(game(4, turn=0, pieces={0: (10, 10, 30, CENTRE)}), 4)
    assert [a.code for a in ENGINE.legal_actions(state)] == ["p0", "p2"]  # not p1 (with p0), not p3 (centre)
    after, events = roll(game(4, turn=0, pieces={0: (10, 10, HOME, HOME)}), 4)
    assert events[1:] == [mv(0, 0, 10, 14, 4)]  # one place: played at once
    assert after.of(0) == (14, 10, HOME, HOME)


# ====================================================================== actions


def test_action_args_for_the_buttons():
    before = game(4, turn=0, pieces={0: (61, 68, at(0, 15), at(0, 6)), 1: (at(1, 9), HOME, HOME, HOME)})
    state, _ = roll(before, 3)
    assert ENGINE.legal_actions(state) == [
        shown("p0", 1, WHERE_CIRCUIT, 66, WHERE_CORRIDOR, 1, EFFECT_SAFE, 0),
        shown("p1", 2, WHERE_CORRIDOR, 5, WHERE_CENTRE, 0, EFFECT_CENTRE, 0),
        shown("p2", 3, WHERE_CIRCUIT, 15, WHERE_CIRCUIT, 18, EFFECT_NONE, 0),
        shown("p3", 4, WHERE_CIRCUIT, 6, WHERE_CIRCUIT, 9, EFFECT_CAPTURE, 0),
    ]


def test_action_args_of_an_exit():
    """An exit is always the only legal move and is played at once; shown, it names its effect."""
    waiting = replace(game(4, turn=0), phase="move", count=5, moves=(("e", 1, HOME, 0, EFFECT_CAPTURE),))
    assert ENGINE.legal_actions(waiting) == [Action("e", "exit", {"effect": EFFECT_CAPTURE})]


@pytest.mark.parametrize("code", ["", "x", "R", "r ", "roll", "p0", "p1", "e"])
def test_roll_phase_rejects_other_codes(code):
    with pytest.raises(IllegalActionError):
        ENGINE.apply(game(4, pieces={0: (10, 30, HOME, HOME)}), code)


@pytest.mark.parametrize("code", ["r", "", "p1", "p3", "p4", "e", "P0", "p"])
def test_move_phase_rejects_other_codes(code):
    state, _ = roll(game(4, turn=0, pieces={0: (10, 10, 30, HOME)}), 4)
    assert [a.code for a in ENGINE.legal_actions(state)] == ["p0", "p2"]
    with pytest.raises(IllegalActionError):
        ENGINE.apply(state, code)


def test_after_the_end_nothing_is_legal():
    after, _ = roll(game(4, turn=0, pieces={0: (CENTRE, CENTRE, CENTRE, 70)}), 1)
    assert_nothing_legal(ENGINE, after, ("r", "p0", "p3", "e"))


# ====================================================================== options


@pytest.mark.parametrize("raw", [None, {}, {"colour": "red"}])
def test_options_valid(raw):
    options = ENGINE.options_from_json(raw)
    assert options == ParchisOptions() and options.to_json() == {}
    states = valid_option_games(ENGINE, options)
    assert [(len(state.pieces), len(state.stamps)) for state in states] == [(4 * seats,) * 2 for seats in range(2, 5)]
    assert ENGINE.code == "parchis"


def test_options_two_to_four_players():
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)


# ====================================================================== an independent reference


def places(seats: int, pieces) -> list[tuple | None]:
    """Where each piece stands on the walked roads; None at home and in the centre (no limit there)."""
    out_: list[tuple | None] = []
    for k, progress in enumerate(pieces):
        place = None if progress == HOME else ROADS[COLOURS[seats][k // 4]][progress]
        out_.append(None if place is None or place[0] == "centre" else place)
    return out_


def barriers_of(seats: int, pieces) -> set[tuple]:
    held = Counter((k // 4, place) for k, place in enumerate(places(seats, pieces)) if place is not None)
    return {place for (_, place), n in held.items() if n >= 2}


def is_safe(place: tuple) -> bool:
    return place[0] == "corridor" or place[1] in SEGUROS


def ref_moves(seats: int, pieces, stamps, seat: int, count: int, bonus: bool) -> list[tuple]:
    """THE SPEC's legal moves, walked cell by cell: [(code, piece, from, to, effect)]."""
    colour = COLOURS[seats][seat]
    road = ROADS[colour]
    own = tuple(pieces[4 * seat:4 * seat + 4])
    where_ = places(seats, pieces)
    if not bonus and count == 5 and HOME in own:
        on_exit = [k for k, place in enumerate(where_) if place == road[0]]
        if sum(k // 4 == seat for k in on_exit) < 2:
            enemy = any(k // 4 != seat for k in on_exit)
            return [("e", own.index(HOME), HOME, 0, EFFECT_CAPTURE if enemy else EFFECT_NONE)]
    walls = barriers_of(seats, pieces)
    moves, tried = [], set()
    for i, start in enumerate(own):
        if start in (HOME, CENTRE) or start in tried:
            continue
        tried.add(start)
        end = start + count
        if end >= len(road) or any(road[q] in walls for q in range(start + 1, end)):
            continue
        target = road[end]
        if target == ("centre",):
            moves.append((f"p{i}", i, start, end, EFFECT_CENTRE))
            continue
        there = [k for k, place in enumerate(where_) if place == target]
        if len(there) >= 2:
            continue
        if is_safe(target):
            effect = EFFECT_SAFE
        elif there and there[0] // 4 != seat:
            effect = EFFECT_CAPTURE
        else:
            effect = EFFECT_NONE
        moves.append((f"p{i}", i, start, end, effect))
    if not bonus and count in (6, 7):
        opening = [m for m in moves if own.count(m[2]) == 2]
        moves = opening or moves
    return moves


def ref_action(before: ParchisState, entry: LogEntry) -> dict:
    """THE SPEC for one action, independently of the engine: the fields after it."""
    seats, seat = before.seats, before.turn
    pieces = list(before.pieces)
    following = (seat + 1) % seats
    if before.phase == "roll":
        (die,) = entry.dice
        sixes = before.sixes + 1 if die == 6 else 0
        if sixes == 3:
            last = 4 * seat + before.moved
            if before.moved >= 0 and 0 <= pieces[last] <= 63:
                pieces[last] = HOME
            return {"pieces": tuple(pieces), "turn": following, "phase": "roll", "sixes": 0, "moved": -1,
                    "finished": False}
        count = 7 if die == 6 and HOME not in pieces[4 * seat:4 * seat + 4] else die
        bonus, again, moved, chosen = False, die == 6, before.moved, None
    else:
        count, bonus, again, sixes, moved = before.count, before.bonus, before.again, before.sixes, before.moved
        chosen = entry.code
    while True:
        moves = ref_moves(seats, pieces, before.stamps, seat, count, bonus)
        if chosen is None and len(moves) > 1:
            return {"pieces": tuple(pieces), "turn": seat, "phase": "move", "moves": tuple(moves), "count": count,
                    "bonus": bonus, "sixes": sixes, "moved": moved, "finished": False}
        if not moves:
            break
        _, i, start, end, effect = moves[0] if chosen is None else next(m for m in moves if m[0] == chosen)
        chosen = None
        if effect == EFFECT_CAPTURE:
            if start == HOME:
                exit_place = ROADS[COLOURS[seats][seat]][0]
                victims = [k for k, place in enumerate(places(seats, pieces)) if place == exit_place and k // 4 != seat]
                victim = max(victims, key=lambda k: before.stamps[k])
            else:
                target = ROADS[COLOURS[seats][seat]][end]
                (victim,) = [k for k, place in enumerate(places(seats, pieces)) if place == target]
            pieces[victim] = HOME
        pieces[4 * seat + i] = end
        moved = i
        if all(p == CENTRE for p in pieces[4 * seat:4 * seat + 4]):
            return {"pieces": tuple(pieces), "finished": True, "winner": seat}
        if effect == EFFECT_CAPTURE:
            count, bonus = 20, True
        elif effect == EFFECT_CENTRE:
            count, bonus = 10, True
        else:
            break
    if again:
        return {"pieces": tuple(pieces), "turn": seat, "phase": "roll", "sixes": sixes, "moved": moved,
                "finished": False}
    return {"pieces": tuple(pieces), "turn": following, "phase": "roll", "sixes": 0, "moved": -1, "finished": False}


def test_reference_agrees_on_the_scenarios_above():
    """The reference itself is checked on a few hand-made positions."""
    state = game(4, pieces={0: (5, 5, 30, HOME), 1: (at(1, 12), at(1, 12), HOME, HOME)})
    assert ref_moves(4, state.pieces, state.stamps, 0, 6, False) == [("p2", 2, 30, 36, EFFECT_NONE)]
    state = game(4, pieces={0: (5, 5, 30, 30)})
    assert [m[0] for m in ref_moves(4, state.pieces, state.stamps, 0, 7, False)] == ["p0", "p2"]
    state = game(4, pieces={0: (1, HOME, HOME, HOME), 1: (at(1, 9), HOME, HOME, HOME)})
    assert ref_moves(4, state.pieces, state.stamps, 0, 3, False) == [("p0", 0, 1, 4, EFFECT_CAPTURE)]
    assert ref_moves(4, state.pieces, state.stamps, 0, 5, False) == [("e", 1, HOME, 0, EFFECT_NONE)]


# ====================================================================== properties

SPEC = GAME_SETUPS["parchis"]
MAX_ACTIONS, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props


@PROPS
@given(SETUPS)
def test_prop_every_step_matches_the_reference(setup):
    for before, after, _events, entry in playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1]:
        assert_step_matches(before, after, entry, ref_action(before, entry))
        if after.phase == "move":
            assert [a.code for a in ENGINE.legal_actions(after)] == [m[0] for m in after.moves]
        elif not after.finished:
            assert ENGINE.legal_actions(after) == [ROLL]


@PROPS
@given(SETUPS)
def test_prop_board_invariants_and_captures(setup):
    """No cell over two pieces, two colours only on a seguro; no move passes a barrier that
    stood before it; only a lone opponent off the seguros is captured, or one on the exit;
    the stamps of two colours sharing a cell tell which arrived last."""
    _, seats, _, _ = setup
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    arrival, clock = [0] * (4 * seats), 0
    for state in states_of(start, steps):
        crowd = Counter(place for place in places(seats, state.pieces) if place is not None)
        assert max(crowd.values(), default=0) <= 2
        for place in crowd:
            owners = {k // 4 for k, p in enumerate(places(seats, state.pieces)) if p == place}
            assert len(owners) == 1 or is_safe(place), (place, state)
    for before, after, events, _ in steps:
        board = list(before.pieces)
        last = None
        for event in events:
            if event.kind == "third_six" and event.data["piece"] is not None:
                k = 4 * event.seat + event.data["piece"]
                assert 0 <= board[k] <= 63
                board[k] = HOME
            elif event.kind in ("exit", "move"):
                k = 4 * event.seat + event.data["piece"]
                assert board[k] == event.data["from"]
                road = ROADS[COLOURS[seats][event.seat]]
                walls = barriers_of(seats, board)
                assert not any(road[q] in walls for q in range(event.data["from"] + 1, event.data["to"])), event
                board[k] = event.data["to"]
                last = (k, event.kind)
                clock += 1
                arrival[k] = clock
            elif event.kind == "capture":
                victim = 4 * event.seat + event.data["piece"]
                mover, kind = last
                assert event.seat != mover // 4 == event.data["by"]
                where_ = places(seats, board)
                assert where_[victim] == where_[mover] is not None
                if kind == "exit":
                    assert where_[mover] == ROADS[COLOURS[seats][mover // 4]][0]
                else:
                    assert not is_safe(where_[mover])
                    assert [k for k, p in enumerate(where_) if p == where_[mover]] == sorted((victim, mover))
                board[victim] = HOME
        assert tuple(board) == after.pieces
        where_ = places(seats, board)
        for a, b in combinations(range(4 * seats), 2):
            if a // 4 != b // 4 and where_[a] is not None and where_[a] == where_[b]:
                assert (after.stamps[a] > after.stamps[b]) == (arrival[a] > arrival[b]), (a, b, after)


@PROPS
@given(SETUPS)
def test_prop_the_winner_alone_has_all_four_pieces_in_the_centre(setup):
    assert_won_alone(playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1][-1][1], lambda piece: piece == CENTRE)


# ====================================================================== random play


@pytest.mark.parametrize("seats", range(2, 5))
def test_random_play_every_seat_count(seats):
    seeds = [seed_str(100 * seats + i) for i in range(3)]
    for state, result in random_wins(ENGINE, ParchisOptions(), seats, seeds, MAX_ACTIONS):
        assert state.of(state.winner) == (CENTRE,) * 4
        steps_made = {s: (state.of(s).count(CENTRE), sum(p + 1 for p in state.of(s))) for s in range(seats)}
        assert result.ranking[0] == state.winner
        assert [steps_made[s] for s in result.ranking[1:]] == sorted((steps_made[s] for s in result.ranking[1:]),
                                                                     reverse=True)


def test_random_play_shows_every_event():
    seen: Counter[str] = Counter()
    for i in range(12):
        seats = 2 + i % 3
        state, events = ENGINE.new_game(ParchisOptions(), seats, seed_str(7000 + i))
        seen.update(kinds(events))
        _, per_action, _ = play_out(ENGINE, state, MAX_ACTIONS, random_choice(i))
        for events in per_action:
            seen.update(kinds(events))
    assert set(seen) == {"starter", "roll", "no_move", "choose", "exit", "move", "capture", "centre", "bonus_lost",
                         "six_as_seven", "third_six", "win"}
