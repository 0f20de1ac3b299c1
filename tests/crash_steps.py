"""A bot process that can be killed mid-game, and the checks that nothing was lost after it came back."""

from __future__ import annotations

import asyncio
import signal
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot import callback_data as cb
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.store import open_store
from tests.backends import fetch
from tests.bot_harness import assert_replays_in, current_player_name, free_port
from tests.process_steps import spawn

REMATCH_STARTED = ("Поехали!", "Новое лобби: место того, кто вышел, свободно — любой может сесть, нажав «Играю».")


class Bot:
    """The bot process, killed and started again on one database (in webhook mode on one address, as
    Telegram keeps the URL and its queue while the bot is down)."""

    def __init__(self, tg: FakeTelegram, database: str, tmp: Path, mode: str = "polling") -> None:
        self.tg, self.db, self.log = tg, database, tmp / "bot.log"
        self.process: asyncio.subprocess.Process | None = None
        self.up = asyncio.Event()
        self.kills = 0
        self.settings: dict[str, str] = {}
        if mode == "webhook":
            port = free_port()
            self.settings = {"WEBHOOK_URL": f"http://127.0.0.1:{port}/hook", "WEBHOOK_SECRET": "crash_SECRET",
                             "WEBHOOK_PORT": str(port)}

    async def start(self) -> None:
        polls, hooks = self.tg.polls_started, len(self.tg.requests_for("setWebhook"))
        self.process = await spawn(self.tg, self.db, self.log, **self.settings)
        if self.settings:  # listening once setWebhook is answered; an update pushed before is tried again
            await self.tg.wait_for(lambda s: len(s.requests_for("setWebhook")) > hooks, timeout=30)
        else:
            await self.tg.wait_for(lambda s: s.polls_started > polls, timeout=30)
        self.up.set()

    async def kill(self) -> None:
        assert self.process is not None
        self.up.clear()
        self.kills += 1
        self.process.send_signal(signal.SIGKILL)
        assert await self.process.wait() == -signal.SIGKILL

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(self.process.wait(), 30) == 0


def table_of(tg: FakeTelegram, chat_id: int) -> StoredMessage | None:
    """The chat's live table: its newest photo message (a fresh one if the old was replaced)."""
    photos = [m for m in tg.bot_messages(chat_id) if m.photo is not None and not m.deleted]
    return photos[-1] if photos else None


@dataclass(frozen=True)
class Press:
    """A press as the client saw it: who pressed which button, and the answer (None: the bot was killed
    before it answered, so it may or may not have been applied)."""

    user_id: int
    data: str
    answer: str | None
    chat_id: int = 0

    @property
    def accepted(self) -> bool:
        return self.answer is not None and self.answer.startswith("🎲 ")  # toast-dice: the throw applied


async def press(tg: FakeTelegram, bot: Bot, user: FakeUser, chat_id: int, message: StoredMessage,
                label: str, history: list[Press] | None = None) -> str | None:
    """Press and wait for the answer; None if the bot died before answering. The press goes into
    ``history``, the client's record that :func:`check_history` holds the store to."""
    kills, data = bot.kills, message.button(label)
    handle = await tg.press(user, chat_id, message.message_id, data)
    answer: str | None = None
    for _ in range(40):
        try:
            answer = (await tg.wait_answer(handle, timeout=0.25)).get("text", "")
            break
        except TimeoutError:
            if not bot.up.is_set() or bot.kills != kills:  # a kill in between, however soon it was over
                break
    else:
        raise AssertionError(f"chat {chat_id}: no answer in 10 s while the bot was up\n{tg.dump()}")
    if history is not None:
        history.append(Press(user.id, data, answer, chat_id))
    return answer


