"""A crowd of groups on the real `python -m bot` process with the settings a README reader gets.

Nothing is lifted: the bot runs with its default configuration (every variable it reads is left
unset, except the token, the Bot API address, the database and METRICS_PORT, which only serves
/metrics), and the fake Bot API server (in this process) enforces Telegram's 20 sends and edits in
any 60 s per group, answering 429 when the bot breaks it. 1,000 groups exist in the fake server.

1. Quiet: 200 of them play «Помоги своему соседу» at a human pace (a running game each, stored
   before the start as bench/load.py stores them; a new game by /newgame when one ends): each chat
   presses its next button 2–10 s (seeded) after its table was redrawn. Run twice, identically
   (same seed, fresh database, fresh fake server, fresh bot): without and with one more group whose
   member sends /help 600 times a minute (from the start). The window opens 12 s in, once every
   group has pressed once: a fresh bot's first pictures wait for its drawing processes to warm up
   (imports, fonts), up to 1.8 s each, a cost paid once per start, not per press.
   Press→answer: the press queued in the fake server -> the bot's answerCallbackQuery arriving; press
   →edit: the press -> the table's editMessageMedia arriving (moves only), over every press and over
   those made while the group's window had room (fewer than 20 sends and edits in the last 61 s:
   Telegram's minute plus the second the bot keeps apart). Accepted presses/s: moves answered with
   the dice thrown (the move stored) within the window. A group stalled when a press of it was not
   answered within 15 s (Telegram's limit for answerCallbackQuery) or a /newgame got no lobby in 15 s.
   A press never answered (or a move never redrawn) by the end of the drain enters the percentiles
   with the time it waited, so a p99 that falls on one is a lower bound.
2. Saturation: all 1,000 groups (a stored game each) press the moment their table is redrawn.
   A press counts as accepted when it is answered with the dice thrown: its move is stored, even if
   its table edit has to wait for the group's window; the player still waits for the redraw, as
   a person would, so a group makes at most ~20 redraws a minute and 1,000 of them are needed for
   150 presses/s. Measured after the first minute (each group's first 20 come at once; the rate
   after that is the one that lasts).

Also: the 429s the fake server answered (by method), the replies the bot dropped (any metric
named *dropped* on its /metrics; «n/a» while it has none), the bot's RSS with its drawing processes.
On SQLite and on PostgreSQL (bench/databases.py). Targets and the table: bench/crowd_report.py.
`python -m bench.crowd [--quick] [--backend sqlite|postgres|both]`: a full run writes its figures
into bench/results.json under "crowd", a quick one into bench/results-quick.json.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sys
import tempfile
import time
from collections import Counter, deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

from bench import crowd_report, databases
from bench.bot_process import default_env, running_bot
from bench.load import GAME, TURN, Chat, _build_db, _chats, _measuring, _proc, _quiet
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.fake_telegram.methods import RATE_LIMITED
from bot.fake_telegram.models import RecordedRequest
from tests import postgres_server

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
QUICK_RESULTS = RESULTS.with_name("results-quick.json")
TOKEN = "778:CROWD-bench-token-00000000000000000"
SEED = 42
GROUP_LIMIT, GROUP_PERIOD = 20, 60.0  # Telegram's: sends and edits in any minute, per group
ROOM_PERIOD_S = GROUP_PERIOD + 1  # the bot keeps its calls a second further apart than Telegram counts
THINK_S = (2.0, 10.0)  # a person's pause after the table was redrawn
STALL_S = 15.0  # Telegram drops a callback query not answered within this; a lobby this late is lost too
RETRY_S = 0.25  # a press refused (not the dice) is tried again after this
DICE = "🎲"  # «Соседи» throws dice on every move: the toast of an accepted press starts with them
FLOOD_PER_MIN = 600


@dataclass
class Mode:
    """How big and how long: the full run, or a smoke run."""

    groups: int  # that exist
    quiet: int  # of them playing at a human pace
    quiet_s: float
    saturated: int  # groups pressing as fast as they can
    lead_s: float  # human pace: playing before the measured window (every group has pressed once by then)
    warm_s: float  # saturation: pressing before the measured window
    window_s: float
    drain_s: float  # after a window: what was pressed in it may still be answered and redrawn


FULL = Mode(groups=1000, quiet=200, quiet_s=90.0, saturated=1000, lead_s=12.0, warm_s=60.0, window_s=60.0,
            drain_s=30.0)
QUICK = Mode(groups=200, quiet=40, quiet_s=20.0, saturated=100, lead_s=10.0, warm_s=5.0, window_s=10.0, drain_s=15.0)


@dataclass
class Tally:
    """What the scripted players saw in one run."""

    answer_ms: list[float] = field(default_factory=list)  # press -> answer, every press made in the window
    edit_ms: list[tuple[float, bool]] = field(default_factory=list)  # press -> table edit, and whether there was room
    accepted: list[float] = field(default_factory=list)  # answer stamps of moves answered with the dice
    lobby: list[float] = field(default_factory=list)  # answer stamps of «Играю» and «Начать»
    refused: int = 0  # answered, but not with the dice (stale, not your turn, the error path): pressed again
    late: int = 0  # answered after STALL_S
    unanswered: int = 0  # not answered by the end of the drain
    no_redraw: int = 0  # accepted, but the table was not redrawn by the end of the drain
    no_lobby: int = 0  # a /newgame with no lobby by the end of the drain
    stalled: set[int] = field(default_factory=set)  # groups with a press late or lost, or a lobby late or lost
    games_finished: int = 0


class Watcher:
    """Follows ``tg.requests``: each chat's successful calls queued, each answer's stamp, each
    group's sends and edits (for its window), the 429s; uploads are let go once seen."""

    def __init__(self, tg: FakeTelegram) -> None:
        self.tg, self.seen = tg, len(tg.requests)
        self.queues: dict[int, asyncio.Queue[RecordedRequest]] = {}
        self.answers: dict[str, RecordedRequest] = {}
        self.waiting: dict[str, asyncio.Future[RecordedRequest]] = {}
        self.sent: dict[int, deque[float]] = {}
        self.too_many: Counter[tuple[str, int]] = Counter()  # (method, chat_id) -> 429s

    async def run(self) -> None:
        while True:
            await self.tg.wait_for(lambda s: len(s.requests) > self.seen, timeout=3600)
            new, self.seen = self.tg.requests[self.seen:], len(self.tg.requests)
            for request in new:
                self._note(request)

    def _note(self, request: RecordedRequest) -> None:
        request.files.clear()  # a table's picture is ~30 KB: thousands would pile up here
        if request.http_status == 429:
            self.too_many[request.method, request.params.get("chat_id", 0)] += 1
        if not request.ok:
            return
        if request.method == "answerCallbackQuery":
            query = str(request.params.get("callback_query_id"))
            self.answers.setdefault(query, request)
            waiter = self.waiting.pop(query, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(request)
            return
        chat_id = request.params.get("chat_id", 0)
        if request.method in RATE_LIMITED:
            self.sent.setdefault(chat_id, deque()).append(request.at)
        queue = self.queues.get(chat_id)
        if queue is not None:
            queue.put_nowait(request)

    def room(self, chat_id: int, now: float) -> bool:
        """Whether the group's window has room for one more send or edit now."""
        sent = self.sent.get(chat_id, deque())
        while sent and sent[0] <= now - ROOM_PERIOD_S:
            sent.popleft()
        return len(sent) < GROUP_LIMIT

    def drain(self, chat_id: int) -> None:
        queue = self.queues.setdefault(chat_id, asyncio.Queue())
        while not queue.empty():
            queue.get_nowait()

    async def next(self, chat_id: int, method: str, until: float) -> RecordedRequest | None:
        """The chat's next successful call of ``method`` before the clock reaches ``until``, or None."""
        queue = self.queues[chat_id]
        while (left := until - self.tg.clock()) > 0:
            try:
                request = await asyncio.wait_for(queue.get(), left)
            except TimeoutError:
                return None
            if request.method == method:
                return request
        return None

    async def answer(self, query_id: str, until: float) -> RecordedRequest | None:
        """The answerCallbackQuery of ``query_id`` once it arrives (before ``until``), or None."""
        if query_id in self.answers:
            return self.answers[query_id]
        waiter = self.waiting.setdefault(query_id, asyncio.get_running_loop().create_future())
        try:
            return await asyncio.wait_for(asyncio.shield(waiter), max(0.0, until - self.tg.clock()))
        except TimeoutError:
            return None


@dataclass
class Run:
    """One run's shared state: the server, the watcher, the window and what was seen."""

    tg: FakeTelegram
    w: Watcher
    start: float  # presses are measured from here
    end: float  # presses stop here
    until: float  # waits end here (end + drain)
    think: tuple[float, float] | None  # None: press the moment the table is redrawn
    tally: Tally = field(default_factory=Tally)


def _never(run: Run, pressed: float, room: bool, *, answered: bool, move: bool) -> None:
    """A press of the window not answered (or a move not redrawn) by the end of the drain counts
    as late as it waited: a percentile that falls on it is a lower bound, not a press left out."""
    if not run.start <= pressed < run.end:
        return
    waited = (run.until - pressed) * 1000
    if not answered:
        run.tally.answer_ms.append(waited)
    if move:
        run.tally.edit_ms.append((waited, room))


async def _press(run: Run, chat: Chat, user: FakeUser, message: StoredMessage, data: str,
                 method: str | None) -> tuple[RecordedRequest, RecordedRequest | None] | None:
    """One press: its answer, and (when ``method`` is given and the press was accepted) the chat's
    next ``method`` call after it; None when the chat cannot go on. Latencies go to the tally."""
    tg, w, t = run.tg, run.w, run.tally
    w.drain(chat.chat_id)
    pressed = tg.clock()
    room = w.room(chat.chat_id, pressed)
    handle = await tg.press(user, chat.chat_id, message.message_id, data)
    answer = await w.answer(handle.query_id, run.until)
    counted = run.start <= pressed < run.end
    if answer is None:
        t.unanswered += 1
        t.stalled.add(chat.chat_id)
        _never(run, pressed, room, answered=False, move=method == "editMessageMedia")
        return None
    if counted:
        t.answer_ms.append((answer.at - pressed) * 1000)
    if answer.at - pressed > STALL_S:
        t.late += 1
        t.stalled.add(chat.chat_id)
    if method is None:
        return answer, None
    if method == "editMessageMedia" and not str(answer.params.get("text") or "").startswith(DICE):
        t.refused += 1
        await asyncio.sleep(RETRY_S)
        return answer, None
    if method == "editMessageMedia":
        t.accepted.append(answer.at)
    done = await w.next(chat.chat_id, method, run.until)
    if done is None:
        t.no_redraw += 1
        _never(run, pressed, room, answered=True, move=method == "editMessageMedia")
        return None
    if counted and method == "editMessageMedia":
        t.edit_ms.append(((done.at - pressed) * 1000, room))
    return answer, done


async def _pause(run: Run, rng: random.Random) -> None:
    if run.think is not None:
        await asyncio.sleep(rng.uniform(*run.think))


async def _new_game(run: Run, chat: Chat, rng: random.Random) -> bool:
    """/newgame, the guest joins, the host starts (a person's pause before each press)."""
    tg, w, t = run.tg, run.w, run.tally
    w.drain(chat.chat_id)
    sent = tg.clock()
    await tg.send_message(chat.host, chat.chat_id, f"/newgame {GAME}")
    posted = await w.next(chat.chat_id, "sendPhoto", run.until)
    if posted is None:
        t.no_lobby += 1
        t.stalled.add(chat.chat_id)
        return False
    if posted.at - sent > STALL_S:
        t.stalled.add(chat.chat_id)
    lobby = tg.message(chat.chat_id, posted.response["result"]["message_id"])
    for user, label, method in ((chat.guest, "Играю", "editMessageCaption"), (chat.host, "Начать", "editMessageMedia")):
        await _pause(run, rng)
        if tg.clock() >= run.end:
            return False
        pressed = await _press(run, chat, user, lobby, lobby.button(label), None)
        if pressed is None:
            return False
        t.lobby.append(pressed[0].at)
        if await w.next(chat.chat_id, method, run.until) is None:
            t.no_redraw += 1
            return False
    chat.table = lobby
    return True


async def _player(run: Run, chat: Chat) -> None:
    """Press the first move button after a pause (none when saturating); a new game when one ends."""
    by_name = {chat.host.first_name: chat.host, chat.guest.first_name: chat.guest}
    rng = random.Random(SEED * 1_000_003 + chat.chat_id)
    while True:
        await _pause(run, rng)
        if run.tg.clock() >= run.end:
            return
        table = chat.table
        moves = [data for _, data in table.buttons if data and data.startswith("g:")] if table else []
        turn = TURN.search(table.caption or "") if table else None
        if table is None or not moves or turn is None:
            run.tally.games_finished += table is not None
            chat.table = None
            if not await _new_game(run, chat, rng):
                return
            continue
        if await _press(run, chat, by_name[turn.group(1).strip()], table, moves[0], "editMessageMedia") is None:
            return  # its state is unknown now: this chat stops


async def _flood(tg: FakeTelegram, member: FakeUser, chat_id: int, end: float) -> int:
    """``member`` sends /help FLOOD_PER_MIN times a minute in ``chat_id`` until ``end``; how many."""
    sent, t0, step = 0, tg.clock(), 60.0 / FLOOD_PER_MIN
    while tg.clock() < end:
        await tg.send_message(member, chat_id, "/help")
        sent += 1
        await asyncio.sleep(max(0.0, t0 + sent * step - tg.clock()))
    return sent


def bot_env(tg: FakeTelegram, database: str | Path, metrics_port: int) -> dict[str, str]:
    """The environment of `python -m bot`: none of its settings set (their defaults, as a README
    reader gets them), but the token, the fake server's address, the database and the metrics port."""
    return default_env(tg, TOKEN, database, METRICS_PORT=str(metrics_port))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def dropped_replies(port: int) -> dict[str, float] | None:
    """The bot's metrics named *dropped* (summed over their labels), or None when it has none."""
    try:
        async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}/metrics") as response:
            text = await response.text()
    except aiohttp.ClientError:
        return None
    found: dict[str, float] = {}
    for line in text.splitlines():
        name = line.split("{", 1)[0].split(" ", 1)[0]
        if line.startswith("#") or "dropped" not in name or name.endswith("_created"):
            continue
        found[name] = found.get(name, 0.0) + float(line.rsplit(" ", 1)[1])
    return found or None


