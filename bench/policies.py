"""Computer players of the dice games against random players.

For every dice game whose players make choices (``tishe``, ``shishbesh``, ``ludo``,
``parchis``: a computer player, dice, and more to a turn than the roll), 1,000 seeded games with
2 players and 1,000 with 4: the game's policy (``GameSpec.policy``) holds one seat (it rotates
with the game number, so it starts as often as anyone), every other seat plays uniformly random
legal actions. Reported: the policy's win rate against the 1/n a random player would get.

The computer's levels (``GameSpec.levels``): «Сильный» in one of 4 seats against
three random players, and «Средний» against «Лёгкий» in 2 seats, 1,000 games each; every table also
gives the think time of its level per decision among several legal actions (two games at once).
«Помоги своему соседу» and «Спички» are left out: their only action is always the roll, so no
policy can do better; «Охота на львов» has its own bench (bench/lions_ai.py).

`python -m bench.policies [--games N]`; `python -m bench` runs it too (fewer games with --quick).
"""

from __future__ import annotations

import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench import games_main
from bot.games import GAMES
from engines.base import DEFAULT_LEVEL, Action, seed_digest
from engines.playout import play_on

CHOICE_GAMES = tuple(s.code for s in GAMES.values()
                     if s.policy is not None and s.dice_per_roll and not s.roll_is_the_turn)
GAMES_PER_TABLE = 1000
PLAYER_COUNTS = (2, 4)
MAX_ACTIONS = 20_000  # a guard: no game of these needs a tenth of it
WORKERS = 2
RANDOM = "random"  # the opponents' «level» in a table against uniformly random players
# «Сильный» against three random players (4 seats), «Средний» against «Лёгкий»
# (2 seats, each side in one seat: «Лёгкий» must lose at least 70%)
LEVEL_TABLES = (("strong", RANDOM, 4), ("medium", "easy", 2))


def play(job: tuple[str, int, int, str, str]) -> tuple[bool, int, bool, list[float]]:
    """One seeded game: (did ``level`` win, actions, did it finish, its think times in seconds for
    the decisions with more than one legal action). ``level`` holds seat ``game % players``; every
    other seat plays ``opponent`` (a level, or uniformly random legal actions)."""
    code, players, game, level, opponent = job
    spec = GAMES[code]
    engine = spec.engine
    seat = game % players
    label = f"policy bench {code} {players} {game}"  # the default level's games keep their seeds
    if (level, opponent) != (DEFAULT_LEVEL, RANDOM):
        label += f" {level} {opponent}"
    state, _ = engine.new_game(engine.options_from_json({}), players, seed_digest(label))
    rng = random.Random(label)
    ours, theirs = spec.policy_at(level), None if opponent == RANDOM else spec.policy_at(opponent)
    assert ours is not None
    planned: dict[bool, list[str]] = {True: [], False: []}
    times: list[float] = []

    def choose(now: Any, actions: Sequence[Action]) -> Action:
        mine = now.current_player == seat
        policy = ours if mine else theirs
        if policy is None:
            return rng.choice(actions)
        queue = planned[mine]
        if not queue:
            started = time.perf_counter()
            queue.extend(reversed(policy.plan(now, game)))
            if mine and len(actions) > 1:
                times.append(time.perf_counter() - started)
        code = queue.pop()
        return next(a for a in actions if a.code == code)

    state, actions = play_on(engine, state, choose, MAX_ACTIONS)
    outcome = engine.outcome(state)
    won = outcome is not None and seat in outcome.winners
    return won, actions, outcome is not None, times


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _table(pool: Any, code: str, players: int, games: int, level: str, opponent: str) -> dict[str, Any]:
    started = time.perf_counter()
    results = pool.map(play, [(code, players, g, level, opponent) for g in range(games)], chunksize=8)
    wins = sum(won for won, _, _, _ in results)
    times = [t for _, _, _, ts in results for t in ts]
    row = {
        "case": f"{code} {players}p", "level": level, "opponents": opponent, "games": games, "policy_wins": wins,
        "win_rate": round(wins / games, 3), "random_share": round(1 / players, 3),
        "unfinished": sum(not done for _, _, done, _ in results),
        "actions_avg": round(sum(n for _, n, _, _ in results) / games, 1),
        # think time of ``level`` per decision among several legal actions (two games at once)
        "think_ms": {"decisions": len(times), "p50": round(1000 * _quantile(times, 0.5), 2),
                     "p95": round(1000 * _quantile(times, 0.95), 2), "max": round(1000 * max(times, default=0), 2)},
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(f"{row['case']:<14} «{level}» against {opponent}: won {wins}/{games} ({wins / games:.1%}; "
          f"a random player's share {1 / players:.0%}); think p95 {row['think_ms']['p95']} ms, "
          f"max {row['think_ms']['max']} ms; {row['seconds']} s", flush=True)
    return row


def run(games: int = GAMES_PER_TABLE, workers: int = WORKERS) -> dict[str, list[dict[str, Any]]]:
    """The tables: the default level against random players, one row per game and player count;
    and the levels (LEVEL_TABLES), one row per game and table."""
    out: dict[str, list[dict[str, Any]]] = {"default": [], "levels": []}
    with multiprocessing.Pool(workers) as pool:
        for code in CHOICE_GAMES:
            for players in PLAYER_COUNTS:
                out["default"].append(_table(pool, code, players, games, DEFAULT_LEVEL, RANDOM))
            if GAMES[code].levels:
                for level, opponent, players in LEVEL_TABLES:
                    out["levels"].append(_table(pool, code, players, games, level, opponent))
    return out


def main(argv: list[str] | None = None) -> int:
    return games_main("python -m bench.policies", __doc__, GAMES_PER_TABLE, "games per game and player count",
                      run, argv)


if __name__ == "__main__":
    sys.exit(main())
