"""A burst in one group: players press faster than Telegram's 20 sends+edits a minute allow.

The fake server enforces the limit (a 429 for the 21st call in any 60 s) and the bot runs
with its real budget. Three players press the first button of the table the moment their
last press is answered, for ``seconds``; then the bot is left to catch up. Reported: presses,
how many moved the game, the calls the chat received, the most in any window, 429s seen,
press→answer latency while edits wait, and whether the last picture shows the stored state.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.e2e_game import _pct
from bot import callback_data as cb
from bot.fake_telegram import FakeTelegram
from bot.fake_telegram.methods import RATE_LIMITED
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, game_id_of


def _most_in_window(times: list[float], period: float) -> int:
    """The most calls that fall in any ``period`` seconds."""
    most, start = 0, 0
    for end, at in enumerate(times):
        while at - times[start] >= period:
            start += 1
        most = max(most, end - start + 1)
    return most


async def run(seconds: float = 75.0, per_period: int = 20, period: int = 60) -> dict[str, Any]:
    """One burst of ``seconds`` against a budget of ``per_period`` calls in ``period`` s."""
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(token="1:BURST", bot_username="BenchBot") as tg:
            users = [tg.add_user(i + 1, name) for i, name in enumerate(("Аня", "Борис", "Вера"))]
            by_name = {u.first_name: u for u in users}
            tg.add_chat(CHAT_ID, "supergroup", creator=1)
            tg.enforce_group_rate(per_period, period=period)
            runner = BotRunner(tg, Path(tmp) / "burst.sqlite3", group_rate=(per_period, period))
            await runner.start()
            assert runner.app is not None
            flow = runner.app.bot_data["flow"]
            seeds = (f"{i:064x}" for i in itertools.count(1))
            flow.seed_factory = lambda: next(seeds)
            presses = stale = games = 0
            answer_ms: list[float] = []
            started = time.perf_counter()
            try:
                while time.perf_counter() - started < seconds:
                    # the lobby's photo waits for the budget too (a whole window, after a result): wait as long
                    await tg.send_message(users[0], CHAT_ID, "/newgame sosedi")
                    await runner.handled(timeout=3 * period)
                    lobby = runner.table()
                    for user in users[1:]:
                        await runner.press(user, lobby, "Играю")
                    await runner.press(users[0], lobby, "Начать")
                    games += 1
                    table = runner.table()
                    game_id = game_id_of(table)
                    while table.buttons and time.perf_counter() - started < seconds:
                        mover = by_name[current_player_name(table.caption)]
                        t0 = time.perf_counter()
                        handle = await tg.press(mover, CHAT_ID, table.message_id, table.buttons[0][1])
                        text = (await tg.wait_answer(handle, timeout=30)).get("text", "")
                        answer_ms.append((time.perf_counter() - t0) * 1000)
                        presses += 1
                        stale += "устарела" in text or "закончена" in text  # a stale table or a finished game
                    if table.buttons:
                        break
                    # the result is out (it may wait a whole window for the budget): the next lobby comes after it
                    await runner.handled(timeout=3 * period)
                burst_s = time.perf_counter() - started
                await runner.handled(timeout=3 * period)
                catch_up_s = time.perf_counter() - started - burst_s
                game = await flow.store.game(game_id)
            finally:
                await runner.stop()
    calls = sorted(r.at for r in tg.requests if r.method in RATE_LIMITED and r.ok)
    parsed = cb.parse(table.buttons[0][1]) if table.buttons else None
    latest = game is not None and game.shown_version == game.version and (
        parsed is None or parsed.version == game.version)
    result = {
        "budget": f"{per_period} per {period} s", "burst_s": round(burst_s, 1), "catch_up_s": round(catch_up_s, 1),
        "games": games, "presses": presses, "presses_per_min": round(presses / burst_s * 60),
        "stale_presses": stale, "moves": presses - stale, "sends_and_edits": len(calls),
        "most_in_any_window": _most_in_window(calls, period),
        "http_429": sum(1 for r in tg.requests if r.error_code == 429),
        "press_to_answer_ms_p50": round(statistics.median(answer_ms), 1),
        "press_to_answer_ms_p99": round(_pct(answer_ms, 0.99), 1),
        "last_picture_is_latest": latest,
    }
    print(f"\nburst in one group ({result['budget']}): {presses} presses in {result['burst_s']} s "
          f"({result['presses_per_min']}/min, {stale} stale), {len(calls)} sends+edits, most in any window "
          f"{result['most_in_any_window']}, 429s {result['http_429']}, "
          f"answer p50 {result['press_to_answer_ms_p50']} ms p99 {result['press_to_answer_ms_p99']} ms, "
          f"last picture latest: {latest}")
    return result


if __name__ == "__main__":
    asyncio.run(run())
