"""The look every board shares: the table's colours, the supersampling factor, and each seat's style
(an Okabe–Ito colour plus a shape and a letter, so colour is never the only cue)."""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]

SS = 4  # supersampling factor for cached sprites

# the table and the cards
BG: RGB = (27, 31, 40)
FELT: RGB = (34, 104, 78)
FELT_DARK: RGB = (20, 66, 50)
WOOD: RGB = (112, 72, 42)
WOOD_DARK: RGB = (74, 46, 26)
CARD: RGB = (247, 242, 232)
INK: RGB = (30, 31, 38)
LIGHT: RGB = (240, 240, 236)
IVORY: RGB = (252, 249, 241)
PIP: RGB = (28, 28, 34)
GOLD: RGB = (255, 199, 44)
RED: RGB = (190, 38, 38)
CHIP: RGB = (236, 226, 204)
CORK: RGB = (196, 150, 94)
FELT_TEXT: RGB = (226, 240, 230)  # words on felt
FELT_MUTED: RGB = (160, 196, 178)  # quieter words and marks on felt
PANEL_DIM: RGB = (128, 132, 140)  # the veil over a player card that recedes


@dataclass(frozen=True, slots=True)
class PlayerStyle:
    """How one seat is drawn: a colour plus a shape, so colour is never the only cue."""

    colour: RGB
    ink: RGB  # text colour that reads on ``colour``
    tint: RGB  # a light wash of ``colour`` for panel headers
    shape: str  # circle, square, triangle, diamond, star, hexagon, pentagon, cross
    letter: str  # A..H, a fallback when a name has nothing printable


def tint(colour: RGB, amount: float, base: RGB = CARD) -> RGB:
    """``colour`` mixed into ``base`` (``amount`` 1: the colour itself)."""
    r, g, b = (round(c * amount + k * (1 - amount)) for c, k in zip(colour, base, strict=True))
    return (r, g, b)


# Okabe–Ito colour-blind-safe colours, each with its own shape
_PLAYERS_RAW: tuple[tuple[RGB, RGB, str], ...] = (
    ((0, 114, 178), (255, 255, 255), "circle"),  # blue
    ((230, 159, 0), INK, "square"),  # orange
    ((0, 158, 115), (255, 255, 255), "triangle"),  # bluish green
    ((204, 121, 167), INK, "diamond"),  # reddish purple
    ((86, 180, 233), INK, "star"),  # sky blue
    ((213, 94, 0), (255, 255, 255), "hexagon"),  # vermillion
    ((240, 228, 66), INK, "pentagon"),  # yellow
    ((60, 60, 68), (255, 255, 255), "cross"),  # near-black (Okabe–Ito's eighth colour)
)
PLAYERS: tuple[PlayerStyle, ...] = tuple(
    PlayerStyle(colour=c, ink=ink, tint=tint(c, 0.28), shape=shape, letter="ABCDEFGH"[i])
    for i, (c, ink, shape) in enumerate(_PLAYERS_RAW)
)


def player(seat: int) -> PlayerStyle:
    """How ``seat`` is drawn."""
    return PLAYERS[seat % len(PLAYERS)]
