"""engines/shishbesh.py against THE SPEC (docs/rules/shishbesh.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the nine rules the
engine docstring numbers, ``test_settled_...`` for the points it settles). Throws are
loaded: a test names the faces it wants (``LoadedDice``) and the engine rolls them through
its own dice path. Mid-game positions are built with dataclasses.replace; positions are a
piece's own count: P (the park), 0..48 on the circuit from its own end cell (long board
0..56), then the home cells (49..52, long 57..61). :func:`at` turns an absolute cell of the
sketches (positions of the bottom player, seat 0) into another seat's position.

The property tests check every step of random games against :func:`ref_action`, a
straightforward re-implementation of the rules (rule 2's both-dice filter included),
built on the cell numbers read off the sketches rather than on the engine's geometry.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given

from engines.base import Action, Event, IllegalActionError, LogEntry
from engines.shishbesh import (
    EFFECT_CAPTURE,
    EFFECT_HOME,
    EFFECT_HUT,
    EFFECT_NONE,
    ENGINE,
    GEOMETRY,
    ShishbeshOptions,
    ShishbeshState,
    describe_position,
)
from tests.engine_helpers import (
    NOT_BOOLS,
    apply_choice,
    apply_throw,
    assert_nothing_legal,
    assert_options_refused,
    assert_step_matches,
    assert_won_alone,
    kinds,
    new_state,
    play_out,
    playthrough,
    random_wins,
    seed_str,
    states_of,
    valid_option_games,
)
from tests.engine_setups import GAME_SETUPS, prop_settings, random_choice

P = -1  # the park
STD, LONG = GEOMETRY["standard"], GEOMETRY["long"]
LONG_OPTS = ShishbeshOptions(board="long")
ROLL = Action("r", "roll")
ARMS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # settled: two players sit opposite

# Read off shishbesh-standard.png / shishbesh-long.png (bottom player's positions).
SKETCH = {
    "standard": {"quarter": 12, "corners": (6, 18, 30, 42), "home": (49, 50, 51, 52),
                 "huts": {3, 9, 15, 21, 27, 33, 39, 45}},
    "long": {"quarter": 14, "corners": (7, 21, 35, 49), "home": (57, 58, 59, 60, 61),
             "huts": {3, 11, 17, 25, 31, 39, 45, 53}},
}
# rule 7 / settled: staggered puts the hut of the lane arriving at an end cell on its 4th cell
STAGGERED = {"standard": {3, 8, 15, 20, 27, 32, 39, 44}, "long": {3, 10, 17, 24, 31, 38, 45, 52}}


def at(seat: int, cell: int, seats: int = 4, board: str = "standard") -> int:
    """The position of a piece of ``seat`` standing on absolute cell ``cell`` (seat 0's count)."""
    quarter = SKETCH[board]["quarter"]
    return (cell - ARMS[seats][seat] * quarter) % (4 * quarter)


def game(seats: int = 4, turn: int = 0, pieces: dict[int, tuple[int, ...]] | None = None,
         huts: tuple[int, ...] = (), options: ShishbeshOptions | None = None, **changes) -> ShishbeshState:
    """A game, seat ``turn`` to throw. ``pieces`` maps a seat to its four positions (other
    seats in the park); ``huts`` lists flat piece indices (4 × seat + piece) inside a hut."""
    board = [P] * (4 * seats)
    for seat, own in (pieces or {}).items():
        assert len(own) == 4
        board[4 * seat:4 * seat + 4] = own
    inside = tuple(k in huts for k in range(4 * seats))
    return new_state(ENGINE, options or ShishbeshOptions(), seats, turn=turn, pieces=tuple(board), huts=inside,
                     **changes)


def throw(state: ShishbeshState, a: int, b: int):
    """Apply one throw showing exactly (a, b); returns (state, events), the first the roll."""
    after, events, _ = apply_throw(ENGINE, state, (a, b))
    assert events[0] == Event("roll", state.turn, {"dice": [a, b]})
    return after, events


def pick(state: ShishbeshState, code: str):
    """Apply a move choice; returns (state, events)."""
    return apply_choice(ENGINE, state, code, "move")


def codes(state: ShishbeshState) -> list[str]:
    return [a.code for a in ENGINE.legal_actions(state)]


def moving(code: str, die: int, piece: int, start: int, to: int, effect: int, kind: str = "step") -> Action:
    """The action of a step (or a jump of ``kind``): the die, the piece (numbered from 1), from, to, the effect."""
    return Action(code, kind, {"die": die, "piece": piece, "start": start, "to": to, "effect": effect})


def entering(die: int, piece: int, effect: int) -> Action:
    """The action bringing a piece out with ``die``: the piece (numbered from 1), the effect."""
    return Action(f"e{die}", "enter", {"die": die, "piece": piece, "effect": effect})


def step(seat: int, piece: int, start: int, to: int, die: int, kind: str = "step") -> Event:
    return Event(kind, seat, {"piece": piece, "from": start, "to": to, "die": die})


def enter(seat: int, piece: int, die: int) -> Event:
    return step(seat, piece, P, 0, die, kind="enter")


def captured(seat: int, piece: int, by: int) -> Event:
    return Event("capture", seat, {"piece": piece, "by": by})


def hut(seat: int, piece: int) -> Event:
    return Event("hut", seat, {"piece": piece})


def again(seat: int, capture: bool = False) -> Event:
    return Event("again", seat, {"capture": capture})


def choose(seat: int, *dice: int) -> Event:
    return Event("choose", seat, {"dice": list(dice)})


def no_move(seat: int, *dice: int) -> Event:
    return Event("no_move", seat, {"dice": list(dice)})


# ====================================================================== rule 1: the board


@pytest.mark.parametrize("board", ["standard", "long"])
def test_rule1_geometry_matches_the_sketches(board):
    geo, sketch = GEOMETRY[board], SKETCH[board]
    assert geo.quarter == sketch["quarter"] and geo.circuit == 4 * sketch["quarter"] == geo.end
    assert geo.corners == sketch["corners"]
    assert tuple(geo.home) == sketch["home"]
    assert geo.shelters(False) == sketch["huts"]
    assert geo.shelters(True) == STAGGERED[board]
    for arm in range(4):
        for pos in range(geo.end + 1):
            assert geo.cell(arm, pos) == (pos + arm * geo.quarter) % geo.circuit
        assert geo.cell(arm, P) is None and all(geo.cell(arm, h) is None for h in geo.home)
        assert geo.cell(arm, geo.end) == geo.cell(arm, 0)  # the own end cell again
    # every outer lane (5 or 6 cells between an end cell and a corner) holds exactly one hut
    for huts in (sketch["huts"], STAGGERED[board]):
        for lane in range(8):
            quarter_start = lane // 2 * geo.quarter
            cells = (range(quarter_start + 1, quarter_start + geo.quarter // 2) if lane % 2 == 0
                     else range(quarter_start + geo.quarter // 2 + 1, quarter_start + geo.quarter))
            assert len(set(cells) & huts) == 1
    assert describe_position(geo, P) == (0, 0)
    assert describe_position(geo, 7) == (1, 7)
    assert describe_position(geo, geo.home[0]) == (2, 1)


def test_rule1_positions_of_other_arms():
    """Seat 1 (arm 1) moving 5 from its own end cell reaches absolute cell 17 and captures there."""
    state, events = throw(game(4, turn=1, pieces={1: (at(1, 12), 2, 49, 50), 0: (17, P, P, P)}), 5, 2)
    # die 5: piece 0 0 → 5 (cell 17, captures), piece 1 2 → 7; die 2: piece 0 → 2 (own piece there: no),
    # piece 1 → 4, home 50 → 52 (49 → 51 would pass 50: no)
    assert set(codes(state)) == {"s50", "s51", "s21", "s23"}
    state, events = pick(state, "s50")
    assert events[:2] == [step(1, 0, 0, 5, 5), captured(0, 0, 1)]
    assert state.pieces[0] == P


def test_rule1_piece_goes_round_into_its_home():
    state = game(4, pieces={0: (44, P, P, P)})
    state, events = throw(state, 4, 2)  # 44 → 48 (own end cell, circuit) → 50, or 44 → 46 → 50
    assert set(codes(state)) == {"s40", "s20"}
    state, events = pick(state, "s40")
    assert events == [step(0, 0, 44, 48, 4), step(0, 0, 48, 50, 2), Event("home", 0, {"piece": 0})]
    assert state.pieces[0] == 50 and state.turn == 1


def test_rule1_no_second_lap_past_the_last_home_cell():
    state, events = throw(game(4, pieces={0: (47, 50, 51, 52)}), 6, 1)  # 47 + 6 = 53: beyond the home
    assert events[1:] == [step(0, 0, 47, 48, 1), no_move(0, 6)]
    assert state.pieces[:4] == (48, 50, 51, 52) and state.turn == 1


# ====================================================================== rule 2: two dice


def test_rule2_each_die_a_separate_move_in_the_chosen_order():
    state, events = throw(game(4, pieces={0: (10, 20, P, P)}), 2, 5)
    assert events[1:] == [choose(0, 2, 5)] and state.phase == "move"
    assert codes(state) == ["s20", "s21", "s50", "s51"]
    assert ENGINE.legal_actions(state)[2] == moving("s50", 5, 1, 10, 15, EFFECT_HUT)
    state, events = pick(state, "s51")  # the 5 first
    assert events == [step(0, 1, 20, 25, 5), choose(0, 2)]
    assert codes(state) == ["s20", "s21"] and state.dice == (2,)
    state, events = pick(state, "s20")
    assert events == [step(0, 0, 10, 12, 2)]
    assert state.pieces[:4] == (12, 25, P, P) and state.turn == 1 and state.phase == "roll"


def test_rule2_the_same_piece_may_take_both_dice():
    state, _ = throw(game(4, pieces={0: (10, 20, P, P)}), 2, 5)
    state, _ = pick(state, "s20")
    state, events = pick(state, "s50")
    assert events == [step(0, 0, 12, 17, 5)]
    assert state.pieces[:4] == (17, 20, P, P)


def test_rule2_only_first_moves_that_leave_the_other_die_playable():
    """Home 49..52: a 1 with piece 1 (49 → 50) would leave the 3 unplayable (47 → 50 taken,
    50 → 53 beyond); a 1 with piece 0 (47 → 48) or the 3 with piece 1 (49 → 52) keep both."""
    state, events = throw(game(4, pieces={0: (47, 49, P, P)}), 1, 3)
    assert events[1:] == [choose(0, 1, 3)]
    assert codes(state) == ["s10", "s31"]
    with pytest.raises(IllegalActionError):
        ENGINE.apply(state, "s11")
    after, events = pick(state, "s10")
    assert events == [step(0, 0, 47, 48, 1), step(0, 1, 49, 52, 3)]  # the 3 is then forced (48 → 51 passes 49)
    assert after.pieces[:4] == (48, 52, P, P) and after.turn == 1


def test_rule2_only_one_die_playable_is_played_at_once():
    """50 + 2 = 52 is the last home cell, 50 + 3 is beyond: the 2 is forced, no choice asked."""
    state, events = throw(game(4, pieces={0: (50, P, P, P)}), 3, 2)
    assert events[1:] == [step(0, 0, 50, 52, 2), no_move(0, 3)]
    assert state.phase == "roll" and state.turn == 1 and state.pieces[:4] == (52, P, P, P)


def test_rule2_either_but_not_both_the_player_picks():
    """47 → 49 or 47 → 48; after either the other die has no move (50..52 are taken)."""
    state, events = throw(game(4, pieces={0: (47, 50, 51, 52)}), 2, 1)
    assert events[1:] == [choose(0, 2, 1)]
    assert codes(state) == ["s20", "s10"]
    after, events = pick(state, "s10")
    assert events == [step(0, 0, 47, 48, 1), no_move(0, 2)]
    assert after.pieces[:4] == (48, 50, 51, 52) and after.turn == 1
    after, events = pick(state, "s20")  # the other choice brings the last piece home: the game is won
    assert events == [step(0, 0, 47, 49, 2), Event("home", 0, {"piece": 0}), Event("win", 0)]
    assert after.pieces[:4] == (49, 50, 51, 52) and after.finished and after.winner == 0


def test_rule2_forced_moves_are_played_without_a_choice():
    state, events = throw(game(4, pieces={0: (20, 49, 50, 52)}), 4, 4)  # a double: one piece, 4 then 4
    assert events[1:] == [step(0, 0, 20, 24, 4), step(0, 0, 24, 28, 4), again(0)]
    assert state.phase == "roll" and state.version == 1


def test_rule2_one_piece_still_chooses_the_order_of_two_dice():
    """10 → 11 → 15 or 10 → 14 → 15: the order is the player's (it matters for captures on the way)."""
    state, events = throw(game(4, pieces={0: (10, P, P, P)}), 1, 4)
    assert events[1:] == [choose(0, 1, 4)] and codes(state) == ["s10", "s40"]
    state, events = pick(state, "s40")
    assert events == [step(0, 0, 10, 14, 4), step(0, 0, 14, 15, 1), hut(0, 0)]


def test_rule2_nothing_playable_passes_the_turn():
    state, events = throw(game(4, turn=2), 5, 3)
    assert events == [Event("roll", 2, {"dice": [5, 3]}), no_move(2, 5, 3)]
    assert state.turn == 3 and state.phase == "roll" and state.pieces == (P,) * 16


# ====================================================================== rule 3: another throw


def test_rule3_a_double_gives_another_throw():
    state, events = throw(game(4, pieces={0: (10, P, P, P)}), 2, 2)
    assert events[1:] == [step(0, 0, 10, 12, 2), step(0, 0, 12, 14, 2), again(0)]
    assert state.turn == 0 and state.phase == "roll" and state.rolled == ()
    state, events = throw(state, 1, 2)  # the same player throws again; no double now
    assert events[0].seat == 0 and codes(state) == ["s10", "s20"]
    state, events = pick(state, "s20")
    assert events == [step(0, 0, 14, 16, 2), step(0, 0, 16, 17, 1)]
    assert state.turn == 1


def test_rule3_a_capture_sends_the_piece_to_its_park_and_gives_another_throw_after_the_turn():
    victim = at(1, 14)
    state = game(4, pieces={0: (10, P, P, P), 1: (30, victim, P, P)}, huts=())
    state, events = throw(state, 4, 2)
    assert ENGINE.legal_actions(state) == [moving("s40", 4, 1, 10, 14, EFFECT_CAPTURE),
                                           moving("s20", 2, 1, 10, 12, EFFECT_NONE)]
    state, events = pick(state, "s40")
    assert events == [step(0, 0, 10, 14, 4), captured(1, 1, 0), step(0, 0, 14, 16, 2), again(0, capture=True)]
    assert state.of(1) == (30, P, P, P) and state.turn == 0 and state.phase == "roll" and not state.bonus
    state, events = throw(state, 5, 1)  # no capture, no double: the turn passes now
    state, events = pick(state, "s50")
    assert events == [step(0, 0, 16, 21, 5), hut(0, 0), step(0, 0, 21, 22, 1)]
    assert state.turn == 1


def test_settled_a_double_and_a_capture_give_one_extra_throw():
    state = game(4, pieces={0: (10, P, P, P), 1: (at(1, 12), P, P, P)})
    state, events = throw(state, 2, 2)
    assert events[1:] == [step(0, 0, 10, 12, 2), captured(1, 0, 0), step(0, 0, 12, 14, 2), again(0, capture=True)]
    state, events = throw(state, 5, 3)  # 14 → 19/17 → 22: a choice of order, then the turn passes
    state, _ = pick(state, codes(state)[0])
    assert state.turn == 1 and state.pieces[:4] == (22, P, P, P)


# ====================================================================== rule 4: the park


def test_rule4_leaving_the_park_on_a_six_onto_the_start_field():
    state, events = throw(game(4, pieces={0: (20, P, P, P)}), 6, 2)
    assert codes(state) == ["s60", "e6", "s20"]
    assert ENGINE.legal_actions(state)[1] == entering(6, 2, EFFECT_NONE)  # the first park piece
    entered, events = pick(state, "e6")  # the 6 is used up; the 2 moves the new piece or another one
    assert events == [enter(0, 1, 6), choose(0, 2)]
    assert codes(entered) == ["s20", "s21"]
    after, events = pick(entered, "s21")
    assert events == [step(0, 1, 0, 2, 2)]
    assert after.pieces[:4] == (20, 2, P, P) and after.turn == 1
    after, _ = pick(entered, "s20")
    assert after.pieces[:4] == (22, 0, P, P)


def test_rule4_no_six_no_leaving():
    state, events = throw(game(4, pieces={0: (P, P, P, 49)}), 5, 1)
    assert state.turn == 1 and state.pieces[:4] == (P, P, P, 50)
    assert events[1:] == [step(0, 3, 49, 50, 1), no_move(0, 5)]
    _, events = throw(game(4), 5, 5)  # not even a double in the default variant
    assert events[1:] == [no_move(0, 5, 5), again(0)]  # an unplayable double still throws again


def test_rule4_leaving_captures_an_opponent_on_the_start_field():
    state = game(4, pieces={0: (P, P, P, P), 3: (at(3, 0), P, P, P)})
    state, events = throw(state, 6, 1)
    assert events[1:] == [enter(0, 0, 6), captured(3, 0, 0), step(0, 0, 0, 1, 1), again(0, capture=True)]


def test_rule4_own_piece_on_the_start_field_blocks_leaving():
    state, events = throw(game(4, pieces={0: (0, P, P, P)}), 6, 5)
    assert "e6" not in codes(state)
    assert set(codes(state)) == {"s60", "s50"}
    after, events = pick(state, "s50")  # the 5 first frees the start field: the 6 then brings one out
    assert events == [step(0, 0, 0, 5, 5), choose(0, 6)]
    assert codes(after) == ["s60", "e6"]


def test_rule4_double_six_from_the_park_brings_one_out_then_steps_it():
    """What the engine does: the second 6 cannot bring a second piece onto the taken start field."""
    _, events = throw(game(4), 6, 6)
    assert events[1:] == [enter(0, 0, 6), step(0, 0, 0, 6, 6), again(0)]


def test_rule4_start_double_leaves_on_either_die_of_a_double_only():
    opts = ShishbeshOptions(start="double")
    state, events = throw(game(4, options=opts), 6, 5)
    assert events[1:] == [no_move(0, 6, 5)] and state.turn == 1
    state, events = throw(game(4, options=opts), 3, 3)  # in, then the other 3 into the hut on 3; throw again
    assert events[1:] == [enter(0, 0, 3), step(0, 0, 0, 3, 3), hut(0, 0), again(0)]
    state, events = throw(game(4, pieces={0: (10, P, P, P)}, options=opts), 4, 4)
    assert codes(state) == ["s40", "e4"]
    state, events = pick(state, "e4")
    assert events == [enter(0, 1, 4), choose(0, 4)]
    assert codes(state) == ["s40", "s41"]  # the other die moves as usual
    state, events = pick(state, "s40")
    assert events == [step(0, 0, 10, 14, 4), again(0)]
    assert state.turn == 0 and state.pieces[:4] == (14, 0, P, P)


def test_rule4_start_six_or_double():
    opts = ShishbeshOptions(start="six_or_double")
    state, events = throw(game(4, options=opts), 6, 5)
    assert events[1:] == [enter(0, 0, 6), step(0, 0, 0, 5, 5)] and state.turn == 1
    state, events = throw(game(4, options=opts), 2, 2)
    assert events[1:] == [enter(0, 0, 2), step(0, 0, 0, 2, 2), again(0)]
    state, events = throw(game(4, options=opts), 4, 1)
    assert events[1:] == [no_move(0, 4, 1)]


# ====================================================================== rule 5: own pieces, captures


def test_rule5_no_two_own_pieces_on_one_cell():
    state, _ = throw(game(4, pieces={0: (10, 14, P, P)}), 4, 2)
    assert "s40" not in codes(state)  # 10 → 14 is taken by the own piece
    assert set(codes(state)) == {"s41", "s20", "s21"}


def test_rule5_captured_piece_in_the_park_and_capturer_on_its_cell():
    state = game(2, pieces={0: (20, P, P, P), 1: (at(1, 25, seats=2), 5, P, P)})
    assert state.of(1)[0] == 1  # seat 1 sits opposite: its end cell is absolute 24
    state, events = throw(state, 5, 1)
    state, events = pick(state, "s50")
    assert events[:2] == [step(0, 0, 20, 25, 5), captured(1, 0, 0)]
    assert state.of(1)[0] == P


# ====================================================================== rule 6: corners


def test_rule6_jumps_from_the_first_corner_with_a_one():
    state, events = throw(game(4, pieces={0: (6, P, P, P)}), 1, 2)
    assert ENGINE.legal_actions(state) == [
        moving("s10", 1, 1, 6, 7, EFFECT_NONE),
        moving("jf0", 1, 1, 6, 18, EFFECT_NONE, kind="jump_forward"),
        moving("jb0", 1, 1, 6, 42, EFFECT_NONE, kind="jump_back"),  # the срез
        moving("s20", 2, 1, 6, 8, EFFECT_NONE),
    ]
    state, events = pick(state, "jb0")
    assert events == [step(0, 0, 6, 42, 1, kind="jump_back"), step(0, 0, 42, 44, 2)]  # the other die as usual
    assert state.pieces[:4] == (44, P, P, P) and state.turn == 1


def test_rule6_a_jump_needs_the_die_move_to_begin_on_the_corner():
    state, events = throw(game(4, pieces={0: (5, 50, 51, 52)}), 1, 1)  # 5 → 6 is forced, then the corner's 1
    assert events[1:] == [step(0, 0, 5, 6, 1), choose(0, 1)]
    assert codes(state) == ["s10", "jf0", "jb0"]


@pytest.mark.parametrize(("start", "die", "targets"), [
    (18, 1, {"s": 19, "jf": 30, "jb": 6}),
    (30, 1, {"s": 31, "jf": 42, "jb": 18}),
    (42, 1, {"s": 43, "jb": 30}),  # no forward jump from 42
    (6, 3, {"s": 9, "jd": 30}),
    (18, 3, {"s": 21, "jd": 42}),
    (30, 3, {"s": 33, "jd": 6}),  # diagonals never pass 42
    (42, 3, {"s": 45, "jd": 18}),
    (7, 1, {"s": 8}),  # not a corner
    (6, 2, {"s": 8}),  # only a 1 or a 3 jumps
])
def test_rule6_jump_targets(start, die, targets):
    state = replace(game(4, pieces={0: (start, 49, 50, 51)}), phase="move", dice=(die,), rolled=(die, 6))
    got = {a.code[:-1] if a.code.startswith("j") else "s": a.args["to"] for a in ENGINE.legal_actions(state)
           if a.args["piece"] == 1}
    assert got == targets


def test_rule6_a_jump_captures():
    state = game(4, pieces={0: (6, P, P, P), 1: (at(1, 18), P, P, P)})
    state, _ = throw(state, 1, 5)
    assert moving("jf0", 1, 1, 6, 18, EFFECT_CAPTURE, kind="jump_forward") in ENGINE.legal_actions(state)
    state, events = pick(state, "jf0")
    assert events == [step(0, 0, 6, 18, 1, kind="jump_forward"), captured(1, 0, 0), step(0, 0, 18, 23, 5),
                      again(0, capture=True)]


def test_rule6_a_jump_onto_an_own_piece_is_not_allowed():
    state, _ = throw(game(4, pieces={0: (6, 42, P, P)}), 1, 5)
    assert "jb0" not in codes(state) and "jf0" in codes(state)


def test_rule6_a_six_from_the_start_reaches_the_first_corner_on_the_standard_board_only():
    state, _ = throw(game(4, pieces={0: (0, 50, 51, 52)}), 6, 1)
    state, events = pick(state, "s60")
    assert events == [step(0, 0, 0, 6, 6), choose(0, 1)]
    assert codes(state) == ["s10", "jf0", "jb0"]
    state = game(4, pieces={0: (0, 59, 60, 61)}, options=LONG_OPTS)
    state, _ = throw(state, 6, 1)
    state, events = pick(state, "s60")
    assert events == [step(0, 0, 0, 6, 6), step(0, 0, 6, 7, 1)]  # 6 is no corner there: the 1 just steps


@pytest.mark.parametrize(("start", "die", "targets"), [
    (7, 1, {"s": 8, "jf": 21, "jb": 49}),  # the срез on the long board
    (49, 1, {"s": 50, "jb": 35}),
    (35, 3, {"s": 38, "jd": 7}),
    (49, 3, {"s": 52, "jd": 21}),
    (6, 1, {"s": 7}),
])
def test_rule6_long_board_corners(start, die, targets):
    state = replace(game(4, pieces={0: (start, 57, 58, 59)}, options=LONG_OPTS), phase="move", dice=(die,),
                    rolled=(die, 6))
    got = {a.code[:-1] if a.code.startswith("j") else "s": a.args["to"] for a in ENGINE.legal_actions(state)
           if a.args["piece"] == 1}
    assert got == targets


# ====================================================================== rule 7: shelters


def test_rule7_shelter_hut_protects_and_the_open_cell_does_not():
    state, _ = throw(game(4, pieces={0: (0, 20, P, P), 3: (at(3, 47), P, P, P)}), 3, 2)
    assert moving("s30", 3, 1, 0, 3, EFFECT_HUT) in ENGINE.legal_actions(state)
    state, events = pick(state, "s30")
    assert events == [step(0, 0, 0, 3, 3), hut(0, 0), choose(0, 2)]
    state, _ = pick(state, "s21")
    assert state.pieces[:4] == (3, 22, P, P) and state.huts[:4] == (True, False, False, False)
    # seat 3 lands on cell 3 (a double, 2 + 2): the hut is taken, so it stands on the open cell, capturing nothing
    state = replace(state, turn=3)
    state, events = throw(state, 2, 2)
    assert events[1:] == [step(3, 0, at(3, 47), at(3, 1), 2), step(3, 0, at(3, 1), at(3, 3), 2), again(3)]
    assert state.pieces[0] == 3 and state.huts[0] and state.pieces[12] == at(3, 3) and not state.huts[12]
    # seat 0: the hut piece is locked while the open cell is taken; another piece captures there
    state = replace(state, turn=0, pieces=(3, 22, 0, *state.pieces[3:]))
    state, _ = throw(state, 3, 4)
    assert not any(a.args["piece"] == 1 for a in ENGINE.legal_actions(state))  # piece 0 (in the hut) is locked
    assert moving("s32", 3, 3, 0, 3, EFFECT_CAPTURE) in ENGINE.legal_actions(state)
    state, events = pick(state, "s32")
    assert events[:2] == [step(0, 2, 0, 3, 3), captured(3, 0, 0)]
    assert state.pieces[12] == P and state.pieces[0] == state.pieces[2] == 3
    assert state.huts[0] and not state.huts[2]  # an own piece in the hut and one on the open cell


def test_rule7_an_own_piece_on_the_open_cell_locks_the_hut_piece():
    state = game(4, pieces={0: (3, 3, P, P)}, huts=(0,))
    state, _ = throw(state, 1, 2)
    assert all(a.args["piece"] == 2 for a in ENGINE.legal_actions(state))  # only the piece on the open cell moves


def test_rule7_a_hut_piece_moves_on_when_the_open_cell_is_free():
    state = game(4, pieces={0: (9, P, P, P)}, huts=(0,))
    state, events = throw(state, 1, 2)
    assert set(codes(state)) == {"s10", "s20"}
    state, events = pick(state, "s20")
    assert events == [step(0, 0, 9, 11, 2), step(0, 0, 11, 12, 1)]
    assert state.pieces[0] == 12 and not state.huts[0]


def test_rule7_passing_a_shelter_is_free():
    """Cell 3 has a piece in the hut and one on the open cell; seat 0 moves 1 → 5 past it."""
    state = game(4, pieces={0: (1, P, P, P), 3: (at(3, 3), P, P, P), 1: (at(1, 3), P, P, P)}, huts=(4,))
    state, events = throw(state, 4, 5)
    assert set(codes(state)) >= {"s40", "s50"}
    state, events = pick(state, "s40")
    assert events[0] == step(0, 0, 1, 5, 4) and "capture" not in kinds(events)


def test_rule7_a_capture_on_a_shelter_cell_with_the_hut_taken():
    state = game(4, pieces={0: (5, P, P, P), 1: (at(1, 9), P, P, P), 2: (at(2, 9), P, P, P)}, huts=(4,))
    state, _ = throw(state, 4, 1)
    assert moving("s40", 4, 1, 5, 9, EFFECT_CAPTURE) in ENGINE.legal_actions(state)
    state, events = pick(state, "s40")
    assert events[:2] == [step(0, 0, 5, 9, 4), captured(2, 0, 0)]
    assert state.pieces[4] == at(1, 9) and state.huts[4]  # the hut piece stays


@pytest.mark.parametrize(("shelters", "effect"), [("opposite", EFFECT_NONE), ("staggered", EFFECT_HUT)])
def test_rule7_staggered_huts_on_the_third_and_fourth_cells(shelters, effect):
    opts = ShishbeshOptions(shelters=shelters)
    state = replace(game(4, pieces={0: (5, 49, 50, 51)}, options=opts), phase="move", dice=(3,), rolled=(3, 6))
    assert ENGINE.legal_actions(state) == [moving("s30", 3, 1, 5, 8, effect)]
    other = replace(game(4, pieces={0: (6, 49, 50, 51)}, options=opts), phase="move", dice=(3,), rolled=(3, 6))
    hut9 = EFFECT_HUT if shelters == "opposite" else EFFECT_NONE
    assert moving("s30", 3, 1, 6, 9, hut9) in ENGINE.legal_actions(other)


# ====================================================================== rule 8: home


def test_rule8_home_needs_an_exact_count():
    opts = ShishbeshOptions(start="double")  # no piece may leave the park on (6, 1)
    state = replace(game(4, pieces={0: (47, P, P, P)}, options=opts), phase="move", dice=(6,), rolled=(6, 1))
    assert ENGINE.legal_actions(state) == []
    state = replace(state, dice=(5,), rolled=(5, 1))
    assert ENGINE.legal_actions(state) == [moving("s50", 5, 1, 47, 52, EFFECT_HOME)]


def test_rule8_no_jumping_over_own_pieces_in_the_home():
    state = replace(game(4, pieces={0: (46, 50, P, P)}), phase="move", dice=(5,), rolled=(5, 1))
    assert "s50" not in codes(state)  # 46 → 51 passes own piece on 50
    state = replace(state, dice=(3,), rolled=(3, 1))
    assert "s30" in codes(state)  # 46 → 49 stops short of it
    state = replace(state, dice=(4,), rolled=(4, 1))
    assert "s40" not in codes(state)  # 46 → 50 is taken


def test_rule8_moves_inside_the_home_by_exact_count():
    state, events = throw(game(4, pieces={0: (49, P, P, P)}), 2, 4)
    assert events[1:] == [step(0, 0, 49, 51, 2), no_move(0, 4)]  # already home: no «home» event again
    assert state.pieces[:4] == (51, P, P, P)


def test_rule8_all_four_home_wins_and_the_others_rank_by_home_then_progress():
    state = game(4, pieces={0: (48, 50, 51, 52), 1: (49, 50, 10, P), 2: (49, 40, 30, P), 3: (49, 50, 51, 5)})
    state, events = throw(state, 1, 5)
    # the last piece reaching the home is told (a replay lingers on it), then the win
    assert events[1:] == [step(0, 0, 48, 49, 1), Event("home", 0, {"piece": 0}), Event("win", 0)]
    assert state.finished and state.winner == 0 and state.current_player is None
    out = ENGINE.outcome(state)
    assert out.kind == "win" and out.winners == (0,) and out.ranking == (0, 3, 1, 2)
    assert_nothing_legal(ENGINE, state, ("r", "s50", "e6"))


def test_rule8_outcome_none_before_the_end():
    assert ENGINE.outcome(game(4)) is None


# ====================================================================== rule 9: fast charge


FAST = ShishbeshOptions(fast_charge=True)


def test_rule9_fast_charge_three_throws_then_the_turn_passes():
    state = game(4, turn=1, options=FAST)
    state, events = throw(state, 1, 2)
    assert events[1:] == [no_move(1, 1, 2), Event("charge", 1, {"left": 2})] and state.turn == 1
    state, events = throw(state, 3, 4)
    assert events[1:] == [no_move(1, 3, 4), Event("charge", 1, {"left": 1})] and state.turn == 1
    state, events = throw(state, 5, 2)
    assert events[1:] == [no_move(1, 5, 2)] and state.turn == 2 and state.charges == 0


def test_settled_a_double_throw_is_not_one_of_the_three_charge_throws():
    state = game(4, turn=1, options=FAST)
    state, events = throw(state, 1, 2)
    assert state.charges == 1
    state, events = throw(state, 5, 5)  # nothing to play, but a double: another throw, the count stands
    assert events[1:] == [no_move(1, 5, 5), again(1)] and state.turn == 1 and state.charges == 1
    state, events = throw(state, 3, 4)
    assert events[1:] == [no_move(1, 3, 4), Event("charge", 1, {"left": 1})] and state.charges == 2
    state, events = throw(state, 5, 2)
    assert events[1:] == [no_move(1, 5, 2)] and state.turn == 2


def test_rule9_fast_charge_success_on_a_later_throw():
    state = game(4, pieces={0: (P, 49, 50, P)}, options=FAST)
    state, events = throw(state, 4, 5)
    assert kinds(events)[-1] == "charge" and state.charges == 1
    state, events = throw(state, 6, 3)
    assert events[1:] == [enter(0, 0, 6), step(0, 0, 0, 3, 3), hut(0, 0)]
    assert state.turn == 1 and state.charges == 0


def test_settled_a_step_inside_the_home_does_not_end_the_charge():
    # one piece at 51, three in the park; 1+2: the 1 plays 51 → 52, the 2 has nothing, and the
    # charge goes on (shishbesh.md: what counts is whether a piece has left the park)
    state = game(4, pieces={0: (51, P, P, P)}, options=FAST)
    state, events = throw(state, 1, 2)
    assert events[1:] == [step(0, 0, 51, 52, 1), no_move(0, 2), Event("charge", 0, {"left": 2})]
    assert state.turn == 0 and state.charges == 1
    state, events = throw(state, 3, 4)
    assert events[1:] == [no_move(0, 3, 4), Event("charge", 0, {"left": 1})] and state.charges == 2
    state, events = throw(state, 6, 1)
    assert kinds(events)[1] == "enter" and state.turn == 1 and state.charges == 0


def test_rule9_no_charge_with_a_piece_on_the_circuit():
    state = game(4, pieces={0: (46, 49, 50, 51)}, options=FAST)  # 46 + 5 or 4 is over / onto own home pieces
    state, events = throw(state, 5, 4)
    assert events[1:] == [no_move(0, 5, 4)] and state.turn == 1


def test_rule9_no_charge_without_the_option():
    state, events = throw(game(4), 1, 2)
    assert events[1:] == [no_move(0, 1, 2)] and state.turn == 1


# ====================================================================== settled points


def test_settled_own_end_cell_again_is_on_the_circuit():
    """A piece on 48 can be captured there and keeps its own pieces from entering."""
    state, _ = throw(game(4, pieces={0: (48, P, P, P)}), 6, 5)
    assert "e6" not in codes(state)
    state = game(4, turn=3, pieces={0: (48, P, P, P), 3: (at(3, 44), P, P, P)})
    state, _ = throw(state, 4, 1)
    state, events = pick(state, "s40")
    assert events[:2] == [step(3, 0, at(3, 44), at(3, 0), 4), captured(0, 0, 3)]


def test_settled_two_players_sit_opposite():
    state = game(2, turn=1, pieces={0: (24, P, P, P)})
    state, events = throw(state, 6, 1)
    assert events[1:3] == [enter(1, 0, 6), captured(0, 0, 1)]


# ====================================================================== options, illegal actions


@pytest.mark.parametrize(("key", "value"), [("board", "huge"), ("shelters", "none"), ("start", "five"),
                                            *(("fast_charge", v) for v in NOT_BOOLS)])
def test_options_refused(key, value):
    assert_options_refused(ENGINE, ShishbeshOptions, {key: value}, key, 3)


def test_options_valid():
    assert ShishbeshOptions().to_json() == {"board": "standard", "shelters": "opposite", "start": "six",
                                            "fast_charge": False}
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 4)
    for board, shelters, start, fast in itertools.product(("standard", "long"), ("opposite", "staggered"),
                                                          ("six", "double", "six_or_double"), (False, True)):
        states = valid_option_games(ENGINE, ShishbeshOptions(board, shelters, start, fast))
        assert [s.seats for s in states] == [2, 3, 4]
        assert all(s.pieces == (P,) * (4 * s.seats) and not any(s.huts) for s in states)


def test_illegal_codes_raise():
    state = game(4, pieces={0: (10, 20, P, P)})
    for code in ("s20", "e6", "", "R"):
        with pytest.raises(IllegalActionError):
            ENGINE.apply(state, code)
    state, _ = throw(state, 2, 5)
    for code in ("r", "s30", "s22", "jf0", "e6", "s2"):
        with pytest.raises(IllegalActionError):
            ENGINE.apply(state, code)


# ====================================================================== the reference


def ref_geometry(opts: ShishbeshOptions) -> tuple[int, tuple[int, ...], tuple[int, ...], set[int]]:
    sketch = SKETCH[opts.board]
    huts = STAGGERED[opts.board] if opts.shelters == "staggered" else sketch["huts"]
    return sketch["quarter"], sketch["corners"], sketch["home"], huts


def ref_cell(opts: ShishbeshOptions, seats: int, seat: int, pos: int) -> int | None:
    quarter = SKETCH[opts.board]["quarter"]
    if pos < 0 or pos > 4 * quarter:
        return None
    return (pos + ARMS[seats][seat] * quarter) % (4 * quarter)


def ref_die(opts, seats, pieces, huts, seat, die, rolled) -> list[tuple]:
    """THE SPEC for one die: (code, kind, piece, from, to, effect) for every legal move."""
    _, corners, home, shelters = ref_geometry(opts)
    own = pieces[4 * seat:4 * seat + 4]
    where = [ref_cell(opts, seats, k // 4, p) for k, p in enumerate(pieces)]
    open_at = {where[k]: k for k in range(len(pieces)) if where[k] is not None and not huts[k]}
    hut_at = {where[k]: k for k in range(len(pieces)) if where[k] is not None and huts[k]}

    def landing(i: int, start: int, to: int) -> int | None:
        if to in home:
            walked = range(start + 1, to + 1)
            return None if any(own[j] in home and own[j] in walked for j in range(4) if j != i) else EFFECT_HOME
        cell = ref_cell(opts, seats, seat, to)
        if cell in shelters and cell not in hut_at:
            return EFFECT_HUT
        if cell not in open_at:
            return EFFECT_NONE
        return None if open_at[cell] // 4 == seat else EFFECT_CAPTURE

    moves = []
    double = rolled[0] == rolled[1]
    allowed = {"six": die == 6, "double": double, "six_or_double": die == 6 or double}[opts.start]
    for i, pos in enumerate(own):
        if pos == P:  # the park's pieces are one move, listed at the first of them
            effect = landing(-1, P, 0)
            if allowed and i == own.index(P) and effect is not None:
                moves.append((f"e{die}", "enter", i, P, 0, effect))
            continue
        k = 4 * seat + i
        if huts[k] and where[k] in open_at:
            continue  # locked in the hut
        targets = []
        if pos + die <= home[-1]:
            targets.append((f"s{die}{i}", "step", pos + die))
        if pos in corners:
            n = corners.index(pos)
            if die == 1 and n < 3:
                targets.append((f"jf{i}", "jump_forward", corners[n + 1]))
            if die == 1:
                targets.append((f"jb{i}", "jump_back", corners[n - 1]))  # corners[-1] from the first: the срез
            if die == 3:
                targets.append((f"jd{i}", "jump_diagonal", corners[(n + 2) % 4]))
        for code, kind, to in targets:
            effect = landing(i, pos, to)
            if effect is not None:
                moves.append((code, kind, i, pos, to, effect))
    return moves


def ref_do(opts, seats, pieces, huts, seat, move) -> tuple[list[int], list[bool], bool]:
    _, _, i, _, to, effect = move
    pieces, huts = list(pieces), list(huts)
    captured_ = False
    if effect == EFFECT_CAPTURE:
        cell = ref_cell(opts, seats, seat, to)
        (victim,) = [k for k, p in enumerate(pieces) if not huts[k] and ref_cell(opts, seats, k // 4, p) == cell]
        pieces[victim], huts[victim], captured_ = P, False, True
    pieces[4 * seat + i], huts[4 * seat + i] = to, effect == EFFECT_HUT
    return pieces, huts, captured_


def ref_legal(opts, seats, pieces, huts, seat, dice, rolled) -> list[tuple]:
    """Rule 2: every move of a die left; with two left, only those after which the other is playable."""
    moves = [m for d in sorted(set(dice), key=dice.index) for m in ref_die(opts, seats, pieces, huts, seat, d,
                                                                           rolled)]
    if len(dice) == 2:
        both = []
        for m in moves:
            die = int(m[0][1]) if m[0][0] in "se" else (1 if m[0][1] in "fb" else 3)
            other = dice[1] if dice[0] == die else dice[0]
            p2, h2, _ = ref_do(opts, seats, pieces, huts, seat, m)
            if ref_die(opts, seats, p2, h2, seat, other, rolled):
                both.append(m)
        if both:
            return both
    return moves


def ref_action(before: ShishbeshState, entry: LogEntry) -> dict:
    """THE SPEC for one action, independently of the engine: the fields after it."""
    opts, seats, seat = before.options, before.seats, before.turn
    pieces, huts = list(before.pieces), list(before.huts)
    if before.phase == "roll":
        dice, rolled, bonus, chosen, moved = list(entry.dice), tuple(entry.dice), False, None, False
    else:
        dice, rolled, bonus, chosen, moved = list(before.dice), before.rolled, before.bonus, entry.code, False
    home = SKETCH[opts.board]["home"]
    while dice:
        moves = ref_legal(opts, seats, pieces, huts, seat, dice, rolled)
        if chosen is None and len(moves) > 1:
            return {"pieces": tuple(pieces), "huts": tuple(huts), "turn": seat, "phase": "move",
                    "dice": tuple(dice), "finished": False, "codes": [m[0] for m in moves]}
        if not moves:
            break
        move = moves[0] if chosen is None else next(m for m in moves if m[0] == chosen)
        chosen, moved = None, moved or move[0][0] == "e"  # rule 9: only leaving the park ends a charge
        pieces, huts, hit = ref_do(opts, seats, pieces, huts, seat, move)
        bonus = bonus or hit
        die = int(move[0][1]) if move[0][0] in "se" else (1 if move[0][1] in "fb" else 3)
        dice.remove(die)
        if all(p in home for p in pieces[4 * seat:4 * seat + 4]):
            return {"pieces": tuple(pieces), "finished": True, "winner": seat}
    base = {"pieces": tuple(pieces), "huts": tuple(huts), "phase": "roll", "dice": (), "finished": False,
            "bonus": False}
    if rolled[0] == rolled[1] or bonus:  # a double's extra throw leaves the fast-charge count as it is
        return {**base, "turn": seat, "charges": 0 if moved else before.charges}
    on_circuit = any(0 <= p <= 4 * SKETCH[opts.board]["quarter"] for p in pieces[4 * seat:4 * seat + 4])
    if opts.fast_charge and not moved and not on_circuit and before.charges < 2:
        return {**base, "turn": seat, "charges": before.charges + 1}
    return {**base, "turn": (seat + 1) % seats, "charges": 0}


def test_reference_agrees_on_a_few_positions():
    opts = ShishbeshOptions()
    state = game(4, pieces={0: (47, 49, P, P)})
    assert [m[0] for m in ref_legal(opts, 4, state.pieces, state.huts, 0, [1, 3], (1, 3))] == ["s10", "s31"]
    state = game(4, pieces={0: (6, P, P, P)})
    assert [m[:5] for m in ref_die(opts, 4, state.pieces, state.huts, 0, 1, (1, 2))] == [
        ("s10", "step", 0, 6, 7), ("jf0", "jump_forward", 0, 6, 18), ("jb0", "jump_back", 0, 6, 42)]
    assert ref_die(opts, 4, game(4).pieces, game(4).huts, 0, 6, (6, 6))[0][:2] == ("e6", "enter")


# ====================================================================== properties

SPEC = GAME_SETUPS["shishbesh"]
MAX_ACTIONS, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props
REF_PROPS = prop_settings(20)


@PROPS
@given(SETUPS)
def test_prop_the_winner_alone_has_every_piece_home(setup):
    home = setup[0].geometry.home
    assert_won_alone(playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1][-1][1], lambda piece: piece in home)


@REF_PROPS
@given(SETUPS)
def test_prop_every_step_matches_the_reference(setup):
    for before, after, events, entry in playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1]:
        expected = ref_action(before, entry)
        legal = expected.pop("codes", None)
        assert_step_matches(before, after, entry, expected)
        if after.phase == "move" and not after.finished:
            assert [a.code for a in ENGINE.legal_actions(after)] == legal
            assert len(legal) > 1 and kinds(events)[-1] == "choose"
        elif not after.finished:
            assert ENGINE.legal_actions(after) == [ROLL]


@PROPS
@given(SETUPS)
def test_prop_board_invariants(setup):
    """Never two own pieces on one open cell, at most one piece per hut, huts only on shelter
    cells, each home cell held once; every piece in 'park', the circuit or its home."""
    options, seats = setup[:2]
    quarter, _, home, shelters = ref_geometry(options)
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    for state in states_of(start, steps):
        open_cells, hut_cells = [], []
        for k, pos in enumerate(state.pieces):
            assert pos == P or 0 <= pos <= 4 * quarter or pos in home
            cell = ref_cell(options, seats, k // 4, pos)
            if state.huts[k]:
                assert cell in shelters
                hut_cells.append(cell)
            elif cell is not None:
                open_cells.append((k // 4, cell))
        assert len(set(open_cells)) == len(open_cells)
        assert len(set(hut_cells)) == len(hut_cells)
        for seat in range(seats):
            inside = [p for p in state.of(seat) if p in home]
            assert len(set(inside)) == len(inside)


# ====================================================================== random play


@pytest.mark.parametrize(("seats", "board"), [(s, b) for s in (2, 3, 4) for b in ("standard", "long")])
def test_random_play_every_seat_count_and_board(seats, board):
    seeds = [seed_str(100 * seats + i + (50 if board == "long" else 0)) for i in range(2)]
    opts = ShishbeshOptions(board=board)
    home = opts.geometry.home
    for state, result in random_wins(ENGINE, opts, seats, seeds, MAX_ACTIONS):
        assert all(p in home for p in state.of(state.winner))
        key = {s: (sum(p in home for p in state.of(s)), sum(p + 1 for p in state.of(s))) for s in range(seats)}
        assert [key[s] for s in result.ranking[1:]] == sorted((key[s] for s in result.ranking[1:]), reverse=True)


def test_random_play_shows_every_event():
    seen: set[str] = set()
    for i in range(8):
        opts = ShishbeshOptions(start="six_or_double", fast_charge=True, shelters=("opposite", "staggered")[i % 2])
        state, events = ENGINE.new_game(opts, 2 + i % 3, seed_str(7000 + i))
        seen.update(kinds(events))
        _, per_action, _ = play_out(ENGINE, state, MAX_ACTIONS, random_choice(i))
        for events in per_action:
            seen.update(kinds(events))
    assert seen == {"starter", "roll", "no_move", "choose", "enter", "step", "jump_forward", "jump_back",
                    "jump_diagonal", "capture", "hut", "home", "again", "charge", "win"}


def test_a_throw_is_two_dice():
    state, _ = ENGINE.new_game(ShishbeshOptions(), 3, seed_str(5))
    _, events, entry = ENGINE.apply(state, "r")
    assert len(entry.dice) == 2 and events[0] == Event("roll", state.turn, {"dice": list(entry.dice)})
