"""The real `python -m bot` process under load, through the fake Bot API server (in this process).

1. 100 group chats play «Соседи» at once; each presses «🎲» as soon as its table is redrawn
   (saturation); then, in two more windows, 1 s ± 50 % after it (about 80 moves and 25 lobby
   presses a second: the targets' 100 presses/s) and 0.8 s ± 50 % (about 100 moves and 30 lobby
   presses a second).
   Latency per accepted press: the getUpdates answer carrying it -> the bot's editMessageMedia of
   the table, both stamped by the fake server; accepted presses per second within the window.
2. The same with 1,000 unfinished games in the database (stored with the bot's store before
   the start; 100 of them are played on): the memory of the bot and its drawing processes (VmRSS
   summed, PSS summed; VmHWM is the peak).
3. Start-up time (spawn -> first getUpdates arriving), with an empty and with that database.

All three run on SQLite, then again on PostgreSQL (a fresh database per scenario on the run's
server: bench/databases.py, which also says what durability each has), each with a fake server of
its own; printed side by side. Targets (bench/load_report.py): p50 ≤ 25 ms, p99 ≤ 150 ms at ~100
presses/s, ≥ 100 presses/s, RSS ≤ 300 MB, start-up ≤ 2 s on each, and PostgreSQL's p99 ≤ 1.5 ×
SQLite's. `python -m bench.load [--quick]`; the takeover after a SIGKILL: bench/takeover.py.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import io
import json
import os
import random
import re
import tempfile
import time
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image

from bench import databases, load_report
from bench.bot_process import default_env, running_bot
from bot import texts
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.fake_telegram.models import RecordedRequest
from bot.flow.context import DEFAULT_TIMER, Game
from bot.games import GAMES
from bot.store import Move, NewAction, Seat, open_store
from engines.base import new_seed
from locales import Translator
from tests import postgres_server

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "777:LOAD-bench-token-000000000000000000"
GAME = "sosedi"
TURN = re.compile(r"(?:Ходит|To move): (.+)$", re.M)
TICK = os.sysconf("SC_CLK_TCK")
CHATS, STORED_GAMES = 100, 1000
# 100 chats pressing this long (± 50 %) after each redraw: ~100 presses/s in all, and ~100 moves/s alone
PACED = {"paced_empty_db": 1.0, "paced_fast_empty_db": 0.8}
RETRY_S = 0.25  # a player whose press got a bare answer (the bot's error path) presses again after this


@dataclass
class Stats:
    """What the scripted players saw."""

    accepted: list[tuple[float, float]] = field(default_factory=list)  # (edit stamp, latency ms) per press
    update_ids: set[int] = field(default_factory=set)
    lobby_steps: int = 0  # /newgame, «Играю», «Начать» that got their message or edit
    lobby_presses: list[float] = field(default_factory=list)  # edit stamps of «Играю» and «Начать»
    games_finished: int = 0
    failed: int = 0  # answered without a toast (the bot's error path), nothing changed: pressed again
    newgame_failed: int = 0  # /newgame without a lobby within the timeout: sent again
    timed_out: int = 0  # not answered within the timeout: the chat stops playing
    rejected: int = 0  # answered with a toast, but not redrawn within the timeout: the chat stops
    unmatched: int = 0  # redrawn, but the press's delivery time is unknown


@dataclass
class Chat:
    chat_id: int
    host: FakeUser
    guest: FakeUser
    table: StoredMessage | None = None  # the running game's table; None: start a game


class Watcher:
    """One task follows ``tg.requests`` and queues each chat's successful calls (one waiter, not 100)."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg, self.seen = tg, len(tg.requests)
        self.queues: dict[int, asyncio.Queue[RecordedRequest]] = {}

    async def run(self) -> None:
        while True:
            await self.tg.wait_for(lambda s: len(s.requests) > self.seen, timeout=3600)
            new, self.seen = self.tg.requests[self.seen:], len(self.tg.requests)
            for request in new:
                queue = self.queues.get(request.params.get("chat_id", 0))
                if queue is not None and request.ok:
                    queue.put_nowait(request)

    def drain(self, chat_id: int) -> None:
        queue = self.queues.setdefault(chat_id, asyncio.Queue())
        while not queue.empty():
            queue.get_nowait()

    async def next(self, chat_id: int, method: str, timeout: float) -> RecordedRequest | None:
        """The chat's next successful call of ``method`` (others are skipped), or None."""
        queue, deadline = self.queues[chat_id], time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                request = await asyncio.wait_for(queue.get(), left)
            except TimeoutError:
                return None
            if request.method == method:
                return request
        return None


