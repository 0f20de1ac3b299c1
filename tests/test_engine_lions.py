"""engines/lions.py against THE SPEC (docs/rules/lions.md) and its module docstring.

Scenario tests are named after the rule they pin (``test_ruleN_...`` for the nine rules the
engine docstring numbers, ``test_settled_...`` for the points it settles, ``test_seed_...``
for the seed's worked examples). Positions are built with dataclasses.replace from circle
labels (``INDEX``); a turn is played code by code as the bot sends it: ``p<circle>`` picks
a piece, ``s<circle>`` steps it, ``d`` sends («Готово»). Whole games, JSON and replays are
in tests/test_engine_lions_play.py.
"""

from __future__ import annotations

import pytest

from engines.base import Action, Event, IllegalActionError, LoadedDice, LogEntry, draw_starter, replay
from engines.lions import (
    ENGINE,
    HUNTERS,
    LIONS,
    LionsOptions,
    LionsState,
    build,
    isolated,
    mask_of,
    pushed,
)
from engines.lions_board import INDEX, SIZE, label
from tests.engine_helpers import (
    assert_options_refused,
    kinds,
    new_state,
    of_kind,
    seed_str,
)

END = ["d", "u", "x"]  # «Готово», «Отменить шаг», «Сдаться»: all a full turn leaves


def circles(*labels: str) -> tuple[int, ...]:
    return tuple(sorted(INDEX[x] for x in labels))


def game(lions: tuple[str, ...] = ("1", "2", "3", "4", "5", "6"),
         hunters: tuple[str, ...] = ("А", "Б", "В", "Г", "Д", "Е"),
         to_move: str = LIONS, lions_seat: int = 0, **changes) -> LionsState:
    """A game with the pieces on the labelled circles and ``to_move`` (a side) to move."""
    turn = lions_seat if to_move == LIONS else 1 - lions_seat
    return new_state(ENGINE, LionsOptions(lions_seat=lions_seat), 2, lions=circles(*lions),
                     hunters=circles(*hunters), turn=turn, **changes)


def p(x: str) -> str:
    return f"p{INDEX[x]}"


def s(x: str) -> str:
    return f"s{INDEX[x]}"


def codes(state: LionsState) -> list[str]:
    return [a.code for a in ENGINE.legal_actions(state)]


def picks(state: LionsState) -> set[str]:
    return {label(int(c[1:])) for c in codes(state) if c[0] == "p"}


def steps(state: LionsState) -> set[str]:
    return {label(int(c[1:])) for c in codes(state) if c[0] == "s"}


def play(state: LionsState, *moves: str) -> tuple[LionsState, list[Event]]:
    """Apply codes in order, each by the player to move; returns (state, all events)."""
    events: list[Event] = []
    for code in moves:
        seat = state.current_player
        after, more, entry = ENGINE.apply(state, code)
        assert entry.seat == seat and entry.code == code and entry.dice == ()
        assert after.version == state.version + 1
        state = after
        events += more
    return state, events


def path(*labels: str) -> list[str]:
    """The codes moving the piece on ``labels[0]`` along the other circles."""
    return [p(labels[0]), *(s(x) for x in labels[1:])]


def turn(state: LionsState, *paths: tuple[str, ...]) -> tuple[LionsState, list[Event]]:
    """One whole turn: each path, then «Готово»."""
    return play(state, *(c for labels in paths for c in path(*labels)), "d")


def board(state: LionsState) -> tuple[set[str], set[str]]:
    return {label(c) for c in state.lions}, {label(c) for c in state.hunters}


def taken(events: list[Event]) -> list[tuple[str, bool]]:
    (sent,) = of_kind(events, "turn")
    return [(label(c), own) for c, own in sent.data["taken"]]


def reachable(state: LionsState, piece: str) -> set[str]:
    """Every circle the piece on ``piece`` can end on this turn, explored through the legal steps."""
    out: set[str] = set()
    front = [play(state, p(piece))[0]]
    while front:
        here = front.pop()
        for x in steps(here):
            nxt = play(here, s(x))[0]
            out.add(x)
            front.append(nxt)
    return out


