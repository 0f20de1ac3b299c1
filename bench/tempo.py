"""How long a race game takes in a real group: the classic table against the fast one.

Telegram lets a bot send or edit 20 times a minute in a group, so a game's length is set by the
people's pace and by its table updates. Each game here is played through the real bot and the fake
Bot API, on a virtual clock (as :mod:`bench.pings` does): the flow's, the bot's group window and the
fake server's clock (which enforces 20 sends+edits in 60 s) move together; a person answers 2–6 s
after the table shows their turn, and when the bot must wait for room in the group's window, the
clock moves on to when it has room. The people press a button at random (seeded), and the k-th game
of a kind has the same dice seed on both tables.

Reported per game, table and player count, each the median over the games played: table updates
(the table's sends and edits), the people's presses, their decisions (presses where they had more
than one button), every send and edit of the chat, and minutes per game.

`python -m bench.tempo [--quick]` prints the figures and (without --quick) writes them under "tempo"
in bench/results.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.pings import VirtualTime, wait
from bot.fake_telegram import FakeTelegram
from bot.flow.context import FAST, PACE_CHOICES
from bot.games import GAMES
from engines.base import seed_digest
from tests.bot_harness import CHAT_ID, BotRunner, ManualAlarms, current_player_name

RESULTS = Path(__file__).with_name("results.json")
GAMES_EACH = 20  # games per game, table and player count (the median is over these)
QUICK_GAMES = 1
ANSWER_S = (2.0, 6.0)  # a person answers this long after their turn shows
GROUP_LIMIT, GROUP_PERIOD = 20, 60  # Telegram's: sends and edits in a group
NAMES = ("Аня", "Борис", "Вера", "Глеб")
TABLE_METHODS = ("sendPhoto", "editMessageMedia")
COUNTED = ("send", "edit")
# fast-table targets: minutes per four-person game, and table updates per decision of a person
TARGET_MINUTES = {"ludo": 12, "parchis": 14, "shishbesh": 12, "tishe": 6}
TARGET_UPDATES_PER_DECISION = 1.1


async def play(code: str, pace: str, players: int, seed: int) -> dict[str, Any]:
    """One game of ``code`` on the ``pace`` table, ``players`` people, to its end: its figures."""
    rng = random.Random(f"{code}:{players}:{seed}")
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(token="1:TEMPO", bot_username="TempoBot") as tg:
            users = [tg.add_user(i + 1, name) for i, name in enumerate(NAMES[:players])]
            by_name = {u.first_name: u for u in users}
            tg.add_chat(CHAT_ID, "supergroup", creator=1)
            tg.enforce_group_rate(GROUP_LIMIT, period=GROUP_PERIOD)
            runner = BotRunner(tg, Path(tmp) / "tempo.sqlite3", group_rate=(GROUP_LIMIT, GROUP_PERIOD))
            await runner.start()
            clock, alarms = VirtualTime(tg, runner), ManualAlarms()
            flow = clock.flow
            flow.alarms = alarms
            flow.seed_factory = lambda: seed_digest(f"tempo {code} {players} {seed}")  # the same dice on both tables
            flow.outbox.clock = lambda: clock.now
            flow.outbox.sleep = lambda seconds: _wait_for_room(clock, seconds)
            await flow.store.set_chat_setting(CHAT_ID, "pace", pace)
            await runner.say(users[0], f"/newgame {code}")
            lobby = runner.table()
            for user in users[1:]:
                await runner.press(user, lobby, "Играю")
            await runner.press(users[0], lobby, "Начать")
            began, first = clock.now, len(tg.requests)
            table = runner.table()
            presses = decisions = 0
            while table.buttons:
                await wait(clock, alarms, rng.uniform(*ANSWER_S), runner)
                name = current_player_name(table.caption or "")
                decisions += len(table.buttons) > 1
                await runner.press(by_name[name], table, rng.choice(table.buttons)[0])
                presses += 1
            minutes = (clock.now - began) / 60
            await runner.stop()
            calls = [r for r in tg.requests[first:] if r.method.startswith(COUNTED) and r.ok]
            return {"table_updates": sum(r.method in TABLE_METHODS for r in calls), "presses": presses,
                    "decisions": decisions, "sends_and_edits": len(calls), "minutes": round(minutes, 2),
                    "http_429": sum(r.error_code == 429 for r in tg.requests)}


async def _wait_for_room(clock: VirtualTime, seconds: float) -> None:
    """The bot waits for room in the group's window: the virtual clock moves on by that much."""
    clock.to(clock.now + seconds)
    await asyncio.sleep(0)


