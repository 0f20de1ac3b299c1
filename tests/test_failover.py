"""Two `python -m bot` processes on one PostgreSQL database: one active (it holds
the instance lock and polls), one standby. The active one SIGKILLed at seeded moments while 10 groups
play, the other taking over each time within 10 s; SIGTERM hands over at once; an active instance that
loses its lock stops serving. Every stored game is the replay of its log: no action lost or doubled.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.__main__ import EXIT_LOST_LOCK
from bot.fake_telegram import FakeTelegram, FakeUser
from bot.instance import ACTIVE_LINE, INSTANCE_LOCK, STANDBY_LINE
from tests.backends import database_env, fetch, fresh_database
from tests.crash_steps import Press, check_history, check_replays, deal, play, press, table_of
from tests.process_steps import ROOT, TOKEN

GROUPS, KILLS, SEED = 10, 6, 2512
TAKEOVER_LIMIT_S = 10.0
BASE_CHAT = -100700


@dataclass
class Instance:
    """One `python -m bot` process; its log lines are read as they come, to know its role."""

    process: asyncio.subprocess.Process
    log: Path
    lines: list[str] = field(default_factory=list)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    reader: asyncio.Task[None] | None = None

    async def read(self) -> None:
        assert self.process.stderr is not None
        with self.log.open("a", encoding="utf-8") as out:
            async for raw in self.process.stderr:
                line = raw.decode(errors="replace")
                out.write(line)
                self.lines.append(line)
                self.changed.set()

    async def saw(self, text: str, timeout: float = 30) -> None:
        """Wait until the process has logged a line containing ``text``."""
        async with asyncio.timeout(timeout):
            while not any(text in line for line in self.lines):
                self.changed.clear()
                await self.changed.wait()

    def said(self, text: str) -> bool:
        return any(text in line for line in self.lines)


@dataclass
class Pair:
    """The two instances on one database; ``up`` is set while one of them is active."""

    tg: FakeTelegram
    database: str
    folder: Path
    up: asyncio.Event = field(default_factory=asyncio.Event)
    instances: list[Instance] = field(default_factory=list)
    started: int = 0
    kills: int = 0

    async def spawn(self) -> Instance:
        self.started += 1
        env = {**os.environ, "BOT_TOKEN": TOKEN, "BOT_API_BASE_URL": self.tg.base_url,
               "BOT_API_FILE_URL": self.tg.file_url, "LOG_LEVEL": "INFO", "PYTHONPATH": str(ROOT),
               "DRAW_PROCESSES": "0", **database_env(self.database),
               # the fake Bot API has no flood limit to keep: edits go out at once, none waits a minute
               "GROUP_MAX_RATE": "10000", "GROUP_RATE_PERIOD": "1", "OVERALL_MAX_RATE": "10000"}
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=self.folder, env=env,
                                                       stdout=asyncio.subprocess.DEVNULL,
                                                       stderr=asyncio.subprocess.PIPE)
        instance = Instance(process, self.folder / f"bot-{self.started}.log")
        instance.reader = asyncio.create_task(instance.read())
        self.instances.append(instance)
        return instance

    async def start_active(self) -> Instance:
        polls = self.tg.polls_started
        instance = await self.spawn()
        await instance.saw(ACTIVE_LINE)
        await self.tg.wait_for(lambda s: s.polls_started > polls, timeout=30)
        self.up.set()
        return instance

    async def start_standby(self) -> Instance:
        instance = await self.spawn()
        await instance.saw(STANDBY_LINE)
        return instance

    def active(self) -> Instance:
        (instance,) = [i for i in self.instances if i.process.returncode is None and i.said(ACTIVE_LINE)]
        return instance

    async def kill_active(self) -> float:
        """SIGKILL the active instance; the seconds until the other one polls Telegram."""
        victim, polls = self.active(), self.tg.polls_started
        loop = asyncio.get_running_loop()
        self.up.clear()
        self.kills += 1
        killed_at = loop.time()
        victim.process.send_signal(signal.SIGKILL)
        assert await victim.process.wait() == -signal.SIGKILL
        await self.tg.wait_for(lambda s: s.polls_started > polls, timeout=TAKEOVER_LIMIT_S + 5)
        took = loop.time() - killed_at
        self.up.set()
        return took

    async def stop(self) -> list[int | None]:
        """SIGTERM every instance still running (standbys first); their exit codes."""
        alive = [i for i in self.instances if i.process.returncode is None]
        for instance in sorted(alive, key=lambda i: i.said(ACTIVE_LINE)):
            instance.process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(instance.process.wait(), 30)
        for instance in self.instances:
            if instance.reader is not None:
                await instance.reader
        return [i.process.returncode for i in alive]


pytestmark = pytest.mark.tg(token=TOKEN, bot_username="SosediBot")  # FakeTelegram's arguments (tests/conftest.py)


@pytest.fixture
async def database(postgres_server: str) -> AsyncIterator[str]:
    async with fresh_database(postgres_server) as url:
        yield url


def groups(tg: FakeTelegram, count: int, base: int) -> dict[int, dict[str, FakeUser]]:
    chats = {}
    for k in range(count):
        chat_id = base - k
        a, b = tg.add_user(30_000 + 2 * k - base, f"Аня{k}"), tg.add_user(30_001 + 2 * k - base, f"Боря{k}")
        tg.add_chat(chat_id, "supergroup", creator=a.id)
        chats[chat_id] = {a.first_name: a, b.first_name: b}
    return chats


async def play_rounds(tg: FakeTelegram, pair: Pair, chat_id: int, players: dict[str, FakeUser],
                      done: asyncio.Event, stats: dict[str, int], history: list[Press]) -> None:
    """Play game after game («Ещё раунд») through the kills, until they are ``done`` and a game ends."""
    host = next(iter(players.values()))
    while not done.is_set():
        await play(tg, pair, chat_id, players, tg.clock() + 1, stats, history)  # type: ignore[arg-type]
        if still_playing(tg, chat_id):
            continue  # a second of the game played: look at ``done`` again
        await pair.up.wait()
        table = table_of(tg, chat_id)
        if table is not None and not done.is_set() and table.has_button("Начать"):
            # a kill between «Ещё раунд»'s new game and its deal: the new active one posts it as a
            # lobby with everyone seated, and the host starts it, as a person would
            await press(tg, pair, host, chat_id, table, "Начать")  # type: ignore[arg-type]
            stats["lobbies_started"] += 1
            continue
        result = tg.last_bot_message(chat_id)
        if not done.is_set() and result.has_button("🔁 Ещё раунд"):
            await press(tg, pair, host, chat_id, result, "🔁 Ещё раунд", history)  # type: ignore[arg-type]
            stats["rounds"] += 1
        with contextlib.suppress(TimeoutError):  # a press lost to a kill: look again
            await tg.wait_for(lambda s: still_playing(s, chat_id) or done.is_set(), timeout=3)


async def start_left_lobbies(tg: FakeTelegram, pair: Pair, chats: dict[int, dict[str, FakeUser]], database: str,
                             stats: dict[str, int]) -> None:
    """After the last round: a kill between «Ещё раунд»'s new game and its deal (the loop above may have
    stopped before the new active instance posted it) left a lobby with everyone seated; once it is
    posted, its host starts it, as a person would. Only games still in the lobby are started."""
    for row in await fetch(database, "SELECT chat_id FROM games WHERE status = 'lobby'"):
        chat_id = row[0]
        host = next(iter(chats[chat_id].values()))
        await tg.wait_for(lambda s, c=chat_id: (t := table_of(s, c)) is not None and t.has_button("Начать"),
                          timeout=15)
        await press(tg, pair, host, chat_id, table_of(tg, chat_id), "Начать")  # type: ignore[arg-type]
        stats["lobbies_started"] += 1


def answered(tg: FakeTelegram) -> int:
    """How many presses the bot has answered so far."""
    return sum(handle.answered for handle in tg.callbacks.values())


def still_playing(tg: FakeTelegram, chat_id: int) -> bool:
    table = table_of(tg, chat_id)
    return table is not None and any(label.startswith("🎲") for label, _ in table.buttons)


async def settle(tg: FakeTelegram, database: str) -> None:
    """Every update fetched, and every table showing its game's last move."""
    await tg.wait_for(lambda s: s.pending_updates_count() == 0, timeout=15)
    for _ in range(150):
        if not await fetch(database, "SELECT id FROM games WHERE shown_version < version"):
            return
        await asyncio.sleep(0.1)


