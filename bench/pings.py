"""Turn pings in a real group's rhythm: four people play «Людо» and look away at random.

The game runs on a virtual clock: the flow's (deadlines, pings, tidying), the bot's group window and
the fake server's (message dates, its 20-in-60-s limit) all move together, so a minute of waiting
costs nothing. A person acts after 2–10 s; at the start of their turn, with probability ``AWAY``,
they look away for 35–150 s instead (past the 30-s ping, short of the 3-minute turn timer), and
then play the rest of the turn at the usual pace (on the fast table, the chat's default, the bot
throws for them: each press is a choice). Alarms ring when the
clock reaches them. Reported: the share of idle turns that got a ping, seconds to the ping, pings deleted, the
sends+edits per decision including the pings, and the most in any 60 s.
"""

from __future__ import annotations

import asyncio
import random
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench.burst import _most_in_window
from bot.fake_telegram import FakeTelegram
from tests.bot_harness import CHAT_ID, BotRunner, ManualAlarms, current_player_name

AWAY = 0.25  # the chance that a person looks away at the start of their turn
COUNTED = ("send", "edit")


class VirtualTime:
    """One clock for the flow, the bot's group window and the fake server, moved on by hand."""

    def __init__(self, tg: FakeTelegram, runner: BotRunner) -> None:
        assert runner.app is not None
        self.tg, self.flow = tg, runner.app.bot_data["flow"]
        self.now = self.flow.clock()
        self.flow.clock = lambda: self.now
        runner.app.bot.rate_limiter.clock = lambda: self.now  # the chats' budgets go along

    def to(self, when: float) -> None:
        if when > self.now:
            self.tg.advance_clock(when - self.now)
            self.now = when


async def wait(time: VirtualTime, alarms: ManualAlarms, seconds: float, runner: BotRunner) -> list[float]:
    """Let ``seconds`` pass, ringing each alarm at its time; the times the pings rang (that pinged)."""
    until, pinged = time.now + seconds, []
    while True:
        due = sorted((when, key) for key, (when, _) in alarms.armed.items() if when <= until)
        if not due:
            break
        when, key = due[0]
        time.to(when)
        if await alarms.ring(key) is True and isinstance(key, tuple) and key[0] == "ping":
            pinged.append(when)
        await runner.handled()
    time.to(until)
    return pinged


async def play(seed: int = 1) -> dict[str, Any]:
    """One four-person game of «Людо» to its end; its figures."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(token="1:PINGS", bot_username="BenchBot") as tg:
            users = [tg.add_user(i + 1, name) for i, name in enumerate(("Аня", "Борис", "Вера", "Глеб"))]
            by_name = {u.first_name: u for u in users}
            tg.add_chat(CHAT_ID, "supergroup", creator=1)
            tg.enforce_group_rate(20, period=60)
            runner = BotRunner(tg, Path(tmp) / "pings.sqlite3", group_rate=(20, 60))
            await runner.start()
            time, alarms = VirtualTime(tg, runner), ManualAlarms()
            time.flow.alarms = alarms
            await runner.say(users[0], "/newgame ludo")
            lobby = runner.table()
            for user in users[1:]:
                await runner.press(user, lobby, "Играю")
            await runner.press(users[0], lobby, "Начать")
            start, table = len(tg.requests), runner.table()
            decisions = idle = 0
            waits: list[float] = []
            last = None
            while table.buttons:
                name = current_player_name(table.caption or "")
                away = name != last and rng.random() < AWAY  # a new turn (or a new person's)
                last, turn_from = name, time.now
                rang = await wait(time, alarms, rng.uniform(35, 150) if away else rng.uniform(2, 10), runner)
                idle += away
                waits += [at - turn_from for at in rang]
                await runner.press(by_name[name], table, rng.choice(table.buttons)[0])
                decisions += 1
            await wait(time, alarms, 120, runner)  # the result's minute: pings and refusals tidied away
            await runner.stop()
            calls = [r for r in tg.requests[start:] if r.method.startswith(COUNTED) and r.ok]
            pings = [m for m in tg.messages[CHAT_ID].values() if m.from_bot and ", ваш ход в «" in (m.text or "")]
            return {"decisions": decisions, "idle_turns": idle, "pinged": len(waits),
                    "pinged_share": round(len(waits) / idle, 3) if idle else None,
                    "seconds_to_ping_p50": round(statistics.median(waits), 1) if waits else None,
                    "pings_sent": len(pings), "pings_deleted": sum(m.deleted for m in pings),
                    "sends_and_edits_per_decision": round(len(calls) / decisions, 3),
                    "most_in_any_60_s": _most_in_window([r.at for r in calls], 60),
                    "http_429": sum(r.error_code == 429 for r in tg.requests)}


def run(games: int = 3) -> dict[str, Any]:
    """``games`` seeded games; each one's figures and their sums."""
    played = [asyncio.run(play(seed)) for seed in range(1, games + 1)]
    idle, pinged = sum(g["idle_turns"] for g in played), sum(g["pinged"] for g in played)
    decisions = sum(g["decisions"] for g in played)
    calls = sum(g["sends_and_edits_per_decision"] * g["decisions"] for g in played)
    summary = {"games": played, "idle_turns": idle, "pinged_share": round(pinged / idle, 3) if idle else None,
               "sends_and_edits_per_decision": round(calls / decisions, 3),
               "most_in_any_60_s": max(g["most_in_any_60_s"] for g in played)}
    print(f"pings (ludo 4p, {AWAY:.0%} of turns away 35–150 s): {pinged}/{idle} idle turns pinged, "
          f"{summary['sends_and_edits_per_decision']} sends+edits per decision (pings included), "
          f"most in any 60 s {summary['most_in_any_60_s']}, "
          f"pings deleted {sum(g['pings_deleted'] for g in played)}/{sum(g['pings_sent'] for g in played)}, "
          f"seconds to a ping p50 {[g['seconds_to_ping_p50'] for g in played]}, "
          f"429s {sum(g['http_429'] for g in played)}")
    return summary


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
