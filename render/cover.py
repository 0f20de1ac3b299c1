"""The lobby's title card: a game's own picture on felt, its name large and a line under it.

The picture is the game's (:data:`CoverArt`, declared with the game: ``GameSpec.cover_art``), drawn
into the card's upper part; the kit's own :func:`three_dice` is what a game that declares none gets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from render.cards import felt
from render.dice import die_image, shadow_image
from render.png import to_png
from render.theme import BG, WOOD, Box
from render.typeset import clean_text, ellipsize, fit_font

W, H = 1024, 576
ART_BOX: Box = (40, 34, W - 40, 322)  # where a game's picture goes, above its name
# draws a game's picture into the card ``img`` within ``box``; a module-level function, so the
# drawing processes can take it (bot/drawing.py pickles jobs)
CoverArt = Callable[[Image.Image, Box], None]


def put_dice(img: Image.Image, dice: Sequence[tuple[int, int]], size: int, centres: Sequence[tuple[int, int]]) -> None:
    """Dice (value, angle in degrees) with their shadows, centred on ``centres``."""
    for (value, angle), (cx, cy) in zip(dice, centres, strict=True):
        die = die_image(value, size).rotate(angle, Image.Resampling.BICUBIC, expand=True)
        sh = shadow_image(size).rotate(angle, Image.Resampling.BICUBIC, expand=True)
        img.paste(sh, (cx - sh.width // 2 + size // 30, cy - sh.height // 2 + size // 15), sh)
        img.paste(die, (cx - die.width // 2, cy - die.height // 2), die)


def put_board(img: Image.Image, board: Image.Image, box: Box) -> None:
    """``board`` scaled to fit ``box``'s height, centred in it, with a soft drop of shadow under it."""
    height = box[3] - box[1]
    scaled = board.resize((round(board.width * height / board.height), height), Image.Resampling.LANCZOS)
    x, y = (box[0] + box[2] - scaled.width) // 2, box[1]
    shadow = Image.new("L", (scaled.width + 16, scaled.height + 16), 0)
    ImageDraw.Draw(shadow).rounded_rectangle((8, 8, scaled.width + 7, scaled.height + 7), 18, fill=90)
    img.paste((6, 30, 22), (x - 2, y + 2), shadow)
    img.paste(scaled, (x, y))


def three_dice(img: Image.Image, box: Box) -> None:
    """Three dice thrown across the felt."""
    cx, top = (box[0] + box[2]) // 2, box[1]
    put_dice(img, ((5, 14), (3, -8), (6, 22)), 150, [(cx + (i - 1) * 190, top + 144 + (i % 2) * 18) for i in range(3)])


@lru_cache(maxsize=16)
def render_cover(title: str, subtitle: str, art: CoverArt = three_dice) -> bytes:
    """A 1024×576 title card: the game's ``art`` on felt, the title large and the subtitle small."""
    img = Image.new("RGB", (W, H), BG)
    table = felt((W - 40, H - 40), (40, 116, 88), (18, 60, 46))
    mask = Image.new("L", (table.width * 2, table.height * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), 60, fill=255)
    mask = mask.resize(table.size, Image.Resampling.LANCZOS)
    rim = Image.new("L", (W * 2, H * 2), 0)
    ImageDraw.Draw(rim).rounded_rectangle((12, 12, W * 2 - 13, H * 2 - 13), 72, fill=255)
    img.paste(WOOD, (0, 0, W, H), rim.resize((W, H), Image.Resampling.LANCZOS))
    img.paste(table, (20, 20), mask)
    art(img, ART_BOX)

    d = ImageDraw.Draw(img)
    title = clean_text(title, True)
    fnt = fit_font(title, W - 120, 84, 36, bold=True)
    title = ellipsize(title, fnt, W - 120)
    d.text((W // 2 + 3, 388 + 4), title, font=fnt, fill=(8, 30, 22), anchor="mm")
    d.text((W // 2, 388), title, font=fnt, fill=(255, 252, 240), anchor="mm")
    sub = clean_text(subtitle)
    sfnt = fit_font(sub, W - 160, 34, 20)
    d.text((W // 2, 470), ellipsize(sub, sfnt, W - 160), font=sfnt, fill=(214, 232, 220),
           anchor="mm")
    return to_png(img)
