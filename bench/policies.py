"""Computer players of the dice games against random players (issue #8).

For every dice game whose players make choices (``tishe``, ``shishbesh``, ``ludo``,
``parchis``: a computer player, dice, and more to a turn than the roll), 1,000 seeded games with
2 players and 1,000 with 4: the game's policy (``GameSpec.policy``) holds one seat (it rotates
with the game number, so it starts as often as anyone), every other seat plays uniformly random
legal actions. Reported: the policy's win rate against the 1/n a random player would get.
«Помоги своему соседу» and «Спички» are left out: their only action is always the roll, so no
policy can do better; «Охота на львов» has its own bench (bench/lions_ai.py).

`python -m bench.policies [--games N]`; `python -m bench` runs it too (fewer games with --quick).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from typing import Any

from bot.games import GAMES
from engines.base import seed_digest
from engines.playout import at_random, by_policy, play_on

CHOICE_GAMES = tuple(s.code for s in GAMES.values()
                     if s.policy is not None and s.dice_per_roll and not s.roll_is_the_turn)
GAMES_PER_TABLE = 1000
PLAYER_COUNTS = (2, 4)
MAX_ACTIONS = 20_000  # a guard: no game of these needs a tenth of it
WORKERS = 2


def play(job: tuple[str, int, int]) -> tuple[bool, int, bool]:
    """One seeded game: (did the policy win, actions, did it finish)."""
    code, players, game = job
    engine, policy = GAMES[code].engine, GAMES[code].policy
    assert policy is not None
    seat = game % players
    label = f"policy bench {code} {players} {game}"
    state, _ = engine.new_game(engine.options_from_json({}), players, seed_digest(label))
    choose = by_policy(policy, {seat}, at_random(random.Random(label)), game)
    state, actions = play_on(engine, state, choose, MAX_ACTIONS)
    outcome = engine.outcome(state)
    won = outcome is not None and seat in outcome.winners
    return won, actions, outcome is not None


def run(games: int = GAMES_PER_TABLE, workers: int = WORKERS) -> list[dict[str, Any]]:
    """The table: one row per game and player count."""
    rows = []
    with multiprocessing.Pool(workers) as pool:
        for code in CHOICE_GAMES:
            for players in PLAYER_COUNTS:
                started = time.perf_counter()
                results = pool.map(play, [(code, players, g) for g in range(games)], chunksize=8)
                wins = sum(won for won, _, _ in results)
                rows.append({
                    "case": f"{code} {players}p", "games": games, "policy_wins": wins,
                    "win_rate": round(wins / games, 3), "random_share": round(1 / players, 3),
                    "unfinished": sum(not done for _, _, done in results),
                    "actions_avg": round(sum(n for _, n, _ in results) / games, 1),
                    "seconds": round(time.perf_counter() - started, 1),
                })
                print(f"{rows[-1]['case']:<14} policy won {wins}/{games} ({wins / games:.1%}; "
                      f"a random player's share {1 / players:.0%}) in {rows[-1]['seconds']} s", flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.policies", description=__doc__)
    parser.add_argument("--games", type=int, default=GAMES_PER_TABLE, help="games per game and player count")
    parser.add_argument("--out", help="also write the rows as JSON here")
    args = parser.parse_args(argv)
    rows = run(args.games)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump(rows, out, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
