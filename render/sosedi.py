"""The «Помоги своему соседу» table: the last three dice, the bowl or the tower, one panel
per player (colour + shape marker, name, owned numbers, chips or coasters as a stack and
a number, whose turn, who is safe, who won or pays).

``render_board(state, names, labels)`` returns PNG bytes. The static picture (background,
table, cards, markers, owned numbers, bowl/tower art) is drawn once per (seats, mode) and
cached; each call pastes the dynamic parts on a copy and maps it to a fixed palette fitted
once per (seats, mode) to a sample game (fast, and deterministic). The link between the
last throw and the players comes from the throw's events (the bot passes them from the
action log), so every badge shows what really happened; without events the dice alone
are read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random

from PIL import Image, ImageChops, ImageDraw

from engines.base import Event
from engines.sosedi import ENGINE, NUMBER_TABLE, SosediOptions, SosediState, owner_of
from render.canvas import paste
from render.cards import panel_grid, player_card, wood_frame
from render.dice import die_extent, die_image, draw_die
from render.marks import paste_ring, veil
from render.pieces import chip_image, draw_stack, marker_image
from render.png import fitted_palette, random_game, to_png
from render.theme import (
    BG,
    CHIP,
    CORK,
    FELT_DARK,
    FELT_MUTED,
    FELT_TEXT,
    GOLD,
    INK,
    LIGHT,
    PANEL_DIM,
    RED,
    RGB,
    SS,
    WOOD_DARK,
    Box,
    player,
)
from render.typeset import TextDraw, ellipsize, fit_font, font, pill, require_labels, seat_name

LABEL_KEYS: tuple[str, ...] = (
    "bowl",  # caption over the bowl (classic, reverse)
    "tower",  # caption over the tower of coasters (tower mode)
    "phase1",  # tower mode, the tower stands: take coasters
    "phase2",  # tower mode, the tower is used up: put coasters back
    "turn",  # the player to throw
    "safe",  # tower mode: out and safe
    "dead",  # a number nobody owns (4–5 players)
    "immune",  # the roller's own number with roller_immune
    "void",  # the last throw did not count: the same player throws again
    "winner",  # classic: the winner
    "loser",  # reverse, tower: the one who pays
)

W = 1024
MARGIN = 20
TABLE_H = 284
PANEL_H = 196
GAP = 16
RADIUS = 18
HEADER_H = 52
DIE = 140
DIE_GAP = 28
SMALL_DIE = 42
BOWL_W = 170
BOWL_CHIP = 34
TOWER_W = 84
COMPRESS = 3  # zlib level of the bands drawn on (render/png_bands.py): 6 costs ~1.6 ms more for ~14 % fewer bytes

CORK_RIM: RGB = (150, 108, 60)


# ---------------------------------------------------------------- layout


@dataclass(frozen=True, slots=True)
class _Layout:
    width: int
    height: int
    table: Box
    dice: tuple[Box, ...]  # the three big dice
    side: Box  # the bowl / tower area
    panels: tuple[Box, ...]


@lru_cache(maxsize=8)
def _layout(seats: int) -> _Layout:
    cols = 2 if seats in (2, 4) else 3
    table = (MARGIN, MARGIN, W - MARGIN, MARGIN + TABLE_H)
    panels, height = panel_grid(seats, cols, table[3] + GAP + 4, PANEL_H, W, MARGIN, GAP)
    dice_w = 3 * DIE + 2 * DIE_GAP
    dx = MARGIN + 24 + (620 - dice_w) // 2
    dy = MARGIN + 74
    dice = tuple((dx + i * (DIE + DIE_GAP), dy, dx + i * (DIE + DIE_GAP) + DIE, dy + DIE)
                 for i in range(3))
    side = (MARGIN + 660, MARGIN + 16, W - MARGIN - 16, MARGIN + TABLE_H - 16)
    return _Layout(W, height, table, dice, side, panels)


# ---------------------------------------------------------------- cached art


@lru_cache(maxsize=4)
def _bowl_art(width: int) -> tuple[Image.Image, Image.Image]:
    """The bowl in two layers (back: inside; front: body and lip) so chips sit inside."""
    h = round(width * 0.62)
    s_w, s_h = width * SS, h * SS
    rim_h = round(s_h * 0.36)
    back = Image.new("RGBA", (s_w, s_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(back)
    d.ellipse((0, 0, s_w - 1, rim_h), fill=(214, 220, 230, 255))
    k = round(s_w * 0.035)
    d.ellipse((k, k, s_w - 1 - k, rim_h - k), fill=(120, 132, 150, 255))
    front = Image.new("RGBA", (s_w, s_h), (0, 0, 0, 0))
    body = Image.new("L", (s_w, s_h), 0)
    ImageDraw.Draw(body).ellipse((0, -s_h + rim_h // 2, s_w - 1, s_h - 1), fill=255)
    cut = Image.new("L", (s_w, s_h), 0)
    ImageDraw.Draw(cut).rectangle((0, rim_h // 2, s_w, s_h), fill=255)
    inside = Image.new("L", (s_w, s_h), 0)
    ImageDraw.Draw(inside).ellipse((k, k, s_w - 1 - k, rim_h - k), fill=255)
    mask = ImageChops.subtract(ImageChops.multiply(body, cut), inside)
    shade = Image.linear_gradient("L").rotate(90).resize((s_w, s_h))
    body_rgb = Image.composite(
        Image.new("RGB", (s_w, s_h), (232, 236, 242)),
        Image.new("RGB", (s_w, s_h), (150, 162, 180)),
        shade.point(lambda v: min(255, int(v * 1.6))),
    )
    front.paste(body_rgb, (0, 0), mask)
    band_y = round(s_h * 0.62)
    band = Image.new("L", (s_w, s_h), 0)
    ImageDraw.Draw(band).rectangle((0, band_y, s_w, band_y + round(s_h * 0.05)), fill=255)
    front.paste((56, 114, 178, 255), (0, 0), ImageChops.multiply(band, mask))
    size = (width, h)
    return (back.resize(size, Image.Resampling.LANCZOS),
            front.resize(size, Image.Resampling.LANCZOS))


@lru_cache(maxsize=4)
def _bowl_slots(width: int, count: int) -> tuple[tuple[int, int], ...]:
    """Where chips lie in the bowl: a heap of rows 7, 6, …, 1 (at most 28 shown), bottom
    row first; each slot is a chip's top-left x and centre y relative to the bowl."""
    rim_h = round(width * 0.62 * 0.36)
    chip_w = BOWL_CHIP
    slots: list[tuple[int, int]] = []
    for row, n in enumerate(range(7, 0, -1)):
        for i in range(n):
            x = width / 2 + (i - (n - 1) / 2) * chip_w * 0.56 - chip_w / 2
            slots.append((round(x), round(rim_h * 0.6 - row * chip_w * 0.2)))
    return tuple(slots[:count])


