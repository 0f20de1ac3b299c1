"""engines/spichki.py against THE SPEC (docs/rules/spichki.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the numbered
points of the engine docstring, ``test_settled_...`` for what the docstring settles,
``test_seed_...`` for the seed's worked example). Throws are loaded: a test names the
faces it wants (``LoadedDice``) and the engine rolls them through its own dice path.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import pytest
from hypothesis import given

from engines.base import Action, Event, IllegalActionError, LoadedDice, OptionsError
from engines.spichki import ENGINE, SpichkiOptions, SpichkiState, judge
from tests.engine_helpers import (
    apply_throw,
    assert_nothing_legal,
    assert_options_refused,
    assert_replays,
    kinds,
    new_state,
    of_kind,
    play_random,
    playthrough,
    seed_str,
    states_of,
    valid_option_games,
)
from tests.engine_setups import GAME_SETUPS

TARGET = Action("r", "target")
CHASE = Action("r", "chase")

# every chasing target: two different numbers
TARGETS = [(a, b) for a in range(1, 7) for b in range(1, 7) if a != b]
ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]


def game(seats: int = 4, *, goal: int = 11, per_player: int = 10, double_hit: int = 2,
         held: tuple[int, ...] | None = None, pile: int | None = None, **changes) -> SpichkiState:
    """A fresh game with state fields changed by dataclasses.replace.

    ``held`` sets the matches each seat holds; the pile then holds the rest of the
    ``per_player * seats`` matches unless ``pile`` says otherwise. ``changes``: any other
    field (turn=..., target=...).
    """
    options = SpichkiOptions(goal=goal, per_player=per_player, double_hit=double_hit)
    if held is not None:
        changes["matches"] = tuple(held)
        changes["pile"] = per_player * seats - sum(held) if pile is None else pile
    elif pile is not None:
        changes["pile"] = pile
    return new_state(ENGINE, options, seats, **changes)


def roll(state: SpichkiState, dice: tuple[int, int]):
    """Apply one throw that shows exactly ``dice``; returns (state, events, log entry)."""
    after, events, entry = apply_throw(ENGINE, state, dice)
    assert after.last_target == state.target
    assert events[0] == Event("throw", seat=state.turn,
                              data={"dice": list(dice), "target": list(state.target)})
    return after, events, entry


def rolls(state: SpichkiState, *throws: tuple[int, int]):
    """Apply consecutive throws showing ``throws``; (state, events per throw)."""
    loaded = LoadedDice(*throws)
    per_throw = []
    for dice in throws:
        before = state
        state, events, entry = ENGINE.apply(state, "r", loaded)
        assert entry.dice == dice and entry.seat == before.turn
        per_throw.append(events)
    return state, per_throw


def take(events) -> dict:
    (event,) = of_kind(events, "take")
    return {"seat": event.seat, **event.data}


# ====================================================================== rule 1: pile and goal


@pytest.mark.parametrize("seats", range(2, 9))
@pytest.mark.parametrize("per_player", [8, 10, 15])
def test_rule1_pile_is_per_player_times_seats(seats, per_player):
    state, events = ENGINE.new_game(SpichkiOptions(per_player=per_player, goal=5), seats, seed_str(seats))
    assert state.pile == per_player * seats
    assert state.matches == (0,) * seats
    assert state.target == () and state.setting_target
    assert not state.finished and state.winners == ()
    assert events == [Event("starter", seat=state.turn, data={"pile": per_player * seats})]


def test_rule1_defaults():
    assert SpichkiOptions() == SpichkiOptions(goal=11, per_player=10, double_hit=2)
    assert ENGINE.options_from_json(None) == SpichkiOptions()
    assert ENGINE.options_from_json({}) == SpichkiOptions()
    state, _ = ENGINE.new_game(SpichkiOptions(), 4, seed_str(1))
    assert state.pile == 40


# ====================================================================== rule 2: setting the target


@pytest.mark.parametrize("face", range(1, 7))
def test_rule2_double_gives_two_and_throws_again(face):
    before = game(4, turn=1)
    after, events, _ = roll(before, (face, face))
    assert kinds(events) == ["throw", "take", "again"]
    assert take(events) == {"seat": 1, "count": 2, "held": 2, "pile": 38, "why": "double"}
    assert events[2] == Event("again", seat=1, data={"setting": True})
    assert after.matches == (0, 2, 0, 0) and after.pile == 38
    assert after.target == () and after.setting_target  # still setting the target
    assert after.turn == after.current_player == 1
    assert ENGINE.legal_actions(after) == [TARGET]


def test_rule2_doubles_while_setting_add_up():
    state, per_throw = rolls(game(3, turn=2), (6, 6), (1, 1), (3, 5))
    assert [take(e)["held"] for e in per_throw[:2]] == [2, 4]
    assert state.matches == (0, 0, 4) and state.pile == 26
    assert state.target == (3, 5) and state.turn == 0


@pytest.mark.parametrize("dice", [(2, 4), (4, 2), (1, 6), (5, 3)])
def test_rule2_different_numbers_set_target_and_pass(dice):
    before = game(4, turn=1)
    after, events, _ = roll(before, dice)
    assert kinds(events) == ["throw", "target", "pass"]
    assert events[1] == Event("target", seat=1, data={"dice": list(dice)})
    assert events[2] == Event("pass", seat=2, data={"from": 1})
    assert after.target == dice and not after.setting_target
    assert after.matches == before.matches and after.pile == before.pile  # setting pays nothing
    assert after.turn == after.current_player == 2  # the next seat chases
    assert ENGINE.legal_actions(after) == [CHASE]


@pytest.mark.parametrize("seats", range(2, 9))
def test_rule2_last_seat_passes_to_seat_0(seats):
    after, events, _ = roll(game(seats, turn=seats - 1), (1, 2))
    assert after.turn == 0 and events[-1] == Event("pass", seat=0, data={"from": seats - 1})


# ====================================================================== rule 3.1: exact hit


@pytest.mark.parametrize("dice", [(2, 4), (4, 2)])
def test_rule3_1_exact_hit_either_order(dice):
    before = game(4, target=(2, 4), turn=3)
    after, events, _ = roll(before, dice)
    assert kinds(events) == ["throw", "take", "again"]
    assert take(events) == {"seat": 3, "count": 3, "held": 3, "pile": 37, "why": "exact"}
    assert events[2] == Event("again", seat=3, data={"setting": True})
    assert after.matches == (0, 0, 0, 3) and after.pile == 37
    # the same player takes the target dice to set a NEW target
    assert after.target == () and after.setting_target
    assert after.turn == 3
    assert ENGINE.legal_actions(after) == [TARGET]


def test_rule3_1_same_player_sets_new_target():
    state, per_throw = rolls(game(4, target=(1, 6), turn=0), (6, 1), (3, 5))
    assert take(per_throw[0])["why"] == "exact"
    assert kinds(per_throw[1]) == ["throw", "target", "pass"]
    assert per_throw[1][0].seat == 0 and per_throw[1][1] == Event("target", seat=0, data={"dice": [3, 5]})
    assert state.target == (3, 5) and state.turn == 1
    assert state.matches == (3, 0, 0, 0)


@pytest.mark.parametrize("double_hit", [1, 2])
def test_rule3_1_double_while_resetting_gives_two_again(double_hit):
    # the re-setting throw is rule 2 again: a double pays 2 whatever double_hit says
    state, per_throw = rolls(game(4, target=(2, 5), turn=2, double_hit=double_hit), (5, 2), (4, 4), (6, 1))
    assert [take(e)["why"] for e in per_throw[:2]] == ["exact", "double"]
    assert [take(e)["count"] for e in per_throw[:2]] == [3, 2]
    assert per_throw[1][-1] == Event("again", seat=2, data={"setting": True})
    assert state.matches == (0, 0, 5, 0) and state.pile == 35
    assert state.target == (6, 1) and state.turn == 3


def test_rule3_1_new_target_may_repeat_or_share_numbers():
    state, _ = rolls(game(3, target=(2, 4), turn=1), (4, 2), (2, 4))
    assert state.target == (2, 4) and state.turn == 2


# ====================================================================== rule 3.2: double of a target number


@pytest.mark.parametrize("double_hit", [1, 2])
@pytest.mark.parametrize("face", [2, 4])
def test_rule3_2_double_of_target_number(double_hit, face):
    before = game(4, target=(2, 4), turn=1, double_hit=double_hit, held=(0, 3, 1, 0))
    after, events, _ = roll(before, (face, face))
    assert kinds(events) == ["throw", "take", "again"]
    assert take(events) == {"seat": 1, "count": double_hit, "held": 3 + double_hit,
                            "pile": 36 - double_hit, "why": "double_hit"}
    assert events[2] == Event("again", seat=1, data={"setting": False})
    assert after.matches == (0, 3 + double_hit, 1, 0)
    assert after.target == (2, 4)  # still chasing the same target
    assert after.turn == 1
    assert ENGINE.legal_actions(after) == [CHASE]


def test_rule3_2_default_double_hit_is_two():
    after, events, _ = roll(game(2, target=(3, 6), turn=0), (6, 6))
    assert take(events)["count"] == 2 and after.matches == (2, 0)


def test_rule3_2_double_hit_option_read_from_json():
    options = ENGINE.options_from_json({"double_hit": 1})
    state, _ = ENGINE.new_game(options, 3, seed_str(0))
    after, events, _ = roll(replace(state, target=(1, 5), turn=0), (1, 1))
    assert take(events)["count"] == 1 and after.matches == (1, 0, 0)


# ====================================================================== rule 3.3: one die matches


@pytest.mark.parametrize("dice", [(4, 5), (5, 4), (2, 1), (6, 2), (4, 3), (2, 6)])
def test_rule3_3_exactly_one_die_matches(dice):
    before = game(4, target=(2, 4), turn=2, held=(1, 2, 3, 4))
    after, events, _ = roll(before, dice)
    assert kinds(events) == ["throw", "take", "again"]
    assert take(events) == {"seat": 2, "count": 1, "held": 4, "pile": 29, "why": "one"}
    assert events[2] == Event("again", seat=2, data={"setting": False})
    assert after.matches == (1, 2, 4, 4)
    assert after.target == (2, 4) and after.turn == 2


# ====================================================================== rule 3.4: nothing matches


@pytest.mark.parametrize("dice", [(1, 3), (5, 6), (6, 1), (3, 3), (1, 1), (5, 5), (6, 6)])
def test_rule3_4_nothing_matches_passes_dice_target_stays(dice):
    before = game(4, target=(2, 4), turn=2, held=(1, 2, 3, 4))
    after, events, _ = roll(before, dice)
    assert kinds(events) == ["throw", "pass"]
    assert events[1] == Event("pass", seat=3, data={"from": 2})
    assert after.matches == before.matches and after.pile == before.pile
    assert after.target == (2, 4)  # the target stays
    assert after.turn == 3
    assert ENGINE.legal_actions(after) == [CHASE]


def test_rule3_4_dice_go_round_the_table():
    state, per_throw = rolls(game(3, target=(1, 2), turn=1), (3, 4), (5, 6), (6, 6))
    assert [e[-1].seat for e in per_throw] == [2, 0, 1]
    assert state.target == (1, 2) and state.matches == (0, 0, 0) and state.turn == 1


# ====================================================================== the seed's worked example


@pytest.mark.parametrize(("double_hit", "after_double"), [(2, 3), (1, 2)])
def test_seed_worked_example(double_hit, after_double):
    """Target 2 and 4: 4-5 gives one match, 2-2 two more (double_hit=2), 3-5 passes."""
    before = game(4, target=(2, 4), turn=1, double_hit=double_hit)
    state, per_throw = rolls(before, (4, 5), (2, 2), (3, 5))
    first, second, third = per_throw
    assert kinds(first) == ["throw", "take", "again"] and take(first)["count"] == 1
    assert take(first)["held"] == 1
    assert kinds(second) == ["throw", "take", "again"] and take(second)["count"] == double_hit
    assert take(second)["held"] == after_double
    assert kinds(third) == ["throw", "pass"] and third[1] == Event("pass", seat=2, data={"from": 1})
    assert [e[0].seat for e in per_throw] == [1, 1, 1]  # the same player throws three times
    assert state.matches == (0, after_double, 0, 0) and state.pile == 40 - after_double
    assert state.target == (2, 4) and state.turn == 2


def test_seed_worked_example_default_options():
    state, _ = rolls(game(4, target=(2, 4), turn=1), (4, 5), (2, 2), (3, 5))
    assert state.matches[1] == 3  # "вы получаете еще две спички"


# ====================================================================== judge()

JUDGE_TABLE = [
    # target, dice, double_hit, expected
    ((2, 4), (2, 4), 2, ("exact", 3)),
    ((2, 4), (4, 2), 2, ("exact", 3)),
    ((2, 4), (4, 2), 1, ("exact", 3)),
    ((6, 1), (1, 6), 2, ("exact", 3)),
    ((2, 4), (2, 2), 2, ("double_hit", 2)),
    ((2, 4), (4, 4), 2, ("double_hit", 2)),
    ((2, 4), (2, 2), 1, ("double_hit", 1)),
    ((2, 4), (4, 4), 1, ("double_hit", 1)),
    ((2, 4), (4, 5), 2, ("one", 1)),
    ((2, 4), (5, 4), 1, ("one", 1)),
    ((2, 4), (2, 1), 2, ("one", 1)),
    ((2, 4), (6, 2), 2, ("one", 1)),
    ((2, 4), (3, 5), 2, (None, 0)),
    ((2, 4), (1, 6), 1, (None, 0)),
    ((2, 4), (3, 3), 2, (None, 0)),
    ((2, 4), (6, 6), 1, (None, 0)),
    ((5, 3), (1, 1), 2, (None, 0)),
]


@pytest.mark.parametrize(("target", "dice", "double_hit", "expected"), JUDGE_TABLE)
def test_judge_table(target, dice, double_hit, expected):
    assert judge(target, dice, double_hit) == expected


def reference_judge(target: tuple[int, int], dice: tuple[int, int], double_hit: int) -> tuple[str | None, int]:
    """THE SPEC's chasing rules, written independently of the engine."""
    a, b = dice
    in_target = [d in target for d in dice]
    if a != b and all(in_target):  # two different numbers both in a two-number target
        return "exact", 3
    if a == b:
        return ("double_hit", double_hit) if in_target[0] else (None, 0)
    if sum(in_target) == 1:
        return "one", 1
    return None, 0