async def _press(tg: FakeTelegram, w: Watcher, chat: Chat, user: FakeUser, message: StoredMessage, data: str,
                 method: str, stats: Stats, timeout: float) -> tuple[RecordedRequest, int] | None:
    """Press until the bot makes the ``method`` call that follows (after a bare answer: again);
    that call and the press's update_id, or None when the chat has to stop."""
    while True:
        w.drain(chat.chat_id)
        handle = await tg.press(user, chat.chat_id, message.message_id, data)
        update_id = handle.update_id
        try:
            answer = await handle.wait(timeout)
        except TimeoutError:
            stats.timed_out += 1
            return None
        if not answer.get("text"):
            stats.failed += 1
            await asyncio.sleep(RETRY_S)
            continue
        done = await w.next(chat.chat_id, method, timeout)
        if done is None:
            stats.rejected += 1
            return None
        return done, update_id


async def _new_game(tg: FakeTelegram, w: Watcher, chat: Chat, stats: Stats, timeout: float, until: float) -> bool:
    """/newgame (again while no lobby comes, until ``until``), the guest joins, the host starts."""
    while True:
        w.drain(chat.chat_id)
        await tg.send_message(chat.host, chat.chat_id, f"/newgame {GAME}")
        posted = await w.next(chat.chat_id, "sendPhoto", min(timeout, max(1.0, until - tg.clock())))
        if posted is not None:
            break
        stats.newgame_failed += 1
        if tg.clock() >= until:
            return False
    lobby = tg.message(chat.chat_id, posted.response["result"]["message_id"])
    for user, label, method in ((chat.guest, "Играю", "editMessageCaption"), (chat.host, "Начать", "editMessageMedia")):
        pressed = await _press(tg, w, chat, user, lobby, lobby.button(label), method, stats, timeout)
        if pressed is None:
            return False
        stats.lobby_presses.append(pressed[0].at)
    stats.lobby_steps += 3
    chat.table = lobby
    return True


async def _play(tg: FakeTelegram, w: Watcher, chat: Chat, stats: Stats, until: float, timeout: float,
                think: float) -> None:
    """Press the first move button (``think`` ± 50 % after the redraw); a new game when one ends."""
    by_name = {chat.host.first_name: chat.host, chat.guest.first_name: chat.guest}
    jitter = random.Random(chat.chat_id)
    while tg.clock() < until:
        if think:
            await asyncio.sleep(think * jitter.uniform(0.5, 1.5))
        table = chat.table
        moves = [data for _, data in table.buttons if data and data.startswith("g:")] if table else []
        turn = TURN.search(table.caption or "") if table else None
        if table is None or not moves or turn is None:
            stats.games_finished += table is not None
            if not await _new_game(tg, w, chat, stats, timeout, until):
                return
            continue
        pressed = await _press(tg, w, chat, by_name[turn.group(1).strip()], table, moves[0], "editMessageMedia",
                               stats, timeout)
        if pressed is None:
            return  # this chat's state is unknown now: it stops playing
        edit, update_id = pressed
        delivered = tg.delivered_at.get(update_id)
        if delivered is None or update_id in stats.update_ids:
            stats.unmatched += 1
        else:
            stats.update_ids.add(update_id)
            stats.accepted.append((edit.at, (edit.at - delivered) * 1000))


