"""engines/tishe.py against THE SPEC (docs/rules/tishe.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the seed's ten
numbered rules as the engine docstring lists them, ``test_variant_...`` for «Вариант»,
``test_settled_...`` for what the docstring settles, ``test_seed_...`` for the seed's worked
examples). Throws are loaded: a test names the faces it wants (``LoadedDice``) and the
engine rolls them through its own dice path. Mid-game positions are built with
dataclasses.replace.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given

from engines.base import Action, Event, IllegalActionError, LogEntry
from engines.tishe import (
    EFFECT_BACK,
    EFFECT_FORWARD,
    EFFECT_HOME,
    EFFECT_NONE,
    EFFECT_OFF,
    ENGINE,
    TisheOptions,
    TisheState,
    land,
    move_actions,
)
from tests.engine_helpers import (
    NOT_BOOLS,
    apply_choice,
    apply_throw,
    assert_nothing_legal,
    assert_options_refused,
    assert_step_matches,
    flag_option_games,
    kinds,
    new_state,
    of_kind,
    play_random,
    playthrough,
    random_wins,
    seed_str,
    starter_games,
    states_of,
)
from tests.engine_setups import GAME_SETUPS
from tests.tishe_steps import ROLL

HOME = 100
OFF = 0
ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def game(seats: int = 2, *, both_home: bool = False, checkers: tuple[int, ...] | None = None,
         turn: int = 0, **changes) -> TisheState:
    """A fresh game (seat ``turn`` to throw) with state fields changed by dataclasses.replace.

    ``checkers`` lists every seat's two checkers in seat order (OFF = 0, HOME = 100).
    """
    if checkers is not None:
        assert len(checkers) == 2 * seats
        changes["checkers"] = tuple(checkers)
    return new_state(ENGINE, TisheOptions(both_home=both_home), seats, turn=turn, **changes)


def roll(state: TisheState, dice: tuple[int, int]):
    """Apply one throw that shows exactly ``dice``; returns (state, events)."""
    after, events, _ = apply_throw(ENGINE, state, dice)
    assert events[0] == Event("roll", seat=state.turn, data={"dice": list(dice)})
    return after, events


def pick(state: TisheState, code: str):
    """Apply a choice in the choose phase; returns (state, events)."""
    after, events = apply_choice(ENGINE, state, code, "choose")
    assert after.phase == "roll" and after.dice == ()
    return after, events


def enter_action(direct: int, final: int, effect: int, double: int = 0) -> Action:
    """The ``e`` action: the circle the count reaches, where the checker stays, the effect, the double flag."""
    return Action("e", "enter", {"to": direct, "final": final, "effect": effect, "double": double})


def move_action(number: int, start: int, direct: int, final: int, effect: int, double: int = 0) -> Action:
    """The ``m<i>`` action of checker ``number`` (from 1) from ``start``, otherwise as :func:`enter_action`."""
    return Action(f"m{number - 1}", "move", {"checker": number, "start": start, "to": direct, "final": final,
                                             "effect": effect, "double": double})


def moved(seat: int, checker: int, start: int, to: int, bounced: bool = False, kind: str = "move") -> Event:
    return Event(kind, seat=seat, data={"checker": checker, "from": start, "to": to, "bounced": bounced})


def landed(seat: int, checker: int, rule: str, at: int, to: int) -> Event:
    return Event("land", seat=seat, data={"checker": checker, "rule": rule, "at": at, "to": to})


# ====================================================================== rule 1: entering with a 6


@pytest.mark.parametrize(("dice", "direct", "final", "rule"), [
    ((6, 2), 8, 8, None),
    ((2, 6), 8, 8, None),
    ((6, 3), 9, 9, None),
    ((1, 6), 7, 4, "seven"),  # 7 → back to 4 (rule 5)
    ((6, 4), 10, OFF, "zero"),  # 10 → taken off again (rule 6)
])
def test_rule1_six_enters_by_the_sum(dice, direct, final, rule):
    before = game(3, turn=1)
    after, events = roll(before, dice)
    expected = [Event("roll", seat=1, data={"dice": list(dice)}), moved(1, 0, 0, direct, kind="enter")]
    if rule:
        expected.append(landed(1, 0, rule, direct, final))
    assert events == expected
    assert after.checkers == (0, 0, final, 0, 0, 0)
    assert after.turn == 2 and after.phase == "roll"  # a single legal move: no choice asked
    assert after.last_move == (1, 0, 0, direct, final)
    assert ENGINE.legal_actions(after) == [ROLL]


def test_rule1_enter_6_5_lands_11_goes_to_14_and_misses_two_turns():
    after, events = roll(game(2, turn=0), (6, 5))
    assert events[1:] == [moved(0, 0, 0, 11, kind="enter"), landed(0, 0, "one", 11, 14),
                          Event("double_circle", seat=0, data={"at": 11, "turns": 2})]
    assert after.checkers == (14, 0, 0, 0) and after.missed == (2, 0) and after.turn == 1


def test_rule1_enter_6_6_lands_12_goes_to_15_and_throws_again():
    after, events = roll(game(2, turn=0), (6, 6))
    assert events[1:] == [moved(0, 0, 0, 12, kind="enter"), landed(0, 0, "one", 12, 15),
                          Event("again", seat=0)]
    assert after.checkers == (15, 0, 0, 0) and after.turn == 0 and after.missed == (0, 0)


@pytest.mark.parametrize("dice", [d for d in ALL_DICE if 6 not in d])
def test_rule1_without_a_six_nothing_enters(dice):
    before = game(3, turn=2, checkers=(34, 0, 0, 0, 0, 0))
    after, events = roll(before, dice)
    assert after.checkers == before.checkers
    if dice[0] == dice[1]:  # settled: a double with no move still throws again
        assert kinds(events) == ["roll", "no_move", "again"] and after.turn == 2
    else:
        assert events[1:] == [Event("no_move", seat=2)]
        assert after.turn == 0  # the turn passes
    assert ENGINE.legal_actions(after) == [ROLL]


def test_rule1_4_3_with_nothing_on_the_board_passes():
    after, events = roll(game(2, turn=0), (4, 3))
    assert kinds(events) == ["roll", "no_move"]
    assert after.checkers == (0, 0, 0, 0) and after.turn == 1


def test_rule1_taken_off_checker_needs_a_six_again():
    state, _ = roll(game(2, turn=0, checkers=(24, 0, 0, 0)), (4, 2))  # 30: taken off
    assert state.checkers == (0, 0, 0, 0)
    state, _ = roll(replace(state, turn=0), (5, 3))
    assert state.checkers == (0, 0, 0, 0) and state.turn == 1
    state, _ = roll(replace(state, turn=0), (3, 6))
    assert state.checkers == (9, 0, 0, 0)


# ====================================================================== rule 2: one checker, the sum


def test_rule2_six_with_a_checker_on_the_board_offers_enter_or_move():
    before = game(2, turn=0, checkers=(23, 0, 0, 0))
    state, events = roll(before, (6, 2))
    assert events[1:] == [Event("choose", seat=0)]
    assert state.phase == "choose" and state.dice == (6, 2) and state.turn == state.current_player == 0
    assert state.checkers == before.checkers
    assert ENGINE.legal_actions(state) == [
        enter_action(8, 8, EFFECT_NONE),
        move_action(1, 23, 31, 34, EFFECT_FORWARD),
    ]
    entered, events = pick(state, "e")
    assert events == [moved(0, 1, 0, 8, kind="enter")]
    assert entered.checkers == (23, 8, 0, 0) and entered.turn == 1
    moved_on, events = pick(state, "m0")
    assert events == [moved(0, 0, 23, 31), landed(0, 0, "one", 31, 34)]
    assert moved_on.checkers == (34, 0, 0, 0) and moved_on.turn == 1


def test_rule2_enter_uses_the_free_checker_whichever_it_is():
    state, _ = roll(game(2, turn=1, checkers=(0, 0, 0, 38)), (4, 6))
    assert ENGINE.legal_actions(state) == [
        enter_action(10, OFF, EFFECT_OFF),
        move_action(2, 38, 48, 48, EFFECT_NONE),
    ]
    after, events = pick(state, "e")
    assert events == [moved(1, 0, 0, 10, kind="enter"), landed(1, 0, "zero", 10, OFF)]
    assert after.checkers == (0, 0, 0, 38) and after.turn == 0


def test_rule2_six_with_both_checkers_on_the_board_only_moves():
    state, _ = roll(game(2, turn=0, checkers=(23, 32, 0, 0)), (6, 2))
    assert [a.code for a in ENGINE.legal_actions(state)] == ["m0", "m1"]


def test_rule2_dice_are_never_split_and_the_player_chooses():
    """5 and 3: either checker moves 8; never one 5 and the other 3."""
    before = game(2, turn=1, checkers=(0, 0, 23, 42))
    state, events = roll(before, (5, 3))
    assert kinds(events) == ["roll", "choose"]
    assert ENGINE.legal_actions(state) == [
        move_action(1, 23, 31, 34, EFFECT_FORWARD),
        move_action(2, 42, 50, OFF, EFFECT_OFF),
    ]
    first, _ = pick(state, "m0")
    second, events = pick(state, "m1")
    assert first.checkers == (0, 0, 34, 42)
    assert second.checkers == (0, 0, 23, OFF)
    assert events == [moved(1, 1, 42, 50), landed(1, 1, "zero", 50, OFF)]
    assert first.turn == second.turn == 0


def test_rule2_a_single_legal_move_is_made_with_the_throw():
    after, events = roll(game(2, turn=0, checkers=(23, 0, 0, 0)), (5, 3))
    assert events[1:] == [moved(0, 0, 23, 31), landed(0, 0, "one", 31, 34)]
    assert after.phase == "roll" and after.checkers == (34, 0, 0, 0) and after.turn == 1


def test_rule2_move_is_compulsory_even_when_it_loses_the_checker():
    after, events = roll(game(2, turn=0, checkers=(0, 46, 0, 0)), (2, 2))  # 50: off
    assert events[1:] == [moved(0, 1, 46, 50), landed(0, 1, "zero", 50, OFF), Event("again", seat=0)]
    assert after.checkers == (0, 0, 0, 0)


# ====================================================================== rule 3: circles with a 5


def test_rule3_newcomer_takes_off_another_players_checker():
    before = game(3, turn=0, checkers=(17, 0, 25, 8, 33, 0))
    after, events = roll(before, (5, 3))
    assert events[1:] == [moved(0, 0, 17, 25), Event("bump", seat=1, data={"checker": 0, "at": 25, "by": 0})]
    assert after.checkers == (25, 0, OFF, 8, 33, 0)


def test_rule3_own_checker_is_taken_off_too():
    state, _ = roll(game(2, turn=0, checkers=(17, 25, 0, 0)), (5, 3))
    assert [a.code for a in ENGINE.legal_actions(state)] == ["m0", "m1"]
    after, events = pick(state, "m0")
    assert events == [moved(0, 0, 17, 25), Event("bump", seat=0, data={"checker": 1, "at": 25, "by": 0})]
    assert after.checkers == (25, OFF, 0, 0)


def test_rule3_arriving_by_a_rule_entering_12_to_15_bumps():
    after, events = roll(game(2, turn=1, checkers=(15, 34, 0, 0)), (6, 6))
    assert events[1:] == [moved(1, 0, 0, 12, kind="enter"), landed(1, 0, "one", 12, 15),
                          Event("bump", seat=0, data={"checker": 0, "at": 15, "by": 1}), Event("again", seat=1)]
    assert after.checkers == (OFF, 34, 15, 0) and after.turn == 1


@pytest.mark.parametrize(("start", "dice", "circle"), [
    (52, (3, 2), 54),  # 57 → 54 (rule 5)
    (46, (3, 2), 54),  # 51 → 54 (rule 4)
    (8, (3, 1), 15),  # 12 → 15
    (96, (5, 4), 95),  # 105 → 95 (rule 9)
    (39, (4, 2), 45),  # direct
])
def test_rule3_any_way_of_arriving_bumps(start, dice, circle):
    before = game(4, turn=3, checkers=(0, 0, circle, 0, 0, 0, start, 0))
    after, events = roll(before, dice)
    assert events[-1] == Event("bump", seat=1, data={"checker": 0, "at": circle, "by": 3})
    assert after.checkers == (0, 0, OFF, 0, 0, 0, circle, 0)
    assert sum(1 for c in after.checkers if c == circle) == 1


def test_rule3_other_circles_hold_any_number():
    after, events = roll(game(3, turn=0, checkers=(18, 0, 23, 0, 23, 0)), (3, 2))
    assert kinds(events) == ["roll", "move"]
    assert after.checkers == (23, 0, 23, 0, 23, 0)


def test_rule3_taken_off_checker_re_enters_with_a_six():
    state, _ = roll(game(2, turn=0, checkers=(17, 0, 25, 0)), (4, 4))  # bump, then again
    assert state.checkers == (25, 0, OFF, 0) and state.turn == 0
    state, _ = roll(state, (1, 2))  # 28
    state, events = roll(state, (4, 3))
    assert kinds(events) == ["roll", "no_move"] and state.checkers[2:] == (0, 0)


# ====================================================================== rule 4: circles with a 1


@pytest.mark.parametrize(("start", "dice", "direct", "final"), [
    (8, (3, 2), 13, 16),  # the seed's 13 → 16
    (28, (2, 1), 31, 34),
    (86, (4, 1), 91, 94),
    (9, (5, 1), 15, 18),  # a 1 and a 5: the 1 moves it, 15 is left
])
def test_rule4_one_moves_three_forward(start, dice, direct, final):
    after, events = roll(game(2, turn=0, checkers=(start, 0, 0, 0)), dice)
    assert events[1:] == [moved(0, 0, start, direct), landed(0, 0, "one", direct, final)]
    assert after.checkers == (final, 0, 0, 0) and after.missed == (0, 0)
    assert ENGINE.legal_actions(after) == [ROLL]


# ====================================================================== rule 5: circles with a 7


@pytest.mark.parametrize(("start", "dice", "direct", "final"), [
    (23, (3, 1), 27, 24),  # the seed's 27 → 24
    (4, (2, 1), 7, 4),
    (84, (2, 1), 87, 84),
    (69, (2, 3), 74, 71),
    (95, (1, 1), 97, 94),
])
def test_rule5_seven_moves_three_back(start, dice, direct, final):
    after, events = roll(game(2, turn=0, checkers=(start, 0, 0, 0)), dice)
    assert events[1:3] == [moved(0, 0, start, direct), landed(0, 0, "seven", direct, final)]
    assert after.checkers == (final, 0, 0, 0)


@pytest.mark.parametrize(("start", "dice", "circle"), [(9, (5, 3), 17), (63, (3, 5), 71)])
def test_rule5_seventeen_and_seventy_one_stay(start, dice, circle):
    after, events = roll(game(2, turn=0, checkers=(start, 0, 0, 0)), dice)
    assert events[1:] == [moved(0, 0, start, circle), landed(0, 0, "seventeen", circle, circle)]
    assert after.checkers == (circle, 0, 0, 0)


# ====================================================================== rule 6: circles with a 0


@pytest.mark.parametrize(("start", "dice", "circle"), [
    (24, (4, 2), 30), (44, (3, 3), 50), (64, (5, 1), 70), (88, (1, 1), 90), (8, (1, 1), 10)])
def test_rule6_zero_takes_the_checker_off(start, dice, circle):
    state, _ = roll(game(2, turn=0, checkers=(start, 39, 0, 0)), dice)
    assert ENGINE.legal_actions(state)[0] == move_action(1, start, circle, OFF, EFFECT_OFF)
    after, events = pick(state, "m0")
    assert events[:2] == [moved(0, 0, start, circle), landed(0, 0, "zero", circle, OFF)]
    assert after.checkers == (OFF, 39, 0, 0)
    assert after.turn == (0 if dice[0] == dice[1] else 1)


# ====================================================================== rule 7: double circles


@pytest.mark.parametrize(("start", "dice", "circle"), [
    (18, (3, 1), 22), (29, (3, 1), 33), (39, (4, 1), 44), (49, (4, 2), 55), (62, (3, 1), 66),
    (84, (3, 1), 88), (94, (3, 2), 99)])
def test_rule7_double_circle_misses_two_turns(start, dice, circle):
    after, events = roll(game(3, turn=1, checkers=(0, 0, start, 0, 0, 0)), dice)
    assert events[1:] == [moved(1, 0, start, circle), Event("double_circle", seat=1, data={"at": circle, "turns": 2})]
    assert after.checkers == (0, 0, circle, 0, 0, 0)
    assert after.missed == (0, 2, 0) and after.turn == 2


def test_rule7_eleven_goes_to_14_and_misses_two_turns():
    after, events = roll(game(2, turn=0, checkers=(4, 0, 0, 0)), (4, 3))
    assert events[1:] == [moved(0, 0, 4, 11), landed(0, 0, "one", 11, 14),
                          Event("double_circle", seat=0, data={"at": 11, "turns": 2})]
    assert after.checkers == (14, 0, 0, 0) and after.missed == (2, 0)


def test_rule7_seventy_seven_goes_to_74_and_misses_two_turns():
    after, events = roll(game(2, turn=0, checkers=(69, 0, 0, 0)), (5, 3))
    assert events[1:] == [moved(0, 0, 69, 77), landed(0, 0, "seven", 77, 74),
                          Event("double_circle", seat=0, data={"at": 77, "turns": 2})]
    assert after.checkers == (74, 0, 0, 0) and after.missed == (2, 0)


def test_rule7_missed_turns_are_skipped_one_each():
    state = game(2, turn=1, checkers=(33, 0, 0, 0), missed=(2, 0))
    state, events = roll(state, (4, 3))
    assert events[1:] == [Event("no_move", seat=1), Event("skip", seat=0, data={"left": 1})]
    assert state.turn == 1 and state.missed == (1, 0)
    state, events = roll(state, (5, 1))
    assert events[1:] == [Event("no_move", seat=1), Event("skip", seat=0, data={"left": 0})]
    assert state.turn == 1 and state.missed == (0, 0)
    state, events = roll(state, (5, 2))
    assert events[1:] == [Event("no_move", seat=1)]
    assert state.turn == 0


def test_rule7_skips_in_order_round_the_table():
    state = game(4, turn=0, missed=(0, 1, 2, 0))
    after, events = roll(state, (1, 2))
    assert events[1:] == [Event("no_move", seat=0), Event("skip", seat=1, data={"left": 0}),
                          Event("skip", seat=2, data={"left": 1})]
    assert after.turn == 3 and after.missed == (0, 0, 1, 0)


def test_rule7_extra_throw_is_not_a_new_turn_for_the_others():
    after, events = roll(game(2, turn=0, missed=(0, 2)), (3, 3))
    assert kinds(events) == ["roll", "no_move", "again"]
    assert after.missed == (0, 2) and after.turn == 0


def test_rule7_mover_misses_even_when_everybody_else_is_skipped():
    state = game(2, turn=0, checkers=(29, 0, 0, 0), missed=(0, 1))
    state, events = roll(state, (3, 1))  # 33
    assert events[-3:] == [Event("double_circle", seat=0, data={"at": 33, "turns": 2}),
                           Event("skip", seat=1, data={"left": 0}), Event("skip", seat=0, data={"left": 1})]
    assert state.turn == 1 and state.missed == (1, 0)
    state, events = roll(state, (1, 2))
    assert events[1:] == [Event("no_move", seat=1), Event("skip", seat=0, data={"left": 0})]
    assert state.turn == 1
    state, _ = roll(state, (1, 2))
    assert state.turn == 0


def test_rule7_reached_by_a_rule_does_not_count():
    after, events = roll(game(2, turn=0, checkers=(16, 0, 0, 0)), (2, 1))  # 19 → 22
    assert events[1:] == [moved(0, 0, 16, 19), landed(0, 0, "one", 19, 22)]
    assert after.missed == (0, 0) and after.checkers == (22, 0, 0, 0)


# ====================================================================== rule 8: a double throws again


def test_rule8_double_throws_again():
    state, events = roll(game(3, turn=2, checkers=(0, 0, 0, 0, 23, 0)), (2, 2))  # 27 → 24
    assert events[-1] == Event("again", seat=2) and state.turn == 2
    assert ENGINE.legal_actions(state) == [ROLL]
    state, events = roll(state, (3, 1))  # 28
    assert kinds(events) == ["roll", "move"]
    assert state.checkers == (0, 0, 0, 0, 28, 0) and state.turn == 0


def test_rule8_again_after_a_choice():
    state, _ = roll(game(2, turn=0, checkers=(23, 32, 0, 0)), (4, 4))
    assert state.phase == "choose"
    after, events = pick(state, "m1")
    assert events == [moved(0, 1, 32, 40), landed(0, 1, "zero", 40, OFF), Event("again", seat=0)]
    assert after.turn == 0


def test_rule8_double_circle_cancels_the_extra_throw():
    after, events = roll(game(2, turn=0, checkers=(29, 0, 0, 0)), (2, 2))  # 33
    assert events[1:] == [moved(0, 0, 29, 33), Event("double_circle", seat=0, data={"at": 33, "turns": 2}),
                          Event("again_lost", seat=0)]
    assert after.turn == 1 and after.missed == (2, 0)


def test_rule8_doubles_in_a_row_keep_the_turn():
    state = game(2, turn=1)
    for dice in [(1, 1), (6, 6), (2, 2), (3, 3)]:  # nothing; enter 12 → 15; 19 → 22; 28
        state, events = roll(state, dice)
        assert events[-1] == Event("again", seat=1) and state.turn == 1
    assert state.checkers == (0, 0, 28, 0) and state.missed == (0, 0)
    state, events = roll(state, (3, 4))
    assert state.checkers == (0, 0, 35, 0) and state.turn == 0


# ====================================================================== rule 9: exactly 100


def test_rule9_exact_throw_reaches_100_and_wins():
    before = game(3, turn=1, checkers=(34, 8, 92, 0, 45, 39))
    assert ENGINE.outcome(before) is None
    after, events = roll(before, (5, 3))
    assert events[1:] == [moved(1, 0, 92, 100), Event("home", seat=1, data={"checker": 0}), Event("win", seat=1)]
    assert after.finished and after.winner == 1 and after.current_player is None
    assert after.checkers == (34, 8, HOME, 0, 45, 39)
    assert ENGINE.legal_actions(after) == []
    out = ENGINE.outcome(after)
    assert out.kind == "win" and out.winners == (1,) and out.losers == ()
    assert out.ranking == (1, 2, 0)  # the others by their checkers, furthest first


def test_rule9_a_double_to_100_wins_without_throwing_again():
    after, events = roll(game(2, turn=0, checkers=(96, 0, 0, 0)), (2, 2))
    assert kinds(events) == ["roll", "move", "home", "win"]
    assert after.finished and after.winner == 0


def test_rule9_reaching_100_is_offered_as_a_choice():
    state, events = roll(game(2, turn=0, checkers=(88, 0, 0, 0)), (6, 6))
    assert kinds(events) == ["roll", "choose"]
    assert ENGINE.legal_actions(state) == [
        enter_action(12, 15, EFFECT_FORWARD),
        move_action(1, 88, 100, 100, EFFECT_HOME),
    ]
    entered, events = pick(state, "e")  # the player may prefer not to win yet
    assert not entered.finished and entered.checkers == (88, 15, 0, 0) and events[-1] == Event("again", seat=0)
    won, events = pick(state, "m0")
    assert won.finished and won.winner == 0 and kinds(events) == ["move", "home", "win"]


@pytest.mark.parametrize(("start", "dice", "direct", "final", "rule"), [
    (98, (5, 3), 94, 94, None),  # the seed's example: 2 forward, 6 back
    (98, (6, 6), 90, OFF, "zero"),  # a bounce onto a 0-circle
    (98, (4, 1), 97, 94, "seven"),
    (98, (6, 5), 91, 94, "one"),
    (95, (6, 4), 95, 95, None),  # back to where it was: it does not take itself off
])
def test_rule9_bounce(start, dice, direct, final, rule):
    state, _ = roll(game(2, turn=0, checkers=(start, 34, 0, 0)), dice)
    assert state.phase == "choose"
    args = ENGINE.legal_actions(state)[0].args
    assert (args["start"], args["to"], args["final"]) == (start, direct, final)
    after, events = pick(state, "m0")
    expected = [moved(0, 0, start, direct, bounced=True)]
    if rule:
        expected.append(landed(0, 0, rule, direct, final))
    if dice[0] == dice[1]:
        expected.append(Event("again", seat=0))
    assert events == expected
    assert after.checkers == (final, 34, 0, 0) and not after.finished


def test_rule9_bounce_onto_99_misses_turns_and_loses_the_extra_throw():
    after, events = roll(game(2, turn=0, checkers=(99, 0, 0, 0)), (1, 1))
    assert events[1:] == [moved(0, 0, 99, 99, bounced=True),
                          Event("double_circle", seat=0, data={"at": 99, "turns": 2}), Event("again_lost", seat=0)]
    assert after.checkers == (99, 0, 0, 0) and after.missed == (2, 0) and after.turn == 1


def test_rule9_bounce_onto_a_taken_5_circle_bumps():
    after, events = roll(game(2, turn=0, checkers=(96, 0, 95, 0)), (4, 5))
    assert events[1:] == [moved(0, 0, 96, 95, bounced=True), Event("bump", seat=1, data={"checker": 0, "at": 95,
                                                                                        "by": 0})]
    assert after.checkers == (95, 0, OFF, 0)


# ====================================================================== rule 10: a rule's circle is final


def test_rule10_73_to_70_stays_on_the_board():
    after, events = roll(game(2, turn=0, checkers=(65, 0, 0, 0)), (5, 3))
    assert events[1:] == [moved(0, 0, 65, 73), landed(0, 0, "seven", 73, 70)]
    assert after.checkers == (70, 0, 0, 0)
    after, events = roll(replace(after, turn=0), (5, 4))  # and it moves on from 70
    assert events[1:] == [moved(0, 0, 70, 79), landed(0, 0, "seven", 79, 76)]
    assert after.checkers == (76, 0, 0, 0)


@pytest.mark.parametrize(("start", "dice", "direct", "final"), [
    (4, (4, 3), 11, 14),  # 14 has a 1: no further 3 forward
    (9, (3, 2), 14, 17),  # 17: not looked at again
    (9, (5, 4), 18, 21),  # 21 has a 1
    (16, (2, 1), 19, 22),  # 22 is a double: no missed turns
    (36, (3, 2), 41, 44),  # 44 likewise
    (42, (3, 2), 47, 44),
    (69, (3, 2), 74, 71),  # 71 is not looked at
    (68, (5, 3), 76, 73),  # 73 has a 7: no further 3 back to 70
    (69, (5, 3), 77, 74),  # 74 has a 7
    (73, (4, 2), 79, 76),
])
def test_rule10_circle_reached_by_a_rule_is_not_looked_at_again(start, dice, direct, final):
    after, events = roll(game(2, turn=1, checkers=(0, 0, start, 0)), dice)
    assert events[1:3] == [moved(1, 0, start, direct), landed(1, 0, "one" if final > direct else "seven",
                                                                direct, final)]
    assert after.checkers == (0, 0, final, 0)
    assert after.missed == (0, 2 if direct in (11, 77) else 0)


# ====================================================================== the seed's examples


@pytest.mark.parametrize("dice", [(5, 1), (1, 5), (4, 2), (2, 4)])
def test_seed_24_and_54_lose_a_checker_on_a_six(dice):
    """The seed's advice: on 24 and 54 «выкинутая шестерка» (a six in all) takes one off: 30 or 60."""
    state, _ = roll(game(2, turn=0, checkers=(24, 54, 0, 0)), dice)
    assert ENGINE.legal_actions(state) == [
        move_action(1, 24, 30, OFF, EFFECT_OFF),
        move_action(2, 54, 60, OFF, EFFECT_OFF),
    ]
    assert pick(state, "m0")[0].checkers == (OFF, 54, 0, 0)
    assert pick(state, "m1")[0].checkers == (24, OFF, 0, 0)


