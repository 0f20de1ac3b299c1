"""Benchmarks: `python -m bench` prints a table and writes bench/results.json."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from typing import Any


def games_main(prog: str, description: str | None, default_games: int, games_help: str,
               run: Callable[[int], Any], argv: Sequence[str] | None = None) -> int:
    """The command line of a benchmark that plays ``--games`` games: run it, print as it goes, and
    with ``--out`` also write what it returns as JSON."""
    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--games", type=int, default=default_games, help=games_help)
    parser.add_argument("--out", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    rows = run(args.games)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=2)
    return 0
