"""The «Охота на львов» board, rebuilt from the seed's description (its figure is lost).

The board is data: circles with grid coordinates (x to the right, y downward) and a label,
and straight lines between circles. It keeps every shape docs/rules/lions.md lists
(tests/test_lions_board.py proves each one, the gates by search):

1. lions' circles 1–6 at three cave mouths (two entrances per cave), hunters' camp А–Е;
2. «+7»: a dead end whose only neighbour is «+4» (example 1: one enemy on «+4» traps it);
3. Г joined to exactly В, Д and Е (example 2);
4. 5 and 6 joined to each other, their only other way out the common circle «+1»
   (example 3: one enemy on «+1» takes both);
5. 6 → +1 → +4 → +8 is a move of three circles, with «+5» also three away (the move example);
6. the isolation example as written: the refuge 5, 6, +1, +4, +5, +7, +8, 19 (eight circles)
   has one way in, «Д»; a lion on «Д» closes it and a lion on «+8» walks there for ever;
7. every gate (a circle whose occupation alone cuts a region off: +1, +4, 19, Д and Б) has a
   straight run of three circles leading to it from outside, so «в затылок» can open it: the
   column +1 – +4 – +8 – 19 – Д – Б – 30 and the camp's row 22 – Е – Г – Д.
Plain circles are numbered 9… in reading order (plain 7 and 8 were read as «+7»
and «+8»), so every circle has a name for buttons and no plain number repeats a marked one.

Why this board replaced the first one: there the eight-circle refuge had two gates,
«+8» and «Д», so two lions on them could not move without opening it (the example failed), and
no run of three circles ended at either gate, so a side of three or more pieces could wall
itself in for ever. Here the refuge hangs on the camp's corner: Д is a hunters' start circle,
so the lions must take it, and the camp's row and the right column both push it.

Balance (neither side may win more than 55% of the decided games between
equal AI players, measured by bench/lions_ai.py with both sides slipping into a random whole
turn now and then). Kept from the first board's measured changes: cave 1–2 has a back way out
(1 – 9) and a passage joins it to cave 3–4 (2 – 3); only cave 5–6 keeps the single exit
example 3 needs. A second back way, 4 – 13, let the lions from the middle cave into the field
at once: with it the lions won 59% of the decided games (36 of 61, 20% slips), without it 47%
(26 of 55; bench/lions_ai.py over the first games' seeds). No first turn takes anything: every
lion starts at least five circles from every hunter.
"""

from __future__ import annotations

from typing import NamedTuple


class Circle(NamedTuple):
    label: str
    x: float
    y: float


# index order is the engine's circle numbering (action codes use it)
CIRCLES: tuple[Circle, ...] = (
    Circle("1", 0, 0), Circle("2", 2, 0),        # cave 1
    Circle("3", 3, 0), Circle("4", 5, 0),        # cave 2
    Circle("5", 6, 0), Circle("6", 8, 0),        # cave 3
    Circle("+2", 1, 1), Circle("+3", 4, 1), Circle("+1", 7, 1),  # the three cave mouths
    Circle("9", 0, 2), Circle("10", 1, 2), Circle("11", 2.5, 2), Circle("12", 4, 2), Circle("13", 5, 2),
    Circle("+4", 7, 2), Circle("+7", 8, 2),
    Circle("14", 1, 3), Circle("+6", 4, 3), Circle("+5", 6, 3), Circle("+8", 7, 3),
    Circle("15", 0, 4), Circle("16", 1, 4), Circle("17", 2.5, 4), Circle("18", 4, 4), Circle("19", 7, 4),
    Circle("20", 1, 5), Circle("21", 2.5, 5), Circle("22", 4, 5),
    Circle("Е", 5, 5), Circle("Г", 6, 5), Circle("Д", 7, 5),       # the hunters' camp, top row
    Circle("23", 0, 6), Circle("24", 1, 6), Circle("25", 2.5, 6), Circle("26", 4, 6),
    Circle("А", 5, 6), Circle("В", 6, 6), Circle("Б", 7, 6),       # the camp, bottom row
    Circle("27", 1, 7), Circle("28", 2.5, 7), Circle("29", 4, 7), Circle("30", 7, 7),
)

