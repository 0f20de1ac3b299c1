"""Replay clips: for each game, seeded games played to the end at random (the
longest kind of game there is: random play rarely finishes fast), replayed from their logs into
clips as the bot makes them (bot/replay.py picks the shots, bot/clip.py draws and encodes them).

Per game: actions in the game, shots kept, the clip's length in seconds and size in bytes (at most
40 s and 3 MB), and how long one clip takes to make in one process (the bot makes
them in a drawing worker of their own, one at a time, so no board waits behind a clip).

`python -m bench.replay [--games N] [--out FILE]`; `python -m bench` runs it with the others.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from bench import games_main
from bot.clip import render_clip
from bot.fake_telegram.parsing import inspect_mp4
from bot.games import GAMES
from bot.replay import shots_of
from engines.playout import at_random, playout
from locales import Translator

GAMES_PER_CODE = 3
SEATS = {"lions": 2, "shishbesh": 2}  # the others: four players
ACTION_LIMIT = 5000


QUICK_ACTIONS = 30  # `python -m bench --quick`: games cut here (the figures show the shape only)


def one(code: str, seed: int, labels: dict[str, str], limit: int = ACTION_LIMIT) -> dict[str, Any]:
    """One game of ``code`` played at random from ``seed`` and made into a clip."""
    spec = GAMES[code]
    seats = SEATS.get(code, 4)
    options, seed_hex = spec.engine.options_from_json({}), f"{seed + 90_000:064x}"
    start, _ = spec.engine.new_game(options, seats, seed_hex)
    log = [entry for *_, entry in playout(spec.engine, start, at_random(random.Random(seed), spec.random_skips),
                                          limit=limit)]
    started = time.perf_counter()
    shots = shots_of(spec.engine, options, seats, seed_hex, log, spec.replay_moment)
    clip = render_clip(spec.render_board, shots, [f"Игрок {n + 1}" for n in range(seats)], labels)
    seconds = time.perf_counter() - started
    info = inspect_mp4(clip)
    assert info is not None and info.codec == "avc1"
    return {"actions": len(log), "shots": len(shots), "length_s": info.duration, "bytes": len(clip),
            "make_s": round(seconds, 2)}


def run(games: int = GAMES_PER_CODE, limit: int = ACTION_LIMIT) -> dict[str, Any]:
    translator = Translator.load(strict=True)
    rows: dict[str, Any] = {}
    for code, spec in GAMES.items():
        labels = {key: translator.t("ru", f"board-{key}") for key in spec.label_keys}
        clips = [one(code, seed, labels, limit) for seed in range(games)]
        rows[code] = {
            "games": games,
            "actions_median": statistics.median(c["actions"] for c in clips),
            "shots_max": max(c["shots"] for c in clips),
            "length_s_max": max(c["length_s"] for c in clips),
            "bytes_max": max(c["bytes"] for c in clips),
            "make_s_median": statistics.median(c["make_s"] for c in clips),
            "make_s_max": max(c["make_s"] for c in clips),
        }
        print(f"{code:10} actions ~{rows[code]['actions_median']:>6} shots ≤{rows[code]['shots_max']:>4} "
              f"length ≤{rows[code]['length_s_max']:5.1f} s  size ≤{rows[code]['bytes_max'] / 1e6:5.2f} MB  "
              f"made in {rows[code]['make_s_median']:.1f} s (max {rows[code]['make_s_max']:.1f})", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    return games_main("python -m bench.replay", __doc__, GAMES_PER_CODE, "games per game", run, argv)


if __name__ == "__main__":
    sys.exit(main())
