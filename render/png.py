"""PNG encoding: palette PNGs that are deterministic (no metadata), small and quick to encode, and the
fixed palettes fitted once to sample games that make them so. A board drawn on a copy of its static
picture is written band by band, most bands copied from that picture's (:mod:`render.png_bands`)."""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import Protocol, TypeVar

from PIL import Image

from engines.base import Engine, Event, GameOptions, GameState
from engines.playout import at_random, playout
from render import png_bands
from render.theme import BG, RGB


class PlayedState(GameState, Protocol):
    """A game state that says when its game is over (every engine's does)."""

    @property
    def finished(self) -> bool: ...


State = TypeVar("State", bound=PlayedState)
Options = TypeVar("Options", bound=GameOptions)


def to_png(
    image: Image.Image,
    palette: Image.Image | None = None,
    colors: int = 192,
    compress_level: int = 6,
    backdrop: Image.Image | None = None,
) -> bytes:
    """Encode as a palette PNG: deterministic (no metadata), small and quick to encode.

    With ``palette`` (from :func:`make_palette`) pixels map to that fixed palette, which is
    several times faster than fitting a new one (``colors``, fast octree) for each picture.
    With ``backdrop`` too, the static picture ``image`` was drawn on a copy of, the rows drawn
    over are the only ones mapped and deflated (:func:`render.png_bands.encode`): the same
    pixels, in about half the time.
    """
    if image.mode != "RGB":
        image = image.convert("RGB")
    if (palette is not None and backdrop is not None and backdrop.mode == "RGB" and backdrop.size == image.size
            and len(png_bands.plte(palette)) > 3 * 16):
        return png_bands.encode(image, palette, compress_level, backdrop)
    if palette is not None:
        quant = image.quantize(palette=palette, dither=Image.Dither.NONE)
    else:
        quant = image.quantize(colors=colors, method=Image.Quantize.FASTOCTREE,
                               dither=Image.Dither.NONE)
    out = io.BytesIO()
    quant.save(out, format="PNG", optimize=False, compress_level=compress_level)
    return out.getvalue()


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
        (r, g, u), (r2, g2, u2) = mean[a], mean[b]
        mean[a] = ((r * weight[a] + r2 * weight[b]) / total, (g * weight[a] + g2 * weight[b]) / total,
                   (u * weight[a] + u2 * weight[b]) / total)
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


def colour_strip(colours: Sequence[RGB], width: int) -> Image.Image:
    """Bands of ``colours`` (24 px each): fed to palette fitting, so marks keep their exact colours."""
    strip = Image.new("RGB", (width, 24 * len(colours)), BG)
    for j, colour in enumerate(colours):
        strip.paste(colour, (0, 24 * j, width, 24 * j + 24))
    return strip


def random_game(engine: Engine[State, Options], options: Options, seats: int, seed: str, rng: random.Random,
                limit: int | None = None, skip: Collection[str] = ()) -> list[tuple[State, Sequence[Event]]]:
    """Every (state, events of the action that made it) of a game played by ``rng`` (never an action
    of a kind in ``skip``), ``limit`` states at most."""
    state, events = engine.new_game(options, seats, seed)
    steps = playout(engine, state, at_random(rng, skip), None if limit is None else limit - 1)
    return [(state, events), *((after, made) for _, after, made, _ in steps)]


# names and words to fit a palette to: every seat, Latin and Cyrillic, tall and deep letters
SAMPLE_NAMES = ("Аня Ёлкина", "Boris Q", "Вика Щ", "Gjyp Ю", "Даша Ж", "Zoë Ф", "Юра Ы", "Эля Й")


def fitted_palette(compose: Callable[[State, Sequence[str], Mapping[str, str], Sequence[Event]], Image.Image],
                   game: Sequence[tuple[State, Sequence[Event]]], picks: Iterable[int], label_keys: Iterable[str],
                   extra: Sequence[Image.Image] = (), colors: int = 255) -> Image.Image:
    """:func:`make_palette` of ``colors`` fitted to ``game``'s steps ``picks`` drawn by ``compose`` and to ``extra``."""
    labels = {key: f"{key} Шрифт Ёж" for key in label_keys}
    samples = [compose(game[i][0], SAMPLE_NAMES, labels, game[i][1]) for i in sorted(set(picks))]
    return make_palette([*samples, *extra], colors)