# ====================================================================== rule 1: sides, seats, the lot


@pytest.mark.parametrize("seat", [0, 1])
def test_rule1_starter_drawn_by_lot(seat):
    state, events = ENGINE.new_game(LionsOptions(), 2, seed_str(0), LoadedDice((seat + 1,)))
    assert state.turn == state.current_player == seat
    assert events == [Event("starter", seat=seat, data={"side": LIONS if seat == 0 else HUNTERS})]
    assert state.version == 0 and state.segments == () and not state.push_on


def test_rule1_both_seats_start_for_some_seeds():
    starters = [ENGINE.new_game(LionsOptions(), 2, seed_str(i))[0].turn for i in range(40)]
    assert starters == [draw_starter(seed_str(i), 2) for i in range(40)]
    assert set(starters) == {0, 1}


@pytest.mark.parametrize("lions_seat", [0, 1])
def test_rule1_lions_seat_plays_the_lions_from_1_to_6(lions_seat):
    options = ENGINE.options_from_json({"lions_seat": lions_seat})
    assert options == LionsOptions(lions_seat=lions_seat)
    state, _ = ENGINE.new_game(options, 2, seed_str(0), LoadedDice((lions_seat + 1,)))
    assert board(state) == ({"1", "2", "3", "4", "5", "6"}, {"А", "Б", "В", "Г", "Д", "Е"})
    assert state.side == state.side_of(lions_seat) == LIONS and state.side_of(1 - lions_seat) == HUNTERS
    assert state.seat_of(LIONS) == lions_seat and state.seat_of(HUNTERS) == 1 - lions_seat
    assert picks(state) == {"1", "2", "3", "4", "5", "6"}
    other, _ = ENGINE.new_game(options, 2, seed_str(0), LoadedDice((2 - lions_seat,)))
    assert other.side == HUNTERS
    assert picks(other) == {"А", "Б", "Д", "Е"}  # Г and В have no free circle (but are not taken)


def test_rule1_default_options():
    assert LionsOptions().lions_seat == 0 and ENGINE.options_from_json(None) == LionsOptions()
    assert ENGINE.options_from_json({"lions_seat": 1, "unknown": 5}) == LionsOptions(lions_seat=1)


@pytest.mark.parametrize("bad", [2, -1, "1", True, False, None, 1.0])
def test_rule1_lions_seat_refused(bad):
    assert_options_refused(ENGINE, LionsOptions, {"lions_seat": bad}, "lions_seat", 2)


def test_rule1_two_players_only():
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 2)


# ====================================================================== rule 2: the shape of a turn


def test_seed_move_example_one_lion_three_circles_6_to_plus8():
    state = game()
    assert reachable(state, "6") == {"+1", "+4", "+5", "+7", "+8"}
    state, events = play(state, p("6"), s("+1"), s("+4"))
    assert steps(state) == {"+5", "+7", "+8"}
    state, last = play(state, s("+8"))
    assert codes(state) == END  # no 4th step, no other piece
    state, more = play(state, "d")
    assert board(state)[0] == {"1", "2", "3", "4", "5", "+8"}
    assert kinds(events + last + more) == ["pick", "step", "step", "step", "turn"]
    assert last == [Event("step", seat=0, data={"to": INDEX["+8"]})]
    assert more[0] == Event("turn", seat=0, data={
        "side": LIONS, "paths": [[INDEX[x] for x in ("6", "+1", "+4", "+8")]], "taken": [], "isolated": False})
    assert state.turn == 1 and state.turns == 1 and state.quiet == 1
    assert state.last_paths == ((INDEX["6"], INDEX["+1"], INDEX["+4"], INDEX["+8"]),) and state.last_seat == 0


