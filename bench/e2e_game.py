"""One full game of each sosedi mode and of every other game through the fake Bot API: presses, calls, latency."""

from __future__ import annotations

import itertools
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot import callback_data as cb
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.games import GAMES, GameSpec, Variant
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name

COUNTED = ("sendMessage", "sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageText")
PLAY_AI = "Играть с ботом"  # a two-player game: the host alone against the computer, not joins and «Начать»
MAX_SETTING_PRESSES = 5


def cases() -> list[tuple[str, GameSpec[Any, Any], Variant]]:
    """Every variant to play through (``Variant.played_through``), named «sosedi reverse», «ludo»."""
    return [(" ".join(p for p in (spec.code, v.name) if p), spec, v)
            for spec in GAMES.values() for v in spec.variants if v.played_through]


async def _set_up(runner: BotRunner, host: FakeUser, lobby: StoredMessage, wanted: dict[str, Any]) -> int:
    """The host presses the lobby's setting buttons until its options are ``wanted`` (a button that
    cycles a setting is pressed again); returns the presses."""
    flow = runner.app.bot_data["flow"]  # type: ignore[union-attr]
    for presses in range(MAX_SETTING_PRESSES + 1):
        game = await flow.store.active_game(CHAT_ID)
        wrong = {k for k, v in wanted.items() if game.options.get(k) != v}
        if not wrong:
            return presses
        button = next(data for _, data in lobby.buttons if (c := cb.parse(data)) and c.command == "set"
                      and c.key in wrong)
        await runner.press_data(host, lobby, button)
    raise AssertionError(f"the lobby's buttons never reached {wanted}")


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _one_game(tg: FakeTelegram, runner: BotRunner, users: list[Any], spec: GameSpec[Any, Any],
                    variant: Variant, max_presses: int | None) -> dict[str, Any]:
    """One game from /newgame to the result (or, with ``max_presses``, cut short and stopped)."""
    host = users[0]
    start_requests = len(tg.requests)
    await runner.say(host, f"/newgame {spec.code}")
    lobby = runner.table()
    against_computer = spec.engine.max_players == 2 and spec.policy is not None
    presses = 0
    for user in users[1:] if not against_computer else ():
        await runner.press(user, lobby, "Играю")
        presses += 1
    presses += await _set_up(runner, host, lobby, variant.options)
    await runner.press(host, lobby, PLAY_AI if against_computer else "Начать")
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
    """Every game of :func:`cases`; ``max_presses`` cuts each one short (a smoke run)."""
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
                for name, spec, variant in cases():
                    results[name] = await _one_game(tg, runner, users, spec, variant, max_presses)
            finally:
                await runner.stop()
    print(f"\n{'e2e game (3 players)':<22}{'decisions':>10}{'calls':>7}{'calls/dec':>10}"
          f"{'answer p50':>11}{'edit p50':>10}{'edit p95':>10}{'PNG mean':>10}")
    for mode, r in results.items():
        print(f"{mode:<22}{r['decisions']:>10}{r['sends_and_edits']:>7}{r['calls_per_decision']:>10}"
              f"{r['press_to_answer_ms_p50']:>9}ms{r['press_to_edit_ms_p50']:>8}ms{r['press_to_edit_ms_p95']:>8}ms"
              f"{r['png_bytes_mean']:>10}")
    return results