def test_seed_98_plus_5_and_3_is_94():
    after, events = roll(game(2, turn=0, checkers=(98, 0, 0, 0)), (5, 3))
    assert events[1:] == [moved(0, 0, 98, 94, bounced=True)]
    assert after.checkers == (94, 0, 0, 0) and not after.finished


def test_seed_11_14_then_13_16_then_27_24():
    """The examples of rules 4 and 5 in one checker's walk: 5 → 11 → 14, 8 → 13 → 16, 16 → 27 → 24."""
    state, _ = roll(game(2, turn=0, checkers=(5, 0, 0, 0)), (4, 2))
    assert state.checkers[0] == 14 and state.missed == (2, 0)
    state, _ = roll(replace(state, turn=0, missed=(0, 0), checkers=(8, 0, 0, 0)), (4, 1))
    assert state.checkers[0] == 16
    state, _ = roll(replace(state, turn=0), (6, 5))  # a 6: entering is the other choice
    assert [a.code for a in ENGINE.legal_actions(state)] == ["e", "m0"]
    state, events = pick(state, "m0")
    assert events == [moved(0, 0, 16, 27), landed(0, 0, "seven", 27, 24)]
    assert state.checkers == (24, 0, 0, 0)


# ====================================================================== variant both_home


def test_variant_default_first_checker_home_wins():
    after, events = roll(game(2, turn=0, checkers=(92, 0, 34, 55)), (5, 3))
    assert kinds(events)[-2:] == ["home", "win"] and after.winner == 0


