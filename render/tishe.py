"""The «Тише едешь — дальше будешь» board: 100 numbered circles on a 10 × 10 serpentine path
(1 bottom-left, 100 top-left) with the special circles coloured and marked and the band of
checkers off the board under them; beside the board a column of one panel per player, one under
another (marker and name; whose turn, missed turns; both checkers' circles; the place once the
game is over); below both, across the picture's width, the last throw and a legend.

The picture is 1024 px wide and at most 1280 tall, so a phone shows it whole above the buttons,
and every label a player needs still stands 18 px tall in capitals (a phone shows the picture about
390 px wide): a circle's number and the sign of its rule are set at that least size, and whatever
is drawn on or round a circle (checkers, rings, arrows, crosses) is measured from :data:`DOT`.

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
from render.cards import mark_card, player_card, seat_standing, shadowed_card, turn_line, wood_frame
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
GAP = 14
RADIUS = 16
CELL = 72  # one circle's square: the board is 744 px wide, the players' column beside it 230
DOT = 64  # a circle's diameter: what is drawn on or round a circle is measured from it
FINISH_DOT = 70  # circle 100 is larger: its "100" under the flag needs the room
NUMBER = 25  # a circle's number, px: 18-px capitals, as small as a label may be
GLYPH = 25  # the sign of a circle's rule under its number: 18-px capitals too
PAD = 10  # board frame to the first circle's square
BAND_H = 56  # the off-board band under the circles
SLOT = 40  # a checker in the band: twelve of them and the band's caption share its width
BOARD: Box = (MARGIN, MARGIN, MARGIN + 10 * CELL + 2 * PAD, MARGIN + 10 * CELL + 2 * PAD + 8 + BAND_H)
GRID_X, GRID_Y = MARGIN + PAD, MARGIN + PAD
BAND: Box = (GRID_X, GRID_Y + 10 * CELL + 6, BOARD[2] - PAD, GRID_Y + 10 * CELL + 6 + BAND_H)
# the players' panels, one under another beside the board: six of them fit its height
COLUMN: Box = (BOARD[2] + GAP, MARGIN, W - MARGIN, BOARD[3])
NAME_H = 42  # a panel's tinted line: marker, name, and the place once the game is over
HEADER_H = NAME_H + 36  # and its line of pills: whose turn, turns still to miss
PANEL_H = HEADER_H + 44  # and both checkers' circles
# the dice and the legend go below both, across the picture
DIE = 72
DICE_CARD: Box = (MARGIN, BOARD[3] + GAP, W - MARGIN, BOARD[3] + GAP + 108)
LEGEND_CARD: Box = (MARGIN, DICE_CARD[3] + GAP, W - MARGIN, DICE_CARD[3] + GAP + 2 * (DOT + 16) + 20)
HEIGHT = LEGEND_CARD[3] + MARGIN
PATH_SIGN = "which way the path runs between neighbours: their numbers say it too"
COMPRESS = 4  # zlib level of the bands drawn on (render/png_bands.py): 3 saves ~0.7 ms for 6 % more bytes
COLORS = 48  # palette entries: a hundred anti-aliased circles make every extra shade cost bytes (64: 7 % more)

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


def dot(n: int) -> int:
    """The diameter of circle ``n`` on the board."""
    return FINISH_DOT if n == HOME else DOT


# ---------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class _Layout:
    height: int
    panels: tuple[Box, ...]
    slots: tuple[tuple[int, int], ...]  # band: top-left of checker slot 2 * seat + i


@lru_cache(maxsize=8)
def _layout(seats: int) -> _Layout:
    """One panel a seat down the column from its top (every seat count keeps the picture's height), and
    the band's slots: each seat's pair from the right, the band's caption left of them."""
    x0, y0, x1, _y1 = COLUMN
    panels = tuple((x0, y0 + s * (PANEL_H + GAP), x1, y0 + s * (PANEL_H + GAP) + PANEL_H) for s in range(seats))
    pair, between = 2 * SLOT + 2, 8
    x = BAND[2] - 10 - (seats * pair + (seats - 1) * between)
    y = (BAND[1] + BAND[3]) // 2 - SLOT // 2
    slots = tuple((x + s * (pair + between) + i * (SLOT + 2), y) for s in range(seats) for i in range(2))
    return _Layout(HEIGHT, panels, slots)


# ---------------------------------------------------------------- cached art


@lru_cache(maxsize=256)
def _circle(n: int, size: int = DOT) -> Image.Image:
    """Circle ``n`` as an RGBA sprite ``size`` + 4 px square: fill and ring by its rule, the number, a
    glyph for the rule under it, a second gold ring for a number with a 5, and two violet bars and a
    violet ring for a double number. Drawn to :data:`DOT`'s measures and scaled to ``size`` (text
    included: at :data:`DOT` it is as small as a label may be)."""
    kind, double = _kind(n)
    fill, line, ink, glyph = _STYLE[kind]
    k = size / DOT * SS  # one px of the design at DOT, on the supersampled canvas
    s = (size + 4) * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = scaled_draw(img, SS)
    c, r = s / 2, size * SS / 2
    width = (4 if double or kind in ("five", "finish") else 2) * k
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*(VIOLET if double else line), 255))
    ri = r - width
    d.ellipse((c - ri, c - ri, c + ri, c + ri), fill=(*fill, 255))
    if rules.is_five_circle(n) and kind != rules.RULE_ZERO:  # just inside the ring: the middle holds the text
        rr = ri - 1.5 * k
        d.ellipse((c - rr, c - rr, c + rr, c + rr), outline=(*_STYLE["five"][1], 255), width=round(2 * k))
    number = font(round(NUMBER * size / DOT) * SS, True)
    if n == HOME:
        d.text((c, c + 7 * k), "100", font=number, fill=(*ink, 255), anchor="mm")
        d.text((c, c - 11 * k), glyph, font=number, fill=(*ink, 255), anchor="mm")
        return _crisp(img.reduce(SS))
    y = c - 9.5 * k if glyph else c  # the number, and the glyph 1 px under its foot
    d.text((c, y), str(n), font=number, fill=(*ink, 255), anchor="mm")
    if glyph:
        d.text((c, c + 11 * k), glyph, font=font(round(GLYPH * size / DOT) * SS, True), fill=(*ink, 255),
               anchor="mm")
    if double:  # pause bars over the number (its digits reach 10 px above y): lower when a glyph takes room
        bw, bh = 3.5 * k, (5 if glyph else 7) * k
        y0 = y - (11.5 if glyph else 13) * k - bh
        for x in (c - 6 * k, c + 2.5 * k):
            d.rectangle((x, y0, x + bw, y0 + bh), fill=(*VIOLET, 255))
    return _crisp(img.reduce(SS))


