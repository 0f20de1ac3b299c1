"""Places once a game is over (the last picture shows every place where the rules rank
everyone): each seat's place from the engine's ranking, and the medal that shows it on a player card."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PIL import Image, ImageDraw

from engines.base import Outcome
from render.canvas import rounded_mask
from render.theme import CARD, GOLD, INK, RGB, Box
from render.typeset import font

# the places' medals: gold, silver, bronze, then plain card
MEDALS: tuple[RGB, ...] = (GOLD, (200, 204, 212), (214, 144, 84))
PLACE_BADGE = 40  # a place badge's side


class Finished(Protocol):
    """A game state that says whether its game is over."""

    @property
    def finished(self) -> bool: ...


class Ranked(Protocol):
    """An engine, as far as the places go: the outcome of a finished game (seats best first)."""

    def outcome(self, state: Any) -> Outcome | None: ...


def final_places(engine: Ranked, state: Finished, score: Callable[[int], object] | None = None) -> dict[int, int]:
    """seat → its place (1 the best) once the game is over, from the engine's ranking (the
    last picture shows every place); seats of equal ``score`` share a place. Empty while it runs."""
    outcome = engine.outcome(state) if state.finished else None
    ranking = outcome.ranking if outcome is not None else ()
    places: dict[int, int] = {}
    for i, seat in enumerate(ranking):
        tied = score is not None and i > 0 and score(seat) == score(ranking[i - 1])
        places[seat] = places[ranking[i - 1]] if tied else i + 1
    return places


def place_badge(img: Image.Image, d: ImageDraw.ImageDraw, xy: tuple[int, int], place: int) -> Box:
    """A round medal with ``place`` on it, its right edge and middle at ``xy``: gold, silver and
    bronze for the first three. Returns its box."""
    x1, cy = xy
    box = (x1 - PLACE_BADGE, cy - PLACE_BADGE // 2, x1, cy + PLACE_BADGE // 2)
    fill = MEDALS[place - 1] if place <= len(MEDALS) else CARD
    img.paste(INK, box, rounded_mask(PLACE_BADGE, PLACE_BADGE, PLACE_BADGE // 2))
    inner = (box[0] + 3, box[1] + 3, box[2] - 3, box[3] - 3)
    img.paste(fill, inner, rounded_mask(PLACE_BADGE - 6, PLACE_BADGE - 6, PLACE_BADGE // 2 - 3))
    d.text((x1 - PLACE_BADGE / 2, cy + 1), str(place), font=font(26, True), fill=INK, anchor="mm")
    return box