def test_variant_both_home_one_checker_home_stays_and_play_goes_on():
    state, events = roll(game(2, both_home=True, turn=0, checkers=(92, 0, 34, 55)), (5, 3))
    assert events[1:] == [moved(0, 0, 92, 100), Event("home", seat=0, data={"checker": 0})]
    assert not state.finished and state.turn == 1 and state.checkers == (HOME, 0, 34, 55)
    assert ENGINE.outcome(state) is None
    state, events = roll(replace(state, turn=0), (4, 3))
    assert kinds(events) == ["roll", "no_move"]  # the home checker does not move
    state, events = roll(replace(state, turn=0), (6, 2))  # only entering: no choice
    assert events[1:] == [moved(0, 1, 0, 8, kind="enter")]
    state, events = roll(replace(state, turn=0), (5, 1))  # throws go to the other checker
    assert events[1:] == [moved(0, 1, 8, 14), landed(0, 1, "one", 14, 17)]
    assert state.checkers == (HOME, 17, 34, 55)


def test_variant_both_home_six_with_the_other_checker_on_the_board():
    state, _ = roll(game(2, both_home=True, turn=0, checkers=(0, HOME, 0, 0)), (6, 3))
    assert state.checkers == (9, HOME, 0, 0)  # entered: HOME is not a choice
    state, events = roll(replace(state, turn=0), (6, 2))
    assert events[1:] == [moved(0, 0, 9, 17), landed(0, 0, "seventeen", 17, 17)]  # nothing left to enter
    assert state.checkers == (17, HOME, 0, 0)


