"""What a renderer writes on its picture: every line of text drawn, where, and in which font.

    with drawn_words() as words:
        render_board(state, names, labels)
    assert "Спасён" in [w.text for w in words]
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from PIL import ImageDraw, ImageFont

from render.typeset import TextDraw


@dataclass(frozen=True)
class Word:
    """One ``text`` call: its anchor point, its text and font."""

    xy: tuple[float, float]
    text: str
    font: Any

    @property
    def cap_height(self) -> int:
        """The height of a capital letter in this font, in px."""
        assert isinstance(self.font, ImageFont.FreeTypeFont)
        _left, top, _right, bottom = self.font.getbbox("H", anchor="ls")
        return bottom - top


@contextmanager
def drawn_words() -> Iterator[list[Word]]:
    """Record every text drawn (Pillow's own and the cached :class:`TextDraw` path) while inside."""
    words: list[Word] = []
    inside = [0]  # TextDraw falls back to Pillow's text: record that call once
    originals = {cls: cls.text for cls in (ImageDraw.ImageDraw, TextDraw)}

    def wrap(cls: type) -> Any:
        original = originals[cls]

        def text(self: Any, xy: Any, text: Any, fill: Any = None, font: Any = None, *args: Any, **kwargs: Any) -> Any:
            if not inside[0]:
                words.append(Word(tuple(xy), str(text), font))
            inside[0] += 1
            try:
                return original(self, xy, text, fill, font, *args, **kwargs)
            finally:
                inside[0] -= 1

        return text

    try:
        for cls in originals:
            cls.text = wrap(cls)  # type: ignore[method-assign]
        yield words
    finally:
        for cls, original in originals.items():
            cls.text = original  # type: ignore[method-assign]