async def check_history(database: str, history: list[Press]) -> dict[str, int]:
    """The client's history against the store (the Jepsen way): every move press answered as accepted
    is in its game's log exactly once, at the version its button was drawn for, by its presser's seat;
    no press answered as refused left a trace; and every person's action in a log is a press the client
    made (accepted, or unanswered because of a kill). Returns the counts."""
    by_game: dict[int, dict[int, list[Press]]] = defaultdict(lambda: defaultdict(list))
    rematches: dict[int, list[Press]] = defaultdict(list)  # «Ещё раунд» by chat
    for done in history:
        pressed = cb.parse(done.data)
        assert pressed is not None
        if pressed.kind == "g":
            by_game[pressed.game_id][pressed.version].append(done)
        elif pressed.kind == "r":
            rematches[done.chat_id].append(done)
    store = await open_store(database)
    counts = {"accepted": 0, "refused": 0, "unanswered": 0, "unanswered_applied": 0, "rematches": 0}
    try:
        for chat_id, presses in rematches.items():  # each rematch the chat saw started made one game
            started = sum(p.answer in REMATCH_STARTED for p in presses)
            unanswered = sum(p.answer is None for p in presses)
            games = len(await fetch(database, "SELECT id FROM games WHERE chat_id = ?", chat_id))
            assert 1 + started <= games <= 1 + started + unanswered, (chat_id, games, presses)
            counts["rematches"] += started
        for game_id, versions in by_game.items():
            game = await store.game(game_id)
            assert game is not None
            seat_of = {seat.user_id: seat.seat for seat in game.seats}
            actions = {a.n: a for a in await store.actions(game_id)}
            for n, action in actions.items():  # a person's action no press explains: applied twice, say
                if action.seat is not None and n not in versions:
                    raise AssertionError(f"game {game_id}: action {n} {action} is no press of the client")
            for version, presses in versions.items():
                accepted = [p for p in presses if p.accepted]
                unanswered = [p for p in presses if p.answer is None]
                counts["accepted"] += len(accepted)
                counts["unanswered"] += len(unanswered)
                counts["refused"] += len(presses) - len(accepted) - len(unanswered)
                action = actions.get(version)
                assert len(accepted) <= 1, (game_id, version, presses)  # one version, one applied press
                if accepted:
                    assert action is not None and action.seat == seat_of[accepted[0].user_id], (game_id, action)
                    assert action.code == cb.parse(accepted[0].data).code  # type: ignore[union-attr]
                elif action is not None and action.seat is not None:  # applied by a press the client never saw answered
                    assert unanswered, f"game {game_id}: refused presses {presses} left action {action}"
                    counts["unanswered_applied"] += 1
    finally:
        await store.close()
    return counts


async def play(tg: FakeTelegram, bot: Bot, chat_id: int, players: dict[str, FakeUser], until: float,
               stats: dict[str, int], history: list[Press] | None = None) -> None:
    """Roll whenever it is someone's turn, through crashes, until the game ends or time is up."""
    while tg.clock() < until:
        await bot.up.wait()
        table = table_of(tg, chat_id)
        if table is None or not any(label.startswith("🎲") for label, _ in table.buttons):
            return  # finished
        mover = players.get(current_player_name(table.caption or ""))
        if mover is None:
            await asyncio.sleep(0.05)
            continue
        answer = await press(tg, bot, mover, chat_id, table, next(lb for lb, _ in table.buttons if lb.startswith("🎲")),
                             history)
        stats["presses"] += 1
        if answer is None:
            stats["lost_to_a_kill"] += 1
            await asyncio.sleep(0.1)
        else:
            await asyncio.sleep(0.02)


async def deal(tg: FakeTelegram, bot: Bot, chats: dict[int, dict[str, FakeUser]]) -> None:
    """Every group opens a «соседи» lobby, the second player joins, the host starts."""
    for chat_id, players in chats.items():
        host, guest = players.values()
        await tg.send_message(host, chat_id, "/newgame sosedi")
        await tg.wait_for(lambda s, c=chat_id: table_of(s, c) is not None, timeout=15)
        lobby = table_of(tg, chat_id)
        assert lobby is not None
        assert await press(tg, bot, guest, chat_id, lobby, "Играю") is not None
        await tg.wait_for(lambda s, m=lobby: m.has_button("Начать"), timeout=15)
        assert await press(tg, bot, host, chat_id, lobby, "Начать") is not None
        await tg.wait_for(lambda s, m=lobby: "Ходит:" in (m.caption or ""), timeout=15)


async def check_replays(database: str) -> list[dict[str, Any]]:
    """Each stored game against the replay of its log; returns the games."""
    game_ids = [row[0] for row in await fetch(database, "SELECT id FROM games ORDER BY id")]
    store = await open_store(database)
    try:
        games = []
        for game_id in game_ids:
            game, _ = await assert_replays_in(store, game_id)
            games.append({"id": game_id, "chat": game.chat_id, "version": game.version, "status": game.status,
                          "shown": game.shown_version})
        return games
    finally:
        await store.close()
