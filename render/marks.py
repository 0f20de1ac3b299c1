"""Marks laid over a board or a card: rings (solid, dashed, a card's highlight frame), a veil over what
recedes, the red cross of a capture, and straight arrows."""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.canvas import paste, rounded_mask
from render.theme import INK, RED, RGB, SS


@lru_cache(maxsize=64)
def frame_ring(width: int, height: int, radius: int, thick: int, colour: RGB) -> Image.Image:
    """A rounded frame ``thick`` px wide drawn round a ``width`` × ``height`` box with corner ``radius``
    (RGBA, larger than the box by ``thick`` on every side): a turn or winner highlight."""
    outer = rounded_mask(width + 2 * thick, height + 2 * thick, radius + thick)
    inner = Image.new("L", outer.size, 0)
    inner.paste(rounded_mask(width, height, radius), (thick, thick))
    img = Image.new("RGBA", outer.size, (*colour, 255))
    img.putalpha(ImageChops.subtract(outer, inner))
    return img


@lru_cache(maxsize=64)
def _ring_parts(width: int, height: int, radius: int, thick: int,
                colour: RGB) -> tuple[tuple[Image.Image, int, int], ...]:
    """:func:`frame_ring` cut into its top and bottom bands and its left and right sides, each cropped
    to its pixels, with their offsets: pasting the whole ring would blend its wide empty middle too."""
    ring = frame_ring(width, height, radius, thick, colour)
    w, h = ring.size
    band = min(thick + radius, h // 2)
    parts = []
    for box in ((0, 0, w, band), (0, h - band, w, h), (0, band, w // 2, h - band), (w // 2, band, w, h - band)):
        piece = ring.crop(box)
        bbox = piece.getchannel("A").getbbox()
        if bbox:
            parts.append((piece.crop(bbox), box[0] + bbox[0], box[1] + bbox[1]))
    return tuple(parts)


def paste_ring(canvas: Image.Image | ImageDraw.ImageDraw, width: int, height: int, radius: int, thick: int,
               colour: RGB, xy: tuple[int, int]) -> None:
    """:func:`frame_ring` pasted with its top-left at ``xy`` (the same pixels, a fraction of the work)."""
    x, y = xy
    for part, dx, dy in _ring_parts(width, height, radius, thick, colour):
        paste(canvas, part, (x + dx, y + dy))


@lru_cache(maxsize=32)
def veil(width: int, height: int, radius: int, colour: RGB, alpha: int) -> Image.Image:
    """A translucent rounded wash of ``colour`` (``alpha`` 0..255) over a card: what recedes."""
    img = Image.new("RGBA", (width, height), (*colour, 255))
    img.putalpha(rounded_mask(width, height, radius).point(lambda a: a * alpha // 255))
    return img


@lru_cache(maxsize=64)
def round_ring(size: int, colour: RGB, alpha: int = 255, width: int = 4) -> Image.Image:
    """A solid ring ``size`` px across in ``colour`` edged with ink, ``alpha`` opaque (RGBA): a round cell marked."""
    s, k = size * SS, 1.5 * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((SS, SS, s - SS, s - SS), outline=(*INK, alpha), width=(width + 3) * SS)
    d.ellipse((SS + k, SS + k, s - SS - k, s - SS - k), outline=(*colour, alpha), width=width * SS)
    return img.reduce(SS)


@lru_cache(maxsize=64)
def dashed_ring(size: int, colour: RGB, dashes: int = 12, width: int = 4, dash: float = 0.62) -> Image.Image:
    """A ring of ``dashes`` dashes (each ``dash`` of its share of the turn) ``size`` px across in ``colour`` edged
    with ink (RGBA): a place a waiting throw can reach."""
    s = size * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c, r = s / 2, s / 2 - SS
    step = 360 / dashes
    for i in range(dashes):
        a = i * step
        d.arc((c - r, c - r, c + r, c + r), a, a + step * dash, fill=(*INK, 255), width=(width + 3) * SS)
        k = 1.5 * SS
        d.arc((c - r + k, c - r + k, c + r - k, c + r - k), a + 1, a + step * dash - 1, fill=(*colour, 255),
              width=width * SS)
    return img.reduce(SS)


@lru_cache(maxsize=8)
def red_cross(size: int) -> Image.Image:
    """A red ✕ outlined in ink, ``size`` px square (RGBA): a capture."""
    s, k = size * SS, 5 * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    for width, fill in ((11 * SS, INK), (6 * SS, RED)):
        d.line((k, k, s - k, s - k), fill=(*fill, 255), width=width)
        d.line((k, s - k, s - k, k), fill=(*fill, 255), width=width)
    return img.reduce(SS)


def draw_arrow(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: tuple[int, ...],
               width: float, head: float, both: bool = False) -> None:
    """A straight arrow from ``a`` to ``b`` with a ``head`` px long tip (at both ends when ``both``)."""
    n = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / n, (b[1] - a[1]) / n
    start = (a[0] + ux * head * 0.8, a[1] + uy * head * 0.8) if both else a
    d.line((*start, b[0] - ux * head * 0.8, b[1] - uy * head * 0.8), fill=colour, width=round(width))
    for tip, sx in ((b, 1), (a, -1)) if both else ((b, 1),):
        bx, by = tip[0] - sx * ux * head, tip[1] - sx * uy * head
        d.polygon([tip, (bx - uy * head * 0.6, by + ux * head * 0.6), (bx + uy * head * 0.6, by - ux * head * 0.6)],
                  fill=colour)