def test_rule2_one_piece_one_and_another_two():
    state, _ = play(game(), p("6"), s("+1"))
    assert picks(state) == {"1", "2", "3", "4", "5"}  # 6 is done after one circle
    state, _ = play(state, p("1"), s("+2"))
    assert "+1" not in picks(state)  # the piece from 6 ended its part: it moves only once
    state, _ = play(state, s("10"))
    assert codes(state) == END
    state, _ = play(state, "d")
    assert board(state)[0] == {"+1", "10", "2", "3", "4", "5"}


def test_rule2_two_then_one():
    state, _ = play(game(), *path("6", "+1", "+4"))
    assert picks(state) == {"1", "2", "3", "4", "5"}
    state, _ = play(state, *path("5", "+1"))
    assert codes(state) == END
    assert board(turn(game(), ("6", "+1", "+4"), ("5", "+1"))[0])[0] == {"1", "2", "3", "4", "+4", "+1"}


def test_rule2_three_pieces_one_each_and_no_fourth():
    state, _ = play(game(), *path("6", "+1"), *path("1", "+2"))
    assert picks(state) == {"2", "3", "4", "5"}
    state, _ = play(state, *path("3", "+3"))
    assert codes(state) == END  # three circles spent: no 4th piece, no 4th step
    state, _ = play(state, "d")
    assert board(state)[0] == {"+1", "+2", "+3", "2", "4", "5"}


def test_rule2_at_least_one_circle():
    state = game()
    assert "d" not in codes(state) and "u" not in codes(state)
    state, _ = play(state, p("6"))  # picked, not stepped: nothing to send yet
    assert "d" not in codes(state)
    state, events = play(state, p("1"))  # picking another instead replaces the pick
    assert state.segments == ((INDEX["1"],),) and events == [Event("pick", seat=0, data={"at": INDEX["1"]})]
    assert "1" not in picks(state) and "6" in picks(state)


def test_rule2_never_onto_or_over_a_piece():
    state = game(lions=("6", "1"), hunters=("+4", "А"))
    assert reachable(state, "6") == {"+1", "5"}  # +4 is taken: nothing beyond it
    state, _ = play(state, *path("6", "+1"))
    assert steps(state) == {"5"}
    state = game()
    state, _ = play(state, p("1"))
    assert steps(state) == {"+2", "9"}  # 2 holds a lion


def test_rule2_never_back_over_a_circle_left_this_turn():
    state = game(lions=("+5", "1"), hunters=("А", "Б"))
    state, _ = play(state, *path("+5", "+4"))
    assert steps(state) == {"+1", "+7", "+8"}  # not back to +5
    state, _ = play(state, s("+8"))
    assert steps(state) == {"19"}  # neither +4 nor +5 (the triangle +4, +5, +8)
    assert reachable(game(lions=("+5", "1"), hunters=("А", "Б")), "+5") == {
        "+4", "+8", "19", "+1", "+7", "5", "6", "Д", "Г"}  # Б holds a hunter


# ====================================================================== rule 3: step by step, undo, pass


def test_rule3_undo_takes_back_the_last_step_and_the_piece_stays_picked():
    state, _ = play(game(), *path("6", "+1", "+4"))
    state, events = play(state, "u")
    assert events == [Event("undo", seat=0)] and state.segments == ((INDEX["6"], INDEX["+1"]),)
    assert steps(state) == {"+4"}
    state, _ = play(state, *path("1", "+2"))
    state, _ = play(state, p("2"))
    state, _ = play(state, "u")  # drops the fresh pick and the last step before it
    assert state.segments == ((INDEX["6"], INDEX["+1"]), (INDEX["1"],))
    state, _ = play(state, "u")
    assert state.segments == ((INDEX["6"],),) and "u" not in codes(state)
    state, _ = play(state, s("+1"), "d")
    assert board(state)[0] == {"1", "2", "3", "4", "5", "+1"}


def test_rule3_pass_only_when_no_step_is_possible():
    state = game(lions=("5", "6", "+1"), hunters=("+4", "А"))  # a built position: the lions cannot move
    assert ENGINE.legal_actions(state) == [Action("d", "pass"), Action("o", "offer"), Action("x", "resign")]
    after, events = play(state, "d")
    assert board(after) == board(state) and after.turn == 1 and after.quiet == 1 and after.turns == 1
    assert of_kind(events, "turn")[0].data["paths"] == []
    assert "pass" not in {a.kind for a in ENGINE.legal_actions(game())}


