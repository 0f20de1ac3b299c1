"""The «Шиш-беш» board's static picture, drawn once per (seats, board, shelters, park word): the cross of
round cells, the dark corners and their jump arrows, the start fields, huts beside the shelters,
hourglass homes in the players' colours, and in each played arm's corner its player's empty card
(header, the park's word, the four park spots); grey, with a park mandala, where nobody plays an arm."""

from __future__ import annotations

import math
from collections.abc import Mapping

from PIL import Image, ImageDraw

from engines import shishbesh as rules
from render.canvas import paste
from render.cards import player_card, ringed_spot
from render.marks import draw_arrow
from render.shishbesh_geometry import (
    CARD_HEAD,
    LIST_X,
    MARGIN,
    SIDE,
    SPOT_X,
    SPOT_Y,
    WORD_Y,
    arm_len,
    cell_centre,
    corner_cells,
    grid_point,
    home_centre,
    hut_centre,
    jump_ends,
    mandala_spot,
    park_card,
    park_centre,
    park_radius,
    pitch,
    turned,
)
from render.theme import BG, INK, RGB, WOOD, player, tint
from render.typeset import ellipsize, fit_font, scaled_draw

K = 3  # the static board is drawn K times larger and box-averaged down (K × K pixels to one)
RADIUS = 16  # a card's corners

PAPER: RGB = (236, 226, 204)
CROSS: RGB = (246, 239, 222)
CELL: RGB = (252, 249, 241)
LINE: RGB = (134, 120, 96)
CORNER: RGB = (58, 60, 72)
ARROW: RGB = (150, 112, 70)
HUT: RGB = (176, 102, 52)
NEUTRAL: RGB = (206, 198, 182)
MUTED_INK: RGB = (112, 104, 92)


def house(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, fill: RGB, line: RGB, width: float,
          door: bool = True) -> None:
    """An upright house ``w`` wide centred on (cx, cy): a body under a roof."""
    h = w * 0.5
    body = (cx - w * 0.36, cy - h * 0.1, cx + w * 0.36, cy + h * 0.9)
    roof = [(cx - w * 0.5, cy), (cx, cy - w * 0.52), (cx + w * 0.5, cy)]
    d.rectangle(body, fill=fill, outline=line, width=round(width))
    d.polygon(roof, fill=fill, outline=line, width=round(width))
    if door:
        d.rectangle((cx - w * 0.1, cy + h * 0.35, cx + w * 0.1, cy + h * 0.9), fill=line)


def _at(xy: tuple[float, float]) -> tuple[float, float]:
    """Picture pixel ``xy`` on the board's K-times canvas."""
    return (xy[0] - MARGIN) * K, (xy[1] - MARGIN) * K


def _disc(d: ImageDraw.ImageDraw, xy: tuple[float, float], r: float, fill: RGB, line: RGB = LINE,
          width: float = 2) -> None:
    """A disc of radius ``r`` centred on picture pixel ``xy``, on the K-times canvas."""
    x, y = _at(xy)
    d.ellipse((x - r * K, y - r * K, x + r * K, y + r * K), fill=fill, outline=line, width=round(width * K))


def draw_board(seats: int, board: str, staggered: bool, park_word: str) -> Image.Image:
    """The board alone (RGB, SIDE × SIDE), drawn K times larger and scaled down.

    Box-averaging (``reduce``) anti-aliases as well as Lanczos does but without its ringing: each
    edge gets a few clean in-between shades rather than halos of near-colours, which keeps the
    palette frame some 15 % smaller.
    """
    big = Image.new("RGB", (SIDE * K, SIDE * K), BG)
    d = scaled_draw(big, K)
    d.rounded_rectangle((0, 0, SIDE * K - 1, SIDE * K - 1), radius=20 * K, fill=WOOD)
    d.rounded_rectangle((6 * K, 6 * K, (SIDE - 6) * K, (SIDE - 6) * K), radius=14 * K, fill=PAPER)
    seat_of = {rules.ARMS[seats][s]: s for s in range(seats)}
    e = arm_len(board) + 1.5  # the cross: two bands three cells wide
    for a, b in (((-1.5, -e), (1.5, e)), ((-e, -1.5), (e, 1.5))):
        d.rounded_rectangle((*_at(grid_point(board, *a)), *_at(grid_point(board, *b))), radius=12 * K, fill=CROSS,
                            outline=LINE, width=K)
    for arm in range(4):
        seat = seat_of.get(arm)
        if seat is None:
            _draw_park(d, board, arm)
        _draw_home(d, board, arm, player(seat).colour if seat is not None else NEUTRAL)
    _draw_jumps(d, board)
    _draw_circuit(d, board, staggered, seat_of)
    img = big.reduce(K)
    for arm, seat in seat_of.items():
        _draw_card(img, board, arm, seat, park_word)
    return img


