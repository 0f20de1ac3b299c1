"""Cards and panels: felt and wood, drop-shadowed cards, one player card per seat laid out in a grid,
its turn and winner marks, and the lines naming whose turn it is."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Protocol

from PIL import Image, ImageDraw, ImageFilter

from render.canvas import paste, rounded_mask
from render.marks import paste_ring, veil
from render.pieces import marker_image
from render.places import place_badge
from render.theme import (
    CARD,
    FELT,
    FELT_DARK,
    FELT_TEXT,
    GOLD,
    INK,
    PANEL_DIM,
    RGB,
    SS,
    WOOD,
    WOOD_DARK,
    Box,
    player,
)
from render.typeset import fit_font, pill, seat_name


class SeatedState(Protocol):
    """What a player card reads off a game state: whether the game is over, who won it, whose turn it is."""

    @property
    def finished(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    @property
    def turn(self) -> int: ...


def felt(size: tuple[int, int], centre: RGB = FELT, edge: RGB = FELT_DARK) -> Image.Image:
    """Cloth of colour ``centre`` with a narrow ``edge``-coloured inner border (RGB)."""
    w, h = size
    img = Image.new("RGB", size, edge)
    m = 3
    img.paste(centre, (m, m, w - m, h - m), rounded_mask(w - 2 * m, h - 2 * m, 24))
    return img


def wood_frame(img: Image.Image, box: Box, radius: int, rim: int, inner_radius: int, paper: RGB | None = None,
               shadow: bool = False) -> None:
    """Wood at ``box`` round :func:`felt` (or flat ``paper``) inset by ``rim``; ``shadow``: dark wood 3 px under it."""
    x0, y0, x1, y1 = box
    if shadow:
        img.paste(WOOD_DARK, (x0, y0 + 3, x1, y1 + 3), rounded_mask(x1 - x0, y1 - y0, radius))
    img.paste(WOOD, box, rounded_mask(x1 - x0, y1 - y0, radius))
    if paper is None:
        cloth = felt((x1 - x0 - 2 * rim, y1 - y0 - 2 * rim))
        img.paste(cloth, (x0 + rim, y0 + rim), rounded_mask(cloth.width, cloth.height, inner_radius))
    else:
        img.paste(paper, (x0 + rim, y0 + rim, x1 - rim, y1 - rim),
                  rounded_mask(x1 - x0 - 2 * rim, y1 - y0 - 2 * rim, inner_radius))


def shadowed_card(img: Image.Image, box: Box, fill: RGB, radius: int, strength: int = 110) -> None:
    """A rounded card of ``fill`` at ``box`` with a soft drop shadow under it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    shadow = Image.new("L", (w + 24, h + 24), 0)
    shadow.paste(rounded_mask(w, h, radius).point(lambda a: a * strength // 255), (12, 12))
    img.paste((6, 8, 12), (x0 - 12, y0 - 8), shadow.filter(ImageFilter.GaussianBlur(6)))
    img.paste(fill, box, rounded_mask(w, h, radius))


def panel_grid(seats: int, cols: int, top: int, panel_h: int, width: int, margin: int,
               gap: int) -> tuple[tuple[Box, ...], int]:
    """One card per seat in rows of ``cols`` from ``top`` down, a short last row centred.

    Returns the cards and the picture height that holds them (with ``margin`` below).
    """
    rows = math.ceil(seats / cols)
    pw = (width - 2 * margin - (cols - 1) * gap) // cols
    panels: list[Box] = []
    for seat in range(seats):
        row, col = divmod(seat, cols)
        in_row = min(cols, seats - row * cols)
        x0 = (width - (in_row * pw + (in_row - 1) * gap)) // 2 + col * (pw + gap)
        y0 = top + row * (panel_h + gap)
        panels.append((x0, y0, x0 + pw, y0 + panel_h))
    return tuple(panels), top + rows * panel_h + (rows - 1) * gap + margin


def player_card(img: Image.Image, box: Box, seat: int, radius: int, header_h: int, marker: int = 32, inset: int = 10,
                shadow: bool = True) -> None:
    """``seat``'s card at ``box``: a header of its tint over a rule of its colour, its marker ``inset`` in."""
    x0, y0, x1, y1 = box
    mask = rounded_mask(x1 - x0, y1 - y0, radius)
    if shadow:
        shadowed_card(img, box, CARD, radius)
    else:
        img.paste(CARD, box, mask)
    style = player(seat)
    img.paste(style.tint, (x0, y0, x1, y0 + header_h), mask.crop((0, 0, x1 - x0, header_h)))
    img.paste(style.colour, (x0, y0 + header_h - 3, x1, y0 + header_h))
    paste(img, marker_image(seat, marker), (x0 + inset, y0 + (header_h - marker) // 2))


def seat_standing(state: SeatedState, seat: int) -> tuple[bool, bool]:
    """(won, current) for ``seat``: the winner of a finished game, the player to move in a running one."""
    return state.finished and state.winner == seat, not state.finished and state.turn == seat


def mark_card(img: Image.Image, box: Box, radius: int, won: bool, current: bool, finished: bool,
              veil_alpha: int = 110, edged: bool = False) -> None:
    """A veil over a loser's card once ``finished``; a gold ring, ``edged`` in ink, round the winner's or mover's."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if finished and not won:
        paste(img, veil(w, h, radius, PANEL_DIM, veil_alpha), (x0, y0))
    if current or won:
        if edged:
            paste_ring(img, w, h, radius, 9, INK, (x0 - 9, y0 - 9))
        paste_ring(img, w, h, radius, 6, GOLD, (x0 - 6, y0 - 6))


def card_header(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: SeatedState,
                names: Sequence[str], labels: Mapping[str, str], radius: int, header_h: int,
                place: int | None = None) -> None:
    """A player card's frame and header: turn/winner ring and pill on the right (and the seat's
    ``place`` once the game is over), the name fitted into what is left (the card's marker is part
    of the cached base)."""
    x0, y0, x1, _ = box
    pw = x1 - x0
    won, current = seat_standing(state, seat)
    mark_card(img, box, radius, won, current, state.finished)
    right = x1 - 10
    if place is not None:
        right = place_badge(img, d, (right, y0 + header_h // 2), place)[0] - 8
    if current or won:
        text = labels["winner" if won else "turn"]
        fnt = fit_font(text, pw * 0.35, 24, bold=True)
        right = pill(d, (right, y0 + header_h // 2 - 1), text, fnt, GOLD, INK, anchor="r", pad=(9, 4),
                     max_width=pw * 0.4)[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 52, 24)
    d.text((x0 + 50, y0 + header_h // 2), text, font=fnt, fill=INK, anchor="lm")


def footed_card_header(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: SeatedState,
                       names: Sequence[str], labels: Mapping[str, str], radius: int, header_h: int,
                       pill_at: tuple[int, int], pill_room: int, place: int | None = None) -> None:
    """A corner card's ring or veil, its tinted line with the name (and the place's medal once the game is
    over), and the turn pill at its foot (``pill_at`` from the card's top-left, at most ``pill_room`` wide):
    beside the name it would cut most names short in a narrow card. The winner's medal and gold ring say who
    won; the dice card writes «Победитель»."""
    x0, y0, x1, _y1 = box
    won, current = seat_standing(state, seat)
    mark_card(img, box, radius, won, current, state.finished)
    right, cy = x1 - 10, y0 + header_h // 2
    if place is not None:
        right = place_badge(img, d, (right, cy), place)[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 52, 24)
    d.text((x0 + 50, cy), text, font=fnt, fill=INK, anchor="lm")
    if current:
        fnt = fit_font(labels["turn"], pill_room - 18, 24, bold=True)
        pill(d, (x0 + pill_at[0], y0 + pill_at[1]), labels["turn"], fnt, GOLD, INK, pad=(9, 4), max_width=pill_room)


@lru_cache(maxsize=16)
def ringed_spot(r: int, fill: RGB, line: RGB) -> Image.Image:
    """An empty spot of radius ``r`` (a home, a park): a ``fill`` disc ringed in ``line`` (RGBA, 2r + 2 px)."""
    s = (2 * r + 2) * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse((SS, SS, s - SS, s - SS), fill=(*fill, 255), outline=(*line, 255), width=2 * SS)
    return img.reduce(SS)


def turn_line(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[int, int], label: str, seat: int,
              names: Sequence[str], right: int, width: int) -> None:
    """A gold ``label`` pill (``width`` at most) from ``xy``, then ``seat``'s marker and name up to ``right``."""
    x, y = xy
    box = pill(d, (x, y), label, fit_font(label, width - 20, 24, bold=True), GOLD, INK, pad=(10, 4),
               max_width=width)
    paste(img, marker_image(seat, 28), (box[2] + 8, y - 14))
    room = right - box[2] - 44
    if room >= 40:
        text, fnt = seat_name(names, seat, room, 24)
        d.text((box[2] + 42, y), text, font=fnt, fill=FELT_TEXT, anchor="lm")


def turn_stack(img: Image.Image, d: ImageDraw.ImageDraw, mx: int, ry: int, label: str, seat: int,
               names: Sequence[str], width: int, gap: int) -> None:
    """A gold ``label`` pill centred on ``mx`` at ``ry``, and ``gap`` px below it ``seat``'s marker and
    name, centred too (the dice card of the cross boards)."""
    fnt = fit_font(label, width - 40, 24, bold=True)
    pill(d, (mx, ry), label, fnt, GOLD, INK, anchor="m", pad=(10, 4), max_width=width - 24)
    text, fnt = seat_name(names, seat, width - 58, 24)
    line = 30 + round(fnt.getlength(text))
    paste(img, marker_image(seat, 26), (mx - line // 2, ry + gap))
    d.text((mx - line // 2 + 32, ry + gap + 13), text, font=fnt, fill=FELT_TEXT, anchor="lm")
