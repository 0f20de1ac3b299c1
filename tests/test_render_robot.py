"""A computer-played seat is marked on the picture: its name begins with «🤖» («🤖 Кеша», or «🤖 Глеб» once
the computer took a person's seat), a character the shipped font has no glyph for, so every board draws a
robot's head (antenna, rounded square head, two eyes) before the name instead; a person's name is drawn
as it always was.

The mark is found by its shape, not by how it is made: in the first em of the name, ink that encloses at
least two holes (the eyes; the gear the font would draw there has one) under a narrow top (the antenna).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from unittest import mock

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont

from bot.games import GAMES
from locales import Translator
from render.typeset import TextDraw, clean_text, fit_name, font
from tests.render_helpers import Pixel, rgb

KESHA = "Кеша"
GEAR = "\u2699"  # what the font draws for a person whose name begins with ⚙: as wide as the mark
Box = tuple[int, int, int, int]


def _names(seats: int, second: str) -> list[str]:
    return ["Аня", second, "Вера", "Глеб", "Даша", "Евгений"][:seats]


@contextmanager
def drawn_names(word: str) -> Iterator[list[tuple[Box, Pixel]]]:
    """The first em (the box of a ⚙ at the start of the line) and the colour of every text drawn that holds
    ``word``, in picture pixels."""
    found: list[tuple[Box, Pixel]] = []
    kit_text = TextDraw.text

    def spy(self: TextDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, anchor: Any = None, *a: Any,
            **kw: Any) -> None:
        if isinstance(text, str) and word in text and isinstance(font, ImageFont.FreeTypeFont):
            found.append((_first_em(xy, text, font, anchor or "la"), tuple(fill)))
        kit_text(self, xy, text, fill, font, anchor, *a, **kw)

    with mock.patch.object(TextDraw, "text", spy):
        yield found


def _first_em(xy: tuple[float, float], text: str, fnt: ImageFont.FreeTypeFont, anchor: str) -> Box:
    """Where a ⚙ stands when ``text`` is drawn at ``xy`` by ``anchor`` (one pixel more all round)."""
    left = fnt.getbbox(text, anchor=anchor)[0] - fnt.getbbox(text, anchor="l" + anchor[1])[0]
    x0, y0, x1, y1 = fnt.getbbox(GEAR, anchor="l" + anchor[1])
    x, y = xy[0] + left, xy[1]
    return int(x + x0) - 1, int(y + y0) - 1, int(x + x1) + 2, int(y + y1) + 2


def _ink(img: Image.Image, box: Box, ink: Pixel) -> list[list[bool]]:
    """``box`` of ``img`` as a grid: True where a pixel is nearer the text's colour than the background's
    (the colour at the box's corner)."""
    crop = img.crop(box)
    bg = crop.getpixel((0, 0))

    def dist(a: Sequence[int], b: Sequence[int]) -> int:
        return sum((p - q) ** 2 for p, q in zip(a, b, strict=True))

    return [[dist(crop.getpixel((x, y)), ink) < dist(crop.getpixel((x, y)), bg) for x in range(crop.width)]
            for y in range(crop.height)]


def holes(grid: list[list[bool]]) -> int:
    """How many separate blank areas the ink encloses (blank not reached from the grid's edge)."""
    h, w = len(grid), len(grid[0])
    seen = [[False] * w for _ in range(h)]

    def fill(y0: int, x0: int) -> None:
        stack = [(y0, x0)]
        seen[y0][x0] = True
        while stack:
            y, x = stack.pop()
            for ny, nx in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                if 0 <= ny < h and 0 <= nx < w and not seen[ny][nx] and not grid[ny][nx]:
                    seen[ny][nx] = True
                    stack.append((ny, nx))

    for y in range(h):
        for x in range(w):
            if (y in (0, h - 1) or x in (0, w - 1)) and not grid[y][x] and not seen[y][x]:
                fill(y, x)
    count = 0
    for y in range(h):
        for x in range(w):
            if not grid[y][x] and not seen[y][x]:
                count += 1
                fill(y, x)
    return count


def looks_like_a_robot(img: Image.Image, box: Box, ink: Pixel) -> bool:
    """Ink in ``box`` that encloses two holes or more (eyes, maybe a mouth) and whose top row of ink is
    narrower than a third of its widest (the antenna's ball over the head)."""
    grid = _ink(img, box, ink)
    rows = [sum(row) for row in grid if any(row)]
    return bool(rows) and holes(grid) >= 2 and rows[0] * 3 < max(rows)


def _picture(code: str, names: Sequence[str]) -> Image.Image:
    spec = GAMES[code]
    seats = len(names)
    state, events = spec.engine.new_game(spec.engine.options_from_json({}), seats, f"{seats:064x}")
    labels = {k: Translator.load().t("ru", f"board-{k}") for k in spec.label_keys}
    return rgb(spec.render_board(state, names, labels, events))


def _seats(code: str) -> int:
    engine = GAMES[code].engine
    return min(max(engine.min_players, 3), engine.max_players)


@pytest.mark.parametrize("code", list(GAMES))
def test_a_computer_seat_shows_a_robot_before_its_name(code: str) -> None:
    seats = _seats(code)
    with drawn_names(KESHA) as spots:
        robot = _picture(code, _names(seats, "🤖 " + KESHA))
    gear = _picture(code, _names(seats, GEAR + " " + KESHA))  # a person's ⚙ takes the same room
    assert spots, f"{code}: the computer's name is not drawn"
    changed = ImageChops.difference(robot, gear)
    for box, ink in spots:
        assert changed.crop(box).getbbox() is not None, f"{code}: no mark before the name at {box}"
        assert looks_like_a_robot(robot, box, ink), f"{code}: the mark at {box} is not a robot's head"
        assert not looks_like_a_robot(gear, box, ink), f"{code}: a person's ⚙ at {box} became a robot"
        changed.paste((0, 0, 0), box)
    assert changed.getbbox() is None, f"{code}: the picture changed beyond the marks: {changed.getbbox()}"


@pytest.mark.parametrize("code", list(GAMES))
def test_a_persons_name_is_drawn_as_pillow_draws_it(code: str) -> None:
    """Golden pixels for people: the board with the kit's cached text equals the board drawn by Pillow's own
    ``ImageDraw.text``, a name beginning with ⚙ (not a computer's) and a 🤖 inside a name included."""
    names = _names(_seats(code), GEAR + " Борис")
    names[0] = "Аня 🤖"
    kit = _picture(code, names)
    with mock.patch.object(TextDraw, "text", ImageDraw.ImageDraw.text):
        pillow = _picture(code, names)
    assert ImageChops.difference(kit, pillow).getbbox() is None


@pytest.mark.parametrize("anchor", ["la", "lm", "ls", "lt", "ld", "mm", "ms", "rm", "rs"])
@pytest.mark.parametrize("x", [40.0, 40.5, 40.25])
def test_the_mark_stands_where_its_placeholder_would_for_every_anchor(anchor: str, x: float) -> None:
    """Drawn by any anchor, at any fraction of a pixel, the robot takes the ⚙'s place and nothing else
    of the line moves."""
    fnt = font(26, True)
    text, _ = fit_name("🤖 HH", 400, 26)
    pictures = []
    for line in (text, GEAR + " HH"):
        img = Image.new("RGB", (400, 120), (250, 245, 230))
        TextDraw(img).text((x if anchor[0] == "l" else 200 + x, 60.5), line, fill=(20, 20, 20), font=fnt,
                           anchor=anchor)
        pictures.append(img)
    with drawn_names("HH") as spots:
        TextDraw(Image.new("RGB", (400, 120))).text((x if anchor[0] == "l" else 200 + x, 60.5), text,
                                                    fill=(20, 20, 20), font=fnt, anchor=anchor)
    (box, ink), = spots
    changed = ImageChops.difference(*pictures)
    assert looks_like_a_robot(pictures[0], box, ink) and not looks_like_a_robot(pictures[1], box, ink)
    changed.paste((0, 0, 0), box)
    assert changed.getbbox() is None


def test_only_a_leading_robot_is_a_computers_mark() -> None:
    """🤖 first (after blanks, with or without the emoji selector) is kept as one character the font has,
    as wide as ⚙; a 🤖 elsewhere is dropped as before, and a person's own ⚙ is not the mark."""
    mark = clean_text(" 🤖\ufe0f  Кеша")
    assert mark == clean_text("🤖 Кеша") and mark != clean_text(GEAR + " Кеша")
    assert mark.endswith(" Кеша") and len(mark) > len(" Кеша")
    assert font(24, True).getlength(mark) == font(24, True).getlength(GEAR + " Кеша")
    assert clean_text("Кеша 🤖") == "Кеша" and clean_text("🤖🤖 Кеша") == mark
    assert clean_text("\u2699\u2060 Кеша") == clean_text(GEAR + " Кеша")  # a format character is dropped

