"""Where things are on the «Шиш-беш» board, in picture pixels: circuit, home and corner cells, huts,
the players' cards with their parks and the jump arrows' ends, for both boards (13 × 13 and the
long 15 × 15).

Geometry, as settled in docs/rules/shishbesh.md: arm 0 points down, arms follow
counter-clockwise as seen (1 right, 2 up, 3 left). In arm 0's frame (grid units from the
centre, y down) a quarter of the circuit is its end cell (0, L+1), up the right lane
(1, L+1) … (1, 2), the corner (1, 1), out along (2, 1) … (L+1, 1); the next quarter is the
same turned. Arm a's home cell k is (0, L+1−k); its park is the picture corner beside the
lane its pieces leave by; a hut sits just outside its shelter cell, in that corner.

The park of a played arm is its player's card, upright whatever the corner and the same on both
boards: it keeps clear of the huts and of a hut's target letter, and reaches to the board's frame.
The name goes on top, the four park spots in two rows on the left under the park's word, and on
the right how many are home and the pieces on the circuit, one a row. An arm nobody plays keeps a
grey park mandala in its corner.
"""

from __future__ import annotations

import math

from engines import shishbesh as rules
from engines.shishbesh import PARK, ShishbeshState
from render.theme import Box

MARGIN = 16
SIDE = 992  # the board's side: the picture's whole width (a phone shows it ~390 px wide)
FRAME = 12
BOARD: Box = (MARGIN, MARGIN, MARGIN + SIDE, MARGIN + SIDE)
CX = CY = MARGIN + SIDE // 2
CARD_NEAR = 186  # a card's inner edges from the centre, both ways: past a hut's target letter (178)
CARD_FAR = 476  # and its outer edges: inside the frame
CARD_HEAD = 50  # the card's tinted line: marker, name, turn pill or medal
WORD_Y = 84  # the line under it, from the card's top: the park's word left, the home count right
LIST_X = 162  # from the card's left edge: the home count and the pieces on the circuit, one a row
SPOT_X = (56, 126)  # park spots' centres from the card's left edge ...
SPOT_Y = (140, 206)  # ... and top: two rows under the park's word


def arm_len(board: str) -> int:
    """L of the module docstring: an arm's outer lanes run L cells out from their corners."""
    return rules.GEOMETRY[board].quarter // 2 - 1


def pitch(board: str) -> float:
    """The distance between neighbouring cells in px."""
    return (SIDE - 2 * FRAME) / (2 * arm_len(board) + 3)


def turned(dx: float, dy: float, arm: int) -> tuple[float, float]:
    """(dx, dy) turned ``arm`` quarter turns counter-clockwise as seen (y grows down)."""
    for _ in range(arm % 4):
        dx, dy = dy, -dx
    return dx, dy


def grid_point(board: str, dx: float, dy: float, arm: int = 0) -> tuple[int, int]:
    """The pixel of grid offset (dx, dy) in arm ``arm``'s frame."""
    tx, ty = turned(dx, dy, arm)
    p = pitch(board)
    return round(CX + tx * p), round(CY + ty * p)


def _grid(board: str, cell: int) -> tuple[int, int, int]:
    """(arm, dx, dy): absolute circuit ``cell`` in its arm's frame."""
    length = arm_len(board)
    arm, t = divmod(cell % rules.GEOMETRY[board].circuit, 2 * length + 2)
    if t == 0:
        return arm, 0, length + 1
    if t <= length + 1:
        return arm, 1, length + 2 - t
    return arm, t - length, 1


def cell_centre(board: str, cell: int) -> tuple[int, int]:
    """The centre of absolute circuit cell ``cell`` (arm a's end cell is a × quarter)."""
    arm, dx, dy = _grid(board, cell)
    return grid_point(board, dx, dy, arm)