# ====================================================================== rule 4: capture


def test_seed_example1_lion_on_plus7_taken_by_a_hunter_on_plus4():
    state = game(lions=("+7", "1"), hunters=("+5", "А"), to_move=HUNTERS, quiet=7)
    state, events = turn(state, ("+5", "+4"))
    assert taken(events) == [("+7", False)]
    assert board(state) == ({"1"}, {"+4", "А"})
    assert state.last_taken == (INDEX["+7"],) and state.quiet == 0


def test_seed_example2_hunter_on_g_taken_by_lions_on_v_d_e():
    state = game(lions=("В", "Е", "Б"), hunters=("Г", "А", "18"))
    state, events = turn(state, ("Б", "Д"))
    assert taken(events) == [("Г", False)]
    assert board(state) == ({"В", "Е", "Д"}, {"А", "18"})


def test_seed_example3_one_hunter_takes_two_lions_on_5_and_6():
    state = game(lions=("5", "6", "1"), hunters=("+4", "А"), to_move=HUNTERS)
    state, events = turn(state, ("+4", "+1"))
    assert taken(events) == [("5", False), ("6", False)]
    assert board(state) == ({"1"}, {"+1", "А"})


def test_rule4_a_piece_walled_in_by_its_own_side_only_is_safe():
    state = game(to_move=HUNTERS)  # Г sits among В, Д, Е
    state, events = turn(state, ("А", "26"))
    assert taken(events) == [] and "Г" in board(state)[1]
    state, events = turn(state, ("1", "+2", "10"))
    assert taken(events) == [] and len(state.hunters) == 6


def test_rule4_a_step_into_a_trap_loses_the_piece():
    """A piece's own part leaves the circle it came from free; a later part closing its last
    exit next to an enemy takes it (the mover's own pieces are checked too)."""
    state = game(lions=("28", "27", "1"), hunters=("А", "26"))
    state, _ = play(state, *path("28", "29"), p("27"))
    assert build(state).taken == ()  # 28 is still free behind it
    state, events = play(state, s("28"), "d")
    assert taken(events) == [("29", True)]  # its only other neighbour, А, holds a hunter
    assert board(state) == ({"28", "1"}, {"А", "26"}) and state.quiet == 0


def test_rule4_the_opponent_is_checked_first():
    """The lion stepping onto +1 traps the hunter on 5 and walls in its own lion on 6: the
    hunter falls first, and the lion on 6 then has 5 free."""
    state = game(lions=("6", "+4", "1"), hunters=("5", "А"))
    state, events = turn(state, ("+4", "+1"))
    assert taken(events) == [("5", False)]
    assert board(state) == ({"6", "+1", "1"}, {"А"})


def test_rule4_passing_by_does_not_capture():
    state = game(lions=("+7", "1"), hunters=("+5", "А"), to_move=HUNTERS)
    passed, events = turn(state, ("+5", "+4", "+8"))
    assert taken(events) == [] and board(passed) == ({"+7", "1"}, {"+8", "А"})
    stopped, events = turn(state, ("+5", "+4"), ("А", "26"))  # stopping on +4 takes it
    assert taken(events) == [("+7", False)] and board(stopped) == ({"1"}, {"+4", "26"})


def test_rule4_capture_when_the_part_ends_and_undo_brings_it_back():
    state = game(lions=("+7", "1"), hunters=("+5", "А"), to_move=HUNTERS)
    moving, _ = play(state, *path("+5", "+4"))
    assert build(moving).taken == () and build(moving).opp == mask_of(circles("+7", "1"))
    picked, _ = play(moving, p("А"))  # the next piece starts: +4's part is over
    assert build(picked).taken == ((INDEX["+7"], False),)
    assert build(picked).opp == mask_of(circles("1"))
    undone, _ = play(picked, "u")
    assert undone.segments == ((INDEX["+5"],),)
    assert build(undone).taken == () and build(undone).opp == mask_of(circles("+7", "1"))
    assert steps(undone) == {"+4", "+8", "19"}


