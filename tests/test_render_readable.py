"""Every board is readable on a phone: a phone shows the 1024-px picture about
390 px wide, so every label a player needs (the numbers the buttons name, names, counts) stands at
least 18 px tall in capitals in the 1024-px picture.

Every text a renderer draws is recorded (Pillow's ``ImageDraw.text``, and the kit's cached
:class:`render.typeset.TextDraw`), with the size it is shown at (a supersampled canvas says how many
times larger it is drawn: :func:`render.typeset.scaled_draw`); only text drawn inside
:func:`render.typeset.decoration`, which names a reason, may be smaller.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import pkgutil
import random
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from PIL import ImageDraw, ImageFont

import render
from bot.games import GAMES
from engines.playout import at_random, playout
from locales import Translator
from render.typeset import MIN_CAP, TextDraw, cap_height, decoration_reason

NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений", "Жанна", "Зоя"]
LONG_NAMES = ["Александра Константиновна", "Maximilian Oberhausen", "Вероника Шереметьева", "Глеб Ж",
              "Дарья Ъ", "Евгений Ы", "Жанна Щ", "Зоя Ё"]


@dataclass(frozen=True)
class Drawn:
    """One text a renderer drew: its words, the cap height it shows at, why it may be small (or None), and
    whether a text-free cache drew it (it must not: see :data:`TEXT_FREE`)."""

    text: str
    cap: float
    decoration: str | None
    in_text_free: bool = False


# caches that never draw text (shapes, masks, dice, fonts, glyph masks drawn inside a recorded call), kept
# between recordings because rebuilding them was most of this test's time; every record checks that no
# text is drawn from inside one of them, so a cache that starts drawing text fails the test
TEXT_FREE = {"render.canvas": "*", "render.marks": "*", "render.dice": "*",
             "render.typeset": "font has_glyph _text_mask"}


def _text_free(module: str, name: str) -> bool:
    names = TEXT_FREE.get(module, "")
    return names == "*" or name in names.split()


def _kept(module: str, name: str) -> bool:
    """Whether :func:`forget_drawings` keeps a cache: a fitted palette (it draws sample words, never the
    real ones, so nothing it drew is needed) or a text-free one."""
    return "palette" in name or _text_free(module, name)


def _cached() -> Iterator[tuple[str, str, Any]]:
    """(module, name, cached function) of every cache in the render package."""
    for info in pkgutil.iter_modules(render.__path__):
        module = importlib.import_module(f"render.{info.name}")
        for name, value in vars(module).items():
            if hasattr(value, "cache_clear") and getattr(value, "__module__", None) == module.__name__:
                yield module.__name__, name, value


TEXT_FREE_CODE = frozenset(v.__wrapped__.__code__ for m, n, v in _cached() if _text_free(m, n))


def _inside_text_free() -> bool:
    """Whether the text being drawn is drawn from inside a :data:`TEXT_FREE` cache."""
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code in TEXT_FREE_CODE:
            return True
        frame = frame.f_back
    return False


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Every text drawn inside, as :class:`Drawn` (a TextDraw passing text on to Pillow counts once)."""
    drawn: list[Drawn] = []
    pillow_text, kit_text = ImageDraw.ImageDraw.text, TextDraw.text
    inner = [False]

    def note(draw: ImageDraw.ImageDraw, text: Any, fnt: Any) -> None:
        if inner[0] or not str(text).strip():
            return
        assert isinstance(fnt, ImageFont.FreeTypeFont), f"text {text!r} drawn without a shipped font"
        drawn.append(Drawn(str(text), cap_height(fnt) / getattr(draw, "text_scale", 1), decoration_reason(),
                           _inside_text_free()))

    def pillow(self: ImageDraw.ImageDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *a: Any,
               **kw: Any) -> Any:
        note(self, text, font)
        return pillow_text(self, xy, text, fill, font, *a, **kw)

    def kit(self: TextDraw, xy: Any, text: Any, fill: Any = None, font: Any = None, *a: Any, **kw: Any) -> Any:
        note(self, text, font)
        inner[0] = True
        try:
            return kit_text(self, xy, text, fill, font, *a, **kw)
        finally:
            inner[0] = False

    with mock.patch.object(ImageDraw.ImageDraw, "text", pillow), mock.patch.object(TextDraw, "text", kit):
        yield drawn


