"""A board's PNG written band by band (render/png_bands.py) is the picture Pillow's own PNG is: the same
palette and the same index at every pixel, for every game's board and for pictures drawn over their
backdrop anywhere (first row, last row, across band edges, nowhere, everywhere); its chunks' CRCs and its
zlib stream's Adler-32 hold; its bytes depend on the picture and its backdrop alone, never on what was
cached; and the cache of backdrops stays bounded and keeps no picture alive."""

from __future__ import annotations

import gc
import importlib
import io
import random
import struct
import weakref
import zlib
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from bot.games import GAMES
from render import png_bands
from render.png import make_palette, to_png
from tests.render_helpers import PNG_SIGNATURE, play_game

NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений", "Жанна", "Зоя"]


def chunks(png: bytes) -> Iterator[tuple[bytes, bytes]]:
    """(type, data) of every chunk of ``png``, each chunk's CRC checked."""
    assert png.startswith(PNG_SIGNATURE)
    at = len(PNG_SIGNATURE)
    while at < len(png):
        (length,), kind = struct.unpack(">I", png[at:at + 4]), png[at + 4:at + 8]
        data, (crc,) = png[at + 8:at + 8 + length], struct.unpack(">I", png[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(kind + data), kind
        yield kind, data
        at += 12 + length


def same_picture(ours: bytes, pillows: bytes) -> None:
    """``ours`` is a well-formed 8-bit palette PNG decoding to ``pillows``'s palette and indices."""
    found = dict(chunks(ours))
    assert list(found) == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    width, height, depth, colour_type = struct.unpack(">IIBB", found[b"IHDR"][:10])
    lines = zlib.decompress(found[b"IDAT"])  # checks the Adler-32 of every scanline too
    assert (depth, colour_type) == (8, 3) and len(lines) == height * (width + 1)
    assert all(lines[row * (width + 1)] == 0 for row in range(height))  # filter type 0 on every row
    a, b = Image.open(io.BytesIO(ours)), Image.open(io.BytesIO(pillows))
    assert a.mode == b.mode == "P" and a.size == b.size
    assert a.getpalette() == b.getpalette() and a.tobytes() == b.tobytes()


def pillows_png(image: Image.Image, palette: Image.Image, level: int) -> bytes:
    """The picture mapped to ``palette`` and written by Pillow (what boards were before the bands)."""
    return to_png(image, palette=palette, compress_level=level)


# ---------------------------------------------------------------- every game's board


def board_cases() -> list[Any]:
    cases = []
    for code, spec in GAMES.items():
        variant = next(v for v in spec.variants if v.drawn)
        cases.append(pytest.param(code, variant.options, id=code))
    return cases


@pytest.mark.parametrize(("code", "options"), board_cases())
def test_every_board_is_pillows_picture_from_start_to_end(code: str, options: Any) -> None:
    spec = GAMES[code]
    board = importlib.import_module(spec.render_board.__module__)
    seats = spec.engine.max_players
    labels = {key: f"{key} Ёж" for key in spec.label_keys}
    game = play_game(spec.engine, spec.engine.options_from_json(options), seats, 3)
    for state, events in (game[0], game[len(game) // 3], game[len(game) // 2], game[-1]):
        png = spec.render_board(state, NAMES[:seats], labels, events)
        image = board._compose(state, NAMES[:seats], labels, events)
        palette = board._palette(*board_palette_key(code, state))
        same_picture(png, pillows_png(image, palette, board.COMPRESS))


def board_palette_key(code: str, state: Any) -> tuple[Any, ...]:
    """The arguments of ``code``'s fitted palette for ``state``."""
    if code == "lions":
        return ()
    if code == "shishbesh":
        return state.seats, state.options.board
    if code == "sosedi":
        return state.seats, state.options.mode
    return (state.seats,)


# ---------------------------------------------------------------- drawn over anywhere


WIDTH, HEIGHT = 70, 3 * png_bands.BAND_ROWS + 5  # the last band short


@pytest.fixture(scope="module")
def scene() -> tuple[Image.Image, Image.Image]:
    """A backdrop of noise and shapes, and a 64-colour palette fitted to it."""
    rng = random.Random(5)
    backdrop = Image.frombytes("RGB", (WIDTH, HEIGHT), bytes(rng.randrange(256) for _ in range(WIDTH * HEIGHT * 3)))
    draw = ImageDraw.Draw(backdrop)
    draw.rectangle((5, 5, 40, 30), fill=(200, 180, 40))
    draw.ellipse((20, 20, 65, 60), fill=(30, 90, 200), outline=(0, 0, 0), width=3)
    return backdrop, make_palette([backdrop], 64)


@pytest.mark.parametrize("rows", [(), (0,), (HEIGHT - 1,), (png_bands.BAND_ROWS - 1, png_bands.BAND_ROWS),
                                  (png_bands.BAND_ROWS + 3,), (0, 2 * png_bands.BAND_ROWS + 1, HEIGHT - 2),
                                  tuple(range(HEIGHT))])
def test_a_picture_drawn_over_any_rows_is_pillows_picture(scene: tuple[Image.Image, Image.Image],
                                                          rows: tuple[int, ...]) -> None:
    backdrop, palette = scene
    image = backdrop.copy()
    for row in rows:
        image.putpixel(((row * 7) % WIDTH, row), (255 - row, row, 128))
    for level in (1, 6):
        same_picture(to_png(image, palette=palette, compress_level=level, backdrop=backdrop),
                     pillows_png(image, palette, level))


def test_the_bytes_never_depend_on_the_cache(scene: tuple[Image.Image, Image.Image]) -> None:
    backdrop, palette = scene
    image = backdrop.copy()
    ImageDraw.Draw(image).line((0, 20, WIDTH, 40), fill=(250, 10, 10), width=5)
    first = to_png(image, palette=palette, compress_level=4, backdrop=backdrop)
    png_bands._kept.clear()
    assert to_png(image, palette=palette, compress_level=4, backdrop=backdrop.copy()) == first
    assert to_png(image, palette=palette, compress_level=4, backdrop=backdrop) == first


def test_a_palette_of_sixteen_colours_or_fewer_is_left_to_pillow(scene: tuple[Image.Image, Image.Image]) -> None:
    backdrop, _ = scene
    palette = make_palette([backdrop], 16)
    png = to_png(backdrop, palette=palette, backdrop=backdrop)
    assert struct.unpack(">B", png[24:25]) == (4,)  # Pillow packs two pixels a byte
    assert png == pillows_png(backdrop, palette, 6)


def test_the_backdrops_kept_are_bounded_and_never_kept_alive(scene: tuple[Image.Image, Image.Image]) -> None:
    _, palette = scene
    backdrops = [Image.new("RGB", (WIDTH, HEIGHT), (k, 2 * k, 3 * k)) for k in range(png_bands.BACKDROPS + 3)]
    for backdrop in backdrops:
        to_png(backdrop, palette=palette, backdrop=backdrop)
    assert len(png_bands._kept) == png_bands.BACKDROPS
    gone = weakref.ref(backdrops[-1])
    del backdrops, backdrop
    gc.collect()
    assert gone() is None


# ---------------------------------------------------------------- the checksum of pieces


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=300), st.binary(max_size=300), st.integers(0, 3))
def test_adler32_combine_is_the_adler32_of_both(first: bytes, second: bytes, repeat: int) -> None:
    second *= 1 + repeat * 250  # lengths past 65521, the modulus
    assert png_bands.adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == \
        zlib.adler32(first + second)
