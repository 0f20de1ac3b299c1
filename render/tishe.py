"""The «Тише едешь — дальше будешь» board: 100 numbered circles on a 10 × 10 serpentine path
(1 bottom-left, 100 top-left) with the special circles coloured and marked, the band of
checkers off the board, and below it the last throw, a legend, and one panel per player (marker,
name, both checkers' circles, missed turns, whose turn, who won). The board takes the picture's
whole width and every label a player needs stands 18 px tall in capitals (issue #24: a phone
shows the picture about 390 px wide).

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
from render.tishe_arrows import draw_path_arrow, trim
from render.typeset import (
    TextDraw,
    decoration,
    ellipsize,
    fit_font,
    font,
    pill,
    require_labels,
    scaled_draw,
    seat_name,
    wrap_text,
)

# legend texts (cell_*), the band caption, the word over circle 100, the missed-turns badge word
# (drawn as "<missed> <n>"), and the pills of the player to move and of the winner
LABEL_KEYS: tuple[str, ...] = ("cell_zero", "cell_one", "cell_seven", "cell_five", "cell_double", "off_board", "finish",
                               "missed", "turn", "winner")
_STATIC_KEYS = ("cell_zero", "cell_one", "cell_seven", "cell_five", "cell_double", "off_board", "finish")

W = 1024
MARGIN = 20
CELL = 96  # one circle's square: ten of them take the picture's width (issue #24)
DOT = 80  # a circle's diameter
NUMBER = 32  # a circle's number, px: 23-px capitals
GLYPH = 25  # the sign of a circle's rule under its number: 18-px capitals (drawn SS times larger)
PAD = 12  # board frame to the first circle's square
BAND_H = 64  # the off-board band under the circles
SLOT = 48  # a checker in the band
GAP = 14
RADIUS = 16
HEADER_H = 50
PANEL_H = 104
BOARD: Box = (MARGIN, MARGIN, MARGIN + 10 * CELL + 2 * PAD, MARGIN + 10 * CELL + 2 * PAD + 8 + BAND_H)
GRID_X, GRID_Y = MARGIN + PAD, MARGIN + PAD
BAND: Box = (GRID_X, GRID_Y + 10 * CELL + 6, BOARD[2] - PAD, GRID_Y + 10 * CELL + 6 + BAND_H)
# the dice, the legend and the panels go below the board
DICE_CARD: Box = (MARGIN, BOARD[3] + GAP, W - MARGIN, BOARD[3] + GAP + 132)
LEGEND_CARD: Box = (MARGIN, DICE_CARD[3] + GAP, W - MARGIN, DICE_CARD[3] + GAP + 2 * (DOT + 10) + 20)
DIE = 84
PATH_SIGN = "which way the path runs between neighbours: their numbers say it too"
COMPRESS = 4  # zlib level of the bands drawn on (render/png_bands.py): 3 saves ~0.7 ms for 6 % more bytes
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
    panels, height = panel_grid(seats, cols, LEGEND_CARD[3] + GAP + 4, PANEL_H, W, MARGIN, GAP)
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
    d = scaled_draw(img, SS)
    c, r = s / 2, size * SS / 2
    ring = VIOLET if double else line
    width = round((5 if double or kind in ("five", "finish") else 2.5) * k * SS)
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*ring, 255))
    ri = r - width
    d.ellipse((c - ri, c - ri, c + ri, c + ri), fill=(*fill, 255))
    if rules.is_five_circle(n) and kind != rules.RULE_ZERO:  # a second, inner ring: room for one
        rr = ri - 3 * k * SS
        d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=(*_STYLE["five"][1], 255), width=round(2 * k * SS))
    number = font(round((NUMBER - 4 if n == HOME else NUMBER) * k) * SS, True)
    dy = 0.0 if not glyph else -10 * k * SS
    if n == HOME:
        d.text((c, c + 15 * k * SS), "100", font=number, fill=(*ink, 255), anchor="mm")
        d.text((c, c - 12 * k * SS), glyph, font=font(round(30 * k) * SS, True), fill=(*ink, 255), anchor="mm")
    else:
        d.text((c, c + dy), str(n), font=number, fill=(*ink, 255), anchor="mm")
        if glyph:
            d.text((c, c + 16 * k * SS), glyph, font=font(round(GLYPH * k) * SS, True), fill=(*ink, 255),
                   anchor="mm")
    if double:  # pause bars over the number
        bw, bh, y0 = 3.6 * k * SS, 8 * k * SS, c - 31 * k * SS
        for x in (c - 7 * k * SS, c + 3.4 * k * SS):
            d.rectangle((x, y0, x + bw, y0 + bh), fill=(*VIOLET, 255))
    return img.reduce(SS)


def _draw_board(img: Image.Image, seats: int, words: Mapping[str, str]) -> None:
    x0, y0, _x1, _y1 = BOARD
    wood_frame(img, BOARD, 22, 6, 16, paper=PAPER, shadow=True)
    d = ImageDraw.Draw(img)
    for n in range(1, HOME):  # the path: a faint band between neighbours, and which way it runs
        (ax, ay), (bx, by) = centre(n), centre(n + 1)
        d.line((ax, ay, bx, by), fill=PATH, width=12)
        arrow = "▴" if ax == bx else "▸" if bx > ax else "◂"  # which way the path runs
        with decoration(PATH_SIGN):
            d.text(((ax + bx) / 2, (ay + by) / 2), arrow, font=font(16), fill=PATH_DARK, anchor="mm")
    for n in range(1, HOME + 1):
        sprite = _circle(n)
        cx, cy = centre(n)
        paste(img, sprite, (cx - sprite.width // 2, cy - sprite.height // 2))
    text = words["finish"]
    fnt = fit_font(text, 3 * CELL, 24, bold=True)
    pill(d, (x0 + 14, y0 + 1), text, fnt, INK, GOLD, pad=(10, 2), max_width=3 * CELL)
    # the band of checkers off the board
    bx0, by0, bx1, by1 = BAND
    img.paste(BAND_FILL, BAND, rounded_mask(bx1 - bx0, by1 - by0, 12))
    lay = _layout(seats)
    room = lay.slots[0][0] - bx0 - 24
    text = words["off_board"]
    fnt = fit_font(text, room, 28, bold=True)
    d.text((bx0 + 14, (by0 + by1) // 2), ellipsize(text, fnt, room), font=fnt, fill=MUTED_INK, anchor="lm")
    for x, y in lay.slots:
        d.ellipse((x + 2, y + 2, x + SLOT - 2, y + SLOT - 2), outline=PATH_DARK, width=2)


def _draw_legend(img: Image.Image, words: Mapping[str, str]) -> None:
    """Six sample circles with what they do, three to a row (the finish is named on the board)."""
    x0, y0, x1, y1 = LEGEND_CARD
    shadowed_card(img, LEGEND_CARD, CARD, RADIUS)
    d = ImageDraw.Draw(img)
    rows: tuple[tuple[str | None, tuple[int, ...]], ...] = (
        ("cell_zero", (30,)), ("cell_one", (21,)), ("cell_seven", (27,)), ("cell_five", (25,)),
        ("cell_double", (22,)), (None, (17, 71)))
    col_w, row_h = (x1 - x0 - 20) // 3, (y1 - y0 - 20) // 2
    fnt = font(24)
    for i, (key, numbers) in enumerate(rows):
        left, cy = x0 + 10 + (i % 3) * col_w, y0 + 10 + (i // 3) * row_h + row_h // 2
        for j, n in enumerate(numbers):
            sprite = _circle(n)
            paste(img, sprite, (left + j * (DOT + 6), cy - sprite.height // 2))
        tx = left + len(numbers) * (DOT + 6) + 6
        if key is None:  # 17 and 71 hold both a 1 and a 7: the checker stays
            d.text((tx, cy), "±0", font=font(30, True), fill=INK, anchor="lm")
            continue
        lines = wrap_text(words[key], fnt, left + col_w - tx - 8, 3)
        for j, line in enumerate(lines):
            d.text((tx, cy + (j - (len(lines) - 1) / 2) * 27), line, font=fnt, fill=INK, anchor="lm")


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
    (68, ((0, 0),)), (54, ((-14, -12), (14, 12))), (46, ((-16, -15), (16, -15), (0, 16))),
    (40, ((-16, -16), (16, -16), (-16, 16), (16, 16))), (32, tuple((x, y) for y in (-23, 0, 23) for x in (-23, 0, 23))))


def _draw_checkers(img: Image.Image, d: ImageDraw.ImageDraw, state: TisheState, lay: _Layout,
                   marked: set[tuple[int, int]]) -> None:
    groups: dict[int, list[tuple[int, int]]] = {}
    for slot, pos in enumerate(state.checkers):
        seat, i = divmod(slot, 2)
        if pos == OFF:
            x, y = lay.slots[slot]
            paste(img, numbered_token(seat, i + 1, SLOT), (x, y))
            if (seat, i) in marked:  # just taken off: a red ring
                d.ellipse((x - 4, y - 4, x + SLOT + 4, y + SLOT + 4), outline=RED, width=4)
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


def _cross(d: ImageDraw.ImageDraw, n: int) -> None:
    cx, cy = centre(n)
    r = 23
    for w, c in ((14, INK), (8, RED)):
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
    draw_path_arrow(img, trim(path, skip, r), colour, 9)
    if final == OFF:
        _cross(d, direct)
    elif final != direct:
        draw_path_arrow(img, trim(_bezier(centre(direct), centre(final), 0.35), r - 6, r), colour, 4, dashed=True)


def _draw_options(img: Image.Image, state: TisheState, actions: Sequence[Action]) -> None:
    """The circles the waiting throw can reach: a dashed ring and the checker's number."""
    for action in actions:
        number, where = _option(state, action)
        cx, cy = centre(where.final or where.direct)  # taken off: ring the circle that does it
        ghost = dashed_ring(DOT + 12, player(state.turn).colour, dash=19 / 30)
        paste(img, ghost, (cx - ghost.width // 2, cy - ghost.height // 2))
        paste(img, numbered_token(state.turn, number, 34), (cx + DOT // 2 - 24, cy - DOT // 2 - 8))


def _option(state: TisheState, action: Action) -> tuple[int, rules.Landing]:
    """(checker number from 1, where it would land) of a legal move of the waiting throw."""
    own = state.of(state.turn)
    index = own.index(OFF) if action.kind == "enter" else int(action.args["checker"]) - 1
    return index + 1, rules.land(own[index], sum(state.dice))


# ---------------------------------------------------------------- dice card and panels


def _draw_dice(img: Image.Image, d: ImageDraw.ImageDraw, state: TisheState, names: Sequence[str],
               labels: Mapping[str, str], actions: Sequence[Action]) -> None:
    """Both dice and their sum; who threw, whose turn (or who won), and the waiting throw's choices."""
    x0, y0, x1, y1 = DICE_CARD
    dice = state.last_dice if len(state.last_dice) == 2 else (0, 0)
    dy = (y0 + y1 - DIE) // 2
    boxes = [(x0 + 22 + i * (DIE + 12), dy, x0 + 22 + i * (DIE + 12) + DIE, dy + DIE) for i in range(2)]
    choosing = state.phase == PHASE_CHOOSE and not state.finished
    for value, box in zip(dice, boxes, strict=True):
        if choosing:
            paste_ring(img, DIE, DIE, round(DIE * 0.2), 5, GOLD, (box[0] - 5, box[1] - 5))
        draw_die(img, box, value or None)
    sx, cy = boxes[1][2] + 38, (y0 + y1) // 2
    if all(dice):
        text = "?" if choosing else str(sum(dice))
        fill, ink = (GOLD, INK) if choosing else (FELT_DARK, FELT_TEXT)
        d.ellipse((sx - 24, cy - 24, sx + 24, cy + 24), fill=fill)
        d.text((sx, cy + 1), text, font=font(28, True), fill=ink, anchor="mm")
    tx, mx, top, low = sx + 44, (x0 + x1) // 2 + 70, y0 + 36, y1 - 36
    if state.last_seat is not None and all(dice):  # who threw
        text, fnt = seat_name(names, state.last_seat, mx - tx - 60, 26)
        paste(img, marker_image(state.last_seat, 28), (tx, top - 14))
        d.text((tx + 36, top), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    seat = state.winner if state.finished else state.turn
    if seat is not None:
        turn_line(img, d, (mx, top), labels["winner" if state.finished else "turn"], seat, names, x1 - 20, 200)
    x, fnt = tx, font(26, True)
    for number, where in (_option(state, a) for a in actions):  # the choices of the waiting throw
        text = "✕" if where.final == OFF else str(where.final)
        paste(img, numbered_token(state.turn, number, 34), (x, low - 17))
        d.text((x + 40, low), "→", font=font(24, True), fill=FELT_MUTED, anchor="lm")
        d.text((x + 70, low), text, font=fnt, fill=LIGHT, anchor="lm")
        x += 70 + round(fnt.getlength(text)) + 30


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
    if (current or won) and place is None:  # the winner's medal says it once the game is over
        badges.append((labels["winner" if won else "turn"], "", GOLD, INK))
    if state.missed[seat]:  # turns still to miss (rule 7)
        badges.append((labels["missed"], f" {state.missed[seat]}", VIOLET, LIGHT))
    fnt = font(24, True)
    for word, count, fill, ink in badges:  # the word may be cut, never the count
        text = ellipsize(word, fnt, pw * 0.5 / len(badges) - 18 - fnt.getlength(count)) + count
        right = pill(d, (right, y0 + HEADER_H // 2 - 1), text, fnt, fill, ink, anchor="r", pad=(9, 4))[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 52, 24)
    d.text((x0 + 50, y0 + HEADER_H // 2), text, font=fnt, fill=INK, anchor="lm")
    # body: both checkers and their circles, then turns still to miss
    cy = y0 + HEADER_H + (ph - HEADER_H) // 2
    num = font(28, True)
    x = x0 + 12
    for i, pos in enumerate(state.of(seat)):
        paste(img, numbered_token(seat, i + 1, 34), (x, cy - 17))
        text = "—" if pos == OFF else str(pos)
        d.text((x + 40, cy + 1), text, font=num, fill=INK if pos else MUTED_INK, anchor="lm")
        x += 40 + max(52, round(num.getlength(text))) + 18


def _backdrop(state: TisheState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    return _base(state.seats, tuple(labels[k] for k in _STATIC_KEYS))


def _compose(state: TisheState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    lay = _layout(state.seats)
    img = _backdrop(state, labels).copy()
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
    ``events`` are those of the actions since the table was last shown (on the fast table a run of
    throws and moves, in order): with them the last move's arrow is drawn only when they moved a
    checker, and checkers just taken off are ringed in red.
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(state.seats), compress_level=COMPRESS,
                  backdrop=_backdrop(state, labels))
