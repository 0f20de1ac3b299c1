"""Every per-chat, per-user or per-game memory of the running bot has a bound: an LRU map
(:class:`bot.bounded.LruDict`) or entries that expire. Each test fills one past its bound (made small
here) and checks that it holds at most the bound and that what it forgot is found again.

The flow's alarms are rung by hand (:class:`ManualAlarms`) instead of waited for.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

from bot import metrics as metrics_module
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.flow import pings as pings_module
from bot.flow import tidy as tidy_module
from bot.flow.alarms import LoopAlarms
from bot.flow.context import Sources
from bot.flow.dice_check import AGAIN_AFTER, DiceCheck
from bot.flow.table_view import TableView
from bot.health import Health
from bot.metrics import Metrics
from bot.store import caches
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    ManualAlarms,
    World,
    current_player_name,
    flow_of,
    game_id_of,
    start_for_two,
)

OTHER_CHATS = (-200_001, -200_002, -200_003)


pytestmark = pytest.mark.world(first_seed=700, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def world_options(world_options: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The bot with small bounds (read when its flow is built): 3 chats, 2 chats' rights, 2 games' turns."""
    monkeypatch.setattr(caches, "CHATS_KEPT", 3)
    monkeypatch.setattr(tidy_module, "RIGHTS_KEPT", 2)
    monkeypatch.setattr(pings_module, "TURNS_KEPT", 2)
    return world_options


@pytest.fixture
def world(world: World) -> tuple[World, ManualAlarms]:
    tg = world[0]
    for chat_id in OTHER_CHATS:
        tg.add_chat(chat_id, creator=1)  # Аня's groups too
    alarms = flow_of(world[1]).alarms = ManualAlarms()
    return world, alarms


async def say_in(tg: FakeTelegram, runner: BotRunner, user: FakeUser, chat_id: int, text: str) -> None:
    """``user`` writes ``text`` in ``chat_id``; returns once the bot has handled it."""
    await tg.send_message(user, chat_id, text)
    await runner.handled()


def texts_in(tg: FakeTelegram, chat_id: int) -> list[str]:
    return [m.text for m in tg.bot_messages(chat_id) if m.text is not None]


async def test_the_chat_rows_and_their_chats_are_bounded_and_a_forgotten_chat_is_read_again(world) -> None:
    (tg, runner, users), _ = world
    flow = flow_of(runner)
    await runner.say(users["anya"], "/lang en")  # stored, and kept in memory
    await runner.say(users["anya"], "/help")
    english = texts_in(tg, CHAT_ID)[-1]
    for chat_id in OTHER_CHATS:
        await say_in(tg, runner, users["anya"], chat_id, "/help")
        assert texts_in(tg, chat_id)[-1] != english  # the other chats speak Russian
    assert len(flow.store._chats) <= 3 and len(flow.loader._chats) <= 3
    assert flow.store._chats.get(CHAT_ID) is None and CHAT_ID not in flow.loader._chats  # the least recent went
    await runner.say(users["anya"], "/help")
    assert texts_in(tg, CHAT_ID)[-1] == english  # read again from the database: still English
    assert flow.store._chats.get(CHAT_ID) is not None and CHAT_ID in flow.loader._chats
    assert len(flow.store._chats) <= 3 and len(flow.loader._chats) <= 3


async def test_the_rights_to_delete_are_bounded_and_a_forgotten_chat_is_asked_again(world) -> None:
    (tg, runner, users), alarms = world
    tidy = flow_of(runner).tidy

    async def refused_and_tidied(chat_id: int) -> StoredMessage:
        await say_in(tg, runner, users["vera"], chat_id, "/kick")  # not an admin: a refusal, tidied away
        command = [m for m in tg.messages[chat_id].values() if not m.from_bot and m.text == "/kick"][-1]
        for key in [k for k in alarms.armed if isinstance(k, tuple) and k[0] == "tidy"]:
            await alarms.ring(key)
        return command

    def asked(chat_id: int) -> int:
        return sum(r.params.get("chat_id") == chat_id for r in tg.requests_for("getChatMember"))

    assert (await refused_and_tidied(CHAT_ID)).deleted and asked(CHAT_ID) == 1
    for chat_id in OTHER_CHATS:
        assert (await refused_and_tidied(chat_id)).deleted
    assert len(tidy.may_delete) <= 2 and CHAT_ID not in tidy.may_delete
    assert (await refused_and_tidied(CHAT_ID)).deleted and asked(CHAT_ID) == 2  # asked again, still right


