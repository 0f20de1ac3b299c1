"""The «Людо» board: the classic 15 × 15 cross with a yard in each corner, the 52-cell circuit
running clockwise, the coloured start cells, the stars, the lanes and the four centre
triangles; the pieces, the last move's route, the cells the waiting throw can reach, and a
strip under the board with the die, whose turn it is and a legend.

Each yard is also its player's card: the marker and name on top, the four yard spots, the
pieces in the centre as four dots, and the turn / winner pill with a gold ring round it.
Colour ``c`` takes the style of the seat that plays it; a colour nobody plays is grey.

``render_board(state, names, labels, events)`` returns PNG bytes. The static picture is drawn
once per (seats, legend words) and cached; each call pastes pieces, marks, dice and text on a
copy and maps it to a fixed palette fitted once per seat count to a sample game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines import ludo as rules
from engines.base import Event
from engines.ludo import CENTRE, COLOURS, LAST_CIRCUIT, PHASE_MOVE, PIECES, SAFE_CELLS, YARD, LudoState, cell_of
from render.canvas import paste, rounded_mask
from render.cards import mark_card, player_card, seat_standing, turn_line, wood_frame
from render.dice import draw_die
from render.marks import dashed_ring, paste_ring
from render.pieces import draw_crowd, marker_image, numbered_token, put_piece, shape_points
from render.places import final_places, place_badge
from render.png import fitted_palette, random_game, to_png
from render.theme import BG, CARD, CHIP, FELT_TEXT, GOLD, INK, IVORY, RED, RGB, Box, player
from render.typeset import TextDraw, ellipsize, fit_font, font, pill, require_labels, seat_name

# the pills of the player to move and of the winner, the legend of the safe cells, the yard's name
LABEL_KEYS: tuple[str, ...] = ("turn", "winner", "safe_cells", "yard")
_STATIC_KEYS = ("safe_cells", "yard")

W = 1024
MARGIN = 16
C = 64  # one cell
PAD = 16  # board frame to the grid
GX, GY = MARGIN + PAD, MARGIN + PAD
BOARD: Box = (MARGIN, MARGIN, MARGIN + 15 * C + 2 * PAD, MARGIN + 15 * C + 2 * PAD)
GAP = 12
STRIP: Box = (MARGIN, BOARD[3] + GAP, W - MARGIN, BOARD[3] + GAP + 100)
LEGEND: Box = (MARGIN, STRIP[3] + GAP, W - MARGIN, STRIP[3] + GAP + 64)  # below the die: the board keeps the width
HEIGHT = LEGEND[3] + MARGIN
INSET = 22  # yard edge to its card
RADIUS = 18
HEADER_H = 50
STATUS_H = 46
DIE = 70
COMPRESS = 3  # zlib level of the bands drawn on (render/png_bands.py): 4 costs ~1 ms more for under 1 % fewer bytes

PAPER: RGB = (238, 228, 204)
CELL: RGB = (252, 249, 241)
LINE: RGB = (150, 136, 110)
STAR: RGB = (226, 214, 182)
STAR_EDGE: RGB = (128, 108, 72)
NEUTRAL: RGB = (164, 164, 170)
NEUTRAL_CARD: RGB = (214, 214, 218)

# ---------------------------------------------------------------- geometry (grid units: col, row)

# colour 0's 13 circuit cells from its start (left arm, top row) round to the top arm's far column;
# the other colours' are these turned a quarter clockwise per colour
_ARM = ((1, 6), (2, 6), (3, 6), (4, 6), (5, 6), (6, 5), (6, 4), (6, 3), (6, 2), (6, 1), (6, 0), (7, 0), (8, 0))
_LANE = ((1, 7), (2, 7), (3, 7), (4, 7), (5, 7))  # colour 0's lane, progress 51..55


def _turn(col: float, row: float, k: int, n: int = 14) -> tuple[float, float]:
    """(col, row) turned ``k`` quarters clockwise round the board (``n`` = 14 for cells, 15 for corners)."""
    for _ in range(k % 4):
        col, row = n - row, col
    return col, row


CIRCUIT = tuple(_turn(*_ARM[i % rules.ARM], i // rules.ARM) for i in range(rules.CIRCUIT))


def grid_cell(colour: int, progress: int) -> tuple[int, int]:
    """The (col, row) of a piece of ``colour`` at ``progress`` 0..55 (circuit or lane)."""
    cell = cell_of(colour, progress) if 0 <= progress <= LAST_CIRCUIT else None
    if cell is not None:
        col, row = CIRCUIT[cell]
    elif LAST_CIRCUIT < progress < CENTRE:
        col, row = _turn(*_LANE[progress - LAST_CIRCUIT - 1], colour)
    else:
        raise ValueError(f"progress {progress} is not on a cell")
    return int(col), int(row)


def _px(col: float, row: float) -> tuple[int, int]:
    """Grid-corner units to pixels."""
    return round(GX + col * C), round(GY + row * C)


def _corner(colour: int, col: float, row: float) -> tuple[int, int]:
    """A point given in colour 0's corner units, turned to ``colour``'s side, in pixels."""
    return _px(*_turn(col, row, colour, 15))


def cell_centre(colour: int, progress: int) -> tuple[int, int]:
    """The centre of the cell of a piece at ``progress`` 0..55, or of ``colour``'s centre triangle at CENTRE."""
    if progress == CENTRE:
        return _corner(colour, 6.45, 7.5)
    col, row = grid_cell(colour, progress)
    return GX + col * C + C // 2, GY + row * C + C // 2