def test_judge_every_target_and_throw():
    counts: dict[str | None, int] = {}
    for target, dice, double_hit in itertools.product(TARGETS, ALL_DICE, (1, 2)):
        got = judge(target, dice, double_hit)
        assert got == reference_judge(target, dice, double_hit), (target, dice, double_hit)
        counts[got[0]] = counts.get(got[0], 0) + 1
    # per target and double_hit: 2 exact, 2 double hits, 16 single hits, 16 misses of 36
    per = len(TARGETS) * 2
    assert counts == {"exact": 2 * per, "double_hit": 2 * per, "one": 16 * per, None: 16 * per}


# ====================================================================== rule 4: awards capped by the pile


@pytest.mark.parametrize(("target", "dice", "why", "wanted"), [
    ((2, 4), (4, 2), "exact", 3),
    ((2, 4), (2, 2), "double_hit", 2),
    ((), (5, 5), "double", 2),
])
def test_rule4_award_capped_by_pile(target, dice, why, wanted):
    # 3 seats, 8 each = 24: held 7 + 8 + 8, one match left; seat 0 would earn ``wanted``
    before = game(3, per_player=8, held=(7, 8, 8), target=target, turn=0)
    assert before.pile == 1
    after, events, _ = roll(before, dice)
    assert take(events) == {"seat": 0, "count": 1, "held": 8, "pile": 0, "why": why}
    assert after.matches == (8, 8, 8) and after.pile == 0
    assert after.pile + sum(after.matches) == 24