async def test_the_standby_takes_over_each_time_the_active_one_is_killed(tg: FakeTelegram, database: str,
                                                                        tmp_path: Path) -> None:
    rng = random.Random(SEED)
    chats = groups(tg, GROUPS, BASE_CHAT)
    pair = Pair(tg, database, tmp_path)
    await pair.start_active()
    await pair.start_standby()
    takeovers: list[float] = []
    playing: list[int] = []  # presses made by each kill
    stats = {"presses": 0, "lost_to_a_kill": 0, "rounds": 0, "lobbies_started": 0}
    try:
        await deal(tg, pair, chats)  # type: ignore[arg-type]
        done = asyncio.Event()

        async def served() -> None:
            """Until the active instance has answered a press: a cold instance may need more than the
            shortest pause below for its first one (seen in CI: two kills with no press between them)."""
            before = answered(tg)
            await tg.wait_for(lambda s: answered(s) > before, timeout=TAKEOVER_LIMIT_S)

        async def killer() -> None:
            for _ in range(KILLS):
                await served()
                await asyncio.sleep(rng.uniform(0.3, 1.5))
                playing.append(stats["presses"])
                takeovers.append(await pair.kill_active())
                await pair.start_standby()  # the killed one's supervisor starts it again: the new standby
            await served()
            await asyncio.sleep(1.0)  # the groups play on after the last kill
            done.set()

        history: list[Press] = []
        await asyncio.gather(killer(), *(play_rounds(tg, pair, c, p, done, stats, history) for c, p in chats.items()))
        await start_left_lobbies(tg, pair, chats, database, stats)
        await settle(tg, database)
    finally:
        codes = await pair.stop()
    assert codes == [0, 0]  # the last standby and the last active one stop cleanly
    assert len(takeovers) == KILLS and max(takeovers) < TAKEOVER_LIMIT_S, takeovers
    # the groups played before each kill, between any two and after the last: every kill came mid-play
    assert playing[0] > 0 and all(a < b for a, b in itertools.pairwise([*playing, stats["presses"]])), playing
    actives = [i for i in pair.instances if i.said(ACTIVE_LINE)]
    assert len(actives) == KILLS + 1  # each kill made the waiting standby the active one
    games = await check_replays(database)  # no action lost, doubled or half-applied
    assert {g["chat"] for g in games} == set(chats) and len(games) > GROUPS  # rounds after rounds
    assert [(g["id"], g["version"], g["shown"]) for g in games if g["shown"] != g["version"]] == []
    assert stats["presses"] > 5 * GROUPS
    stats.update(await check_history(database, history))  # each accepted press once, no refused one applied
    assert stats["accepted"] >= 2 * GROUPS and stats["rematches"] >= GROUPS  # and each «Ещё раунд» one game
    for instance in pair.instances:
        assert not any("Traceback" in line or TOKEN in line for line in instance.lines)
    assert tg.violations == []
    print(f"\nfailover: takeovers {sorted(round(t, 2) for t in takeovers)} s, presses by each kill "
          f"{playing}, {stats}")


