"""The «Шиш-беш» board: a cross of round cells (13 × 13 grid, or 15 × 15 on the long board), the
four dark corners with their jump arrows, huts on the shelter cells, start triangles on the arm
ends, hourglass homes in the middle lanes and the moves on offer; below it, across the picture's
width, the last throw and a legend.

Each played arm's corner holds its player's card, which is also the park (as the yards in
«Людо»): marker and name on top (the turn pill while the game runs, the place's medal once it is
over), the four park spots under the park's word, and beside them how many pieces are home and
every piece on the circuit with its position (and its hut). So nothing but the dice card and the
legend goes below the board, and the picture is 1024 × 1264 for 2–4 players on either board: a
phone shows it whole above the buttons. The board takes the picture's whole width and every label
a player needs stands 18 px tall in capitals (a phone shows the picture about 390 px
wide). Where the cells are: :mod:`render.shishbesh_geometry`; the empty board:
:mod:`render.shishbesh_board`.

``render_board(state, names, labels, events)`` returns PNG bytes. The static picture is drawn
once per (seats, board, shelters, words), supersampled, and cached; each call pastes pieces,
rings and text on a copy and maps it to a palette fitted once per (seats, board).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from engines import shishbesh as rules
from engines.base import Event
from engines.shishbesh import PARK, PHASE_MOVE, ShishbeshOptions, ShishbeshState
from render.canvas import paste
from render.cards import footed_card_header, shadowed_card, turn_line, wood_frame
from render.dice import draw_die
from render.marks import dashed_ring, draw_arrow, paste_ring, red_cross, round_ring, veil
from render.pieces import marker_image, numbered_token, put_piece
from render.places import MEDALS, final_places
from render.png import colour_strip, fitted_palette, random_game, to_png
from render.shishbesh_board import ARROW, CELL, CORNER, HUT, LINE, draw_board, house
from render.shishbesh_geometry import (
    BOARD,
    CARD_HEAD,
    LIST_X,
    MARGIN,
    WORD_Y,
    hut_centre,
    jump_ends,
    park_card,
    park_spot,
    piece_spot,
    pitch,
    position_centre,
)
from render.shishbesh_targets import offered, target_letter
from render.theme import BG, CARD, FELT_DARK, FELT_TEXT, GOLD, INK, LIGHT, RED, RGB, SS, Box, player
from render.typeset import TextDraw, fit_font, font, require_labels, seat_name, wrap_text

LABEL_KEYS: tuple[str, ...] = ("turn", "winner", "park", "hut", "jump", "targets")
_STATIC_KEYS = ("park", "hut", "jump")
_MOVES = ("enter", "step", "jump_forward", "jump_back", "jump_diagonal")

W = 1024
GAP = 12
RADIUS = 16
# the players' cards sit in the board's corners; the dice and the legend go below the board
DICE_CARD: Box = (MARGIN, BOARD[3] + GAP, W - MARGIN, BOARD[3] + GAP + 116)
LEGEND_CARD: Box = (MARGIN, DICE_CARD[3] + GAP, W - MARGIN, DICE_CARD[3] + GAP + 100)
HEIGHT = LEGEND_CARD[3] + MARGIN
HEADER_H = CARD_HEAD
LIST_Y = (128, 170, 212, 254)  # a card's pieces on the circuit, one a row, from its top
PILL_Y = 262  # the turn pill, left under the park spots
TOKEN = 30  # a numbered piece in a card's list
DIE = 84
BADGE = 44  # a target letter's disc; its letter's capitals stand 22 px tall (a phone shows them at 8)
BADGE_FONT = 30
COMPRESS = 4  # zlib level of the bands drawn on (render/png_bands.py): 3 saves ~0.9 ms for 8 % more bytes
COLORS = 64  # palette entries: 255 left a four-player board over 100 KB; 32 merged a card tint into cream


# ---------------------------------------------------------------- layout


def _panels(seats: int) -> tuple[tuple[Box, ...], int]:
    """The players' cards, by seat (each in its arm's corner), and the picture's height (the same for
    every seat count and either board)."""
    return tuple(park_card(arm) for arm in rules.ARMS[seats]), HEIGHT


# ---------------------------------------------------------------- cached art


@lru_cache(maxsize=4)
def _house_icon(size: int) -> Image.Image:
    """A hut (RGBA)."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    house(ImageDraw.Draw(big), size * SS / 2, size * SS * 0.48, size * SS * 0.76, HUT, INK, max(1, size // 30) * SS)
    return big.reduce(SS)