def test_rule4_exact_cap_takes_the_rest():
    before = game(2, goal=15, held=(5, 13), target=(1, 3), turn=0)  # pile 2
    after, events, _ = roll(before, (3, 1))
    assert take(events)["count"] == 2
    assert after.matches == (7, 13) and after.pile == 0


def test_rule4_award_not_capped_when_pile_suffices():
    before = game(2, goal=15, held=(5, 12), target=(1, 3), turn=0)  # pile 3, exactly enough
    after, events, _ = roll(before, (3, 1))
    assert take(events)["count"] == 3 and after.matches == (8, 12) and after.pile == 0


# ====================================================================== rule 5: reaching the goal


@pytest.mark.parametrize(("held", "dice", "target", "final"), [
    (10, (4, 5), (2, 4), 11),  # one match
    (9, (2, 2), (2, 4), 11),  # a double hit
    (8, (4, 2), (2, 4), 11),  # an exact hit
    (9, (4, 2), (2, 4), 12),  # over the goal
    (10, (6, 6), (), 12),  # a double while setting the target
])
def test_rule5_goal_wins_at_once(held, dice, target, final):
    before = game(4, held=(3, held, 10, 0), target=target, turn=1)
    after, events, _ = roll(before, dice)
    assert kinds(events) == ["throw", "take", "win"]
    assert events[-1] == Event("win", seat=1, data={"matches": final})
    assert after.finished and after.winners == (1,)
    assert after.matches[1] == final and after.pile > 0
    assert after.current_player is None and ENGINE.legal_actions(after) == []
    out = ENGINE.outcome(after)
    assert out.kind == "win" and out.winners == (1,) and out.losers == ()
    assert out.ranking == (1, 2, 0, 3)
    assert out.data == {"matches": list(after.matches), "pile": after.pile}


