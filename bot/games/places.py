"""Every player's place, for a game whose rules rank everyone: the first one
home wins, the others are placed by pieces home, then by progress (the engine's ``Outcome.ranking``,
seats best first), or by a score the outcome keeps («Спички»: matches).

A game declares how it places its players (``GameSpec.places``); the result message and /history
read the places from the stored result, so a past game shows them as it ended. A stored result
without a ranking that covers every seat (a game saved before there was one) has no places.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from markupsafe import Markup

from bot.games.common import Html

# a stored result (``Outcome.to_json``) → (place, seat) for every seat, best first; [] when it has none
Places = Callable[[Mapping[str, Any]], list[tuple[int, int]]]
MIN_SEATS = 3  # two players need no list: the winner's line names the other one's place too


def _ranking(result: Mapping[str, Any], seats: int) -> list[int]:
    """The result's ranking if it places each of ``seats`` seats exactly once, else []."""
    ranking = result.get("ranking")
    if not isinstance(ranking, list) or sorted(ranking) != list(range(seats)) or seats == 0:
        return []
    return ranking


def _seats(result: Mapping[str, Any]) -> int:
    ranking = result.get("ranking")
    return len(ranking) if isinstance(ranking, list) else 0


def in_ranking_order(result: Mapping[str, Any]) -> list[tuple[int, int]]:
    """Each seat its own place in the order of the ranking; the winners of a draw share the first."""
    ranking = _ranking(result, _seats(result))
    winners = (result.get("winners") or []) if result.get("kind") == "draw" else []
    return [(1 if seat in winners else index + 1, seat) for index, seat in enumerate(ranking)]


def by_score(key: str) -> Places:
    """Places by the score per seat the outcome keeps in ``data[key]`` (the most first), in the order
    of the ranking; equal scores share a place (competition ranking: 1, 2, 2, 4)."""

    def places(result: Mapping[str, Any]) -> list[tuple[int, int]]:
        data = result.get("data")
        scores = data.get(key) if isinstance(data, Mapping) else None
        ranking = _ranking(result, _seats(result))
        if not isinstance(scores, list) or len(scores) != len(ranking):
            return in_ranking_order(result)
        placed: list[tuple[int, int]] = []
        for index, seat in enumerate(ranking):
            tied = placed and scores[placed[-1][1]] == scores[seat]
            placed.append((placed[-1][0] if tied else index + 1, seat))
        return placed

    return places


def place_lines(places: Places | None, result: Mapping[str, Any] | None, names: Sequence[str],
                html: Html, key: str) -> list[Markup]:
    """A line per player, best first, made by the locale message ``key`` (``$place``, ``$name``);
    none if the game does not rank everyone, the result has no ranking of these seats, or only two
    played."""
    if places is None or result is None or len(names) < MIN_SEATS:
        return []
    placed = places(result)
    if len(placed) != len(names):
        return []
    return [html(key, place=place, name=names[seat]) for place, seat in placed]
