"""Render time and PNG size of mid-game positions at the default size (~1024 px).

`python -m bench.render_speed [--scale S]` prints the table alone (the full `python -m bench` writes it
to bench/results.json with the other benchmarks' figures).
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from PIL import Image

from bot.games import GAMES, GameSpec
from engines.playout import at_random, playout
from locales import Translator

MAX_ACTIONS = 3000  # a game without dice (lions) is cut there; its middle is mid-game all the same
NAMES = ["Аня", "Борис", "Вера", "Глеб", "Даша", "Евгений", "Жанна", "Зоя"]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _positions(spec: GameSpec[Any, Any], options: Any, seats: int, games: int) -> list[tuple[Any, Sequence[Any]]]:
    """The middle (state, events) of ``games`` seeded games (choices, where there are any, drawn at random)."""
    positions, engine = [], spec.engine
    for k in range(games):
        state, events = engine.new_game(options, seats, f"{k:064x}")
        choose = at_random(random.Random(k), spec.random_skips)
        history = [(state, events), *((after, events) for _, after, events, _ in
                                      playout(engine, state, choose, MAX_ACTIONS - 1))]
        positions.append(history[len(history) // 2])
    return positions


def _measure(case: str, render: Callable[..., bytes], positions: list[tuple[Any, Sequence[Any]]],
             names: Sequence[str], labels: dict[str, str]) -> dict[str, Any]:
    render(positions[0][0], names, labels, positions[0][1])  # warm the static cache
    times, sizes = [], []
    for state, events in positions * 5:
        started = time.perf_counter()
        png = render(state, names, labels, events)
        times.append((time.perf_counter() - started) * 1000)
        sizes.append(len(png))
    width, height = Image.open(io.BytesIO(png)).size
    row = {"case": case, "p50_ms": round(statistics.median(times), 2),
           "p95_ms": round(_pct(times, 0.95), 2), "bytes_max": max(sizes),
           "bytes_mean": round(statistics.mean(sizes)), "size": f"{width}x{height}"}
    print(f"{row['case']:<28}{row['p50_ms']:>9}{row['p95_ms']:>9}{row['bytes_max'] / 1024:>9.1f}{row['size']:>11}")
    return row


def seat_counts(spec: GameSpec[Any, Any]) -> tuple[int, ...]:
    """The player counts a picture is timed at: half the most (not below the fewest), and the most."""
    engine = spec.engine
    return tuple(sorted({max(engine.min_players, engine.max_players // 2), engine.max_players}))


def run(scale: float = 1.0) -> list[dict[str, Any]]:
    tr = Translator.load()
    games = max(3, int(20 * scale))
    rows = []
    print(f"\n{'render (mid-game)':<28}{'p50 ms':>9}{'p95 ms':>9}{'KB max':>9}{'size':>11}")
    for spec in GAMES.values():
        labels = {k: tr.t("ru", f"board-{k}") for k in spec.label_keys}
        for variant in (v for v in spec.variants if v.drawn):
            options = spec.engine.options_from_json(variant.options)
            for seats in seat_counts(spec):
                positions = _positions(spec, options, seats, games)
                case = " ".join(part for part in (spec.code, variant.name, f"{seats}p") if part)
                rows.append(_measure(case, spec.render_board, positions, NAMES[:seats], labels))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.render_speed", description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="share of the full run's 20 games a case "
                        "(3 at least; default 1)")
    run(parser.parse_args(argv).scale)
    return 0


if __name__ == "__main__":
    sys.exit(main())
