"""Shared drawing kit: fonts, player styles, dice, chips, pieces, cards, text fitting, PNG encoding
and the fixed palettes fitted to sample games.

Everything that is expensive to draw well (anti-aliased dice, markers, chips) is drawn once
at several times its size, downsampled, and cached; renderers paste the cached sprites.
Nothing here reads the clock or the disk (except the shipped fonts) or writes anywhere,
so the same input always gives the same bytes.
"""

from __future__ import annotations

import io
import math
import random
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, TypeVar

from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

from engines.base import Engine, Event, GameState

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
State = TypeVar("State", bound=GameState)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

SS = 4  # supersampling factor for cached sprites

# theme
BG: RGB = (27, 31, 40)
FELT: RGB = (34, 104, 78)
FELT_DARK: RGB = (20, 66, 50)
WOOD: RGB = (112, 72, 42)
WOOD_DARK: RGB = (74, 46, 26)
CARD: RGB = (247, 242, 232)
INK: RGB = (30, 31, 38)
MUTED: RGB = (112, 112, 124)
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
    return PLAYERS[seat % len(PLAYERS)]


def require_labels(labels: Mapping[str, str], keys: Iterable[str]) -> None:
    """Raise KeyError naming every one of ``keys`` that ``labels`` lacks."""
    missing = [key for key in keys if key not in labels]
    if missing:
        raise KeyError(f"labels missing: {', '.join(missing)}")


# ---------------------------------------------------------------- fonts and text


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """The shipped DejaVu Sans (Cyrillic included) at ``size`` px; cached."""
    path = FONT_DIR / _FONT_FILES[bool(bold)]
    return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=4096)
def has_glyph(char: str, bold: bool = False) -> bool:
    """True when the shipped font draws ``char`` with its own glyph (not the notdef box)."""
    fnt = font(24, bold)
    return bytes(fnt.getmask(char)) != bytes(fnt.getmask("\uffff"))


def clean_text(text: str, bold: bool = False) -> str:
    """One line of printable text: whitespace collapsed, controls and glyphless chars dropped."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", str(text)):
        cat = unicodedata.category(ch)
        if cat.startswith("Z") or ch in "\t\n\r":
            out.append(" ")
        elif cat.startswith("C"):
            continue
        elif cat == "Mn" or has_glyph(ch, bold):
            out.append(ch)
    return " ".join("".join(out).split())


def ellipsize(text: str, fnt: ImageFont.FreeTypeFont, max_width: float) -> str:
    """``text`` cut with "…" so that it fits ``max_width`` pixels in ``fnt``."""
    if fnt.getlength(text) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits together with the ellipsis
        mid = (lo + hi + 1) // 2
        if fnt.getlength(text[:mid].rstrip() + "…") <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…" if lo else "…"


def fit_font(text: str, max_width: float, size: int, min_size: int, bold: bool = False):
    """The largest font from ``size`` down to ``min_size`` in which ``text`` fits."""
    while size > min_size and font(size, bold).getlength(text) > max_width:
        size -= 2 if size > 30 else 1
    return font(max(size, min_size), bold)


@lru_cache(maxsize=1024)
def fit_name(name: str, max_width: float, size: int, bold: bool = True, fallback: str = "?"):
    """A player name cleaned and ellipsised for ``max_width``: ``(text, font)``; cached, as the same
    names are fitted on every frame."""
    text = clean_text(name, bold) or fallback
    fnt = fit_font(text, max_width, size, max(12, round(size * 0.8)), bold)
    return ellipsize(text, fnt, max_width), fnt


def seat_name(names: Sequence[str], seat: int, max_width: float, size: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """``seat``'s name (its letter when ``names`` has none) fitted by :func:`fit_name`: ``(text, font)``."""
    return fit_name(names[seat] if seat < len(names) else "", max_width, size, fallback=player(seat).letter)


