"""engines/lions_board.py against the shapes shared/rules/lions.md asks of the rebuilt board.

The seed's figure is lost; the board is ours, but it must keep every shape the text
describes (lions.md, «The board is lost — rebuild it», points 1–6). Each test below proves
one of them from the data alone (circles, coordinates, lines), by labels via ``INDEX``;
the capture, isolation and push examples are also run through the engine's own helpers
(``close_part``, ``isolated``, ``pushed``).
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
RIGHT_LADDER = {str(n) for n in range(21, 29)}


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
    assert ("26", "Д", "Г", "Е") in {tuple(label(x) for x in run) for run in PUSH_LINES}
    assert ("А", "Е", "Г") not in {tuple(label(x) for x in run[:3]) for run in PUSH_LINES}  # a corner is no line


# ====================================================================== the seed's examples


def test_point2_example1_dead_end_plus7():
    assert around("+7") == {"+4"}
    # a hunter stopping on +4 takes the lion on +7 (mover = hunters)
    hunters, lions, taken, lost = close_part(at("+4"), at("+7", "1"))
    assert names(taken) == {"+7"} and names(lions) == {"1"} and not lost and names(hunters) == {"+4"}
    # a piece passing on from +4 leaves +7 free to go: no capture without the enemy there
    assert close_part(at("+8"), at("+7"))[2] == 0
    # the left dead end of the first draft was opened to cave 1 for balance (engines/lions_board.py)
    assert around("7") == {"8", "1"}
    assert close_part(at("8"), at("7"))[2] == 0


def test_only_cave_5_6_is_a_trap():
    """Example 3 needs one cave whose two circles have a single way out; the other two caves are
    joined by a passage (2 – 3) and have a back way out each (1 → 7, 4 → +4), which is part of what
    balances the board (see the module's docstring and bench/lions_ai.py)."""
    for pair, exits in ((("1", "2"), {"+2", "7", "3"}), (("3", "4"), {"+3", "+4", "2"}), (("5", "6"), {"+1"})):
        assert (around(pair[0]) | around(pair[1])) - set(pair) == exits


@pytest.mark.parametrize("lions_move", [True, False])
def test_no_first_turn_takes_anything(lions_move):
    """The side that wins the lot must not win pieces by it: no turn from the start position takes
    a piece (a lion three circles from 12 would take А, В and Б at once; an earlier draft had one)."""
    lions, hunters = at(*LIONS_START), at(*HUNTERS_START)
    mover, opp = (lions, hunters) if lions_move else (hunters, lions)
    turns = whole_turns(mover, opp, False, lions_move)
    assert len(turns) > 20
    assert all(t.mover.bit_count() == 6 and t.opp.bit_count() == 6 for t in turns)
    # the camp's hub stays at least four circles from every lion
    assert min(distances(x)["12"] for x in LIONS_START) == 4


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


def test_point6_isolation_region_of_eight_circles():
    # the region behind +8 and Д: everything a flood from inside reaches without passing them
    region = set(distances("24", frozenset({"+8", "Д"})))
    assert region == RIGHT_LADDER and len(region) == 8
    assert {x for r in region for x in around(r)} - region == {"+8", "Д"}  # its only exits
    # a lion inside can walk forever: every region circle has a neighbour in the region
    assert all(around(r) & region for r in region)
    # the left ladder has the same shape but one way in, 11: the first draft's line Е – 18 was
    # taken out for balance (the hunters' quick way to the left flank)
    left = set(distances("16", frozenset({"11"})))
    assert len(left) == 8 and {x for r in left for x in around(r)} - left == {"11"}


def test_point6_lions_on_plus8_and_d_isolate_themselves():
    lions = at("+8", "Д", "25")
    hunters = at("+4", "Б", "Г", "А", "12", "18")  # В free, so the hunter on Г is safe
    assert close_part(lions, hunters)[2:] == (0, 0) and close_part(hunters, lions)[2:] == (0, 0)
    free = ((1 << SIZE) - 1) & ~(lions | hunters)
    assert names(reach(lions, free)) == RIGHT_LADDER - {"25"}
    assert not reach(lions, free) & reach(hunters, free)
    assert isolated(lions, hunters)
    # while +4 is open, the two floods meet there: not isolated
    assert not isolated(lions, at("+5", "Б", "Г", "А", "12", "18"))
    # nor at the start
    assert not isolated(at(*LIONS_START), at(*HUNTERS_START))


def test_point6_three_hunters_on_the_bottom_row_push_the_lion_on_e():
    assert [label(x) for x in (INDEX["26"], INDEX["Д"], INDEX["Г"], INDEX["Е"])] == ["26", "Д", "Г", "Е"]
    assert STRAIGHT_ON[(INDEX["26"], INDEX["Д"])] == INDEX["Г"]
    assert STRAIGHT_ON[(INDEX["Д"], INDEX["Г"])] == INDEX["Е"]
    assert names(pushed(at("Е", "+8"), at("26", "Д", "Г"))) == {"Е"}
    # two in a row do not push; nor three with a gap
    assert pushed(at("Е"), at("Д", "Г")) == 0
    assert pushed(at("Е"), at("26", "Д", "В")) == 0
    # the lion on +8 is pushed along the right column from 26, 24, 22
    assert names(pushed(at("Е", "+8"), at("26", "24", "22"))) == {"+8"}
    # without the line Е – 18 no run of three ends at Д: a lion sealing the right ladder on Д is
    # taken, not pushed (its circles Б, Г, 26 all held)
    assert INDEX["Д"] not in {run[3] for run in PUSH_LINES}
    assert names(close_part(at("Г", "Б"), at("Д", "26"))[2]) == {"Д"}


@pytest.mark.parametrize("name", sorted(INDEX))
def test_every_circle_reaches_every_other(name):
    assert len(distances(name)) == SIZE
