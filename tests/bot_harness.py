"""The real bot (PTB Application from build_application) against the fake Bot API server."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import socket
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import Application

from bot import callback_data as cb
from bot.app import build_application, start_app, stop_app
from bot.config import Config, Webhook
from bot.fake_telegram import ANY_THREAD, FakeTelegram, FakeUser, StoredMessage
from bot.fake_telegram.inspection import ThreadFilter
from bot.flow import GameFlow
from bot.games import GAMES, Registry
from bot.playground.watch import watching
from bot.store import GameRow, Store, is_postgres
from bot.webhook import start_webhook_app
from engines.base import Engine, LogEntry, replay
from locales import Translator

CHAT_ID = -100123
WEBHOOK_SECRET = "harness_webhook-SECRET_0123456789"
USERS = {"anya": "Аня", "boris": "Борис", "vera": "Вера", "gleb": "Глеб", "dima": "Дима"}


def free_port() -> int:
    """A port on 127.0.0.1 nothing listens on (bound and closed again)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class CountedApplication(Application):  # type: ignore[type-arg]
    """The bot's Application, telling its runner when an update has been through every handler."""

    __slots__ = ()
    RUNNER = "_test_runner"

    async def process_update(self, update: object) -> None:
        try:
            await super().process_update(update)
        finally:
            await self.bot_data[self.RUNNER].processed(update)


@dataclass
class BotRunner:
    """Starts, stops and restarts the bot on one database; players act through the fake server."""

    tg: FakeTelegram
    db_path: Path  # the SQLite file, unless database_url names a PostgreSQL database
    chat_id: int = CHAT_ID
    group_rate: tuple[int, int] = (10_000, 1)  # sends+edits per seconds in a group; high: tests play fast
    commands_per_minute: int = 10_000  # a person's commands in a chat (flood control); high: tests type fast
    draw_processes: int = 0  # 0: boards drawn on threads here (quick to start); n: in n worker processes
    app: Application | None = None
    starts: int = 0
    games: Registry = field(default_factory=lambda: GAMES)  # the games the bot offers (a test may add its own)
    translator: Translator | None = None  # default: every catalogue, strict
    database_url: str = ""  # postgresql://…: the bot's data there (tests/backends.py), not in db_path
    done_ids: set[int] = field(default_factory=set)
    processed_count: int = 0  # updates through every handler, a redelivered one counted again
    webhook: bool = False  # True: updates come to a webhook the bot serves on 127.0.0.1, not by polling
    webhook_port: int = 0  # picked at the first start and kept, as a deployed bot keeps its address
    _done: asyncio.Condition = field(default_factory=asyncio.Condition)

    def config(self) -> Config:
        return Config(token=self.tg.token, base_url=self.tg.base_url, base_file_url=self.tg.file_url,
                      database_path=str(self.db_path), database_url=self.database_url,
                      group_max_rate=self.group_rate[0], group_time_period=self.group_rate[1],
                      private_max_rate=10_000, poll_timeout=1,
                      user_commands_per_minute=self.commands_per_minute, draw_processes=self.draw_processes)

    async def start(self, wait_catch_up: bool = True) -> None:
        """Start the bot like run_polling does: initialize, post_init, polling, handlers; then
        (unless told not to) wait for start-up's catch-up job to redraw tables and arm timers."""
        if self.translator is None:
            self.translator = Translator.load(strict=True, extra=self.games.locale_files())
        app = build_application(self.config(), self.translator, self.games)
        # Application has __slots__ (on 3.13 every base has them, so no attribute can be set on it):
        # the counting lives in a subclass of the same layout, the runner in bot_data
        app.__class__ = CountedApplication
        app.bot_data[CountedApplication.RUNNER] = self
        if self.webhook:
            await start_webhook_app(app, self.webhook_settings())
        else:
            await start_app(app, poll_timeout=1)
        self.app = app
        self.starts += 1
        if wait_catch_up:
            await asyncio.wait_for(app.bot_data["flow"].caught_up.wait(), 30)

    def webhook_settings(self) -> Webhook:
        """Where the bot serves its webhook in webhook mode (a free port on 127.0.0.1, plain http)."""
        if not self.webhook_port:
            self.webhook_port = free_port()
        return Webhook(url=f"http://127.0.0.1:{self.webhook_port}/telegram-webhook", secret=WEBHOOK_SECRET,
                       listen="127.0.0.1", port=self.webhook_port)

    async def processed(self, update: object) -> None:
        """One update went through every handler: tell whoever waits for it."""
        if isinstance(update, Update):
            async with self._done:
                self.done_ids.add(update.update_id)
                self.processed_count += 1
                self._done.notify_all()

    async def processed_upto(self, count: int, timeout: float = 10.0) -> None:
        """Wait until ``count`` updates in all have been through every handler."""
        async with self._done:
            await asyncio.wait_for(self._done.wait_for(lambda: self.processed_count >= count), timeout)

    async def stop(self) -> None:
        """Stop like SIGTERM would: stop polling, let handlers finish, close storage."""
        app, self.app = self.app, None
        if app is None:
            return
        await stop_app(app)

    async def restart(self) -> None:
        await self.stop()
        await self.start()

    def write_db(self, statement: str, params: Sequence[Any]) -> None:
        """Write straight into the bot's database file, as another program would (the bot keeps
        no copy of what such tests write: pub tallies)."""
        with contextlib.closing(sqlite3.connect(self.db_path, timeout=5)) as conn, conn:
            conn.execute(statement, params)

    # players ---------------------------------------------------------------

    async def handled(self, timeout: float = 10.0) -> None:
        """Wait until the bot has fully handled every update pushed so far."""
        target = self.tg.last_update_id
        async with self._done:
            await asyncio.wait_for(self._done.wait_for(lambda: target in self.done_ids or target == 0), timeout)
        if self.app is not None:  # sends and edits held back for the chat's budget
            await asyncio.wait_for(self.app.bot_data["flow"].outbox.idle(), timeout)

    async def say(self, user: FakeUser, text: str, *, thread: int | None = None) -> None:
        """A user sends a message (in forum topic ``thread``, if given); waits until the bot has
        handled it (if it sees it)."""
        before = self.tg.last_update_id
        await self.tg.send_message(user, self.chat_id, text, thread=thread)
        if self.tg.last_update_id != before:
            await self.handled()

    async def press(self, user: FakeUser, message: StoredMessage, label: str) -> dict[str, Any]:
        """A user presses the button labelled ``label``; returns the answerCallbackQuery params.

        The bot answers first and edits after; this returns once the edits are done too.
        """
        return await self.press_data(user, message, message.button(label))

    async def press_data(self, user: FakeUser, message: StoredMessage, data: str) -> dict[str, Any]:
        handle = await self.tg.press(user, message.chat, message.message_id, data, check_buttons=False)
        answer = await self.tg.wait_answer(handle)
        await self.handled()  # the edits that follow the answer
        return answer

    def table(self, thread: ThreadFilter = ANY_THREAD) -> StoredMessage:
        """The live photo message that carries the current game (lobby or table), of the forum topic
        ``thread`` if given (None: General)."""
        photos = [m for m in self.tg.bot_messages(self.chat_id, thread) if m.photo is not None]
        assert photos, self.tg.dump()
        return photos[-1]


