"""Pasting sprites and the shapes they are cut with.

Everything that is expensive to draw well (anti-aliased dice, markers, chips) is drawn once
at several times its size, downsampled, and cached; renderers paste the cached sprites.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from render.theme import RGB, SS


def image_of(canvas: Image.Image | ImageDraw.ImageDraw) -> Image.Image:
    """The image itself, or the image an ImageDraw draws on."""
    if isinstance(canvas, ImageDraw.ImageDraw):
        return canvas._image
    return canvas


def paste(canvas: Image.Image | ImageDraw.ImageDraw, sprite: Image.Image, xy: tuple[int, int]) -> None:
    """Alpha-paste an RGBA sprite at ``xy`` (top-left)."""
    image_of(canvas).paste(sprite, (int(xy[0]), int(xy[1])), sprite)


@lru_cache(maxsize=512)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An anti-aliased rounded-rectangle mask (mode L) of exactly ``width`` × ``height``."""
    big = Image.new("L", (width * SS, height * SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * SS - 1, height * SS - 1), radius=radius * SS, fill=255
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)


def downsample(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    """A sprite drawn :data:`SS` times larger brought down to ``size`` (Lanczos: smooth edges)."""
    return big.resize(size, Image.Resampling.LANCZOS)


def shade(colour: RGB, k: float) -> RGB:
    """``colour`` lightened towards white by ``k`` > 0, or darkened towards black by ``k`` < 0."""
    if k >= 0:
        r, g, b = (round(c + (255 - c) * k) for c in colour)
    else:
        r, g, b = (round(c * (1 + k)) for c in colour)
    return (r, g, b)