def _draw_card(img: Image.Image, board: str, arm: int, seat: int, word: str) -> None:
    """``seat``'s empty card in ``arm``'s corner of the board image ``img``: its header, the park's
    ``word`` and the four park spots, each a little larger than a piece."""
    x0, y0, x1, y1 = (v - MARGIN for v in park_card(arm))
    player_card(img, (x0, y0, x1, y1), seat, RADIUS, CARD_HEAD)
    d = ImageDraw.Draw(img)
    room = LIST_X - 24
    fnt = fit_font(word, room, 24, bold=True)
    d.text((x0 + 16, y0 + WORD_Y), ellipsize(word, fnt, room), font=fnt, fill=MUTED_INK, anchor="lm")
    r = round(pitch(board) * 0.38)
    for x in SPOT_X:
        for y in SPOT_Y:
            paste(img, ringed_spot(r, tint(player(seat).colour, 0.25, CELL), LINE), (x0 + x - r - 1, y0 + y - r - 1))


def _draw_park(d: ImageDraw.ImageDraw, board: str, arm: int) -> None:
    """The park of an arm nobody plays: a grey mandala round four empty spots."""
    colour, wash = NEUTRAL, PAPER
    cx, cy = park_centre(board, arm)
    r = park_radius(board)
    _disc(d, (cx, cy), r, wash, colour, 4)
    for k in range(12):  # petals
        ang = k * math.pi / 6
        px, py = cx + math.cos(ang) * r * 0.8, cy + math.sin(ang) * r * 0.8
        _disc(d, (px, py), r * 0.2, tint(colour, 0.35, wash), colour, 1.5)
    _disc(d, (cx, cy), r * 0.68, CELL, colour, 2)
    for i in range(4):
        _disc(d, mandala_spot(board, arm, i), pitch(board) * 0.3, tint(colour, 0.25, CELL), LINE, 1.5)


def _draw_home(d: ImageDraw.ImageDraw, board: str, arm: int, colour: RGB) -> None:
    """``arm``'s home cells on an hourglass in ``colour`` along the arm's middle lane."""
    p = pitch(board)
    top, bottom = grid_point(board, 0, 1.55, arm), grid_point(board, 0, arm_len(board) + 0.45, arm)
    mid = ((top[0] + bottom[0]) / 2, (top[1] + bottom[1]) / 2)
    ux, uy = turned(1, 0, arm)
    wide, narrow = p * 0.47, p * 0.2
    pts = [(top[0] - ux * wide, top[1] - uy * wide), (top[0] + ux * wide, top[1] + uy * wide),
           (mid[0] + ux * narrow, mid[1] + uy * narrow), (bottom[0] + ux * wide, bottom[1] + uy * wide),
           (bottom[0] - ux * wide, bottom[1] - uy * wide), (mid[0] - ux * narrow, mid[1] - uy * narrow)]
    d.polygon([_at(q) for q in pts], fill=tint(colour, 0.55, CROSS), outline=colour, width=2 * K)
    for k in range(1, rules.GEOMETRY[board].home_cells + 1):
        _disc(d, home_centre(board, arm, k), p * 0.3, tint(colour, 0.2, CELL), colour, 2)


def _draw_jumps(d: ImageDraw.ImageDraw, board: str) -> None:
    """The jump arrows between the corners: round the centre square and across it."""
    corners = corner_cells(board)
    for i, c in enumerate(corners):
        for step in (1, 2) if i < 2 else (1,):
            a, b = jump_ends(board, c, corners[(i + step) % 4])
            draw_arrow(d, _at(a), _at(b), ARROW, 5 * K, 16 * K, both=True)


def _draw_circuit(d: ImageDraw.ImageDraw, board: str, staggered: bool, seat_of: Mapping[int, int]) -> None:
    """The circuit's cells: dark corners, each arm's start field with its triangle (in the colour of
    the seat ``seat_of`` gives the arm), plain cells, and a hut beside every shelter."""
    geo, p = rules.GEOMETRY[board], pitch(board)
    corners, shelters = corner_cells(board), geo.shelters(staggered)
    for cell in range(geo.circuit):
        xy = cell_centre(board, cell)
        arm, t = divmod(cell, geo.quarter)
        if cell in corners:
            _disc(d, xy, p * 0.42, CORNER, INK, 2)
            _disc(d, xy, p * 0.3, CORNER, (96, 98, 112), 1.5)
        elif t == 0:  # an arm's end: the start field with its triangle
            seat = seat_of.get(arm)
            colour = player(seat).colour if seat is not None else NEUTRAL
            _disc(d, xy, p * 0.42, colour, INK, 2)
            x, y = _at(xy)
            s = p * 0.26 * K
            tri = [turned(u, v, arm) for u, v in ((1, 0), (-0.5, -0.55), (-0.5, 0.55))]
            d.polygon([(x + u * s, y + v * s) for u, v in tri], fill=CELL if seat is not None else LINE)
        else:
            _disc(d, xy, p * 0.42, CELL)
        if cell in shelters:
            x, y = _at(hut_centre(board, cell))
            house(d, x, y, p * 0.62 * K, HUT, INK, 1.5 * K)
