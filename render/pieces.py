"""The seats' pieces: markers (a shape in the seat's colour), numbered tokens standing on a board,
crowds of them sharing a place, and chips stacked in columns."""

from __future__ import annotations

import math
from collections.abc import Sequence
from contextlib import nullcontext
from functools import lru_cache
from typing import TypedDict, Unpack

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from render.canvas import downsample, paste, shade
from render.theme import INK, IVORY, LIGHT, RGB, SS, player
from render.typeset import READABLE, decoration, font, pill


def shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """The polygon of a seat's ``shape`` (any but the circle) of radius about ``r`` round (cx, cy)."""
    if shape == "square":
        k = r * 0.86
        return [(cx - k, cy - k), (cx + k, cy - k), (cx + k, cy + k), (cx - k, cy + k)]
    if shape == "triangle":
        cy += r * 0.14
        return [(cx + r * 1.08 * math.cos(a), cy + r * 1.08 * math.sin(a))
                for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)]
    if shape == "diamond":
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if shape == "star":
        cy += r * 0.06
        pts = []
        for i in range(10):
            a = -math.pi / 2 + i * math.pi / 5
            rr = r * (1.05 if i % 2 == 0 else 0.47)
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return pts
    if shape == "hexagon":
        return [(cx + r * math.cos(a), cy + r * math.sin(a))
                for a in (math.pi / 6 + i * math.pi / 3 for i in range(6))]
    if shape == "pentagon":
        cy += r * 0.08
        return [(cx + r * 1.04 * math.cos(a), cy + r * 1.04 * math.sin(a))
                for a in (-math.pi / 2 + i * 2 * math.pi / 5 for i in range(5))]
    if shape == "cross":
        k, q = r * 0.92, r * 0.36
        return [(cx - q, cy - k), (cx + q, cy - k), (cx + q, cy - q), (cx + k, cy - q), (cx + k, cy + q),
                (cx + q, cy + q), (cx + q, cy + k), (cx - q, cy + k), (cx - q, cy + q), (cx - k, cy + q),
                (cx - k, cy - q), (cx - q, cy - q)]
    raise ValueError(shape)