async def test_sigterm_hands_over_at_once(tg: FakeTelegram, database: str, tmp_path: Path) -> None:
    chats = groups(tg, 4, BASE_CHAT - 50)
    pair = Pair(tg, database, tmp_path)
    first = await pair.start_active()
    second = await pair.start_standby()
    try:
        await deal(tg, pair, chats)  # type: ignore[arg-type]
        handles = []
        for chat_id, players in chats.items():  # every group presses, and the active one is told to stop
            table = table_of(tg, chat_id)
            assert table is not None
            mover = players[(table.caption or "").rsplit("Ходит: ", 1)[-1].strip()]
            handles.append(await tg.press(mover, chat_id, table.message_id, table.buttons[0][1]))
        polls = tg.polls_started
        loop = asyncio.get_running_loop()
        asked = loop.time()
        first.process.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(first.process.wait(), 30) == 0  # drained and exited cleanly
        await tg.wait_for(lambda s: s.polls_started > polls, timeout=10)
        handed_over = loop.time() - asked
        await second.saw(ACTIVE_LINE)
        await tg.wait_for(lambda s: all(h.answered for h in handles), timeout=15)  # by one or the other
        await settle(tg, database)
    finally:
        await pair.stop()
    games = await check_replays(database)
    assert sorted(g["version"] for g in games) == [1] * len(chats)  # each press applied exactly once
    assert handed_over < 5, handed_over
    print(f"\nSIGTERM hand-over: {handed_over:.2f} s from the signal to the other instance polling")


async def test_an_active_instance_that_loses_its_lock_stops_serving(tg: FakeTelegram, database: str,
                                                                    tmp_path: Path) -> None:
    pair = Pair(tg, database, tmp_path)
    first = await pair.start_active()
    second = await pair.start_standby()
    polls = tg.polls_started
    try:
        (holder,) = await fetch(database, "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted "
                                          "AND objid = ? AND database = (SELECT oid FROM pg_database "
                                          "WHERE datname = current_database())", INSTANCE_LOCK)
        await fetch(database, "SELECT pg_terminate_backend(?)", holder[0])  # as a server restart would
        assert await asyncio.wait_for(first.process.wait(), 30) == EXIT_LOST_LOCK
        await second.saw(ACTIVE_LINE)
        await tg.wait_for(lambda s: s.polls_started > polls, timeout=10)
    finally:
        await pair.stop()
    assert first.said("lost the database's lock")
