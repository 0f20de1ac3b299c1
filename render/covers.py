"""Each game's own picture on its lobby's title card (:data:`render.cover.CoverArt`), drawn from the
game's own board and pieces, so no two games share a card (all seven showed the same
three dice). A game declares its art in ``bot/games/<code>.py`` (``GameSpec.cover_art``), and a variant
played with other things (``GameSpec.variant_covers``: «Башня» has beer coasters, not chips) its own.
"""

from __future__ import annotations

import math
from functools import lru_cache
from random import Random

from PIL import Image, ImageDraw, ImageFilter

from engines.lions import HUNTERS, LIONS
from render import lions, ludo, parchis, sosedi, spichki, tishe
from render.canvas import downsample, paste, shade
from render.cover import put_board, put_dice
from render.pieces import chip_image, put_piece
from render.shishbesh_board import draw_board as shishbesh_board
from render.theme import CHIP, RGB, SS, Box

# the beer coasters of «Башня», from a few breweries: (the printed face, its ink, the cardboard's edge)
COASTERS: tuple[tuple[RGB, RGB, RGB], ...] = (
    ((246, 240, 226), (182, 36, 40), (236, 228, 212)),  # cream with a red ring
    ((228, 238, 248), (34, 74, 150), (34, 74, 150)),  # white with blue, printed to the edge
    ((204, 162, 108), (92, 58, 30), (176, 134, 84)),  # plain kraft
    ((246, 222, 120), (26, 96, 60), (26, 96, 60)),  # yellow with green
    ((250, 250, 246), (30, 30, 36), (226, 224, 218)),  # white with black
)
TOWER_COASTERS = 54  # tall enough to read as a tower, not a stack of chips


def _middle(box: Box) -> tuple[int, int]:
    return (box[0] + box[2]) // 2, (box[1] + box[3]) // 2


