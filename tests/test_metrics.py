"""Metrics and health: METRICS_PORT serves /metrics and /healthz, scraped here
over real HTTP while the real bot plays against the fake Bot API, and from `python -m bot`."""

from __future__ import annotations

import asyncio
import itertools
import json
import signal
import socket
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.__main__ import METRICS_FAILED
from bot.config import Config
from bot.fake_telegram import FakeTelegram, FakeUser
from bot.games import GAMES
from bot.health import Health
from bot.metrics import Metrics, TimedStore
from bot.store import SQLiteStore
from tests.bot_harness import CHAT_ID, USERS, BotRunner, current_player_name, play_to_end, start_for_two
from tests.startup_steps import TOKEN, bot_env, run_bot

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
MeteredWorld = tuple[FakeTelegram, "MeteredRunner", dict[str, FakeUser], int]
COUNTED_METHODS = ("sendPhoto", "sendMessage", "editMessageMedia", "editMessageCaption", "answerCallbackQuery")


def free_port() -> int:
    with socket.socket() as sock:  # bound and closed again: free for the bot to listen on
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class MeteredRunner(BotRunner):
    """The harness's bot, with METRICS_PORT set."""

    metrics_port: int = 0

    def config(self) -> Config:
        return replace(super().config(), metrics_port=self.metrics_port)

    @property
    def metrics(self) -> Metrics:
        assert self.app is not None
        metrics: Metrics = self.app.bot_data["metrics"]
        return metrics


@asynccontextmanager
async def metered_world(tmp_path: Path) -> AsyncIterator[MeteredWorld]:
    """A supergroup of Аня, Борис and Вера and the bot, its metrics on a free port of 127.0.0.1."""
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        users = {key: tg.add_user(i + 1, name) for i, (key, name) in enumerate(list(USERS.items())[:3])}
        tg.add_chat(CHAT_ID, "supergroup", "Пятничный клуб", creator=1)
        port = free_port()
        runner = MeteredRunner(tg, tmp_path / "bot.sqlite3", metrics_port=port)
        await runner.start()
        seeds = (f"{i:064x}" for i in itertools.count(31))
        assert runner.app is not None
        runner.app.bot_data["flow"].seed_factory = lambda: next(seeds)
        try:
            yield tg, runner, users, port
        finally:
            await runner.stop()
        assert tg.violations == [], tg.violations
        assert not tg.unanswered_callbacks()


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[MeteredWorld]:
    async with metered_world(tmp_path) as world:
        yield world


async def get(port: int, path: str) -> tuple[int, str, str]:
    """GET http://127.0.0.1:``port````path``: (status, content type, body)."""
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as response:
        return response.status, response.headers.get("Content-Type", ""), await response.text()


