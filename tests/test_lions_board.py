"""engines/lions_board.py against the shapes docs/rules/lions.md asks of the rebuilt board.

The seed's figure is lost; the board is ours, but it must keep every shape the text
describes (lions.md, «The board is lost — rebuild it», points 1–7). Each test below proves
one of them from the data alone (circles, coordinates, lines), by labels via ``INDEX``;
the capture, isolation and push examples are also run through the engine's own helpers
(``close_part``, ``isolated``, ``pushed``). The gates of point 7 are found by search over the
board, not listed by hand: a new line that makes a gate without a push run fails here.
"""

from __future__ import annotations

import itertools
from collections import deque

import pytest

from engines.lions import close_part, isolated, mask_of, pushed, reach
from engines.lions_ai import whole_turns
from engines.lions_board import (
    CIRCLES,
    HUNTERS_START,
    INDEX,
    LINES,
    LIONS_START,
    NEIGHBOUR_MASKS,
    NEIGHBOURS,
    PUSH_LINES,
    SIZE,
    STRAIGHT_ON,
    label,
)

CLEARANCE = 0.4  # a line passes no other circle closer than this (grid units; circles are 1 apart)
# the isolation example's region of eight circles, behind Д (found by search in test_point6_…)
REFUGE = {"5", "6", "+1", "+4", "+5", "+7", "+8", "19"}


def at(*labels: str) -> int:
    """The bit mask of the circles with these labels."""
    return mask_of([INDEX[x] for x in labels])


def names(mask: int) -> set[str]:
    return {label(c) for c in range(SIZE) if mask >> c & 1}


def around(name: str) -> set[str]:
    return {label(n) for n in NEIGHBOURS[INDEX[name]]}


def distances(source: str, blocked: frozenset[str] = frozenset()) -> dict[str, int]:
    """Breadth-first steps from ``source`` over the lines, never entering ``blocked``."""
    dist = {source: 0}
    queue = deque([source])
    while queue:
        here = queue.popleft()
        for nxt in sorted(around(here)):
            if nxt not in dist and nxt not in blocked:
                dist[nxt] = dist[here] + 1
                queue.append(nxt)
    return dist


def point(c: int) -> tuple[float, float]:
    return CIRCLES[c].x, CIRCLES[c].y