def centre_slot(colour: int, i: int) -> tuple[int, int]:
    """Where piece ``i`` of ``colour`` stands in the centre triangle."""
    return _corner(colour, 6 + (0.28, 0.7)[i // 2], 7.5 + (-0.27, 0.27)[i % 2])


@lru_cache(maxsize=4)
def yard_box(colour: int) -> Box:
    (ax, ay), (bx, by) = _corner(colour, 0, 0), _corner(colour, 6, 6)
    return min(ax, bx), min(ay, by), max(ax, bx), max(ay, by)


@lru_cache(maxsize=4)
def card_box(colour: int) -> Box:
    """The player card inside ``colour``'s yard."""
    x0, y0, x1, y1 = yard_box(colour)
    return x0 + INSET, y0 + INSET, x1 - INSET, y1 - INSET


def yard_spot(colour: int, i: int) -> tuple[int, int]:
    """The centre of yard spot ``i`` (0..3: top-left, top-right, bottom-left, bottom-right)."""
    x0, y0, x1, y1 = card_box(colour)
    cy = (y0 + HEADER_H + y1 - STATUS_H) // 2
    return (x0 + x1) // 2 + (-62, 62)[i % 2], cy + (-56, 56)[i // 2]


def home_dot(colour: int, i: int) -> tuple[int, int]:
    """The centre of the i-th dot (0..3) of the pieces-in-the-centre count on ``colour``'s card."""
    x0, _y0, _x1, y1 = card_box(colour)
    return x0 + 20 + i * 22, y1 - STATUS_H // 2


def _owners(seats: int) -> dict[int, int]:
    """colour -> the seat that plays it."""
    return {colour: seat for seat, colour in enumerate(COLOURS[seats])}


def _fill(seats: int, colour: int) -> RGB:
    seat = _owners(seats).get(colour)
    return NEUTRAL if seat is None else player(seat).colour


# ---------------------------------------------------------------- cached art


def _star_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    return shape_points("star", cx, cy, r)


def _arrow_points(cx: float, cy: float, r: float, dx: int, dy: int) -> list[tuple[float, float]]:
    """A fat arrow head pointing (dx, dy) centred on (cx, cy)."""
    px, py = -dy, dx
    return [(cx + dx * r, cy + dy * r), (cx - dx * r * 0.6 + px * r * 0.8, cy - dy * r * 0.6 + py * r * 0.8),
            (cx - dx * r * 0.25, cy - dy * r * 0.25),
            (cx - dx * r * 0.6 - px * r * 0.8, cy - dy * r * 0.6 - py * r * 0.8)]


def _grid_art(seats: int) -> Image.Image:
    """The 15 × 15 grid (yards, circuit, lanes, centre), drawn at 2× and halved (RGB)."""
    k = 2
    u = C * k
    img = Image.new("RGB", (15 * u, 15 * u), PAPER)
    d = ImageDraw.Draw(img)

    def rect(col: float, row: float) -> tuple[float, float, float, float]:
        return col * u, row * u, (col + 1) * u - 1, (row + 1) * u - 1

    def mid(col: float, row: float) -> tuple[float, float]:
        return (col + 0.5) * u, (row + 0.5) * u

    for colour in range(4):
        x0, y0, x1, y1 = (v * k for v in (yard_box(colour)))
        d.rectangle((x0 - GX * k, y0 - GY * k, x1 - GX * k - 1, y1 - GY * k - 1), fill=_fill(seats, colour))
    for i, (col, row) in enumerate(CIRCUIT):
        colour, step = divmod(i, rules.ARM)
        start = step == 0
        d.rectangle(rect(col, row), fill=_fill(seats, colour) if start else CELL, outline=LINE, width=k)
        cx, cy = mid(col, row)
        if start:  # an arrow the way the pieces go
            nx, ny = CIRCUIT[i + 1]
            d.polygon(_arrow_points(cx, cy, u * 0.3, int(nx - col), int(ny - row)), fill=CELL, outline=INK, width=k)
        elif i in SAFE_CELLS:
            d.polygon(_star_points(cx, cy, u * 0.36), fill=STAR, outline=STAR_EDGE, width=2 * k)
    for colour in range(4):
        fill = _fill(seats, colour)
        for p in range(LAST_CIRCUIT + 1, CENTRE):
            d.rectangle(rect(*grid_cell(colour, p)), fill=fill, outline=LINE, width=k)
        (ax, ay), (bx, by) = grid_cell(colour, LAST_CIRCUIT), grid_cell(colour, LAST_CIRCUIT + 1)
        cx, cy = mid(ax, ay)  # the turn into the lane
        d.polygon(_arrow_points(cx, cy, u * 0.3, bx - ax, by - ay), fill=fill, outline=INK, width=k)
        tri = [_turn(6, 6, colour, 15), _turn(6, 9, colour, 15), (7.5, 7.5)]
        d.polygon([(x * u, y * u) for x, y in tri], fill=fill, outline=INK, width=k)
    d.rectangle((6 * u, 6 * u, 9 * u - 1, 9 * u - 1), outline=INK, width=2 * k)
    return img.reduce(k)


def _draw_strip(img: Image.Image, words: Mapping[str, str]) -> None:
    """The die's strip, and under it the legend: the safe cells, then the yard, side by side."""
    wood_frame(img, STRIP, RADIUS, 6, RADIUS - 4)
    x0, y0, x1, y1 = LEGEND
    wood_frame(img, LEGEND, RADIUS, 6, RADIUS - 4)
    d = ImageDraw.Draw(img)
    cy = (y0 + y1) // 2
    yard_room = 86 + round(fit_font(words["yard"], 240, 24, bold=True).getlength(words["yard"])) + 20
    for lx, right, key in ((x0 + 18, x1 - yard_room - 24, "safe_cells"), (x1 - yard_room, x1 - 4, "yard")):
        if key == "safe_cells":
            d.rectangle((lx, cy - 17, lx + 34, cy + 17), fill=CELL, outline=LINE)
            d.polygon(_star_points(lx + 17, cy, 13), fill=STAR, outline=STAR_EDGE, width=2)
            d.rectangle((lx + 40, cy - 17, lx + 74, cy + 17), fill=player(0).colour, outline=LINE)
            d.polygon(_arrow_points(lx + 57, cy, 10, 1, 0), fill=CELL, outline=INK)
        else:
            d.rectangle((lx + 20, cy - 17, lx + 54, cy + 17), fill=player(0).colour)
            d.ellipse((lx + 22, cy - 15, lx + 52, cy + 15), fill=player(0).tint, outline=INK, width=2)
            paste(img, numbered_token(0, 1, 22, small="the legend's sample piece: no button names it"),
                  (lx + 26, cy - 11))
        room = right - 16 - (lx + 86)
        text = words[key]
        fnt = fit_font(text, room, 24, bold=True)
        d.text((lx + 86, cy), ellipsize(text, fnt, room), font=fnt, fill=FELT_TEXT, anchor="lm")


def _draw_cards(img: Image.Image, seats: int) -> None:
    d = ImageDraw.Draw(img)
    owners = _owners(seats)
    for colour in range(4):
        x0, y0, x1, y1 = box = card_box(colour)
        seat = owners.get(colour)
        if seat is None:
            img.paste(NEUTRAL_CARD, box, rounded_mask(x1 - x0, y1 - y0, RADIUS))
            for i in range(PIECES):
                x, y = yard_spot(colour, i)
                d.ellipse((x - 38, y - 38, x + 38, y + 38), outline=NEUTRAL, width=3)
            continue
        style = player(seat)
        player_card(img, box, seat, RADIUS, HEADER_H, shadow=False)
        for i in range(PIECES):
            x, y = yard_spot(colour, i)
            d.ellipse((x - 40, y - 40, x + 40, y + 40), fill=style.tint, outline=style.colour, width=4)
        d.line((x0 + 12, y1 - STATUS_H, x1 - 12, y1 - STATUS_H), fill=CHIP, width=2)


@lru_cache(maxsize=16)
def _base(seats: int, words: tuple[str, ...]) -> Image.Image:
    """The static picture for (seats, legend words): everything that never moves."""
    img = Image.new("RGB", (W, HEIGHT), BG)
    wood_frame(img, BOARD, 22, 6, 16, paper=PAPER, shadow=True)
    img.paste(_grid_art(seats), (GX, GY))
    _draw_cards(img, seats)
    _draw_strip(img, dict(zip(_STATIC_KEYS, words, strict=True)))
    return img


# ---------------------------------------------------------------- pieces and marks

# token size and offsets from a cell's centre for 1, 2, 3, 4 and more pieces sharing it
_STACKS: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = (
    (52, ((0, 0),)), (38, ((-10, -9), (10, 9))), (30, ((-12, -11), (12, -11), (0, 12))),
    (28, ((-13, -13), (13, -13), (-13, 13), (13, 13))), (20, tuple((x, y) for y in (-18, 0, 18) for x in (-18, 0, 18))))
_BLOCK = (34, ((-13, 0), (13, 0)))
YARD_PIECE = 58
CENTRE_PIECE = 28
DONE = "a piece in the centre is done: no button names it, and its card counts them"
CROWD = "five or more pieces on one cell: its 64 px hold no more readable numbers (the moves on offer carry theirs)"


def _where(state: LudoState, seat: int, i: int, progress: int) -> tuple[int, int]:
    colour = state.colour(seat)
    if progress == YARD:
        return yard_spot(colour, i)
    if progress == CENTRE:
        return centre_slot(colour, i)
    return cell_centre(colour, progress)


def _draw_pieces(img: Image.Image, d: ImageDraw.ImageDraw, state: LudoState) -> None:
    cells: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for seat in range(state.seats):
        for i, progress in enumerate(state.of(seat)):
            if progress in (YARD, CENTRE):
                size, small = (YARD_PIECE, None) if progress == YARD else (CENTRE_PIECE, DONE)
                put_piece(img, seat, i + 1, size, _where(state, seat, i, progress), small)
            else:
                cells.setdefault(cell_centre(state.colour(seat), progress), []).append((seat, i))
    for (cx, cy), who in sorted(cells.items()):
        seats = [s for s, _i in who]
        on_circuit = state.of(who[0][0])[who[0][1]] <= LAST_CIRCUIT  # (a lane cell holds one colour only)
        walls = [s for s in sorted(set(seats)) if seats.count(s) == 2 and state.options.bonuses and on_circuit]
        for seat in walls:  # rule 9: a block is a wall round the cell
            h = C // 2 - 3
            d.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), 8, outline=INK, width=8)
            d.rounded_rectangle((cx - h + 2, cy - h + 2, cx + h - 2, cy + h - 2), 7, outline=player(seat).colour,
                                width=4)
        block = len(who) == 2 and bool(walls)
        if len(who) > 4:  # a crowd: every colour first, then the seconds, so each colour shows
            who = sorted(who, key=lambda p: (seats[: who.index(p)].count(p[0]), p[0]))
        draw_crowd(img, d, (cx, cy), who, *(_BLOCK if block else _STACKS[min(len(who), 5) - 1]),
                   small=CROWD if len(who) > 4 else None)