def _pct(values: list[float], q: float) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered else None


def _by_method(too_many: Counter[tuple[str, int]]) -> dict[str, int]:
    by: Counter[str] = Counter()
    for (method, _), n in too_many.items():
        by[method] += n
    return dict(by)


def _figures(run: Run, seconds: float, quiet: set[int]) -> dict[str, Any]:
    """The run's figures for the groups in ``quiet``: latencies of the presses made in the window,
    rates of the answers stamped in it."""
    t = run.tally
    edits = [ms for ms, _ in t.edit_ms]
    roomy = [ms for ms, room in t.edit_ms if room]
    moves = sum(run.start <= at < run.end for at in t.accepted)
    lobby = sum(run.start <= at < run.end for at in t.lobby)
    too_many = run.w.too_many
    return {
        "seconds": seconds, "presses": len(t.answer_ms),
        "answer_p50_ms": _pct(t.answer_ms, 0.5), "answer_p99_ms": _pct(t.answer_ms, 0.99),
        "answer_max_ms": _pct(t.answer_ms, 1.0),
        "edit_p50_ms": _pct(edits, 0.5), "edit_p99_ms": _pct(edits, 0.99), "edit_max_ms": _pct(edits, 1.0),
        "edits_with_room": len(roomy), "edits_without_room": len(edits) - len(roomy),
        "edit_room_p50_ms": _pct(roomy, 0.5), "edit_room_p99_ms": _pct(roomy, 0.99),
        "accepted_presses_per_s": round(moves / seconds, 1),
        "with_lobby_presses_per_s": round((moves + lobby) / seconds, 1),
        "refused_pressed_again": t.refused, "answered_late": t.late, "unanswered": t.unanswered,
        "no_redraw": t.no_redraw, "no_lobby": t.no_lobby, "games_finished": t.games_finished,
        "stalled_groups": len(t.stalled & quiet),
        "http_429": sum(too_many.values()),
        "http_429_quiet": sum(n for (_, chat), n in too_many.items() if chat in quiet),
        "http_429_by_method": _by_method(too_many),
    }