async def scrape(port: int) -> Samples:
    """/metrics, parsed as Prometheus parses it: (sample name, labels) → value."""
    status, kind, text = await get(port, "/metrics")
    assert status == 200 and kind.startswith("text/plain"), (status, kind)
    return {(s.name, frozenset(s.labels.items())): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def health(port: int) -> tuple[int, dict[str, Any]]:
    status, kind, text = await get(port, "/healthz")
    assert kind.startswith("application/json") and "\n" not in text.strip()
    return status, json.loads(text)


async def test_an_end_to_end_game_moves_the_counters(world: MeteredWorld) -> None:
    tg, runner, users, port = world
    table = await start_for_two(runner, users, "spichki")  # Борис joins, Аня starts: two lobby presses
    during = await scrape(port)
    assert value(during, "sosedi_games_active", game="spichki") == 1
    assert value(during, "sosedi_games_active", game="ludo") == 0  # every game shows, played or not
    assert value(during, "sosedi_presses_total", outcome="lobby") == 2
    assert value(during, "sosedi_instance_role", role="active") == 1
    assert value(during, "sosedi_instance_role", role="standby") == 0
    assert await health(port) == (200, {"ok": True, "updates": "ok", "database": "ok"})

    by_name = {u.first_name: u for u in users.values()}
    mover = by_name[current_player_name(table.caption or "")]
    other = next(u for u in (users["anya"], users["boris"]) if u is not mover)
    answer = await runner.press(other, table, table.buttons[0][0])
    assert answer["text"].startswith("Сейчас ходит")
    old_button = table.buttons[0][1]
    assert old_button is not None
    tg.fail_next("editMessageMedia", error_code=429, retry_after=1)  # the bot waits it out and edits again
    await runner.press(mover, table, table.buttons[0][0])
    answer = await runner.press_data(mover, table, old_button)  # a button of the table before that move
    assert answer["text"] == "Кнопка устарела."
    rest = await play_to_end(runner, table, GAMES["spichki"].engine, [users["anya"], users["boris"]], seed=5)
    moves = 1 + len(rest)

    after = await scrape(port)
    assert value(after, "sosedi_games_active", game="spichki") == 0
    assert {outcome: value(after, "sosedi_presses_total", outcome=outcome)
            for outcome in ("lobby", "moved", "stale", "not_your_turn", "storage_error")} == {
        "lobby": 2, "moved": moves, "stale": 1, "not_your_turn": 1, "storage_error": 0}
    assert value(after, "sosedi_press_to_edit_seconds_count") == moves  # each move's table edit, once
    assert value(after, "sosedi_press_to_edit_seconds_sum") > 0
    # one 429 slowed one move: at least a second from its press to its edit
    assert value(after, "sosedi_press_to_edit_seconds_bucket", le="1.0") < moves
    assert value(after, "sosedi_telegram_calls_total", method="editMessageMedia", result="429") == 1
    for method in COUNTED_METHODS:  # what the bot counted is what the server answered
        for result, status in (("ok", 200), ("429", 429)):
            answered = sum(1 for r in tg.requests_for(method) if r.http_status == status)
            assert value(after, "sosedi_telegram_calls_total", method=method, result=result) == answered, method
    assert value(after, "sosedi_telegram_calls_total", method="answerCallbackQuery", result="ok") == moves + 4
    assert value(after, "sosedi_telegram_calls_total", method="sendPhoto", result="ok") >= 1
    assert value(after, "sosedi_telegram_calls_total", method="getUpdates", result="ok") >= 1
    assert value(after, "sosedi_outbox_wait_seconds_count") >= moves
    assert value(after, "sosedi_store_seconds_count", operation="save_move") >= moves
    assert value(after, "sosedi_draw_seconds_count", game="spichki") >= moves
    assert value(after, "sosedi_draw_seconds_count", game="cover") == 1  # the lobby's title card


async def test_a_write_that_fails_is_counted_and_a_database_that_is_gone_fails_healthz(world: MeteredWorld) -> None:
    _, runner, users, port = world
    assert runner.app is not None
    store = runner.app.bot_data["flow"].store
    assert isinstance(store, TimedStore) and isinstance(store.inner, SQLiteStore)
    table = await start_for_two(runner, users, "spichki")
    mover = {u.first_name: u for u in users.values()}[current_player_name(table.caption or "")]
    await store.inner.connection.execute("PRAGMA query_only = ON")  # every write fails, reads still work
    answer = await runner.press(mover, table, table.buttons[0][0])
    assert answer["show_alert"] and answer["text"].startswith("⚠️ Не получилось: база данных бота")
    assert value(await scrape(port), "sosedi_presses_total", outcome="storage_error") == 1
    assert (await health(port))[0] == 200  # it answers: /healthz asks for a read, not a write
    await store.inner.connection.execute("PRAGMA query_only = OFF")
    await store.inner.close()  # the connection to the database is gone
    status, report = await health(port)
    assert status == 503 and report["ok"] is False and report["updates"] == "ok"
    assert report["database"].startswith("ValueError"), report  # aiosqlite: no active connection
    assert (await scrape(port))  # a scrape still answers (games_active keeps its last values)
    store.inner = await SQLiteStore.open(runner.db_path)  # the database is back
    assert await health(port) == (200, {"ok": True, "updates": "ok", "database": "ok"})


async def test_healthz_is_503_once_getupdates_stops_answering(world: MeteredWorld) -> None:
    tg, runner, _, port = world
    watch = runner.metrics.health
    later = watch.stale_after + 5
    watch.clock = lambda: time.monotonic() + later  # a quiet spell longer than the check allows…
    status, report = await health(port)
    assert status == 503 and report["updates"].startswith("no getUpdates answer") and report["database"] == "ok"
    polls = tg.polls_started
    await tg.wait_for(lambda s: s.polls_started > polls)  # …ends with the next getUpdates answer
    assert (await health(port))[0] == 200

    tg.delay_next("getUpdates", seconds=30)  # the next poll's answer is held back
    await tg.wait_for(lambda s: any(r.delayed for r in s.requests_for("getUpdates")))
    watch.clock = lambda: time.monotonic() + 2 * later  # and the quiet spell goes on
    status, report = await health(port)
    assert status == 503 and report["updates"].startswith("no getUpdates answer"), report


def test_health_judges_the_signs_it_was_given() -> None:
    now = [100.0]
    watch = Health(stale_after=12, clock=lambda: now[0])
    assert watch.updates() == "ok"  # the start counts as a sign
    now[0] = 113
    assert watch.updates() == "no getUpdates answer or update for 13 s"
    watch.updates_seen()  # a webhook's update
    assert watch.updates() == "ok"
    watch.poll_returned(at=90)  # an older sign never hides a newer one
    now[0] = 125
    assert watch.updates() == "ok"
    now[0] = 126
    assert watch.updates() == "no getUpdates answer or update for 13 s"
    assert Health.for_polling(30).stale_after == 70


async def test_python_m_bot_serves_metrics_and_health(tmp_path: Path) -> None:
    port = free_port()
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        env = bot_env(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url, BOT_API_FILE_URL=tg.file_url,
                      DRAW_PROCESSES="0", METRICS_PORT=str(port))
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                       stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT)
        try:
            await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)
            samples = await scrape(port)
            status, report = await health(port)
        finally:
            process.send_signal(signal.SIGTERM)
            out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert value(samples, "sosedi_telegram_calls_total", method="getMe", result="ok") == 1
    assert value(samples, "sosedi_telegram_calls_total", method="setMyCommands", result="ok") >= 1
    assert (status, report) == (200, {"ok": True, "updates": "ok", "database": "ok"})
    text = out.decode()
    assert process.returncode == 0, text
    assert f"metrics at http://127.0.0.1:{port}/metrics" in text and "Traceback" not in text and TOKEN not in text


@pytest.mark.parametrize("bad", ["metrics", "0", "65536", "-1"])
async def test_a_bad_metrics_port_is_one_line(tmp_path: Path, bad: str) -> None:
    assert await run_bot(tmp_path, BOT_TOKEN=TOKEN, METRICS_PORT=bad) == (
        2, [f"METRICS_PORT must be a port number (1 to 65535), not {bad!r}"])


async def test_a_metrics_port_in_use_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
            code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url,
                                        BOT_API_FILE_URL=tg.file_url, DRAW_PROCESSES="0", METRICS_PORT=str(port))
    head = METRICS_FAILED.format(reason="\0").partition("\0")[0]
    assert code == 2 and len(lines) == 1 and lines[0].startswith(head), lines
    assert f"127.0.0.1:{port}" in lines[0]