def test_variant_both_home_wins_when_both_are_home():
    state, events = roll(game(3, both_home=True, turn=2, checkers=(34, 8, 45, 39, HOME, 92)), (6, 2))
    assert events[1:] == [moved(2, 1, 92, 100), Event("home", seat=2, data={"checker": 1}), Event("win", seat=2)]
    assert state.finished and state.winner == 2
    assert ENGINE.outcome(state).ranking == (2, 1, 0)


def test_variant_both_home_two_checkers_together_near_home():
    state, events = roll(game(2, both_home=True, turn=0, checkers=(92, 92, 0, 0)), (5, 3))
    assert kinds(events) == ["roll", "move", "home"]
    assert state.checkers == (HOME, 92, 0, 0) and not state.finished


def test_variant_option_read_from_json():
    options = ENGINE.options_from_json({"both_home": True})
    assert options == TisheOptions(both_home=True)
    state, _ = ENGINE.new_game(options, 2, seed_str(3))
    assert state.options.both_home


# ====================================================================== settled points


def test_settled_two_checkers_on_one_circle_are_one_choice():
    state = game(2, turn=0, checkers=(23, 23, 0, 0))
    assert move_actions(state, 0, (5, 3)) == [move_action(1, 23, 31, 34, EFFECT_FORWARD)]
    after, events = roll(state, (5, 3))  # one choice: made with the throw
    assert events[1:] == [moved(0, 0, 23, 31), landed(0, 0, "one", 31, 34)]
    assert after.checkers == (34, 23, 0, 0)