def forget_drawings() -> None:
    """Empty the renderers' caches of drawn pictures and sprites, so a text cached earlier is drawn (and
    recorded) again; the fitted palettes and the caches that draw no text (:data:`TEXT_FREE`) stay."""
    for module, name, value in _cached():
        if not _kept(module, name):
            value.cache_clear()


@contextmanager
def unencoded(spec: Any) -> Iterator[None]:
    """``spec.render_board`` returns its picture as drawn, without fitting a palette (on sample words, not
    the real ones) or the palette PNG step: both draw no label, and were a third of this test's time
    (tests/test_render_<code>.py check the PNG)."""
    module = sys.modules[spec.render_board.__module__]
    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(module, "to_png", lambda image, **_kw: image))
        if hasattr(module, "_palette"):
            stack.enter_context(mock.patch.object(module, "_palette", lambda *_a: None))
        yield


# the test game of a game whose random play seldom ends: Lions' game 2 is cut after 3000 actions, game 5
# ends (a draw) after 624, so its last picture is drawn too
GAME_NUMBER = {"lions": 5}


@functools.cache
def spread(code: str, variant: int, seats: int) -> list[tuple[Any, Sequence[Any]]]:
    """A spread of (state, events) of one seeded random game (the ``seats``-th, or the one
    :data:`GAME_NUMBER` names): its start, a state with a choice, every tenth of the way, and its end,
    which is the game's end (played once for both languages)."""
    spec, k = GAMES[code], GAME_NUMBER.get(code, seats)
    options = spec.engine.options_from_json(spec.variants[variant].options)
    state, events = spec.engine.new_game(options, seats, f"{k:064x}")
    steps = playout(spec.engine, state, at_random(random.Random(k), spec.random_skips), 3000)
    game = [(state, events), *((after, made) for _, after, made, _ in steps)]
    assert game[-1][0].finished, f"{code} game {k} does not end in 3000 actions: pick one that does"
    choice = next((i for i, (s, _e) in enumerate(game) if len(spec.engine.legal_actions(s)) > 1), 0)
    picks = {0, choice, len(game) - 1, *(len(game) * i // 10 for i in range(1, 10))}
    return [game[i] for i in sorted(picks)]


def blocks(spec: Any) -> list[tuple[int, int]]:
    """(variant, seats) to draw: every variant whose options change the picture (``drawn``), at the fewest
    and the most players."""
    seats = sorted({spec.engine.min_players, spec.engine.max_players})
    return [(i, n) for i, variant in enumerate(spec.variants) if variant.drawn for n in seats]


@pytest.fixture(scope="module", autouse=True)
def fresh_caches() -> None:
    """Every cache but the palettes emptied once, so whatever the kept caches draw from now on is recorded."""
    for _module, name, value in _cached():
        if "palette" not in name:
            value.cache_clear()


@pytest.mark.parametrize("code", list(GAMES))
def test_every_label_a_player_needs_stands_18_px_tall(code: str) -> None:
    spec = GAMES[code]
    tr = Translator.load()
    smallest: dict[str, Drawn] = {}
    for lang, names in (("ru", NAMES), ("en", LONG_NAMES)):
        labels = {k: tr.t(lang, f"board-{k}") for k in spec.label_keys}
        for variant, seats in blocks(spec):
            states = spread(code, variant, seats)
            forget_drawings()
            with unencoded(spec), recording() as drawn:
                for state, events in states:
                    assert spec.render_board(state, names[:seats], labels, events).width == 1024
            assert drawn, "nothing recorded"
            kept = [d.text for d in drawn if d.in_text_free]
            assert not kept, f"{code}: a cache in TEXT_FREE drew text: {kept}"
            for item in drawn:
                if item.decoration is None and item.cap < MIN_CAP:
                    smallest.setdefault(item.text, item)
    assert not smallest, f"{code}: labels under {MIN_CAP} px: " + ", ".join(
        f"{d.text!r} {d.cap:.1f}" for d in sorted(smallest.values(), key=lambda d: d.cap))
