"""Turn pings: Telegram notifies nobody of an edit, so a person whose turn has waited the
chat's ``ping`` seconds gets one short message that mentions them, as a reply to the table.

The flow's alarms are rung by hand (:class:`ManualAlarms`) instead of waited for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from bot.flow.context import DEFAULT_PING
from tests.bot_harness import (
    BotRunner,
    ManualAlarms,
    World,
    current_player_name,
    flow_of,
    game_id_of,
    group_world,
    start_for_two,
    use_classic_table,
)

pytestmark = pytest.mark.world(first_seed=300, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
async def world(world: World) -> tuple[World, ManualAlarms]:
    """The classic table: a turn here is the presses of one person, a roll among them (the fast table's
    turns: test_the_fast_table_gives_each_new_turn_its_own_ping)."""
    alarms = flow_of(world[1]).alarms = ManualAlarms()
    await use_classic_table(world[1])
    return world, alarms


def ping_key(table: StoredMessage) -> tuple[str, int]:
    return ("ping", game_id_of(table))


def pings(runner: BotRunner) -> list[StoredMessage]:
    """The bot's text messages in the chat that are turn pings (not deleted)."""
    return [m for m in runner.tg.bot_messages(runner.chat_id)
            if m.text is not None and ", ваш ход в «" in m.text and not m.deleted]


def to_move(table: StoredMessage, users: dict[str, FakeUser]) -> FakeUser:
    name = current_player_name(table.caption or "")
    return next(u for u in users.values() if u.first_name == name)


async def play(runner: BotRunner, table: StoredMessage, users: dict[str, FakeUser]) -> FakeUser:
    """The person to move presses the table's first button; who it was."""
    mover = to_move(table, users)
    await runner.press(mover, table, table.buttons[0][0])
    return mover


