"""Helpers shared by the board-renderer tests: decoding PNGs and measuring what they show."""

from __future__ import annotations

import io
from collections.abc import Callable

from PIL import Image, ImageChops

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

Pixel = tuple[int, int, int]
Box = tuple[int, int, int, int]
Point = tuple[int, int]


def seed(k: int) -> str:
    """The k-th seed of a test game: 64 hex digits, the shape real seeds have."""
    return f"{k:064x}"


def decode(png: bytes) -> Image.Image:
    """The fully loaded image of ``png``."""
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def rgb(png: bytes) -> Image.Image:
    """The image of ``png`` converted to RGB."""
    return decode(png).convert("RGB")


def diff_bbox(a: bytes, b: bytes) -> Box | None:
    """The bounding box of every pixel that differs between two PNGs (None when none does)."""
    return ImageChops.difference(rgb(a), rgb(b)).getbbox()


def inside(inner: Box, outer: Box) -> bool:
    """Whether box ``inner`` lies wholly within box ``outer``."""
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def close(px: Pixel, colour: Pixel, tol: int = 36) -> bool:
    """Whether every channel of ``px`` is within ``tol`` of ``colour``."""
    return all(abs(a - b) <= tol for a, b in zip(px, colour, strict=True))


def count_pixels(img: Image.Image, box: Box, match: Callable[[Pixel], bool]) -> int:
    """How many pixels of the RGB ``img`` inside ``box`` satisfy ``match``."""
    data = img.crop(box).tobytes()
    return sum(1 for i in range(0, len(data), 3) if match((data[i], data[i + 1], data[i + 2])))


def ring_points(box: Box, out: int = 3) -> list[Point]:
    """Points on the four sides just outside ``box`` (where a gold ring is drawn)."""
    x0, y0, x1, y1 = box
    xs = range(x0 + 30, x1 - 30, 7)
    ys = range(y0 + 30, y1 - 30, 7)
    return ([(x, y0 - out) for x in xs] + [(x, y1 + out - 1) for x in xs]
            + [(x0 - out, y) for y in ys] + [(x1 + out - 1, y) for y in ys])


def gold_share(img: Image.Image, points: list[Point], is_gold: Callable[[Pixel], bool]) -> float:
    """The share of ``points`` whose pixel in ``img`` passes the game's ``is_gold`` test."""
    return sum(is_gold(img.getpixel(p)) for p in points) / len(points)