@lru_cache(maxsize=1024)  # a few KB each
def _text_mask(text: str, fnt: ImageFont.FreeTypeFont, anchor: str | None,
               start: tuple[float, float]) -> tuple[Image.Image, int, int]:
    """``text`` rasterised once as ImageDraw.text would (mask and its offset from the anchor point)."""
    core, (dx, dy) = fnt.getmask2(text, "L", anchor=anchor, start=start)
    return Image.frombytes("L", core.size, bytes(core)), dx, dy


class TextDraw(ImageDraw.ImageDraw):
    """An ImageDraw whose one-line ``text`` reuses cached glyph masks.

    The same names, numbers and labels come back on every frame, and FreeType rendering them
    was a quarter of a board's drawing time; the cached mask is filled in exactly as
    ``ImageDraw.text`` fills it, so the pixels are the same. Anything else (strokes, several
    lines, bitmap fonts, extra options) takes Pillow's own path.
    """

    def text(self, xy: tuple[float, float], text: Any, fill: Any = None, font: Any = None,
             anchor: str | None = None, *args: Any, **kwargs: Any) -> None:
        simple = (not args and not kwargs and isinstance(text, str) and "\n" not in text
                  and isinstance(font, ImageFont.FreeTypeFont) and fill is not None and self.mode == "RGB")
        if not simple:
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        if not text:
            return
        x, y = xy
        # Pillow draws at the integer part and shifts the glyphs by the fraction (start)
        mask, dx, dy = _text_mask(text, font, anchor, (math.modf(x)[0], math.modf(y)[0]))
        left, top = int(x) + dx, int(y) + dy
        self._image.paste(fill, (left, top, left + mask.width, top + mask.height), mask)


def _target(canvas: Image.Image | ImageDraw.ImageDraw) -> Image.Image:
    if isinstance(canvas, ImageDraw.ImageDraw):
        return canvas._image  # the image an ImageDraw draws on
    return canvas


def paste(canvas: Image.Image | ImageDraw.ImageDraw, sprite: Image.Image, xy: tuple[int, int]):
    """Alpha-paste an RGBA sprite at ``xy`` (top-left)."""
    _target(canvas).paste(sprite, (int(xy[0]), int(xy[1])), sprite)


