"""The «Тише едешь — дальше будешь» board: 100 numbered circles on a 10 × 10 serpentine path
(1 bottom-left, 100 top-left) with the special circles coloured and marked, the band of
checkers off the board, the last throw, a legend, and one panel per player (marker, name,
both checkers' circles, missed turns, whose turn, who won).

``render_board(state, names, labels, events)`` returns PNG bytes. The static picture (board,
circles, connectors, legend, empty cards) is drawn once per (seats, legend words) and cached;
each call pastes checkers, arrows, dice and panel text on a copy and maps it to a fixed
palette fitted once per seat count to a sample game (fast, and deterministic).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby, pairwise

from PIL import Image, ImageDraw

from engines import tishe as rules
from engines.base import Action, Event
from engines.tishe import HOME, OFF, PHASE_CHOOSE, TisheState
from render.canvas import paste, rounded_mask
from render.cards import mark_card, panel_grid, player_card, seat_standing, shadowed_card, turn_line, wood_frame
from render.dice import draw_die
from render.marks import dashed_ring, paste_ring
from render.pieces import draw_crowd, marker_image, numbered_token
from render.places import MEDALS, final_places, place_badge
from render.png import colour_strip, fitted_palette, random_game, to_png
from render.theme import BG, CARD, FELT_DARK, FELT_MUTED, FELT_TEXT, GOLD, INK, LIGHT, RED, RGB, SS, Box, player
from render.typeset import TextDraw, ellipsize, fit_font, font, pill, require_labels, seat_name, wrap_text

# legend texts (cell_*), the band caption, the word over circle 100, the missed-turns badge word
# (drawn as "<missed> <n>"), and the pills of the player to move and of the winner
LABEL_KEYS: tuple[str, ...] = ("cell_zero", "cell_one", "cell_seven", "cell_five", "cell_double", "off_board", "finish",
                               "missed", "turn", "winner")
_STATIC_KEYS = ("cell_zero", "cell_one", "cell_seven", "cell_five", "cell_double", "off_board", "finish")

W = 1024
MARGIN = 20
CELL = 70  # one circle's square on the board
DOT = 58  # a circle's diameter
PAD = 12  # board frame to the first circle's square
BAND_H = 58  # the off-board band under the circles
SLOT = 36  # a checker in the band
GAP = 14
RADIUS = 16
HEADER_H = 44
PANEL_H = 100
BOARD: Box = (MARGIN, MARGIN, MARGIN + 10 * CELL + 2 * PAD, MARGIN + 10 * CELL + 2 * PAD + 8 + BAND_H)
GRID_X, GRID_Y = MARGIN + PAD, MARGIN + PAD
BAND: Box = (GRID_X, GRID_Y + 10 * CELL + 6, BOARD[2] - PAD, GRID_Y + 10 * CELL + 6 + BAND_H)
COLUMN_X = BOARD[2] + GAP
DICE_CARD: Box = (COLUMN_X, MARGIN, W - MARGIN, MARGIN + 206)
LEGEND_CARD: Box = (COLUMN_X, DICE_CARD[3] + GAP, W - MARGIN, BOARD[3])
DIE = 80
COMPRESS = 4  # zlib level: 6 costs ~12 ms on this busy board for 7 % fewer bytes
COLORS = 64  # palette entries: a hundred anti-aliased circles make every extra shade cost bytes

PAPER: RGB = (238, 228, 204)
PATH: RGB = (212, 194, 158)
PATH_DARK: RGB = (168, 140, 98)
BAND_FILL: RGB = (220, 206, 176)
VIOLET: RGB = (118, 78, 190)
MUTED_INK: RGB = (112, 104, 92)

# what a direct landing does -> (fill, outline, number ink, glyph under the number)
_STYLE: dict[str, tuple[RGB, RGB, RGB, str]] = {
    "plain": ((252, 248, 238), (150, 136, 110), INK, ""),
    rules.RULE_SEVENTEEN: ((252, 248, 238), (150, 136, 110), INK, "±0"),
    rules.RULE_ZERO: ((62, 66, 80), (22, 22, 28), (244, 244, 244), "✕"),
    rules.RULE_ONE: ((186, 226, 166), (54, 116, 52), INK, "+3"),
    rules.RULE_SEVEN: ((250, 186, 168), (166, 62, 48), INK, "−3"),
    "five": ((255, 228, 140), (170, 118, 14), INK, "◉"),
    "finish": (GOLD, (150, 100, 0), INK, "⚑"),
}


def _kind(n: int) -> tuple[str, bool]:
    """What a checker coming straight onto circle ``n`` meets: a rule (or five/plain/finish), and a double."""
    if n == HOME:
        return "finish", False
    where = rules.land(OFF, n)
    if where.rule is None and rules.is_five_circle(n):
        return "five", where.double
    return where.rule or "plain", where.double


def centre(n: int) -> tuple[int, int]:
    """The centre of circle ``n`` (1..100) on the serpentine: 1 bottom-left, 11 above 10, 100 top-left."""
    row, k = divmod(n - 1, 10)
    col = k if row % 2 == 0 else 9 - k
    return GRID_X + col * CELL + CELL // 2, GRID_Y + (9 - row) * CELL + CELL // 2


# ---------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class _Layout:
    height: int
    panels: tuple[Box, ...]
    slots: tuple[tuple[int, int], ...]  # band: top-left of checker slot 2 * seat + i


@lru_cache(maxsize=8)
def _layout(seats: int) -> _Layout:
    cols = {2: 2, 3: 3, 4: 2}.get(seats, 3)
    panels, height = panel_grid(seats, cols, BOARD[3] + GAP + 4, PANEL_H, W, MARGIN, GAP)
    pair, between = 2 * SLOT + 4, 14
    x = BAND[2] - 10 - (seats * pair + (seats - 1) * between)
    y = (BAND[1] + BAND[3]) // 2 - SLOT // 2
    slots = tuple((x + s * (pair + between) + i * (SLOT + 4), y) for s in range(seats) for i in range(2))
    return _Layout(height, panels, slots)


# ---------------------------------------------------------------- cached art


@lru_cache(maxsize=256)
def _circle(n: int, size: int = DOT) -> Image.Image:
    """Circle ``n`` as an RGBA sprite ``size`` + 4 px square: fill and ring by its rule, the
    number, a glyph for the rule, two violet bars and a violet ring for a double number."""
    kind, double = _kind(n)
    fill, line, ink, glyph = _STYLE[kind]
    k = size / DOT
    s = (size + 4) * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, r = s / 2, size * SS / 2
    ring = VIOLET if double else line
    width = round((5 if double or kind in ("five", "finish") else 2.5) * k * SS)
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*ring, 255))
    ri = r - width
    d.ellipse((c - ri, c - ri, c + ri, c + ri), fill=(*fill, 255))
    if rules.is_five_circle(n) and kind != rules.RULE_ZERO:  # a second, inner ring: room for one
        rr = ri - 3 * k * SS
        d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=(*_STYLE["five"][1], 255), width=round(2 * k * SS))
    number = font(round((20 if n == HOME else 23) * k) * SS, True)
    dy = 0.0 if not glyph else -5 * k * SS
    if n == HOME:
        d.text((c, c + 12 * k * SS), "100", font=number, fill=(*ink, 255), anchor="mm")
        d.text((c, c - 9 * k * SS), glyph, font=font(round(22 * k) * SS, True), fill=(*ink, 255), anchor="mm")
    else:
        d.text((c, c + dy), str(n), font=number, fill=(*ink, 255), anchor="mm")
        if glyph:
            d.text((c, c + 15 * k * SS), glyph, font=font(round(12 * k) * SS, True), fill=(*ink, 255), anchor="mm")
    if double:  # pause bars over the number
        bw, bh, y0 = 2.6 * k * SS, 7 * k * SS, c - 22 * k * SS
        for x in (c - 5 * k * SS, c + 2.4 * k * SS):
            d.rectangle((x, y0, x + bw, y0 + bh), fill=(*VIOLET, 255))
    return img.reduce(SS)


def _draw_board(img: Image.Image, seats: int, words: Mapping[str, str]) -> None:
    x0, y0, _x1, _y1 = BOARD
    wood_frame(img, BOARD, 22, 6, 16, paper=PAPER, shadow=True)
    d = ImageDraw.Draw(img)
    for n in range(1, HOME):  # the path: a faint band between neighbours, and which way it runs
        (ax, ay), (bx, by) = centre(n), centre(n + 1)
        d.line((ax, ay, bx, by), fill=PATH, width=10)
        arrow = "▴" if ax == bx else "▸" if bx > ax else "◂"  # which way the path runs
        d.text(((ax + bx) / 2, (ay + by) / 2), arrow, font=font(13), fill=PATH_DARK, anchor="mm")
    for n in range(1, HOME + 1):
        sprite = _circle(n)
        cx, cy = centre(n)
        paste(img, sprite, (cx - sprite.width // 2, cy - sprite.height // 2))
    text = words["finish"]
    fnt = fit_font(text, 3 * CELL, 17, 12, bold=True)
    pill(d, (x0 + 14, y0 + 1), text, fnt, INK, GOLD, pad=(8, 2), max_width=3 * CELL)
    # the band of checkers off the board
    bx0, by0, bx1, by1 = BAND
    img.paste(BAND_FILL, BAND, rounded_mask(bx1 - bx0, by1 - by0, 12))
    lay = _layout(seats)
    room = lay.slots[0][0] - bx0 - 24
    text = words["off_board"]
    fnt = fit_font(text, room, 22, 14, bold=True)
    d.text((bx0 + 14, (by0 + by1) // 2), ellipsize(text, fnt, room), font=fnt, fill=MUTED_INK, anchor="lm")
    for x, y in lay.slots:
        d.ellipse((x + 2, y + 2, x + SLOT - 2, y + SLOT - 2), outline=PATH_DARK, width=2)


def _draw_legend(img: Image.Image, words: Mapping[str, str]) -> None:
    x0, y0, x1, y1 = LEGEND_CARD
    shadowed_card(img, LEGEND_CARD, CARD, RADIUS)
    d = ImageDraw.Draw(img)
    rows: tuple[tuple[str | None, tuple[int, ...]], ...] = (
        ("cell_zero", (30,)), ("cell_one", (21,)), ("cell_seven", (27,)), (None, (17, 71)), ("cell_five", (25,)),
        ("cell_double", (22,)), ("finish", (HOME,)))
    step = (y1 - y0 - 16) // len(rows)
    fnt = font(19)
    for i, (key, numbers) in enumerate(rows):
        cy = y0 + 8 + step * i + step // 2
        for j, n in enumerate(numbers):
            sprite = _circle(n, 46)
            paste(img, sprite, (x0 + 10 + j * 52, cy - sprite.height // 2))
        if key is None:  # 17 and 71 hold both a 1 and a 7: the checker stays
            d.text((x0 + 118, cy), "±0", font=font(26, True), fill=INK, anchor="lm")
            continue
        lines = wrap_text(words[key], fnt, x1 - x0 - 74, 3)
        for j, line in enumerate(lines):
            d.text((x0 + 64, cy + (j - (len(lines) - 1) / 2) * 23), line, font=fnt, fill=INK, anchor="lm")


@lru_cache(maxsize=16)
def _base(seats: int, words: tuple[str, ...]) -> Image.Image:
    """The static picture for (seats, legend words): everything that never moves."""
    lay = _layout(seats)
    by_key = dict(zip(_STATIC_KEYS, words, strict=True))
    img = Image.new("RGB", (W, lay.height), BG)
    _draw_board(img, seats, by_key)
    _draw_legend(img, by_key)
    wood_frame(img, DICE_CARD, RADIUS, 6, RADIUS - 4)
    for seat, box in enumerate(lay.panels):
        player_card(img, box, seat, RADIUS, HEADER_H)
    return img


# ---------------------------------------------------------------- checkers, arrows, marks


# token size and offsets from a circle's centre for 1, 2, 3, 4 and more checkers sharing it
_STACKS: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = (
    (50, ((0, 0),)), (40, ((-10, -9), (10, 9))), (34, ((-12, -11), (12, -11), (0, 12))),
    (30, ((-12, -12), (12, -12), (-12, 12), (12, 12))), (24, tuple((x, y) for y in (-17, 0, 17) for x in (-17, 0, 17))))


def _draw_checkers(img: Image.Image, d: ImageDraw.ImageDraw, state: TisheState, lay: _Layout,
                   marked: set[tuple[int, int]]) -> None:
    groups: dict[int, list[tuple[int, int]]] = {}
    for slot, pos in enumerate(state.checkers):
        seat, i = divmod(slot, 2)
        if pos == OFF:
            x, y = lay.slots[slot]
            paste(img, numbered_token(seat, i + 1, SLOT), (x, y))
            if (seat, i) in marked:  # just taken off: a red ring
                d.ellipse((x - 4, y - 4, x + SLOT + 4, y + SLOT + 4), outline=RED, width=3)
        else:
            groups.setdefault(pos, []).append((seat, i))
    for pos, who in sorted(groups.items()):
        draw_crowd(img, d, centre(pos), who, *_STACKS[min(len(who), 5) - 1])


def _bezier(p0: tuple[float, float], p1: tuple[float, float], bend: float) -> list[tuple[float, float]]:
    (x0, y0), (x1, y1) = p0, p1
    dx, dy = x1 - x0, y1 - y0
    dist = math.hypot(dx, dy) or 1.0
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    nx, ny = dy / dist, -dx / dist
    bx, by = GRID_X + 5 * CELL - mx, GRID_Y + 5 * CELL - my
    if nx * bx + ny * by < 0:  # bulge toward the middle of the board, never off it
        nx, ny = -nx, -ny
    cx, cy = mx + nx * bend * dist, my + ny * bend * dist
    steps = max(8, int(dist / 4))
    ts = [k / steps for k in range(steps + 1)]
    return [((1 - t) ** 2 * x0 + 2 * (1 - t) * t * cx + t * t * x1,
             (1 - t) ** 2 * y0 + 2 * (1 - t) * t * cy + t * t * y1) for t in ts]


def _lengths(points: list[tuple[float, float]]) -> list[float]:
    out = [0.0]
    for a, b in pairwise(points):
        out.append(out[-1] + math.dist(a, b))
    return out


def _trim(points: list[tuple[float, float]], start: float, end: float) -> list[tuple[float, float]]:
    """Drop about ``start`` px of length from the front of a (densely sampled) polyline and ``end`` px from its back."""
    cum = _lengths(points)
    kept = [p for p, c in zip(points, cum, strict=True) if start <= c <= cum[-1] - end]
    return kept if len(kept) > 1 else points[len(points) // 2 - 1:len(points) // 2 + 1]


def _corners(points: list[tuple[float, float]], turn: float = 0.2) -> list[tuple[float, float]]:
    """The inner points of a polyline where it turns by more than ``turn`` radians (~11°): the only
    joints a wide line shows a notch at (a curve sampled every few px turns by a degree or two)."""
    out = []
    for (ax, ay), (bx, by), (cx, cy) in zip(points, points[1:], points[2:], strict=False):
        ux, uy, vx, vy = bx - ax, by - ay, cx - bx, cy - by
        if abs(math.atan2(ux * vy - uy * vx, ux * vx + uy * vy)) > turn:
            out.append((bx, by))
    return out


def _draw_arrow(img: Image.Image, path: list[tuple[float, float]], colour: RGB, width: int,
                dashed: bool = False) -> None:
    """A polyline with a head at its end, in ``colour`` outlined in ink, anti-aliased (2× drawn)."""
    k = 2
    xs, ys = [p[0] for p in path], [p[1] for p in path]
    m = width + 16
    ox, oy = int(min(xs)) - m, int(min(ys)) - m
    layer = Image.new("RGBA", ((int(max(xs)) + m - ox) * k, (int(max(ys)) + m - oy) * k), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    pts = [((x - ox) * k, (y - oy) * k) for x, y in path]
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    ang = math.atan2(by - ay, bx - ax)
    head_l, head_w = (width * 2.4 + 6) * k, (width * 1.5 + 4) * k
    tip = (bx + math.cos(ang) * head_l * 0.25, by + math.sin(ang) * head_l * 0.25)
    base = (tip[0] - math.cos(ang) * head_l, tip[1] - math.sin(ang) * head_l)
    head = [tip, (base[0] - math.sin(ang) * head_w, base[1] + math.cos(ang) * head_w),
            (base[0] + math.sin(ang) * head_w, base[1] - math.cos(ang) * head_w)]
    runs = [pts]
    if dashed:  # dashes of 11 px with 7 px gaps
        on = [(c / k) % 18 < 11 for c in _lengths(pts)]
        runs = [[p for p, _ in grp] for dash, grp in groupby(zip(pts, on, strict=True), key=lambda x: x[1]) if dash]
    for colour_, extra in ((INK, 4 * k), (colour, 0)):
        w = width * k + extra
        for run in runs:
            if len(run) > 1:  # round joints only where the run turns: elsewhere they would not show
                d.line(run, fill=(*colour_, 255), width=w)
                for x, y in _corners(run):
                    d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=(*colour_, 255))
    d.polygon(head, fill=(*colour, 255), outline=(*INK, 255), width=2 * k)
    paste(img, layer.reduce(k), (ox, oy))


def _cross(d: ImageDraw.ImageDraw, n: int) -> None:
    cx, cy = centre(n)
    r = 17
    for w, c in ((11, INK), (6, RED)):
        d.line((cx - r, cy - r, cx + r, cy + r), fill=c, width=w)
        d.line((cx - r, cy + r, cx + r, cy - r), fill=c, width=w)


def _fresh_move(state: TisheState, events: Sequence[Event]) -> bool:
    """Whether the last move belongs to the last action (without events: assume so)."""
    if len(state.last_move) != 5:
        return False
    return not events or any(e.kind in ("move", "enter") for e in events)


def _draw_move(img: Image.Image, d: ImageDraw.ImageDraw, state: TisheState, lay: _Layout) -> None:
    seat, index, start, direct, final = state.last_move
    colour = player(seat).colour
    r = DOT / 2 + 2
    if start == OFF:
        sx, sy = lay.slots[2 * seat + index]
        p0 = (sx + SLOT / 2, sy + SLOT / 2)
        path, skip = _bezier(p0, centre(direct), 0.18), SLOT / 2
    elif direct <= start:  # counted back from 100 (rule 9): via 100
        path = _bezier(centre(start), centre(HOME), 0.12)[:-1] + _bezier(centre(HOME), centre(direct), 0.12)
        skip = r
    else:
        path, skip = _bezier(centre(start), centre(direct), 0.2), r
    _draw_arrow(img, _trim(path, skip, r), colour, 7)
    if final == OFF:
        _cross(d, direct)
    elif final != direct:
        _draw_arrow(img, _trim(_bezier(centre(direct), centre(final), 0.35), r - 6, r), colour, 3, dashed=True)


def _draw_options(img: Image.Image, state: TisheState, actions: Sequence[Action]) -> None:
    """The circles the waiting throw can reach: a dashed ring and the checker's number."""
    for action in actions:
        number, where = _option(state, action)
        cx, cy = centre(where.final or where.direct)  # taken off: ring the circle that does it
        ghost = dashed_ring(DOT + 12, player(state.turn).colour, dash=19 / 30)
        paste(img, ghost, (cx - ghost.width // 2, cy - ghost.height // 2))
        paste(img, numbered_token(state.turn, number, 24), (cx + DOT // 2 - 18, cy - DOT // 2 - 6))


def _option(state: TisheState, action: Action) -> tuple[int, rules.Landing]:
    """(checker number from 1, where it would land) of a legal move of the waiting throw."""
    own = state.of(state.turn)
    index = own.index(OFF) if action.kind == "enter" else int(action.args["checker"]) - 1
    return index + 1, rules.land(own[index], sum(state.dice))


# ---------------------------------------------------------------- dice card and panels


def _draw_dice(img: Image.Image, d: ImageDraw.ImageDraw, state: TisheState, names: Sequence[str],
               labels: Mapping[str, str], actions: Sequence[Action]) -> None:
    x0, y0, x1, y1 = DICE_CARD
    dice = state.last_dice if len(state.last_dice) == 2 else (0, 0)
    dy = y0 + 58
    boxes = [(x0 + 16 + i * (DIE + 10), dy, x0 + 16 + i * (DIE + 10) + DIE, dy + DIE) for i in range(2)]
    choosing = state.phase == PHASE_CHOOSE and not state.finished
    for value, box in zip(dice, boxes, strict=True):
        if choosing:
            paste_ring(img, DIE, DIE, round(DIE * 0.2), 5, GOLD, (box[0] - 5, box[1] - 5))
        draw_die(img, box, value or None)
    sx = (boxes[1][2] + x1 - 6) // 2
    if all(dice):
        text = "?" if choosing else str(sum(dice))
        fill, ink = (GOLD, INK) if choosing else (FELT_DARK, FELT_TEXT)
        d.ellipse((sx - 19, dy + DIE // 2 - 19, sx + 19, dy + DIE // 2 + 19), fill=fill)
        d.text((sx, dy + DIE // 2 + 1), text, font=font(24, True), fill=ink, anchor="mm")
    if state.last_seat is not None and all(dice):  # who threw
        text, fnt = seat_name(names, state.last_seat, x1 - x0 - 70, 22)
        paste(img, marker_image(state.last_seat, 28), (x0 + 16, y0 + 16))
        d.text((x0 + 52, y0 + 30), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    ry = y1 - 32
    if choosing:  # the choices of the waiting throw: checker -> circle
        parts = [(n, "✕" if w.final == OFF else str(w.final)) for n, w in (_option(state, a) for a in actions)]
        fnt = font(21, True)
        widths = [30 + 22 + round(fnt.getlength(t)) for _n, t in parts]
        x = (x0 + x1 - sum(widths) - 10 * (len(parts) - 1)) // 2
        for (number, text), w in zip(parts, widths, strict=True):
            paste(img, numbered_token(state.turn, number, 28), (x, ry - 14))
            d.text((x + 31, ry), "→", font=font(18, True), fill=FELT_MUTED, anchor="lm")
            d.text((x + 52, ry), text, font=fnt, fill=LIGHT, anchor="lm")
            x += w + 10
        return
    seat = state.winner if state.finished else state.turn
    if seat is None:
        return
    turn_line(img, d, (x0 + 16, ry), labels["winner" if state.finished else "turn"], seat, names, x1 - 12, 170)


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: TisheState,
                names: Sequence[str], labels: Mapping[str, str], place: int | None) -> None:
    x0, y0, x1, y1 = box
    pw, ph = x1 - x0, y1 - y0
    won, current = seat_standing(state, seat)
    mark_card(img, box, RADIUS, won, current, state.finished)
    if won:
        img.paste(GOLD, (x0, y0 + HEADER_H - 4, x1, y0 + HEADER_H + 1))
    # header: the name, and the status pill on the right
    right = x1 - 10
    if place is not None:  # the game is over: every seat's place
        right = place_badge(img, d, (right, y0 + HEADER_H // 2), place)[0] - 8
    badges = []
    if current or won:
        badges.append((labels["winner" if won else "turn"], GOLD, INK))
    if state.missed[seat]:  # turns still to miss (rule 7)
        badges.append((f"{labels['missed']} {state.missed[seat]}", VIOLET, LIGHT))
    for text, fill, ink in badges:
        fnt = fit_font(text, pw * 0.4 / len(badges), 19, 13, bold=True)
        pbox = pill(d, (right, y0 + HEADER_H // 2 - 1), text, fnt, fill, ink, anchor="r", pad=(9, 4),
                    max_width=pw * 0.45 / len(badges))
        right = pbox[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 52, 24)
    d.text((x0 + 50, y0 + HEADER_H // 2), text, font=fnt, fill=INK, anchor="lm")
    # body: both checkers and their circles, then turns still to miss
    cy = y0 + HEADER_H + (ph - HEADER_H) // 2
    num = font(26, True)
    x = x0 + 12
    for i, pos in enumerate(state.of(seat)):
        paste(img, numbered_token(seat, i + 1, 32), (x, cy - 16))
        text = "—" if pos == OFF else str(pos)
        d.text((x + 38, cy + 1), text, font=num, fill=INK if pos else MUTED_INK, anchor="lm")
        x += 38 + max(48, round(num.getlength(text))) + 16


def _compose(state: TisheState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    lay = _layout(state.seats)
    img = _base(state.seats, tuple(labels[k] for k in _STATIC_KEYS)).copy()
    d = TextDraw(img)
    fresh = _fresh_move(state, events)
    marked = {(e.seat, int(e.data.get("checker", 0))) for e in events if e.kind == "bump" and e.seat is not None}
    if fresh and state.last_move[4] == OFF:
        marked.add((state.last_move[0], state.last_move[1]))
    choosing = state.phase == PHASE_CHOOSE and not state.finished
    actions = rules.move_actions(state, state.turn, state.dice) if choosing else []
    if actions:
        _draw_options(img, state, actions)
    _draw_checkers(img, d, state, lay, marked)
    if fresh:
        _draw_move(img, d, state, lay)
    _draw_dice(img, d, state, names, labels, actions)
    places = final_places(rules.ENGINE, state)
    for seat, box in enumerate(lay.panels):
        _draw_panel(img, d, box, seat, state, names, labels, places.get(seat))
    return img


@lru_cache(maxsize=8)
def _palette(seats: int) -> Image.Image:
    """The fixed palette for a seat count, fitted once to a sample game drawn in full colour and to the
    colours marks must keep, merged down to :data:`COLORS`."""
    game = random_game(rules.ENGINE, rules.TisheOptions(both_home=True), seats, "5" * 64, random.Random(seats), 600)
    n = len(game)
    keep = [GOLD, RED, INK, LIGHT, VIOLET, PAPER, *MEDALS, *(player(s).colour for s in range(seats))]
    return fitted_palette(_compose, game, (n // 4, n // 2, 3 * n // 4, n - 1), LABEL_KEYS,
                          [colour_strip(keep, W)], COLORS)


def render_board(state: TisheState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The board of a «тише едешь» game as PNG bytes (1024 px wide; 2–6 players).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS` (the bot fills them from its locale); a missing key raises KeyError.
    ``events`` are those of the last action: with them the last move's arrow is drawn only
    when that action moved a checker, and checkers just taken off are ringed in red.
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(state.seats), compress_level=COMPRESS)
