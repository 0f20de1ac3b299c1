"""The «Охота на львов» board: the rebuilt field of circles and straight lines (engines/lions_board.py)
on sand, the three rock caves with the lions' circles 1–6 in their entrances, the hunters' camp (tents
and a campfire) round А–Е, every circle named; lions and hunters as two pieces that differ in colour
and shape; the turn being built as a gold trail, the previous turn as a faint one, captures as red ✕,
the push rule and the pushed pieces, and one card per player (side, pieces left, turn or result).

Where the circles and their names are: :mod:`render.lions_geometry`.
``render_board(state, names, labels, events)`` returns PNG bytes. The static picture (board, caves,
camp, names of circles, card frames with the side words) is drawn once per (lions seat, words) at
K× and scaled down, then cached; each call pastes trails, rings, crosses and pieces on a copy and maps
it to a palette fitted once to a sample game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from itertools import pairwise

from PIL import Image, ImageDraw, ImageFilter

from engines.base import Event
from engines.lions import ENGINE, HUNTERS, LIONS, Built, LionsOptions, LionsState, bits, build, pushed, sides
from engines.lions_board import CIRCLES, LINES
from render.canvas import paste, rounded_mask
from render.cards import mark_card, panel_grid, seat_standing, shadowed_card
from render.lions_geometry import (
    BOARD,
    CAMPFIRE,
    FRAME,
    MARGIN,
    PIECE,
    PIECES,
    PUSH_AT,
    TENT_HALF,
    TENTS,
    P,
    R,
    W,
    camp_box,
    caves,
    centre,
    grid_px,
    label_font,
    label_spots,
    prominent,
    seg_dist,
)
from render.marks import dashed_ring, red_cross, round_ring
from render.png import colour_strip, fitted_palette, random_game, to_png
from render.theme import BG, CARD, GOLD, INK, IVORY, LIGHT, RED, RGB, SS, WOOD, Box, tint
from render.typeset import TextDraw, ellipsize, fit_font, font, pill, require_labels, scaled_draw, seat_name

# the pills of the mover / winner / a draw, the two sides' names, the push rule («в затылок») badge
LABEL_KEYS: tuple[str, ...] = ("turn", "winner", "draw", "lions", "hunters", "push")

GAP = 14
RADIUS = 16
PANEL_H = 100
HEADER_H = 44
K = 3  # the static board is drawn K times larger and scaled down
COMPRESS = 3  # zlib level of the bands drawn on (render/png_bands.py): 4 costs ~0.7 ms more for 6 % fewer bytes

SAND: RGB = (233, 214, 170)
CAMP: RGB = (216, 190, 140)
GRASS: RGB = (150, 150, 78)
LINE: RGB = (124, 96, 60)
SPOT: RGB = (251, 246, 232)
ROCK: RGB = (150, 128, 108)
ROCK_LIGHT: RGB = (178, 157, 134)
ROCK_DARK: RGB = (104, 86, 72)
CAVE: RGB = (52, 40, 34)
TENT: RGB = (204, 176, 112)
TENT_DARK: RGB = (138, 108, 62)
FIRE: RGB = (234, 104, 30)
LION: RGB = (244, 180, 44)
MANE: RGB = (170, 88, 26)
HUNTER: RGB = (36, 124, 72)
HAT: RGB = (232, 214, 160)
PUSH: RGB = (122, 62, 168)
GREY_INK: RGB = (100, 88, 74)
SIDE_COLOUR: dict[str, RGB] = {LIONS: LION, HUNTERS: HUNTER}
SIDE_INK: dict[str, RGB] = {LIONS: (132, 70, 18), HUNTERS: (24, 92, 52)}  # side words on a card


# ---------------------------------------------------------------- geometry


def _cards() -> tuple[tuple[Box, ...], int]:
    return panel_grid(2, 2, BOARD[3] + GAP + 4, PANEL_H, W, MARGIN, GAP)


# ---------------------------------------------------------------- cached art


def _art_px(x: float, y: float) -> tuple[float, float]:
    """Grid point (x, y) on the board's K-times canvas."""
    px, py = grid_px(x, y)
    return (px - BOARD[0]) * K, (py - BOARD[1]) * K


