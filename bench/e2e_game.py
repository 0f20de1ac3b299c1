"""One full game of each sosedi mode and of every other game through the fake Bot API: presses, calls, latency."""

from __future__ import annotations

import itertools
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.fake_telegram import FakeTelegram
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name

COUNTED = ("sendMessage", "sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageText")
PLAY_AI = "Играть с ботом"  # the host alone against the computer, instead of joins and «Начать»
# name, game code, lobby buttons the host presses before «Начать»
GAMES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("sosedi classic", "sosedi", ()),
    ("sosedi reverse", "sosedi", ("Вариант →",)),
    ("sosedi tower", "sosedi", ("Вариант →", "Вариант →")),
    ("spichki", "spichki", ()),
    ("tishe", "tishe", ()),
    ("shishbesh", "shishbesh", ()),
    ("ludo", "ludo", ()),
    ("parchis", "parchis", ()),
    ("lions", "lions", (PLAY_AI,)),
)


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _one_game(tg: FakeTelegram, runner: BotRunner, users: list[Any], code: str,
                    settings: tuple[str, ...], max_presses: int | None) -> dict[str, Any]:
    """One game from /newgame to the result (or, with ``max_presses``, cut short and stopped)."""
    host = users[0]
    start_requests = len(tg.requests)
    await runner.say(host, f"/newgame {code}")
    lobby = runner.table()
    presses = 0
    for user in users[1:] if PLAY_AI not in settings else ():
        await runner.press(user, lobby, "Играю")
        presses += 1
    for label in settings:
        await runner.press(host, lobby, label)
        presses += 1
    if PLAY_AI not in settings:
        await runner.press(host, lobby, "Начать")
        presses += 1
    by_name = {u.first_name: u for u in users}
    table = runner.table()
    answer_ms: list[float] = []
    edit_ms: list[float] = []
    rolls = 0
    while table.buttons and (max_presses is None or rolls < max_presses):  # a throw, or the first move offered
        label = table.buttons[0][0]
        mover = by_name[current_player_name(table.caption)]
        before = len(tg.requests)
        t0 = time.perf_counter()
        t0_server = tg.clock()  # the clock the fake server stamps requests with
        handle = await tg.press(mover, CHAT_ID, table.message_id, table.button(label))
        await tg.wait_answer(handle)
        t1 = time.perf_counter()
        await runner.handled()
        edit = next(r for r in tg.requests[before:] if r.method == "editMessageMedia")
        answer_ms.append((t1 - t0) * 1000)
        edit_ms.append((edit.at - t0_server) * 1000)
        rolls += 1
    presses += rolls + 1  # the /newgame command counts as a decision too
    finished = not table.buttons
    calls = [r.method for r in tg.requests[start_requests:] if r.method in COUNTED and r.ok]
    photo_sizes = [len(r.files[next(iter(r.files))]) for r in tg.requests[start_requests:]
                   if r.method == "editMessageMedia" and r.files]
    if not finished:  # a --quick run cuts long games short: stop it so the next game can start
        await runner.say(host, "/stop")
    return {
        "finished": finished,
        "decisions": presses,
        "rolls": rolls,
        "sends_and_edits": len(calls),
        "calls_per_decision": round(len(calls) / presses, 3),
        "press_to_answer_ms_p50": round(statistics.median(answer_ms), 2),
        "press_to_answer_ms_p95": round(_pct(answer_ms, 0.95), 2),
        "press_to_edit_ms_p50": round(statistics.median(edit_ms), 2),
        "press_to_edit_ms_p95": round(_pct(edit_ms, 0.95), 2),
        "png_bytes_mean": round(statistics.mean(photo_sizes)),
        "png_bytes_max": max(photo_sizes),
    }


async def run(max_presses: int | None = None) -> dict[str, Any]:
    """Every game of :data:`GAMES`; ``max_presses`` cuts each one short (a smoke run)."""
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeTelegram(token="1:BENCH", bot_username="BenchBot") as tg:
            users = [tg.add_user(i + 1, name) for i, name in enumerate(("Аня", "Борис", "Вера"))]
            tg.add_chat(CHAT_ID, "supergroup", creator=1)
            runner = BotRunner(tg, Path(tmp) / "bench.sqlite3")
            await runner.start()
            seeds = (f"{i:064x}" for i in itertools.count(1))
            runner.app.bot_data["flow"].seed_factory = lambda: next(seeds)
            try:
                for name, code, settings in GAMES:
                    results[name] = await _one_game(tg, runner, users, code, settings, max_presses)
            finally:
                await runner.stop()
    print(f"\n{'e2e game (3 players)':<22}{'decisions':>10}{'calls':>7}{'calls/dec':>10}"
          f"{'answer p50':>11}{'edit p50':>10}{'edit p95':>10}{'PNG mean':>10}")
    for mode, r in results.items():
        print(f"{mode:<22}{r['decisions']:>10}{r['sends_and_edits']:>7}{r['calls_per_decision']:>10}"
              f"{r['press_to_answer_ms_p50']:>9}ms{r['press_to_edit_ms_p50']:>8}ms{r['press_to_edit_ms_p95']:>8}ms"
              f"{r['png_bytes_mean']:>10}")
    return results