def test_rule4_captures_count_for_the_next_pieces_of_the_turn():
    """Once the hunter stepping onto Д takes the lion on 19, a second hunter may step onto 19."""
    state = game(lions=("19", "1"), hunters=("+5", "+8", "Г"), to_move=HUNTERS)
    state, _ = play(state, *path("Г", "Д"))
    state, _ = play(state, p("+5"))  # Д's part is over: 19 had +5, +8 and Д around it
    assert build(state).opp == mask_of(circles("1"))
    assert steps(state) == {"+4", "19"}  # the lion is gone, its circle free
    state, events = play(state, s("19"), "d")
    assert taken(events) == [("19", False)] and board(state) == ({"1"}, {"19", "+8", "Д"})


# ====================================================================== rule 5: isolation


ISOLATING = {"lions": ("+8", "19", "+7"), "hunters": ("Г", "Б", "А", "22", "26", "Е")}


def test_seed_isolation_lions_on_plus8_and_d_turn_the_push_rule_on_for_good():
    state = game(**ISOLATING)
    assert not state.push_on and not isolated(mask_of(state.lions), mask_of(state.hunters))
    state, _ = play(state, *path("19", "Д"), p("+7"))
    assert build(state).push_on  # isolated as soon as the part ends: Д closes the refuge
    state, _ = play(state, "u")  # back to the lion on 19, picked
    assert state.segments == ((INDEX["19"],),) and not build(state).push_on
    state, events = play(state, s("Д"), "d")
    assert taken(events) == [] and of_kind(events, "turn")[0].data["isolated"] is True
    assert state.push_on
    state, events = turn(state, ("22", "18"))
    assert isolated(mask_of(state.lions), mask_of(state.hunters))
    state, events = turn(state, ("+8", "+4", "+5"))  # the lion on +8 walks, Д stands
    assert isolated(mask_of(state.lions), mask_of(state.hunters)) and taken(events) == []
    state, _ = turn(state, ("18", "22"))
    state, events = turn(state, ("Д", "19"))  # the lions open Д again: the floods meet
    assert not isolated(mask_of(state.lions), mask_of(state.hunters))
    assert state.push_on and of_kind(events, "turn")[0].data["isolated"] is False


# ====================================================================== rule 6: push («в затылок»)


PUSHING = {"lions": ("Д", "1", "3"), "hunters": ("21", "Е", "Г", "Б")}


def test_rule6_three_in_a_row_push_the_piece_ahead():
    state = game(**PUSHING, to_move=HUNTERS, push_on=True)
    state, events = turn(state, ("21", "22"))  # 22, Е, Г in a row behind the lion on Д
    assert of_kind(events, "pushed") == [Event("pushed", seat=0, data={"circles": [INDEX["Д"]]})]
    assert pushed(mask_of(state.lions), mask_of(state.hunters)) == 1 << INDEX["Д"]
    assert picks(state) == {"Д"}  # the pushed lion goes first
    state, _ = play(state, *path("Д", "19"))
    assert picks(state) == {"1", "3"}  # after it, the rest of the turn is free
    state, _ = play(state, *path("1", "+2"), "d")
    assert board(state)[0] == {"19", "+2", "3"}


def test_rule6_no_push_before_isolation():
    state = game(**PUSHING, to_move=HUNTERS)
    state, events = turn(state, ("21", "22"))
    assert of_kind(events, "pushed") == [] and not state.push_on
    assert pushed(mask_of(state.lions), mask_of(state.hunters))  # the same geometry
    assert picks(state) == {"Д", "1", "3"}