async def test_a_waiting_turn_gets_one_ping_that_mentions_the_person_and_replies_to_the_table(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    flow, mover = flow_of(runner), to_move(table, users)
    assert alarms.when(ping_key(table)) == pytest.approx(flow.clock() + DEFAULT_PING, abs=2)
    assert await alarms.ring(ping_key(table)) is True
    await runner.handled()
    [ping] = pings(runner)
    assert ping.text == f"{mover.first_name}, ваш ход в «Людо»"
    assert ping.reply_to is not None and ping.reply_to.message_id == table.message_id
    link = [e for e in ping.entities if e["type"] in ("text_link", "text_mention")]
    assert link and link[0].get("url", f"tg://user?id={link[0].get('user', {}).get('id')}") == f"tg://user?id={mover.id}"
    assert alarms.when(ping_key(table)) is None  # one ping per turn: nothing more is armed


async def test_the_ping_goes_as_soon_as_the_turn_is_played_and_the_next_turn_gets_its_own(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    first = to_move(table, users)
    await alarms.ring(ping_key(table))
    await runner.handled()
    [ping] = pings(runner)
    while to_move(table, users) is first:  # the pinged person plays their turn (a roll, a move, a 6 again)
        await play(runner, table, users)
        assert ping.deleted  # gone at their first press
        assert alarms.when(ping_key(table)) is None or to_move(table, users) is not first
    second = to_move(table, users)
    assert await alarms.ring(ping_key(table)) is True
    await runner.handled()
    [new] = pings(runner)
    assert new.text is not None and new.text.startswith(second.first_name)


async def test_a_turn_is_pinged_at_most_once_even_if_the_alarm_rings_late(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    key = ping_key(table)
    _, job = alarms.armed[key]
    assert await alarms.ring(key) is True
    assert await job() is False  # a second ring of the same turn
    await runner.handled()
    assert len(pings(runner)) == 1


async def test_an_alarm_of_a_turn_already_played_pings_nobody(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    _, stale = alarms.armed[ping_key(table)]
    await play(runner, table, users)
    assert await stale() is False
    await runner.handled()
    assert pings(runner) == []


async def test_stopping_the_game_deletes_its_ping(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    key = ping_key(table)
    await alarms.ring(key)
    await runner.handled()
    [ping] = pings(runner)
    await play(runner, table, users)  # the next turn's alarm is set …
    assert alarms.when(key) is not None
    await runner.say(users["anya"], "/stop")
    assert ping.deleted
    assert alarms.when(key) is None  # … and gone with the game


async def test_a_person_who_leaves_has_their_ping_deleted_and_the_computer_is_never_pinged(world) -> None:
    (_, runner, users), alarms = world
    table = await start_for_two(runner, users, "ludo")
    leaver = to_move(table, users)
    await alarms.ring(ping_key(table))
    await runner.handled()
    [ping] = pings(runner)
    await runner.say(leaver, "/leave")
    assert ping.deleted
    stayer = to_move(table, users)  # the computer took the seat and played its turn at once
    assert stayer is not leaver
    turn = flow_of(runner).pings.turns[game_id_of(table)]
    assert turn.seat == (await flow_of(runner).store.game(game_id_of(table))).seat_of(stayer.id)


async def test_the_lobby_turns_pings_off_for_its_game_only(world) -> None:
    (_, runner, users), alarms = world
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    for _ in range(3):  # 30 → 60 → 120 → off
        await runner.press(users["anya"], lobby, "🔔")
    assert "выкл" in next(label for label, _ in lobby.buttons if label.startswith("🔔"))
    await runner.press(users["boris"], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    assert alarms.when(ping_key(lobby)) is None
    assert (await flow_of(runner).chat(runner.chat_id)).settings.ping == DEFAULT_PING  # the chat's stays


async def test_only_the_host_may_change_the_ping(world) -> None:
    (_, runner, users), _alarms = world
    await runner.say(users["anya"], "/newgame ludo")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Играю")
    answer = await runner.press(users["boris"], lobby, "🔔")
    assert answer["text"]
    assert (await flow_of(runner).chat(runner.chat_id)).settings.ping == DEFAULT_PING


@pytest.fixture
async def tight_world(tmp_path: Path) -> AsyncIterator[tuple[World, ManualAlarms]]:
    """A group whose window is Telegram's: 20 sends and edits in any 60 s."""
    async with group_world(tmp_path, first_seed=300, count=3, group_rate=(20, 60)) as world:
        alarms = flow_of(world[1]).alarms = ManualAlarms()
        yield world, alarms


async def test_no_ping_when_the_groups_window_has_fewer_than_three_free_sends(tight_world) -> None:
    (_, runner, users), alarms = tight_world
    table = await start_for_two(runner, users, "ludo")
    flow = flow_of(runner)
    while (flow.outbox.free(runner.chat_id) or 0) >= 3:
        await play(runner, table, users)
    assert flow.outbox.free(runner.chat_id) == 2
    assert await alarms.ring(ping_key(table)) is False
    await runner.handled()
    assert pings(runner) == []


async def test_the_fast_table_gives_each_new_turn_its_own_ping(world) -> None:
    """On the fast table a press is a real choice, and the bot's throws after it may pass the turn on:
    the pinged person's ping goes at their press, and whoever's choice the table then waits on gets an
    alarm of their own (even the same person, once someone else has thrown in between)."""
    (_, runner, users), alarms = world
    await flow_of(runner).store.set_chat_setting(runner.chat_id, "pace", "fast")
    table = await start_for_two(runner, users, "ludo")
    store, game_id = flow_of(runner).store, game_id_of(table)
    new_turns = 0
    for _ in range(6):
        assert await alarms.ring(ping_key(table)) is True
        await runner.handled()
        [ping] = pings(runner)
        assert ping.text is not None and ping.text.startswith(to_move(table, users).first_name)
        done = len(await store.actions(game_id))
        mover = await play(runner, table, users)
        assert ping.deleted  # gone at the press
        if not table.buttons:
            break
        others = [a for a in (await store.actions(game_id))[done:] if a.seat is not None
                  and a.seat != ("Аня", "Борис").index(mover.first_name)]
        if others or to_move(table, users) is not mover:  # a new turn: armed again
            assert alarms.when(ping_key(table)) is not None
            new_turns += 1
        else:  # the same person's turn goes on (a 6): pinged once already
            assert alarms.when(ping_key(table)) is None
            await play(runner, table, users)
    assert new_turns >= 3