def test_settled_same_circle_with_a_six_is_enter_or_one_move():
    state = game(2, turn=0, checkers=(0, 0, 9, 9))
    assert move_actions(state, 1, (6, 1)) == [move_action(1, 9, 16, 19, EFFECT_FORWARD)]
    assert [a.code for a in move_actions(game(2, checkers=(9, 0, 0, 0)), 0, (6, 1))] == ["e", "m0"]


@pytest.mark.parametrize("seats", range(2, 7))
def test_settled_starter_drawn_from_throw0(seats):
    for seat, (state, events) in enumerate(starter_games(ENGINE, TisheOptions(), seats)):
        assert events == [Event("starter", seat=seat)]
        assert state.phase == "roll"
        assert state.checkers == (0,) * (2 * seats) and state.missed == (0,) * seats
        assert not state.finished and state.winner is None


def test_settled_a_throw_is_two_dice():
    _, events, entry = ENGINE.apply(game(2), "r")
    assert len(entry.dice) == 2 and events[0].data == {"dice": list(entry.dice)}


def test_settled_effect_codes_in_action_args():
    state = game(2, checkers=(0, 0, 0, 0))
    assert move_actions(state, 0, (6, 1)) == [enter_action(7, 4, EFFECT_BACK)]
    assert move_actions(state, 0, (6, 4)) == [enter_action(10, OFF, EFFECT_OFF)]
    assert move_actions(game(2, checkers=(9, 0, 0, 0)), 0, (5, 3)) == [move_action(1, 9, 17, 17, EFFECT_NONE)]
    assert move_actions(game(2, checkers=(0, 95, 0, 0)), 0, (3, 2)) == [move_action(2, 95, 100, 100, EFFECT_HOME)]
    assert move_actions(game(2, checkers=(0, 0, 0, 0)), 0, (3, 2)) == []