def test_rule6_an_immobile_pushed_piece_does_not_block_the_turn():
    """A built position (in play such a lion would have been taken): Д cannot move."""
    state = game(lions=("Д", "19", "1"), hunters=("22", "Е", "Г", "Б"), push_on=True)
    assert pushed(mask_of(state.lions), mask_of(state.hunters)) == 1 << INDEX["Д"]
    assert picks(state) == {"19", "1"}


def test_rule6_pushed_pieces_on_either_line_may_go_first():
    state = game(lions=("Д", "+1", "1"), hunters=("22", "Е", "Г", "19", "+8", "+4"), push_on=True)
    assert pushed(mask_of(state.lions), mask_of(state.hunters)) == mask_of(circles("Д", "+1"))
    assert picks(state) == {"Д", "+1"}


# ====================================================================== rule 7: all taken wins


def test_rule7_taking_the_last_hunter_wins():
    state = game(lions=("Д", "1"), hunters=("+7",))
    state, _ = play(state, *path("Д", "19", "+5", "+4"))
    assert codes(state) == END  # only «Готово» or a step back
    state, events = play(state, "d")
    assert taken(events) == [("+7", False)]
    assert state.finished and state.winner == 0 and state.end == "all_taken" and state.current_player is None
    out = ENGINE.outcome(state)
    assert (out.kind, out.winners, out.losers) == ("win", (0,), (1,))
    assert out.data == {"end": "all_taken", "lions": 2, "hunters": 0}
    assert ENGINE.legal_actions(state) == []


def test_rule7_no_more_pieces_once_the_last_enemy_is_taken():
    state = game(lions=("+5", "1"), hunters=("+7",), to_move=LIONS, lions_seat=1)
    state, _ = play(state, *path("+5", "+4"))
    assert picks(state) == set()  # the part would end the game: no other piece
    assert steps(state) == {"+1", "+8"}  # but going on means passing by
    state, events = play(state, s("+8"), "d")
    assert not state.finished and taken(events) == []
    won, _ = play(game(lions=("+5", "1"), hunters=("+7",), lions_seat=1), *path("+5", "+4"), "d")
    assert won.finished and won.winner == 1 and ENGINE.outcome(won).winners == (1,)


def test_rule7_hunters_win_too():
    state = game(lions=("5", "6"), hunters=("+4", "А"), to_move=HUNTERS, lions_seat=1)
    state, _ = turn(state, ("+4", "+1"))
    assert state.finished and state.winner == 0 and state.lions == ()


# ====================================================================== rule 8: the 60-turn draw


def test_rule8_sixty_quiet_turns_with_two_pieces_draw():
    state = game(lions=("1", "2"), quiet=59)
    state, events = turn(state, ("1", "+2"))
    assert state.finished and state.winner is None and state.end == "quiet" and state.quiet == 60
    assert events[-1] == Event("draw_quiet", data={"turns": 60})
    out = ENGINE.outcome(state)
    assert (out.kind, out.winners) == ("draw", (0, 1))


def test_rule8_either_side_with_two_or_fewer():
    state = game(hunters=("А",), to_move=HUNTERS, quiet=59)
    state, _ = turn(state, ("А", "26"))
    assert state.finished and state.end == "quiet"


def test_rule8_one_turn_short_is_no_draw():
    state, _ = turn(game(lions=("1", "2"), quiet=58), ("1", "+2"))
    assert not state.finished and state.quiet == 59


def test_rule8_a_capture_resets_the_count():
    state = game(lions=("+7", "1"), hunters=("+5", "А"), to_move=HUNTERS, quiet=59)
    state, _ = turn(state, ("+5", "+4"))
    assert not state.finished and state.quiet == 0 and len(state.lions) == 1


def test_rule8_no_draw_while_both_sides_have_three():
    state = game(lions=("1", "2", "3"), hunters=("А", "Б", "В"), quiet=59)
    state, _ = turn(state, ("1", "+2"))
    assert not state.finished and state.quiet == 60


# ====================================================================== rule 9: offers and resigning