async def test_the_waiting_turns_are_bounded_and_a_forgotten_game_is_pinged_at_its_next_turn(world) -> None:
    (tg, runner, users), alarms = world
    pings = flow_of(runner).pings
    tables = []
    for chat_id in (CHAT_ID, *OTHER_CHATS[:2]):
        runner.chat_id = chat_id
        tables.append(await start_for_two(runner, users, "ludo"))
    runner.chat_id = CHAT_ID
    first = game_id_of(tables[0])
    assert len(pings.turns) <= 2 and first not in pings.turns
    assert await alarms.ring(("ping", first)) is False  # a forgotten turn goes unpinged …

    def to_move() -> FakeUser:
        name = current_player_name(tables[0].caption or "")
        return next(u for u in users.values() if u.first_name == name)

    mover = to_move()
    while to_move() is mover:  # … and the next turn of that game is pinged again
        await runner.press(mover, tables[0], tables[0].buttons[0][0])
    assert first in pings.turns and len(pings.turns) <= 2
    assert await alarms.ring(("ping", first)) is True
    await runner.handled()
    assert any(f"{to_move().first_name}, ваш ход в «" in text for text in texts_in(tg, CHAT_ID))


def test_the_press_times_are_bounded_and_the_least_recent_go_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics_module, "PRESS_TIMES_KEPT", 3)
    metrics = Metrics(("sosedi",), Health.for_polling(1.0))

    def observed() -> float:
        return sum(s.value for s in metrics.press_to_edit.collect()[0].samples if s.name.endswith("_count"))

    for game_id in (1, 2, 3, 4):  # game 1's table is never shown (its chat was lost, say)
        metrics.pressed("moved", game_id, 0.0)
    assert len(metrics._pressed) <= 3
    metrics.table_shown(1)
    assert observed() == 0  # forgotten: no latency made up for it
    metrics.table_shown(3)
    metrics.table_shown(4)
    assert observed() == 2  # the recent ones kept theirs
    metrics.pressed("moved", 1, 0.0)  # game 1 again: kept, and measured when shown
    metrics.table_shown(1)
    assert observed() == 3


def test_the_repost_marks_expire() -> None:
    now = [1000.0]
    table = TableView(Any, Any, Any, lambda: now[0])  # type: ignore[arg-type]
    for game_id in range(1000):
        assert table.repost_wait(game_id, 30) == 0
    assert table.repost_wait(5, 30) == 30  # marked: wait
    now[0] += 31
    assert table.repost_wait(5, 30) == 0  # expired: may repost again …
    assert len(table.reposted) == 1  # … and the other 999 marks are gone


def test_the_dice_check_marks_expire() -> None:
    now = [1000.0]
    checks = DiceCheck(Any, Any, Sources(clock=lambda: now[0]))  # type: ignore[arg-type]
    chat = SimpleNamespace(tr=lambda key, **_: key)

    def press(game_id: int) -> str:
        game = SimpleNamespace(row=SimpleNamespace(id=game_id, status="finished", thread_id=0),
                               spec=SimpleNamespace(dice_per_roll=2))
        return checks.press(chat, game, None).text  # type: ignore[arg-type]

    for game_id in range(1000):
        assert press(game_id) == "toast-dice-check"
    assert press(5) == "toast-dice-checked"
    now[0] += AGAIN_AFTER
    assert press(5) == "toast-dice-check" and len(checks._posted) == 1


async def test_the_alarms_are_forgotten_when_they_ring() -> None:
    alarms, rung = LoopAlarms(lambda: 0.0), asyncio.Event()
    count = [0]

    async def job() -> None:
        count[0] += 1
        if count[0] == 1000:
            rung.set()

    for key in range(1000):
        alarms.set(("tidy", key), 0.0, job)
    assert alarms.pending() == 1000
    await asyncio.wait_for(rung.wait(), 5)
    assert alarms.pending() == 0
    await alarms.close()