# a circle's edge on the paper in three shades, not seventeen: each shade of a hundred circles' edges costs
# bytes, and a phone shows the picture at a third of its size anyway
_EDGE = [0 if a < 64 else 255 if a >= 192 else 128 for a in range(256)]


def _crisp(sprite: Image.Image) -> Image.Image:
    sprite.putalpha(sprite.getchannel("A").point(_EDGE))
    return sprite


def _draw_board(img: Image.Image, seats: int, words: Mapping[str, str]) -> None:
    x0, y0, _x1, _y1 = BOARD
    wood_frame(img, BOARD, 22, 6, 16, paper=PAPER, shadow=True)
    d = ImageDraw.Draw(img)
    sign = font(round(DOT / 5))
    for n in range(1, HOME):  # the path: a faint band between neighbours, and which way it runs
        (ax, ay), (bx, by) = centre(n), centre(n + 1)
        d.line((ax, ay, bx, by), fill=PATH, width=round(DOT / 6))
        arrow = "▴" if ax == bx else "▸" if bx > ax else "◂"  # which way the path runs
        with decoration(PATH_SIGN):
            d.text(((ax + bx) / 2, (ay + by) / 2), arrow, font=sign, fill=PATH_DARK, anchor="mm")
    for n in range(1, HOME + 1):
        sprite = _circle(n, dot(n))
        cx, cy = centre(n)
        paste(img, sprite, (cx - sprite.width // 2, cy - sprite.height // 2))
    text = words["finish"]
    fnt = fit_font(text, 3 * CELL, 24, bold=True)
    pill(d, (x0 + 14, y0 + 1), text, fnt, INK, GOLD, pad=(10, 2), max_width=3 * CELL)
    _draw_band(img, d, seats, words["off_board"])


def _draw_band(img: Image.Image, d: ImageDraw.ImageDraw, seats: int, caption: str) -> None:
    """The band of checkers off the board: its caption (on two lines when one is too short) and every slot."""
    bx0, by0, bx1, by1 = BAND
    img.paste(BAND_FILL, BAND, rounded_mask(bx1 - bx0, by1 - by0, 12))
    lay = _layout(seats)
    room = lay.slots[0][0] - bx0 - 24
    fnt = fit_font(caption, room, 28, bold=True)
    lines = wrap_text(caption, fnt, room, 2)
    for j, line in enumerate(lines):
        y = (by0 + by1) / 2 + (j - (len(lines) - 1) / 2) * 24
        d.text((bx0 + 14, y), line, font=fnt, fill=MUTED_INK, anchor="lm")
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
        tx = left + len(numbers) * (DOT + 6) + 8
        if key is None:  # 17 and 71 hold both a 1 and a 7: the checker stays
            d.text((tx, cy), "±0", font=font(30, True), fill=INK, anchor="lm")
            continue
        lines = wrap_text(words[key], fnt, left + col_w - tx - 8, 3)
        for j, line in enumerate(lines):
            d.text((tx, cy + (j - (len(lines) - 1) / 2) * 26), line, font=fnt, fill=INK, anchor="lm")


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
        player_card(img, box, seat, RADIUS, NAME_H)
    return img


# ---------------------------------------------------------------- checkers, arrows, marks


def _stack(size: float, *offsets: tuple[float, float]) -> tuple[int, tuple[tuple[int, int], ...]]:
    """A token's size and its offsets from a circle's centre, given in circle diameters."""
    return round(size * DOT), tuple((round(x * DOT), round(y * DOT)) for x, y in offsets)


# token size and offsets for 1, 2, 3, 4 and more checkers sharing a circle: a pair fans out past the
# circle's ring (into the gap to its neighbours) so that both numbers show
_STACKS: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = (
    _stack(0.85, (0, 0)), _stack(0.7, (-0.25, -0.22), (0.25, 0.22)),
    _stack(0.58, (-0.22, -0.2), (0.22, -0.2), (0, 0.22)),
    _stack(0.5, *((x, y) for y in (-0.22, 0.22) for x in (-0.22, 0.22))),
    _stack(0.4, *((x, y) for y in (-0.33, 0, 0.33) for x in (-0.33, 0, 0.33))))
ARROW = round(DOT / 9)  # the last move's arrow, px wide; its rule's dashed second arrow is half that
OPTION = 30  # the numbered token by a circle a waiting throw can reach


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
    r = round(DOT * 0.29)
    for w, c in ((round(DOT / 6), INK), (round(DOT / 10), RED)):
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
    if start == OFF:
        sx, sy = lay.slots[2 * seat + index]
        p0 = (sx + SLOT / 2, sy + SLOT / 2)
        path, skip = _bezier(p0, centre(direct), 0.18), SLOT / 2
    elif direct <= start:  # counted back from 100 (rule 9): via 100
        path = _bezier(centre(start), centre(HOME), 0.12)[:-1] + _bezier(centre(HOME), centre(direct), 0.12)
        skip = _reach(start)
    else:
        path, skip = _bezier(centre(start), centre(direct), 0.2), _reach(start)
    draw_path_arrow(img, trim(path, skip, _reach(direct)), colour, ARROW)
    if final == OFF:
        _cross(d, direct)
    elif final != direct:
        draw_path_arrow(img, trim(_bezier(centre(direct), centre(final), 0.35), _reach(direct) - 6, _reach(final)),
                        colour, ARROW // 2, dashed=True)


def _reach(n: int) -> float:
    """How far from circle ``n``'s centre an arrow from or to it stops: just past its ring."""
    return dot(n) / 2 + 2


def _draw_options(img: Image.Image, state: TisheState, actions: Sequence[Action]) -> None:
    """The circles the waiting throw can reach: a dashed ring and the checker's number."""
    for action in actions:
        number, where = _option(state, action)
        n = where.final or where.direct  # taken off: ring the circle that does it
        cx, cy = centre(n)
        ghost = dashed_ring(dot(n) + 10, player(state.turn).colour, dash=19 / 30)
        paste(img, ghost, (cx - ghost.width // 2, cy - ghost.height // 2))
        paste(img, numbered_token(state.turn, number, OPTION), (cx + dot(n) // 2 - 18, cy - dot(n) // 2 - 8))


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
    tx, mx, top, low = sx + 44, (x0 + x1) // 2 + 70, y0 + 32, y1 - 32
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
    """A player's panel: the name (and the place once the game is over) on the tinted line, the pills
    under it, then both checkers and their circles."""
    x0, y0, x1, y1 = box
    won, current = seat_standing(state, seat)
    mark_card(img, box, RADIUS, won, current, state.finished)
    if won:
        img.paste(GOLD, (x0, y0 + NAME_H - 4, x1, y0 + NAME_H + 1))
    right = x1 - 10
    if place is not None:  # the game is over: every seat's place
        right = place_badge(img, d, (right, y0 + NAME_H // 2), place)[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 52, 24)
    d.text((x0 + 50, y0 + NAME_H // 2), text, font=fnt, fill=INK, anchor="lm")
    _draw_pills(d, box, seat, state, labels, (won or current) and place is None)
    cy = y0 + HEADER_H + (y1 - y0 - HEADER_H) // 2
    num = font(28, True)
    x = x0 + 12
    for i, pos in enumerate(state.of(seat)):
        paste(img, numbered_token(seat, i + 1, 34), (x, cy - 17))
        text = "—" if pos == OFF else str(pos)
        d.text((x + 40, cy + 1), text, font=num, fill=INK if pos else MUTED_INK, anchor="lm")
        x += 40 + max(52, round(num.getlength(text))) + 14


def _draw_pills(d: ImageDraw.ImageDraw, box: Box, seat: int, state: TisheState, labels: Mapping[str, str],
                standing: bool) -> None:
    """The line of a panel's pills under its name: whose turn or who won (``standing``: the winner's medal says
    it once the game is over) and turns still to miss (rule 7); a word may be cut to share the line, never
    the count."""
    x0, y0, x1, _y1 = box
    badges = []
    if standing:
        badges.append((labels["winner" if state.finished else "turn"], "", GOLD, INK))
    if state.missed[seat]:
        badges.append((labels["missed"], f" {state.missed[seat]}", VIOLET, LIGHT))
    fnt = font(24, True)
    x, room = x0 + 10, (x1 - x0 - 20) / max(1, len(badges)) - 8
    for word, count, fill, ink in badges:
        text = ellipsize(word, fnt, room - 18 - fnt.getlength(count)) + count
        x = pill(d, (x, y0 + (NAME_H + HEADER_H) // 2), text, fnt, fill, ink, pad=(9, 4))[2] + 8


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
    colours marks and flat areas must keep, merged down to :data:`COLORS`. So few entries would merge some
    of those (a header's tint with its neighbour's, the medals, which no sample but the last shows), so
    they weigh four strips: the anti-aliased shades between them share what is left."""
    game = random_game(rules.ENGINE, rules.TisheOptions(both_home=True), seats, "5" * 64, random.Random(seats), 600)
    n = len(game)
    seated = [player(s) for s in range(seats)]
    keep = [GOLD, RED, INK, LIGHT, VIOLET, PAPER, CARD, BAND_FILL, *MEDALS, *(style[0] for style in _STYLE.values()),
            *(p.colour for p in seated), *(p.tint for p in seated)]
    return fitted_palette(_compose, game, (n // 4, n // 2, 3 * n // 4, n - 1), LABEL_KEYS,
                          [colour_strip(keep, W)] * 4, COLORS)


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
