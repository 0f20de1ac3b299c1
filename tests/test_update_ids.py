"""Update ids as Telegram issues them (https://core.telegram.org/bots/api#update): one by one, but after a
week without updates from a random number again, usually far below the last. The webhook's memory of
the ids it took (bot/webhook.py, SeenUpdates) recognises a redelivered update by that memory alone, so a
new, lower sequence is taken (and said once in the log), and the bot goes on answering; in polling mode
PTB follows Telegram's queue. The fake Bot API restarts its ids on request and serves a poller asking
for the old sequence's next id from its queue's head, as Telegram does."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.fake_telegram import FakeTelegram
from bot.webhook import SeenUpdates
from engines.sosedi import ENGINE
from tests.bot_harness import CHAT_ID, World, current_player_name, game_id_of, stored_state
from tests.webhook_steps import redeliver, snapshot

NEW_START = 31_337  # Telegram's random restart: far below the fake's first sequence (700 000 001 on)
NEW_SEQUENCE = "Telegram began a new sequence"


# SeenUpdates, the webhook's memory --------------------------------------------------------------

def test_a_redelivered_update_is_dropped_and_a_new_one_taken() -> None:
    seen = SeenUpdates(size=8)
    assert [seen.first_time(i) for i in (100, 101, 101, 102, 100, 103)] == [True, True, False, True, False, True]


def test_the_memory_is_bounded() -> None:
    seen = SeenUpdates(size=8)
    assert all(seen.first_time(i) for i in range(1, 10_001))
    assert len(seen) == 8
    assert not any(seen.first_time(i) for i in range(9_993, 10_001))  # the last eight: still known
    assert seen.first_time(9_992)  # the ninth from the end is forgotten: the bound, not a floor


def test_a_sequence_started_again_far_below_is_taken_and_said_once(caplog: pytest.LogCaptureFixture) -> None:
    seen = SeenUpdates(size=8)
    assert all(seen.first_time(i) for i in range(700_000_001, 700_000_021))
    with caplog.at_level(logging.INFO, logger="bot.webhook"):
        assert [seen.first_time(i) for i in (17, 18, 18, 19, 17, 20)] == [True, True, False, True, False, True]
    said = [r.getMessage() for r in caplog.records if NEW_SEQUENCE in r.getMessage()]
    assert said == [f"update ids start again from 17 (the last was 700000020): {NEW_SEQUENCE}"]


def test_updates_out_of_order_are_no_new_sequence(caplog: pytest.LogCaptureFixture) -> None:
    """Telegram has up to WEBHOOK_MAX_CONNECTIONS updates in flight: they may arrive a little out of order."""
    seen = SeenUpdates(size=8)
    with caplog.at_level(logging.INFO, logger="bot.webhook"):
        assert all(seen.first_time(i) for i in (50, 47, 52, 48, 51, 49, 46, 53))
    assert not [r for r in caplog.records if NEW_SEQUENCE in r.getMessage()]


@given(ids=st.lists(st.one_of(st.integers(1, 40), st.integers(2**31 - 40, 2**31)), max_size=200),
       size=st.integers(1, 12))
def test_an_update_is_stale_exactly_when_it_is_among_the_last_ids_taken(ids: list[int], size: int) -> None:
    """Against a model: only membership in the last ``size`` ids taken decides, never the id's size."""
    seen, taken = SeenUpdates(size=size), list[int]()
    for update_id in ids:
        stale = update_id in taken[-size:]
        assert seen.first_time(update_id) is not stale
        if not stale:
            taken.append(update_id)
        assert len(seen) == min(size, len(taken))


# the fake Bot API's restart --------------------------------------------------------------------

async def test_the_fake_restarts_its_ids_only_with_nothing_queued() -> None:
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        anya = tg.add_user(1, "Аня")
        tg.add_chat(CHAT_ID, "supergroup", creator=1)
        tg.privacy_mode = False
        first = await tg.send_message(anya, CHAT_ID, "раз")
        with pytest.raises(ValueError, match="1 still queued"):
            tg.restart_update_ids(NEW_START)
        tg.updates.confirm(tg.last_update_id + 1)
        tg.restart_update_ids(NEW_START)
        await tg.send_message(anya, CHAT_ID, "два")
        assert tg.last_update_id == NEW_START and first["message_id"] < tg.updates.pending[0]["message"]["message_id"]
        tg.updates.confirm(700_000_002)  # a poller's offset of the old sequence: in the future, so no confirmation
        assert [u["update_id"] for u in tg.updates.take(100, 0.0)] == [NEW_START]
        tg.updates.confirm(NEW_START + 1)
        assert tg.pending_updates_count() == 0


# the real bot ------------------------------------------------------------------------------------

@pytest.fixture(params=["webhook", "polling"])
def world_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """group_world's arguments (tests/conftest.py), by webhook and by polling."""
    return {"first_seed": 21, "webhook": request.param == "webhook"}


async def test_after_telegram_restarts_its_ids_the_bot_answers_commands_and_presses(
        world: World, caplog: pytest.LogCaptureFixture) -> None:
    tg, runner, users = world
    caplog.set_level(logging.INFO, logger="bot.webhook")
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    if runner.app is not None and runner.webhook:
        runner.app.bot_data["seen_updates"] = SeenUpdates(size=8)  # as REMEMBERED_UPDATES, only quicker to fill
    tg.privacy_mode = False  # the bot sees the chat's talk (and ignores it): the memory fills
    for n in range(10):
        await runner.say(users["gleb"], f"болтаем {n}")
    await tg.wait_for(lambda s: s.pending_updates_count() == 0)  # then a quiet week: nothing queued
    tg.restart_update_ids(NEW_START)

    answer = await runner.press(users["anya"], lobby, "Начать")  # the first update of the new sequence
    assert answer.get("text")
    table = runner.table()
    game_id = game_id_of(table)
    for _ in range(2):
        assert table.caption is not None
        mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption))
        answer = await runner.press(mover, table, table.buttons[0][0])
        assert answer.get("text", "").startswith("🎲"), answer
    state = await stored_state(runner, ENGINE, game_id)
    assert state.version == 2, state  # both rolls of the new sequence were applied, once each
    messages = len(tg.bot_messages(CHAT_ID))
    await runner.say(users["vera"], "/help")  # a command of the new sequence is answered too
    assert len(tg.bot_messages(CHAT_ID)) == messages + 1
    assert tg.last_update_id < NEW_START + 10  # all of it was numbered in the new sequence

    if runner.webhook:  # a redelivered update of the new sequence is still dropped
        said = [r for r in caplog.records if NEW_SEQUENCE in r.getMessage()]
        assert len(said) == 1 and f"from {NEW_START} " in said[0].getMessage()
        press = next(u for u in reversed(tg.webhook.delivered) if "callback_query" in u)
        before = snapshot(tg, runner)
        await redeliver(runner, press)
        assert snapshot(tg, runner) == before