async def _scenario(tg: FakeTelegram, database: str | Path, folder: Path, mode: Mode, name: str) -> dict[str, Any]:
    """One run on a fresh database and fake server: ``quiet``, ``flood`` or ``saturation``."""
    saturate = name == "saturation"
    tg.enforce_group_rate(GROUP_LIMIT, GROUP_PERIOD)
    everyone = _chats(tg, 300_000, mode.groups)
    players = everyone[:mode.saturated] if saturate else everyone[:mode.quiet]
    await _build_db(tg, database, players)
    flooded = tg.add_chat(-299_999, creator=everyone[0].host.id)
    member = tg.add_user(2_999_990, "Флуд")
    port = _free_port()
    async with running_bot(tg, bot_env(tg, database, port), folder / f"{name}.log") as (pid, _):
        caught_up = await _quiet(pid)  # the start-up catch-up of the stored games, before the clock starts
        w = Watcher(tg)
        watching = asyncio.create_task(w.run())
        seconds = mode.window_s if saturate else mode.quiet_s
        lead = mode.warm_s if saturate else mode.lead_s
        start = tg.clock()
        run = Run(tg, w, start + lead, start + lead + seconds, start + lead + seconds + mode.drain_s,
                  None if saturate else THINK_S)
        with _measuring():
            cpu0 = _proc(pid)["cpu_s"]
            flood = asyncio.create_task(_flood(tg, member, flooded.id, run.end)) if name == "flood" else None
            await asyncio.gather(*(_player(run, chat) for chat in players))
            flood_sent = await flood if flood is not None else 0
            used = _proc(pid)
        dropped = await dropped_replies(port)
        watching.cancel()
    figures = _figures(run, seconds, {c.chat_id for c in players})
    log = "".join(p.read_text() for p in folder.glob(f"{name}.log"))
    replies = sum(r.ok and r.method == "sendMessage" and r.params.get("chat_id") == flooded.id for r in tg.requests)
    return {
        "groups": mode.groups, "playing": len(players), "think_s": None if saturate else list(THINK_S),
        "before_window_s": lead, **figures,
        **({"flood_commands": flood_sent, "flood_replies": replies} if name == "flood" else {}),
        "dropped_replies": dropped if dropped is not None else "n/a",
        "rss_mb": used["rss_mb"], "pss_mb": used["pss_mb"], "hwm_mb": used["hwm_mb"], "workers": used["workers"],
        "bot_cpu_pct": round(100 * (used["cpu_s"] - cpu0) / max(1e-9, tg.clock() - start)),
        "catch_up_s": caught_up, "bot_log_tracebacks": log.count("Traceback"),
        "fake_server_violations": len(tg.violations),
    }