@lru_cache(maxsize=128)
def marker_image(seat: int, size: int, faded: bool = False) -> Image.Image:
    """The seat's marker: its shape filled with its colour, outlined in ink (RGBA)."""
    style = player(seat)
    s = size * SS
    big = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    outline = max(SS, round(s * 0.075))
    r = s / 2 - outline * 0.6
    fill = (*style.colour, 255)
    line = (*INK, 255)
    if style.shape == "circle":
        d.ellipse((s / 2 - r, s / 2 - r, s / 2 + r, s / 2 + r), fill=line)
        ri = r - outline
        d.ellipse((s / 2 - ri, s / 2 - ri, s / 2 + ri, s / 2 + ri), fill=fill)
    else:
        pts = shape_points(style.shape, s / 2, s / 2, r - outline * 0.5)
        d.polygon(pts, fill=fill, outline=line, width=outline)
    img = downsample(big, (size, size))
    if faded:
        img.putalpha(img.getchannel("A").point(lambda a: a * 2 // 5))
    return img


@lru_cache(maxsize=256)
def numbered_token(seat: int, number: int, size: int, small: str | None = None) -> Image.Image:
    """The seat's marker with ``number`` on it (RGBA): one numbered piece or checker. The number is
    never smaller than :data:`READABLE` (on a small token it spills over the shape, outlined in the
    seat's colour) unless ``small`` says why it may be: then it is :func:`render.typeset.decoration`."""
    img = marker_image(seat, size).copy()
    style = player(seat)
    shift = {"triangle": 0.12, "pentagon": 0.04, "star": 0.05}.get(style.shape, 0)
    scale = {"star": 0.42, "triangle": 0.42, "diamond": 0.46, "cross": 0.46}.get(style.shape, 0.52)
    px = max(8 if small else READABLE, round(size * scale))
    spills = px > size * scale + 1
    d = ImageDraw.Draw(img)
    with decoration(small) if small else nullcontext():
        d.text((size / 2, size / 2 + (0 if spills else size * shift)), str(number), font=font(px, True),
               fill=style.ink, anchor="mm", stroke_width=max(2 if spills else 1, size // 22), stroke_fill=style.colour)
    return img


@lru_cache(maxsize=256)
def standing_piece(seat: int, number: int, size: int, halo: RGB = IVORY, small: str | None = None) -> Image.Image:
    """:func:`numbered_token` standing on a board: a light halo and a soft shadow round it
    (RGBA, 8 px larger than ``size``; paste it at the token's top-left minus 4)."""
    tok = numbered_token(seat, number, size, small)
    m = 4
    alpha = Image.new("L", (size + 2 * m, size + 2 * m), 0)
    alpha.paste(tok.getchannel("A"), (m, m))
    img = Image.new("RGBA", alpha.size, (0, 0, 0, 0))
    shadow = Image.new("RGBA", alpha.size, (0, 0, 0, 255))
    shadow.putalpha(ImageChops.offset(alpha, 1, 2).filter(ImageFilter.GaussianBlur(2)).point(lambda a: a * 150 // 255))
    img.alpha_composite(shadow)
    ring = Image.new("RGBA", alpha.size, (*halo, 255))
    ring.putalpha(alpha.filter(ImageFilter.MaxFilter(7)))
    img.alpha_composite(ring)
    img.alpha_composite(tok, (m, m))
    return img


def put_piece(img: Image.Image, seat: int, number: int, size: int, xy: tuple[int, int],
              small: str | None = None) -> None:
    """Paste :func:`standing_piece` ``number`` of ``seat`` (a ``size`` px token) centred on ``xy``
    (``small``: why its number may be small, see :func:`numbered_token`)."""
    paste(img, standing_piece(seat, number, size, small=small), (xy[0] - size // 2 - 4, xy[1] - size // 2 - 4))


def draw_crowd(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[int, int], who: Sequence[tuple[int, int]],
               size: int, offsets: Sequence[tuple[int, int]], small: str | None = None) -> None:
    """The (seat, piece from 0)s ``who`` sharing a place, standing at ``offsets`` from ``xy``; more than fit: "+n"
    (``small``: why their numbers may be small, see :func:`numbered_token`)."""
    cx, cy = xy
    shown = who if len(who) <= len(offsets) else who[: len(offsets) - 1]
    for (seat, i), (dx, dy) in zip(shown, offsets, strict=False):
        put_piece(img, seat, i + 1, size, (cx + dx, cy + dy), small)
    if len(shown) < len(who):
        dx, dy = offsets[-1]
        with decoration(small) if small else nullcontext():
            pill(d, (cx + dx, cy + dy), f"+{len(who) - len(shown)}", font(12 if small else READABLE, True), INK, LIGHT,
                 anchor="m", pad=(3, 1))


@lru_cache(maxsize=64)
def chip_image(colour: RGB, width: int, rim: RGB | None = None, aspect: float = 0.5) -> Image.Image:
    """One chip (or coaster, with a low ``aspect``) seen from slightly above (RGBA)."""
    h = round(width * aspect)
    s_w, s_h = width * SS, h * SS
    big = Image.new("RGBA", (s_w, s_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    side = round(s_h * 0.28)
    top_h = s_h - side
    dark = shade(colour, -0.38)
    edge = (*shade(colour, -0.6), 255)
    d.ellipse((0, side, s_w - 1, s_h - 1), fill=edge)
    d.ellipse((SS, side, s_w - 1 - SS, s_h - 1 - SS), fill=(*dark, 255))
    d.rectangle((SS, top_h // 2, s_w - 1 - SS, top_h // 2 + side), fill=(*dark, 255))
    d.rectangle((0, top_h // 2, SS, top_h // 2 + side), fill=edge)
    d.rectangle((s_w - 1 - SS, top_h // 2, s_w - 1, top_h // 2 + side), fill=edge)
    d.ellipse((0, 0, s_w - 1, top_h), fill=(*colour, 255))
    ring = rim or shade(colour, 0.55)
    k = 0.2
    d.ellipse(
        (s_w * k, top_h * k, s_w * (1 - k), top_h * (1 - k)),
        outline=(*ring, 255),
        width=max(SS, round(s_w * 0.04)),
    )
    return downsample(big, (width, h))


@lru_cache(maxsize=1024)
def stack_image(
    count: int,
    colour: RGB,
    chip_w: int = 28,
    step: int = 5,
    per_column: int = 10,
    max_columns: int = 6,
    gap: int = 4,
    rim: RGB | None = None,
    aspect: float = 0.5,
) -> Image.Image | None:
    """Columns of ``count`` chips (at most ``per_column × max_columns`` shown), as one
    RGBA sprite whose bottom edge is the table; None for no chips."""
    chip = chip_image(colour, chip_w, rim, aspect)
    shown = min(count, per_column * max_columns)
    if shown <= 0:
        return None
    columns = math.ceil(shown / per_column)
    tall = min(shown, per_column)
    img = Image.new("RGBA", (columns * (chip_w + gap) - gap, chip.height + (tall - 1) * step))
    for col in range(columns):
        for i in range(min(per_column, shown - col * per_column)):
            y = img.height - chip.height - i * step
            img.alpha_composite(chip, (col * (chip_w + gap), y))
    return img


class StackStyle(TypedDict, total=False):
    """How :func:`stack_image` stacks the chips (its keyword arguments)."""

    chip_w: int
    step: int
    per_column: int
    max_columns: int
    gap: int
    rim: RGB | None
    aspect: float


def draw_stack(
    canvas: Image.Image | ImageDraw.ImageDraw,
    x: int,
    bottom: int,
    count: int,
    colour: RGB,
    **style: Unpack[StackStyle],
) -> int:
    """Paste :func:`stack_image` standing on ``bottom`` from ``x``; returns its width."""
    img = stack_image(count, colour, **style)
    if img is None:
        return 0
    paste(canvas, img, (x, bottom - img.height))
    return img.width