_LINES_BY_LABEL: tuple[tuple[str, str], ...] = (
    # the caves and their mouths, with a passage 2 – 3 and a back way 1 – 9 (see Balance)
    ("1", "2"), ("3", "4"), ("5", "6"), ("2", "3"),
    ("1", "+2"), ("2", "+2"), ("3", "+3"), ("4", "+3"), ("5", "+1"), ("6", "+1"), ("1", "9"),
    # the refuge behind Д: +1, +4, +5, +7, +8, 19 with cave 5–6 (the isolation example)
    ("+1", "+4"), ("+4", "+7"), ("+4", "+8"), ("+4", "+5"), ("+5", "+8"), ("+5", "19"), ("+8", "19"),
    ("19", "Д"),
    # the camp: Г among В, Д, Е (example 2); the column +1 … 30 and the row 22 … Д push its gates
    ("Е", "Г"), ("Г", "Д"), ("Г", "В"), ("Е", "А"), ("А", "В"), ("В", "Б"), ("Б", "Д"), ("Б", "30"),
    ("22", "Е"),
    # the open field to the left
    ("9", "10"), ("10", "11"), ("11", "12"), ("12", "13"), ("+2", "10"), ("+3", "12"),
    ("10", "14"), ("14", "16"), ("9", "15"), ("15", "16"), ("16", "20"), ("15", "23"), ("23", "24"),
    ("20", "24"), ("24", "27"),
    ("11", "17"), ("12", "+6"), ("+6", "18"), ("13", "+6"), ("17", "18"), ("17", "21"), ("18", "22"),
    ("21", "22"),
    ("21", "25"), ("25", "26"), ("26", "А"), ("22", "26"), ("24", "25"), ("27", "28"), ("28", "29"),
    ("29", "А"), ("25", "28"), ("14", "17"),
)

LIONS_START: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
HUNTERS_START: tuple[str, ...] = ("А", "Б", "В", "Г", "Д", "Е")

INDEX: dict[str, int] = {c.label: i for i, c in enumerate(CIRCLES)}
SIZE = len(CIRCLES)
LINES: tuple[tuple[int, int], ...] = tuple((INDEX[a], INDEX[b]) for a, b in _LINES_BY_LABEL)


def _neighbours() -> tuple[tuple[int, ...], ...]:
    out: list[list[int]] = [[] for _ in CIRCLES]
    for a, b in LINES:
        out[a].append(b)
        out[b].append(a)
    return tuple(tuple(sorted(n)) for n in out)


NEIGHBOURS: tuple[tuple[int, ...], ...] = _neighbours()
NEIGHBOUR_MASKS: tuple[int, ...] = tuple(sum(1 << n for n in ns) for ns in NEIGHBOURS)


def _direction(a: int, b: int) -> tuple[float, float]:
    dx, dy = CIRCLES[b].x - CIRCLES[a].x, CIRCLES[b].y - CIRCLES[a].y
    length = (dx * dx + dy * dy) ** 0.5
    return dx / length, dy / length


def _straight_on() -> dict[tuple[int, int], int]:
    """For a step a → b along a line, the circle c with b → c continuing the same straight line."""
    table: dict[tuple[int, int], int] = {}
    for a in range(SIZE):
        for b in NEIGHBOURS[a]:
            ax, ay = _direction(a, b)
            for c in NEIGHBOURS[b]:
                if c == a:
                    continue
                cx, cy = _direction(b, c)
                if abs(ax - cx) < 1e-9 and abs(ay - cy) < 1e-9:
                    table[(a, b)] = c
    return table


STRAIGHT_ON: dict[tuple[int, int], int] = _straight_on()


def _push_lines() -> tuple[tuple[int, int, int, int], ...]:
    """Every run (p1, p2, p3, target) of four consecutive circles on one straight line
    (rule «в затылок»: three pieces on p1..p3 push a piece on ``target``)."""
    runs = []
    for (a, b), c in STRAIGHT_ON.items():
        d = STRAIGHT_ON.get((b, c))
        if d is not None:
            runs.append((a, b, c, d))
    return tuple(sorted(runs))


PUSH_LINES: tuple[tuple[int, int, int, int], ...] = _push_lines()


def label(circle: int) -> str:
    return CIRCLES[circle].label
