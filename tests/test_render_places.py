"""The last picture shows every place where the rules rank everyone."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest
from PIL import Image, ImageChops

from bot.games import GAMES
from engines.playout import at_random, playout
from engines.spichki import ENGINE as SPICHKI
from locales import Translator
from render.places import MEDALS, final_places
from tests.render_helpers import Pixel, rgb

RANKED = ("shishbesh", "ludo", "parchis", "tishe", "spichki")
NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений", "Жанна", "Зоя"]


def medal_pixels(img: Image.Image, colour: Pixel, tol: int) -> int:
    """How many pixels of ``img`` are within ``tol`` of ``colour`` in every channel (counted by Pillow:
    a pure-Python count of two whole pictures took most of this test's three minutes)."""
    bands = [band.point([255 if abs(v - c) <= tol else 0 for v in range(256)])
             for band, c in zip(img.split(), colour, strict=True)]
    return ImageChops.darker(ImageChops.darker(bands[0], bands[1]), bands[2]).histogram()[255]


@functools.cache
def _ends(code: str, seats: int):
    """(spec, a state halfway, the last state) of one seeded random game, played once."""
    spec = GAMES[code]
    state, _ = spec.engine.new_game(spec.engine.options_from_json({}), seats, f"{seats:064x}")
    steps = list(playout(spec.engine, state, at_random(random.Random(seats), spec.random_skips), 3000))
    return spec, steps[len(steps) // 2][1], steps[-1][1]


@pytest.mark.parametrize("code", RANKED)
def test_the_last_picture_shows_every_place(code):
    spec, middle, last = _ends(code, 3)
    assert last.finished
    tr = Translator.load()
    labels = {k: tr.t("ru", f"board-{k}") for k in spec.label_keys}
    end = rgb(spec.render_board(last, NAMES[:3], labels, ()))
    mid = rgb(spec.render_board(middle, NAMES[:3], labels, ()))
    places = final_places(spec.engine, last)
    assert sorted(places.values()) == sorted(set(places.values())) or code == "spichki"
    for place in set(places.values()) - {1}:  # silver and bronze medals (gold is on the board anyway)
        medal = MEDALS[place - 1]
        assert medal_pixels(end, medal, 6) > 300 + medal_pixels(mid, medal, 6), (code, place)


def test_places_follow_the_ranking_and_equal_scores_share_one():
    state, _ = SPICHKI.new_game(SPICHKI.options_from_json({}), 4, "1" * 64)
    done = replace(state, finished=True, matches=(3, 7, 3, 1), winners=(1,))
    assert final_places(SPICHKI, done, lambda s: done.matches[s]) == {1: 1, 0: 2, 2: 2, 3: 4}
    assert final_places(SPICHKI, state) == {}
