"""The lobby's title card: a game's own picture on felt, its name large and a line under it.

The picture is the game's (:data:`CoverArt`, declared with the game: ``GameSpec.cover_art``), drawn
into the card's upper part; the kit's own :func:`three_dice` is what a game that declares none gets.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from render.cards import felt
from render.dice import die_image, shadow_image
from render.png import to_png
from render.theme import BG, WOOD, Box
from render.typeset import READABLE, clean_text, ellipsize, fit_font, font

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


TITLE_WIDTH, TITLE_Y, TITLE_SIZES = W - 120, 388, (84, 36)
LINE_WIDTH, LINE_Y, LINE_SIZES = W - 160, 470, (34, READABLE)  # the line under it: a phone shows it at 390 px
LINE_GAP = 1.2  # a two-line subtitle's lines, apart by this many font sizes
ONE_LINE = 28  # px: smaller than this, a subtitle goes on two lines instead


@dataclass(frozen=True, slots=True)
class CoverText:
    """One line of words on a title card, centred at (W / 2, ``y``) in ``fnt``; the title's ``bold``."""

    text: str
    fnt: ImageFont.FreeTypeFont
    y: float
    bold: bool = False


def cover_texts(title: str, subtitle: str) -> list[CoverText]:
    """The card's words laid out: the title on one line, as large as fits; the subtitle on one line if it
    fits at :data:`ONE_LINE` px or more, else on two (broken at its « · », else between words), never
    below :data:`READABLE`. Only what fits no way at that size is cut with «…»."""
    title = clean_text(title, True)
    fnt = fit_font(title, TITLE_WIDTH, TITLE_SIZES[0], TITLE_SIZES[1], bold=True)
    texts = [CoverText(ellipsize(title, fnt, TITLE_WIDTH), fnt, TITLE_Y, bold=True)]
    size, lines = _subtitle_lines(clean_text(subtitle))
    first = LINE_Y - (len(lines) - 1) * size * 0.2  # a second line takes the room below, not the title's
    return texts + [CoverText(line, font(size), first + i * size * LINE_GAP) for i, line in enumerate(lines)]


def _subtitle_lines(text: str) -> tuple[int, list[str]]:
    """The subtitle's size and lines: one line, else two at « · », else two between words, each at the
    largest size it fits; what fits none of them, one line cut at the smallest size."""
    sizes = range(LINE_SIZES[0], LINE_SIZES[1] - 1, -1)
    for ways, smallest in ((_one_line, ONE_LINE), (_at_dot, LINE_SIZES[1]), (_between_words, LINE_SIZES[1])):
        for size in (s for s in sizes if s >= smallest):
            if (lines := ways(text, font(size))) is not None:
                return size, lines
    return LINE_SIZES[1], [ellipsize(text, font(LINE_SIZES[1]), LINE_WIDTH)]


def _fit(fnt: ImageFont.FreeTypeFont, *lines: str) -> list[str] | None:
    return list(lines) if all(fnt.getlength(line) <= LINE_WIDTH for line in lines) else None


def _one_line(text: str, fnt: ImageFont.FreeTypeFont) -> list[str] | None:
    return _fit(fnt, text)


def _at_dot(text: str, fnt: ImageFont.FreeTypeFont) -> list[str] | None:
    head, dot, tail = text.partition(" · ")
    return _fit(fnt, head, tail) if dot else None


def _between_words(text: str, fnt: ImageFont.FreeTypeFont) -> list[str] | None:
    """Two lines, broken at the space that leaves the longer of them shortest."""
    words = text.split(" ")
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    best = min(splits, key=lambda s: max(fnt.getlength(s[0]), fnt.getlength(s[1])), default=None)
    return None if best is None else _fit(fnt, *best)


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
    for text in cover_texts(title, subtitle):
        if text.bold:  # the title stands out of the felt with a shadow under it
            d.text((W // 2 + 3, text.y + 4), text.text, font=text.fnt, fill=(8, 30, 22), anchor="mm")
            d.text((W // 2, text.y), text.text, font=text.fnt, fill=(255, 252, 240), anchor="mm")
        else:
            d.text((W // 2, text.y), text.text, font=text.fnt, fill=(214, 232, 220), anchor="mm")
    return to_png(img)
