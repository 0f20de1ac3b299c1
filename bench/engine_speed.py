"""Engine speed: full random-play games per second on one core, per game and variant."""

from __future__ import annotations

import random
import time
from typing import Any

from engines import GAMES
from engines.base import Engine
from engines.playout import at_random, first_legal, play_on

# (game, options, players): the variants worth timing separately
CASES: list[tuple[str, dict[str, Any], int]] = [
    ("sosedi", {"mode": "classic"}, 4),
    ("sosedi", {"mode": "reverse", "roller_immune": True}, 4),
    ("sosedi", {"mode": "tower"}, 4),
    ("spichki", {"double_hit": 2}, 4),
    ("spichki", {"double_hit": 1}, 8),
    ("tishe", {"both_home": False}, 4),
    ("tishe", {"both_home": True}, 4),
    ("ludo", {"bonuses": False}, 4),
    ("ludo", {"bonuses": True}, 4),
    ("parchis", {}, 4),
    ("shishbesh", {}, 4),
    ("shishbesh", {"board": "long", "shelters": "staggered", "start": "six_or_double", "fast_charge": True}, 4),
    ("lions", {}, 2),
]
# Games without dice: the first legal action would repeat forever, so choices are drawn at random
# (seeded), never offering a draw, resigning or undoing; ``MAX_ACTIONS`` caps a game.
NO_DICE = {"lions": {"offer", "resign", "undo"}}
MAX_ACTIONS = 20_000


def play(engine: Engine[Any, Any], options: Any, seats: int, seed: str) -> int:
    """One full game; the first legal action each time (dice make it a random game)."""
    state, _ = engine.new_game(options, seats, seed)
    skip = NO_DICE.get(engine.code)
    choose = first_legal if skip is None else at_random(random.Random(seed), skip)
    return play_on(engine, state, choose, MAX_ACTIONS)[1]


def run(scale: float = 1.0) -> list[dict[str, Any]]:
    rows = []
    print(f"{'engine':<28}{'games/s':>10}{'moves/s':>12}{'moves/game':>12}")
    for code, raw, seats in CASES:
        engine = GAMES[code]
        options = engine.options_from_json(raw)
        games = max(20, int((200 if code in NO_DICE else 2000) * scale))
        started = time.perf_counter()
        moves = sum(play(engine, options, seats, f"{i:064x}") for i in range(games))
        elapsed = time.perf_counter() - started
        name = " ".join(part for part in (code, "/".join(f"{k}={v}" for k, v in raw.items()), f"{seats}p") if part)
        row = {"case": name, "games": games, "games_per_s": round(games / elapsed, 1),
               "moves_per_s": round(moves / elapsed), "moves_per_game": round(moves / games, 1)}
        rows.append(row)
        print(f"{name:<28}{row['games_per_s']:>10}{row['moves_per_s']:>12}{row['moves_per_game']:>12}")
    return rows
