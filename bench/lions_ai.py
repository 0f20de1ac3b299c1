"""«Охота на львов» AI (engines/lions_ai.py): strength, balance and think time.

(a) the AI against a random player (uniformly random engine actions, never offering a draw,
    resigning or undoing), 100 games with the AI as the lions and 100 as the hunters;
(b) balance: the AI on both sides, 200 games (the engine's lot decides who starts; each game
    has its own tie-breaking seed), counted as lion wins, hunter wins, draws and games cut at
    ``TURN_CAP`` turns («cap»), with where the decided games were decided;
(c) think time per AI decision (``plan``), p50 / p95 / max in seconds, measured in a separate
    single-process sample (the games of (a) and (b) run on ``WORKERS`` processes at once, which
    makes their timings pessimistic; their maximum is reported too, as «max under load»).

`python -m bench.lions_ai [--scale S]` runs it alone; `python -m bench --lions` runs it in full
with the other benchmarks (without the flag, `python -m bench` includes only a tiny sample).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from engines.lions import ENGINE, HUNTERS, LIONS, PASS, LionsOptions, LionsState, pushed, sides
from engines.lions_ai import AI, LEVELS, codes_of, whole_turns
from engines.lions_board import label
from engines.playout import at_random, play_on

RANDOM_GAMES = 100  # a side
BALANCE_GAMES = 200  # AI against AI, each side slipping (a random whole turn) with probability SLIPS
SLIPS = 0.2
STANDOFF_GAMES = 20  # AI against AI without slips (at least 18 of 20 end within STANDOFF_CAP turns)
STANDOFF_CAP = 200
DECISIONS = 300  # the single-process think-time sample
LEVEL_GAMES = 200  # «Сильный» against «Средний», and «Лёгкий» against «Средний», sides alternating
# Each level slips into a random whole turn this often: without slips two careful players stand off
# until the quiet-turns draw; at SLIPS (a fifth of all turns random) the slips decide more games than
# the levels do (30 games, «Сильный» against «Средний»: 65% of the decided at 20%, 75% at 10%).
LEVEL_SLIPS = 0.1
LEVEL_DECISIONS = 200  # think time of each level, two games thinking at once (p95 ≤ 0.5 s, max ≤ 2 s)
TURN_CAP = 300  # a self-play game still running after this many turns is counted as «cap»
QUICK_TURN_CAP = 12  # tiny runs (scale < 0.1, a smoke test) cut every game here
WORKERS = 2
SAMPLE_SCALE = 0.01  # `python -m bench` without --lions: 2 games of each kind, 10 decisions, all cut short
NOT_RANDOM = ("offer", "resign", "undo")  # action kinds the random player never plays


def random_turn(state: LionsState, rng: random.Random) -> LionsState:
    """The random player: uniformly random engine actions (no offer, resign or undo) until the turn passes."""
    seat = state.current_player
    state, _ = play_on(ENGINE, state, at_random(rng, NOT_RANDOM), until=lambda now: now.current_player != seat)
    return state


def _ai_turn(state: LionsState, seed: int, times: list[float]) -> LionsState:
    started = time.perf_counter()
    codes = AI.plan(state, seed)
    times.append(time.perf_counter() - started)
    for code in codes:
        state, _, _ = ENGINE.apply(state, code)
    return state


def _blunder(state: LionsState, rng: random.Random) -> LionsState:
    """A whole turn drawn uniformly from every distinct turn (an imperfect player's slip)."""
    mover, opp = sides(state)
    turns = whole_turns(mover, opp, state.push_on, state.side == LIONS, pushed(mover, opp) if state.push_on else 0)
    for code in codes_of(rng.choice(turns).paths) if turns else [PASS]:
        state, _, _ = ENGINE.apply(state, code)
    return state


def play(game: int, ai_sides: tuple[str, ...], cap: int, max_decisions: int | None = None,
         slips: float = 0.0) -> dict[str, Any]:
    """One seeded game; sides not in ``ai_sides`` play randomly; an AI side plays a random whole
    turn instead of its own with probability ``slips``. Returns its summary."""
    state, _ = ENGINE.new_game(LionsOptions(lions_seat=game % 2), 2, f"{game:064x}")
    starter = state.side
    rng = random.Random(f"random player {game}")
    slip = random.Random(f"slips {game}")
    times: list[float] = []
    first_capture: str | None = None
    first_capture_turn: int | None = None
    counts = (len(state.lions), len(state.hunters))
    while not state.finished and state.turns < cap and (max_decisions is None or len(times) < max_decisions):
        mover = state.side
        if mover not in ai_sides:
            state = random_turn(state, rng)
        elif slips and slip.random() < slips:
            state = _blunder(state, slip)
        else:
            state = _ai_turn(state, game, times)
        now = (len(state.lions), len(state.hunters))
        if first_capture is None and now != counts:
            first_capture, first_capture_turn = mover, state.turns
        counts = now
    result = "cap" if not state.finished else "draw" if state.winner is None else state.side_of(state.winner)
    return {
        "game": game, "result": result, "end": state.end, "turns": state.turns,
        "starter": starter,
        "lions_left": len(state.lions), "hunters_left": len(state.hunters),
        "lions_at": [label(c) for c in state.lions], "hunters_at": [label(c) for c in state.hunters],
        "first_capture": first_capture, "first_capture_turn": first_capture_turn,
        "think": times,
    }


def level_game(game: int, first: str, second: str, cap: int, slips: float = LEVEL_SLIPS) -> dict[str, Any]:
    """One seeded game between two levels (engines/lions_ai.py ``LEVELS``): ``first`` plays the lions
    in even games and the hunters in odd ones; each side plays a random whole turn instead of its own
    with probability ``slips`` (see LEVEL_SLIPS). The result is ``first``'s."""
    first_side = LIONS if game % 2 == 0 else HUNTERS
    state, _ = ENGINE.new_game(LionsOptions(lions_seat=game % 2), 2, f"{game + 50_000:064x}")
    slip = random.Random(f"level slips {game}")
    times: dict[str, list[float]] = {first: [], second: []}
    while not state.finished and state.turns < cap:
        level = first if state.side == first_side else second
        if slips and slip.random() < slips:
            state = _blunder(state, slip)
            continue
        started = time.perf_counter()
        codes = LEVELS[level].plan(state, game)
        times[level].append(time.perf_counter() - started)
        for code in codes:
            state, _, _ = ENGINE.apply(state, code)
    if not state.finished:
        result = "cap"
    elif state.winner is None:
        result = "draw"
    else:
        result = "win" if state.side_of(state.winner) == first_side else "loss"
    return {"game": game, "first": first, "second": second, "first_side": first_side, "result": result,
            "end": state.end, "turns": state.turns, "think": times}


def _level_game(job: tuple[int, str, str, int]) -> dict[str, Any]:
    return level_game(*job)


def _vs_random(job: tuple[int, str, int]) -> dict[str, Any]:
    game, side, cap = job
    return {**play(game, (side,), cap), "ai_side": side}


def _self_play(job: tuple[int, int]) -> dict[str, Any]:
    game, cap = job
    return play(game, (LIONS, HUNTERS), cap)


def _self_play_slips(job: tuple[int, int]) -> dict[str, Any]:
    game, cap = job
    return play(game, (LIONS, HUNTERS), cap, slips=SLIPS)


def _key(job: tuple[Any, ...]) -> str:
    return ":".join(map(str, job))


def _map(func: Any, jobs: list[tuple[Any, ...]], workers: int, checkpoint: Path | None = None) -> list[dict[str, Any]]:
    """``func`` over ``jobs`` on ``workers`` processes; with a ``checkpoint`` file each finished game
    is appended there (one JSON line) and games already in it are not played again."""
    done: dict[str, dict[str, Any]] = {}
    if checkpoint is not None and checkpoint.exists():
        for line in checkpoint.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:  # a line cut short when the run was stopped
                continue
            done[row["key"]] = row["game"]
    todo = [job for job in jobs if f"{func.__name__}:{_key(job)}" not in done]

    def keep(job: tuple[Any, ...], game: dict[str, Any]) -> None:
        key = f"{func.__name__}:{_key(job)}"
        done[key] = game
        if checkpoint is not None:
            with checkpoint.open("a", encoding="utf-8") as out:
                out.write(json.dumps({"key": key, "game": game}) + "\n")

    if workers <= 1:
        for job in todo:
            keep(job, func(job))
    else:
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for job, game in pool.imap_unordered(_with_job, [(func, job) for job in todo]):
                keep(job, game)
    return [done[f"{func.__name__}:{_key(job)}"] for job in jobs]


def _with_job(task: tuple[Any, tuple[Any, ...]]) -> tuple[tuple[Any, ...], dict[str, Any]]:
    func, job = task
    return job, func(job)


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _seconds(values: list[float]) -> dict[str, float]:
    return {"p50": round(_quantile(values, 0.5), 3), "p95": round(_quantile(values, 0.95), 3),
            "max": round(max(values), 3)}


def think_sample(decisions: int, cap: int = TURN_CAP) -> list[float]:
    """Single-process think times: AI-vs-random games (AI side alternating) for half the sample,
    self-play games for the other half, all run to the end or the cap."""
    times: list[float] = []
    game = 10_000
    while len(times) < decisions:
        left = decisions - len(times)
        if len(times) < decisions // 2:
            side = (LIONS, HUNTERS)[game % 2]
            times += play(game, (side,), cap, left)["think"]
        else:
            times += play(game, (LIONS, HUNTERS), cap, left)["think"]
        game += 1
    return times[:decisions]


def run(scale: float = 1.0, checkpoint: Path | None = None) -> dict[str, Any]:
    """The whole benchmark; ``checkpoint``: a file keeping finished games, so a run that was
    stopped goes on where it was (the figures are the same: every game is seeded)."""
    started = time.perf_counter()
    per_side = max(2, round(RANDOM_GAMES * scale))
    balance_games = max(2, round(BALANCE_GAMES * scale))
    decisions = max(10, round(DECISIONS * scale))
    cap = TURN_CAP if scale >= 0.1 else QUICK_TURN_CAP
    workers = WORKERS if scale >= 0.1 else 1

    vs_random = _map(_vs_random, [(g, side, cap) for side in (LIONS, HUNTERS) for g in range(per_side)], workers,
                     checkpoint)
    random_rows = {}
    for side in (LIONS, HUNTERS):
        games = [g for g in vs_random if g["ai_side"] == side]
        # a game's result as the AI's: "win", "loss", "draw" or "cap"
        results = Counter("win" if g["result"] == side else "loss" if g["result"] in (LIONS, HUNTERS)
                          else g["result"] for g in games)
        random_rows[side] = {
            "games": len(games), "wins": results["win"], "draws": results["draw"], "losses": results["loss"],
            "cap": results["cap"], "avg_turns": round(statistics.mean(g["turns"] for g in games), 1),
        }

    selfplay = _map(_self_play_slips, [(g, cap) for g in range(balance_games)], workers, checkpoint)
    standoff_cap = min(cap, STANDOFF_CAP)
    standoff = _map(_self_play, [(g, standoff_cap) for g in range(max(2, round(STANDOFF_GAMES * scale)))], workers,
                    checkpoint)
    tally = Counter(g["result"] for g in selfplay)
    decided = [g for g in selfplay if g["result"] in (LIONS, HUNTERS)]
    balance = {
        "games": len(selfplay), "turn_cap": cap, "slips": SLIPS,
        "lion_wins": tally[LIONS], "hunter_wins": tally[HUNTERS], "draws": tally["draw"], "cap": tally["cap"],
        "lion_win_pct": round(100 * tally[LIONS] / len(selfplay), 1),
        "hunter_win_pct": round(100 * tally[HUNTERS] / len(selfplay), 1),
        # neither side may win more than 55% of the decided games
        "lion_share_of_decided_pct": round(100 * tally[LIONS] / len(decided), 1) if decided else None,
        "by_starter": {side: dict(Counter(g["result"] for g in selfplay if g["starter"] == side))
                       for side in (LIONS, HUNTERS)},
        "avg_turns_decided": round(statistics.mean(g["turns"] for g in decided), 1) if decided else None,
        "ends": dict(Counter(g["end"] or "cap" for g in selfplay)),
        "games_with_a_capture": sum(1 for g in selfplay if g["first_capture"]),
        "first_capture_by": dict(Counter(g["first_capture"] for g in selfplay if g["first_capture"])),
        "median_first_capture_turn": statistics.median(
            [g["first_capture_turn"] for g in selfplay if g["first_capture"]] or [0]),
        "pieces_left_at_cap": dict(Counter(f"{g['lions_left']}L-{g['hunters_left']}H"
                                           for g in selfplay if g["result"] == "cap").most_common(6)),
        # where the standoffs stand: the circles most often held when a game is cut
        "held_at_cap": {side: dict(Counter(c for g in selfplay if g["result"] == "cap"
                                           for c in g[f"{side}_at"]).most_common(8)) for side in (LIONS, HUNTERS)},
    }

    stand = Counter(g["result"] for g in standoff)
    standoff_row = {"games": len(standoff), "turn_cap": standoff_cap, "results": dict(stand),
                    "ended": sum(1 for g in standoff if g["result"] != "cap"),
                    "ends": dict(Counter(g["end"] or "cap" for g in standoff)),
                    "games_with_a_capture": sum(1 for g in standoff if g["first_capture"])}

    sample = think_sample(decisions, cap)
    under_load = [t for g in (*vs_random, *selfplay) for t in g["think"]]
    think = {"decisions": len(sample), **_seconds(sample), "max_under_load": round(max(under_load), 3),
             "workers": workers}
    levels = level_rows(max(2, round(LEVEL_GAMES * scale)), max(10, round(LEVEL_DECISIONS * scale)), cap, workers,
                        checkpoint)
    out = {"vs_random": random_rows, "balance": balance, "standoff": standoff_row, "think_s": think,
           "levels": levels, "wall_s": round(time.perf_counter() - started, 1)}
    _print(out)
    return out


def level_rows(games: int, decisions: int, cap: int, workers: int, checkpoint: Path | None) -> dict[str, Any]:
    """The levels against each other (the first named level's results) and their think times."""
    rows: dict[str, Any] = {}
    for first, second in (("strong", "medium"), ("easy", "medium")):
        played = _map(_level_game, [(g, first, second, cap) for g in range(games)], workers, checkpoint)
        tally = Counter(g["result"] for g in played)
        decided = tally["win"] + tally["loss"]
        rows[f"{first}_vs_{second}"] = {
            "games": len(played), "slips": LEVEL_SLIPS, "wins": tally["win"], "losses": tally["loss"],
            "draws": tally["draw"],
            "cap": tally["cap"], "win_pct_of_decided": round(100 * tally["win"] / decided, 1) if decided else None,
            "avg_turns": round(statistics.mean(g["turns"] for g in played), 1)}
    think = {}
    for level in LEVELS:
        with multiprocessing.get_context("fork").Pool(2) as pool:  # two games thinking at once
            samples = pool.map(_level_think, [(level, decisions // 2, k) for k in range(2)])
        think[level] = {"decisions": sum(map(len, samples)), **_seconds([t for s in samples for t in s])}
    rows["think_s_two_at_once"] = think
    return rows


def _level_think(job: tuple[str, int, int]) -> list[float]:
    """Think times of ``level`` over self-play games against «Средний» until ``decisions`` are timed."""
    level, decisions, k = job
    times: list[float] = []
    game = 20_000 + 100 * k
    while len(times) < decisions:
        turns = min(TURN_CAP, 2 * (decisions - len(times)) + 1)  # the level moves every other turn
        times += level_game(game, level, "medium", turns)["think"][level]
        game += 1
    return times[:decisions]


def _print(out: dict[str, Any]) -> None:
    print("\n«Охота на львов» AI (engines/lions_ai.py)")
    print(f"{'AI vs random':<16}{'games':>7}{'wins':>7}{'draws':>7}{'losses':>8}{'cap':>6}{'avg turns':>11}")
    for side, row in out["vs_random"].items():
        print(f"{'AI as ' + side:<16}{row['games']:>7}{row['wins']:>7}{row['draws']:>7}{row['losses']:>8}"
              f"{row['cap']:>6}{row['avg_turns']:>11}")
    b = out["balance"]
    print(f"\nAI vs AI, each side slipping {round(100 * b['slips'])}% of its turns: {b['games']} games, "
          f"cap {b['turn_cap']} turns")
    print(f"{'lion wins':>10}{'hunter wins':>13}{'draws':>7}{'cap':>6}")
    print(f"{b['lion_wins']:>10}{b['hunter_wins']:>13}{b['draws']:>7}{b['cap']:>6}"
          f"   ({b['lion_win_pct']}% / {b['hunter_win_pct']}%; lions {b['lion_share_of_decided_pct']}% of the decided)")
    print(f"by starter: {b['by_starter']}; ends: {b['ends']}; avg turns of decided games: {b['avg_turns_decided']}")
    print(f"games with a capture: {b['games_with_a_capture']} (first by {b['first_capture_by']}, "
          f"median turn {b['median_first_capture_turn']}); pieces left at cap: {b['pieces_left_at_cap']}")
    print(f"circles held at cap (games): {b['held_at_cap']}")
    st = out["standoff"]
    print(f"AI vs AI without slips: {st['games']} games, cap {st['turn_cap']} turns: {st['results']}, "
          f"ended {st['ended']} ({st['ends']}), games with a capture: {st['games_with_a_capture']}")
    for name, row in out["levels"].items():
        if name != "think_s_two_at_once":
            print(f"{name}: {row}")
    for level, row in out["levels"]["think_s_two_at_once"].items():
        print(f"think time of «{level}», two games at once: {row}")
    t = out["think_s"]
    print(f"\nthink time per decision ({t['decisions']} decisions, one process): p50 {t['p50']} s, "
          f"p95 {t['p95']} s, max {t['max']} s; max in the games of (a) and (b), on {t['workers']} worker(s): "
          f"{t['max_under_load']} s")
    print(f"wall time {out['wall_s']} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lions_ai", description=__doc__)
    parser.add_argument("--scale", type=float, default=1.0, help="fraction of the full game counts")
    parser.add_argument("--out", type=Path, help="also write the figures there as JSON")
    parser.add_argument("--checkpoint", type=Path, help="keep finished games there and skip them when run again")
    args = parser.parse_args(argv)
    out = run(args.scale, args.checkpoint)
    if args.out:
        args.out.write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