def sosedi_art(img: Image.Image, box: Box) -> None:
    """«Помоги своему соседу»: three dice by the bowl of chips, a stack of chips on the other side."""
    cx, cy = _middle(box)
    heap, _pad = sosedi._bowl_heap(18)
    paste(img, heap, (cx - heap.width // 2, box[3] - heap.height - 6))
    chip = chip_image(CHIP, 70, (196, 160, 72))
    for i in range(6):
        paste(img, chip, (cx + 250, box[3] - 60 - i * 15))
    put_dice(img, ((5, 14), (3, -8), (6, 22)), 118, [(cx - 330, cy - 10), (cx - 190, cy + 30), (cx + 190, cy - 40)])


@lru_cache(maxsize=16)
def _coaster(width: int, kind: int) -> Image.Image:
    """One round beer coaster seen from a little above: its printed face (a ring round a star) on a thin
    cardboard edge (RGBA)."""
    face, ink, rim = COASTERS[kind]
    h, edge = round(width * 0.3), max(3, width // 40)
    s_w, fh, s_e = width * SS, h * SS, edge * SS
    big = Image.new("RGBA", (s_w, fh + s_e), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    d.ellipse((0, s_e, s_w - 1, fh + s_e - 1), fill=(*shade(rim, -0.45), 255))  # the seam under it
    d.ellipse((0, s_e - SS, s_w - 1, fh + s_e - 1 - SS), fill=(*shade(rim, -0.12), 255))
    d.rectangle((0, fh // 2, s_w - 1, fh // 2 + s_e - SS), fill=(*shade(rim, -0.12), 255))
    d.ellipse((0, 0, s_w - 1, fh - 1), fill=(*face, 255))
    for k, fill in ((0.05, ink), (0.13, face)):
        d.ellipse((s_w * k, fh * k, s_w * (1 - k), fh * (1 - k)), fill=(*fill, 255))
    d.polygon(_star(s_w / 2, fh / 2, s_w * 0.2, fh * 0.2), fill=(*ink, 255))
    return downsample(big, (width, h + edge))


def _star(cx: float, cy: float, rx: float, ry: float) -> list[tuple[float, float]]:
    """A five-pointed star round (cx, cy), flattened as the coaster's face is."""
    points = []
    for i in range(10):
        r, angle = (1.0 if i % 2 == 0 else 0.42), math.pi / 2 + i * math.pi / 5
        points.append((cx + rx * r * math.cos(angle), cy - ry * r * math.sin(angle)))
    return points


@lru_cache(maxsize=2)
def _coaster_tower(width: int, count: int) -> Image.Image:
    """``count`` coasters of mixed breweries stacked into a slightly crooked tower (RGBA)."""
    rng = Random(7)  # the same tower on every card
    step = max(3, width // 40)
    first = _coaster(width, 0)
    img = Image.new("RGBA", (width + 24, first.height + (count - 1) * step), (0, 0, 0, 0))
    for i in range(count):  # each coaster a little off the one under it: stacked by hand
        sprite = _coaster(width, rng.randrange(len(COASTERS)) if i < count - 1 else 0)
        img.alpha_composite(sprite, (12 + round(rng.uniform(-7, 7) + 4 * math.sin(i / 5)),
                                     img.height - sprite.height - i * step))
    return img


@lru_cache(maxsize=2)
def _beer(width: int) -> Image.Image:
    """A glass mug of beer with its head of foam and a handle (RGBA), ``width`` across the glass."""
    w, h = width * SS, round(width * 1.45) * SS
    big = Image.new("RGBA", (w * 3 // 2, h + w // 4), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    x0, y0, x1, y1 = 0, w // 4, w, h + w // 4 - 1  # the glass
    wall, glass = w // 14, (236, 244, 240)
    d.rounded_rectangle((x1 - wall, y0 + h // 6, x1 + w * 4 // 10, y0 + h * 7 // 10), w // 5,
                        outline=(*glass, 230), width=wall * 3 // 2)  # the handle
    d.rounded_rectangle((x0, y0, x1, y1), w // 10, fill=(*glass, 110), outline=(*glass, 235), width=wall // 2)
    d.rounded_rectangle((x0 + wall, y0 + w // 12, x1 - wall, y1 - wall * 2), w // 14, fill=(226, 148, 34, 255))
    d.rectangle((x0 + wall, y0 + w // 12, x1 - wall, y0 + w // 5), fill=(244, 196, 92, 255))  # lighter under the foam
    d.rectangle((x0 + wall * 2, y0 + w // 5, x0 + wall * 3, y1 - wall * 4), fill=(255, 240, 200, 150))  # a glint
    for i, (fx, fy) in enumerate(((0.45, 0.55), (0.62, 0.7), (0.55, 0.4), (0.75, 0.5), (0.4, 0.8))):
        bubble = w // 40 + i % 2 * SS
        d.ellipse((fx * w - bubble, y0 + fy * h - bubble, fx * w + bubble, y0 + fy * h + bubble),
                  fill=(255, 230, 160, 210))
    for fx, r in ((0.12, 0.16), (0.34, 0.2), (0.58, 0.19), (0.84, 0.17), (0.24, 0.14), (0.7, 0.15)):
        cy = y0 + w // 14 - r * w * 0.5  # the head of foam, spilling over the rim
        d.ellipse((fx * w - r * w, cy - r * w, fx * w + r * w, cy + r * w), fill=(252, 250, 242, 255))
    return downsample(big, (big.width // SS, big.height // SS))


def _shadow(img: Image.Image, box: Box, strength: int = 110) -> None:
    """A soft dark ellipse on the felt under something standing in ``box``."""
    pad = 16
    mask = Image.new("L", (box[2] - box[0] + 2 * pad, box[3] - box[1] + 2 * pad), 0)
    ImageDraw.Draw(mask).ellipse((pad, pad, mask.width - pad, mask.height - pad), fill=strength)
    img.paste((6, 30, 22), (box[0] - pad, box[1] - pad), mask.filter(ImageFilter.GaussianBlur(8)))


def sosedi_tower_art(img: Image.Image, box: Box) -> None:
    """«Помоги своему соседу», «Башня»: a tall tower of beer coasters of mixed breweries, a coaster taken
    from it, a mug of beer on another, three dice; no chips and no bowl."""
    cx, cy = _middle(box)
    tower = _coaster_tower(170, TOWER_COASTERS)
    left = cx - tower.width // 2 - 30
    _shadow(img, (left + 6, box[3] - 40, left + tower.width + 10, box[3] + 4))
    paste(img, tower, (left, box[3] - tower.height + 2))
    taken = _coaster(120, 3)
    paste(img, taken, (cx - 250, box[3] - taken.height - 4))
    _beer_on_coaster(img, cx + 200, box[3])
    put_dice(img, ((5, 14), (3, -8)), 112, [(cx - 350, cy - 20), (cx - 215, cy + 40)])
    put_dice(img, ((6, 22),), 104, [(cx + 395, cy - 50)])


def _beer_on_coaster(img: Image.Image, x: int, bottom: int) -> None:
    mat, mug = _coaster(132, 1), _beer(92)
    _shadow(img, (x - 6, bottom - 34, x + mat.width + 6, bottom + 6), 90)
    paste(img, mat, (x, bottom - mat.height))
    paste(img, mug, (x + 16, bottom - mat.height // 2 - mug.height + 4))


def spichki_art(img: Image.Image, box: Box) -> None:
    """«Спички»: a heap of matches between two pairs of dice."""
    cx, cy = _middle(box)
    heap = spichki._heap(90).resize((440, 340), Image.Resampling.LANCZOS)
    paste(img, heap, (cx - heap.width // 2, box[3] - heap.height + 20))
    put_dice(img, ((2, 10), (4, -12)), 104, [(cx - 370, cy - 30), (cx - 250, cy + 40)])
    put_dice(img, ((6, -6), (6, 16)), 104, [(cx + 250, cy - 30), (cx + 370, cy + 40)])


def tishe_art(img: Image.Image, box: Box) -> None:
    """«Тише едешь»: the last circles before 100, two checkers on their way, two dice."""
    cx, cy = _middle(box)
    circles = (94, 95, 96, 97, 98, 99, 100)
    size = 104
    for i, n in enumerate(circles):
        sprite = tishe._circle(n, size)
        x = cx - 3 * 122 + i * 122
        y = cy + 40 - (12 if i % 2 else 0)
        paste(img, sprite, (x - sprite.width // 2, y - sprite.height // 2))
    put_piece(img, 0, 1, 56, (cx - 3 * 122 + 122, cy - 34))
    put_piece(img, 1, 2, 56, (cx - 3 * 122 + 4 * 122, cy - 46))
    put_dice(img, ((5, -10), (2, 14)), 86, [(cx - 90, cy - 88), (cx + 30, cy - 96)])


def shishbesh_art(img: Image.Image, box: Box) -> None:
    """«Шиш-беш»: its cross of a board, two dice beside it."""
    cx, cy = _middle(box)
    put_board(img, _shishbesh_board(), box)
    put_dice(img, ((6, 12), (5, -16)), 110, [(cx - 300, cy), (cx + 300, cy - 10)])


@lru_cache(maxsize=1)
def _shishbesh_board() -> Image.Image:
    return shishbesh_board(4, "standard", False, "")


def ludo_art(img: Image.Image, box: Box) -> None:
    """«Людо»: the cross with its four yards, its one die beside it."""
    cx, cy = _middle(box)
    put_board(img, ludo._grid_art(4), box)
    put_dice(img, ((6, -14),), 120, [(cx + 300, cy)])


def parchis_art(img: Image.Image, box: Box) -> None:
    """«Парчис»: its 68-cell ring with the four homes, two dice beside it."""
    cx, cy = _middle(box)
    put_board(img, parchis._draw_board(4, ""), box)
    put_dice(img, ((5, 10), (3, -18)), 110, [(cx - 300, cy + 10), (cx + 300, cy - 10)])


def lions_art(img: Image.Image, box: Box) -> None:
    """«Охота на львов»: its field of circles, a lion on one side and a hunter on the other; no dice."""
    cx, cy = _middle(box)
    put_board(img, lions._draw_board(), box)
    paste(img, lions._piece(LIONS, 150), (cx - 370 - 79, cy - 79))
    paste(img, lions._piece(HUNTERS, 150), (cx + 370 - 79, cy - 79))
