"""Every board is readable on a phone (issue #24, point 9): a phone shows the 1024-px picture about
390 px wide, so every label a player needs (the numbers the buttons name, names, counts) stands at
least 18 px tall in capitals in the 1024-px picture.

Every text a renderer draws is recorded (Pillow's ``ImageDraw.text``, and the kit's cached
:class:`render.typeset.TextDraw`), with the size it is shown at (a supersampled canvas says how many
times larger it is drawn: :func:`render.typeset.scaled_draw`); only text drawn inside
:func:`render.typeset.decoration`, which names a reason, may be smaller.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
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
from tests.render_helpers import png_size

NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений", "Жанна", "Зоя"]
LONG_NAMES = ["Александра Константиновна", "Maximilian Oberhausen", "Вероника Шереметьева", "Глеб Ж",
              "Дарья Ъ", "Евгений Ы", "Жанна Щ", "Зоя Ё"]


@dataclass(frozen=True)
class Drawn:
    """One text a renderer drew: its words, the cap height it shows at, and why it may be small (or None)."""

    text: str
    cap: float
    decoration: str | None


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
        drawn.append(Drawn(str(text), cap_height(fnt) / getattr(draw, "text_scale", 1), decoration_reason()))

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
    """Empty the renderers' caches of drawn pictures and sprites, so a text cached earlier is drawn
    (and recorded) again; the fitted palettes stay (fitting them is slow, and they draw nothing new)."""
    for info in pkgutil.iter_modules(render.__path__):
        module = importlib.import_module(f"render.{info.name}")
        for name, value in vars(module).items():
            if hasattr(value, "cache_clear") and "palette" not in name:
                value.cache_clear()


def spread(spec: Any, options: Any, seats: int, k: int) -> list[tuple[Any, Sequence[Any]]]:
    """A spread of (state, events) of one seeded random game: its start, a state with a choice,
    every tenth of the way, and its end."""
    state, events = spec.engine.new_game(options, seats, f"{k:064x}")
    steps = playout(spec.engine, state, at_random(random.Random(k), spec.random_skips), 3000)
    game = [(state, events), *((after, made) for _, after, made, _ in steps)]
    choice = next((i for i, (s, _e) in enumerate(game) if len(spec.engine.legal_actions(s)) > 1), 0)
    picks = {0, choice, len(game) - 1, *(len(game) * i // 10 for i in range(1, 10))}
    return [game[i] for i in sorted(picks)]


@pytest.mark.parametrize("code", list(GAMES))
def test_every_label_a_player_needs_stands_18_px_tall(code: str) -> None:
    spec = GAMES[code]
    tr = Translator.load()
    smallest: dict[str, Drawn] = {}
    for lang, names in (("ru", NAMES), ("en", LONG_NAMES)):
        labels = {k: tr.t(lang, f"board-{k}") for k in spec.label_keys}
        for variant in spec.variants:
            options = spec.engine.options_from_json(variant.options)
            for seats in sorted({spec.engine.min_players, spec.engine.max_players}):
                states = spread(spec, options, seats, seats)
                spec.render_board(*states[0][:1], names[:seats], labels, states[0][1])  # fit the palette first
                forget_drawings()
                with recording() as drawn:
                    for state, events in states:
                        png = spec.render_board(state, names[:seats], labels, events)
                        assert png_size(png)[0] == 1024
                for item in drawn:
                    if item.decoration is None and item.cap < MIN_CAP:
                        smallest.setdefault(item.text, item)
                assert drawn, "nothing recorded"
    assert not smallest, f"{code}: labels under {MIN_CAP} px: " + ", ".join(
        f"{d.text!r} {d.cap:.1f}" for d in sorted(smallest.values(), key=lambda d: d.cap))