def test_rule5_goal_with_the_last_match_wins_outright():
    # 2 seats, 8 each, goal 16: whoever reaches 16 takes the last match of the pile
    before = game(2, per_player=8, goal=16, held=(15, 0), target=(1, 2), turn=0)
    assert before.pile == 1
    after, events, _ = roll(before, (2, 5))
    assert kinds(events) == ["throw", "take", "win"]  # rule 5 before rule 6: no pile_empty
    assert after.pile == 0 and after.winners == (0,)
    assert ENGINE.outcome(after).kind == "win"


def test_rule5_capped_award_reaching_the_goal_wins():
    before = game(2, per_player=8, goal=11, held=(10, 5), target=(3, 4), turn=0)  # pile 1
    after, events, _ = roll(before, (3, 4))
    assert take(events)["count"] == 1 and kinds(events)[-1] == "win"
    assert after.matches == (11, 5) and after.winners == (0,)


@pytest.mark.parametrize("goal", [5, 15, 30])
def test_rule5_custom_goal(goal):
    before = game(4, goal=goal, held=(goal - 1, 0, 0, 0), target=(1, 2), turn=0)
    after, _, _ = roll(before, (1, 5))
    assert after.finished and after.winners == (0,) and after.matches[0] == goal


def test_rule5_custom_goal_above_eleven_does_not_end_at_eleven():
    before = game(4, goal=15, held=(10, 0, 0, 0), target=(1, 2), turn=0)
    after, events, _ = roll(before, (1, 5))
    assert after.matches[0] == 11 and not after.finished
    assert kinds(events) == ["throw", "take", "again"]