def _fresh_move(state: LudoState, events: Sequence[Event]) -> bool:
    """Whether the last move belongs to the last action (without events: assume so)."""
    if len(state.last_move) != 4:
        return False
    return not events or any(e.kind in ("move", "exit") for e in events)


def _route(state: LudoState) -> list[tuple[int, int]]:
    seat, piece, start, end = state.last_move
    if start == YARD:
        return [_where(state, seat, piece, YARD), _where(state, seat, piece, 0)]
    return [_where(state, seat, piece, p) for p in range(start, end + 1)]


def _ring(d: ImageDraw.ImageDraw, xy: tuple[int, int], r: int, colour: RGB, width: int) -> None:
    x, y = xy
    d.ellipse((x - r - 2, y - r - 2, x + r + 2, y + r + 2), outline=INK, width=width + 4)
    d.ellipse((x - r, y - r, x + r, y + r), outline=colour, width=width)


def _draw_route(d: ImageDraw.ImageDraw, state: LudoState) -> None:
    """The last move: its way through the cells, a pale ring where it started, a gold one where it ended."""
    seat, _piece, _start, end = state.last_move
    path = _route(state)
    d.line(path, fill=INK, width=12, joint="curve")
    d.line(path, fill=player(seat).colour, width=6, joint="curve")
    _ring(d, path[0], 40 if state.last_move[2] == YARD else 24, (236, 222, 170), 3)
    _ring(d, path[-1], 17 if end == CENTRE else 29, GOLD, 5)


