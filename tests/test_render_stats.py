"""The /stats and /top charts: valid small PNGs of the expected size, the same for the same data."""

from __future__ import annotations

import io

from PIL import Image

from render.stats import LEGEND_H, MARGIN, ROW_H, TITLE_H, WIDTH, render_mine, render_top

LONG = "Очень-очень длинное имя игрока, которое никуда не влезет ☃ <b>"
TOP = [(1, "Аня Ёлкина", 12), (1, "Борис", 12), (3, LONG, 7), (4, "🤖 Кеша", 3)] + [
    (i, f"Игрок {i}", 2) for i in range(5, 11)]
MINE = [("Помоги своему соседу", 30, 12), ("Спички", 5, 0), ("Тише едешь — дальше будешь", 2, 2)]


def image(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    img = Image.open(io.BytesIO(png))
    img.verify()
    return Image.open(io.BytesIO(png))


def test_top_chart_has_a_row_per_player_and_is_small() -> None:
    png = render_top("Победы · все игры", TOP)
    assert image(png).size == (WIDTH, TITLE_H + 10 * ROW_H + MARGIN)
    assert len(png) <= 100_000
    assert image(render_top("Победы", TOP[:2])).size == (WIDTH, TITLE_H + 2 * ROW_H + MARGIN)


def test_my_chart_has_a_legend_and_a_row_per_game() -> None:
    png = render_mine("Аня: игры и победы", MINE, "сыграно", "выиграно")
    assert image(png).size == (WIDTH, TITLE_H + LEGEND_H + 3 * ROW_H + MARGIN)
    assert len(png) <= 100_000


def test_same_data_same_bytes_and_other_data_other_pictures() -> None:
    png = render_top("Победы", TOP)
    assert render_top("Победы", list(TOP)) == png
    assert render_top("Победы", [*TOP[:-1], (10, "Игрок 10", 1)]) != png  # one win fewer: a shorter bar
    assert render_top("Победы · Спички", TOP) != png
    mine = render_mine("Аня", MINE, "сыграно", "выиграно")
    assert render_mine("Аня", [("Помоги своему соседу", 30, 13), *MINE[1:]], "сыграно", "выиграно") != mine
    assert render_mine("Аня", MINE, "played", "won") != mine


def test_the_bar_lengths_follow_the_numbers() -> None:
    """The first row's bar (the most wins) reaches further right than a row with half the wins."""
    img = image(render_top("Победы", [(1, "Аня", 10), (2, "Борис", 5), (3, "Вера", 0)])).convert("RGB")

    def bar_end(row: int) -> int:
        y = TITLE_H + row * ROW_H + ROW_H // 2
        background = img.getpixel((WIDTH - 2, y))
        xs = [x for x in range(MARGIN + 280, WIDTH) if img.getpixel((x, y)) != background]
        return max(xs) if xs else 0

    assert bar_end(0) > bar_end(1) + 150 > 150
    assert bar_end(2) < bar_end(1)  # no bar for 0 wins, only its number


def test_huge_numbers_and_no_rows_still_draw() -> None:
    png = render_mine("x", [("Спички", 123_456, 98_765)], "a", "b")
    assert image(png).width == WIDTH
    assert image(render_top("", [])).size == (WIDTH, TITLE_H + ROW_H + MARGIN)