def test_rule5_custom_goal_below_eleven():
    before = game(4, goal=5, held=(3, 0, 0, 0), target=(1, 2), turn=0)
    after, _, _ = roll(before, (1, 1))
    assert after.matches[0] == 5 and after.winners == (0,)


# ====================================================================== rule 6: the pile runs out


def test_rule6_most_matches_wins_even_if_not_the_roller():
    before = game(2, per_player=8, held=(9, 5), target=(1, 2), turn=1)  # pile 2
    after, events, _ = roll(before, (2, 1))
    assert take(events)["count"] == 2  # capped: rule 4
    assert kinds(events) == ["throw", "take", "pile_empty"]
    assert events[-1] == Event("pile_empty", data={"winners": [0], "matches": 9})
    assert after.finished and after.pile == 0 and after.winners == (0,)
    out = ENGINE.outcome(after)
    assert out.kind == "win" and out.winners == (0,) and out.ranking == (0, 1)
    assert out.data == {"matches": [9, 7], "pile": 0}


def test_rule6_tie_for_most_is_a_draw():
    before = game(3, per_player=8, held=(10, 3, 10), target=(4, 6), turn=1)  # pile 1
    after, events, _ = roll(before, (6, 3))
    assert events[-1] == Event("pile_empty", data={"winners": [0, 2], "matches": 10})
    assert after.winners == (0, 2)
    out = ENGINE.outcome(after)
    assert out.kind == "draw" and out.winners == (0, 2) and out.losers == ()
    assert out.ranking == (0, 2, 1)
    assert ENGINE.legal_actions(after) == []


