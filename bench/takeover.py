"""Takeover after a SIGKILL: two `python -m bot` processes on one PostgreSQL database, one active
(holding the database's lock, polling), one standby (waiting for the lock).

Each process says which it is on stderr, in a line containing «instance is active» or «instance is
standby». While 10 chats play «Соседи» (each pressing 0.2 s ± 50 % after its table is redrawn), the
active one is killed with SIGKILL; the takeover time is from the kill to the first accepted press
(answered with a toast, then the table redrawn) among the presses made after the kill, which only the
other process can have handled. A new process is started as the new standby, and again: 10 kills,
p50 and max. A bot without failover logs no such line: the result says "no takeover: …".

`python -m bench.takeover`, or `python -m bench.load --takeover` (after the load figures).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench import databases
from bench.load import TOKEN, TURN, Chat, Stats, Watcher, _chats, _new_game, bot_env
from bot.fake_telegram import FakeTelegram
from tests import postgres_server

KILLS, CHATS, THINK_S = 10, 10, 0.2
ROLES = ("active", "standby")
ROLE_S = 20.0  # a process running (polling or not) this long without saying its role has no failover
TAKEOVER_S = 60.0  # no accepted press this long after the kill: no takeover
ANSWER_S = 60.0  # a press waits this long for its answer (its update goes to whichever process polls)
WARM_PRESSES = 20  # accepted presses between a new standby's arrival and the next kill


@dataclass
class Instance:
    """One bot process, its stderr copied to ``log`` and watched for the role it announces."""

    process: asyncio.subprocess.Process
    log: Path
    clock: Any
    role: str | None = None
    role_at: float = 0.0  # the clock when it last said its role
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        assert self.process.stderr is not None
        with self.log.open("ab") as out:
            async for line in self.process.stderr:
                out.write(line)
                text = line.decode(errors="replace")
                for role in ROLES:
                    if f"instance is {role}" in text:
                        self.role, self.role_at = role, self.clock()
                        self.changed.set()
        self.changed.set()  # the process ended

    async def wait_role(self, role: str, timeout: float) -> bool:
        """Whether it says it is ``role`` within ``timeout`` (False at once once it has ended)."""
        deadline = time.monotonic() + timeout
        while self.role != role:
            left = deadline - time.monotonic()
            if self.process.returncode is not None or left <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except TimeoutError:
                return False
        return True


@dataclass
class Presses:
    """(pressed, redrawn) clock times of every accepted press; ``added`` is set at each new one."""

    done: list[tuple[float, float]] = field(default_factory=list)
    added: asyncio.Event = field(default_factory=asyncio.Event)
    stalled: int = 0  # chats that stopped: a press or a new game got nowhere within the timeouts

    def first_after(self, t: float) -> float | None:
        return min((edit for pressed, edit in self.done if pressed > t), default=None)


async def _player(tg: FakeTelegram, w: Watcher, chat: Chat, presses: Presses, stop: asyncio.Event) -> None:
    """Press the first move button (``THINK_S`` ± 50 % after the redraw); a new game when one ends."""
    by_name = {chat.host.first_name: chat.host, chat.guest.first_name: chat.guest}
    jitter = random.Random(chat.chat_id)
    while not stop.is_set():
        await asyncio.sleep(THINK_S * jitter.uniform(0.5, 1.5))
        table = chat.table
        moves = [data for _, data in table.buttons if data and data.startswith("g:")] if table else []
        turn = TURN.search(table.caption or "") if table else None
        if table is None or not moves or turn is None:
            if not await _new_game(tg, w, chat, Stats(), ANSWER_S, tg.clock() + ANSWER_S):
                presses.stalled += 1
                return
            continue
        w.drain(chat.chat_id)
        pressed_at = tg.clock()
        handle = await tg.press(by_name[turn.group(1).strip()], chat.chat_id, table.message_id, moves[0])
        try:
            answer = await handle.wait(ANSWER_S)
        except TimeoutError:
            presses.stalled += 1
            return
        edit = await w.next(chat.chat_id, "editMessageMedia", ANSWER_S) if answer.get("text") else None
        if edit is not None:
            presses.done.append((pressed_at, edit.at))
            presses.added.set()


async def _until(presses: Presses, predicate: Any, timeout: float) -> bool:
    """Whether ``predicate()`` holds within ``timeout``, checked at each accepted press."""
    deadline = time.monotonic() + timeout
    while not predicate():
        presses.added.clear()
        try:
            await asyncio.wait_for(presses.added.wait(), deadline - time.monotonic())
        except (TimeoutError, ValueError):
            return False
    return True


class Fleet:
    """The bot processes of one run, all on ``url`` against ``tg``; every one ended at the end."""

    def __init__(self, tg: FakeTelegram, url: str, folder: Path) -> None:
        self.tg, self.url, self.folder = tg, url, folder
        self.instances: list[Instance] = []
        self.readers: list[asyncio.Task[None]] = []

    async def start(self) -> Instance:
        log = self.folder / f"bot{len(self.instances)}.log"
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=self.folder, env=bot_env(self.tg, self.url),
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
        instance = Instance(process, log, self.tg.clock)
        self.instances.append(instance)
        self.readers.append(asyncio.create_task(instance.read()))
        return instance

    def alive(self, role: str) -> list[Instance]:
        return [i for i in self.instances if i.process.returncode is None and i.role == role]

    async def close(self) -> None:
        for instance in self.instances:
            if instance.process.returncode is None:
                instance.process.send_signal(signal.SIGTERM)
        for instance in self.instances:
            try:
                await asyncio.wait_for(instance.process.wait(), 30)
            except TimeoutError:
                instance.process.kill()
                await instance.process.wait()
        await asyncio.gather(*self.readers, return_exceptions=True)

    def tracebacks(self) -> int:
        return sum(i.log.read_text(errors="replace").count("Traceback") for i in self.instances if i.log.exists())


async def _pair(fleet: Fleet) -> str | None:
    """Start the active process and a standby; why not, when they do not say so."""
    first = await fleet.start()
    if not await first.wait_role("active", ROLE_S):
        return (f"the first process did not log «instance is active» within {ROLE_S:.0f} s (role seen: "
                f"{first.role}, exit code {first.process.returncode}): this bot has no failover")
    second = await fleet.start()
    if not await second.wait_role("standby", ROLE_S):
        return f"the second process did not log «instance is standby» within {ROLE_S:.0f} s (role seen: {second.role})"
    return None


async def _first_poll(tg: FakeTelegram, polls: int) -> float:
    """The clock when the next getUpdates after the ``polls``-th arrives (only the survivor can send it)."""
    await tg.wait_for(lambda t: t.polls_started > polls, timeout=TAKEOVER_S)
    return tg.clock()


async def _kill_once(fleet: Fleet, presses: Presses) -> tuple[dict[str, float] | None, str | None]:
    """SIGKILL the active process while the chats press; the takeover's figures, or why there was none."""
    actives, standbys = fleet.alive("active"), fleet.alive("standby")
    if len(actives) != 1 or len(standbys) != 1:
        return None, f"{len(actives)} processes say they are active and {len(standbys)} standby, not one each"
    [active], [standby] = actives, standbys
    warm = len(presses.done) + WARM_PRESSES
    if not await _until(presses, lambda: len(presses.done) >= warm, TAKEOVER_S):
        return None, f"the chats got fewer than {WARM_PRESSES} presses through in {TAKEOVER_S:.0f} s before a kill"
    killed_at, polls = fleet.tg.clock(), fleet.tg.polls_started
    polled = asyncio.create_task(_first_poll(fleet.tg, polls))
    active.process.kill()
    await active.process.wait()
    if not await _until(presses, lambda: presses.first_after(killed_at) is not None, TAKEOVER_S):
        return None, (f"no press accepted within {TAKEOVER_S:.0f} s of killing the active process (the standby "
                      f"says {standby.role!r})")
    first = presses.first_after(killed_at)
    assert first is not None
    if not await standby.wait_role("active", 5.0):
        return None, "presses went through after the kill, but the standby never logged «instance is active»"
    figures = {"takeover_s": round(first - killed_at, 3), "role_line_s": round(standby.role_at - killed_at, 3),
               "first_poll_s": round(await polled - killed_at, 3)}
    newcomer = await fleet.start()
    if not await newcomer.wait_role("standby", ROLE_S):
        return figures, f"the new process did not log «instance is standby» within {ROLE_S:.0f} s"
    return figures, None