@asynccontextmanager
async def _fresh(backend: str, folder: Path, admin: str | None, label: str) -> AsyncIterator[str | Path]:
    """A new empty database for one run."""
    if backend == "sqlite":
        yield folder / f"{label}.sqlite3"
        return
    assert admin is not None
    async with databases.fresh_postgres(admin, f"crowd_{label}") as url:
        yield url


async def _backend(backend: str, folder: Path, mode: Mode, admin: str | None) -> dict[str, Any]:
    """The three runs on one backend, each with a fake server, a database and a bot of its own."""
    out: dict[str, Any] = {}
    for name in ("quiet", "flood", "saturation"):
        async with FakeTelegram(token=TOKEN, bot_username="CrowdBot") as tg, _fresh(backend, folder, admin, name) as db:
            print(f"crowd: {backend} {name} …", file=sys.stderr, flush=True)
            t0 = time.monotonic()
            out[name] = await _scenario(tg, db, folder, mode, name)
            out[name]["wall_s"] = round(time.monotonic() - t0, 1)
    return out


async def _on_postgres(folder: Path, mode: Mode) -> dict[str, Any]:
    if not os.environ.get(postgres_server.URL_VARIABLE) and postgres_server.server_programs() is None:
        return {"skipped": "PostgreSQL is not installed here (no pg_ctl, initdb) and "
                f"{postgres_server.URL_VARIABLE} is not set"}
    with databases.postgres_admin_url() as (admin, source):
        durability = {**await databases.postgres_durability(admin), "server": source}
        r = await _backend("postgres", folder, mode, admin)
    return {**r, "durability": durability}