def test_rule6_everybody_tied_is_a_draw_of_all():
    before = game(4, held=(10, 7, 10, 10), target=(1, 2), turn=1)  # pile 3
    after, _, _ = roll(before, (1, 2))
    out = ENGINE.outcome(after)
    assert after.matches == (10, 10, 10, 10)
    assert out.kind == "draw" and out.winners == (0, 1, 2, 3)


def test_rule6_pile_running_out_by_a_double_while_setting():
    before = game(2, per_player=8, held=(6, 8), turn=0)  # pile 2, setting the target
    after, events, _ = roll(before, (3, 3))
    assert kinds(events) == ["throw", "take", "pile_empty"]
    assert ENGINE.outcome(after).kind == "draw" and after.winners == (0, 1)


def test_rule6_no_outcome_while_matches_are_left():
    before = game(2, per_player=8, held=(9, 5), target=(1, 2), turn=1)
    after, _, _ = roll(before, (2, 3))  # one match: the pile keeps one
    assert after.pile == 1 and not after.finished and ENGINE.outcome(after) is None
    assert ENGINE.outcome(before) is None


# ====================================================================== settled points


def test_settled_a_throw_is_two_dice():
    _, events, entry = ENGINE.apply(game(), "r")
    assert len(entry.dice) == 2 and events[0].data == {"dice": list(entry.dice), "target": []}


@pytest.mark.parametrize(("seats", "per_player", "goal"), [(2, 8, 17), (2, 10, 21), (2, 14, 29), (3, 8, 25)])
def test_settled_goal_above_pile_rejected_at_new_game(seats, per_player, goal):
    options = ENGINE.options_from_json({"goal": goal, "per_player": per_player})  # fine without seats
    with pytest.raises(OptionsError) as err:
        ENGINE.new_game(options, seats, seed_str(0))
    assert err.value.key == "goal"
    assert err.value.limits["max"] == per_player * seats
    with pytest.raises(OptionsError) as err:
        options.validate(seats)
    assert err.value.key == "goal"
    # one more player makes the pile big enough
    if goal <= per_player * (seats + 1):
        state, _ = ENGINE.new_game(options, seats + 1, seed_str(0))
        assert state.pile == per_player * (seats + 1)


def test_settled_goal_equal_to_pile_allowed():
    state, _ = ENGINE.new_game(SpichkiOptions(goal=16, per_player=8), 2, seed_str(0))
    assert state.pile == 16


# ====================================================================== options


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ({"goal": 4}, "goal"),
        ({"goal": 31}, "goal"),
        ({"goal": 0}, "goal"),
        ({"goal": "11"}, "goal"),
        ({"goal": 11.0}, "goal"),
        ({"goal": None}, "goal"),
        ({"per_player": 7}, "per_player"),
        ({"per_player": 16}, "per_player"),
        ({"per_player": "10"}, "per_player"),
        ({"per_player": 10.0}, "per_player"),
        ({"double_hit": 0}, "double_hit"),
        ({"double_hit": 3}, "double_hit"),
        ({"double_hit": -1}, "double_hit"),
        ({"double_hit": "2"}, "double_hit"),
        ({"double_hit": 2.0}, "double_hit"),
        ({"double_hit": None}, "double_hit"),
    ],
)
def test_options_invalid(raw, key):
    assert_options_refused(ENGINE, SpichkiOptions, raw, key, 4)