class ManualAlarms:
    """The flow's alarms (turn pings, tidying up), rung when a test says so instead of at their time."""

    def __init__(self) -> None:
        self.armed: dict[Hashable, tuple[float, Callable[[], Awaitable[object]]]] = {}

    def set(self, key: Hashable, when: float, job: Callable[[], Awaitable[object]]) -> None:
        self.armed[key] = (when, job)

    def cancel(self, key: Hashable) -> None:
        self.armed.pop(key, None)

    def when(self, key: Hashable) -> float | None:
        """The clock time the alarm ``key`` is set for (None: not set)."""
        armed = self.armed.get(key)
        return None if armed is None else armed[0]

    async def ring(self, key: Hashable) -> object:
        """Ring the alarm ``key`` now (it must be set); what its job returned."""
        _, job = self.armed.pop(key)
        return await job()


def current_player_name(caption: str) -> str:
    match = re.search(r"(?:Ходит|To move): (.+)$", caption, re.M)
    assert match, caption
    return match.group(1).strip()


World = tuple[FakeTelegram, BotRunner, dict[str, FakeUser]]


@asynccontextmanager
async def group_world(tmp_path: Path, first_seed: int, count: int = 4, english: Sequence[str] = (),
                      draw_processes: int = 0, chat_type: str = "supergroup",
                      chat_id: int = CHAT_ID, games: Registry = GAMES,
                      group_rate: tuple[int, int] = (10_000, 1), forum: bool = False,
                      database: str | None = None, webhook: bool = False) -> AsyncIterator[World]:
    """A supergroup (or ``chat_type``; Аня created it) with ``count`` users of :data:`USERS` and the bot running
    (on ``database``, a PostgreSQL URL, if given; else on an SQLite file in ``tmp_path``; by webhook if asked).

    Games get the seeds ``first_seed``, ``first_seed + 1``, … so every run plays the same
    dice. On exit the fake server must have seen no rule broken and no press unanswered.
    ``webhook``: the bot takes its updates through a webhook it serves instead of polling.
    """
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        users = {key: tg.add_user(i + 1, name, language_code="en" if key in english else "ru")
                 for i, (key, name) in enumerate(list(USERS.items())[:count])}
        tg.add_chat(chat_id, chat_type, "Пятничный клуб", creator=1, is_forum=forum)
        runner = BotRunner(tg, tmp_path / "data" / "bot.sqlite3", chat_id=chat_id, draw_processes=draw_processes,
                           games=games, group_rate=group_rate, webhook=webhook,
                           database_url=database if database and is_postgres(database) else "")
        await runner.start()
        seeds = (f"{i:064x}" for i in itertools.count(first_seed))
        runner.app.bot_data["flow"].seed_factory = lambda: next(seeds)
        try:
            async with watching(tg, chat_id):  # PLAYGROUND_WATCH=<port>: see the run in a browser
                yield tg, runner, users
        finally:
            await runner.stop()
        assert tg.violations == [], tg.violations
        assert not tg.unanswered_callbacks()