async def _run_on(admin_url: str, folder: Path, kills: int) -> dict[str, Any]:
    r: dict[str, Any] = {"kills": 0, "takeover_s": [], "role_line_s": [], "first_poll_s": [], "no_takeover": None}
    async with (databases.fresh_postgres(admin_url, "takeover") as url,
                FakeTelegram(token=TOKEN, bot_username="LoadBot") as tg):
        fleet, presses, stop = Fleet(tg, url, folder), Presses(), asyncio.Event()
        players: list[asyncio.Task[None]] = []
        try:
            r["no_takeover"] = await _pair(fleet)
            watcher = Watcher(tg)
            players = [asyncio.create_task(watcher.run())]
            players += [asyncio.create_task(_player(tg, watcher, chat, presses, stop))
                        for chat in _chats(tg, 300_000, CHATS)]
            while r["no_takeover"] is None and r["kills"] < kills:
                figures, r["no_takeover"] = await _kill_once(fleet, presses)
                if figures is not None:
                    r["kills"] += 1
                    r["takeover_s"].append(figures["takeover_s"])
                    r["role_line_s"].append(figures["role_line_s"])
                    r["first_poll_s"].append(figures["first_poll_s"])
        finally:
            stop.set()
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            await fleet.close()
        r.update(accepted_presses=len(presses.done), stalled_chats=presses.stalled, processes=len(fleet.instances),
                 bot_log_tracebacks=fleet.tracebacks(), fake_server_violations=len(tg.violations))
    return r


async def _run(kills: int) -> dict[str, Any]:
    if not os.environ.get(postgres_server.URL_VARIABLE) and postgres_server.server_programs() is None:
        return {"kills": 0, "no_takeover": "PostgreSQL is not installed here and "
                f"{postgres_server.URL_VARIABLE} is not set"}
    with tempfile.TemporaryDirectory() as tmp, databases.postgres_admin_url() as (admin, _source):
        r = await _run_on(admin, Path(tmp), kills)
    times = r.get("takeover_s") or []
    r["p50_s"] = round(statistics.median(times), 3) if times else None
    r["max_s"] = max(times) if times else None
    return r


def show(r: dict[str, Any]) -> None:
    if r["kills"]:
        print(f"\ntakeover after SIGKILL: {r['kills']} kills, first accepted press by the other process p50 "
              f"{r['p50_s']} s, max {r['max_s']} s; its «instance is active» line after {r['role_line_s']} s, its "
              f"first getUpdates after {r['first_poll_s']} s")
    if r["no_takeover"]:
        print(f"\nno takeover: {r['no_takeover']}")


def run(kills: int = KILLS) -> dict[str, Any]:
    """``kills`` SIGKILLs of the active process; the takeover times' p50 and max, or why there were none."""
    results = asyncio.run(_run(kills))
    show(results)
    return results


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else KILLS), indent=2, ensure_ascii=False))