def _tree(pid: int) -> list[int]:
    """``pid`` and every process below it (the bot's drawing workers)."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [pid]
    while todo:
        found.append(todo.pop())
        todo.extend(parents.get(found[-1], []))
    return found


def _proc(pid: int) -> dict[str, float]:
    """Memory (MB) and CPU seconds of the bot and the processes it started, from /proc: RSS and
    peak RSS (VmHWM) summed over the processes, which counts the pages a fork shares once per
    process; PSS shares them out, so its sum is what the processes take together. ``workers``:
    how many processes there are besides the bot."""
    rss = hwm = pss = cpu = 0.0
    tree = _tree(pid)
    for each in tree:
        try:
            status = Path(f"/proc/{each}/status").read_text()
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
            rollup = Path(f"/proc/{each}/smaps_rollup").read_text()
        except OSError:
            continue
        pss += sum(int(kb) for kb in re.findall(r"^Pss:\s+(\d+)", rollup, re.M)) / 1024
        mem = {k: int(v.split()[0]) / 1024 for k, v in re.findall(r"^(VmRSS|VmHWM):\s+(.+)$", status, re.M)}
        rss, hwm = rss + mem["VmRSS"], hwm + mem["VmHWM"]
        cpu += (int(fields[11]) + int(fields[12])) / TICK
    return {"rss_mb": round(rss, 1), "hwm_mb": round(hwm, 1), "pss_mb": round(pss, 1), "cpu_s": cpu,
            "workers": len(tree) - 1}


async def _quiet(pid: int, step: float = 0.2) -> float:
    """Seconds until the process's CPU use falls under 5 % over ``step`` (its start-up catch-up done)."""
    t0, cpu = time.monotonic(), _proc(pid)["cpu_s"]
    while time.monotonic() - t0 < 60:
        await asyncio.sleep(step)
        cpu, before = _proc(pid)["cpu_s"], cpu
        if cpu - before < 0.05 * step:
            break
    return round(time.monotonic() - t0 - step, 2)


async def _load(tg: FakeTelegram, pid: int, chats: list[Chat], seconds: float, timeout: float,
                think: float = 0.0, server: int | None = None) -> dict[str, Any]:
    """Every chat gets a table (starting over a second), then plays for ``seconds``. With ``think``
    0 it presses as soon as it is redrawn: saturation, where latency ≈ chats / throughput."""
    watcher = Watcher(tg)
    watching = asyncio.create_task(watcher.run())
    for chat in chats:
        watcher.drain(chat.chat_id)
    setup, t0 = Stats(), time.monotonic()

    async def first_game(k: int, chat: Chat) -> bool:
        await asyncio.sleep(k / len(chats))
        return await _new_game(tg, watcher, chat, setup, timeout, tg.clock() + 3 * timeout)

    ready = await asyncio.gather(*(first_game(k, c) for k, c in enumerate(chats) if c.table is None))
    setup_s, after_setup = time.monotonic() - t0, _proc(pid)
    with _measuring():
        stats, cpu0, start, server0 = Stats(), after_setup["cpu_s"], tg.clock(), _server_cpu(server)
        await asyncio.gather(*(_play(tg, watcher, c, stats, start + seconds, timeout, think) for c in chats))
    drained, end, server_cpu = tg.clock() - start - seconds, _proc(pid), _server_cpu(server) - server0
    watching.cancel()
    lat = sorted(ms for _, ms in stats.accepted)
    in_window = sum(at <= start + seconds for at, _ in stats.accepted)

    def pct(q: float) -> float | None:
        return round(lat[min(len(lat) - 1, int(q * len(lat)))], 1) if lat else None

    return {
        "chats": len(chats), "think_s": think, "setup_s": round(setup_s, 2), "setup_failed": ready.count(False),
        "hwm_after_setup_mb": after_setup["hwm_mb"], "seconds": seconds, "drain_s": round(drained, 2),
        "accepted_presses": len(lat), "presses_per_s": round(in_window / seconds, 1),
        "with_lobby_presses_per_s": round((in_window + sum(at <= start + seconds for at in stats.lobby_presses))
                                          / seconds, 1),
        "p50_ms": pct(0.5), "p95_ms": pct(0.95), "p99_ms": pct(0.99), "max_ms": pct(1.0),
        "games_finished": stats.games_finished, "lobby_steps": stats.lobby_steps,
        "failed_pressed_again": stats.failed, "newgame_failed": stats.newgame_failed + setup.newgame_failed,
        "setup_failed_presses": setup.failed, "timed_out": stats.timed_out + setup.timed_out,
        "rejected": stats.rejected + setup.rejected, "unmatched": stats.unmatched,
        "bot_cpu_pct": round(100 * (end["cpu_s"] - cpu0) / (seconds + drained)),
        "rss_mb": end["rss_mb"], "hwm_mb": end["hwm_mb"], "pss_mb": end["pss_mb"], "workers": end["workers"],
        **({} if server is None else {"server_cpu_pct": round(100 * server_cpu / (seconds + drained))}),
    }


