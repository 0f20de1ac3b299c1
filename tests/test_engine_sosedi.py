"""engines/sosedi.py against THE SPEC (docs/rules/sosedi.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the numbered
points of the engine docstring, ``test_settled_...`` for what the docstring settles,
``test_spec_...`` for points of rules/sosedi.md and rules/README.md). Throws are loaded: a
test names the faces it wants (``LoadedDice``) and the engine rolls them through its own
dice path.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import given

from engines.base import IllegalActionError, LogEntry, OptionsError, replay
from engines.sosedi import ENGINE, MODES, NUMBER_TABLE, SosediOptions, SosediState, owner_of
from tests.engine_helpers import (
    apply_throw,
    assert_options_refused,
    kinds,
    new_state,
    of_kind,
    play_out,
    playthrough,
    seed_str,
    states_of,
    valid_option_games,
)
from tests.engine_setups import GAME_SETUPS

# THE SPEC's number table, written out face by face (index = face - 1; None = dead)
OWNERS: dict[int, list[int | None]] = {
    2: [0, 0, 0, 1, 1, 1],
    3: [0, 0, 1, 1, 2, 2],
    4: [0, 1, 2, 3, None, None],
    5: [0, 1, 2, 3, 4, None],
    6: [0, 1, 2, 3, 4, 5],
}


def game(mode: str = "classic", seats: int = 3, *, immune: bool = False, chips: int = 10,
         tower: int | None = None, held: tuple[int, ...] | None = None,
         left: int | None = None, **changes) -> SosediState:
    """A fresh game with state fields changed by dataclasses.replace.

    ``chips`` and ``tower`` are the *options*; ``held`` sets the chips (or coasters) each
    seat holds, ``left`` the coasters still in the tower; ``changes`` any other field
    (turn=..., bowl=..., phase=..., safe=...).
    """
    options = SosediOptions(mode=mode, chips=chips, tower=tower, roller_immune=immune)
    if held is not None:
        changes["chips"] = tuple(held)
    if left is not None:
        changes["tower"] = left
    return new_state(ENGINE, options, seats, **changes)


def roll(state: SosediState, dice: tuple[int, ...]):
    """Apply one throw that shows exactly ``dice``; returns (state, events, log entry)."""
    after, events, entry = apply_throw(ENGINE, state, dice)
    assert events[0].kind == "roll" and events[0].data["dice"] == list(dice)
    return after, events, entry


def paid(events) -> dict[int, int]:
    return {e.seat: e.data["count"] for e in of_kind(events, "pay")}


# ====================================================================== rule 1: numbers


@pytest.mark.parametrize("seats", sorted(OWNERS))
def test_rule1_number_table(seats):
    assert [owner_of(face, seats) for face in range(1, 7)] == OWNERS[seats]
    table = game(seats=seats).numbers
    assert len(table) == seats
    for seat, owned in enumerate(table):
        assert owned == tuple(f for f in range(1, 7) if OWNERS[seats][f - 1] == seat)
    assert NUMBER_TABLE[seats] == table


@pytest.mark.parametrize("seats", sorted(OWNERS))
@pytest.mark.parametrize("face", range(1, 7))
def test_rule1_owner_of_each_face_pays(seats, face):
    before = game(seats=seats, turn=0)
    after, events, _ = roll(before, (face, face, face))
    owner = OWNERS[seats][face - 1]
    expected = list(before.chips)
    if owner is not None:
        expected[owner] -= 3
    assert list(after.chips) == expected
    assert after.bowl == (0 if owner is None else 3)
    assert paid(events) == ({} if owner is None else {owner: 3})


@pytest.mark.parametrize(("seats", "dice"), [(4, (5, 6, 5)), (4, (6, 6, 6)), (5, (6, 6, 6))])
def test_rule1_dead_number_costs_nobody(seats, dice):
    before = game(seats=seats, turn=1)
    after, events, _ = roll(before, dice)
    assert after.chips == before.chips and after.bowl == 0
    assert kinds(events) == ["roll", "nothing"]
    assert after.turn == 2  # the throw is shown and the turn passes


def test_rule1_dead_numbers_mixed_with_live_ones():
    after, events, _ = roll(game(seats=4, turn=0), (5, 4, 6))
    assert after.chips == (10, 10, 10, 9) and after.bowl == 1
    assert paid(events) == {3: 1}


@pytest.mark.parametrize(("seats", "dice"), [(4, (5, 6, 6)), (5, (6, 6, 6))])
def test_rule1_dead_number_does_nothing_in_tower(seats, dice):
    before = game("tower", seats, turn=0)
    after, events, _ = roll(before, dice)
    assert after.tower == before.tower == 5 * seats
    assert after.chips == (0,) * seats
    assert kinds(events) == ["roll", "nothing"]


# ====================================================================== rule 2: classic paying


@pytest.mark.parametrize("chips", [5, 10, 20, 30])
def test_rule2_everyone_starts_with_the_same_chips(chips):
    for seats in range(2, 7):
        state = game(seats=seats, chips=chips)
        assert state.chips == (chips,) * seats and state.bowl == 0


def test_rule2_default_is_ten_chips():
    assert SosediOptions().chips == 10
    assert ENGINE.new_game(SosediOptions(), 4, seed_str(1))[0].chips == (10,) * 4


def test_rule2_one_chip_per_die():
    after, events, _ = roll(game(seats=6, turn=3), (1, 3, 6))
    assert after.chips == (9, 10, 9, 10, 10, 9)
    assert after.bowl == 3
    assert paid(events) == {0: 1, 2: 1, 5: 1}
    assert [(e.seat, e.data["left"]) for e in of_kind(events, "pay")] == [(0, 9), (2, 9), (5, 9)]


def test_rule2_number_twice_costs_two():
    after, events, _ = roll(game(seats=6, turn=0), (4, 2, 4))
    assert after.chips == (10, 9, 10, 8, 10, 10)
    assert after.bowl == 3
    assert paid(events) == {1: 1, 3: 2}


def test_rule2_number_three_times_costs_three():
    after, events, _ = roll(game(seats=5, turn=0), (2, 2, 2))
    assert after.chips == (10, 7, 10, 10, 10) and after.bowl == 3
    assert of_kind(events, "pay")[0].data == {"count": 3, "left": 7}


def test_rule2_owner_of_several_numbers_pays_for_each_die():
    # two players: seat 0 owns 1, 2, 3 -> three different faces cost three chips
    after, _, _ = roll(game(seats=2, turn=1), (1, 2, 3))
    assert after.chips == (7, 10) and after.bowl == 3
    # three players: 5 and 6 both belong to seat 2
    after, _, _ = roll(game(seats=3, turn=0), (5, 1, 6))
    assert after.chips == (9, 10, 8) and after.bowl == 3


# ====================================================================== rule 3: the roller pays


@pytest.mark.parametrize("mode", ["classic", "reverse"])
def test_rule3_roller_pays_own_numbers(mode):
    after, events, entry = roll(game(mode, 3, turn=1), (3, 4, 1))
    assert entry.seat == 1
    assert after.chips == (9, 8, 10)
    assert paid(events) == {0: 1, 1: 2}


@pytest.mark.parametrize("mode", ["classic", "reverse"])
def test_rule3_roller_immune_exempts_roller(mode):
    after, events, _ = roll(game(mode, 3, immune=True, turn=1), (3, 4, 1))
    assert after.chips == (9, 10, 10)  # neighbours still pay
    assert after.bowl == 1
    assert paid(events) == {0: 1}


def test_rule3_roller_immune_throw_of_only_own_numbers_costs_nothing():
    after, events, _ = roll(game("classic", 2, immune=True, turn=0), (1, 2, 3))
    assert after.chips == (10, 10) and after.bowl == 0
    assert kinds(events) == ["roll", "nothing"]
    assert after.turn == 1


def test_rule3_roller_immune_is_off_by_default():
    assert SosediOptions().roller_immune is False
    assert ENGINE.options_from_json({"mode": "reverse"}).roller_immune is False


def test_rule3_roller_immune_in_tower_phase1():
    before = game("tower", 3, immune=True, turn=0)
    after, events, _ = roll(before, (1, 2, 3))
    assert after.chips == (0, 1, 0)  # the roller takes nothing for 1 and 2
    assert after.tower == before.tower - 1
    assert [e.seat for e in of_kind(events, "take")] == [1]


def test_rule3_roller_immune_in_tower_phase2():
    # tower size 6: held 3 + 2, tower 1, phase 2; seat 0 rolls its own number
    before = game("tower", 3, immune=True, tower=6, held=(3, 2, 0), phase=2,
                  safe=(False, False, True), turn=0, left=1)
    after, events, _ = roll(before, (1, 2, 3))
    assert after.chips == (3, 1, 0)  # only the neighbour puts one back
    assert after.tower == 2
    assert [e.seat for e in of_kind(events, "put")] == [1]


def test_rule3_roller_not_immune_in_tower():
    before = game("tower", 3, turn=0)
    after, _, _ = roll(before, (1, 2, 3))
    assert after.chips == (2, 1, 0) and after.tower == before.tower - 3


# ====================================================================== rule 4: first out wins


def test_rule4_first_to_put_last_chip_wins_at_once():
    # 30 chips in play: 4 + 1 + 6 held, 19 in the bowl; seat 0 rolls, seat 1 goes out
    before = game("classic", 3, held=(4, 1, 6), bowl=19, turn=0)
    after, events, entry = roll(before, (3, 1, 5))
    assert after.finished and after.result_seat == 1
    assert after.current_player is None
    assert after.chips == (3, 0, 5)  # the other dice of the throw are paid too
    assert after.bowl == 22
    win = of_kind(events, "win")
    assert len(win) == 1 and win[0].seat == 1 and win[0].data == {"bowl": 22}
    assert kinds(events)[-1] == "win" and "lose" not in kinds(events)
    out = ENGINE.outcome(after)
    assert out is not None and out.kind == "win"
    assert out.winners == (1,) and out.losers == ()
    assert out.data["bowl"] == 22
    assert out.ranking[0] == 1 and sorted(out.ranking) == [0, 1, 2]
    assert ENGINE.legal_actions(after) == []
    with pytest.raises(IllegalActionError):
        ENGINE.apply(after, "r")
    assert entry.seat == 0


def test_rule4_winner_takes_only_the_bowl():
    before = game("classic", 2, chips=20, held=(1, 15), bowl=24, turn=1)
    after, _, _ = roll(before, (2, 6, 6))
    out = ENGINE.outcome(after)
    assert out.winners == (0,)
    # the bowl is 24 + 1 + 2; the loser keeps the 13 chips still in front of them
    assert out.data["bowl"] == after.bowl == 27
    assert after.chips == (0, 13)
    assert after.bowl + sum(after.chips) == 2 * 20


def test_rule4_roller_can_win_on_own_throw():
    after, events, _ = roll(game("classic", 3, held=(5, 1, 5), bowl=19, turn=1), (3, 6, 6))
    assert after.result_seat == 1 and ENGINE.outcome(after).winners == (1,)
    assert [(e.kind, e.seat) for e in of_kind(events, "win")] == [("win", 1)]


def test_rule4_no_outcome_while_playing():
    state = game("classic", 3, held=(2, 2, 2), bowl=24)
    after, _, _ = roll(state, (1, 3, 6))
    assert not after.finished and ENGINE.outcome(after) is None
    assert ENGINE.outcome(state) is None


# ============================================== settled: paying more than you have


def test_settled_pays_only_the_chips_they_have():
    before = game("classic", 3, held=(2, 10, 10), bowl=8, turn=1)
    after, events, _ = roll(before, (1, 2, 1))
    assert after.chips == (0, 10, 10)  # owed 3, had 2: nobody goes below zero
    assert after.bowl == 10
    assert of_kind(events, "pay")[0].data == {"count": 2, "left": 0}
    assert after.finished and after.result_seat == 0


def test_settled_overpay_counts_as_emptied_for_the_void_rule():
    # seat 0 owes 2 with 2 chips, seat 1 owes 1 with 1 chip: both emptied -> void
    before = game("classic", 3, held=(2, 1, 5), bowl=22, turn=2)
    after, events, _ = roll(before, (1, 2, 3))
    assert kinds(events) == ["roll", "void"]
    assert after.chips == before.chips


# ====================================================================== rule 5: void throw


@pytest.mark.parametrize("mode", ["classic", "reverse"])
def test_rule5_void_when_two_players_emptied(mode):
    before = game(mode, 3, held=(1, 1, 5), bowl=23, turn=2)
    after, events, entry = roll(before, (1, 3, 5))
    assert kinds(events) == ["roll", "void"]
    void = events[1]
    assert void.seat == 2 and sorted(void.data["seats"]) == [0, 1]
    # nothing is paid, the game goes on, the same player throws again
    assert after.chips == before.chips and after.bowl == before.bowl
    assert not after.finished and ENGINE.outcome(after) is None
    assert after.turn == after.current_player == 2
    assert ENGINE.legal_actions(after) == ENGINE.legal_actions(before)
    # the throw itself is used up and logged
    assert after.throws == before.throws + 1 and after.version == before.version + 1
    assert entry == LogEntry(seat=2, code="r", dice=(1, 3, 5))
    again, events2, entry2 = roll(after, (5, 6, 5))
    assert entry2.seat == 2 and events2[0].seat == 2
    assert again.chips == (1, 1, 2) and again.turn == 0


def test_rule5_void_when_three_players_emptied():
    before = game("classic", 3, held=(1, 1, 1), bowl=27, turn=0)
    after, events, _ = roll(before, (5, 3, 1))
    assert kinds(events) == ["roll", "void"]
    assert sorted(events[1].data["seats"]) == [0, 1, 2]
    assert after.chips == (1, 1, 1) and after.turn == 0


def test_rule5_one_emptied_and_one_paying_is_not_void():
    before = game("classic", 3, held=(1, 4, 5), bowl=20, turn=2)
    after, events, _ = roll(before, (1, 3, 3))
    assert "void" not in kinds(events)
    assert after.chips == (0, 2, 5) and after.result_seat == 0


def test_rule5_immune_roller_is_not_emptied():
    # without the option this throw would empty seats 0 and 1 (void, see above);
    # with it the roller (seat 0) pays nothing, so only seat 1 runs out
    before = game("reverse", 3, immune=True, held=(1, 1, 5), bowl=23, turn=0)
    after, events, _ = roll(before, (1, 3, 6))
    assert "void" not in kinds(events)
    assert after.chips == (1, 0, 4)
    assert ENGINE.outcome(after).losers == (1,)


def test_rule5_void_throws_are_logged_and_replay():
    # real games (short ones: 5 chips, 3 players) until one has void throws in it
    options = SosediOptions(chips=5)
    for i in range(200):
        seed = seed_str(i)
        state, _ = ENGINE.new_game(options, 3, seed)
        state, per_action, log = play_out(ENGINE, state)
        voids = [i for i, events in enumerate(per_action) if "void" in kinds(events)]
        if voids:
            break
    else:  # pragma: no cover
        pytest.fail("no void throw in 200 games")
    for v in voids:
        assert log[v + 1].seat == log[v].seat  # the same player throws again
    assert replay(ENGINE, options, 3, seed, log) == state
    assert state.version == len(log)


# ====================================================================== rule 6: «наоборот»


def test_rule6_reverse_first_out_loses():
    before = game("reverse", 3, held=(3, 1, 6), bowl=20, turn=0)
    after, events, _ = roll(before, (3, 5, 6))
    assert after.finished and after.result_seat == 1
    assert kinds(events)[-1] == "lose" and events[-1].seat == 1
    assert "win" not in kinds(events)
    out = ENGINE.outcome(after)
    assert out.kind == "lose" and out.losers == (1,) and out.winners == (0, 2)  # not paying is the win


def test_rule6_reverse_plays_like_classic_until_then():
    classic, _, _ = roll(game("classic", 4, turn=0), (1, 1, 4))
    reverse, _, _ = roll(game("reverse", 4, turn=0), (1, 1, 4))
    assert classic.chips == reverse.chips == (8, 10, 10, 9)
    assert classic.bowl == reverse.bowl == 3


# ====================================================================== rule 7: «Башня»


@pytest.mark.parametrize("seats", range(2, 7))
def test_rule7_tower_starts_with_five_per_player_and_no_coasters(seats):
    state, _ = ENGINE.new_game(SosediOptions(mode="tower"), seats, seed_str(3))
    assert state.tower == 5 * seats
    assert state.chips == (0,) * seats
    assert state.phase == 1 and state.safe == (False,) * seats and state.bowl == 0


@pytest.mark.parametrize(("tower", "seats"), [(5, 6), (12, 3), (60, 2)])
def test_rule7_custom_tower(tower, seats):
    state, _ = ENGINE.new_game(SosediOptions(mode="tower", tower=tower), seats, seed_str(3))
    assert state.tower == tower and state.chips == (0,) * seats


def test_rule7_phase1_each_die_takes_one_coaster():
    before = game("tower", 3, turn=1)
    after, events, _ = roll(before, (1, 2, 5))
    assert after.chips == (2, 0, 1)
    assert after.tower == 12 and after.phase == 1
    assert [(e.seat, e.data["held"], e.data["tower"]) for e in of_kind(events, "take")] == [
        (0, 1, 14), (0, 2, 13), (2, 1, 12)
    ]
    assert after.turn == 2


def test_rule7_tower_used_up_mid_throw_then_put_back():
    # tower of 6: held 2 + 3 + 0, one coaster left; seat 1 rolls 3, 1, 3
    before = game("tower", 3, tower=6, held=(2, 3, 0), turn=1, left=1)
    after, events, _ = roll(before, (3, 1, 3))
    assert kinds(events) == ["roll", "take", "tower_down", "put", "put"]
    take, down, put0, put1 = events[1:]
    assert (take.seat, take.data) == (1, {"held": 4, "tower": 0})
    assert down.data == {"safe": [2]}
    assert (put0.seat, put0.data) == (0, {"held": 1, "tower": 1})
    assert (put1.seat, put1.data) == (1, {"held": 3, "tower": 2})
    assert after.chips == (1, 3, 0) and after.tower == 2 and after.phase == 2
    assert after.safe == (False, False, True)
    assert after.tower + sum(after.chips) == 6
    assert after.turn == 0  # seat 2 is safe and skipped


def test_rule7_dice_resolve_left_to_right():
    before = game("tower", 3, tower=6, held=(2, 3, 0), turn=1, left=1)
    # same dice as above in another order: now seat 0 takes the last coaster and
    # seat 1 puts back twice
    after, _, _ = roll(before, (1, 3, 3))
    assert after.chips == (3, 1, 0) and after.tower == 2


def test_rule7_phase2_each_die_puts_one_back():
    before = game("tower", 3, tower=9, held=(3, 2, 4), phase=2, turn=0, left=0)
    after, events, _ = roll(before, (1, 6, 5))
    assert after.chips == (2, 2, 2) and after.tower == 3
    assert [e.data["held"] for e in of_kind(events, "put")] == [2, 3, 2]


# ====================================================================== rule 8: safe


def test_rule8_players_without_coaster_safe_when_tower_ends():
    before = game("tower", 4, tower=5, held=(3, 0, 1, 0), turn=0, left=1)
    after, events, _ = roll(before, (1, 5, 6))
    assert after.phase == 2 and after.tower == 0
    assert after.safe == (False, True, False, True)
    assert of_kind(events, "tower_down")[0].data == {"safe": [1, 3]}
    assert after.turn == 2  # seat 1 is safe: skipped


def test_rule8_safe_roller_passes_to_next_holder():
    # seat 3 rolls, the tower runs out, seat 3 (no coaster) and seat 0 are safe
    before = game("tower", 4, tower=5, held=(0, 2, 2, 0), turn=3, left=1)
    after, _, _ = roll(before, (2, 6, 5))
    assert after.safe == (True, False, False, True)
    assert after.turn == 1 and not after.finished


def test_rule8_only_empty_handed_players_are_safe_when_tower_ends():
    before = game("tower", 3, tower=6, held=(1, 4, 0), turn=2, left=1)
    after, _, _ = roll(before, (4, 5, 6))
    # 4 -> seat 1 takes the last coaster; 5 and 6 belong to the now-safe seat 2
    assert after.chips == (1, 5, 0) and after.safe == (False, False, True)
    assert not after.finished


def test_rule8_safe_players_are_skipped_in_turn_order():
    state = game("tower", 4, tower=5, held=(2, 0, 3, 0), phase=2,
                 safe=(False, True, False, True), turn=0, left=0)
    state, events, _ = roll(state, (5, 6, 5))  # dead numbers
    assert kinds(events) == ["roll", "nothing"] and state.turn == 2
    state, events, _ = roll(state, (6, 6, 5))
    assert state.turn == 0


def test_rule8_safe_players_numbers_do_nothing():
    state = game("tower", 3, tower=6, held=(0, 3, 2), phase=2,
                 safe=(True, False, False), turn=1, left=1)
    after, events, _ = roll(state, (1, 2, 1))
    assert after.chips == state.chips and after.tower == 1
    assert kinds(events) == ["roll", "nothing"]
    after, events, _ = roll(state, (1, 5, 2))
    assert after.chips == (0, 3, 1) and after.tower == 2


def test_rule8_putting_back_last_coaster_makes_safe():
    state = game("tower", 3, tower=6, held=(1, 2, 2), phase=2, turn=1, left=1)
    after, events, _ = roll(state, (1, 4, 2))
    # seat 0 puts back its last coaster and is safe; its second die does nothing
    assert after.chips == (0, 1, 2) and after.tower == 3
    assert after.safe == (True, False, False)
    assert kinds(events) == ["roll", "put", "safe", "put"]
    assert events[2].seat == 0
    assert not after.finished and after.turn == 2


# ====================================================================== rule 9: last holder loses


def test_rule9_last_holder_loses():
    state = game("tower", 3, tower=6, held=(1, 3, 0), phase=2,
                 safe=(False, False, True), turn=1, left=2)
    after, events, _ = roll(state, (2, 5, 6))
    assert after.finished and after.result_seat == 1
    assert kinds(events) == ["roll", "put", "safe", "lose"] and events[-1].seat == 1
    out = ENGINE.outcome(after)
    assert out.kind == "lose" and out.losers == (1,) and out.winners == (0, 2)  # not paying is the win
    assert ENGINE.legal_actions(after) == []


def test_rule9_tower_ending_with_one_holder_loses_at_once():
    state = game("tower", 2, tower=5, held=(4, 0), turn=1, left=1)
    after, events, _ = roll(state, (2, 5, 5))
    assert after.safe == (False, True)
    assert after.finished and ENGINE.outcome(after).losers == (0,)
    assert kinds(events) == ["roll", "take", "tower_down", "lose"]


# ====================================================================== rule 10: tower void


def test_rule10_void_when_every_holder_would_get_out():
    state = game("tower", 4, tower=5, held=(1, 0, 1, 0), phase=2,
                 safe=(False, True, False, True), turn=0, left=3)
    after, events, entry = roll(state, (1, 3, 5))
    assert kinds(events) == ["roll", "void"] and events[1].seat == 0
    for field in ("chips", "tower", "phase", "safe", "turn", "bowl", "finished"):
        assert getattr(after, field) == getattr(state, field), field
    assert after.throws == state.throws + 1 and after.version == state.version + 1
    assert entry.seat == 0
    again, events2, entry2 = roll(after, (1, 6, 6))  # the same player throws again
    assert entry2.seat == 0 and events2[0].seat == 0
    assert again.finished and ENGINE.outcome(again).losers == (2,)


def test_rule10_not_void_when_someone_is_left():
    state = game("tower", 4, tower=5, held=(1, 0, 2, 0), phase=2,
                 safe=(False, True, False, True), turn=0, left=2)
    after, events, _ = roll(state, (1, 3, 5))
    assert "void" not in kinds(events)
    assert after.chips == (0, 0, 1, 0) and ENGINE.outcome(after).losers == (2,)


def test_rule10_void_with_three_holders():
    state = game("tower", 3, tower=6, held=(1, 1, 1), phase=2, turn=2, left=3)
    after, events, _ = roll(state, (6, 3, 2))
    assert kinds(events) == ["roll", "void"]
    assert after.chips == (1, 1, 1) and after.turn == 2


def test_rule10_immune_roller_stays_in_so_not_void():
    state = game("tower", 4, immune=True, tower=5, held=(1, 0, 1, 0), phase=2,
                 safe=(False, True, False, True), turn=0, left=3)
    after, events, _ = roll(state, (1, 3, 5))
    assert "void" not in kinds(events)
    assert ENGINE.outcome(after).losers == (0,)


def test_rule10_void_across_phases_restores_phase1():
    # Unreachable in a real game (when the tower runs out the holders hold the whole
    # tower, >= 5 coasters, and at most two dice are left to put back; the property
    # tests check this), so the state is made up: the void must still undo the throw
    # completely, phase change and freed players included.
    state = game("tower", 3, tower=5, held=(1, 0, 0), turn=0, left=1)
    after, events, _ = roll(state, (1, 1, 1))
    assert kinds(events) == ["roll", "void"]
    assert after.phase == 1 and after.tower == 1
    assert after.chips == (1, 0, 0) and after.safe == (False, False, False)
    assert after.turn == 0 and not after.finished


# ====================================================================== options


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ({"mode": "pub"}, "mode"),
        ({"mode": ""}, "mode"),
        ({"chips": 4}, "chips"),
        ({"chips": 31}, "chips"),
        ({"chips": 0}, "chips"),
        ({"chips": "10"}, "chips"),
        ({"chips": 10.0}, "chips"),
        ({"tower": 4}, "tower"),
        ({"tower": 61}, "tower"),
        ({"tower": "20"}, "tower"),
        ({"mode": "tower", "tower": 0}, "tower"),
    ],
)
def test_options_invalid(raw, key):
    assert_options_refused(ENGINE, SosediOptions, raw, key, 3)


def test_options_error_limits():
    with pytest.raises(OptionsError) as err:
        SosediOptions(chips=31).validate()
    assert err.value.limits == {"min": 5, "max": 30}
    with pytest.raises(OptionsError) as err:
        SosediOptions(tower=61).validate()
    assert err.value.limits == {"min": 5, "max": 60}


def test_options_two_to_six_players():
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 6)


@pytest.mark.parametrize(
    "raw",
    [{}, {"chips": 5}, {"chips": 30}, {"tower": 5}, {"tower": 60}, {"tower": None},
     {"mode": "reverse", "roller_immune": True}, {"mode": "tower", "tower": 33}],
)
def test_options_valid(raw):
    assert len(valid_option_games(ENGINE, ENGINE.options_from_json(raw))) == len(range(2, 7))


def test_options_defaults_and_unknown_keys():
    assert ENGINE.options_from_json({"colour": "red", "mode": "tower"}) == SosediOptions("tower")
    assert SosediOptions() == SosediOptions("classic", 10, None, False)
    assert set(MODES) == {"classic", "reverse", "tower"}


# ====================================================================== actions and turns


def test_legal_actions_during_game_is_one_roll():
    actions = ENGINE.legal_actions(game())
    assert [(a.code, a.kind) for a in actions] == [("r", "roll")]


def test_spec_turn_passes_to_the_next_seat():
    state = game("classic", 3, turn=2)
    state, _, entry = roll(state, (1, 3, 4))
    assert entry.seat == 2 and state.turn == state.current_player == 0
    state, _, entry = roll(state, (1, 3, 4))
    assert entry.seat == 0 and state.turn == 1


def test_spec_a_roll_throws_three_dice():
    _, events, entry = ENGINE.apply(game(), "r")
    assert len(entry.dice) == 3 and events[0].data == {"dice": list(entry.dice)}


# ====================================================================== pub rounds


@pytest.mark.parametrize("mode", ["reverse", "tower"])
def test_spec_pub_round_names_exactly_one_payer(mode):
    for i in range(10):
        state, _ = ENGINE.new_game(SosediOptions(mode=mode), 2 + i % 5, seed_str(100 + i))
        state, _, _ = play_out(ENGINE, state)
        out = ENGINE.outcome(state)
        assert out.kind == "lose" and len(out.losers) == 1
        assert out.losers == (state.result_seat,)
        assert out.winners == tuple(s for s in range(state.seats) if s != state.result_seat)


def test_spec_pub_round_again_with_same_settings():
    # «Ещё раунд»: the stored options give the same game settings back
    options = SosediOptions(mode="tower", tower=17, roller_immune=True)
    again = ENGINE.options_from_json(json.loads(json.dumps(options.to_json())))
    assert again == options
    state, _ = ENGINE.new_game(again, 4, seed_str(5))
    assert state.options == options and state.tower == 17


# ====================================================================== properties

SPEC = GAME_SETUPS["sosedi"]
MAX_ACTIONS, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props


def reference_step(state: SosediState, dice: tuple[int, ...]) -> dict | None:
    """THE SPEC for one throw, written independently of the engine; None = void."""
    n, roller, opts = state.seats, state.turn, state.options
    owners = []
    for d in dice:
        owner = OWNERS[n][d - 1]
        owners.append(None if owner == roller and opts.roller_immune else owner)
    held = list(state.chips)
    if opts.mode != "tower":
        due = Counter(o for o in owners if o is not None)
        out = [s for s in due if due[s] >= held[s]]
        if len(out) >= 2:
            return None
        for s in due:
            held[s] -= min(due[s], held[s])
        result = {"chips": tuple(held), "bowl": state.bowl + sum(state.chips) - sum(held),
                  "finished": bool(out), "result_seat": out[0] if out else None}
        if not out:
            result["turn"] = (roller + 1) % n
        return result
    tower, phase, safe = state.tower, state.phase, list(state.safe)
    for o in owners:
        if o is None or safe[o]:
            continue
        if phase == 1:
            held[o] += 1
            tower -= 1
            if tower == 0:
                phase = 2
                safe = [s or h == 0 for s, h in zip(safe, held, strict=True)]
        else:
            held[o] -= 1
            tower += 1
            safe[o] = held[o] == 0
    holders = [s for s in range(n) if not safe[s]]
    if phase == 2 and not holders:
        return None
    result = {"chips": tuple(held), "tower": tower, "phase": phase, "safe": tuple(safe)}
    if phase == 2 and len(holders) == 1:
        result.update(finished=True, result_seat=holders[0])
    else:
        result.update(finished=False, result_seat=None,
                      turn=next(s % n for s in range(roller + 1, roller + n + 1)
                                if not safe[s % n]))
    return result


@PROPS
@given(SETUPS)
def test_prop_every_step_matches_the_spec(setup):
    for before, after, events, entry in playthrough(ENGINE, *setup, limit=MAX_ACTIONS)[1]:
        assert entry.seat == before.turn and entry.code == "r"
        expected = reference_step(before, entry.dice)
        if expected is None:
            assert kinds(events) == ["roll", "void"]
            assert replace(after, throws=before.throws, version=before.version,
                           last_dice=before.last_dice, last_seat=before.last_seat) == before
            # a void tower throw never crosses from phase 1 (see test_rule10_..._phase1)
            assert before.phase in (0, 2)
            continue
        assert "void" not in kinds(events)
        for key, value in expected.items():
            assert getattr(after, key) == value, (key, before, entry.dice)


@PROPS
@given(SETUPS.filter(lambda setup: setup[0].mode != "tower"))
def test_prop_chips_conserved(setup):
    options, seats, _, _ = setup
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    for state in states_of(start, steps):
        assert sum(state.chips) + state.bowl == seats * options.chips
        assert min(state.chips) >= 0
        assert state.tower == 0 and state.phase == 0 and not any(state.safe)
        assert (min(state.chips) == 0) == state.finished


@PROPS
@given(SETUPS.map(lambda setup: (replace(setup[0], mode="tower"), *setup[1:])))
def test_prop_tower_conserved(setup):
    options, seats, _, _ = setup
    start, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    size = options.tower_size(seats)
    for state in states_of(start, steps):
        assert state.tower + sum(state.chips) == size
        assert min(state.chips) >= 0 and state.tower >= 0 and state.bowl == 0
        assert all(h == 0 for h, s in zip(state.chips, state.safe, strict=True) if s)
        if state.phase == 1:
            assert state.tower > 0 and not any(state.safe)
        holders = [s for s in range(seats) if not state.safe[s]]
        assert len(holders) >= (1 if state.finished else 2)
        if not state.finished:
            assert not state.safe[state.turn]  # safe players never throw


@PROPS
@given(SETUPS)
def test_prop_the_outcome_names_one_result_seat(setup):
    options, seats, _, _ = setup
    _, steps = playthrough(ENGINE, *setup, limit=MAX_ACTIONS)
    final = steps[-1][1]
    out = ENGINE.outcome(final)
    seats_named = out.winners if options.mode == "classic" else out.losers
    assert len(seats_named) == 1 and seats_named == (final.result_seat,)
    assert sorted(out.winners + out.losers) == list(range(seats)) or options.mode == "classic"
    seat = final.result_seat
    if options.mode == "classic":
        assert out.kind == "win" and final.chips[seat] == 0
        assert out.data["bowl"] == final.bowl
        assert all(final.chips[s] > 0 for s in range(seats) if s != seat)
    elif options.mode == "reverse":
        assert out.kind == "lose" and final.chips[seat] == 0
        assert all(final.chips[s] > 0 for s in range(seats) if s != seat)
    else:
        assert out.kind == "lose" and final.chips[seat] > 0
        assert [s for s in range(seats) if not final.safe[s]] == [seat]