def _median(games: list[dict[str, Any]], key: str) -> float:
    return round(statistics.median(g[key] for g in games), 2)


def run(games_each: int = GAMES_EACH) -> dict[str, Any]:
    """Every race game, both tables, two and four people, ``games_each`` seeded games each: medians."""
    rows = []
    for spec in GAMES.values():
        if not spec.fast_table:
            continue
        for players in (4, 2):
            for pace in PACE_CHOICES:
                t0 = time.monotonic()
                played = [asyncio.run(play(spec.code, pace, players, seed)) for seed in range(games_each)]
                row = {"game": spec.code, "players": players, "table": pace, "games": len(played),
                       **{key: _median(played, key) for key in
                          ("table_updates", "presses", "decisions", "sends_and_edits", "minutes")},
                       "http_429": sum(g["http_429"] for g in played)}
                row["updates_per_decision"] = round(row["table_updates"] / max(row["decisions"], 1), 2)
                rows.append(row)
                print(f"tempo: {spec.code} {players}p {pace:9} {row['minutes']:6.1f} min, "
                      f"{row['table_updates']:6.1f} table updates, {row['decisions']:6.1f} decisions, "
                      f"{row['presses']:6.1f} presses, {row['updates_per_decision']:.2f} updates/decision "
                      f"({time.monotonic() - t0:.0f} s)", file=sys.stderr, flush=True)
    return {"answer_s": list(ANSWER_S), "group_limit": f"{GROUP_LIMIT} in {GROUP_PERIOD} s",
            "rows": rows, "targets": targets(rows)}


def targets(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The fast table's targets, each with the figure measured and whether it is met."""
    out = []
    for row in rows:
        if row["table"] != FAST:
            continue
        ratio = row["updates_per_decision"]
        out.append({"target": f"{row['game']} {row['players']}p: table updates ≤ "
                              f"{TARGET_UPDATES_PER_DECISION} × decisions", "measured": ratio,
                    "met": ratio <= TARGET_UPDATES_PER_DECISION})
        if row["players"] == 4 and row["game"] in TARGET_MINUTES:
            limit = TARGET_MINUTES[row["game"]]
            out.append({"target": f"{row['game']} 4p: ≤ {limit} minutes per game", "measured": row["minutes"],
                        "met": row["minutes"] <= limit})
    return out


def show(results: dict[str, Any]) -> None:
    """The table of medians, classic beside fast, and the targets."""
    print("| game | players | table | minutes | table updates | decisions | presses | updates per decision |")
    print("|---|---|---|---|---|---|---|---|")
    for r in results["rows"]:
        print(f"| {r['game']} | {r['players']} | {r['table']} | {r['minutes']} | {r['table_updates']} | "
              f"{r['decisions']} | {r['presses']} | {r['updates_per_decision']} |")
    for t in results["targets"]:
        print(f"{'met' if t['met'] else 'NOT MET'}: {t['target']} (measured {t['measured']})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.tempo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_GAMES} game each (a smoke run; nothing written)")
    args = parser.parse_args(argv)
    results = run(QUICK_GAMES if args.quick else GAMES_EACH)
    show(results)
    if not args.quick:
        figures = json.loads(RESULTS.read_text(encoding="utf-8")) if RESULTS.exists() else {}
        figures["tempo"] = results
        RESULTS.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"\nwritten under \"tempo\" in {RESULTS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