def flow_of(runner: BotRunner) -> GameFlow:
    """The running bot's GameFlow."""
    assert runner.app is not None
    return runner.app.bot_data["flow"]


async def use_classic_table(runner: BotRunner) -> None:
    """The chat plays the race games on the classic table, every roll a press (the chat's /settings
    default; the fast table is the default of every chat: docs/players.md: the fast table)."""
    assert runner.app is not None
    await runner.app.bot_data["flow"].store.set_chat_setting(runner.chat_id, "pace", "classic")


async def start_for_two(runner: BotRunner, users: dict[str, FakeUser], code: str) -> StoredMessage:
    """Аня opens a lobby of ``code``, Борис joins, Аня starts; the table."""
    await runner.say(users["anya"], f"/newgame {code}")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    return runner.table()


async def start_against_a_bot(runner: BotRunner, host: FakeUser, code: str) -> StoredMessage:
    """``host`` opens a lobby of ``code``, seats a computer player and starts; the table."""
    await runner.say(host, f"/newgame {code}")
    lobby = runner.table()
    await runner.press(host, lobby, "🤖 Добавить бота")
    await runner.press(host, lobby, "Начать")
    return runner.table()


def game_id_of(table: StoredMessage) -> int:
    """The game a table message belongs to, read from its first button."""
    parsed = cb.parse(table.buttons[0][1])
    assert parsed is not None and parsed.game_id
    return parsed.game_id


async def stored_state(runner: BotRunner, engine: Engine[Any, Any], game_id: int) -> Any:
    """The game's state as the bot stored it."""
    assert runner.app is not None
    game = await runner.app.bot_data["flow"].store.game(game_id)
    assert game is not None and game.state is not None
    return engine.state_from_json(game.state)


async def play_to_end(runner: BotRunner, table: StoredMessage, engine: Engine[Any, Any], players: Sequence[FakeUser],
                      seed: int, limit: int = 5000) -> list[str]:
    """The player the engine names presses one of the offered buttons (seeded choice) until the
    game ends; every press must be checked against the stored state and give exactly one edit.

    Returns the captions seen, one per press.
    """
    rng = random.Random(seed)
    game_id = game_id_of(table)
    captions: list[str] = []
    while table.buttons:
        state = await stored_state(runner, engine, game_id)
        legal = engine.legal_actions(state)
        # the keyboard offers exactly the legal actions, in the engine's order
        assert [data.rsplit(":", 1)[1] for _, data in table.buttons] == [a.code for a in legal]
        mover = players[state.current_player]
        assert current_player_name(table.caption) == mover.first_name
        edits = table.edit_count
        await runner.press(mover, table, rng.choice([label for label, _ in table.buttons]))
        assert table.edit_count == edits + 1  # one edit per press
        captions.append(table.caption)
        assert len(captions) < limit
    return captions


async def assert_replays(runner: BotRunner, game_id: int) -> Any:
    """:func:`assert_replays_in` the running bot's storage; returns the replayed state."""
    assert runner.app is not None
    return (await assert_replays_in(runner.app.bot_data["flow"].store, game_id, runner.games))[1]


async def assert_replays_in(store: Store, game_id: int, games: Registry = GAMES) -> tuple[GameRow, Any]:
    """The stored state equals the replay of the stored action log from the game's seed, and the
    log's action numbers run from the start (-1) to the version: no move lost, doubled or
    half-applied. Returns the game and the replayed state."""
    game = await store.game(game_id)
    assert game is not None and game.state is not None
    engine = games[game.code].engine
    actions = await store.actions(game_id)
    log = [LogEntry(a.seat, a.code, a.dice) for a in actions if a.code != "start"]
    replayed = replay(engine, engine.options_from_json(game.options), len(game.seats), game.seed, log)
    assert json.loads(json.dumps(replayed.to_json())) == game.state, game_id  # as stored: tuples become lists
    assert [a.n for a in actions] == list(range(-1, game.version)), game_id
    return game, replayed
