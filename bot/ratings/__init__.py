"""Skill ratings: one per person, per chat and game, from every finished game's ranking.

OpenSkill's Plackett–Luce model (PyPI ``openskill``): made for free-for-all games of any number of
players, it rates from the whole ranking (1st, 2nd, 3rd…), not only from who won. A computer seat is
rated as its level («bot:strong»), so beating «Сильный» counts more than beating «Лёгкий».

Ratings are derived data: the finished games not rated yet are rated in the order they finished
(:meth:`Ratings.catch_up`, after each finished game and once at start-up, which rates the games
played before ratings existed), and ``python -m bot.ratings --rebuild`` (bot/ratings/__main__.py, a
command-line tool the running bot never imports) recomputes every rating from the stored games the
same way. A rated game keeps the changes its result message showed.

Who is placed where:
- a game whose rules rank everyone (``GameSpec.places``) and whose stored result has the ranking:
  by those places (equal places tie);
- else by the result: the winners first and the rest tied behind them; the ones who pay (the pub
  modes) last and the rest tied before them; a draw ties everyone;
- a person whose seat a computer took over (they left, or timed out for good) is placed last;
- the computer seats of one game play as one entrant, at the best place any of them reached (the
  model rates each player once a game; a person above all of them beat that level).
A game with fewer than two entrants changes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from bot.games.places import Places
from bot.store import JSON, GameRow, RatingRow, Store

MODEL = PlackettLuce()  # μ 25, σ 25/3: a new player's μ − 3σ is 0
# the friendly number: a new player shows BASE, and each point of μ − 3σ is SCALE of it (ten wins in
# a row over one opponent: about 1 330 against 858)
BASE, SCALE = 1000, 20
COMPUTER = "bot:"  # a computer level's player key: «bot:strong»


def shown(mu: float, sigma: float) -> int:
    """The conservative rating μ − 3σ as the friendly number people see."""
    return round(BASE + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One player of a finished game as the model sees it: who, under what name, and their place."""

    player: str
    name: str
    place: int
    computer: bool = False


@dataclass(frozen=True, slots=True)
class Change:
    """A player's rating before and after one game, as the result message shows it."""

    player: str
    name: str
    before: int
    after: int
    computer: bool = False

    @property
    def delta(self) -> int:
        return self.after - self.before

    def to_json(self) -> JSON:
        return {"player": self.player, "name": self.name, "before": self.before, "after": self.after,
                "computer": self.computer}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Change:
        return cls(str(raw["player"]), str(raw["name"]), int(raw["before"]), int(raw["after"]),
                   bool(raw.get("computer")))


def result_places(result: Mapping[str, Any], seats: int, places: Places | None) -> dict[int, int]:
    """Each seat's place (1 best) by the game's own places, else by the kind of result."""
    if places is not None:
        placed = places(result)
        if len(placed) == seats:
            return {seat: place for place, seat in placed}
    kind = result.get("kind")
    named = {s for s in (result.get("losers" if kind == "lose" else "winners") or []) if isinstance(s, int)}
    if kind == "win":
        return {seat: 1 if seat in named else 2 for seat in range(seats)}
    if kind == "lose":
        return {seat: 2 if seat in named else 1 for seat in range(seats)}
    return dict.fromkeys(range(seats), 1)  # a draw


def entrants(game: GameRow, places: Places | None, level: str) -> list[Entrant]:
    """The players of a finished game, each once, with their places (see the module's notes); its
    computer seats played at ``level``."""
    placed = result_places(game.result or {}, len(game.seats), places)
    last = max(placed.values(), default=0) + 1
    by_player: dict[str, Entrant] = {}
    for seat in game.seats:
        place = placed.get(seat.seat, last)
        if seat.user_id > 0:
            entrant = Entrant(str(seat.user_id), seat.name, place)
        elif seat.left_user_id is not None and seat.left_user_id > 0 and seat.left_name is not None:
            entrant = Entrant(str(seat.left_user_id), seat.left_name, last)  # they left: last
        else:
            entrant = Entrant(COMPUTER + level, seat.name, place, computer=True)
        known = by_player.get(entrant.player)
        if known is None or entrant.place < known.place:
            by_player[entrant.player] = entrant
    return sorted(by_player.values(), key=lambda e: (e.place, e.player))


def rate(current: Mapping[str, RatingRow], players: Sequence[Entrant]) -> tuple[list[RatingRow], list[Change]]:
    """The players' new ratings after one game and the changes to show; nothing if fewer than two."""
    if len(players) < 2:
        return [], []
    before = [current.get(p.player) for p in players]
    teams = [[MODEL.rating() if r is None else MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[p.place for p in players])
    rows, changes = [], []
    for player, old, (new,) in zip(players, before, after, strict=True):
        rows.append(RatingRow(player.player, player.name, new.mu, new.sigma, (old.games if old else 0) + 1))
        was = shown(old.mu, old.sigma) if old else shown(MODEL.mu, MODEL.sigma)
        changes.append(Change(player.player, player.name, was, shown(new.mu, new.sigma), player.computer))
    return rows, changes


class Ratings:
    """Rates the finished games not rated yet, oldest first, one catch-up at a time in this process."""

    def __init__(self, store: Store, places: Mapping[str, Places | None], level_of: Callable[[JSON], str]) -> None:
        self.store = store
        self.places = places  # each game code's places (None: the game ranks by its result only)
        self.level_of = level_of  # the computer's level a game's stored options chose
        self._lock = asyncio.Lock()

    async def catch_up(self, chat_id: int | None = None) -> int:
        """Rate the finished games of ``chat_id`` (None: of every chat) not rated yet; how many were."""
        async with self._lock:
            rated = 0
            known: dict[tuple[int, str], dict[str, RatingRow]] = {}
            for game in await self.store.unrated_games(chat_id):
                key = (game.chat_id, game.code)
                if key not in known:
                    known[key] = {r.player: r for r in await self.store.ratings(*key)}
                players = entrants(game, self.places.get(game.code), self.level_of(game.options))
                rows, changes = rate(known[key], players)
                if await self.store.save_ratings(game, rows, [c.to_json() for c in changes]):
                    known[key].update((r.player, r) for r in rows)
                    rated += 1
                else:  # another instance rated it: read its ratings afresh
                    del known[key]
            return rated

    async def changes(self, game_id: int) -> list[Change]:
        """What a rated game changed ([] if it is not rated, or changed nothing)."""
        return [Change.from_json(c) for c in await self.store.rating_changes(game_id) or []]


async def rebuild(ratings: Ratings) -> int:
    """Every rating recomputed from the stored games, as play rated them; how many games were rated."""
    await ratings.store.clear_ratings()
    return await ratings.catch_up()


def ratings_of(store: Store) -> Ratings:
    """The ratings of the games the bot plays, kept in ``store``."""
    # imported here: the flow (which rates after each game) imports this module
    from bot.flow.table_settings import level_of
    from bot.games import GAMES

    return Ratings(store, {code: GAMES[code].places for code in GAMES}, level_of)
