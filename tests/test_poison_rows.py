"""Poison rows stay in their chat: a stored game that can no longer be decoded (its JSON corrupt, a
game or an option the bot no longer has, a state of an older shape) is ended as broken where it is
first met — the start-up catch-up, the sweep, a press, a command, its turn timer — logged once, its
chat told once, and every other chat plays on with its timers.

Each bad row is written straight into the database beside the bot, as a damaged file or an old
release would leave it, among healthy running games with turn timers. Time is the flow's clock.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.store import is_postgres
from tests.backends import execute, fetch
from tests.bot_harness import CHAT_ID, BotRunner, flow_of, game_id_of, start_for_two
from tests.clock_steps import later

OTHER_CHATS = (-100201, -100202)  # healthy chats beside the one whose game goes bad
NOTICE = "повреждена и остановлена; начните новую: /newgame"
KINDS = ("corrupt_json", "unknown_game", "invalid_option", "old_schema")
DAY = 24 * 3600  # GAME_IDLE_HOURS by default


@pytest.fixture(params=KINDS)
def kind(request: pytest.FixtureRequest, database: str) -> str:
    """What is wrong with the planted row (corrupt JSON only on SQLite: PostgreSQL's JSONB refuses it)."""
    if request.param == "corrupt_json" and is_postgres(database):
        pytest.skip("PostgreSQL stores JSONB: a column cannot hold text that is not JSON")
    return str(request.param)


pytestmark = pytest.mark.world(first_seed=420, count=3)  # group_world's arguments (tests/conftest.py)


@pytest.fixture
def world_options(world_options: dict[str, Any], database: str,
                  caplog: pytest.LogCaptureFixture) -> dict[str, Any]:
    """The bot on ``database``; warnings and worse are captured."""
    caplog.set_level(logging.WARNING)
    return {**world_options, "database": database}


@pytest.fixture
def world(world: tuple[FakeTelegram, BotRunner, dict[str, FakeUser]]) -> tuple[FakeTelegram, BotRunner,
                                                                                dict[str, FakeUser]]:
    """The bot in three groups."""
    tg, runner, users = world
    for chat_id in OTHER_CHATS:
        tg.add_chat(chat_id, "supergroup", "Соседний клуб", creator=1)
    return tg, runner, users


@contextmanager
def in_chat(runner: BotRunner, chat_id: int) -> Iterator[None]:
    """The runner's players write and press in ``chat_id`` for a while."""
    before, runner.chat_id = runner.chat_id, chat_id
    try:
        yield
    finally:
        runner.chat_id = before


async def spichki_in(runner: BotRunner, users: dict[str, FakeUser], chat_id: int) -> StoredMessage:
    """A «Спички» game of Аня and Борис started in ``chat_id`` (the chat's turn timer: 3 minutes)."""
    with in_chat(runner, chat_id):
        return await start_for_two(runner, users, "spichki")


async def poison(database: str, game_id: int, kind: str) -> None:
    """Spoil the stored game as ``kind`` says, straight in the database."""
    ((state, options),) = await fetch(database, "SELECT state, options FROM games WHERE id = ?", game_id)
    if kind == "corrupt_json":
        await execute(database, "UPDATE games SET state = ? WHERE id = ?", '{"seed": "ab', game_id)
    elif kind == "unknown_game":
        await execute(database, "UPDATE games SET code = ? WHERE id = ?", "domino", game_id)
    elif kind == "invalid_option":
        changed = {**json.loads(options), "goal": 999}  # the engine's options refuse it
        await execute(database, "UPDATE games SET options = ? WHERE id = ?", json.dumps(changed), game_id)
    else:  # a state stored by a release whose state had no «pile» yet
        old = {key: value for key, value in json.loads(state).items() if key != "pile"}
        await execute(database, "UPDATE games SET state = ? WHERE id = ?", json.dumps(old), game_id)


async def stored(database: str, game_id: int) -> tuple[str, str | None, int]:
    """The game's status, result and version as stored."""
    ((status, result, version),) = await fetch(database, "SELECT status, result, version FROM games WHERE id = ?",
                                               game_id)
    return status, None if result is None else json.dumps(json.loads(result)), version


def notices(tg: FakeTelegram, chat_id: int) -> list[str]:
    """The bot's messages in ``chat_id`` that say a game there is broken."""
    return [m.text or "" for m in tg.bot_messages(chat_id) if NOTICE in (m.text or "")]


def problems(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Errors logged, and tracebacks of any level."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def run_timer(runner: BotRunner, game_id: int) -> None:
    """Let the game's armed turn timer run out: the clock passes its deadline and its own job runs."""
    assert runner.app is not None and runner.app.job_queue is not None
    jobs = runner.app.job_queue.get_jobs_by_name(f"deadline:{game_id}")
    assert [job.data for job in jobs] == [game_id], "no turn timer armed"
    flow = flow_of(runner)
    game = await flow.store.game(game_id)
    assert game is not None and game.deadline is not None
    later(flow, game.deadline - flow.clock() + 1)
    await jobs[0].run(runner.app)
    await runner.handled()


async def test_a_broken_game_is_quarantined_at_start_up_and_the_others_play_on(world, database, kind, caplog) -> None:
    tg, runner, users = world
    broken_table = await spichki_in(runner, users, CHAT_ID)
    due_table = await spichki_in(runner, users, OTHER_CHATS[0])
    pending_table = await spichki_in(runner, users, OTHER_CHATS[1])
    broken, due, pending = game_id_of(broken_table), game_id_of(due_table), game_id_of(pending_table)
    old_button = broken_table.buttons[0][1]
    await runner.stop()
    await poison(database, broken, kind)
    # both turns ran out while the bot was down, the broken game's first: start-up meets it before the other
    await execute(database, "UPDATE games SET deadline = ? WHERE id = ?", 1.0, broken)
    await execute(database, "UPDATE games SET deadline = ? WHERE id = ?", 2.0, due)
    version, due_version = (await stored(database, broken))[2], (await stored(database, due))[2]
    await runner.start()
    await runner.handled()

    assert await stored(database, broken) == ("stopped", '{"kind": "broken"}', version)
    assert notices(tg, CHAT_ID) == [f"Игра #{broken} {NOTICE}"]
    assert broken_table.buttons == []  # its old buttons could only meet it again
    logged = problems(caplog)
    assert len(logged) == 1 and f"game {broken} in chat {CHAT_ID} cannot be decoded" in logged[0], logged
    assert "Аня" not in logged[0] and "Борис" not in logged[0]
    # the other chats: the turn that ran out while down was played, the pending timer is armed and plays
    assert (await stored(database, due))[2] > due_version and "время вышло" in (due_table.caption or "")
    pending_version = (await stored(database, pending))[2]
    await run_timer(runner, pending)
    assert (await stored(database, pending))[2] > pending_version and "время вышло" in (pending_table.caption or "")
    assert notices(tg, OTHER_CHATS[0]) == notices(tg, OTHER_CHATS[1]) == []

    # a press on the broken game's old table is answered and changes nothing
    edits, messages = broken_table.edit_count, len(tg.bot_messages(CHAT_ID))
    answer = await runner.press_data(users["boris"], broken_table, old_button)
    assert answer.get("text") == "Эта игра повреждена и остановлена."
    assert broken_table.edit_count == edits and len(tg.bot_messages(CHAT_ID)) == messages
    assert await stored(database, broken) == ("stopped", '{"kind": "broken"}', version)

    # its chat: /stop has nothing left to stop, /newgame opens a lobby, /history says what happened
    await runner.say(users["anya"], "/stop")
    assert "Сейчас в чате нет игры" in (tg.last_bot_message(CHAT_ID).text or "")
    await runner.say(users["anya"], "/newgame spichki")
    lobby = runner.table()
    assert lobby is not broken_table and lobby.has_button("Играю")
    await runner.say(users["anya"], "/history")
    assert f"#{broken}" in (tg.last_bot_message(CHAT_ID).text or "") and "повреждена" in (
        tg.last_bot_message(CHAT_ID).text or "")
    # the sweep meets nothing broken any more, and nobody is told twice
    assert await flow_of(runner).expire_idle() == 0
    await runner.restart()
    await runner.handled()
    await runner.press_data(users["boris"], broken_table, old_button)  # met again by a fresh process
    assert len(notices(tg, CHAT_ID)) == 1
    assert len(problems(caplog)) == 1
    assert len([r for r in caplog.records if f"game {broken} " in r.getMessage()]) == 1  # logged once, ever


async def test_start_up_redraws_the_other_tables_behind_a_broken_one(world, database, caplog) -> None:
    """Two tables were left behind their game by a crash; one game has gone bad meanwhile."""
    tg, runner, users = world
    broken_table = await spichki_in(runner, users, CHAT_ID)
    healthy_table = await spichki_in(runner, users, OTHER_CHATS[0])
    broken, healthy = game_id_of(broken_table), game_id_of(healthy_table)
    await runner.stop()
    for game_id in (broken, healthy):  # the broken one comes first (by id)
        await execute(database, "UPDATE games SET shown_version = version - 1, deadline = NULL WHERE id = ?", game_id)
    await poison(database, broken, "old_schema")
    await runner.start()
    await runner.handled()
    ((shown, version),) = await fetch(database, "SELECT shown_version, version FROM games WHERE id = ?", healthy)
    assert shown == version  # its table was shown again
    assert (await stored(database, broken))[:2] == ("stopped", '{"kind": "broken"}')
    assert notices(tg, CHAT_ID) == [f"Игра #{broken} {NOTICE}"] and len(problems(caplog)) == 1


async def test_the_sweep_meets_a_broken_game_and_closes_the_other_idle_ones(world, database, kind, caplog) -> None:
    tg, runner, users = world
    table = await spichki_in(runner, users, CHAT_ID)
    with in_chat(runner, OTHER_CHATS[0]):
        await runner.say(users["anya"], "/newgame spichki")
        idle_lobby = runner.table()
    abandoned_table = await spichki_in(runner, users, OTHER_CHATS[1])
    broken, idle, abandoned = game_id_of(table), game_id_of(idle_lobby), game_id_of(abandoned_table)
    version = (await stored(database, broken))[2]
    await poison(database, broken, kind)
    flow = flow_of(runner)
    later(flow, DAY + 60)  # nobody touched anything for a day
    assert await flow.expire_idle() == 2  # the healthy lobby and game; the broken one is quarantined beside them
    await runner.handled()
    assert (await stored(database, idle))[:2] == ("stopped", '{"kind": "expired"}')
    assert (await stored(database, abandoned))[:2] == ("stopped", '{"kind": "abandoned"}')
    assert await stored(database, broken) == ("stopped", '{"kind": "broken"}', version)
    assert notices(tg, CHAT_ID) == [f"Игра #{broken} {NOTICE}"]
    assert notices(tg, OTHER_CHATS[0]) == notices(tg, OTHER_CHATS[1]) == []
    assert await flow.expire_idle() == 0  # the next minute: nothing broken, nothing failing
    assert len(notices(tg, CHAT_ID)) == 1 and len(problems(caplog)) == 1
    with in_chat(runner, CHAT_ID):
        await runner.say(users["boris"], "/newgame spichki")
        assert runner.table() is not table


@pytest.mark.parametrize("first", ["press", "stop", "newgame", "timer"])
async def test_whatever_meets_a_broken_game_first_quarantines_it_once(world, database, first, caplog) -> None:
    """The bot running, a game goes bad under it; the first to meet it is a press on its table, a
    command in its chat or its turn timer. Every one leaves the chat told once and free."""
    tg, runner, users = world
    table = await spichki_in(runner, users, CHAT_ID)
    other = await spichki_in(runner, users, OTHER_CHATS[0])
    broken, healthy = game_id_of(table), game_id_of(other)
    version = (await stored(database, broken))[2]
    await poison(database, broken, "unknown_game")
    with in_chat(runner, CHAT_ID):
        if first == "press":
            answer = await runner.press_data(users["anya"], table, table.buttons[0][1])
            assert answer.get("text") == "Эта игра повреждена и остановлена."
        elif first == "timer":
            await run_timer(runner, broken)
        else:
            await runner.say(users["anya"], f"/{first}")
    assert await stored(database, broken) == ("stopped", '{"kind": "broken"}', version)
    assert notices(tg, CHAT_ID) == [f"Игра #{broken} {NOTICE}"] and notices(tg, OTHER_CHATS[0]) == []
    assert len(problems(caplog)) == 1
    with in_chat(runner, CHAT_ID):
        if first != "newgame":  # (the /newgame that met it opened the picker at once)
            await runner.say(users["anya"], "/newgame")
        assert tg.last_bot_message(CHAT_ID).has_button("Спички")  # the game picker: a new game can start
    version = (await stored(database, healthy))[2]
    await run_timer(runner, healthy)  # the other chat's timer still plays
    assert (await stored(database, healthy))[2] > version
    assert len(notices(tg, CHAT_ID)) == 1 and len(problems(caplog)) == 1