def distance_to_segment(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return ((ax + t * dx - px) ** 2 + (ay + t * dy - py) ** 2) ** 0.5


def properly_cross(a, b, c, d) -> bool:
    """Segments ab and cd cross at a point inside both."""
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    return orient(c, d, a) * orient(c, d, b) < 0 and orient(a, b, c) * orient(a, b, d) < 0


# ====================================================================== the circles and lines


def test_size_and_labels():
    assert 30 <= SIZE <= 45 and len(CIRCLES) == SIZE
    labels = [c.label for c in CIRCLES]
    assert len(set(labels)) == SIZE  # every circle has its own name (buttons use it)
    assert {name: i for i, name in enumerate(labels)} == INDEX
    for i in range(SIZE):
        assert label(i) == labels[i]
    marked = [x for x in labels if x.startswith("+")]
    assert sorted(marked) == [f"+{n}" for n in range(1, 9)]  # +1…+8, each once


def test_point5_of_the_issue_no_plain_number_reads_as_a_marked_one():
    """Plain circles 7 and 8 were mistaken for «+7» and «+8». Besides the text's
    lion circles 1–6 (and «+1»…«+6», which the text names too), no plain circle carries the digits of
    a marked one; the plain numbers run on from 9."""
    plain = sorted(int(c.label) for c in CIRCLES if c.label.isdigit())
    marked_digits = {c.label[1:] for c in CIRCLES if c.label.startswith("+")}
    assert plain[:6] == [1, 2, 3, 4, 5, 6] and set(LIONS_START) == {str(n) for n in plain[:6]}
    assert not {str(n) for n in plain[6:]} & marked_digits
    assert plain[6:] == list(range(9, 9 + len(plain) - 6))  # no gaps: 9, 10, … in reading order
    order = sorted((c for c in CIRCLES if c.label.isdigit() and int(c.label) >= 9), key=lambda c: (c.y, c.x))
    assert [int(c.label) for c in order] == plain[6:]


def test_point1_lion_and_hunter_circles():
    assert LIONS_START == ("1", "2", "3", "4", "5", "6")
    assert HUNTERS_START == ("А", "Б", "В", "Г", "Д", "Е")
    starts = [INDEX[x] for x in (*LIONS_START, *HUNTERS_START)]
    assert len(set(starts)) == 12
    # the lions stand at cave mouths: two entrances per cave over one mouth circle
    for a, b, mouth in (("1", "2", "+2"), ("3", "4", "+3"), ("5", "6", "+1")):
        assert mouth in around(a) & around(b) and b in around(a)
    # the hunters' camp lies below the caves, all its circles together
    assert min(CIRCLES[INDEX[h]].y for h in HUNTERS_START) > max(CIRCLES[INDEX[x]].y for x in LIONS_START)
    camp = set(HUNTERS_START)
    assert set(distances("А", frozenset(set(names((1 << SIZE) - 1)) - camp))) == camp


def test_lines_are_distinct_and_symmetric():
    pairs = [frozenset(line) for line in LINES]
    assert all(len(p) == 2 for p in pairs)  # no loops
    assert len(set(pairs)) == len(LINES)  # no line twice, in either direction
    for a in range(SIZE):
        assert NEIGHBOURS[a] == tuple(sorted(NEIGHBOURS[a]))
        assert NEIGHBOUR_MASKS[a] == mask_of(list(NEIGHBOURS[a]))
        for b in NEIGHBOURS[a]:
            assert a in NEIGHBOURS[b] and frozenset((a, b)) in pairs
    assert sum(len(n) for n in NEIGHBOURS) == 2 * len(LINES)


def test_every_circle_has_a_neighbour_and_the_board_is_connected():
    assert all(NEIGHBOURS[c] for c in range(SIZE))
    assert len(distances("1")) == SIZE


def test_lines_are_straight_segments_that_pass_no_other_circle():
    for a, b in LINES:
        assert point(a) != point(b)
        for c in range(SIZE):
            if c not in (a, b):
                assert distance_to_segment(point(c), point(a), point(b)) > CLEARANCE, (label(a), label(b), label(c))


def test_no_two_lines_cross():
    for (a, b), (c, d) in itertools.combinations(LINES, 2):
        assert not properly_cross(point(a), point(b), point(c), point(d)), (label(a), label(b), label(c), label(d))


def test_circles_stand_apart():
    for c, d in itertools.combinations(range(SIZE), 2):
        assert (point(c)[0] - point(d)[0]) ** 2 + (point(c)[1] - point(d)[1]) ** 2 >= 1.0


def test_straight_on_and_push_lines_follow_the_geometry():
    for (a, b), c in STRAIGHT_ON.items():
        assert b in NEIGHBOURS[a] and c in NEIGHBOURS[b] and c != a
        (ax, ay), (bx, by), (cx, cy) = point(a), point(b), point(c)
        assert abs((bx - ax) * (cy - by) - (by - ay) * (cx - bx)) < 1e-9  # collinear
        assert (bx - ax) * (cx - bx) + (by - ay) * (cy - by) > 0  # onwards, not back
    assert ("22", "Е", "Г", "Д") in {tuple(label(x) for x in run) for run in PUSH_LINES}
    assert ("А", "Е", "Г") not in {tuple(label(x) for x in run[:3]) for run in PUSH_LINES}  # a corner is no line


# ====================================================================== the seed's examples


def test_point2_example1_dead_end_plus7():
    assert around("+7") == {"+4"}
    # a hunter stopping on +4 takes the lion on +7 (mover = hunters)
    hunters, lions, taken, lost = close_part(at("+4"), at("+7", "1"))
    assert names(taken) == {"+7"} and names(lions) == {"1"} and not lost and names(hunters) == {"+4"}
    # a piece passing on from +4 leaves +7 free to go: no capture without the enemy there
    assert close_part(at("+8"), at("+7"))[2] == 0
    # the board's dead ends: +7, and 30 below the camp
    assert {label(c) for c in range(SIZE) if len(NEIGHBOURS[c]) == 1} == {"+7", "30"}


def test_only_cave_5_6_is_a_trap():
    """Example 3 needs one cave whose two circles have a single way out; the other two caves are
    joined by a passage (2 – 3) and cave 1–2 has a back way out (1 → 9), which is part of what
    balances the board (see the module's docstring and bench/lions_ai.py)."""
    for pair, exits in ((("1", "2"), {"+2", "9", "3"}), (("3", "4"), {"+3", "2"}), (("5", "6"), {"+1"})):
        assert (around(pair[0]) | around(pair[1])) - set(pair) == exits


@pytest.mark.parametrize("lions_move", [True, False])
def test_no_first_turn_takes_anything(lions_move):
    """The side that wins the lot must not win pieces by it: no turn from the start position takes
    a piece (a lion three circles from the camp would take hunters at once; an earlier draft had one)."""
    lions, hunters = at(*LIONS_START), at(*HUNTERS_START)
    mover, opp = (lions, hunters) if lions_move else (hunters, lions)
    turns = whole_turns(mover, opp, False, lions_move)
    assert len(turns) > 20
    assert all(t.mover.bit_count() == 6 and t.opp.bit_count() == 6 for t in turns)
    # every lion stands at least five circles from every hunter
    assert min(distances(x)[h] for x in LIONS_START for h in HUNTERS_START) == 5


def test_point3_example2_hunter_g_among_v_d_e():
    assert around("Г") == {"В", "Д", "Е"}
    _, hunters, taken, lost = close_part(at("В", "Д", "Е"), at("Г", "А"))
    assert names(taken) == {"Г"} and names(hunters) == {"А"} and not lost
    # two lions are not enough
    assert close_part(at("В", "Д"), at("Г"))[2] == 0


def test_point4_example3_two_taken_at_once_on_plus1():
    assert "6" in around("5")
    assert around("5") - {"6"} == around("6") - {"5"} == {"+1"}
    _, lions, taken, lost = close_part(at("+1"), at("5", "6"))
    assert names(taken) == {"5", "6"} and lions == 0 and not lost
    # a single piece on 5 with 6 free is safe
    assert close_part(at("+1"), at("5"))[2] == 0


def test_point5_the_move_example_6_to_plus8():
    dist = distances("6")
    assert dist["+8"] == 3
    assert dist["+1"] == 1 and dist["+4"] == 2 and dist["+5"] == 3
    # the only way of three circles is 6 → +1 → +4 → +8, and +5 is three away through +4
    walks = [("6", a, b, c) for a in around("6") for b in around(a) for c in around(b) if len({"6", a, b, c}) == 4]
    assert [w for w in walks if w[3] == "+8"] == [("6", "+1", "+4", "+8")]
    assert [w for w in walks if w[3] == "+5"] == [("6", "+1", "+4", "+5")]
    # a piece on +4 bars the way (no jumping): +8 is then further than three circles
    assert distances("6", frozenset({"+4"})).get("+8", 99) > 3


def cut_off(gate: str) -> list[set[str]]:
    """The regions a piece on ``gate`` alone cuts off: every part of the board without ``gate``
    but the largest (an empty list when ``gate`` cuts nothing)."""
    rest = set(INDEX) - {gate}
    parts: list[set[str]] = []
    while rest:
        part = set(distances(min(rest), frozenset({gate}))) - {gate}
        parts.append(part)
        rest -= part
    parts.sort(key=len)
    return parts[:-1]


def test_point6_isolation_region_of_eight_circles_behind_d():
    """«один лев становится на кружок +8, а другой на кружок Д … один лев имеет возможность
    бесконечно ходить по восьми кружкам»: the lion on Д alone closes the only way into a region of
    eight circles that holds «+8»."""
    assert cut_off("Д") == [REFUGE] and "+8" in REFUGE and len(REFUGE) == 8
    assert {x for r in REFUGE for x in around(r)} - REFUGE == {"Д"}  # its only way in
    assert cut_off("+8") == []  # the lion on «+8» closes nothing: it is free to walk


def test_point6_two_lions_isolate_themselves_and_one_walks_for_ever():
    hunters = at("Г", "Б", "В", "22", "26", "А")
    lions = at("Д", "+8")
    assert close_part(lions, hunters)[2:] == (0, 0) and close_part(hunters, lions)[2:] == (0, 0)
    assert isolated(lions, hunters)
    # the lion on «+8» walks on every circle of the refuge, Д standing, and the sides stay cut off
    free = ((1 << SIZE) - 1) & ~(lions | hunters)
    walker_reach = names(reach(at("+8"), free & ~at("Д")))
    assert walker_reach == REFUGE - {"+8"}
    for there in walker_reach:
        moved = at("Д", there)
        assert isolated(moved, hunters), there
        # 19 is Д's last free neighbour while Г and Б are held: stepping there walls Д in
        walled = at("Д") if there == "19" else 0
        assert close_part(hunters, moved)[2] == walled and close_part(moved, hunters)[3] == walled, there
    # the walk never has to stop: every refuge circle but 19 has a neighbour of the same kind
    walk = REFUGE - {"19"}
    assert all(around(r) & walk for r in walk)
    # the lion on Д is not captured while 19 behind it is free; nor isolated at the start
    assert not isolated(at(*LIONS_START), at(*HUNTERS_START))
    assert not isolated(at("+8"), hunters)  # without Д the floods meet there


GATES = {"+1", "+4", "19", "Д", "Б"}


def test_point7_every_gate_is_found_by_search():
    """A gate is a circle whose occupation alone cuts a region off; the search over the board finds
    exactly these (the refuge's chain +1 – +4 – 19 – Д, and Б before 30)."""
    found = {name for name in INDEX if cut_off(name)}
    assert found == GATES
    assert cut_off("+1") == [{"5", "6"}] and cut_off("Б") == [{"30"}]
    assert sorted(map(sorted, cut_off("+4"))) == [["+1", "5", "6"], ["+7"]]


@pytest.mark.parametrize("gate", sorted(GATES))
def test_point7_every_gate_is_pushable_from_outside(gate):
    """«в затылок» can force every gatekeeper away: for every region it cuts off, three enemy pieces
    on a straight run outside that region push the piece on the gate (run through ``pushed``)."""
    runs = [run for run in PUSH_LINES if label(run[3]) == gate]
    for region in cut_off(gate):
        outside = [run for run in runs if not {label(x) for x in run[:3]} & region]
        assert outside, (gate, region)
        for run in outside:
            assert pushed(at(gate), mask_of(list(run[:3]))) == at(gate)


def test_point7_the_pushes_that_open_the_refuge():
    assert names(pushed(at("Д"), at("22", "Е", "Г"))) == {"Д"}  # the camp's row pushes Д
    assert names(pushed(at("19"), at("30", "Б", "Д"))) == {"19"}  # the right column pushes 19
    assert names(pushed(at("+1"), at("19", "+8", "+4"))) == {"+1"}  # and on to the cave mouth
    # two in a row do not push; nor three with a gap, nor round a corner
    assert pushed(at("Д"), at("Е", "Г")) == 0
    assert pushed(at("Д"), at("21", "Е", "Г")) == 0
    assert pushed(at("Д"), at("А", "Е", "Г")) == 0


@pytest.mark.parametrize("name", sorted(INDEX))
def test_every_circle_reaches_every_other(name):
    assert len(distances(name)) == SIZE
