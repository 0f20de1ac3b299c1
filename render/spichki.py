"""The «Спички» table: the target pair, the last throw (which dice hit, what it earned), the
pile of matches, and one panel per player (colour + shape marker, name, matches held as a
big number and as sticks toward the goal, whose turn, who won).

``render_board(state, names, labels, events)`` returns PNG bytes. The static picture
(background, table, cards, markers, empty stick slots) is drawn once per (seats, goal) and
cached; each call pastes the dynamic parts on a copy and maps it to a fixed palette fitted
once per seat count to a sample game (fast, and deterministic).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from engines.base import Event
from engines.spichki import DOUBLE_ON_TARGET, ENGINE, SpichkiOptions, SpichkiState, judge
from render.canvas import paste
from render.cards import mark_card, panel_grid, player_card, wood_frame
from render.dice import draw_die
from render.marks import paste_ring
from render.pieces import marker_image
from render.places import final_places, place_badge
from render.png import fitted_palette, random_game, to_png
from render.theme import BG, FELT_DARK, FELT_MUTED, FELT_TEXT, GOLD, INK, LIGHT, RGB, SS, Box
from render.typeset import TextDraw, ellipsize, fit_font, font, pill, require_labels, seat_name

LABEL_KEYS: tuple[str, ...] = (
    "target",  # caption over the target pair
    "no_target",  # the target is being set
    "throw",  # caption over the last throw
    "pile",  # caption over the pile
    "goal",  # words before the goal number: "<goal> 11"
    "turn",  # the player to throw
    "winner",  # the winner
    "draw",  # a seat sharing a draw
)

W = 1024
MARGIN = 20
TABLE_H = 270
GAP = 14
RADIUS = 18
HEADER_H = 46
PANEL_H = 178
DIE = 104
DIE_GAP = 20
COMPRESS = 3  # zlib level of the bands drawn on (render/png_bands.py): 6 costs ~1.7 ms more for ~12 % fewer bytes
SECTIONS = ((30, 330), (330, 660), (660, 994))  # target, throw, pile (x ranges on the felt)
CAPTION_Y = MARGIN + 40
DICE_Y = MARGIN + 70
ROW_Y = MARGIN + 228  # the line under the dice
HEAP_W, HEAP_H, HEAP_MAX = 220, 170, 120

FELT_LINE: RGB = (28, 84, 64)
STICK: RGB = (238, 208, 150)
STICK_EDGE: RGB = (150, 112, 62)
HEAD: RGB = (196, 40, 34)
HEAD_DARK: RGB = (120, 22, 20)
GHOST: RGB = (224, 216, 200)
GHOST_HEAD: RGB = (232, 206, 200)
MUTED_INK: RGB = (120, 118, 126)

# ---------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class _Layout:
    width: int
    height: int
    table: Box
    target: tuple[Box, Box]
    dice: tuple[Box, Box]
    panels: tuple[Box, ...]


def _pair(centre: int) -> tuple[Box, Box]:
    x = centre - DIE - DIE_GAP // 2
    return ((x, DICE_Y, x + DIE, DICE_Y + DIE), (x + DIE + DIE_GAP, DICE_Y, x + 2 * DIE + DIE_GAP, DICE_Y + DIE))


@lru_cache(maxsize=8)
def _layout(seats: int) -> _Layout:
    cols = {2: 2, 3: 3, 4: 2, 5: 3, 6: 3}.get(seats, 4)
    table = (MARGIN, MARGIN, W - MARGIN, MARGIN + TABLE_H)
    panels, height = panel_grid(seats, cols, table[3] + GAP + 6, PANEL_H, W, MARGIN, GAP)
    centres = [(a + b) // 2 for a, b in SECTIONS]
    return _Layout(W, height, table, _pair(centres[0]), _pair(centres[1]), panels)


# ---------------------------------------------------------------- cached art


@lru_cache(maxsize=4)
def _slot(size: int) -> Image.Image:
    """An empty place for a die: a dashed rounded square with a question mark (RGBA)."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius, width = round(s * 0.2), 3 * SS
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=radius, fill=(0, 0, 0, 46))
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=radius, outline=(*FELT_MUTED, 255), width=width)
    dash, period = 9 * SS, 18 * SS
    for start in range(radius + 4 * SS, s - radius - dash // 2, period):  # gaps cut into the straight edges
        a, b = start + dash // 2, start + dash // 2 + period - dash
        b = min(b, s - radius)
        if a >= b:
            continue
        d.rectangle((a, 0, b, width), fill=(0, 0, 0, 46))
        d.rectangle((a, s - 1 - width, b, s - 1), fill=(0, 0, 0, 46))
        d.rectangle((0, a, width, b), fill=(0, 0, 0, 46))
        d.rectangle((s - 1 - width, a, s - 1, b), fill=(0, 0, 0, 46))
    d.text((s / 2, s / 2), "?", font=font(round(size * 0.5) * SS, True), fill=(*FELT_MUTED, 200), anchor="mm")
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=128)
def _stick(length: int, angle: int = 0, ghost: bool = False) -> Image.Image:
    """One match, head up at ``angle`` 0, turned ``angle`` degrees anticlockwise (RGBA).

    Lying sticks (any angle but 0) carry a soft shadow so a heap of them reads as a heap.
    """
    thick = max(3, round(length * 0.12))
    body, edge, head, head_dark = (GHOST, GHOST, GHOST_HEAD, GHOST_HEAD) if ghost else (
        STICK, STICK_EDGE, HEAD, HEAD_DARK)
    pad = thick
    w, h = (thick + 2 * pad) * SS, (length + 2 * pad) * SS
    big = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    x0, x1 = pad * SS, (pad + thick) * SS
    d.rounded_rectangle((x0, pad * SS + thick * SS, x1, h - pad * SS), radius=SS * 2, fill=(*edge, 255))
    d.rounded_rectangle((x0 + SS, pad * SS + thick * SS, x1 - SS, h - pad * SS - SS), radius=SS, fill=(*body, 255))
    hw, hh = thick * 0.72 * SS, thick * 1.15 * SS
    cx, cy = (x0 + x1) / 2, pad * SS + hh
    d.ellipse((cx - hw, cy - hh, cx + hw, cy + hh), fill=(*head_dark, 255))
    d.ellipse((cx - hw + SS, cy - hh + SS, cx + hw - SS, cy + hh - 2 * SS), fill=(*head, 255))
    if angle:
        big = big.rotate(angle, Image.Resampling.BICUBIC, expand=True)
    img = big.resize((max(1, big.width // SS), max(1, big.height // SS)), Image.Resampling.LANCZOS)
    if not angle or ghost:
        return img
    out = Image.new("RGBA", (img.width + 2, img.height + 3), (0, 0, 0, 0))
    shadow = Image.new("RGBA", img.size, (0, 0, 0, 255))
    shadow.putalpha(img.getchannel("A").point(lambda a: a * 90 // 255).filter(ImageFilter.BoxBlur(1)))
    out.alpha_composite(shadow, (2, 3))
    out.alpha_composite(img, (0, 0))
    return out


@lru_cache(maxsize=64)
def _heap(count: int) -> Image.Image:
    """``count`` matches lying in a heap (a mound: later sticks higher and nearer the middle)."""
    img = Image.new("RGBA", (HEAP_W, HEAP_H), (0, 0, 0, 0))
    n = min(count, HEAP_MAX)
    if n <= 0:
        return img
    rng = random.Random(1000 + n)  # deterministic: the same count lies the same way
    size = math.sqrt(n / HEAP_MAX)
    rx = 16 + 64 * size
    ry = rx * 0.3
    rise = 4 + 64 * size
    ground = HEAP_H - 30
    for j in range(n):
        t = j / max(1, n - 1)
        a, r = rng.uniform(0, 2 * math.pi), math.sqrt(rng.random()) * (1 - 0.72 * t)
        cx = HEAP_W / 2 + math.cos(a) * r * rx
        cy = ground + math.sin(a) * r * ry - t * rise
        angle = rng.choice((90, -90)) + rng.randrange(-40, 41, 5)
        stick = _stick(50, angle)
        img.alpha_composite(stick, (round(cx - stick.width / 2), round(cy - stick.height / 2)))
    return img


@lru_cache(maxsize=64)
def _slots(goal: int, width: int) -> tuple[tuple[int, ...], int]:
    """x offsets of ``goal`` stick slots across ``width`` (grouped by five), and the stick length."""
    groups = math.ceil(goal / 5)
    step = min(21.0, width / (goal + 0.7 * (groups - 1)))
    xs = tuple(round(i * step + (i // 5) * step * 0.7) for i in range(goal))
    return xs, 42 if step >= 15 else 36 if step >= 11 else 30


@lru_cache(maxsize=256)
def _stick_row(held: int, goal: int, width: int, ghost: bool = False) -> Image.Image:
    """The first ``held`` of the goal's slots filled with sticks (RGBA, bottom = the card's edge)."""
    xs, length = _slots(goal, width)
    stick = _stick(length, 0, ghost)
    img = Image.new("RGBA", (width + stick.width, stick.height), (0, 0, 0, 0))
    for x in xs[:held]:
        img.alpha_composite(stick, (x, 0))
    return img


@lru_cache(maxsize=32)
def _base(seats: int, goal: int) -> Image.Image:
    """The static picture for (seats, goal): everything that never moves."""
    lay = _layout(seats)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    _x0, y0, _x1, y1 = lay.table
    wood_frame(img, lay.table, 34, 10, 26, shadow=True)
    d = ImageDraw.Draw(img)
    for _a, b in SECTIONS[:-1]:
        d.line((b, y0 + 28, b, y1 - 28), fill=FELT_LINE, width=2)
    for seat, (px0, py0, px1, py1) in enumerate(lay.panels):
        player_card(img, (px0, py0, px1, py1), seat, RADIUS, HEADER_H, inset=12)
        row = _stick_row(goal, goal, px1 - px0 - 28, ghost=True)
        paste(img, row, (px0 + 14, py1 - 12 - row.height))
    return img


# ---------------------------------------------------------------- the last throw


@dataclass(frozen=True, slots=True)
class _Throw:
    seat: int
    dice: tuple[int, ...]
    hits: tuple[bool, ...]  # per die: did it count (a target number, or the setting double)
    award: int  # matches the roller took
    passed_to: int | None  # the next chaser when the dice passed on


def _throw(state: SpichkiState, events: Sequence[Event]) -> _Throw | None:
    """What the last throw did, from its events when given (else judged from the dice)."""
    if len(state.last_dice) != 2 or state.last_seat is None:
        return None
    seat, dice, target = state.last_seat, tuple(state.last_dice), tuple(state.last_target)
    double = dice[0] == dice[1]
    hits = tuple(d in target for d in dice) if target else (double, double)
    if events:
        award = sum(int(e.data.get("count", 0)) for e in events if e.kind == "take" and e.seat == seat)
        passed = next((e.seat for e in events if e.kind == "pass" and e.seat != seat), None)
    else:  # a hand-made state: judge the dice alone
        award = judge(target, dice, state.options.double_hit)[1] if target else DOUBLE_ON_TARGET * double
        award = min(award, state.matches[seat])
        passed = state.turn if not award and state.turn != seat else None
    return _Throw(seat, dice, hits, award, passed)


# ---------------------------------------------------------------- drawing


def _caption(d: ImageDraw.ImageDraw, section: int, text: str) -> None:
    a, b = SECTIONS[section]
    fnt = fit_font(text, b - a - 40, 26, bold=True)
    d.text(((a + b) // 2, CAPTION_Y), ellipsize(text, fnt, b - a - 40), font=fnt, fill=FELT_TEXT, anchor="mm")


def _draw_target(img: Image.Image, d: ImageDraw.ImageDraw, lay: _Layout, state: SpichkiState,
                 labels: Mapping[str, str]) -> None:
    _caption(d, 0, labels["target"])
    a, b = SECTIONS[0]
    if state.target:
        for value, box in zip(state.target, lay.target, strict=False):
            draw_die(img, box, value)
        return
    for box in lay.target:
        paste(img, _slot(DIE), box[:2])
    text = labels["no_target"]
    fnt = fit_font(text, b - a - 60, 24, bold=True)
    pill(d, ((a + b) // 2, ROW_Y), text, fnt, GOLD, INK, anchor="m", max_width=b - a - 36, pad=(12, 5))


def _draw_throw(img: Image.Image, d: ImageDraw.ImageDraw, lay: _Layout, state: SpichkiState,
                names: Sequence[str], labels: Mapping[str, str], throw: _Throw | None) -> None:
    _caption(d, 1, labels["throw"])
    a, b = SECTIONS[1]
    if throw is None:
        for box in lay.dice:
            draw_die(img, box, None)
        return
    for value, hit, box in zip(throw.dice, throw.hits, lay.dice, strict=False):
        draw_die(img, box, value)
        if hit:
            paste_ring(img, DIE, DIE, round(DIE * 0.2), 6, GOLD, (box[0] - 6, box[1] - 6))
    # under the dice: who threw, and what it earned (or whom the dice passed to)
    badge_font = font(26, True)
    badge = f"+{throw.award}" if throw.award else ""
    badge_w = round(badge_font.getlength(badge)) + 30 if badge else 0
    passed_w = 70 if throw.passed_to is not None else 0
    room = b - a - 40 - 34 - badge_w - passed_w
    text, fnt = seat_name(names, throw.seat, room, 24)
    total = 34 + fnt.getlength(text) + badge_w + passed_w
    x = round((a + b) / 2 - total / 2)
    paste(img, marker_image(throw.seat, 28), (x, ROW_Y - 14))
    d.text((x + 36, ROW_Y), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    x += 36 + round(fnt.getlength(text))
    if badge:
        pill(d, (x + 12, ROW_Y), badge, badge_font, GOLD, INK, pad=(10, 3))
    if throw.passed_to is not None:
        d.text((x + 14, ROW_Y), "\u2192", font=font(28, True), fill=FELT_MUTED, anchor="lm")
        paste(img, marker_image(throw.passed_to, 28), (x + 46, ROW_Y - 14))


def _draw_pile(img: Image.Image, d: ImageDraw.ImageDraw, state: SpichkiState, labels: Mapping[str, str]) -> None:
    _caption(d, 2, labels["pile"])
    a, b = SECTIONS[2]
    heap = _heap(state.pile)
    paste(img, heap, (a + 4, DICE_Y + DIE - HEAP_H + 36))
    num = str(state.pile)
    fnt = fit_font(num, 116, 72, 40, bold=True)
    d.text((b - 70, DICE_Y + DIE // 2 + 4), num, font=fnt, fill=LIGHT, anchor="mm")
    goal = f"{labels['goal']} {state.options.goal}"  # «Играем до 11»: the goal, not what is left
    gfont = fit_font(goal, b - a - 60, 24, bold=True)
    pill(d, ((a + b) // 2, ROW_Y), goal, gfont, FELT_DARK, FELT_TEXT, anchor="m", max_width=b - a - 36,
         pad=(12, 5))


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: SpichkiState,
                names: Sequence[str], labels: Mapping[str, str], throw: _Throw | None, place: int | None) -> None:
    x0, y0, x1, y1 = box
    pw = x1 - x0
    won = state.finished and seat in state.winners
    current = not state.finished and state.turn == seat
    mark_card(img, box, RADIUS, won, current, state.finished)
    if won:  # a gold band under the header
        img.paste(GOLD, (x0, y0 + HEADER_H - 4, x1, y0 + HEADER_H + 1))

    # header: the name, leaving room for the badge of the last throw
    award = throw.award if throw and throw.seat == seat else 0
    badge_font = font(24, True)
    right = x1 - 10
    if place is not None:  # the game is over: every seat's place (equal matches, equal place: rule 6)
        right = place_badge(img, d, (right, y0 + HEADER_H // 2), place)[0] - 8
    badge_w = round(badge_font.getlength(f"+{award}")) + 28 if award else 0
    text, fnt = seat_name(names, seat, right - x0 - 54 - 2 - badge_w, 26)
    d.text((x0 + 54, y0 + HEADER_H // 2), text, font=fnt, fill=INK, anchor="lm")
    if award:
        pill(d, (right, y0 + HEADER_H // 2 - 1), f"+{award}", badge_font, INK, LIGHT, anchor="r", pad=(10, 3))

    # body: matches held as a big number over the goal, the status, and sticks in the slots
    held, goal = state.matches[seat], state.options.goal
    cy = y0 + HEADER_H + 36
    big = font(52 if pw < 300 else 60, True)
    x = x0 + 14 + round(big.getlength(str(held)))
    d.text((x0 + 14, cy), str(held), font=big, fill=INK, anchor="lm")
    row = _stick_row(min(held, goal), goal, pw - 28)
    paste(img, row, (x0 + 14, y1 - 12 - row.height))
    status = "winner" if won and len(state.winners) == 1 else "draw" if won else "turn" if current else None
    of, small = f"/{goal}", font(24 if pw < 300 else 26, True)
    of_w = round(small.getlength(of)) + 4
    if status:  # the goal gives way to the status when both do not fit (narrow panels)
        text = labels[status]
        if x1 - 12 - (x + of_w + 10) < min(fit_font(text, 1e9, 24, bold=True).getlength(text) + 20, 150):
            of_w = 0
        room = x1 - 12 - (x + of_w + 10)
        sfont = fit_font(text, room - 20, 24, bold=True)
        pill(d, (x1 - 12, cy), text, sfont, GOLD, INK, anchor="r", max_width=room, pad=(10, 5))
    if of_w:
        d.text((x + 4, cy + 13), of, font=small, fill=MUTED_INK, anchor="ls")


def _backdrop(state: SpichkiState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    return _base(state.seats, state.options.goal)


def _compose(state: SpichkiState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    lay = _layout(state.seats)
    img = _backdrop(state, labels).copy()
    d = TextDraw(img)
    throw = _throw(state, events)
    _draw_target(img, d, lay, state, labels)
    _draw_throw(img, d, lay, state, names, labels, throw)
    _draw_pile(img, d, state, labels)
    places = final_places(ENGINE, state, lambda seat: state.matches[seat])
    for seat, box in enumerate(lay.panels):
        _draw_panel(img, d, box, seat, state, names, labels, throw, places.get(seat))
    return img


@lru_cache(maxsize=8)
def _palette(seats: int) -> Image.Image:
    """The fixed palette for a seat count, fitted once to a sample game drawn in full colour."""
    game = random_game(ENGINE, SpichkiOptions(), seats, "5" * 64, random.Random(seats))
    n = len(game)
    return fitted_palette(_compose, game, (0, n // 3, 2 * n // 3, n - 1), LABEL_KEYS)


def render_board(state: SpichkiState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The table of a «спички» game as PNG bytes (1024 px wide; 2–8 players).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS` (the bot fills them from its locale); a missing key raises KeyError.
    ``events`` are those of the last action (they tell what the throw earned).
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(state.seats), compress_level=COMPRESS,
                  backdrop=_backdrop(state, labels))