def pill(
    draw: ImageDraw.ImageDraw,
    xy: tuple[int, int],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
    ink: RGB,
    anchor: str = "l",
    pad: tuple[int, int] = (12, 6),
    max_width: float | None = None,
) -> Box:
    """A rounded label; ``xy`` is its left-middle (``anchor="l"``), right- or centre-middle."""
    if max_width is not None:
        text = ellipsize(text, fnt, max_width - 2 * pad[0])
    width = round(fnt.getlength(text)) + 2 * pad[0]
    asc, desc = fnt.getmetrics()
    height = asc + desc // 2 + 2 * pad[1]
    x, y = xy
    x0 = {"l": x, "r": x - width, "m": x - width // 2}[anchor]
    box = (x0, y - height // 2, x0 + width, y - height // 2 + height)
    _target(draw).paste(fill, box, rounded_mask(width, height, height // 2))
    draw.text((x0 + width / 2, y + 1), text, font=fnt, fill=ink, anchor="mm")
    return box


# ---------------------------------------------------------------- sprites


@lru_cache(maxsize=512)
def rounded_mask(width: int, height: int, radius: int) -> Image.Image:
    """An anti-aliased rounded-rectangle mask (mode L) of exactly ``width`` × ``height``."""
    big = Image.new("L", (width * SS, height * SS), 0)
    ImageDraw.Draw(big).rounded_rectangle(
        (0, 0, width * SS - 1, height * SS - 1), radius=radius * SS, fill=255
    )
    return big.resize((width, height), Image.Resampling.LANCZOS)


def _downsample(big: Image.Image, size: tuple[int, int]) -> Image.Image:
    return big.resize(size, Image.Resampling.LANCZOS)


def _shade(colour: RGB, k: float) -> RGB:
    if k >= 0:
        r, g, b = (round(c + (255 - c) * k) for c in colour)
    else:
        r, g, b = (round(c * (1 + k)) for c in colour)
    return (r, g, b)


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
    blank = not value
    alpha = 110 if blank else 255
    edge = (*_shade(face, -0.32), alpha)
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=radius, fill=edge)
    inset = max(SS, round(s * 0.035))
    bottom = round(s * 0.075)
    top_face = (inset, inset, s - 1 - inset, s - 1 - bottom)
    d.rounded_rectangle(top_face, radius=radius - inset, fill=(*_shade(face, -0.08), alpha))
    hi = (inset, inset, s - 1 - inset - round(s * 0.02), s - 1 - bottom - round(s * 0.03))
    d.rounded_rectangle(hi, radius=radius - inset, fill=(*face, alpha))
    if not blank:
        fx0, fy0, fx1, fy1 = top_face
        cw, ch = (fx1 - fx0) / 4, (fy1 - fy0) / 4
        r = s * 0.088
        for col, row in _PIPS[int(value)]:
            cx, cy = fx0 + cw * (col + 1), fy0 + ch * (row + 1)
            d.ellipse((cx - r, cy - r * 0.92, cx + r, cy + r), fill=(*_shade(pip, 0.25), 255))
            d.ellipse((cx - r, cy - r, cx + r, cy + r * 0.86), fill=(*pip, 255))
    return _downsample(big, (size, size))


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


def _shape_points(shape: str, cx: float, cy: float, r: float) -> list[tuple[float, float]]:
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
        pts = _shape_points(style.shape, s / 2, s / 2, r - outline * 0.5)
        d.polygon(pts, fill=fill, outline=line, width=outline)
    img = _downsample(big, (size, size))
    if faded:
        img.putalpha(img.getchannel("A").point(lambda a: a * 2 // 5))
    return img


@lru_cache(maxsize=64)
def chip_image(colour: RGB, width: int, rim: RGB | None = None, aspect: float = 0.5) -> Image.Image:
    """One chip (or coaster, with a low ``aspect``) seen from slightly above (RGBA)."""
    h = round(width * aspect)
    s_w, s_h = width * SS, h * SS
    big = Image.new("RGBA", (s_w, s_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    side = round(s_h * 0.28)
    top_h = s_h - side
    dark = _shade(colour, -0.38)
    edge = (*_shade(colour, -0.6), 255)
    d.ellipse((0, side, s_w - 1, s_h - 1), fill=edge)
    d.ellipse((SS, side, s_w - 1 - SS, s_h - 1 - SS), fill=(*dark, 255))
    d.rectangle((SS, top_h // 2, s_w - 1 - SS, top_h // 2 + side), fill=(*dark, 255))
    d.rectangle((0, top_h // 2, SS, top_h // 2 + side), fill=edge)
    d.rectangle((s_w - 1 - SS, top_h // 2, s_w - 1, top_h // 2 + side), fill=edge)
    d.ellipse((0, 0, s_w - 1, top_h), fill=(*colour, 255))
    ring = rim or _shade(colour, 0.55)
    k = 0.2
    d.ellipse(
        (s_w * k, top_h * k, s_w * (1 - k), top_h * (1 - k)),
        outline=(*ring, 255),
        width=max(SS, round(s_w * 0.04)),
    )
    return _downsample(big, (width, h))


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


def draw_stack(
    canvas: Image.Image | ImageDraw.ImageDraw,
    x: int,
    bottom: int,
    count: int,
    colour: RGB,
    **style,
) -> int:
    """Paste :func:`stack_image` standing on ``bottom`` from ``x``; returns its width."""
    img = stack_image(count, colour, **style)
    if img is None:
        return 0
    paste(canvas, img, (x, bottom - img.height))
    return img.width


def felt(size: tuple[int, int], centre: RGB = FELT, edge: RGB = FELT_DARK) -> Image.Image:
    """Cloth of colour ``centre`` with a narrow ``edge``-coloured inner border (RGB)."""
    w, h = size
    img = Image.new("RGB", size, edge)
    m = 3
    img.paste(centre, (m, m, w - m, h - m), rounded_mask(w - 2 * m, h - 2 * m, 24))
    return img


def wood_frame(img: Image.Image, box: Box, radius: int, rim: int, inner_radius: int, paper: RGB | None = None,
               shadow: bool = False) -> None:
    """Wood at ``box`` round :func:`felt` (or flat ``paper``) inset by ``rim``; ``shadow``: dark wood 3 px under it."""
    x0, y0, x1, y1 = box
    if shadow:
        img.paste(WOOD_DARK, (x0, y0 + 3, x1, y1 + 3), rounded_mask(x1 - x0, y1 - y0, radius))
    img.paste(WOOD, box, rounded_mask(x1 - x0, y1 - y0, radius))
    if paper is None:
        cloth = felt((x1 - x0 - 2 * rim, y1 - y0 - 2 * rim))
        img.paste(cloth, (x0 + rim, y0 + rim), rounded_mask(cloth.width, cloth.height, inner_radius))
    else:
        img.paste(paper, (x0 + rim, y0 + rim, x1 - rim, y1 - rim),
                  rounded_mask(x1 - x0 - 2 * rim, y1 - y0 - 2 * rim, inner_radius))


# ---------------------------------------------------------------- encoding


def make_palette(samples: list[Image.Image], colors: int = 255) -> Image.Image:
    """A fixed palette (a "P" image) of ``colors`` fitted to sample pictures, for :func:`to_png`.

    Below 255 colours the fast octree's 255 are merged down (:func:`_merge_palette`) rather than
    asked of the octree directly, which at 64 or so colours shifts flat fills and tints visibly.
    """
    width = max(im.width for im in samples)
    sheet = Image.new("RGB", (width, sum(im.height for im in samples)), BG)
    y = 0
    for im in samples:
        sheet.paste(im.convert("RGB"), (0, y))
        y += im.height
    fine = sheet.quantize(colors=255, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return fine if colors >= 255 else _merge_palette(fine, colors)


def _merge_palette(fine: Image.Image, colors: int) -> Image.Image:
    """``fine``'s palette cut to ``colors`` by merging, again and again, the two entries whose union
    adds least squared error over ``fine``'s pixels (pairwise nearest neighbour): large flat areas keep
    their exact colours and the few-pixel in-between shades of anti-aliased edges share entries."""
    rgb, counts = fine.getpalette() or [], fine.histogram()
    weight = [float(counts[i]) for i in range(len(rgb) // 3) if counts[i]]
    mean = [(float(rgb[3 * i]), float(rgb[3 * i + 1]), float(rgb[3 * i + 2]))
            for i in range(len(rgb) // 3) if counts[i]]
    alive = list(range(len(weight)))

    def cost(a: int, b: int) -> float:
        (r, g, u), (r2, g2, u2) = mean[a], mean[b]
        return weight[a] * weight[b] / (weight[a] + weight[b]) * ((r - r2) ** 2 + (g - g2) ** 2 + (u - u2) ** 2)

    def nearest(a: int) -> tuple[float, int]:
        return min((cost(a, b), b) for b in alive if b != a)

    best = {a: nearest(a) for a in alive}
    while len(alive) > max(colors, 1):
        a = min(alive, key=lambda i: best[i])
        b = best[a][1]
        total = weight[a] + weight[b]
        mean[a] = tuple((x * weight[a] + y * weight[b]) / total for x, y in zip(mean[a], mean[b], strict=True))
        weight[a] = total
        alive.remove(b)
        del best[b]
        for i in alive:
            if i == a or best[i][1] in (a, b):
                best[i] = nearest(i) if len(alive) > 1 else (0.0, i)
            else:
                best[i] = min(best[i], (cost(i, a), a))
    palette = Image.new("P", (1, 1))
    palette.putpalette([round(v) for i in alive for v in mean[i]])
    return palette


def random_game(engine: Engine[State, Any], options: Any, seats: int, seed: str, rng: random.Random,
                limit: int | None = None) -> list[tuple[State, Sequence[Event]]]:
    """Every (state, events of the action that made it) of a game played by ``rng``, ``limit`` states at most."""
    state, events = engine.new_game(options, seats, seed)
    game: list[tuple[State, Sequence[Event]]] = [(state, events)]
    while not state.finished and (limit is None or len(game) < limit):  # type: ignore[attr-defined]
        state, events, _entry = engine.apply(state, rng.choice(engine.legal_actions(state)).code)
        game.append((state, events))
    return game


# names and words to fit a palette to: every seat, Latin and Cyrillic, tall and deep letters
SAMPLE_NAMES = ("Аня Ёлкина", "Boris Q", "Вика Щ", "Gjyp Ю", "Даша Ж", "Zoë Ф", "Юра Ы", "Эля Й")


def fitted_palette(compose: Callable[[State, Sequence[str], Mapping[str, str], Sequence[Event]], Image.Image],
                   game: Sequence[tuple[State, Sequence[Event]]], picks: Iterable[int], label_keys: Iterable[str],
                   extra: Sequence[Image.Image] = (), colors: int = 255) -> Image.Image:
    """:func:`make_palette` of ``colors`` fitted to ``game``'s steps ``picks`` drawn by ``compose`` and to ``extra``."""
    labels = {key: f"{key} Шрифт Ёж" for key in label_keys}
    samples = [compose(game[i][0], SAMPLE_NAMES, labels, game[i][1]) for i in sorted(set(picks))]
    return make_palette([*samples, *extra], colors)


def to_png(
    image: Image.Image,
    palette: Image.Image | None = None,
    colors: int = 192,
    compress_level: int = 6,
) -> bytes:
    """Encode as a palette PNG: deterministic (no metadata), small and quick to encode.

    With ``palette`` (from :func:`make_palette`) pixels map to that fixed palette, which is
    several times faster than fitting a new one (``colors``, fast octree) for each picture.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    if palette is not None:
        quant = image.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        quant = image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE)
    out = io.BytesIO()
    quant.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()


# ---------------------------------------------------------------- cover


@lru_cache(maxsize=16)
def render_cover(title: str, subtitle: str) -> bytes:
    """A 1024×576 title card: three dice on felt, the title large and the subtitle small."""
    w, h = 1024, 576
    img = Image.new("RGB", (w, h), BG)
    table = felt((w - 40, h - 40), (40, 116, 88), (18, 60, 46))
    mask = Image.new("L", (table.width * 2, table.height * 2), 0)
    ImageDraw.Draw(mask).rounded_rectangle((0, 0, mask.width - 1, mask.height - 1), 60, fill=255)
    mask = mask.resize(table.size, Image.Resampling.LANCZOS)
    rim = Image.new("L", (w * 2, h * 2), 0)
    ImageDraw.Draw(rim).rounded_rectangle((12, 12, w * 2 - 13, h * 2 - 13), 72, fill=255)
    img.paste(WOOD, (0, 0, w, h), rim.resize((w, h), Image.Resampling.LANCZOS))
    img.paste(table, (20, 20), mask)

    size = 150
    for i, (value, angle) in enumerate(((5, 14), (3, -8), (6, 22))):
        die = die_image(value, size).rotate(angle, Image.Resampling.BICUBIC, expand=True)
        sh = shadow_image(size).rotate(angle, Image.Resampling.BICUBIC, expand=True)
        cx, cy = w // 2 + (i - 1) * 190, 178 + (i % 2) * 18
        img.paste(sh, (cx - sh.width // 2 + 5, cy - sh.height // 2 + 10), sh)
        img.paste(die, (cx - die.width // 2, cy - die.height // 2), die)

    d = ImageDraw.Draw(img)
    title = clean_text(title, True)
    fnt = fit_font(title, w - 120, 84, 36, bold=True)
    title = ellipsize(title, fnt, w - 120)
    d.text((w // 2 + 3, 388 + 4), title, font=fnt, fill=(8, 30, 22), anchor="mm")
    d.text((w // 2, 388), title, font=fnt, fill=(255, 252, 240), anchor="mm")
    sub = clean_text(subtitle)
    sfnt = fit_font(sub, w - 160, 34, 20)
    d.text((w // 2, 470), ellipsize(sub, sfnt, w - 160), font=sfnt, fill=(214, 232, 220),
           anchor="mm")
    return to_png(img)


def wrap_text(text: str, fnt: ImageFont.FreeTypeFont, max_width: float, max_lines: int = 2) -> list[str]:
    """``text`` broken at spaces into at most ``max_lines`` lines that fit ``max_width`` in ``fnt``;
    what does not fit ends the last line with "…"."""
    words = clean_text(text).split()
    lines: list[str] = []
    while words and len(lines) < max_lines:
        take = 1
        while take < len(words) and fnt.getlength(" ".join(words[: take + 1])) <= max_width:
            take += 1
        if len(lines) == max_lines - 1:
            take = len(words)
        lines.append(ellipsize(" ".join(words[:take]), fnt, max_width))
        words = words[take:]
    return lines


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


def shadowed_card(img: Image.Image, box: Box, fill: RGB, radius: int, strength: int = 110) -> None:
    """A rounded card of ``fill`` at ``box`` with a soft drop shadow under it."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    shadow = Image.new("L", (w + 24, h + 24), 0)
    shadow.paste(rounded_mask(w, h, radius).point(lambda a: a * strength // 255), (12, 12))
    img.paste((6, 8, 12), (x0 - 12, y0 - 8), shadow.filter(ImageFilter.GaussianBlur(6)))
    img.paste(fill, box, rounded_mask(w, h, radius))


def panel_grid(seats: int, cols: int, top: int, panel_h: int, width: int, margin: int,
               gap: int) -> tuple[tuple[Box, ...], int]:
    """One card per seat in rows of ``cols`` from ``top`` down, a short last row centred.

    Returns the cards and the picture height that holds them (with ``margin`` below).
    """
    rows = math.ceil(seats / cols)
    pw = (width - 2 * margin - (cols - 1) * gap) // cols
    panels: list[Box] = []
    for seat in range(seats):
        row, col = divmod(seat, cols)
        in_row = min(cols, seats - row * cols)
        x0 = (width - (in_row * pw + (in_row - 1) * gap)) // 2 + col * (pw + gap)
        y0 = top + row * (panel_h + gap)
        panels.append((x0, y0, x0 + pw, y0 + panel_h))
    return tuple(panels), top + rows * panel_h + (rows - 1) * gap + margin


def player_card(img: Image.Image, box: Box, seat: int, radius: int, header_h: int, marker: int = 32, inset: int = 10,
                shadow: bool = True) -> None:
    """``seat``'s card at ``box``: a header of its tint over a rule of its colour, its marker ``inset`` in."""
    x0, y0, x1, y1 = box
    mask = rounded_mask(x1 - x0, y1 - y0, radius)
    if shadow:
        shadowed_card(img, box, CARD, radius)
    else:
        img.paste(CARD, box, mask)
    style = player(seat)
    img.paste(style.tint, (x0, y0, x1, y0 + header_h), mask.crop((0, 0, x1 - x0, header_h)))
    img.paste(style.colour, (x0, y0 + header_h - 3, x1, y0 + header_h))
    paste(img, marker_image(seat, marker), (x0 + inset, y0 + (header_h - marker) // 2))


def seat_standing(state: Any, seat: int) -> tuple[bool, bool]:
    """(won, current) for ``seat``: the winner of a finished game, the player to move in a running one."""
    return state.finished and state.winner == seat, not state.finished and state.turn == seat


def mark_card(img: Image.Image, box: Box, radius: int, won: bool, current: bool, finished: bool,
              veil_alpha: int = 110, edged: bool = False) -> None:
    """A veil over a loser's card once ``finished``; a gold ring, ``edged`` in ink, round the winner's or mover's."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if finished and not won:
        paste(img, veil(w, h, radius, PANEL_DIM, veil_alpha), (x0, y0))
    if current or won:
        if edged:
            paste_ring(img, w, h, radius, 9, INK, (x0 - 9, y0 - 9))
        paste_ring(img, w, h, radius, 6, GOLD, (x0 - 6, y0 - 6))


def turn_line(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[int, int], label: str, seat: int,
              names: Sequence[str], right: int, width: int) -> None:
    """A gold ``label`` pill (``width`` at most) from ``xy``, then ``seat``'s marker and name up to ``right``."""
    x, y = xy
    box = pill(d, (x, y), label, fit_font(label, width - 20, 20, 14, bold=True), GOLD, INK, pad=(10, 4),
               max_width=width)
    paste(img, marker_image(seat, 28), (box[2] + 8, y - 14))
    room = right - box[2] - 44
    if room >= 40:
        text, fnt = seat_name(names, seat, room, 20)
        d.text((box[2] + 42, y), text, font=fnt, fill=FELT_TEXT, anchor="lm")


def turn_stack(img: Image.Image, d: ImageDraw.ImageDraw, mx: int, ry: int, label: str, seat: int,
               names: Sequence[str], width: int, gap: int) -> None:
    """A gold ``label`` pill centred on ``mx`` at ``ry``, and ``gap`` px below it ``seat``'s marker and
    name, centred too (the dice card of the cross boards)."""
    fnt = fit_font(label, width - 40, 20, 13, bold=True)
    pill(d, (mx, ry), label, fnt, GOLD, INK, anchor="m", pad=(10, 4), max_width=width - 24)
    text, fnt = seat_name(names, seat, width - 58, 20)
    line = 30 + round(fnt.getlength(text))
    paste(img, marker_image(seat, 26), (mx - line // 2, ry + gap))
    d.text((mx - line // 2 + 32, ry + gap + 13), text, font=fnt, fill=FELT_TEXT, anchor="lm")


@lru_cache(maxsize=256)
def numbered_token(seat: int, number: int, size: int) -> Image.Image:
    """The seat's marker with ``number`` on it (RGBA): one numbered piece or checker."""
    img = marker_image(seat, size).copy()
    style = player(seat)
    shift = {"triangle": 0.12, "pentagon": 0.04, "star": 0.05}.get(style.shape, 0)
    scale = {"star": 0.42, "triangle": 0.42, "diamond": 0.46, "cross": 0.46}.get(style.shape, 0.52)
    d = ImageDraw.Draw(img)
    d.text((size / 2, size / 2 + size * shift), str(number), font=font(max(8, round(size * scale)), True),
           fill=style.ink, anchor="mm", stroke_width=max(1, size // 22), stroke_fill=style.colour)
    return img


@lru_cache(maxsize=256)
def standing_piece(seat: int, number: int, size: int, halo: RGB = IVORY) -> Image.Image:
    """:func:`numbered_token` standing on a board: a light halo and a soft shadow round it
    (RGBA, 8 px larger than ``size``; paste it at the token's top-left minus 4)."""
    tok = numbered_token(seat, number, size)
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


def put_piece(img: Image.Image, seat: int, number: int, size: int, xy: tuple[int, int]) -> None:
    """Paste :func:`standing_piece` ``number`` of ``seat`` (a ``size`` px token) centred on ``xy``."""
    paste(img, standing_piece(seat, number, size), (xy[0] - size // 2 - 4, xy[1] - size // 2 - 4))


def draw_crowd(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[int, int], who: Sequence[tuple[int, int]],
               size: int, offsets: Sequence[tuple[int, int]]) -> None:
    """The (seat, piece from 0)s ``who`` sharing a place, standing at ``offsets`` from ``xy``; more than fit: "+n"."""
    cx, cy = xy
    shown = who if len(who) <= len(offsets) else who[: len(offsets) - 1]
    for (seat, i), (dx, dy) in zip(shown, offsets, strict=False):
        put_piece(img, seat, i + 1, size, (cx + dx, cy + dy))
    if len(shown) < len(who):
        dx, dy = offsets[-1]
        pill(d, (cx + dx, cy + dy), f"+{len(who) - len(shown)}", font(12, True), INK, LIGHT, anchor="m", pad=(3, 1))


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


# ---------------------------------------------------------------- generic marks (appended for round-cell boards)


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


@lru_cache(maxsize=64)
def round_ring(size: int, colour: RGB, alpha: int = 255, width: int = 4) -> Image.Image:
    """A solid ring ``size`` px across in ``colour`` edged with ink, ``alpha`` opaque (RGBA): a round cell marked."""
    s, k = size * SS, 1.5 * SS
    img = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((SS, SS, s - SS, s - SS), outline=(*INK, alpha), width=(width + 3) * SS)
    d.ellipse((SS + k, SS + k, s - SS - k, s - SS - k), outline=(*colour, alpha), width=width * SS)
    return img.reduce(SS)


def draw_arrow(d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], colour: Any, width: float,
               head: float, both: bool = False) -> None:
    """A straight arrow from ``a`` to ``b`` with a ``head`` px long tip (at both ends when ``both``)."""
    n = math.dist(a, b)
    ux, uy = (b[0] - a[0]) / n, (b[1] - a[1]) / n
    start = (a[0] + ux * head * 0.8, a[1] + uy * head * 0.8) if both else a
    d.line((*start, b[0] - ux * head * 0.8, b[1] - uy * head * 0.8), fill=colour, width=round(width))
    for tip, sx in ((b, 1), (a, -1)) if both else ((b, 1),):
        bx, by = tip[0] - sx * ux * head, tip[1] - sx * uy * head
        d.polygon([tip, (bx - uy * head * 0.6, by + ux * head * 0.6), (bx + uy * head * 0.6, by - ux * head * 0.6)],
                  fill=colour)


def card_header(img: Image.Image, d: ImageDraw.ImageDraw, box: Box, seat: int, state: Any, names: Sequence[str],
                labels: Mapping[str, str], radius: int, header_h: int) -> None:
    """A player card's frame and header: turn/winner ring and pill on the right, the name fitted
    into what is left (the card's marker is part of the cached base)."""
    x0, y0, x1, _ = box
    pw = x1 - x0
    won, current = seat_standing(state, seat)
    mark_card(img, box, radius, won, current, state.finished)
    right = x1 - 10
    if current or won:
        text = labels["winner" if won else "turn"]
        fnt = fit_font(text, pw * 0.35, 19, 13, bold=True)
        right = pill(d, (right, y0 + header_h // 2 - 1), text, fnt, GOLD, INK, anchor="r", pad=(9, 4),
                     max_width=pw * 0.4)[0] - 8
    text, fnt = seat_name(names, seat, right - x0 - 52, 24)
    d.text((x0 + 50, y0 + header_h // 2), text, font=fnt, fill=INK, anchor="lm")


def colour_strip(colours: Sequence[RGB], width: int) -> Image.Image:
    """Bands of ``colours`` (24 px each): fed to palette fitting, so marks keep their exact colours."""
    strip = Image.new("RGB", (width, 24 * len(colours)), BG)
    for j, colour in enumerate(colours):
        strip.paste(colour, (0, 24 * j, width, 24 * j + 24))
    return strip