@lru_cache(maxsize=64)
def _bowl_heap(count: int) -> tuple[Image.Image, int]:
    """``count`` chips heaped in the bowl, with the bowl's front over them (RGBA), and how
    far the heap rises above the bowl's top edge."""
    _back, front = _bowl_art(BOWL_W)
    chip = chip_image(CHIP, BOWL_CHIP, (196, 160, 72))
    slots = _bowl_slots(BOWL_W, count)
    pad = max([0, *(chip.height // 2 - y for _x, y in slots)])
    img = Image.new("RGBA", (front.width, front.height + pad))
    for x, y in slots:
        img.alpha_composite(chip, (x, y - chip.height // 2 + pad))
    img.alpha_composite(front, (0, pad))
    return img, pad


@lru_cache(maxsize=16)
def _base(seats: int, mode: str) -> Image.Image:
    """The static picture for (seats, mode): everything that never moves."""
    lay = _layout(seats)
    img = Image.new("RGB", (lay.width, lay.height), BG)
    wood_frame(img, lay.table, 34, 10, 26, shadow=True)  # table: a wooden rim around felt
    sx0, sy0, _sx1, sy1 = lay.side
    line = ImageDraw.Draw(img)
    line.line((sx0 - 12, sy0 + 10, sx0 - 12, sy1 - 10), fill=(28, 84, 64), width=2)
    # player cards
    for seat, (px0, py0, px1, py1) in enumerate(lay.panels):
        player_card(img, (px0, py0, px1, py1), seat, RADIUS, HEADER_H, marker=36, inset=12)
        for i, number in enumerate(NUMBER_TABLE[seats][seat]):
            x = px0 + 14 + i * (SMALL_DIE + 8)
            draw_die(img, (x, py0 + HEADER_H + 14, x + SMALL_DIE, py0 + HEADER_H + 14 + SMALL_DIE),
                     number, shadow=True)
    if mode != "tower":
        back, _front = _bowl_art(BOWL_W)
        paste(img, back, _bowl_xy(lay))
    else:
        tx, ty = _tower_xy(lay)
        line.rounded_rectangle((tx - 8, ty - 2, tx + TOWER_W + 8, ty + 10), radius=5,
                               fill=WOOD_DARK)
    return img


def _look(state: SosediState) -> str:
    """Which static picture ``state`` is drawn on (see :func:`_base`)."""
    return "tower" if state.options.mode == "tower" else "chips"


@lru_cache(maxsize=64)  # ~90 KB each; 21 per (seats, look)
def _die_patch(seats: int, look: str, slot: int, value: int) -> tuple[Image.Image, tuple[int, int]]:
    """The big die ``slot`` showing ``value`` (0: blank), shadow and all, drawn once over the static
    picture and cut out with its top-left: an opaque patch pastes without alpha blending. The three
    dice are drawn first and their shadows stay clear of each other, so the patches can stand in."""
    x0, y0, x1, y1 = _layout(seats).dice[slot]
    ex0, ey0, ex1, ey1 = die_extent((x0, y0, x1, y1))
    patch = _base(seats, look).crop((ex0, ey0, ex1, ey1))
    draw_die(patch, (x0 - ex0, y0 - ey0, x1 - ex0, y1 - ey0), value or None)
    return patch, (ex0, ey0)


def _bowl_xy(lay: _Layout) -> tuple[int, int]:
    sx0, sy0, _sx1, _sy1 = lay.side
    return sx0 + 6, sy0 + 104


def _tower_xy(lay: _Layout) -> tuple[int, int]:
    """Left end of the tower's plinth (coasters stand on it)."""
    sx0, _sy0, _sx1, sy1 = lay.side
    return sx0 + 20, sy1 - 6


# ---------------------------------------------------------------- the last throw


@dataclass(frozen=True, slots=True)
class _Throw:
    roller: int
    dice: tuple[int, ...]
    links: tuple[tuple[str, int | None], ...]  # per die: (pay|take|put|skip|dead|immune, seat)
    delta: tuple[int, ...]  # per seat: change of chips / coasters held
    void: bool


def _throw(state: SosediState, events: Sequence[Event]) -> _Throw | None:
    """Link each die of the last throw to its owner, from the throw's events when given."""
    if not state.last_dice or state.last_seat is None:
        return None
    roller, dice, seats = state.last_seat, tuple(state.last_dice), state.seats
    tower = state.options.mode == "tower"
    immune = state.options.roller_immune
    known = bool(events)
    if known:
        void = any(e.kind == "void" for e in events)
        moves = [e for e in events if e.kind in ("take", "put")]
        paid = {e.seat: int(e.data.get("count", 0)) for e in events if e.kind == "pay" and e.seat is not None}
        left = [state.chips[s] + paid.get(s, 0) for s in range(seats)]  # chips before the throw
    else:  # no events (a hand-made state): read the dice alone
        moves, left = [], list(state.chips)
        void = not state.finished and state.turn == roller
    links: list[tuple[str, int | None]] = []
    delta = [0] * seats
    for die in dice:
        owner = owner_of(die, seats)
        if owner is None:
            links.append(("dead", None))
            continue
        if owner == roller and immune:
            links.append(("immune", owner))
            continue
        if tower:
            if known:
                kind = moves.pop(0).kind if moves and moves[0].seat == owner else "skip"
            elif state.safe[owner] and state.phase == 2:
                kind = "skip"
            else:
                kind = "take" if state.phase == 1 else "put"
            step = {"take": 1, "put": -1, "skip": 0}[kind]
        else:
            kind = "pay" if not known or left[owner] > 0 else "skip"
            step = -1 if kind == "pay" else 0
            left[owner] -= 1
        links.append((kind, owner))
        if not void:
            delta[owner] += step
    return _Throw(roller, dice, tuple(links), tuple(delta), void)


# ---------------------------------------------------------------- drawing


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"\u2212{-n}"


def _draw_table(img: Image.Image, d: ImageDraw.ImageDraw, lay: _Layout, state: SosediState,
                names: Sequence[str], labels: Mapping[str, str], throw: _Throw | None) -> None:
    dice = throw.dice if throw else ()
    look = _look(state)
    for i in range(len(lay.dice)):
        patch, xy = _die_patch(state.seats, look, i, dice[i] if i < len(dice) else 0)
        img.paste(patch, xy)
    left, right = lay.dice[0][0], lay.dice[2][2]
    centre = (left + right) // 2
    if throw is None:
        return
    # who threw: marker + name above the dice
    top = lay.dice[0][1]
    text, fnt = seat_name(names, throw.roller, right - left - 60, 26)
    tw = fnt.getlength(text) + 38
    x = round(centre - tw / 2)
    paste(img, marker_image(throw.roller, 28), (x, top - 50))
    d.text((x + 38, top - 36), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    # under each die: whom it called
    cy = lay.dice[0][3] + 30
    small = font(24)
    bold = font(26, True)
    if throw.void:
        width = right - left + 40
        pill(d, (centre, cy), labels["void"], fit_font(labels["void"], width - 24, 24, 17, True),
             GOLD, INK, anchor="m", max_width=width)
        return
    for (kind, seat), box in zip(throw.links, lay.dice, strict=False):
        mid = (box[0] + box[2]) // 2
        if kind == "dead":
            d.text((mid, cy), ellipsize(labels["dead"], small, DIE + DIE_GAP - 8), font=small,
                   fill=FELT_MUTED, anchor="mm")
            continue
        if seat is None:
            continue
        faded = kind == "skip"
        note = {"pay": "\u22121", "take": "+1", "put": "\u22121"}.get(kind, "")
        if kind == "immune":
            note = labels["immune"]
        elif kind == "skip" and state.safe[seat]:  # tower: already out, the die does nothing
            note = labels["safe"]
        nf = bold if kind in ("pay", "take", "put") else small
        if nf is small:
            note = ellipsize(note, small, DIE + DIE_GAP - 50)
        nw = nf.getlength(note) + 8 if note else 0
        x = round(mid - (34 + nw) / 2)
        paste(img, marker_image(seat, 34, faded), (x, cy - 17))
        if nw:
            d.text((x + 42, cy), note, font=nf, fill=LIGHT if nf is bold else FELT_MUTED,
                   anchor="lm")


def _draw_side(img: Image.Image, d: ImageDraw.ImageDraw, lay: _Layout, state: SosediState,
               labels: Mapping[str, str]) -> None:
    sx0, sy0, sx1, sy1 = lay.side
    big = font(76, True)
    if state.options.mode == "tower":
        total = state.options.tower_size(state.seats)
        tx, ty = _tower_xy(lay)
        draw_stack(img, tx, ty, state.tower, CORK, chip_w=TOWER_W,
                   step=max(2, min(8, 200 // max(total, 1))),
                   per_column=max(total, state.tower), max_columns=1, rim=CORK_RIM, aspect=0.34)
        col0 = tx + TOWER_W + 16
        col_x = (col0 + sx1) // 2
        title = fit_font(labels["tower"], sx1 - col0, 26, 18, bold=True)
        d.text((col_x, sy0 + 20), ellipsize(labels["tower"], title, sx1 - col0), font=title,
               fill=FELT_TEXT, anchor="mm")
        d.text((col_x, sy0 + 100), str(state.tower), font=big, fill=LIGHT, anchor="mm")
        phase = labels["phase1" if state.phase == 1 else "phase2"]
        pill(d, (col_x, sy0 + 168), phase, fit_font(phase, sx1 - col0 - 20, 24, bold=True),
             FELT_DARK, FELT_TEXT, anchor="m", max_width=sx1 - col0, pad=(10, 5))
        legend_x0 = col0
    else:
        title = fit_font(labels["bowl"], sx1 - sx0, 26, 18, bold=True)
        d.text(((sx0 + sx1) // 2, sy0 + 20), ellipsize(labels["bowl"], title, sx1 - sx0),
               font=title, fill=FELT_TEXT, anchor="mm")
        bx, by = _bowl_xy(lay)
        heap, rise = _bowl_heap(min(state.bowl, 28))
        paste(img, heap, (bx, by - rise))
        col_x = (bx + BOWL_W + sx1) // 2 + 4
        d.text((col_x, sy0 + 130), str(state.bowl), font=big, fill=LIGHT, anchor="mm")
        legend_x0 = sx0
    # numbers nobody owns (4–5 players)
    dead = [n for n in range(1, 7) if owner_of(n, state.seats) is None]
    if dead:
        small = font(24)
        y = sy1 - 12
        x = sx1 - 4 - len(dead) * 34
        d.text((x - 8, y), ellipsize(labels["dead"], small, x - 8 - legend_x0), font=small,
               fill=FELT_MUTED, anchor="rm")
        for i, n in enumerate(dead):
            die = die_image(n, 28)
            img.paste(die, (x + i * 34, y - 14), die)


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int,
                state: SosediState, names: Sequence[str], labels: Mapping[str, str],
                throw: _Throw | None) -> None:
    x0, y0, x1, y1 = box
    pw, ph = x1 - x0, y1 - y0
    finished = state.finished
    is_result = finished and state.result_seat == seat
    safe = state.options.mode == "tower" and state.safe[seat] and not is_result
    current = not finished and state.turn == seat
    delta = throw.delta[seat] if throw else 0
    classic = state.options.mode == "classic"

    if current or is_result:
        colour = RED if is_result and not classic else GOLD
        paste_ring(img, pw, ph, RADIUS, 6, colour, (x0 - 6, y0 - 6))

    # header: the name, leaving room for the badge of the last throw
    badge_font = font(26, True)
    badge_w = round(badge_font.getlength(_signed(delta))) + 28 if delta else 0
    text, fnt = seat_name(names, seat, pw - 58 - 12 - badge_w, 28)
    d.text((x0 + 58, y0 + HEADER_H // 2), text, font=fnt, fill=INK, anchor="lm")

    _draw_held(img, d, box, seat, state)

    if safe:
        veil_img = veil(pw, ph, RADIUS, PANEL_DIM, 150)
        img.paste(veil_img, (x0, y0), veil_img)
    if delta:
        pill(d, (x1 - 10, y0 + HEADER_H // 2 - 1), _signed(delta), badge_font, INK, LIGHT,
             anchor="r", pad=(10, 4))

    status = None  # right of the owned numbers: this seat's status
    if safe:
        status = ("safe", (84, 88, 96), LIGHT)
    elif is_result:
        status = ("winner", GOLD, INK) if classic else ("loser", RED, LIGHT)
    elif current:
        status = ("turn", GOLD, INK)
    if status:
        key, fill, ink = status
        _draw_status(d, box, len(NUMBER_TABLE[state.seats][seat]), labels[key], fill, ink)


def _draw_held(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: SosediState) -> None:
    """Along the card's bottom: the chips (coasters in tower mode) ``seat`` holds, as a big number and
    as a stack."""
    x0, _y0, x1, y1 = box
    held = state.chips[seat]
    num_font = font(60, True)
    d.text((x0 + 14, y1 - 44), str(held), font=num_font, fill=INK, anchor="lm")
    sx = x0 + 14 + round(num_font.getlength(str(held))) + 16
    chip_w, chip_gap = 26, 4
    max_cols = max(1, (x1 - 14 - sx + chip_gap) // (chip_w + chip_gap))
    colour, rim = (CORK, CORK_RIM) if state.options.mode == "tower" else (player(seat).colour, None)
    draw_stack(img, sx, y1 - 14, held, colour, chip_w=chip_w, step=5, per_column=10,
               max_columns=max_cols, gap=chip_gap, rim=rim)


def _draw_status(d: ImageDraw.ImageDraw, box: Box, owned: int, text: str, fill: RGB, ink: RGB) -> None:
    """A seat's status pill, right of the ``owned`` numbers on its card."""
    x0, y0, x1, _y1 = box
    status_w = x1 - x0 - 28 - owned * (SMALL_DIE + 8) - 6
    py = y0 + HEADER_H + 14 + SMALL_DIE // 2
    fnt = fit_font(text, status_w - 24, 24, 17, bold=True)
    pill(d, (x1 - 14, py), text, fnt, fill, ink, anchor="r", max_width=status_w)


def _backdrop(state: SosediState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    return _base(state.seats, _look(state))


def _compose(state: SosediState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    lay = _layout(state.seats)
    img = _backdrop(state, labels).copy()
    d = TextDraw(img)
    throw = _throw(state, events)
    _draw_table(img, d, lay, state, names, labels, throw)
    _draw_side(img, d, lay, state, labels)
    for seat, box in enumerate(lay.panels):
        _draw_panel(img, d, box, seat, state, names, labels, throw)
    return img


@lru_cache(maxsize=16)
def _palette(seats: int, mode: str) -> Image.Image:
    """The fixed palette for (seats, mode): fitted once to a sample game drawn in full colour.

    Mapping each picture to a fixed palette is several times faster than fitting one per
    picture, and the palette depends only on (seats, mode), so output stays deterministic.
    """
    game = random_game(ENGINE, SosediOptions(mode=mode, roller_immune=True), seats, "5" * 64, Random(seats))
    n = len(game)
    return fitted_palette(_compose, game, (0, n // 3, 2 * n // 3, n - 1), LABEL_KEYS)


def render_board(state: SosediState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The table of a «соседи» game as PNG bytes (1024 px wide; 2–6 players).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS` (the bot fills them from its locale); a missing key raises KeyError.
    ``events`` are those of the last action (they link each die to what its owner did).
    """
    require_labels(labels, LABEL_KEYS)
    image = _compose(state, names, labels, events)
    return to_png(image, palette=_palette(state.seats, state.options.mode), compress_level=COMPRESS,
                  backdrop=_backdrop(state, labels))
