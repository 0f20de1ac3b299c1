"""Where things are on the «Парчис» board, in picture pixels: circuit cells 1–68, the corridors, the
corner homes, the player card inside each home and its spots, the centre's spots, and the box a mark
rings round a piece's place.

Each arm is three lanes wide and eight cells long. Colour c's arm is the bottom one turned c
quarter turns counter-clockwise: the circuit comes down its left lane (17c − 8 … 17c − 1),
crosses its tip (17c: the turn-off cell 68, 17, 34 or 51) and goes up its right lane (17c + 1 …
17c + 8, with the exit 17c + 5), while the colour's corridor runs up the middle lane to the
centre; the colour's home is the corner beside its exit.

Each home holds its player's card, upright whatever the corner: the name on top, the four home
spots in two rows on the left under the home's word, and on the right the centre count and the
pieces out on the board, one a row.
"""

from __future__ import annotations

from engines import parchis as rules
from engines.parchis import CENTRE, HOME, LAST_CIRCUIT
from render.theme import Box

MARGIN = 16
L = 46  # a cell's length along the track
LANE = 80  # a lane's width: a cell's other side (the board takes the picture's whole width)
ARM = 3 * LANE  # an arm's width, and the centre square's side
HALF = ARM // 2
HOME_SIDE = 8 * L  # a corner home's side: an arm's length
FRAME = 8
BOARD: Box = (MARGIN, MARGIN, MARGIN + 2 * (HOME_SIDE + FRAME) + ARM, MARGIN + 2 * (HOME_SIDE + FRAME) + ARM)
CX = CY = (BOARD[0] + BOARD[2]) // 2  # the board's centre
CARD_INSET = 14  # a home's edge to its card: room for the turn's gold ring and a cell's mark beside it
CARD_HEAD = 50  # the card's tinted line: marker, name, turn pill or medal
SPOT_X = (62, 146)  # home spots' centres from the card's left edge ...
SPOT_Y = (154, 240)  # ... and top: two rows under the home's word


def turned(dx: int, dy: int, quarter: int) -> tuple[int, int]:
    """(dx, dy) turned ``quarter`` quarter turns counter-clockwise as seen (y grows down)."""
    for _ in range(quarter % 4):
        dx, dy = dy, -dx
    return dx, dy


def _box(x0: int, y0: int, x1: int, y1: int, quarter: int) -> Box:
    """A box given from the centre as for the bottom arm, turned to arm ``quarter``."""
    (ax, ay), (bx, by) = turned(x0, y0, quarter), turned(x1, y1, quarter)
    return (CX + min(ax, bx), CY + min(ay, by), CX + max(ax, bx), CY + max(ay, by))


def _lane(arm: int, lane: int, row: int) -> Box:
    """Cell ``row`` (0 next to the centre .. 7 at the tip) of ``lane`` (0 left, 1 middle, 2 right)."""
    x0, y0 = -HALF + lane * LANE, HALF + row * L
    return _box(x0, y0, x0 + LANE, y0 + L, arm)


def box_centre(box: Box) -> tuple[int, int]:
    """The middle pixel of ``box``."""
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def cell_box(number: int) -> Box:
    """The rectangle of circuit cell ``number`` (1..68)."""
    if not 1 <= number <= rules.CELLS:
        raise ValueError(f"no cell {number}")
    arm, t = divmod(number + 8, 17)
    t -= 8  # -8..8 along arm ``arm``: left lane outward, the tip, right lane inward
    return _lane(arm % 4, 1 if t == 0 else 2 if t > 0 else 0, 7 if t == 0 else 8 - abs(t))


def cell_centre(number: int) -> tuple[int, int]:
    """The middle of circuit cell ``number``."""
    return box_centre(cell_box(number))


def corridor_box(colour: int, k: int) -> Box:
    """Corridor cell ``k`` (1 after the turn-off cell .. 7 next to the centre) of ``colour``."""
    return _lane(colour, 1, 7 - k)


def corridor_centre(colour: int, k: int) -> tuple[int, int]:
    """The middle of corridor cell ``k`` of ``colour``."""
    return box_centre(corridor_box(colour, k))


def home_box(colour: int) -> Box:
    """The square of ``colour``'s corner home."""
    return _box(HALF, HALF, HALF + HOME_SIDE, HALF + HOME_SIDE, colour)


def home_card(colour: int) -> Box:
    """The player card inside ``colour``'s home."""
    x0, y0, x1, y1 = home_box(colour)
    return x0 + CARD_INSET, y0 + CARD_INSET, x1 - CARD_INSET, y1 - CARD_INSET


def home_spot(colour: int, i: int) -> tuple[int, int]:
    """Where piece ``i`` (0..3) of ``colour`` stands at home: on its card, two rows of two."""
    x0, y0, _x1, _y1 = home_card(colour)
    return x0 + SPOT_X[i % 2], y0 + SPOT_Y[i // 2]


def centre_spot(colour: int, i: int) -> tuple[int, int]:
    """Where piece ``i`` of ``colour`` stands in the centre: a row along the colour's triangle."""
    dx, dy = turned(-57 + 38 * i, HALF - 28, colour)
    return CX + dx, CY + dy


def track_cell(colour: int, progress: int) -> tuple[tuple[int, ...], Box] | None:
    """(a key, the rectangle) of a circuit or corridor position; None at home or in the centre."""
    number = rules.cell_number(colour, progress)
    if number is not None:
        return (number,), cell_box(number)
    if LAST_CIRCUIT < progress < CENTRE:
        return (colour, progress - LAST_CIRCUIT), corridor_box(colour, progress - LAST_CIRCUIT)
    return None


def spot_box(colour: int, progress: int, i: int) -> Box:
    """The box a mark rings: a cell, or a square round piece ``i``'s home or centre spot."""
    place = track_cell(colour, progress)
    if place is not None:
        return place[1]
    x, y = home_spot(colour, i) if progress == HOME else centre_spot(colour, i)
    r = 34 if progress == HOME else 20
    return (x - r, y - r, x + r, y + r)