def test_settled_double_flag_in_action_args():
    """The last arg is 1 when the move reaches a double number directly (rule 7)."""
    state = game(2, checkers=(0, 0, 0, 0))
    assert move_actions(state, 0, (6, 5)) == [enter_action(11, 14, EFFECT_FORWARD, 1)]
    assert move_actions(game(2, checkers=(29, 69, 0, 0)), 0, (1, 3)) == [
        move_action(1, 29, 33, 33, EFFECT_NONE, 1), move_action(2, 69, 73, 70, EFFECT_BACK, 0)]
    assert move_actions(game(2, checkers=(16, 65, 0, 0)), 0, (5, 2)) == [
        move_action(1, 16, 23, 23, EFFECT_NONE, 0), move_action(2, 65, 72, 69, EFFECT_BACK, 0)]
    assert move_actions(game(2, checkers=(16, 65, 0, 0)), 0, (2, 1)) == [
        move_action(1, 16, 19, 22, EFFECT_FORWARD, 0), move_action(2, 65, 68, 68, EFFECT_NONE, 0)]
    assert move_actions(game(2, checkers=(69, 94, 0, 0)), 0, (4, 4)) == [
        move_action(1, 69, 77, 74, EFFECT_BACK, 1), move_action(2, 94, 98, 98, EFFECT_NONE, 0)]


