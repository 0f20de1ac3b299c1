"""Each game's own picture on its lobby's title card (:data:`render.cover.CoverArt`), drawn from the
game's own board and pieces, so no two games share a card (issue #24: all seven showed the same
three dice). A game declares its art in ``bot/games/<code>.py`` (``GameSpec.cover_art``).
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

from engines.lions import HUNTERS, LIONS
from render import lions, ludo, parchis, sosedi, spichki, tishe
from render.canvas import paste
from render.cover import put_board, put_dice
from render.pieces import chip_image, put_piece
from render.shishbesh_board import draw_board as shishbesh_board
from render.theme import CHIP, Box


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