@lru_cache(maxsize=64)
def _hut_piece(seat: int, number: int, size: int) -> Image.Image:
    """A piece inside its hut: a house outline in the seat's tint with the numbered token in it (RGBA)."""
    s = size * SS
    img = Image.new("RGBA", (s, round(s * 1.08)), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    house(d, s / 2, s * 0.5, s * 0.98, player(seat).tint, INK, 2.5 * SS, door=False)
    img = img.reduce(SS)
    tok = round(size * 0.6)
    paste(img, numbered_token(seat, number, tok), ((size - tok) // 2, round(size * 0.43)))
    return img


@lru_cache(maxsize=8)
def _badge(seat: int, size: int) -> Image.Image:
    """The disc a target's letter stands on: light, ringed in the mover's colour (RGBA)."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((SS, SS, s - SS, s - SS), fill=(*LIGHT, 255), outline=(*player(seat).colour, 255),
                                width=4 * SS)
    ImageDraw.Draw(img).ellipse((SS, SS, s - SS, s - SS), outline=(*INK, 255), width=SS)
    return img.reduce(SS)


@lru_cache(maxsize=32)
def _jump_arrow(board: str, frm: int, to: int) -> tuple[Image.Image, tuple[int, int]]:
    """The highlighted arrow of a jump (RGBA sprite, its top-left)."""
    (ax, ay), (bx, by) = jump_ends(board, frm, to)
    x0, y0 = round(min(ax, bx)) - 20, round(min(ay, by)) - 20
    w, h = round(abs(bx - ax)) + 40, round(abs(by - ay)) + 40
    img = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    a, b = ((ax - x0) * SS, (ay - y0) * SS), ((bx - x0) * SS, (by - y0) * SS)
    draw_arrow(d, a, b, (*INK, 255), 14 * SS, 28 * SS)
    ux, uy = b[0] - a[0], b[1] - a[1]
    n = math.hypot(ux, uy)
    draw_arrow(d, a, (b[0] - ux / n * 4 * SS, b[1] - uy / n * 4 * SS), (*GOLD, 255), 8 * SS, 21 * SS)
    return img.reduce(SS), (x0, y0)


@lru_cache(maxsize=1)
def _corners_icon() -> Image.Image:
    """Four dark corners and the jumps between them: round the square and across it (RGBA, 84 px)."""
    big = Image.new("RGBA", (100 * SS, 100 * SS), (0, 0, 0, 0))
    g = ImageDraw.Draw(big)
    spots = [(18, 18), (82, 18), (82, 82), (18, 82)]
    for i, (ax, ay) in enumerate(spots):
        for bx, by in (spots[(i + 1) % 4], spots[(i + 2) % 4]) if i < 2 else (spots[(i + 1) % 4],):
            a, b = (ax * SS, ay * SS), (bx * SS, by * SS)
            ux, uy = (b[0] - a[0]) / math.dist(a, b), (b[1] - a[1]) / math.dist(a, b)
            draw_arrow(g, (a[0] + ux * 16 * SS, a[1] + uy * 16 * SS), (b[0] - ux * 16 * SS, b[1] - uy * 16 * SS),
                       (*ARROW, 255), 3 * SS, 9 * SS, both=True)
    for ax, ay in spots:
        g.ellipse(((ax - 13) * SS, (ay - 13) * SS, (ax + 13) * SS, (ay + 13) * SS), fill=(*CORNER, 255),
                  outline=(*INK, 255), width=2 * SS)
    return big.resize((84, 84), Image.Resampling.LANCZOS)


def _draw_legend(img: Image.Image, words: Mapping[str, str]) -> None:
    """The hut and the corners' jumps side by side, each a picture and its words."""
    x0, y0, x1, y1 = LEGEND_CARD
    shadowed_card(img, LEGEND_CARD, CARD, RADIUS)
    d = ImageDraw.Draw(img)
    fnt, half, cy = font(24), (x1 - x0) // 2, (y0 + y1) // 2
    paste(img, _house_icon(68), (x0 + 22, cy - 38))
    paste(img, _corners_icon(), (x0 + half + 12, cy - 42))
    for left, key in ((x0 + 108, "hut"), (x0 + half + 120, "jump")):
        lines = wrap_text(words[key], fnt, x0 + (half if key == "hut" else 2 * half) - left - 16, 2)
        for j, line in enumerate(lines):
            d.text((left, cy + (j - (len(lines) - 1) / 2) * 29), line, font=fnt, fill=INK, anchor="lm")


@lru_cache(maxsize=16)
def _base(seats: int, board: str, staggered: bool, words: tuple[str, ...]) -> Image.Image:
    """The static picture: everything that never moves (the players' empty cards come with the board)."""
    by_key = dict(zip(_STATIC_KEYS, words, strict=True))
    img = Image.new("RGB", (W, HEIGHT), BG)
    img.paste(draw_board(seats, board, staggered, by_key["park"]), BOARD[:2])
    _draw_legend(img, by_key)
    wood_frame(img, DICE_CARD, RADIUS, 6, RADIUS - 4)
    return img


# ---------------------------------------------------------------- pieces and marks


def _draw_pieces(img: Image.Image, state: ShishbeshState) -> None:
    board = state.options.board
    size = round(pitch(board) * 0.66)
    huts = []
    for seat in range(state.seats):
        arm = state.arm(seat)
        for i, pos in enumerate(state.of(seat)):
            k = rules.PIECES * seat + i
            cell = state.options.geometry.cell(arm, pos)
            if state.huts[k] and cell is not None:
                huts.append((seat, i, cell))
                continue
            xy = park_spot(board, arm, i) if pos == PARK else position_centre(state, seat, pos)
            assert xy is not None
            put_piece(img, seat, i + 1, size, xy)
    hs = round(pitch(board) * 0.84)
    for seat, i, cell in huts:
        x, y = hut_centre(board, cell)
        paste(img, _hut_piece(seat, i + 1, hs), (x - hs // 2, y - hs // 2))


def _moves(state: ShishbeshState, events: Sequence[Event]) -> list[tuple[int, int, int, int, bool]]:
    """(seat, piece, from, to, jump) of every move of the last action (without events: the last move)."""
    if not events:
        if len(state.last_move) != 4:
            return []
        seat, piece, start, end = state.last_move
        corners = state.options.geometry.corners
        return [(seat, piece, start, end, start in corners and end in corners)]
    return [(e.seat, int(e.data["piece"]), int(e.data["from"]), int(e.data["to"]), e.kind.startswith("jump"))
            for e in events if e.kind in _MOVES and e.seat is not None]


def _ring_at(img: Image.Image, xy: tuple[int, int], size: int, colour: RGB, alpha: int = 255) -> None:
    paste(img, round_ring(size, colour, alpha), (xy[0] - size // 2, xy[1] - size // 2))


def _draw_marks(img: Image.Image, state: ShishbeshState, events: Sequence[Event]) -> None:
    """The last action: faint gold where its moves started, gold where they ended, a gold arrow for a
    jump, a red ✕ on a capture's cell."""
    board, geo = state.options.board, state.options.geometry
    moves = _moves(state, events)
    for seat, _piece, start, end, jump in moves:
        if jump:
            arm = state.arm(seat)
            sprite, xy = _jump_arrow(board, geo.cell(arm, start), geo.cell(arm, end))
            paste(img, sprite, xy)
    for faint in (True, False):
        for seat, piece, start, end, _jump in moves:
            k = rules.PIECES * seat + piece
            pos = start if faint else end
            hut = not faint and state.huts[k] and state.pieces[k] == end
            xy, size = piece_spot(state, seat, piece, pos, hut)
            _ring_at(img, xy, size, GOLD, 130 if faint else 255)
    mover: tuple[int, int] | None = None
    for e in events:
        if e.kind in _MOVES and e.seat is not None:
            mover = (e.seat, int(e.data["to"]))
        elif e.kind == "capture" and mover is not None:
            taken = position_centre(state, *mover)
            if taken is not None:
                r = round(pitch(board) * 0.42)
                paste(img, red_cross(34), (taken[0] + r - 20, taken[1] - r - 14))


def _draw_options(img: Image.Image, d: ImageDraw.ImageDraw, state: ShishbeshState, letters: str) -> list[str]:
    """Phase move: every landing place on offer, dashed in the mover's colour, with its letter on a badge
    (the buttons name it: :mod:`render.shishbesh_targets`); returns the letters drawn, in place order."""
    seat, targets = state.turn, offered(state).targets
    for target in targets:
        (x, y), size = target.centre, target.size
        paste(img, dashed_ring(size, player(seat).colour), (x - size // 2, y - size // 2))
    drawn = []
    for i, target in enumerate(targets):
        (x, y), size = target.centre, target.size
        letter = target_letter(letters, i)
        bx, by = x - size // 2 + BADGE // 5, y - size // 2 + BADGE // 5
        paste(img, _badge(seat, BADGE), (bx - BADGE // 2, by - BADGE // 2))
        d.text((bx, by), letter, font=fit_font(letter, BADGE - 8, BADGE_FONT, bold=True), fill=INK, anchor="mm")
        drawn.append(letter)
    return drawn


# ---------------------------------------------------------------- dice card and panels


def _dice_boxes() -> list[Box]:
    x0, y0, _x1, y1 = DICE_CARD
    top = (y0 + y1 - DIE) // 2
    return [(x0 + 22 + i * (DIE + 14), top, x0 + 22 + i * (DIE + 14) + DIE, top + DIE) for i in range(2)]


def _draw_dice(img: Image.Image, d: ImageDraw.ImageDraw, state: ShishbeshState, names: Sequence[str],
               labels: Mapping[str, str]) -> None:
    """The last throw (both dice, the ones still to play ringed), who threw it, then whose turn."""
    _x0, y0, x1, y1 = DICE_CARD
    tx, top, low = _dice_boxes()[1][2] + 34, y0 + 34, y1 - 34
    if state.last_seat is not None and state.last_dice:
        thrower = state.last_seat
        text, fnt = seat_name(names, thrower, x1 - tx - 60, 26)
        paste(img, marker_image(thrower, 28), (tx, top - 14))
        d.text((tx + 36, top), text, font=fnt, fill=FELT_TEXT, anchor="lm")
    choosing = state.phase == PHASE_MOVE and not state.finished
    left = list(state.dice) if choosing else []
    dice = list(state.last_dice) or [0, 0]
    for box, value in zip(_dice_boxes(), dice, strict=False):
        waiting = value in left
        if waiting:
            left.remove(value)
            paste_ring(img, DIE, DIE, round(DIE * 0.2), 5, GOLD, (box[0] - 5, box[1] - 5))
        draw_die(img, box, value or None)
        if choosing and not waiting:  # played already
            paste(img, veil(DIE, DIE, round(DIE * 0.2), FELT_DARK, 150), box[:2])
    seat = state.winner if state.finished else state.turn
    if seat is not None:
        turn_line(img, d, (tx, low), labels["winner" if state.finished else "turn"], seat, names, x1 - 20, 260)


@lru_cache(maxsize=16)
def _home_icon(seat: int, size: int) -> Image.Image:
    """A small hourglass in the seat's colour: "at home" (RGBA)."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    c = player(seat).colour
    ImageDraw.Draw(img).polygon([(s * 0.15, SS), (s * 0.85, SS), (s * 0.56, s / 2), (s * 0.85, s - SS),
                                 (s * 0.15, s - SS), (s * 0.44, s / 2)], fill=(*c, 255), outline=(*INK, 255),
                                width=2 * SS)
    return img.reduce(SS)


def _draw_panel(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: ShishbeshState,
                names: Sequence[str], labels: Mapping[str, str], place: int | None = None) -> None:
    """A player's card: the header; the waiting pieces stand on its park spots (:func:`_draw_pieces`);
    right of them how many are home, then every piece on the circuit with its position and, in a hut,
    a hut, one a row."""
    x0, y0, _x1, _y1 = box
    footed_card_header(img, d, box, seat, state, names, labels, RADIUS, HEADER_H, (14, PILL_Y), LIST_X - 30, place)
    geo, own, num = state.options.geometry, state.of(seat), font(24, True)
    x, cy = x0 + LIST_X, y0 + WORD_Y
    paste(img, _home_icon(seat, 28), (x, cy - 14))
    d.text((x + 34, cy + 1), f"{sum(p in geo.home for p in own)}/4", font=font(26, True), fill=INK, anchor="lm")
    out = [(i, pos) for i, pos in enumerate(own) if 0 <= pos <= geo.end]
    for (i, pos), cy in zip(out, (y0 + y for y in LIST_Y), strict=False):
        paste(img, numbered_token(seat, i + 1, TOKEN), (x, cy - TOKEN // 2))
        text = str(pos)
        d.text((x + TOKEN + 6, cy + 1), text, font=num, fill=INK, anchor="lm")
        if state.huts[rules.PIECES * seat + i]:
            paste(img, _house_icon(24), (x + TOKEN + 12 + round(num.getlength(text)), cy - 13))


def _backdrop(state: ShishbeshState, labels: Mapping[str, str]) -> Image.Image:
    """The static picture a board of ``state`` is drawn on a copy of (cached; to_png reuses its untouched bands)."""
    opts = state.options
    return _base(state.seats, opts.board, opts.shelters == "staggered", tuple(labels[k] for k in _STATIC_KEYS))


def _compose(state: ShishbeshState, names: Sequence[str], labels: Mapping[str, str],
             events: Sequence[Event] = ()) -> Image.Image:
    img = _backdrop(state, labels).copy()
    d = TextDraw(img)
    _draw_marks(img, state, events)
    _draw_pieces(img, state)
    if state.phase == PHASE_MOVE and not state.finished:
        _draw_options(img, d, state, labels["targets"])
    _draw_dice(img, d, state, names, labels)
    places = final_places(rules.ENGINE, state)
    for seat, box in enumerate(_panels(state.seats)[0]):
        _draw_panel(img, d, box, seat, state, names, labels, places.get(seat))
    return img


@lru_cache(maxsize=8)
def _palette(seats: int, board: str) -> Image.Image:
    """The fixed palette for (seats, board), fitted once to a sample game and the colours marks must keep."""
    game = random_game(rules.ENGINE, ShishbeshOptions(board=board), seats, "7" * 64, random.Random(seats), 3000)
    n = len(game)
    keep = [GOLD, RED, INK, LIGHT, CELL, CORNER, HUT, LINE, *MEDALS, *(player(s).colour for s in range(seats))]
    return fitted_palette(_compose, game, (n // 3, n // 2, 2 * n // 3, n - 1), LABEL_KEYS,
                          [colour_strip(keep, W)], COLORS)


def render_board(state: ShishbeshState, names: Sequence[str], labels: Mapping[str, str],
                 events: Sequence[Event] = ()) -> bytes:
    """The board of a «Шиш-беш» game as PNG bytes (1024 px wide; 2–4 players, either board).

    ``names`` are the players' display names by seat; ``labels`` must hold every key of
    :data:`LABEL_KEYS`; a missing key raises KeyError. ``events`` are those of the actions since the
    table was last shown (on the fast table a run of throws and moves): their moves are ringed in
    gold (without events, ``state.last_move`` is), a jump's arrow lights up, and a capture gets a
    red ✕.
    """
    require_labels(labels, LABEL_KEYS)
    return to_png(_compose(state, names, labels, events), palette=_palette(state.seats, state.options.board),
                  compress_level=COMPRESS, backdrop=_backdrop(state, labels))