# ====================================================================== options


@pytest.mark.parametrize("value", NOT_BOOLS)
def test_options_both_home_must_be_a_bool(value):
    assert_options_refused(ENGINE, TisheOptions, {"both_home": value}, "both_home", 3)


def test_options_two_to_six_players():
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 6)


@pytest.mark.parametrize("raw", [None, {}, {"both_home": False}, {"both_home": True}, {"colour": "red"}])
def test_options_valid(raw):
    states = flag_option_games(ENGINE, raw, "both_home")
    assert [len(state.checkers) for state in states] == [2 * seats for seats in range(2, 7)]
    assert ENGINE.code == "tishe"


# ====================================================================== actions


@pytest.mark.parametrize("code", ["", "x", "R", "r ", "roll", "e", "m0", "m1", "m2", "enter"])
def test_roll_phase_rejects_other_codes(code):
    with pytest.raises(IllegalActionError):
        ENGINE.apply(game(2, checkers=(23, 34, 0, 0)), code)


@pytest.mark.parametrize("code", ["r", "", "m1", "m2", "E", "m", "e0", "roll"])
def test_choose_phase_rejects_other_codes(code):
    state, _ = roll(game(2, turn=0, checkers=(23, 0, 0, 0)), (6, 2))
    assert [a.code for a in ENGINE.legal_actions(state)] == ["e", "m0"]
    with pytest.raises(IllegalActionError):
        ENGINE.apply(state, code)


def test_after_the_end_nothing_is_legal():
    state, _ = roll(game(2, turn=0, checkers=(92, 0, 0, 0)), (5, 3))
    assert_nothing_legal(ENGINE, state, ("r", "e", "m0"))


# ====================================================================== independent landing rules


def reference_land(start: int, steps: int) -> tuple[int, int, str | None, bool, bool]:
    """THE SPEC's landing rules, written independently: (direct, final, rule, double, bounced)."""
    target = start + steps
    bounced = False
    if target > 100:
        bounced = True
        target = 100 - (target - 100)
    if target == 100:
        return target, HOME, None, False, bounced
    tens, units = divmod(target, 10)
    digits = {units} if tens == 0 else {tens, units}
    double = tens == units
    if 0 in digits:
        return target, OFF, "zero", double, bounced
    if digits == {1, 7}:
        return target, target, "seventeen", double, bounced
    if 1 in digits:
        return target, target + 3, "one", double, bounced
    if 7 in digits:
        return target, target - 3, "seven", double, bounced
    return target, target, None, double, bounced


def test_land_agrees_with_reference_everywhere():
    rules = Counter()
    for start in range(100):
        for steps in range(2, 13):
            got = land(start, steps)
            assert (got.direct, got.final, got.rule, got.double, got.bounced) == reference_land(start, steps), \
                (start, steps)
            rules[got.rule] += 1
    assert set(rules) == {None, "zero", "seventeen", "one", "seven"}


