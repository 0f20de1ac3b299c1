"""Engine speed: full random-play games per second on one core, per game and variant."""

from __future__ import annotations

import random
import time
from typing import Any

from bot.games import GAMES, GameSpec, Variant
from engines.playout import at_random, first_legal, play_on

MAX_ACTIONS = 20_000


def cases() -> list[tuple[GameSpec[Any, Any], Variant]]:
    """Every game's variants worth timing apart (``GameSpec.variants``), in the registry's order."""
    return [(spec, v) for spec in GAMES.values() for v in spec.variants if v.timed]


def play(spec: GameSpec[Any, Any], options: Any, seats: int, seed: str) -> int:
    """One full game; the first legal action each time (dice make it a random game). A game without
    dice would repeat its first action for ever: its choices are drawn at random (seeded), never
    one of ``random_skips`` (a draw offered, a resignation, a step back); ``MAX_ACTIONS`` caps it."""
    engine = spec.engine
    state, _ = engine.new_game(options, seats, seed)
    choose = first_legal if spec.dice_per_roll else at_random(random.Random(seed), spec.random_skips)
    return play_on(engine, state, choose, MAX_ACTIONS)[1]


def run(scale: float = 1.0) -> list[dict[str, Any]]:
    rows = []
    print(f"{'engine':<28}{'games/s':>10}{'moves/s':>12}{'moves/game':>12}")
    for spec, variant in cases():
        code, raw, seats = spec.code, variant.options, variant.seats
        options = spec.engine.options_from_json(raw)
        games = max(20, int((2000 if spec.dice_per_roll else 200) * scale))
        started = time.perf_counter()
        moves = sum(play(spec, options, seats, f"{i:064x}") for i in range(games))
        elapsed = time.perf_counter() - started
        name = " ".join(part for part in (code, "/".join(f"{k}={v}" for k, v in raw.items()), f"{seats}p") if part)
        row = {"case": name, "games": games, "games_per_s": round(games / elapsed, 1),
               "moves_per_s": round(moves / elapsed), "moves_per_game": round(moves / games, 1)}
        rows.append(row)
        print(f"{name:<28}{row['games_per_s']:>10}{row['moves_per_s']:>12}{row['moves_per_game']:>12}")
    return rows
