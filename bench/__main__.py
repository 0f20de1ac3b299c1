"""`python -m bench [--quick] [--lions] [--takeover] [--tempo] [--crowd]`: engine speed, render time and size, one e2e
game's Telegram cost, a burst in one group against Telegram's 20 a minute, turn pings in a game people
look away from, the bot process under 100 chats on SQLite and on PostgreSQL (latency, presses/s, RSS,
start-up; with ``--takeover`` also a standby's takeover after a SIGKILL of the active process), its
memory after 100,000 chats each sent one command, the dice games' computer players against random
players, and the «Охота на львов» AI (strength, balance, think time); with ``--tempo`` also the
length of race games in a group at Telegram's 20 updates a minute (bench/tempo.py), with ``--crowd``
a crowd of groups on the bot with its default settings (bench/crowd.py).

The full lions AI run takes over an hour on two cores (with the levels), so it is opt-in: without
``--lions`` only a tiny sample of it runs (games cut short; the figures show the shape only).

Benchmarks, not tests: figures are printed and written to bench/results.json, which
docs/benchmarks.md quotes; a ``--quick`` run's figures mean little, so it writes bench/results-quick.json instead
(not kept in git) and never the full run's file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
from pathlib import Path
from typing import Any

from bench import (
    burst,
    chat_memory,
    crowd,
    e2e_game,
    engine_speed,
    lions_ai,
    load,
    pings,
    policies,
    render_speed,
    replay,
    takeover,
    tempo,
)

RESULTS = Path(__file__).resolve().parent / "results.json"  # the full run's figures, quoted by docs/benchmarks.md
QUICK_RESULTS = RESULTS.with_name("results-quick.json")  # a smoke run's (ignored by git)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions, games cut short (a smoke run)")
    parser.add_argument("--lions", action="store_true", help="the full lions AI run (200 games against a random "
                        "player, 200 self-play games, 300 timed decisions) instead of a tiny sample")
    parser.add_argument("--out", type=Path, default=None,
                        help=f"where to write the JSON results (default: {RESULTS.name}, with --quick "
                        f"{QUICK_RESULTS.name}, both in bench/)")
    parser.add_argument("--takeover", action="store_true", help="also the takeover after SIGKILL of the active "
                        "bot process on PostgreSQL, 10 times (bench/takeover.py; needs the bot's failover)")
    parser.add_argument("--tempo", action="store_true", help="also the length of race games in a real group, "
                        "classic and fast table (bench/tempo.py; ~10 minutes); without it the file's earlier "
                        "tempo figures are kept")
    parser.add_argument("--crowd", action="store_true", help="also 1,000 groups on the bot with its default settings, "
                        "with and without a flood, and saturated, on both backends (bench/crowd.py; ~20 minutes); "
                        "without it the file's earlier crowd figures are kept")
    args = parser.parse_args(argv)
    out = args.out or (QUICK_RESULTS if args.quick else RESULTS)
    if args.quick and out.resolve() == RESULTS.resolve():
        parser.error(f"--quick does not write {RESULTS.name}: its figures are the full run's")
    scale = 0.02 if args.quick else 1.0
    results: dict[str, Any] = {
        "machine": {"python": sys.version.split()[0], "platform": platform.platform()},
        "engines": engine_speed.run(scale),
        "render": render_speed.run(scale),
        "e2e": asyncio.run(e2e_game.run(max_presses=30 if args.quick else None)),
        # the real budget (20 in any 60 s) takes a minute or two; --quick shrinks the minute
        "burst": asyncio.run(burst.run(8, 5, 2) if args.quick else burst.run()),
        "pings": pings.run(1 if args.quick else 3),  # a virtual clock: a minute of waiting costs nothing
        # the bot as its own process, on SQLite and on PostgreSQL: 100 chats, 1000 stored games, start-up
        "load": load.run(args.quick),
        # the bot process with its default settings: RSS after 1,000 and after 100,000 chats (600 and 100 quick)
        "chat_memory": chat_memory.run(args.quick),
        "policies": policies.run(20 if args.quick else policies.GAMES_PER_TABLE),
        "lions_ai": lions_ai.run(1.0 if args.lions else lions_ai.SAMPLE_SCALE),
        "replay": replay.run(1, replay.QUICK_ACTIONS) if args.quick else replay.run(),
    }
    if args.takeover:
        results["load"]["takeover"] = takeover.run()
    if args.tempo:
        results["tempo"] = tempo.run(tempo.QUICK_GAMES if args.quick else tempo.GAMES_EACH)
    if args.crowd:
        results["crowd"] = crowd.run(args.quick)
    earlier = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    for own in ("tempo", "crowd"):  # their own runs (`python -m bench.tempo`, `python -m bench.crowd`) wrote them
        if own not in results and own in earlier:
            results[own] = earlier[own]
    out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwritten to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
