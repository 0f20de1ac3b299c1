"""Every game has its own title card (all seven showed the same three dice): the
game's art, declared with it, makes the seven cards pairwise different even under one title."""

from __future__ import annotations

import itertools
import pickle

from bot.games import GAMES
from render.cover import render_cover, three_dice
from tests.cover_helpers import card, differ


def test_the_seven_covers_are_pairwise_different_images() -> None:
    cards = {code: card(render_cover("Игра", "строка", spec.cover_art)) for code, spec in GAMES.items()}
    assert len(cards) == 7
    assert all(spec.cover_art is not three_dice for spec in GAMES.values())  # each game declares its own
    for (a, one), (b, other) in itertools.combinations(cards.items(), 2):
        assert one.size == other.size == (1024, 576)
        assert differ(one, other) > 0.05, (a, b)  # the picture itself, not a few pixels of it


def test_a_cover_job_travels_to_a_drawing_process() -> None:
    """bot/drawing.py pickles (render, args): each game's art is a module-level function it can take."""
    for spec in GAMES.values():
        render, args = pickle.loads(pickle.dumps((render_cover, ("Игра", "строка", spec.cover_art))))
        assert args[2] is spec.cover_art and render is render_cover