def test_options_double_hit_bool_rejected():
    with pytest.raises(OptionsError):
        ENGINE.options_from_json({"double_hit": True})


def test_options_error_limits():
    with pytest.raises(OptionsError) as err:
        SpichkiOptions(goal=31).validate()
    assert err.value.limits == {"min": 5, "max": 30}
    with pytest.raises(OptionsError) as err:
        SpichkiOptions(per_player=7).validate()
    assert err.value.limits == {"min": 8, "max": 15}
    with pytest.raises(OptionsError) as err:
        SpichkiOptions(double_hit=3).validate()
    assert err.value.limits == {"allowed": (1, 2)}


def test_options_two_to_eight_players():
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 8)


@pytest.mark.parametrize(
    "raw",
    [{}, {"goal": 5}, {"goal": 16}, {"per_player": 8}, {"per_player": 15},
     {"double_hit": 1}, {"double_hit": 2}, {"goal": 16, "per_player": 8, "double_hit": 1}],
)
def test_options_valid(raw):
    assert len(valid_option_games(ENGINE, ENGINE.options_from_json(raw))) == len(range(2, 9))


def test_options_unknown_keys_ignored():
    assert ENGINE.options_from_json({"colour": "red", "mode": "tower"}) == SpichkiOptions()
    assert ENGINE.options_from_json({"goal": 15, "chips": 3, "double_hit": 1}) == SpichkiOptions(15, 10, 1)
    assert SpichkiOptions().to_json() == {"goal": 11, "per_player": 10, "double_hit": 2}


# ====================================================================== actions


def test_legal_actions_target_then_chase_same_code():
    state = game(3, turn=0)
    assert ENGINE.legal_actions(state) == [TARGET]
    after, _, _ = roll(state, (1, 2))
    assert ENGINE.legal_actions(after) == [CHASE]
    assert TARGET.code == CHASE.code == "r"


@pytest.mark.parametrize("code", ["", "x", "R", "r ", "roll", "t", "c", "target", "chase"])
@pytest.mark.parametrize("target", [(), (2, 4)])
def test_apply_rejects_unknown_codes(code, target):
    with pytest.raises(IllegalActionError):
        ENGINE.apply(game(target=target), code)


def test_after_a_draw_nothing_is_legal():
    after, _, _ = roll(game(3, per_player=8, held=(10, 3, 10), target=(4, 6), turn=1), (6, 3))
    assert ENGINE.outcome(after).kind == "draw"
    assert_nothing_legal(ENGINE, after)


# ====================================================================== properties

SPEC = GAME_SETUPS["spichki"]
MAX_ACTIONS, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props

EVENT_SHAPES = {
    ("throw", "target", "pass"),
    ("throw", "pass"),
    ("throw", "take", "again"),
    ("throw", "take", "win"),
    ("throw", "take", "pile_empty"),
}


def reference_step(state: SpichkiState, dice: tuple[int, int]) -> dict:
    """THE SPEC for one throw, written independently of the engine: the fields after it."""
    n, roller, opts = state.seats, state.turn, state.options
    a, b = dice
    target = state.target
    if not target:
        if a != b:
            return {"target": dice, "turn": (roller + 1) % n, "matches": state.matches,
                    "pile": state.pile, "finished": False}
        earned = 2
    else:
        why, earned = reference_judge(target, dice, opts.double_hit)
        if why is None:
            return {"target": target, "turn": (roller + 1) % n, "matches": state.matches,
                    "pile": state.pile, "finished": False}
        if why == "exact":
            target = ()
    matches = list(state.matches)
    got = min(earned, state.pile)
    matches[roller] += got
    pile = state.pile - got
    result = {"target": target, "turn": roller, "matches": tuple(matches), "pile": pile}
    if matches[roller] >= opts.goal:
        result.update(finished=True, winners=(roller,))
    elif pile == 0:
        result.update(finished=True, winners=tuple(s for s in range(n) if matches[s] == max(matches)))
    else:
        result.update(finished=False, winners=())
    return result