def _draw_caves(d: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Three rock domes along the top, each with a dark arched entrance round each of its lion circles."""
    for a, b in caves():
        (xa, _), (xb, _) = (CIRCLES[a].x, 0), (CIRCLES[b].x, 0)
        mx, half = (xa + xb) / 2, (xb - xa) / 2 + 0.66
        dome = []
        for k in range(25):  # a lumpy half-ellipse from the cliff top down to the cave floor
            t = math.pi * k / 24
            r = 1 + (rng.uniform(-0.05, 0.05) if 0 < k < 24 else 0)
            dome.append(_art_px(mx - math.cos(t) * half * r, 0.44 - math.sin(t) * 1.6 * r))
        d.polygon(dome, fill=ROCK, outline=ROCK_DARK, width=3 * K)
        for _ in range(6):  # lighter boulders and dark cracks: rock, not a blob
            x, y = mx + rng.uniform(-half * 0.8, half * 0.8), rng.uniform(-0.9, -0.55)
            (px, py), s = _art_px(x, y), rng.uniform(0.1, 0.18) * P * K
            d.ellipse((px - s, py - s * 0.6, px + s, py + s * 0.6), fill=ROCK_LIGHT)
        for _ in range(4):
            x, y = mx + rng.uniform(-half * 0.7, half * 0.7), rng.uniform(-0.8, 0.1)
            d.line([_art_px(x, y), _art_px(x + rng.uniform(-0.15, 0.15), y + 0.25)], fill=ROCK_DARK, width=2 * K)
        for c in (a, b):
            x = CIRCLES[c].x
            (x0, top), (x1, floor) = _art_px(x - 0.42, -0.48), _art_px(x + 0.42, 0.44)
            d.rectangle((x0, top + 0.4 * P * K, x1, floor), fill=CAVE)
            d.pieslice((x0, top, x1, top + 0.8 * P * K), 180, 360, fill=CAVE)
            d.arc((x0, top, x1, top + 0.8 * P * K), 180, 360, fill=ROCK_DARK, width=3 * K)


def _draw_camp(d: ImageDraw.ImageDraw) -> None:
    """Trodden earth round А–Е with two tents below it and a campfire among the circles."""
    cx0, cy0, cx1, cy1 = camp_box()
    (x0, y0), (x1, y1) = _art_px(cx0, cy0), _art_px(cx1, cy1)
    d.rounded_rectangle((x0, y0, x1, y1 + P * K), radius=0.7 * P * K, fill=CAMP)
    for tx, ty in TENTS:  # tents: a khaki triangle with a dark door
        (left, base), (top_x, top_y), (right, _) = (_art_px(tx - TENT_HALF, ty), _art_px(tx, ty - 0.62),
                                                    _art_px(tx + TENT_HALF, ty))
        d.polygon([(left, base), (top_x, top_y), (right, base)], fill=TENT, outline=TENT_DARK, width=2 * K)
        d.polygon([(top_x - 0.12 * P * K, base), (top_x, top_y + 0.18 * P * K), (top_x + 0.12 * P * K, base)],
                  fill=TENT_DARK)
    fx, fy = _art_px(*CAMPFIRE)
    u = P * K
    for k in range(8):  # a ring of stones
        t = 2 * math.pi * k / 8
        sx, sy = fx + math.cos(t) * 0.3 * u, fy + math.sin(t) * 0.14 * u
        d.ellipse((sx - 0.06 * u, sy - 0.045 * u, sx + 0.06 * u, sy + 0.045 * u), fill=(128, 122, 114))
    for sgn in (-1, 1):  # two crossed logs
        d.line((fx - 0.22 * u, fy + sgn * 0.06 * u, fx + 0.22 * u, fy - sgn * 0.06 * u), fill=(104, 66, 38),
               width=round(0.07 * u))
    for colour, h, w in ((FIRE, 0.46, 0.17), ((252, 196, 60), 0.28, 0.09)):  # the flame, outer and inner
        d.polygon([(fx - w * u, fy), (fx - w * 0.4 * u, fy - h * 0.55 * u), (fx, fy - h * u),
                   (fx + w * 0.5 * u, fy - h * 0.5 * u), (fx + w * u, fy)], fill=colour)


def _draw_grass(d: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """Tufts of grass where nothing else is: sand that reads as savanna."""
    ends = [(CIRCLES[a][1:], CIRCLES[b][1:]) for a, b in LINES]
    cx0, cy0, cx1, _ = camp_box()
    for _ in range(160):
        x, y = rng.uniform(-0.5, 8.5), rng.uniform(0.8, 7.4)
        near_circle = min(math.dist((x, y), c[1:]) for c in CIRCLES) < 0.62
        near_line = min(seg_dist((x, y), a, b) for a, b in ends) < 0.22
        in_camp = cx0 - 0.1 < x < cx1 + 0.1 and y > cy0 - 0.15
        if near_circle or near_line or in_camp or (abs(x - PUSH_AT[0]) < 1.1 and abs(y - PUSH_AT[1]) < 0.45):
            continue
        px, py = _art_px(x, y)
        s = 0.09 * P * K
        for dx in (-0.7, 0, 0.7):
            d.line((px + dx * s * 0.5, py, px + dx * s, py - s * (1.3 - abs(dx) * 0.4)), fill=GRASS, width=K * 2)


@lru_cache(maxsize=1)
def _draw_board() -> Image.Image:
    """Sand, caves, camp, lines, circles and their names (RGB, the board's size), drawn K× and scaled down."""
    bw, bh = BOARD[2] - BOARD[0], BOARD[3] - BOARD[1]
    big = Image.new("RGB", (bw * K, bh * K), BG)
    d = ImageDraw.Draw(big)
    d.rounded_rectangle((0, 0, bw * K - 1, bh * K - 1), radius=20 * K, fill=WOOD)
    sand = Image.new("L", big.size, 0)
    ImageDraw.Draw(sand).rounded_rectangle((FRAME * K, FRAME * K, (bw - FRAME) * K, (bh - FRAME) * K),
                                           radius=14 * K, fill=255)
    art = Image.new("RGB", big.size, SAND)
    a = scaled_draw(art, K)  # the names are measured at the size the picture shows them
    rng = random.Random(7)  # fixed: the same art every time
    _draw_grass(a, rng)
    _draw_camp(a)
    _draw_caves(a, rng)
    for i, j in LINES:
        a.line([_art_px(*CIRCLES[i][1:]), _art_px(*CIRCLES[j][1:])], fill=LINE, width=5 * K)
    for c in CIRCLES:
        x, y = _art_px(c.x, c.y)
        r = R * K
        edge = 4 if c.label.startswith("+") else 3  # the circles the rules name by «+n» a little bolder
        a.ellipse((x - r, y - r, x + r, y + r), fill=SPOT, outline=LINE, width=edge * K)
    for c, (lx, ly) in zip(CIRCLES, label_spots(), strict=True):
        bold = prominent(c.label)
        fnt = font(label_font(c.label).size * K, bold)
        fill, stroke = (IVORY, INK) if c.y == 0 else (INK, SAND) if bold else (GREY_INK, SAND)
        a.text(((lx - BOARD[0]) * K, (ly - BOARD[1]) * K), c.label, font=fnt, fill=fill, anchor="mm",
               stroke_width=(3 if bold else 2) * K, stroke_fill=stroke)
    big.paste(art, (0, 0), sand)
    return big.resize((bw, bh), Image.Resampling.LANCZOS)


@lru_cache(maxsize=8)
def _piece(side: str, size: int, faded: bool = False) -> Image.Image:
    """A lion (a gold face in a spiky mane: round) or a hunter (a green shield with a pith helmet and a
    spear: angular), ``size`` px, with a soft shadow (RGBA, 8 px larger; paste at its top-left minus 4)."""
    s, m = size * SS, 4
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, w = s / 2, max(SS, round(s * 0.045))

    def disc(x: float, y: float, r: float, fill: RGB, edge: int = w) -> None:
        d.ellipse((x - r, y - r, x + r, y + r), fill=(*fill, 255), outline=(*INK, 255), width=edge)

    if side == LIONS:
        mane = [(c + (0.48 if k % 2 == 0 else 0.38) * s * math.cos(math.pi * k / 11 - math.pi / 2),
                 c + (0.48 if k % 2 == 0 else 0.38) * s * math.sin(math.pi * k / 11 - math.pi / 2)) for k in range(22)]
        d.polygon(mane, fill=(*MANE, 255), outline=(*INK, 255), width=w)
        for sx in (-1, 1):
            disc(c + sx * 0.2 * s, c - 0.2 * s, 0.085 * s, LION)
        disc(c, c + 0.02 * s, 0.27 * s, LION)
        disc(c, c + 0.12 * s, 0.13 * s, (252, 236, 196), 0)
        for sx in (-1, 1):
            disc(c + sx * 0.1 * s, c - 0.05 * s, 0.032 * s, INK, 0)
        d.polygon([(c - 0.06 * s, c + 0.06 * s), (c + 0.06 * s, c + 0.06 * s), (c, c + 0.13 * s)], fill=(*INK, 255))
    else:
        shield = [(0.1 * s, 0.08 * s), (0.9 * s, 0.08 * s), (0.9 * s, 0.55 * s), (c, 0.95 * s), (0.1 * s, 0.55 * s)]
        d.polygon(shield, fill=(*HUNTER, 255), outline=(*INK, 255), width=w)
        d.line((0.3 * s, 0.8 * s, 0.76 * s, 0.2 * s), fill=(*INK, 255), width=round(0.08 * s))  # the spear
        d.line((0.3 * s, 0.8 * s, 0.76 * s, 0.2 * s), fill=(*HAT, 255), width=round(0.04 * s))
        d.polygon([(0.82 * s, 0.12 * s), (0.66 * s, 0.24 * s), (0.78 * s, 0.32 * s)], fill=(*IVORY, 255),
                  outline=(*INK, 255), width=w // 2)
        dome = (0.28 * s, 0.26 * s, 0.72 * s, 0.66 * s)  # the pith helmet: a dome on a wide brim
        d.pieslice(dome, 180, 360, fill=(*HAT, 255), outline=(*INK, 255), width=w)
        d.ellipse((0.16 * s, 0.42 * s, 0.84 * s, 0.54 * s), fill=(*HAT, 255), outline=(*INK, 255), width=w)
        d.line((0.3 * s, 0.44 * s, 0.7 * s, 0.44 * s), fill=(*SIDE_INK[HUNTERS], 255), width=round(0.035 * s))
    token = img.resize((size, size), Image.Resampling.LANCZOS)
    out = Image.new("RGBA", (size + 2 * m, size + 2 * m), (0, 0, 0, 0))
    alpha = Image.new("L", out.size, 0)
    alpha.paste(token.getchannel("A"), (m + 1, m + 2))
    shadow = Image.new("RGBA", out.size, (0, 0, 0, 255))
    shadow.putalpha(alpha.filter(ImageFilter.GaussianBlur(2)).point(lambda v: v * 140 // 255))
    out.alpha_composite(shadow)
    out.alpha_composite(token, (m, m))
    if faded:
        out.putalpha(out.getchannel("A").point(lambda v: v * 2 // 7))
    return out


def _put(img: Image.Image, side: str, size: int, xy: tuple[int, int], faded: bool = False) -> None:
    paste(img, _piece(side, size, faded), (xy[0] - size // 2 - 4, xy[1] - size // 2 - 4))


@lru_cache(maxsize=4)
def _push_badge(size: int) -> Image.Image:
    """The push mark: a purple disc with a white «»» (RGBA)."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((SS, SS, s - SS, s - SS), fill=(*PUSH, 255), outline=(*INK, 255), width=2 * SS)
    for dx in (-0.13, 0.11):
        x = s * (0.5 + dx)
        d.line([(x - 0.09 * s, 0.3 * s), (x + 0.09 * s, 0.5 * s), (x - 0.09 * s, 0.7 * s)], fill=(255, 255, 255, 255),
               width=round(0.09 * s), joint="curve")
    return img.reduce(SS)


@lru_cache(maxsize=512)
def _trail(a: int, b: int, style: str) -> tuple[Image.Image, tuple[int, int]]:
    """One step of a path from circle ``a`` to ``b`` with a chevron halfway (RGBA sprite and its top-left):
    ``style`` "now" gold edged in ink (the turn being built), else faint in that side's colour (the last turn)."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    x0, y0 = min(ax, bx) - 24, min(ay, by) - 24
    img = Image.new("RGBA", ((abs(bx - ax) + 48) * SS, (abs(by - ay) + 48) * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    p: tuple[float, float] = ((ax - x0) * SS, (ay - y0) * SS)
    q: tuple[float, float] = ((bx - x0) * SS, (by - y0) * SS)
    n = math.dist(p, q)
    ux, uy = (q[0] - p[0]) / n, (q[1] - p[1]) / n
    now = style == "now"
    if not now:  # a faint trail keeps off the circles: they stay readable under it
        p, q = (p[0] + ux * R * SS, p[1] + uy * R * SS), (q[0] - ux * R * SS, q[1] - uy * R * SS)
    width, head = (8 if now else 6) * SS, (17 if now else 14) * SS
    tip = ((p[0] + q[0]) / 2 + ux * head / 2, (p[1] + q[1]) / 2 + uy * head / 2)
    back = (tip[0] - ux * head, tip[1] - uy * head)
    chevron = [tip, (back[0] - uy * head * 0.75, back[1] + ux * head * 0.75),
               (back[0] + uy * head * 0.75, back[1] - ux * head * 0.75)]
    if now:
        d.line((*p, *q), fill=(*INK, 255), width=width + 5 * SS)
        d.line((*p, *q), fill=(*GOLD, 255), width=width)
        d.polygon(chevron, fill=(*GOLD, 255), outline=(*INK, 255), width=2 * SS)
    else:
        colour = (*SIDE_INK[style], 150)
        d.line((*p, *q), fill=colour, width=width)
        d.polygon(chevron, fill=colour)
    return img.reduce(SS), (x0, y0)


@lru_cache(maxsize=2)
def _joint(size: int) -> Image.Image:
    """A gold dot edged in ink where a path turns or passes a circle."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((SS, SS, s - SS, s - SS), fill=(*GOLD, 255), outline=(*INK, 255), width=2 * SS)
    return img.reduce(SS)


def _draw_card_frame(img: Image.Image, box: Box, side: str, word: str) -> None:
    """A card's static part: its header in the side's tint with the side's piece, and the side's word."""
    x0, y0, x1, y1 = box
    shadowed_card(img, box, CARD, RADIUS)
    colour = SIDE_COLOUR[side]
    mask = rounded_mask(x1 - x0, y1 - y0, RADIUS)
    img.paste(tint(colour, 0.3), (x0, y0, x1, y0 + HEADER_H), mask.crop((0, 0, x1 - x0, HEADER_H)))
    img.paste(colour, (x0, y0 + HEADER_H - 3, x1, y0 + HEADER_H))
    _put(img, side, 34, (x0 + 28, y0 + HEADER_H // 2 - 1))
    fnt = fit_font(word, (x1 - x0) - 300, 24, bold=True)
    cy = y0 + HEADER_H + (y1 - y0 - HEADER_H) // 2
    ImageDraw.Draw(img).text((x0 + 16, cy), ellipsize(word, fnt, (x1 - x0) - 300), font=fnt,
                             fill=SIDE_INK[side], anchor="lm")


@lru_cache(maxsize=4)
def _base(lions_seat: int, lions_word: str, hunters_word: str) -> Image.Image:
    """The static picture: everything that never moves."""
    cards, height = _cards()
    img = Image.new("RGB", (W, height), BG)
    img.paste(_draw_board(), BOARD[:2])
    for seat, box in enumerate(cards):
        side = LIONS if seat == lions_seat else HUNTERS
        _draw_card_frame(img, box, side, lions_word if side == LIONS else hunters_word)
    return img


# ---------------------------------------------------------------- the position and the turn


def _at(img: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Paste ``sprite`` centred on ``xy``."""
    paste(img, sprite, (xy[0] - sprite.width // 2, xy[1] - sprite.height // 2))


def _draw_path(img: Image.Image, path: Sequence[int], style: str) -> None:
    for a, b in pairwise(path):
        sprite, xy = _trail(a, b, style)
        paste(img, sprite, xy)
    if style == "now":
        for c in path[1:-1]:  # the circles passed on the way
            _at(img, _joint(18), centre(c))


def _draw_turn(img: Image.Image, state: LionsState, lions: int, hunters: int, built: Built) -> None:
    """The last turn faint, captures crossed, the turn being built as a gold trail with its targets, the pieces,
    the picked piece ringed and the pushed pieces badged."""
    if state.last_seat is not None:
        for path in state.last_paths:
            _draw_path(img, path, state.side_of(state.last_seat))
    for c in (*state.last_taken, *(c for c, _own in built.taken)):
        _at(img, red_cross(46), centre(c))
    playing = not state.finished and state.draw_offer is None
    for path in state.segments if playing else ():
        _draw_path(img, path, "now")
        if len(path) > 1:
            _at(img, round_ring(2 * R + 12, GOLD, 150), centre(path[0]))
    if playing and built.current:
        for action in ENGINE.legal_actions(state):
            if action.kind == "step":
                _at(img, dashed_ring(2 * R + 14, GOLD), centre(int(action.code[1:])))
    for side, mask in ((LIONS, lions), (HUNTERS, hunters)):
        for c in bits(mask):
            _put(img, side, PIECE, centre(c))
    if playing and built.current:
        _at(img, round_ring(PIECE + 14, GOLD, 255, 5), centre(built.current[-1]))
    if playing and state.push_on:  # rule 6: who must move first (while still on its circle)
        must = pushed(*sides(state)) & built.mover & ~built.moved
        for c in bits(must):
            (x, y), (lx, ly) = centre(c), label_spots()[c]
            n = math.dist((x, y), (lx, ly))
            _at(img, round_ring(PIECE + 6, PUSH, 255, 3), (x, y))
            _at(img, _push_badge(28), (round(x - (lx - x) / n * 34), round(y - (ly - y) / n * 34)))  # off its name


def _draw_push(img: Image.Image, d: ImageDraw.ImageDraw, word: str) -> None:
    """The push rule is on: a badge and its word on the sand left of the middle."""
    x, y = (round(v) for v in grid_px(*PUSH_AT))
    fnt = fit_font(word, 1.5 * P, 24, bold=True)
    box = pill(d, (x + 20, y), word, fnt, PUSH, (255, 255, 255), anchor="m", pad=(12, 5),
               max_width=1.6 * P)
    _at(img, _push_badge(34), (box[0] - 20, y))


def _draw_card(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: LionsState, left: int,
               names: Sequence[str], labels: Mapping[str, str]) -> None:
    """A card's live part: the turn / winner / draw pill and ring, the name, the pieces left of six."""
    x0, y0, x1, y1 = box
    pw = x1 - x0
    won, _ = seat_standing(state, seat)
    current = state.current_player == seat  # during a draw offer: the side that must answer it (rule 9)
    drawn = state.finished and state.winner is None
    mark_card(img, box, RADIUS, won, current, state.finished and not drawn)
    right = x1 - 10
    if current or won or drawn:
        text = labels["winner" if won else "draw" if drawn else "turn"]
        fnt = fit_font(text, pw * 0.35, 24, bold=True)
        right = pill(d, (right, y0 + HEADER_H // 2 - 1), text, fnt, GOLD, INK, anchor="r", pad=(9, 4),
                     max_width=pw * 0.4)[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 56, 24)
    d.text((x0 + 52, y0 + HEADER_H // 2), text, font=fnt, fill=INK, anchor="lm")
    side, cy = state.side_of(seat), y0 + HEADER_H + (y1 - y0 - HEADER_H) // 2
    for k in range(PIECES):  # the pieces still on the board, then the lost ones faded
        _put(img, side, 30, (x1 - 266 + k * 34, cy), faded=k >= left)
    d.text((x1 - 16, cy + 1), f"{left}/{PIECES}", font=font(24, True), fill=INK, anchor="rm")


def _backdrop(state: LionsState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    return _base(state.options.lions_seat, labels["lions"], labels["hunters"])


def _compose(state: LionsState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    img = _backdrop(state, labels).copy()
    d = TextDraw(img)
    built = build(state)  # the position after the steps so far
    lions, hunters = (built.mover, built.opp) if state.side == LIONS else (built.opp, built.mover)
    _draw_turn(img, state, lions, hunters, built)
    if built.push_on and not state.finished:  # a finished game has no rule left to push by
        _draw_push(img, d, labels["push"])
    counts = {LIONS: lions.bit_count(), HUNTERS: hunters.bit_count()}
    for seat, box in enumerate(_cards()[0]):
        _draw_card(img, d, box, seat, state, counts[state.side_of(seat)], names, labels)
    return img


def _sample_game() -> list[tuple[LionsState, Sequence[Event]]]:
    """A seeded game of random steps (never an offer or resignation), then the same position finished
    with a winner and drawn, and with the push rule on: what the palette must cover."""
    game = random_game(ENGINE, LionsOptions(), 2, "3" * 64, random.Random(3), 400, skip=("offer", "resign"))
    last = game[-1][0]
    for change in ({"finished": True, "winner": 0}, {"finished": True, "winner": None}, {"push_on": True}):
        game.append((replace(last, **change), ()))
    return game


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """The fixed palette, fitted once to a sample game and the colours marks must keep."""
    game = _sample_game()
    n = len(game)
    keep = [GOLD, RED, INK, LIGHT, SPOT, SAND, LINE, CAVE, LION, MANE, HUNTER, HAT, PUSH, *SIDE_INK.values()]
    return fitted_palette(_compose, game, (n // 5, n // 2, n - 4, n - 3, n - 2, n - 1), LABEL_KEYS,
                          [colour_strip(keep, W)])


def render_board(state: LionsState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The board of an «Охота на львов» game as PNG bytes (1024 px wide).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS`; a missing key raises KeyError. ``events`` are accepted for the common
    renderer API and not needed: the state itself carries the last turn and the one being built.
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(), compress_level=COMPRESS,
                  backdrop=_backdrop(state, labels))
