"""Words on a board: the shipped fonts, cleaning and fitting text (names, labels, wrapped lines),
cached glyph masks, rounded label pills, and the check that every label a renderer needs was given.

Nothing here reads the disk except the shipped fonts, so the same text always gives the same pixels.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, AnyStr

from PIL import Image, ImageDraw, ImageFont

from render.canvas import image_of, rounded_mask
from render.theme import RGB, Box, player

if TYPE_CHECKING:
    from PIL.ImageText import Text

Ink = float | tuple[int, ...] | str  # a colour as ImageDraw takes it (Pillow's own alias is private)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
_FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

# A phone shows the 1024-px picture about 390 px wide, so every label a player needs stands at least
# 18 px tall in capitals: DejaVu Sans at 24 px. fit_name goes no smaller, nor fit_font by default.
MIN_CAP = 18
READABLE = 24

# A computer's seat is named «🤖 Кеша» (or «🤖 Глеб» once it took a person's seat), and DejaVu has no 🤖.
# clean_text keeps a leading 🤖 as ROBOT_MARK: ⚙, a glyph of about 1 em that no board draws otherwise (so
# widths and «…» count it, and Pillow's own path still shows a machine), joined to U+2060 WORD JOINER, a
# format character clean_text drops from any text, so that a person's own «⚙» is never taken for it.
# TextDraw paints a robot's head in the ⚙'s place.
ROBOT = "\U0001f916"
ROBOT_MARK = "\u2699\u2060"
_VARIATION = "\ufe0f"  # «🤖️»: the emoji presentation selector some keyboards add

_decoration: ContextVar[str | None] = ContextVar("decoration", default=None)


@contextmanager
def decoration(reason: str) -> Iterator[None]:
    """Text drawn inside is decoration, not a label a player needs, so it may be smaller than
    :data:`READABLE`; ``reason`` says why (tests/test_render_readable.py reads it)."""
    token = _decoration.set(reason)
    try:
        yield
    finally:
        _decoration.reset(token)


def decoration_reason() -> str | None:
    """Why the text drawn now is decoration (see :func:`decoration`), or None: a label a player needs."""
    return _decoration.get()


def cap_height(fnt: ImageFont.FreeTypeFont) -> float:
    """How tall a capital stands in ``fnt``, in pixels."""
    _left, top, _right, bottom = fnt.getbbox("H")
    return bottom - top


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
    """One line of printable text: whitespace collapsed, controls and glyphless chars dropped; a
    leading 🤖 (a computer's seat) becomes :data:`ROBOT_MARK`."""
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", str(text)):
        cat = unicodedata.category(ch)
        if ch == ROBOT and not "".join(out).strip():
            out.append(ROBOT_MARK)
        elif ch == _VARIATION and out and out[-1] == ROBOT_MARK:
            continue
        elif cat.startswith("Z") or ch in "\t\n\r":
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


def fit_font(text: str, max_width: float, size: int, min_size: int = READABLE,
             bold: bool = False) -> ImageFont.FreeTypeFont:
    """The largest font from ``size`` down to ``min_size`` (by default :data:`READABLE`) in which
    ``text`` fits: what still does not fit is for the caller to cut."""
    while size > min_size and font(size, bold).getlength(text) > max_width:
        size -= 2 if size > 30 else 1
    return font(max(size, min_size), bold)


@lru_cache(maxsize=1024)
def fit_name(name: str, max_width: float, size: int, bold: bool = True,
             fallback: str = "?") -> tuple[str, ImageFont.FreeTypeFont]:
    """A player name cleaned and ellipsised for ``max_width``: ``(text, font)``; cached, as the same
    names are fitted on every frame."""
    text = clean_text(name, bold) or fallback
    fnt = fit_font(text, max_width, size, max(READABLE, round(size * 0.8)), bold)
    return ellipsize(text, fnt, max_width), fnt


def seat_name(names: Sequence[str], seat: int, max_width: float, size: int) -> tuple[str, ImageFont.FreeTypeFont]:
    """``seat``'s name (its letter when ``names`` has none) fitted by :func:`fit_name`: ``(text, font)``."""
    return fit_name(names[seat] if seat < len(names) else "", max_width, size, fallback=player(seat).letter)


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


@lru_cache(maxsize=1024)  # a few KB each
def _text_mask(text: str, fnt: ImageFont.FreeTypeFont, anchor: str | None,
               start: tuple[float, float]) -> tuple[Image.Image, int, int]:
    """``text`` rasterised once as ImageDraw.text would (mask and its offset from the anchor point), a
    leading :data:`ROBOT_MARK` as a robot's head."""
    core, (dx, dy) = fnt.getmask2(text, "L", anchor=anchor, start=start)
    mask = Image.frombytes("L", core.size, bytes(core))
    if text.startswith(ROBOT_MARK):
        _paint_robot(mask, _mark_box(text, fnt, anchor or "la", (start[0] - dx, start[1] - dy)))
    return mask, dx, dy


def _mark_box(text: str, fnt: ImageFont.FreeTypeFont, anchor: str,
              origin: tuple[float, float]) -> tuple[int, int, int, int]:
    """The box of :data:`ROBOT_MARK`'s ⚙ in the mask of ``text`` whose anchor point is ``origin``: the ⚙
    as it stands at the start of a left-anchored line, moved by what the anchor moves the whole line."""
    line_start = "l" + anchor[1]
    shift = fnt.getbbox(text, anchor=anchor)[0] - fnt.getbbox(text, anchor=line_start)[0]
    x0, y0, x1, y1 = fnt.getbbox(ROBOT_MARK[0], anchor=line_start)
    ox, oy = origin[0] + shift, origin[1]
    return math.floor(ox + x0), math.floor(oy + y0), math.ceil(ox + x1), math.ceil(oy + y1)


def _paint_robot(mask: Image.Image, box: tuple[int, int, int, int]) -> None:
    """The ⚙ in ``box`` of ``mask`` replaced by a robot's head of the same size (the text's colour)."""
    box = (max(box[0], 0), max(box[1], 0), min(box[2], mask.width), min(box[3], mask.height))
    if box[2] - box[0] < 4 or box[3] - box[1] < 4:
        return  # too small to show a face: the ⚙ stays
    mask.paste(0, box)
    mask.paste(_robot(box[2] - box[0], box[3] - box[1]), box)


@lru_cache(maxsize=64)
def _robot(width: int, height: int) -> Image.Image:
    """A robot's head ``width`` × ``height`` px as an L mask: a ball on an antenna over a rounded square
    head with two round eyes and a mouth cut out (drawn 4× and scaled down, so its edges are smooth)."""
    k = 4
    w, h = width * k, height * k
    img = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(img)
    head_h = 0.74 * h
    head_w = min(w, 1.12 * head_h)
    x0, y0 = (w - head_w) / 2, h - head_h
    ball = 0.11 * h
    d.line((w / 2, ball, w / 2, y0 + 1), fill=255, width=max(k, round(0.08 * h)))
    d.ellipse((w / 2 - ball, 0, w / 2 + ball, 2 * ball), fill=255)
    d.rounded_rectangle((x0, y0, x0 + head_w - 1, h - 1), radius=0.24 * head_h, fill=255)
    eye, eye_y = 0.13 * head_h, y0 + 0.42 * head_h
    for ex in (w / 2 - 0.22 * head_w, w / 2 + 0.22 * head_w):
        d.ellipse((ex - eye, eye_y - eye, ex + eye, eye_y + eye), fill=0)
    mouth_y = y0 + 0.74 * head_h
    d.rectangle((w / 2 - 0.2 * head_w, mouth_y - 0.05 * head_h, w / 2 + 0.2 * head_w, mouth_y + 0.05 * head_h), fill=0)
    return img.resize((width, height), Image.Resampling.BOX)


class TextDraw(ImageDraw.ImageDraw):
    """An ImageDraw whose one-line ``text`` reuses cached glyph masks.

    ``text_scale``: how many times larger than it is shown the canvas is drawn (a supersampled
    canvas scaled down afterwards; see :func:`scaled_draw`), so the shown size of its text is known.

    The same names, numbers and labels come back on every frame, and FreeType rendering them
    was a quarter of a board's drawing time; the cached mask is filled in exactly as
    ``ImageDraw.text`` fills it, so the pixels are the same, but for a computer's name: its leading
    :data:`ROBOT_MARK` shows a robot's head. Anything else (strokes, several lines, bitmap fonts,
    extra options) takes Pillow's own path, where the mark shows as ⚙.
    """

    text_scale: float = 1

    def text(self, xy: tuple[float, float], text: AnyStr | Text[AnyStr], fill: Ink | None = None,
             font: ImageFont.BaseImageFont | None = None, anchor: str | None = None, *args: Any,
             **kwargs: Any) -> None:
        if (args or kwargs or not isinstance(text, str) or "\n" in text or not isinstance(font, ImageFont.FreeTypeFont)
                or fill is None or self.mode != "RGB"):  # not one plain line on an RGB image: Pillow's own path
            super().text(xy, text, fill, font, anchor, *args, **kwargs)
            return
        if not text:
            return
        x, y = xy
        # Pillow draws at the integer part and shifts the glyphs by the fraction (start)
        mask, dx, dy = _text_mask(text, font, anchor, (math.modf(x)[0], math.modf(y)[0]))
        left, top = int(x) + dx, int(y) + dy
        self._image.paste(fill, (left, top, left + mask.width, top + mask.height), mask)


def scaled_draw(img: Image.Image, k: float) -> TextDraw:
    """A :class:`TextDraw` on ``img``, a canvas drawn ``k`` times larger than it will be shown."""
    draw = TextDraw(img)
    draw.text_scale = k
    return draw


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
    image_of(draw).paste(fill, box, rounded_mask(width, height, height // 2))
    draw.text((x0 + width / 2, y + 1), text, font=fnt, fill=ink, anchor="mm")
    return box


def require_labels(labels: Mapping[str, str], keys: Iterable[str]) -> None:
    """Raise KeyError naming every one of ``keys`` that ``labels`` lacks."""
    missing = [key for key in keys if key not in labels]
    if missing:
        raise KeyError(f"labels missing: {', '.join(missing)}")
