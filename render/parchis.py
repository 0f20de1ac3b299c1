"""The «Парчис» board: the classic cross with four corner homes, 68 numbered circuit cells
running counter-clockwise round the arms, four coloured corridors of seven cells into the
centre, and the moves on offer; below it, across the picture's width, the last throw and its
bonus, then a legend of the marks a player meets (a seguro, a barrier, a corridor cell «к3» and
the centre). Where the cells are: :mod:`render.parchis_geometry`. Colours nobody plays (two
players) stay neutral.

Each home is also its player's card (as in «Людо»): marker and name on top (the turn pill while
the game runs, the place's medal once it is over), the four home spots under the home's word,
and beside them how many pieces are in the centre and every piece out on the board with its cell.
So nothing but the dice card and the legend goes below the board, and the picture is 1024 × 1276
for 2–4 players: a phone shows it whole above the buttons, every label a player needs still 18 px
tall in capitals (a phone shows the picture about 390 px wide).

``render_board(state, names, labels, events)`` returns PNG bytes. The static picture (board,
numbers, homes, legend, empty cards) is drawn once per (seats, words), supersampled, and
cached; each call pastes pieces, rings and text on a copy and maps it to a fixed palette
fitted once per seat count to a sample game (fast, and deterministic).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from engines import parchis as rules
from engines.base import Event
from engines.parchis import CENTRE, HOME, LAST_CIRCUIT, PHASE_MOVE, SEGUROS, ParchisState
from render.canvas import paste
from render.cards import (
    footed_card_header,
    player_card,
    ringed_spot,
    shadowed_card,
    turn_line,
    wood_frame,
)
from render.dice import draw_die
from render.marks import paste_ring, red_cross
from render.parchis_geometry import (
    BOARD,
    CARD_HEAD,
    CX,
    CY,
    HALF,
    LANE,
    MARGIN,
    L,
    box_centre,
    cell_box,
    centre_spot,
    corridor_box,
    home_box,
    home_card,
    home_spot,
    spot_box,
    track_cell,
    turned,
)
from render.pieces import marker_image, numbered_token, put_piece
from render.places import MEDALS, final_places
from render.png import colour_strip, fitted_palette, random_game, to_png
from render.theme import (
    BG,
    CARD,
    FELT_MUTED,
    FELT_TEXT,
    GOLD,
    INK,
    LIGHT,
    RED,
    RGB,
    SS,
    WOOD,
    Box,
    player,
    tint,
)
from render.typeset import (
    TextDraw,
    ellipsize,
    fit_font,
    font,
    pill,
    require_labels,
    scaled_draw,
    seat_name,
    wrap_text,
)

# the pills of the player to move and of the winner, the home's word, and the legend's four entries
LABEL_KEYS: tuple[str, ...] = ("turn", "winner", "seguro", "home", "barrier", "corridor", "centre")
_STATIC_KEYS = ("seguro", "home", "barrier", "corridor", "centre")

W = 1024
GAP = 12
RADIUS = 16
# the board takes the whole width (a phone shows it ~390 px wide), the players' cards sit in
# its homes, and only the dice and the legend go below it
DICE_CARD: Box = (MARGIN, BOARD[3] + GAP, W - MARGIN, BOARD[3] + GAP + 116)
LEGEND_CARD: Box = (MARGIN, DICE_CARD[3] + GAP, W - MARGIN, DICE_CARD[3] + GAP + 112)
HEIGHT = LEGEND_CARD[3] + MARGIN
HEADER_H = CARD_HEAD
WORD_Y = 90  # a card's line under its header, from its top: the home's word left, the centre count right
LIST_X = 196  # from a card's left edge: the centre count and the pieces out on the board ...
LIST_Y = (144, 190, 236, 282)  # ... one a row from its top
PILL_Y = 306  # the turn pill, left under the home spots
TOKEN = 34  # a numbered piece in a card's list and in the dice card's moves
DIE = 84
NUMBER = 25  # a cell's number: 18 px capitals
DONE = "a piece in the centre is done: no button names it, and its card counts them"
K = 3  # the static board is drawn K times larger and scaled down
COMPRESS = 3  # zlib level of the bands drawn on (render/png_bands.py): 4 costs ~1 ms more for 7 % fewer bytes
COLORS = 64  # palette entries: 255 left a four-player board over 100 KB; 32 merged a card tint into cream

PAPER: RGB = (236, 226, 204)
CELL: RGB = (252, 249, 241)
SAFE: RGB = (214, 222, 232)
SEGURO_RING: RGB = (110, 122, 140)
LINE: RGB = (134, 120, 96)
NEUTRAL: RGB = (206, 198, 182)  # a colour nobody plays
MUTED_INK: RGB = (112, 104, 92)


# ---------------------------------------------------------------- layout


def _panels(seats: int) -> tuple[tuple[Box, ...], int]:
    """The players' cards, by seat (each in its colour's home), and the picture's height (the same for
    every seat count)."""
    return tuple(home_card(colour) for colour in rules.COLOURS[seats]), HEIGHT


# ---------------------------------------------------------------- cached art


@lru_cache(maxsize=256)
def _ring(w: int, h: int, colour: RGB, alpha: int = 255, dashed: bool = False, round_: bool = False) -> Image.Image:
    """A ring round a ``w`` × ``h`` box, ``colour`` on ink (RGBA, 6 px larger each side); dashed: a
    place on offer; round: round a piece's spot rather than a cell."""
    s_w, s_h = (w + 12) * SS, (h + 12) * SS
    img = Image.new("RGBA", (s_w, s_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = (min(w, h) // 2 + 3) * SS if round_ else 8 * SS
    for fill, inset, width in ((INK, 3, 6), (colour, 4.5, 3)):
        d.rounded_rectangle((inset * SS, inset * SS, s_w - inset * SS, s_h - inset * SS), radius=radius - 1,
                            outline=(*fill, alpha), width=width * SS)
    if dashed:  # cut gaps by angle round the middle
        mask = Image.new("L", img.size, 0)
        big = max(s_w, s_h)
        for a in range(0, 360, 24 if round_ else 15):
            ImageDraw.Draw(mask).pieslice((s_w / 2 - big, s_h / 2 - big, s_w / 2 + big, s_h / 2 + big), a,
                                          a + (14 if round_ else 9), fill=255)
        img.putalpha(ImageChops.multiply(img.getchannel("A"), mask))
    return img.reduce(SS)


@lru_cache(maxsize=16)
def _centre_icon(seat: int, colour: int, size: int) -> Image.Image:
    """The centre square in small with the seat's triangle filled: "in the centre" (RGBA)."""
    s = size * SS
    c = s / 2
    img = Image.new("RGBA", (s, s), (*CELL, 255))
    d = ImageDraw.Draw(img)
    pts = [turned(-1, 1, colour), turned(1, 1, colour)]
    d.polygon([(c + x * c, c + y * c) for x, y in pts] + [(c, c)], fill=(*player(seat).colour, 255))
    d.line((0, 0, s, s), fill=(*INK, 255), width=SS)
    d.line((0, s, s, 0), fill=(*INK, 255), width=SS)
    d.rectangle((0, 0, s - 1, s - 1), outline=(*INK, 255), width=2 * SS)
    return img.reduce(SS)


def _draw_cell(d: ImageDraw.ImageDraw, box: Box, origin: tuple[int, int], fill: RGB, text: str, ink: RGB = INK,
               size: int = NUMBER, ring: RGB | None = None) -> None:
    """A cell on a K-times canvas whose (0, 0) is ``origin``: fill, number, a seguro's ring."""
    x0, y0, x1, y1 = ((v - o) * K for v, o in zip(box, origin * 2, strict=True))
    d.rectangle((x0, y0, x1, y1), fill=fill, outline=LINE, width=2 * K)
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, 21 * K
    if ring is not None:
        d.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ring, width=2 * K)
    d.text((cx, cy), text, font=font(size * K, True), fill=ink, anchor="mm")


def _at(x: float, y: float) -> tuple[float, float]:
    """Picture pixel (x, y) on the board's K-times canvas."""
    return (x - BOARD[0]) * K, (y - BOARD[1]) * K


def _draw_board(seats: int, home_word: str) -> Image.Image:
    """The board alone (RGB, BOARD's size), drawn K times larger and scaled down, with an empty card
    in every played home (its spots under the home's word)."""
    side = BOARD[2] - BOARD[0]
    big = Image.new("RGB", (side * K, side * K), BG)
    d = scaled_draw(big, K)
    d.rounded_rectangle((0, 0, side * K - 1, side * K - 1), radius=20 * K, fill=WOOD)
    d.rounded_rectangle((6 * K, 6 * K, (side - 6) * K, (side - 6) * K), radius=14 * K, fill=PAPER)
    seat_of = {colour: seat for seat, colour in enumerate(rules.COLOURS[seats])}
    for colour in range(4):
        _draw_home(d, colour, seat_of.get(colour))
    _draw_circuit(d, seat_of)
    board = big.resize((side, side), Image.Resampling.LANCZOS)
    for colour, seat in seat_of.items():
        _draw_card(board, colour, seat, home_word)
    return board


def _draw_card(board: Image.Image, colour: int, seat: int, word: str) -> None:
    """``seat``'s empty card in ``colour``'s home on the ``board`` image: its header, the home's
    ``word`` and the four home spots (the names and the lists are drawn on each picture)."""
    x0, y0, x1, y1 = (v - o for v, o in zip(home_card(colour), BOARD[:2] * 2, strict=True))
    player_card(board, (x0, y0, x1, y1), seat, RADIUS, HEADER_H)
    d = ImageDraw.Draw(board)
    fnt = fit_font(word, LIST_X - 24, 24, bold=True)
    d.text((x0 + 16, y0 + WORD_Y), ellipsize(word, fnt, LIST_X - 24), font=fnt, fill=MUTED_INK, anchor="lm")
    for i in range(4):
        sx, sy = (v - o for v, o in zip(home_spot(colour, i), BOARD[:2], strict=True))
        paste(board, ringed_spot(32, player(seat).tint, LINE), (sx - 33, sy - 33))


def _draw_home(d: ImageDraw.ImageDraw, colour: int, seat: int | None) -> None:
    """``colour``'s home corner, its corridor and its triangle in the centre, in the colours of the
    ``seat`` that plays it (grey when nobody does)."""
    style = player(seat) if seat is not None else None
    x0, y0 = _at(*home_box(colour)[:2])
    x1, y1 = _at(*home_box(colour)[2:])
    d.rectangle((x0, y0, x1, y1), fill=style.colour if style else NEUTRAL, outline=LINE, width=2 * K)
    pts = [turned(-HALF, HALF, colour), turned(HALF, HALF, colour), (0, 0)]  # its triangle in the centre
    d.polygon([_at(CX + x, CY + y) for x, y in pts], fill=tint(style.colour, 0.75) if style else NEUTRAL,
              outline=LINE, width=2 * K)
    for k in range(1, 8):  # its corridor
        _draw_cell(d, corridor_box(colour, k), BOARD[:2], tint(style.colour, 0.5) if style else NEUTRAL, str(k),
                   MUTED_INK)


def _draw_circuit(d: ImageDraw.ImageDraw, seat_of: Mapping[int, int]) -> None:
    """The 68 numbered cells (an exit in the colour of the seat ``seat_of`` gives its colour, the seguros
    ringed), and each played colour's turn-off: a chevron from the arm's tip into its corridor."""
    for number in range(1, rules.CELLS + 1):
        colour, step = divmod(number - 5, 17)
        seat = seat_of.get(colour) if step == 0 else None
        if seat is not None:
            style = player(seat)
            _draw_cell(d, cell_box(number), BOARD[:2], style.colour, str(number), style.ink, ring=style.ink)
        else:
            safe = number in SEGUROS
            _draw_cell(d, cell_box(number), BOARD[:2], SAFE if safe else CELL, str(number),
                       ring=SEGURO_RING if safe else None)
    for colour, seat in seat_of.items():
        tip = turned(0, -1, colour)
        cx, cy = _at(*box_centre(cell_box(17 * colour or rules.CELLS)))
        cx, cy = cx + tip[0] * 19 * K, cy + tip[1] * 19 * K
        corners = [(tip[0] * 6, tip[1] * 6), turned(-8, 2, colour), turned(8, 2, colour)]
        d.polygon([(cx + x * K, cy + y * K) for x, y in corners], fill=player(seat).colour, outline=INK)


def _draw_legend(img: Image.Image, words: Mapping[str, str]) -> None:
    """Four marks, two to a row, each a sample and its words: the seguro and the barrier as on the
    board, then the corridor tab and the centre as the cards and the dice card write a piece's place
    (the buttons say «к3» where the picture shows the tab)."""
    x0, y0, x1, y1 = LEGEND_CARD
    shadowed_card(img, LEGEND_CARD, CARD, RADIUS)
    d = ImageDraw.Draw(img)
    fnt = font(24)
    half, row = (x1 - x0) // 2, (y1 - y0) // 2
    for i, key in enumerate(("seguro", "barrier", "corridor", "centre")):
        sx, sy = x0 + (i % 2) * half + 20 + LANE // 2, y0 + row // 2 + (i // 2) * row + (3 if i < 2 else -3)
        box = (sx - LANE // 2, sy - L // 2, sx + LANE // 2, sy + L // 2)
        if key == "corridor":
            _draw_tab(d, sx - 15, sy, 0, 3)
        elif key == "centre":
            paste(img, _centre_icon(0, rules.COLOURS[4][0], 30), (sx - 15, sy - 15))
        else:
            sample = Image.new("RGB", ((LANE + 1) * K, (L + 1) * K), CARD)
            seguro = key == "seguro"
            _draw_cell(scaled_draw(sample, K), box, box[:2], SAFE if seguro else CELL, "12" if seguro else "",
                       ring=SEGURO_RING if seguro else None)
            img.paste(sample.resize((LANE + 1, L + 1), Image.Resampling.LANCZOS), box[:2])
        if key == "barrier":
            _draw_group(img, d, box, [(0, 0), (0, 1)])
        lines = wrap_text(words[key], fnt, half - LANE - 56, 2)
        for j, line in enumerate(lines):
            d.text((box[2] + 16, sy + (j - (len(lines) - 1) / 2) * 25), line, font=fnt, fill=INK, anchor="lm")


@lru_cache(maxsize=8)
def _base(seats: int, words: tuple[str, ...]) -> Image.Image:
    """The static picture for (seats, words): everything that never moves."""
    by_key = dict(zip(_STATIC_KEYS, words, strict=True))
    img = Image.new("RGB", (W, HEIGHT), BG)
    img.paste(_draw_board(seats, by_key["home"]), BOARD[:2])
    _draw_legend(img, by_key)
    wood_frame(img, DICE_CARD, RADIUS, 6, RADIUS - 4)
    return img


# ---------------------------------------------------------------- pieces and marks


def _draw_group(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, who: list[tuple[int, int]]) -> None:
    """The (seat, piece)s on one cell side by side across it; two of one seat are a barrier: a bar
    in its colour joins them and the cell gets a thick ink frame."""
    (cx, cy), wide = box_centre(box), box[2] - box[0] > box[3] - box[1]
    barrier = len(who) == 2 and who[0][0] == who[1][0]
    if barrier:
        bar = (box[0] + 10, cy - 7, box[2] - 10, cy + 7) if wide else (cx - 7, box[1] + 10, cx + 7, box[3] - 10)
        d.rounded_rectangle(bar, radius=5, fill=player(who[0][0]).colour, outline=INK, width=2)
    size, step = (44, 0) if len(who) == 1 else (38, 40) if len(who) == 2 else (28, 26)
    for k, (seat, i) in enumerate(who):
        off = round((k - (len(who) - 1) / 2) * step)
        put_piece(img, seat, i + 1, size, (cx + off, cy) if wide else (cx, cy + off))
    if barrier:
        d.rectangle(box, outline=INK, width=4)


def _draw_pieces(img: Image.Image, d: ImageDraw.ImageDraw, state: ParchisState) -> None:
    places: dict[tuple[int, ...], tuple[Box, list[tuple[int, int]]]] = {}
    for seat in range(state.seats):
        colour = state.colour(seat)
        for i, progress in enumerate(state.of(seat)):
            place = track_cell(colour, progress)
            if place is not None:
                places.setdefault(place[0], (place[1], []))[1].append((seat, i))
            else:  # at home and in the centre every piece has its own spot
                spot = home_spot(colour, i) if progress == HOME else centre_spot(colour, i)
                put_piece(img, seat, i + 1, 58 if progress == HOME else 32, spot, None if progress == HOME else DONE)
        arrived = state.of(seat).count(CENTRE)
        if arrived:
            dx, dy = turned(0, HALF - 70, colour)
            d.text((CX + dx, CY + dy), f"{arrived}/4", font=font(26, True), fill=INK, anchor="mm", stroke_width=3,
                   stroke_fill=LIGHT)
    for box, who in places.values():
        _draw_group(img, d, box, who)


def _ring_at(img: Image.Image, box: Box, colour: RGB, alpha: int = 255, dashed: bool = False,
             round_: bool = False) -> None:
    paste(img, _ring(box[2] - box[0], box[3] - box[1], colour, alpha, dashed, round_), (box[0] - 6, box[1] - 6))


def _moves(state: ParchisState, events: Sequence[Event]) -> list[tuple[int, int, int, int]]:
    """(seat, piece, from, to) of every move of the last action (without events: the last move)."""
    if not events:
        seat, piece, start, end = state.last_move if len(state.last_move) == 4 else (-1, 0, 0, 0)
        return [] if seat < 0 else [(seat, piece, start, end)]
    return [(e.seat, int(e.data["piece"]), int(e.data["from"]), int(e.data["to"])) for e in events
            if e.kind in ("exit", "move") and e.seat is not None]


def _draw_marks(img: Image.Image, state: ParchisState, events: Sequence[Event]) -> None:
    """The last action: faint gold where its moves started, gold where they ended, a red ✕ on a
    capture's cell and a red ring round each piece sent home."""
    moves = _moves(state, events)
    for faint in (True, False):
        for seat, piece, start, end in moves:
            where = start if faint else end
            _ring_at(img, spot_box(state.colour(seat), where, piece), GOLD, 140 if faint else 255,
                     round_=where in (HOME, CENTRE))
    mover: tuple[int, int] | None = None
    for e in events:
        if e.kind in ("exit", "move") and e.seat is not None:
            mover = (e.seat, int(e.data["to"]))
        elif e.kind in ("capture", "third_six") and e.seat is not None and e.data.get("piece") is not None:
            if e.kind == "capture" and mover is not None:
                box = spot_box(state.colour(mover[0]), mover[1], 0)
                paste(img, red_cross(30), (box[2] - 22, box[1] - 10))
            _ring_at(img, spot_box(state.colour(e.seat), HOME, int(e.data["piece"])), RED, round_=True)


def _draw_options(img: Image.Image, state: ParchisState) -> None:
    """Phase move: every landing place on offer, dashed in the mover's colour, with the piece number."""
    seat = state.turn
    boxes = [(piece, spot_box(state.colour(seat), end, piece), end) for _code, piece, _start, end, _e in state.moves]
    for _piece, box, end in boxes:
        _ring_at(img, box, player(seat).colour, dashed=True, round_=end == CENTRE)
    for piece, box, _end in boxes:  # the numbers over every ring
        paste(img, numbered_token(seat, piece + 1, 34), (box[0] - 17, box[1] - 17))


# ---------------------------------------------------------------- dice card and panels


def _draw_tab(d: ImageDraw.ImageDraw, x: int, cy: int, seat: int, k: int) -> None:
    """Corridor cell ``k`` as a place is written (the buttons' «к3»): a 30-px tab in ``seat``'s
    corridor tint with the number, its left edge at ``x``."""
    d.rectangle((x, cy - 15, x + 30, cy + 15), fill=tint(player(seat).colour, 0.5), outline=INK, width=1)
    d.text((x + 15, cy + 1), str(k), font=font(24, True), fill=INK, anchor="mm")


def _draw_place(img: Image.Image, d: ImageDraw.ImageDraw, x: int, cy: int, state: ParchisState, seat: int,
                progress: int, ink: RGB = INK) -> int:
    """Where a piece is or lands, from ``x``: a cell number, a corridor tab, the centre. Returns the width."""
    number = rules.cell_number(state.colour(seat), progress)
    num = font(24, True)
    if number is not None or progress == HOME:
        text = "—" if number is None else str(number)
        d.text((x, cy + 1), text, font=num, fill=ink, anchor="lm")
        return round(num.getlength(text))
    if progress == CENTRE:
        paste(img, _centre_icon(seat, state.colour(seat), 28), (x, cy - 14))
    else:
        _draw_tab(d, x, cy, seat, progress - LAST_CIRCUIT)
    return 30


def _draw_dice(img: Image.Image, d: ImageDraw.ImageDraw, state: ParchisState, names: Sequence[str],
               labels: Mapping[str, str]) -> None:
    """The last throw (who, the die, a bonus or a 6 counted 7), the moves on offer, whose turn."""
    x0, y0, x1, y1 = DICE_CARD
    box = (x0 + 24, (y0 + y1 - DIE) // 2, x0 + 24 + DIE, (y0 + y1 + DIE) // 2)
    tx, mx, top, low = box[2] + 28, (x0 + x1) // 2 + 40, y0 + 34, y1 - 34
    die = state.last_dice[0] if state.last_dice else 0
    if state.last_seat is not None and die:
        thrower = state.last_seat
        text, fnt = seat_name(names, thrower, mx - tx - 60, 26)
        paste(img, marker_image(thrower, 28), (tx, top - 14))
        d.text((tx + 36, top), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    choosing = state.phase == PHASE_MOVE and not state.finished
    if choosing and not state.bonus:
        paste_ring(img, DIE, DIE, round(DIE * 0.2), 5, GOLD, (box[0] - 5, box[1] - 5))
    draw_die(img, box, die or None)
    x = tx
    if choosing and (state.bonus or state.count != die):
        x = pill(d, (x, low), f"+{state.count}" if state.bonus else f"= {state.count}", font(26, True), GOLD, INK,
                 pad=(12, 4))[2] + 18
    for _code, piece, _start, end, effect in state.moves[:4] if choosing else ():
        paste(img, numbered_token(state.turn, piece + 1, TOKEN), (x, low - TOKEN // 2))
        d.text((x + 40, low), "→", font=font(24, True), fill=FELT_MUTED, anchor="lm")
        width = _draw_place(img, d, x + 70, low, state, state.turn, end, LIGHT)
        if effect == rules.EFFECT_CAPTURE:
            paste(img, red_cross(24), (x + 74 + width, low - 12))
            width += 28
        x += 70 + width + 26
    seat = state.winner if state.finished else state.turn
    if seat is None:
        return
    turn_line(img, d, (mx, top), labels["winner" if state.finished else "turn"], seat, names, x1 - 20, 200)


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: ParchisState,
                names: Sequence[str], labels: Mapping[str, str], place: int | None) -> None:
    """A player's card: the header; the pieces at home stand on its spots (:func:`_draw_pieces`); right
    of them how many are in the centre, then every piece out on the board with its cell, one a row."""
    x0, y0, _x1, _y1 = box
    footed_card_header(img, d, box, seat, state, names, labels, RADIUS, HEADER_H, (14, PILL_Y), LIST_X - 30, place)
    own, x = state.of(seat), x0 + LIST_X
    cy = y0 + WORD_Y
    paste(img, _centre_icon(seat, state.colour(seat), 30), (x, cy - 15))
    d.text((x + 38, cy + 1), f"{own.count(CENTRE)}/4", font=font(26, True), fill=INK, anchor="lm")
    out = [(i, progress) for i, progress in enumerate(own) if progress not in (HOME, CENTRE)]
    for (i, progress), cy in zip(out, (y0 + y for y in LIST_Y), strict=False):
        paste(img, numbered_token(seat, i + 1, TOKEN), (x, cy - TOKEN // 2))
        _draw_place(img, d, x + TOKEN + 8, cy, state, seat, progress)


def _backdrop(state: ParchisState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    return _base(state.seats, tuple(labels[k] for k in _STATIC_KEYS))


def _compose(state: ParchisState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    img = _backdrop(state, labels).copy()
    d = TextDraw(img)
    _draw_pieces(img, d, state)
    _draw_marks(img, state, events)
    if state.phase == PHASE_MOVE and not state.finished:
        _draw_options(img, state)
    _draw_dice(img, d, state, names, labels)
    places = final_places(rules.ENGINE, state)
    for seat, box in enumerate(_panels(state.seats)[0]):
        _draw_panel(img, d, box, seat, state, names, labels, places.get(seat))
    return img


@lru_cache(maxsize=4)
def _palette(seats: int) -> Image.Image:
    """The fixed palette for a seat count, fitted once to a sample game drawn in full colour
    and a strip of the colours the marks must keep."""
    game = random_game(rules.ENGINE, rules.ParchisOptions(), seats, "7" * 64, random.Random(seats), 3000)
    n = len(game)
    keep = [GOLD, RED, INK, LIGHT, CELL, SAFE, LINE, *MEDALS, *(player(s).colour for s in range(seats))]
    return fitted_palette(_compose, game, (n // 3, n // 2, 2 * n // 3, n - 1), LABEL_KEYS,
                          [colour_strip(keep, W)], COLORS)


def render_board(state: ParchisState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The board of a «Парчис» game as PNG bytes (1024 px wide; 2–4 players).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS` (the bot fills them from its locale); a missing key raises KeyError.
    ``events`` are those of the actions since the table was last shown (on the fast table a run of
    throws and moves): their moves are ringed in gold (without events,
    ``state.last_move`` is), a capture gets a red ✕ and the captured piece a red ring.
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(state.seats), compress_level=COMPRESS,
                  backdrop=_backdrop(state, labels))
