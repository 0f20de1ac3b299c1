"""Dice: a face with its pips (or blank), its soft shadow, and pasting both into a box."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render.canvas import downsample, paste, shade
from render.theme import IVORY, PIP, RGB, SS, Box

_PIPS = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}


@lru_cache(maxsize=512)
def die_image(value: int | None, size: int, face: RGB = IVORY, pip: RGB = PIP) -> Image.Image:
    """A die face ``size`` px square (RGBA). ``value`` 1..6 draws pips; 0/None a blank die."""
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    radius = round(s * 0.2)
    alpha = 255 if value else 110  # a blank die is a faint place for one
    edge = (*shade(face, -0.32), alpha)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=radius, fill=edge)
    inset = max(SS, round(s * 0.035))
    bottom = round(s * 0.075)
    top_face = (inset, inset, s - 1 - inset, s - 1 - bottom)
    d.rounded_rectangle(top_face, radius=radius - inset, fill=(*shade(face, -0.08), alpha))
    hi = (inset, inset, s - 1 - inset - round(s * 0.02), s - 1 - bottom - round(s * 0.03))
    d.rounded_rectangle(hi, radius=radius - inset, fill=(*face, alpha))
    if value:
        fx0, fy0, fx1, fy1 = top_face
        cw, ch = (fx1 - fx0) / 4, (fy1 - fy0) / 4
        r = s * 0.088
        for col, row in _PIPS[value]:
            cx, cy = fx0 + cw * (col + 1), fy0 + ch * (row + 1)
            d.ellipse((cx - r, cy - r * 0.92, cx + r, cy + r), fill=(*shade(pip, 0.25), 255))
            d.ellipse((cx - r, cy - r, cx + r, cy + r * 0.86), fill=(*pip, 255))
    return downsample(big, (size, size))


@lru_cache(maxsize=64)
def shadow_image(size: int, radius_frac: float = 0.2, strength: int = 120) -> Image.Image:
    """A soft shadow for a rounded square of ``size``; the sprite is larger by ``size//6``."""
    m = max(2, size // 12)
    img = Image.new("RGBA", (size + 2 * m, size + 2 * m), (0, 0, 0, 0))
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (m, m, m + size - 1, m + size - 1), radius=round(size * radius_frac), fill=strength
    )
    img.putalpha(mask.filter(ImageFilter.GaussianBlur(m / 2)))
    return img


def draw_die(
    canvas: Image.Image | ImageDraw.ImageDraw,
    box: Box,
    value: int | None,
    *,
    face: RGB = IVORY,
    pip: RGB = PIP,
    shadow: bool = True,
) -> None:
    """Paste a pre-rendered die face centred in ``box`` (its size is the box's short side).

    ``canvas`` is the image or an ``ImageDraw`` on it; ``value`` 0/None draws a blank die.
    """
    x, y, size = _die_spot(box)
    if shadow and value:
        paste(canvas, shadow_image(size), _shadow_spot(x, y, size))
    paste(canvas, die_image(value or 0, size, face, pip), (x, y))


def _die_spot(box: Box) -> tuple[int, int, int]:
    """Top-left and size of the die :func:`draw_die` centres in ``box``."""
    x0, y0, x1, y1 = box
    size = int(min(x1 - x0, y1 - y0))
    return int(x0 + (x1 - x0 - size) // 2), int(y0 + (y1 - y0 - size) // 2), size


def _shadow_spot(x: int, y: int, size: int) -> tuple[int, int]:
    """Top-left of the shadow under a die at ``x``, ``y``: a little down and right."""
    m = (shadow_image(size).width - size) // 2
    return x - m + max(1, size // 40), y - m + max(2, size // 20)


def die_extent(box: Box) -> Box:
    """Every pixel :func:`draw_die` may touch for ``box``: the die and its shadow."""
    x, y, size = _die_spot(box)
    sx, sy = _shadow_spot(x, y, size)
    side = shadow_image(size).width
    return min(x, sx), min(y, sy), max(x + size, sx + side), max(y + size, sy + side)
