"""Bar charts for /stats and /top: pure functions, plain data in, PNG bytes out.

Each row is a label and a horizontal bar; /stats draws the games played behind the games won,
/top one bar of wins per player. Labels are drawn in the shipped font (Cyrillic included) and
shortened with «…» to fit; the same data always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from render.png import to_png
from render.theme import BG, GOLD, LIGHT, RGB
from render.typeset import clean_text, ellipsize, fit_name, font

WIDTH = 800  # shown about 360 pt wide on a phone: the 28 px labels read like 12 pt text
MARGIN = 32
TITLE_H = 76  # the title line
LEGEND_H = 40  # the legend line under the title (/stats only)
ROW_H = 56
BAR_H = 34
LABEL_W = 270  # the label column
MAX_ROWS = 12  # more rows than this are not drawn (the callers send at most 10)
PLAYED: RGB = (84, 94, 116)  # games played: the quiet bar behind
WON: RGB = GOLD
PODIUM: tuple[RGB, ...] = ((255, 199, 44), (200, 204, 214), (214, 140, 72))  # places 1, 2, 3
OTHERS: RGB = (76, 170, 128)
TEXT_MUTED: RGB = (170, 176, 190)


class Bar(NamedTuple):
    """One row: its label, the front bar (and an optional bar behind it), the number shown, the front colour."""

    label: str
    value: int
    behind: int | None
    text: str
    colour: RGB


def render_top(title: str, rows: Sequence[tuple[int, str, int]]) -> bytes:
    """/top: one bar of wins per player; ``rows`` are (place, name, wins), best first."""
    bars = [Bar(f"{place}. {name}", wins, None, str(wins), PODIUM[place - 1] if place <= len(PODIUM) else OTHERS)
            for place, name, wins in rows]
    return to_png(_chart(title, bars, None))


def render_mine(title: str, rows: Sequence[tuple[str, int, int]], played: str, won: str) -> bytes:
    """/stats: per game (name, games played, games won), the games won drawn over the games played;
    ``played`` and ``won`` label the legend."""
    bars = [Bar(game, wins, games, f"{wins} / {games}", WON) for game, games, wins in rows]
    return to_png(_chart(title, bars, (played, won)))


def _chart(title: str, bars: Sequence[Bar], legend: tuple[str, str] | None) -> Image.Image:
    """The picture: a title, an optional legend (behind, front), then one row per bar."""
    bars = list(bars)[:MAX_ROWS]
    top = TITLE_H + (LEGEND_H if legend else 0)
    height = top + max(len(bars), 1) * ROW_H + MARGIN
    img = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(img)
    heading = font(34, bold=True)
    d.text((MARGIN, TITLE_H // 2 + 6), ellipsize(clean_text(title, True), heading, WIDTH - 2 * MARGIN), font=heading,
           fill=LIGHT, anchor="lm")
    if legend:
        _legend(d, TITLE_H + LEGEND_H // 2 - 4, legend)
    scale_max = max([1, *(b.value for b in bars), *(b.behind or 0 for b in bars)])
    number = font(26, bold=True)
    value_w = 12 + max([0, *(round(number.getlength(b.text)) for b in bars)])  # room for the longest bar's number
    bar_x = MARGIN + LABEL_W + 16
    bar_w = max(WIDTH - MARGIN - bar_x - value_w, 120)
    for i, bar in enumerate(bars):
        cy = top + i * ROW_H + ROW_H // 2
        label, label_font = fit_name(bar.label, LABEL_W, 28, bold=False)
        d.text((MARGIN, cy), label, font=label_font, fill=LIGHT, anchor="lm")
        end = bar_x
        for value, colour in ((bar.behind, PLAYED), (bar.value, bar.colour)):
            if value:  # a zero draws no bar; its number still says 0
                right = bar_x + max(round(bar_w * value / scale_max), 6)
                d.rounded_rectangle((bar_x, cy - BAR_H // 2, right, cy + BAR_H // 2), 6, fill=colour)
                end = max(end, right)
        d.text((end + 12, cy), bar.text, font=number, fill=LIGHT, anchor="lm")
    return img


def _legend(d: ImageDraw.ImageDraw, cy: int, legend: tuple[str, str]) -> None:
    """Two swatches with their words: the bar behind, the bar in front."""
    words = font(22)
    x = MARGIN
    for word, colour in zip(legend, (PLAYED, WON), strict=True):
        d.rounded_rectangle((x, cy - 10, x + 28, cy + 10), 4, fill=colour)
        text = clean_text(word)
        d.text((x + 38, cy), text, font=words, fill=TEXT_MUTED, anchor="lm")
        x += 38 + round(words.getlength(text)) + 32
