"""One chat never slows another: a noisy group, a group under a 429, a group in slow mode and a
person flooding commands each cost only themselves (through the fake Bot API, whose per-chat
limits answer 429 as Telegram does)."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from bot.config import USER_COMMANDS_PER_MINUTE
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner

OTHER = -100456
PER_PERIOD, PERIOD = 5, 5  # Telegram's 20 a minute, shrunk so the tests run in seconds
TOO_MANY = "Слишком много команд"


@asynccontextmanager
async def two_groups(tmp_path: Path, rate: tuple[int, int] = (PER_PERIOD, PERIOD),
                     ) -> AsyncIterator[tuple[FakeTelegram, BotRunner, list[FakeUser]]]:
    """Two supergroups (Аня created both; everyone is in both), the server enforcing ``rate`` per group."""
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        users = [tg.add_user(i + 1, name) for i, name in enumerate(("Аня", "Борис", "Вера"))]
        tg.add_chat(CHAT_ID, "supergroup", "Шумная", creator=1)
        tg.add_chat(OTHER, "supergroup", "Тихая", creator=1)
        tg.enforce_group_rate(*rate)
        runner = BotRunner(tg, tmp_path / "bot.sqlite3", group_rate=rate,
                           commands_per_minute=USER_COMMANDS_PER_MINUTE)  # flood control as shipped
        await runner.start()
        seeds = (f"{i:064x}" for i in itertools.count(5))
        assert runner.app is not None
        runner.app.bot_data["flow"].seed_factory = lambda: next(seeds)
        try:
            yield tg, runner, users
        finally:
            await runner.stop()
        assert tg.violations == [] and not tg.unanswered_callbacks()


def photos(tg: FakeTelegram, chat: int) -> list[StoredMessage]:
    return [m for m in tg.bot_messages(chat) if m.photo is not None]


def texts(tg: FakeTelegram, chat: int) -> list[str]:
    return [m.text or "" for m in tg.bot_messages(chat)]


def too_many_429(tg: FakeTelegram) -> list[int]:
    return [r.params.get("chat_id", 0) for r in tg.requests if r.error_code == 429]


async def start_sosedi(tg: FakeTelegram, users: list[FakeUser], chat: int) -> StoredMessage:
    """Аня opens «соседи» in ``chat``, Борис joins, Аня starts; the table."""
    await tg.send_message(users[0], chat, "/newgame sosedi")
    await tg.wait_for(lambda s: bool(photos(s, chat)), timeout=10)
    lobby = photos(tg, chat)[-1]
    await tg.wait_answer(await tg.press(users[1], chat, lobby.message_id, lobby.button("Играю")))
    await tg.wait_for(lambda s: "Борис" in s.message(chat, lobby.message_id).caption, timeout=10)
    await tg.wait_answer(await tg.press(users[0], chat, lobby.message_id, lobby.button("Начать")))
    await tg.wait_for(lambda s: "Ходит" in photos(s, chat)[-1].caption, timeout=10)
    return photos(tg, chat)[-1]


def mover(table: StoredMessage, users: list[FakeUser]) -> FakeUser:
    return next(u for u in users if f"Ходит: {u.first_name}" in table.caption)


async def test_one_member_flooding_a_group_neither_floods_it_nor_holds_another_group(tmp_path: Path) -> None:
    async with two_groups(tmp_path) as (tg, runner, users):
        for _ in range(300):  # Борис types /help as fast as he can: far more than PTB runs at once
            await tg.send_message(users[1], CHAT_ID, "/help")
        asked = time.monotonic()
        await tg.send_message(users[0], OTHER, "/newgame sosedi")
        await tg.wait_for(lambda s: bool(photos(s, OTHER)), timeout=5)
        lobby_after = time.monotonic() - asked
        await runner.handled(timeout=30)
        noisy = texts(tg, CHAT_ID)
    assert lobby_after < 2.0  # the quiet group's lobby did not wait behind the noisy group's answers
    # Борис was answered at most his 12 commands' worth (equal answers waiting merge), told once, then ignored
    assert 1 <= sum("/newgame" in t for t in noisy) <= 12
    assert sum(TOO_MANY in t for t in noisy) == 1
    assert too_many_429(tg) == []


async def test_flood_control_leaves_presses_and_an_admins_stop_alone(tmp_path: Path) -> None:
    async with two_groups(tmp_path, rate=(10_000, 1)) as (tg, runner, users):
        table = await start_sosedi(tg, users, CHAT_ID)
        for _ in range(13):  # Аня, the host and the chat's creator, over her 12 a minute
            await runner.say(users[0], "/rules")
        assert sum(TOO_MANY in t for t in texts(tg, CHAT_ID)) == 1
        before = len(tg.bot_messages(CHAT_ID))
        await runner.say(users[0], "/rules")  # ignored: not even a refusal
        assert len(tg.bot_messages(CHAT_ID)) == before
        # her presses still work (a move is a press, not a command)
        table = photos(tg, CHAT_ID)[-1]
        shown = table.caption  # the fake server edits its messages in place: keep the text
        answer = await runner.press(mover(table, users), table, table.buttons[0][0])
        assert answer.get("text") is not None and table.caption != shown
        # and /stop still works for her as the chat's admin
        await runner.say(users[0], "/stop")
        assert "остановлена" in tg.message(CHAT_ID, table.message_id).caption


async def test_a_429_in_one_group_pauses_only_that_group(tmp_path: Path) -> None:
    async with two_groups(tmp_path, rate=(10_000, 1)) as (tg, runner, users):
        flooded, quiet = await start_sosedi(tg, users, CHAT_ID), await start_sosedi(tg, users, OTHER)
        flooded_shown, quiet_shown = flooded.caption, quiet.caption  # edited in place: keep the texts
        tg.flood_chat(CHAT_ID, 2.0)  # Telegram answers 429 in the first group for two seconds
        flooded_at = time.monotonic()
        player = mover(flooded, users)
        answer = await tg.wait_answer(await tg.press(player, CHAT_ID, flooded.message_id, flooded.buttons[0][1]))
        assert answer.get("text") is not None  # the press is answered at once; its table waits
        player = mover(quiet, users)
        await tg.wait_answer(await tg.press(player, OTHER, quiet.message_id, quiet.buttons[0][1]))
        await tg.wait_for(lambda s: quiet.caption != quiet_shown, timeout=5)
        quiet_redrawn = time.monotonic() - flooded_at
        await tg.wait_for(lambda s: flooded.caption != flooded_shown, timeout=10)
        flooded_redrawn = time.monotonic() - flooded_at
        await runner.handled()
    assert quiet_redrawn < 1.5 <= flooded_redrawn  # the other group did not wait out the first one's 429
    assert set(too_many_429(tg)) == {CHAT_ID} and len(too_many_429(tg)) <= 2  # paused, not hammering


async def test_a_group_in_slow_mode_gets_its_messages_spaced(tmp_path: Path) -> None:
    async with two_groups(tmp_path, rate=(10_000, 1)) as (tg, runner, users):
        chat = tg.chats[CHAT_ID]
        chat.bot_status, chat.slow_mode_delay = "member", 2  # no admin: slow mode holds the bot too
        for user, asking in zip(users, ("/help", "/rules", "/tally"), strict=True):  # three answers, 2 s apart
            await tg.send_message(user, CHAT_ID, asking)
        await runner.handled(timeout=15)
        sent = [r.at for r in tg.requests if r.method == "sendMessage" and r.ok
                and r.params.get("chat_id") == CHAT_ID]
        asked = [r for r in tg.requests if r.method == "getChat"]
    assert len(sent) == 3 and len(asked) == 1  # slow mode read once, from getChat
    assert all(later - earlier >= 1.9 for earlier, later in itertools.pairwise(sent))
    assert too_many_429(tg) == []