def _cross(d: ImageDraw.ImageDraw, x: int, y: int) -> None:
    """A red ✕ on an ivory badge centred on (x, y)."""
    d.ellipse((x - 15, y - 15, x + 15, y + 15), fill=IVORY, outline=INK, width=3)
    for w, c in ((9, INK), (5, RED)):
        d.line((x - 7, y - 7, x + 7, y + 7), fill=c, width=w)
        d.line((x - 7, y + 7, x + 7, y - 7), fill=c, width=w)


def _draw_captures(d: ImageDraw.ImageDraw, state: LudoState, events: Sequence[Event]) -> None:
    """A red ✕ on the cell where a piece was taken, and a red ring round its yard spot."""
    for e in events:
        if e.kind != "capture" or e.seat is None or len(state.last_move) != 4:
            continue
        mover, _piece, _start, end = state.last_move
        x, y = cell_centre(state.colour(mover), end)
        _cross(d, x + C // 2 - 8, y - C // 2 + 8)
        _ring(d, yard_spot(state.colour(e.seat), int(e.data.get("piece", 0))), 40, RED, 4)


def _draw_options(img: Image.Image, state: LudoState, numbers: bool) -> None:
    """The places the waiting throw can reach: a dashed ring, and the piece's number on top."""
    for _code, piece, _start, end, _effect in state.moves:
        x, y = _where(state, state.turn, piece, end)
        if numbers:
            paste(img, numbered_token(state.turn, piece + 1, 34), (x + C // 2 - 16, y - C // 2 - 14))
            continue
        ring = dashed_ring(40 if end == CENTRE else C - 2, player(state.turn).colour, width=5)
        paste(img, ring, (x - ring.width // 2, y - ring.height // 2))


# ---------------------------------------------------------------- cards and strip


def _draw_card(img: Image.Image, d: ImageDraw.ImageDraw, seat: int, state: LudoState, names: Sequence[str],
               labels: Mapping[str, str], place: int | None) -> None:
    x0, y0, x1, y1 = box = card_box(state.colour(seat))
    pw = x1 - x0
    won, current = seat_standing(state, seat)
    mark_card(img, box, RADIUS, won, current, state.finished, veil_alpha=90, edged=True)
    right = x1 - 12
    if place is not None:  # the game is over: every seat's place
        right = place_badge(img, d, (right + 2, y0 + HEADER_H // 2), place)[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 50, 24)
    d.text((x0 + 50, y0 + HEADER_H // 2), text, font=fnt, fill=INK, anchor="lm")
    cy = y1 - STATUS_H // 2
    home = state.of(seat).count(CENTRE)
    for i in range(PIECES):  # the pieces in the centre
        x, y = home_dot(state.colour(seat), i)
        d.ellipse((x - 9, y - 9, x + 9, y + 9), fill=player(seat).colour if i < home else CARD, outline=INK,
                  width=2)
    x, _y = home_dot(state.colour(seat), PIECES)
    d.text((x - 8, cy + 1), f"{home}/{PIECES}", font=font(24, True), fill=INK, anchor="lm")
    if current or won:
        key = "winner" if won else "turn"
        fnt = fit_font(labels[key], pw - 200, 24, bold=True)
        pill(d, (x1 - 8, cy), labels[key], fnt, GOLD, INK, anchor="r", pad=(8, 3), max_width=pw - 176)


def _draw_die(img: Image.Image, d: ImageDraw.ImageDraw, state: LudoState, names: Sequence[str],
              labels: Mapping[str, str], events: Sequence[Event]) -> None:
    x0, y0, _x1, y1 = STRIP
    box = (x0 + 20, (y0 + y1 - DIE) // 2, x0 + 20 + DIE, (y0 + y1 + DIE) // 2)
    choosing = state.phase == PHASE_MOVE and not state.finished
    if choosing:
        paste_ring(img, DIE, DIE, round(DIE * 0.2), 5, GOLD, (box[0] - 5, box[1] - 5))
    die = state.last_dice[0] if state.last_dice else 0
    draw_die(img, box, die or None)
    if any(e.kind == "third_six" for e in events):  # the third six burns the turn
        _cross(d, box[2] - 2, box[1] + 2)
    tx = box[2] + 22
    room = STRIP[2] - 30 - tx
    if state.last_seat is not None and die:  # who threw
        text, fnt = seat_name(names, state.last_seat, room - 36, 22)
        paste(img, marker_image(state.last_seat, 28), (tx, y0 + 30 - 14))
        d.text((tx + 36, y0 + 30), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    ry = y1 - 30
    if choosing:  # the pieces that can play the waiting throw
        x = tx
        for _code, piece, _start, _end, _effect in state.moves:
            paste(img, numbered_token(state.turn, piece + 1, 34), (x, ry - 17))
            x += 42
        d.text((x + 2, ry), f"+{state.die}", font=font(26, True), fill=GOLD, anchor="lm")
        return
    seat = state.winner if state.finished else state.turn
    if seat is None:
        return
    turn_line(img, d, (tx, ry), labels["winner" if state.finished else "turn"], seat, names, STRIP[2] - 30, 240)


def _backdrop(state: LudoState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    return _base(state.seats, tuple(labels[k] for k in _STATIC_KEYS))


def _compose(state: LudoState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    img = _backdrop(state, labels).copy()
    d = TextDraw(img)
    choosing = state.phase == PHASE_MOVE and not state.finished
    places = final_places(rules.ENGINE, state)
    for seat in range(state.seats):
        _draw_card(img, d, seat, state, names, labels, places.get(seat))
    if _fresh_move(state, events):
        _draw_route(d, state)
    if choosing:
        _draw_options(img, state, numbers=False)
    _draw_pieces(img, d, state)
    _draw_captures(d, state, events)
    if choosing:
        _draw_options(img, state, numbers=True)
    _draw_die(img, d, state, names, labels, events)
    return img


@lru_cache(maxsize=4)
def _palette(seats: int) -> Image.Image:
    """The fixed palette for a seat count, fitted once to a sample game drawn in full colour."""
    game = random_game(rules.ENGINE, rules.LudoOptions(bonuses=True), seats, "5" * 64, random.Random(seats), 2000)
    n = len(game)
    capture = next((i for i, (_s, e) in enumerate(game) if any(x.kind == "capture" for x in e)), 0)
    swatch = Image.new("RGB", (W, 24), RED)  # the marks' colours, whatever the sample game held
    for i, colour in enumerate((GOLD, INK, IVORY, NEUTRAL, *(player(s).colour for s in range(4)))):
        swatch.paste(colour, (i * 48 + 48, 0, i * 48 + 96, 24))
    return fitted_palette(_compose, game, (n // 4, n // 2, 3 * n // 4, n - 1, capture), LABEL_KEYS, [swatch])


def render_board(state: LudoState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The board of a «Людо» game as PNG bytes (1024 px wide; 2–4 players).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS` (the bot fills them from its locale); a missing key raises KeyError.
    ``events`` are those of the actions since the table was last shown (on the fast table a run of
    throws and moves, in order): with them the last move's route is drawn only when they moved a
    piece, and a piece taken is marked with a red ✕.
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(state.seats), compress_level=COMPRESS,
                  backdrop=_backdrop(state, labels))
