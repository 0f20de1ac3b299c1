"""The cover cards as the cover tests draw and compare them."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from render.cover import H, W, render_cover


def card(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def differ(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ noticeably between two cards."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > 24 else 0)
    return sum(diff.histogram()[255:]) / (a.width * a.height)


MARGIN = 60  # px of felt kept clear on each side of a line (the felt itself starts 20 px in)


FELT_BOTTOM = H - 20  # the wooden rim starts below it


@dataclass(frozen=True)
class Drawn:
    text: str
    fnt: ImageFont.FreeTypeFont
    y: float

    @property
    def box(self) -> tuple[float, float, float, float]:
        """Its extent on the card (left, top, right, bottom), as drawn centred on (W / 2, y)."""
        width = self.fnt.getlength(self.text)
        return W / 2 - width / 2, self.y - self.fnt.size / 2, W / 2 + width / 2, self.y + self.fnt.size / 2


def drawn_words(monkeypatch: pytest.MonkeyPatch, title: str, subtitle: str) -> list[Drawn]:
    """What ``render_cover`` writes on a card, line by line (the title's shadow once), top to bottom."""
    seen: list[Drawn] = []
    original = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: str, *args: Any, **kwargs: Any) -> None:
        if kwargs.get("anchor") == "mm" and not any(d.text == words for d in seen):
            seen.append(Drawn(words, kwargs["font"], xy[1]))
        original(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    render_cover.__wrapped__(title, subtitle)  # type: ignore[attr-defined]  # not the cached card
    return sorted(seen, key=lambda d: d.y)