@PROPS
@given(SETUPS)
def test_prop_every_step_matches_the_spec(setup):
    for before, after, events, entry in playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1]:
        assert entry.seat == before.turn and entry.code == "r"
        assert tuple(kinds(events)) in EVENT_SHAPES
        for key, value in reference_step(before, entry.dice).items():
            assert getattr(after, key) == value, (key, before, entry.dice)


@PROPS
@given(SETUPS)
def test_prop_matches_conserved_and_never_decrease(setup):
    options, seats, _, _ = setup
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    total = options.per_player * seats
    for state in states_of(start, steps):
        assert state.pile + sum(state.matches) == total
        assert state.pile >= 0 and min(state.matches) >= 0
        if state.target:  # a target is two different numbers
            assert len(state.target) == 2 and state.target[0] != state.target[1]
            assert all(1 <= d <= 6 for d in state.target)
    for before, after, events, _ in steps:
        assert all(x >= y for x, y in zip(after.matches, before.matches, strict=True))
        gained = sum(after.matches) - sum(before.matches)
        assert gained == sum(e.data["count"] for e in of_kind(events, "take"))
        assert all(x == y for s, (x, y) in enumerate(zip(after.matches, before.matches, strict=True))
                   if s != before.turn)  # only the roller takes matches


@PROPS
@given(SETUPS)
def test_prop_turn_changes_only_on_pass(setup):
    _, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    for before, after, events, _ in steps:
        passed = of_kind(events, "pass")
        assert (after.turn != before.turn) == bool(passed)
        if passed:
            assert passed[0].seat == after.turn == (before.turn + 1) % before.seats
            assert passed[0].data == {"from": before.turn}
        # the target kind of action is offered exactly when no target is set
        if not after.finished:
            assert ENGINE.legal_actions(after) == [TARGET if not after.target else CHASE]


@PROPS
@given(SETUPS)
def test_prop_the_winner_is_right(setup):
    options, seats, _, _ = setup
    _, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    final = steps[-1][1]
    out = ENGINE.outcome(final)
    assert out.winners == final.winners and out.losers == ()
    assert sorted(out.ranking) == list(range(seats))
    assert [final.matches[s] for s in out.ranking] == sorted(final.matches, reverse=True)
    best = max(final.matches)
    if any(m >= options.goal for m in final.matches):
        # reached the goal: the last roller alone, the only one at or above the goal
        assert out.kind == "win" and out.winners == (steps[-1][3].seat,)
        assert [s for s in range(seats) if final.matches[s] >= options.goal] == list(out.winners)
    else:
        assert final.pile == 0
        tied = tuple(s for s in range(seats) if final.matches[s] == best)
        assert out.winners == tied
        assert out.kind == ("draw" if len(tied) > 1 else "win")
    for w in out.winners:
        assert final.matches[w] >= options.goal or (final.pile == 0 and final.matches[w] == best)


# ====================================================================== random play


@pytest.mark.parametrize("seats", range(2, 9))
def test_random_play_many_games(seats):
    why_seen: set[str] = set()
    endings: set[str] = set()
    for i in range(60):
        options = SpichkiOptions(double_hit=1 + i % 2, per_player=8 + i % 8,
                                 goal=min(30, [11, 5, 16, 30][i % 4], (8 + i % 8) * seats))
        seed = seed_str(1000 * seats + i)
        state, per_action, log = play_random(ENGINE, options, seats, seed, limit=MAX_ACTIONS)
        assert state.pile + sum(state.matches) == options.per_player * seats
        out = ENGINE.outcome(state)
        endings.add(out.kind if max(state.matches) < options.goal else "goal")
        for events in per_action:
            why_seen.update(e.data["why"] for e in of_kind(events, "take"))
        assert_replays(ENGINE, options, seats, seed, state, log)
    assert why_seen == {"double", "exact", "double_hit", "one"}
    assert "goal" in endings
