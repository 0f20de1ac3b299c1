"""How wide an inline button's label is on a phone, and how many buttons a row of them may hold.

The playground page (bot/playground/static/style.css) lays out a keyboard as Telegram does: the
buttons of a row share its width (``flex: 1``), each label on one line, cut with «…» when it is too
long. Its font is the phone's own (``system-ui``: San Francisco, Roboto; Arial further down the list),
which the bot does not have; labels are measured in the bundled DejaVu Sans instead, which is wider
(the lobby's labels 8–14 % wider than in Arial's metrics, Liberation Sans, and 5–7 % wider than in its
bold, the page's weight 500 lying between), so a label that fits here fits there. An emoji counts as
one wide glyph, whatever the font has.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from telegram import InlineKeyboardButton

from render.typeset import font, has_glyph

PHONE = 390  # px: the narrow phone every keyboard must fit (an iPhone 12 to 15)
# style.css at that width: #messages has 10 px of padding a side and a message takes 92 % of what is
# left (@media max-width 480 px); buttons stand 4 px apart, each with 10 px of padding a side; 14 px text
MESSAGE = (PHONE - 2 * 10) * 0.92
GAP, PADDING, SIZE = 4, 10, 14
EMOJI = 1.3 * SIZE  # a colour emoji's advance: Noto Color Emoji's is 1.275 em, Apple's about 1.25
MOST_PER_ROW = 4
INVISIBLE = frozenset("\u200d\ufe0e\ufe0f")  # the joiner and the variation selectors
TEXT_ARROWS = ((0x2190, 0x21FF), (0x27F0, 0x27FF), (0x2900, 0x297F))  # →, ⇄, ↶, ⤧: drawn as text
EMOJI_BLOCKS = ((0x2300, 0x23FF), (0x2600, 0x27BF), (0x2B00, 0x2BFF))  # ⏱ ⏭ ⚔ ✋ ✅ ➕ ⭐: phones draw emoji

def room(per_row: int) -> float:
    """The width, in px, the label of each of ``per_row`` buttons in a row has at :data:`PHONE`."""
    return (MESSAGE - GAP * (per_row - 1)) / per_row - 2 * PADDING


def _is_emoji(char: str, following: str) -> bool:
    code = ord(char)
    if following == "\ufe0f" or code >= 0x1F000:
        return True
    if any(lo <= code <= hi for lo, hi in TEXT_ARROWS):
        return False
    return any(lo <= code <= hi for lo, hi in EMOJI_BLOCKS)


@lru_cache(maxsize=8192)  # a table's labels repeat move after move
def label_width(text: str) -> float:
    """The width, in px, of ``text`` on a button: DejaVu Sans at 14 px; an emoji (its joined parts,
    skin tone and variation selector with it) one glyph :data:`EMOJI` wide, as is a character the font lacks."""
    fnt, width, run, joined = font(SIZE), 0.0, "", False
    for i, char in enumerate(text):
        following = text[i + 1] if i + 1 < len(text) else ""
        if joined or char in INVISIBLE or 0x1F3FB <= ord(char) <= 0x1F3FF or unicodedata.category(char) == "Mn":
            joined = char == "\u200d"  # what a joiner joins is drawn inside the same emoji
            continue
        if _is_emoji(char, following) or not has_glyph(char):
            width, run = width + fnt.getlength(run) + EMOJI, ""
        else:
            run += char
    return width + fnt.getlength(run)


def fits(labels: Sequence[str]) -> bool:
    """Whether these labels, side by side in one row, each show whole at :data:`PHONE`."""
    return all(label_width(label) <= room(len(labels)) for label in labels)


def per_row(labels: Sequence[str], most: int = MOST_PER_ROW) -> int:
    """How many of these labels a row may hold (at most ``most``) so that the widest shows whole."""
    widest = max((label_width(label) for label in labels), default=0.0)
    return next((n for n in range(most, 1, -1) if widest <= room(n)), 1)


def fitted(rows: Sequence[Sequence[InlineKeyboardButton]]) -> list[list[InlineKeyboardButton]]:
    """The rows, each one whose labels would be cut split into rows of as many as fit (in order)."""
    out: list[list[InlineKeyboardButton]] = []
    for row in rows:
        n = len(row) if fits([b.text for b in row]) else per_row([b.text for b in row], len(row))
        out.extend(list(row[i:i + n]) for i in range(0, len(row), n))
    return out
