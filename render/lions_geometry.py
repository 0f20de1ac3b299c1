"""Where things are on the «Охота на львов» picture: grid units (x 0..8, y 0..7, y down) to pixels,
each circle's centre, the caves round the lions' circles, and where each circle's name is printed."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import ImageFont

from engines.lions_board import CIRCLES, HUNTERS_START, INDEX, LINES, SIZE
from render.theme import Box
from render.typeset import font

W = 1024
MARGIN = 16
FRAME = 10  # the wood rim round the sand
P = 104  # one grid unit in px
TOP, BOTTOM = 1.0, 0.62  # grid units of sand above row 0 (the cliff) and below row 7
BOARD: Box = (MARGIN, MARGIN, W - MARGIN, MARGIN + round((TOP + 7 + BOTTOM) * P) + 2 * FRAME)
R = 29  # a circle's radius
PIECE = 68  # a piece's size: it hides its circle
PIECES = 6
PUSH_AT = (5.3, 3.9)  # the push badge's place: the free sand between +6, +5 and the camp
TENT_HALF = 0.48  # a tent's half width (grid units)
TENTS = ((5.25, 7.36), (6.2, 7.36))  # the tents' bases, below the camp's bottom row (clear of 29 – А, Б – 30)
CAMPFIRE = (6.5, 5.7)  # the campfire, in the square Г – Д – Б – В that no line crosses


def camp_box() -> tuple[float, float, float, float]:
    """The camp's trodden earth in grid units (x0, y0, x1, y1): round the hunters' circles, down to the
    bottom edge (the tents stand below the camp's bottom row)."""
    xs = [CIRCLES[INDEX[h]].x for h in HUNTERS_START]
    ys = [CIRCLES[INDEX[h]].y for h in HUNTERS_START]
    return min(xs) - 0.6, min(ys) - 0.55, max(xs) + 0.6, max(ys) + 1.62


def grid_px(x: float, y: float) -> tuple[float, float]:
    """Grid units to picture pixels (column 4 on the middle of the picture)."""
    return W / 2 + (x - 4) * P, BOARD[1] + FRAME + (y + TOP) * P


def centre(circle: int) -> tuple[int, int]:
    """The pixel at the centre of ``circle``."""
    c = CIRCLES[circle]
    x, y = grid_px(c.x, c.y)
    return round(x), round(y)


def caves() -> tuple[tuple[int, int], ...]:
    """The lion circles paired by cave: those on row 0, left to right, two a cave."""
    top = sorted((c.x, i) for i, c in enumerate(CIRCLES) if c.y == 0)
    return tuple((top[k][1], top[k + 1][1]) for k in range(0, len(top), 2))


def prominent(label: str) -> bool:
    """Names the rules talk about (1–6, А–Е, +1…+8) are printed bold; the plain numbers grey (as tall, lighter)."""
    return not label.isdigit() or int(label) <= PIECES


def label_font(label: str) -> ImageFont.FreeTypeFont:
    """The font a circle's name ``label`` is printed in (see :func:`prominent`)."""
    return font(26, True) if prominent(label) else font(25)  # both ≥ 18 px capitals


def seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    """The distance from ``p`` to the segment from ``a`` to ``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    t = max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / (dx * dx + dy * dy)))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def _obstacles() -> list[Box]:
    """Boxes a circle's name must keep off: the push badge and the camp's tents and fire."""
    out: list[Box] = []
    tents_x = (TENTS[0][0] + TENTS[-1][0]) / 2, TENTS[-1][0] - TENTS[0][0] + 2 * TENT_HALF
    for (x, y), (w, h) in ((PUSH_AT, (1.9, 0.5)), ((tents_x[0], 7.05), (tents_x[1], 0.75)), (CAMPFIRE, (0.7, 0.7))):
        (x0, y0), (x1, y1) = grid_px(x - w / 2, y - h / 2), grid_px(x + w / 2, y + h / 2)
        out.append((round(x0), round(y0), round(x1), round(y1)))
    return out


@lru_cache(maxsize=1)
def label_spots() -> tuple[tuple[int, int], ...]:
    """Where each circle's name is printed: beside it, clear of its piece, the lines, the other circles and
    the names placed before it, and nearer its own circle than any other (so it cannot be misread).

    Directions are tried in a fixed order (up-right first); the first with room wins, else the roomiest.
    A lion circle's name sits on the rock above its cave entrance.
    """
    ends = [(centre(a), centre(b)) for a, b in LINES]
    taken = _obstacles()
    spots: list[tuple[int, int]] = []
    for i, c in enumerate(CIRCLES):
        cx, cy = centre(i)
        if c.y == 0:
            spots.append((cx, round(cy - 0.64 * P)))
            continue
        fnt = label_font(c.label)
        hw, hh = fnt.getlength(c.label) / 2 + 2, fnt.size / 2
        best: tuple[float, int, tuple[int, int]] | None = None
        for rank, deg in enumerate((-45, -135, 45, 135, 0, 180, -90, 90)):
            ux, uy = math.cos(math.radians(deg)), math.sin(math.radians(deg))
            dist = PIECE / 2
            while math.hypot(max(abs(ux * dist) - hw, 0), max(abs(uy * dist) - hh, 0)) < PIECE / 2 + 1:
                dist += 1  # push the name's box off the piece
            lx, ly = cx + ux * dist, cy + uy * dist
            probe = [(lx + sx * hw, ly + sy * hh) for sx in (-1, 0, 1) for sy in (-1, 0, 1)]
            room = min(seg_dist(p, a, b) for p in probe for a, b in ends)
            others = [math.dist((lx, ly), centre(j)) for j in range(SIZE) if j != i]
            room = min(room, min(others) - PIECE / 2 - hw, (min(others) - math.dist((lx, ly), (cx, cy))) / 2)
            for x0, y0, x1, y1 in taken:
                room = min(room, max(x0 - lx - hw, lx - hw - x1, y0 - ly - hh, ly - hh - y1))
            score = (min(room, 12.0), -rank, (round(lx), round(ly)))
            if best is None or score[:2] > best[:2]:
                best = score
        assert best is not None
        lx, ly = best[2]
        spots.append((lx, ly))
        taken.append((round(lx - hw), round(ly - hh), round(lx + hw), round(ly + hh)))
    return tuple(spots)