def home_centre(board: str, arm: int, k: int) -> tuple[int, int]:
    """The centre of home cell ``k`` (1 next to the end cell .. 4 or 5) of ``arm``."""
    return grid_point(board, 0, arm_len(board) + 1 - k, arm)


def hut_centre(board: str, cell: int) -> tuple[int, int]:
    """Where the hut of shelter ``cell`` stands: just outside it, in the picture corner."""
    arm, dx, dy = _grid(board, cell)
    return grid_point(board, dx + 0.78, dy, arm) if dx == 1 else grid_point(board, dx, dy + 0.78, arm)


def park_card(arm: int) -> Box:
    """The card of ``arm``'s player: the picture corner beside the lane its pieces leave by."""
    sx, sy = turned(1, 1, arm)
    x0, x1 = sorted((round(CX + sx * CARD_NEAR), round(CX + sx * CARD_FAR)))
    y0, y1 = sorted((round(CY + sy * CARD_NEAR), round(CY + sy * CARD_FAR)))
    return x0, y0, x1, y1


def park_centre(board: str, arm: int) -> tuple[int, int]:
    """The middle of ``arm``'s park mandala (an arm nobody plays), in the picture corner beside the
    lane its pieces would leave by."""
    c = 2.1 + arm_len(board) / 2
    return grid_point(board, c, c, arm)


def park_radius(board: str) -> int:
    """A park's radius in px."""
    return round(pitch(board) * (1.8 if board == "standard" else 2.2))


def mandala_spot(board: str, arm: int, i: int) -> tuple[int, int]:
    """Spot ``i`` (0..3) of the park mandala of an arm nobody plays."""
    x, y = park_centre(board, arm)
    step = round(pitch(board) * 0.52)
    return x + (-step, step)[i % 2], y + (-step, step)[i // 2] - step // 3


def park_spot(board: str, arm: int, i: int) -> tuple[int, int]:
    """Where piece ``i`` (0..3) of ``arm``'s player waits in the park: on its card, two rows of two (the
    same on either ``board``)."""
    x0, y0, _x1, _y1 = park_card(arm)
    return x0 + SPOT_X[i % 2], y0 + SPOT_Y[i // 2]


def corner_cells(board: str) -> tuple[int, ...]:
    """The absolute circuit cells of the four corners: arm 0's corner positions, as arm 0 counts from cell 0."""
    return rules.GEOMETRY[board].corners


def position_centre(state: ShishbeshState, seat: int, position: int) -> tuple[int, int] | None:
    """The centre of a circuit or home position of ``seat`` (None in the park)."""
    geo, board = state.options.geometry, state.options.board
    cell = geo.cell(state.arm(seat), position)
    if cell is not None:
        return cell_centre(board, cell)
    if position in geo.home:
        return home_centre(board, state.arm(seat), position - geo.home[0] + 1)
    return None


def piece_spot(state: ShishbeshState, seat: int, piece: int, pos: int, hut: bool) -> tuple[tuple[int, int], int]:
    """(centre, ring size) of where a piece is or was: its cell, its hut, its home cell or park spot."""
    board = state.options.board
    p = pitch(board)
    cell = state.options.geometry.cell(state.arm(seat), pos)
    if hut and cell is not None:
        return hut_centre(board, cell), round(p * 0.86)
    if pos == PARK:
        return park_spot(board, state.arm(seat), piece), round(p * 0.8)
    xy = position_centre(state, seat, pos)
    assert xy is not None
    return xy, round(p * (0.96 if cell is not None else 0.76))


def jump_ends(board: str, frm: int, to: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """An arrow's ends between two corner cells, stopping short of their circles."""
    (ax, ay), (bx, by) = cell_centre(board, frm), cell_centre(board, to)
    n, cut = math.hypot(bx - ax, by - ay), pitch(board) * 0.46
    ux, uy = (bx - ax) / n, (by - ay) / n
    return (ax + ux * cut, ay + uy * cut), (bx - ux * cut, by - uy * cut)