@contextmanager
def _measuring() -> Iterator[None]:
    """No garbage collection in this process (the fake Bot API and the players) while a window is
    measured: a full collection of its heap paused the fake server for up to 180 ms at a time, and
    the press→edit stamps with it, in whichever backend's window it fell (collected before and after)."""
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        gc.unfreeze()
        gc.collect()


def _server_cpu(server: int | None) -> float:
    """CPU seconds of the PostgreSQL server's processes (0 when it is not ours to read)."""
    return 0.0 if server is None else _proc(server)["cpu_s"]


def _chats(tg: FakeTelegram, base: int, n: int) -> list[Chat]:
    out = []
    for k in range(n):
        host = tg.add_user(base * 10 + 2 * k + 1, f"Аня{k}")
        guest = tg.add_user(base * 10 + 2 * k + 2, f"Боря{k}")
        tg.add_chat(-base - k, creator=host.id)
        out.append(Chat(-base - k, host, guest))
    return out


async def _build_db(tg: FakeTelegram, database: str | Path, chats: list[Chat]) -> None:
    """A running game per chat, stored as GameFlow.start stores it; its table in the fake server is
    a placeholder photo with the keyboard the bot would draw (the bot redraws it on the first press)."""
    translator = Translator.load()
    spec = GAMES[GAME]
    engine = spec.engine
    options = engine.options_from_json(None)
    png = io.BytesIO()
    Image.new("RGB", (320, 320), "white").save(png, "PNG")
    store = await open_store(database)
    try:
        for chat in chats:
            seats = (Seat(0, chat.host.id, chat.host.first_name), Seat(1, chat.guest.id, chat.guest.first_name))
            game = await store.create_game(chat.chat_id, GAME, options.to_json(), new_seed(), seats[0], seats)
            state, events = engine.new_game(options, 2, game.seed)
            await store.save_move(Move(game.id, 0, state.to_json(), 0,
                                       [NewAction(None, "start", (), [e.to_json() for e in events])],
                                       deadline=time.time() + 60 * DEFAULT_TIMER))
            fresh = await store.game(game.id)
            assert fresh is not None and state.current_player is not None
            keyboard = texts.table_keyboard(Game(fresh, spec, options, state),
                                            lambda k, /, **a: translator.t("ru", k, **a))
            assert keyboard is not None
            message = tg.add_bot_photo(chat.chat_id, png.getvalue(), f"Ходит: {seats[state.current_player].name}",
                                       keyboard.to_dict())
            await store.set_message_id(game.id, message.message_id)
            await store.set_shown_version(game.id, fresh.version)  # as after the bot's own first draw
            chat.table = message
    finally:
        await store.close()


def bot_env(tg: FakeTelegram, database: str | Path) -> dict[str, str]:
    """The environment of `python -m bot` against ``tg`` on ``database``, the group window lifted: this
    bench measures what a press costs the bot, not what Telegram lets a group do (bench/crowd.py does)."""
    return default_env(tg, TOKEN, database, GROUP_MAX_RATE="1000000")


def _bot(tg: FakeTelegram, database: str | Path, log: Path) -> AbstractAsyncContextManager[tuple[int, float]]:
    """`python -m bot` on ``database`` (stderr to ``log``): its pid and the seconds until its first
    getUpdates; SIGTERM at the end."""
    return running_bot(tg, bot_env(tg, database), log)