async def _run(quick: bool, backends: tuple[str, ...]) -> dict[str, Any]:
    mode = QUICK if quick else FULL
    r: dict[str, Any] = {"mode": "quick" if quick else "full", "flood_per_min": FLOOD_PER_MIN,
                         "group_limit": f"{GROUP_LIMIT} in {GROUP_PERIOD:g} s", "seed": SEED}
    with tempfile.TemporaryDirectory() as tmp:
        for backend in databases.BACKENDS:
            (Path(tmp) / backend).mkdir()
            if backend not in backends:
                r[backend] = {"skipped": f"not run (--backend {'/'.join(backends)})"}
            elif backend == "sqlite":
                r[backend] = {**await _backend("sqlite", Path(tmp) / backend, mode, None),
                              "durability": databases.SQLITE_DURABILITY}
            else:
                r[backend] = await _on_postgres(Path(tmp) / backend, mode)
    r["targets"] = crowd_report.targets(r)
    return r


def run(quick: bool = False, backends: tuple[str, ...] = databases.BACKENDS) -> dict[str, Any]:
    """Quiet, flood and saturation runs on each of ``backends``; printed, and returned."""
    results = asyncio.run(_run(quick, backends))
    crowd_report.show(results)
    return results


def write(results: dict[str, Any], out: Path) -> None:
    """Put ``results`` under "crowd" in ``out``, keeping the other benchmarks' figures there."""
    figures = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {}
    figures["crowd"] = results
    out.write_text(json.dumps(figures, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.crowd", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="200 groups, 40 playing, 20 s runs (a smoke run)")
    parser.add_argument("--backend", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--out", type=Path, default=None, help=f"where to write (default: bench/{RESULTS.name}, "
                        f"with --quick bench/{QUICK_RESULTS.name})")
    args = parser.parse_args(argv)
    out = args.out or (QUICK_RESULTS if args.quick else RESULTS)
    if args.quick and out.resolve() == RESULTS.resolve():
        parser.error(f"--quick does not write {RESULTS.name}: its figures are the full run's")
    backends = databases.BACKENDS if args.backend == "both" else (args.backend,)
    write(run(args.quick, backends), out)
    print(f"\nwritten under \"crowd\" in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
