"""Engine speed: full random-play games per second on one core, per game and variant; and, when the
Python package ludopy is installed (it is no dependency), random «Людо» games against its games."""

from __future__ import annotations

import random
import time
from typing import Any

from bot.games import GAMES, GameSpec, Variant
from engines.playout import at_random, first_legal, play_on

MAX_ACTIONS = 20_000
LUDOPY_GAMES = 200  # at full scale, over LUDOPY_ROUNDS rounds
LUDOPY_ROUNDS = 5
OURS_PER_LUDOPY = 5  # our games per ludopy game: each takes about a fifth of the time


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
    against_ludopy(scale)
    return rows


def against_ludopy(scale: float = 1.0) -> float | None:
    """Our random four-player «Людо» games per second over ludopy's (https://pypi.org/project/ludopy/),
    printed, when ludopy is installed; without it one line says so. Its games as its README plays
    them: a uniformly random movable piece each turn until someone has won. Ours the same way:
    a uniformly random legal action each step (the throw among them), every throw from the game's
    DiceSource, until someone has won. The two alternate in rounds, each timed by this process's
    CPU time, so other processes on the machine's cores weigh on neither."""
    try:
        import ludopy  # type: ignore[import-not-found, unused-ignore]
        import numpy  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        print("ludopy is not installed: no comparison with it")
        return None
    spec = GAMES["ludo"]
    engine, options = spec.engine, spec.engine.options_from_json({"bonuses": False})
    numpy.random.seed(0)  # ludopy throws with numpy's global generator

    def theirs() -> None:
        game, won = ludopy.Game(), False
        while not won:
            (_, movable, *_), _ = game.get_observation()
            piece = movable[numpy.random.randint(0, len(movable))] if len(movable) else -1
            *_, won = game.answer_observation(piece)

    def ours(seed: str) -> None:
        state, _ = engine.new_game(options, 4, seed)
        play_on(engine, state, at_random(random.Random(seed)), MAX_ACTIONS)

    their_games = max(1, round(LUDOPY_GAMES * scale / LUDOPY_ROUNDS))
    their_s = our_s = 0.0
    for r in range(LUDOPY_ROUNDS):
        started = time.process_time()
        for _ in range(their_games):
            theirs()
        their_s += time.process_time() - started
        started = time.process_time()
        for i in range(OURS_PER_LUDOPY * their_games):
            ours(f"{r:032x}{i:032x}")
        our_s += time.process_time() - started
    their_rate = LUDOPY_ROUNDS * their_games / their_s
    our_rate = LUDOPY_ROUNDS * OURS_PER_LUDOPY * their_games / our_s
    print(f"ludo 4p, random choices: {our_rate:.1f} games/s, ludopy {their_rate:.1f}: {our_rate / their_rate:.2f}×")
    return our_rate / their_rate