def test_land_finals_never_hold_a_zero_except_70():
    finals = {land(s, k).final for s in range(100) for k in range(2, 13)}
    assert {f for f in finals if "0" in str(f)} == {OFF, 70, HOME}
    assert {(s, k) for s in range(100) for k in range(2, 13) if land(s, k).final == 70} == \
        {(s, 73 - s) for s in range(61, 72)}


# ====================================================================== properties

SPEC = GAME_SETUPS["tishe"]
MAX_ACTIONS, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props


def reference_choices(own: tuple[int, ...], dice: tuple[int, int]) -> list[tuple[str, int]]:
    """THE SPEC's legal moves: (code, checker index)."""
    choices = []
    if 6 in dice and OFF in own:
        choices.append(("e", own.index(OFF)))
    for i, pos in enumerate(own):
        if 0 < pos < HOME and pos not in own[:i]:
            choices.append((f"m{i}", i))
    return choices


def reference_step(before: TisheState, entry: LogEntry) -> dict:
    """THE SPEC for one action, independently of the engine: the fields after it."""
    n, seat = before.seats, before.turn
    checkers, missed = list(before.checkers), list(before.missed)
    dice = entry.dice if before.phase == "roll" else before.dice
    own = tuple(checkers[2 * seat:2 * seat + 2])
    choices = reference_choices(own, dice)
    if before.phase == "roll" and len(choices) > 1:
        return {"phase": "choose", "dice": dice, "checkers": before.checkers, "turn": seat, "missed": before.missed}
    landed_double = False
    if choices:
        index = dict(choices)[entry.code] if before.phase == "choose" else choices[0][1]
        _, final, _, landed_double, _ = reference_land(own[index], sum(dice))
        checkers[2 * seat + index] = final
        if 0 < final < HOME and "5" in str(final):
            for k, pos in enumerate(checkers):
                if k != 2 * seat + index and pos == final:
                    checkers[k] = OFF
        if final == HOME and (not before.options.both_home or checkers[2 * seat:2 * seat + 2] == [HOME, HOME]):
            return {"phase": "roll", "checkers": tuple(checkers), "finished": True, "winner": seat}
        if landed_double:
            missed[seat] = 2
    turn = seat
    if dice[0] != dice[1] or landed_double:
        turn = (seat + 1) % n
        while missed[turn]:
            missed[turn] -= 1
            turn = (turn + 1) % n
    return {"phase": "roll", "dice": (), "checkers": tuple(checkers), "turn": turn, "missed": tuple(missed),
            "finished": False}


@PROPS
@given(SETUPS)
def test_prop_the_winner_is_home(setup):
    """The winner has both checkers home in the variant, one of them otherwise."""
    final = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1][-1][1]
    assert final.finished
    won = final.of(final.winner)
    assert won == (HOME, HOME) if setup[0].both_home else HOME in won


@PROPS
@given(SETUPS)
def test_prop_every_step_matches_the_spec(setup):
    for before, after, events, entry in playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1]:
        assert_step_matches(before, after, entry, reference_step(before, entry))
        assert len(of_kind(events, "skip")) == sum(before.missed) - sum(after.missed) + 2 * len(
            of_kind(events, "double_circle"))


@PROPS
@given(SETUPS)
def test_prop_board_invariants(setup):
    options, seats, _, _ = setup
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    for state in states_of(start, steps):
        for c in state.checkers:
            assert c in (OFF, HOME) or 1 <= c <= 99
            assert c != HOME or options.both_home or state.finished
        assert all(0 <= m <= 2 for m in state.missed)
        on_fives = [c for c in state.checkers if 0 < c < HOME and "5" in str(c)]
        assert len(on_fives) == len(set(on_fives)), state.checkers
        assert state.missed[state.turn] == 0 or state.finished
    for before, after, events, _ in steps:
        for k, c in enumerate(after.checkers):
            if 0 < c < HOME and "0" in str(c):  # only 70, and only arriving via 73 (rule 10)
                assert c == 70
                assert before.checkers[k] == 70 or (after.last_move[3] == 73 and
                                                     2 * after.last_move[0] + after.last_move[1] == k)
        changed = [k for k in range(2 * seats) if after.checkers[k] != before.checkers[k]]
        assert len(changed) <= 2
        bumped = {(e.seat, e.data["checker"]) for e in of_kind(events, "bump")}
        for k in changed:
            if (k // 2, k % 2) in bumped:
                assert after.checkers[k] == OFF and is_five(before.checkers[k])


def is_five(c: int) -> bool:
    return "5" in str(c) and c != HOME


# ====================================================================== random play


@pytest.mark.parametrize("both_home", [False, True])
@pytest.mark.parametrize("seats", range(2, 7))
def test_random_play_every_seat_count(seats, both_home):
    seeds = [seed_str(100 * seats + 10 * both_home + i) for i in range(3)]
    for state, _ in random_wins(ENGINE, TisheOptions(both_home=both_home), seats, seeds, MAX_ACTIONS):
        homes = [state.of(s).count(HOME) for s in range(seats)]
        assert homes[state.winner] == (2 if both_home else 1)
        assert all(h <= 1 for s, h in enumerate(homes) if s != state.winner)
        if not both_home:
            assert sum(homes) == 1


def test_random_play_shows_every_event():
    seen: Counter[str] = Counter()
    for i in range(40):
        seats, both_home = 2 + i % 5, bool(i % 2)
        _, per_action, _ = play_random(ENGINE, TisheOptions(both_home=both_home), seats, seed_str(7000 + i),
                                       limit=MAX_ACTIONS, choice_seed=i)
        for events in per_action:
            seen.update(kinds(events))
    assert set(seen) == {"roll", "no_move", "choose", "enter", "move", "land", "bump", "home", "win",
                         "double_circle", "again", "again_lost", "skip"}