def test_rule9_offer_accepted_is_a_draw():
    state, events = play(game(), "o")
    assert events == [Event("draw_offered", seat=0)]
    assert state.current_player == 1 and state.turn == 0
    assert ENGINE.legal_actions(state) == [Action("y", "accept"), Action("n", "decline")]
    state, events = play(state, "y")
    assert events == [Event("draw_agreed", seat=1)]
    assert state.finished and state.end == "agreed" and state.winner is None
    assert ENGINE.outcome(state).kind == "draw"


def test_rule9_offer_declined_the_offerer_goes_on_once_per_turn():
    state, _ = play(game(), p("6"), "o")  # before stepping, with a piece picked
    state, events = play(state, "n")
    assert events == [Event("draw_declined", seat=1)]
    assert state.current_player == 0 and state.segments == ((INDEX["6"],),)
    assert "o" not in codes(state)
    state, _ = play(state, s("+1"), "d")
    assert "o" in codes(state)  # the other side may offer on its own turn
    assert "o" not in codes(play(state, *path("А", "26"))[0])  # never after a step


def test_rule9_a_player_who_leaves_resigns_out_of_turn():
    """The bot hands a player who leaves (/leave, a kick) a resignation even when the other
    side is to move; it ends a pending draw offer too, and replays from the log."""
    state, _ = play(game(), *path("6", "+1"))  # seat 0 is building a turn
    assert "x1" not in codes(state)  # not offered as a move: the mover's actions only
    left, events, entry = ENGINE.apply(state, ENGINE.resign_code(1))
    assert events == [Event("resign", seat=1)] and entry == LogEntry(seat=1, code="x1")
    assert left.finished and left.winner == 0 and left.end == "resign" and left.version == state.version + 1
    offered, _ = play(game(), "o")
    left, _, _ = ENGINE.apply(offered, ENGINE.resign_code(0))
    assert left.winner == 1 and left.draw_offer is None
    with pytest.raises(IllegalActionError):
        ENGINE.apply(left, ENGINE.resign_code(1))  # the game is over
    with pytest.raises(IllegalActionError):
        ENGINE.apply(game(), "x2")
    assert replay(ENGINE, state.options, 2, state.seed, [LogEntry(seat=1, code="x1")]).winner == 0


def test_rule9_resign_any_time_in_the_turn():
    state, events = play(game(), *path("6", "+1"), "x")
    assert events[-1] == Event("resign", seat=0)
    assert state.finished and state.winner == 1 and state.end == "resign"
    out = ENGINE.outcome(state)
    assert (out.kind, out.winners, out.losers, out.ranking) == ("win", (1,), (0,), (1, 0))
    state, _ = play(game(to_move=HUNTERS), "x")
    assert state.winner == 0


# ====================================================================== illegal codes


@pytest.mark.parametrize("code", [
    "p99", "s-1", "pz", "", "d", "u", "y", "n", "s0", "p", "s", "P0", "p 0", "p01", "dd",
    f"p{INDEX['А']}", f"p{INDEX['+1']}", f"s{INDEX['+2']}", f"p{SIZE}", "p-1"])
def test_illegal_codes_are_refused(code):
    state = game()
    with pytest.raises(IllegalActionError):
        ENGINE.apply(state, code)
    picked, _ = play(state, p("1"))
    with pytest.raises(IllegalActionError):
        ENGINE.apply(picked, code if code != s("+2") else s("10"))


def test_illegal_answering_or_offering_twice():
    offered, _ = play(game(), "o")
    for code in ("o", "x", "d", p("6"), ""):
        with pytest.raises(IllegalActionError):
            ENGINE.apply(offered, code)
    declined, _ = play(offered, "n")
    with pytest.raises(IllegalActionError):
        ENGINE.apply(declined, "o")


@pytest.mark.parametrize("end", ["x", "o y"])
def test_nothing_is_legal_after_the_end(end):
    state, _ = play(game(), *end.split())
    assert state.finished and state.current_player is None and ENGINE.legal_actions(state) == []
    for code in ("d", "x", "o", "y", "n", "u", p("1"), s("+2"), ""):
        with pytest.raises(IllegalActionError):
            ENGINE.apply(state, code)