async def _scenarios(tg: FakeTelegram, empty: str | Path, full: str | Path, folder: Path, seconds: float,
                     timeout: float, server: int | None) -> dict[str, Any]:
    """The three measurements on one backend: ``empty`` and ``full`` are two fresh databases."""
    r: dict[str, Any] = {}
    async with _bot(tg, empty, folder / "empty.log") as (pid, startup):
        r["startup_empty_s"] = round(startup, 3)
        chats = _chats(tg, 100_000, CHATS)
        r["load_empty_db"] = await _load(tg, pid, chats, seconds, timeout, server=server)
        for window, think in PACED.items():
            r[window] = await _load(tg, pid, chats, seconds, timeout, think=think, server=server)
    stored, t0 = _chats(tg, 200_000, STORED_GAMES), time.monotonic()
    await _build_db(tg, full, stored)
    r["build_db_s"] = round(time.monotonic() - t0, 2)
    async with _bot(tg, full, folder / "full.log") as (pid, startup):
        r["startup_1000_games_s"] = round(startup, 3)
        r["catch_up_1000_games_s"] = round(startup + await _quiet(pid), 2)  # re-arming the timers
        r["rss_idle_1000_games"] = _proc(pid)
        r["load_1000_games"] = await _load(tg, pid, stored[:CHATS], seconds, timeout, server=server)
    log = "".join(p.read_text() for p in folder.glob("*.log"))
    r["bot_log_tracebacks"], r["fake_server_violations"] = log.count("Traceback"), len(tg.violations)
    return r


async def _on_sqlite(folder: Path, seconds: float, timeout: float) -> dict[str, Any]:
    async with FakeTelegram(token=TOKEN, bot_username="LoadBot") as tg:
        r = await _scenarios(tg, folder / "empty.sqlite3", folder / "full.sqlite3", folder, seconds, timeout, None)
    return {**r, "durability": databases.SQLITE_DURABILITY}


async def _on_postgres(folder: Path, seconds: float, timeout: float) -> dict[str, Any]:
    if not os.environ.get(postgres_server.URL_VARIABLE) and postgres_server.server_programs() is None:
        return {"skipped": "PostgreSQL is not installed here (no pg_ctl, initdb) and "
                f"{postgres_server.URL_VARIABLE} is not set"}
    with databases.postgres_admin_url() as (admin, source):
        durability = {**await databases.postgres_durability(admin), "server": source}
        async with (FakeTelegram(token=TOKEN, bot_username="LoadBot") as tg,
                    databases.fresh_postgres(admin, "empty") as empty, databases.fresh_postgres(admin, "full") as full):
            r = await _scenarios(tg, empty, full, folder, seconds, timeout, databases.server_pid(admin))
    return {**r, "durability": durability}


async def _run(quick: bool) -> dict[str, Any]:
    """SQLite's figures at the top (as before PostgreSQL), PostgreSQL's under "postgres", then the targets."""
    seconds, timeout = (2.0, 5.0) if quick else (20.0, 10.0)  # quick: a smoke run checks the shape only
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sqlite").mkdir()
        (Path(tmp) / "postgres").mkdir()
        r = await _on_sqlite(Path(tmp) / "sqlite", seconds, timeout)
        r["postgres"] = await _on_postgres(Path(tmp) / "postgres", seconds, timeout)
    r["targets"] = load_report.targets(r)
    return r


def run(quick: bool) -> dict[str, Any]:
    """All three measurements on both backends; ``quick``: 2 s windows instead of 20 s."""
    results = asyncio.run(_run(quick))
    load_report.show(results)
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m bench.load", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="2 s load windows instead of 20 s (a smoke run)")
    parser.add_argument("--takeover", action="store_true", help="then the takeover after SIGKILL of the active "
                        "process, 10 times (bench/takeover.py; needs the bot's failover)")
    args = parser.parse_args()
    figures = run(args.quick)
    if args.takeover:
        from bench import takeover  # it imports this module

        figures["takeover"] = takeover.run()
    print(json.dumps(figures, indent=2, ensure_ascii=False))
