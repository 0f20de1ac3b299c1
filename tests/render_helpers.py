"""Helpers shared by the board-renderer tests: test games, decoding PNGs and measuring what they show."""

from __future__ import annotations

import io
import random
import struct
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from PIL import Image, ImageChops

from engines.base import Engine, Event, GameState
from render.png import random_game
from render.theme import player

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

Pixel = tuple[int, int, int]
Box = tuple[int, int, int, int]
Point = tuple[int, int]
State = TypeVar("State", bound=GameState)
Step = TypeVar("Step")
Render = Callable[..., bytes]  # render(state, labels=..., names=..., events=...)


def seed(k: int) -> str:
    """The k-th seed of a test game: 64 hex digits, the shape real seeds have."""
    return f"{k:064x}"


def play_game(engine: Engine[State, Any], options: Any, seats: int, k: int) -> list[tuple[State, Sequence[Event]]]:
    """Every (state, events of the action that made it) of test game ``k``, its choices drawn at random (seeded)."""
    return random_game(engine, options, seats, seed(k), random.Random(k))


def find_state(play: Callable[[int], Iterable[Step]], pred: Callable[..., bool], games: int) -> Step:
    """The first (state, events) of games ``play(0)``, ``play(1)``, … for which ``pred(state, events)`` holds."""
    for k in range(games):
        for step in play(k):
            if pred(*step):
                return step
    raise AssertionError(f"no such state in {games} games")


def renderer(render_board: Callable[..., bytes], labels: Mapping[str, str], names: Sequence[str]) -> Render:
    """``render_board`` as ``render(state, labels=labels, names=names, events=())``, one name a seat."""

    def render(state: Any, labels: Mapping[str, str] = labels, names: Sequence[str] = names,
               events: Sequence[Event] = ()) -> bytes:
        return render_board(state, names[: state.seats], labels, events)

    return render


def shows_label(render: Render, state: Any, labels: Mapping[str, str], key: str) -> bool:
    """Whether the picture of ``state`` changes when label ``key`` gets longer."""
    return render(state, labels=labels) != render(state, labels={**labels, key: labels[key] + " Ж"})


def ignores_label(render: Render, state: Any, labels: Mapping[str, str], key: str) -> bool:
    """Whether the picture of ``state`` stays the same when label ``key`` says something else."""
    return render(state, labels=labels) == render(state, labels={**labels, key: "ЖЖЖ"})


def render_all(render: Render, game: Iterable[tuple[Any, Sequence[Event]]]) -> tuple[set[Point], set[bytes]]:
    """The sizes and the distinct PNGs of the pictures of every (state, events) of ``game``."""
    sizes: set[Point] = set()
    pngs: set[bytes] = set()
    for state, events in game:
        png = render(state, events=events)
        sizes.add(decode(png).size)
        pngs.add(png)
    return sizes, pngs


def png_size(png: bytes) -> Point:
    """(width, height) of ``png``, asserting it is an 8-bit palette PNG with no text or time chunks."""
    assert png.startswith(PNG_SIGNATURE) and png[12:16] == b"IHDR"
    width, height, depth, colour_type = struct.unpack(">IIBB", png[16:26])
    assert colour_type == 3 and depth == 8  # indexed colour
    assert decode(png).size == (width, height)
    assert b"tEXt" not in png and b"tIME" not in png and b"iTXt" not in png
    return width, height


def seat_colour(seat: int) -> Pixel:
    """The colour ``seat`` is drawn in."""
    return player(seat).colour


def decode(png: bytes) -> Image.Image:
    """The fully loaded image of ``png``."""
    img = Image.open(io.BytesIO(png))
    img.load()
    return img


def rgb(png: bytes) -> Image.Image:
    """The image of ``png`` converted to RGB."""
    return decode(png).convert("RGB")


def diff_bbox(a: bytes, b: bytes) -> Box | None:
    """The bounding box of every pixel that differs between two PNGs (None when none does)."""
    return ImageChops.difference(rgb(a), rgb(b)).getbbox()


def inside(inner: Box, outer: Box) -> bool:
    """Whether box ``inner`` lies wholly within box ``outer``."""
    return outer[0] <= inner[0] and outer[1] <= inner[1] and inner[2] <= outer[2] and inner[3] <= outer[3]


def close(px: Pixel, colour: Pixel, tol: int = 36) -> bool:
    """Whether every channel of ``px`` is within ``tol`` of ``colour``."""
    return all(abs(a - b) <= tol for a, b in zip(px, colour, strict=True))


def count_pixels(img: Image.Image, box: Box, match: Callable[[Pixel], bool]) -> int:
    """How many pixels of the RGB ``img`` inside ``box`` satisfy ``match``."""
    data = img.crop(box).tobytes()
    return sum(1 for i in range(0, len(data), 3) if match((data[i], data[i + 1], data[i + 2])))


def count_close(img: Image.Image, box: Box, colour: Pixel, tol: int = 36) -> int:
    """How many pixels of the RGB ``img`` inside ``box`` are within ``tol`` of ``colour``."""
    return count_pixels(img, box, lambda px: close(px, colour, tol))


def ring_points(box: Box, out: int = 3) -> list[Point]:
    """Points on the four sides just outside ``box`` (where a gold ring is drawn)."""
    x0, y0, x1, y1 = box
    xs = range(x0 + 30, x1 - 30, 7)
    ys = range(y0 + 30, y1 - 30, 7)
    return ([(x, y0 - out) for x in xs] + [(x, y1 + out - 1) for x in xs]
            + [(x0 - out, y) for y in ys] + [(x1 + out - 1, y) for y in ys])


def gold_share(img: Image.Image, points: list[Point], is_gold: Callable[[Pixel], bool]) -> float:
    """The share of ``points`` whose pixel in ``img`` passes the game's ``is_gold`` test."""
    return sum(is_gold(img.getpixel(p)) for p in points) / len(points)


def assert_ring_only_on(img: Image.Image, cards: Sequence[Box], ringed: int, is_gold: Callable[[Pixel], bool]) -> None:
    """Card ``ringed`` has the gold ring all round, and no other card has one."""
    for seat, box in enumerate(cards):
        share = gold_share(img, ring_points(box), is_gold)
        assert (share > 0.9) if seat == ringed else (share < 0.1), (ringed, seat, share)
