"""Telegram-side faults: errors and timeouts on sends and edits, 429s, a deleted table message.

Each test injects the fault with the fake server, plays on, and checks that the stored game is
the replay of its action log (nothing lost, doubled or half-applied) and the table shows it.
"""

from __future__ import annotations

import logging

import pytest

from bot.fake_telegram import StoredMessage
from tests.bot_harness import CHAT_ID, assert_replays, current_player_name, game_id_of
from tests.sosedi_steps import sosedi_started


def mover_of(users, table: StoredMessage):  # type: ignore[no-untyped-def]
    return next(u for u in users.values() if u.first_name == current_player_name(table.caption))


async def test_an_admin_deleted_the_table_a_fresh_one_is_posted(started_sosedi) -> None:
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    tg.fail_next("editMessageMedia", error_code=400, description="Bad Request: message to edit not found")
    answer = await runner.press(mover_of(users, table), table, "🎲")
    assert answer["text"].startswith("🎲 ")
    fresh = runner.table()
    assert fresh.message_id != table.message_id and fresh.photo is not None  # posted anew
    assert " бросает " in fresh.caption and game_id_of(fresh) == game_id
    state = await assert_replays(runner, game_id)
    assert state.version == 1
    answer = await runner.press(mover_of(users, fresh), fresh, "🎲")  # and the game goes on there
    assert answer["text"].startswith("🎲 ")
    assert (await assert_replays(runner, game_id)).version == 2


@pytest.mark.parametrize("method", ["editMessageMedia", "answerCallbackQuery"])
@pytest.mark.parametrize("code", [500, 502])
async def test_server_errors_lose_no_move(started_sosedi, method: str, code: int, caplog, monkeypatch) -> None:
    import bot.flow.catch_up

    monkeypatch.setattr(bot.flow.catch_up, "TABLE_RETRY_S", 0.2)
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    tg.fail_next(method, error_code=code)
    handle = await tg.press(mover_of(users, table), CHAT_ID, table.message_id, table.buttons[0][1])
    await runner.handled()
    assert (await assert_replays(runner, game_id)).version == 1  # the move is stored once
    assert handle.answered  # a lost answer is sent again at once
    if method == "editMessageMedia":  # the picture was lost: it is sent again a moment later
        await tg.wait_for(lambda s: " бросает " in table.caption, timeout=5)
    assert " бросает " in table.caption
    answer = await runner.press(mover_of(users, table), table, "🎲")
    assert answer["text"].startswith("🎲 ")
    assert (await assert_replays(runner, game_id)).version == 2
    assert not [r for r in caplog.records if r.exc_info]  # logged as a line, not a traceback


async def test_a_table_edit_is_retried_once_not_forever(started_sosedi, monkeypatch) -> None:
    import bot.flow.catch_up

    monkeypatch.setattr(bot.flow.catch_up, "TABLE_RETRY_S", 0.2)
    (tg, runner, users), table = started_sosedi
    tg.fail_next("editMessageMedia", error_code=500, times=5)
    caption = table.caption
    await runner.press(mover_of(users, table), table, "🎲")
    await tg.wait_for(lambda s: len([r for r in s.requests if r.method == "editMessageMedia"]) >= 3, timeout=5)
    await runner.handled()
    edits = [r for r in tg.requests if r.method == "editMessageMedia"]
    assert [r.error_code for r in edits[-2:]] == [500, 500]  # the edit and one retry
    assert runner.app.bot_data["flow"].retries_pending() == 0 and table.caption == caption
    answer = await runner.press(mover_of(users, table), table, "🎲")  # a stale button: it brings the table
    assert answer["text"] == "Кнопка устарела."


async def test_a_429_on_an_edit_is_waited_out_and_the_edit_arrives(started_sosedi) -> None:
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    tg.fail_next("editMessageMedia", error_code=429, retry_after=1)
    edits = table.edit_count
    answer = await runner.press(mover_of(users, table), table, "🎲")
    assert answer["text"].startswith("🎲 ")
    await tg.wait_for(lambda s: table.edit_count > edits, timeout=10)
    assert " бросает " in table.caption
    assert [r.error_code for r in tg.requests if r.method == "editMessageMedia"][-2:] == [429, None]
    assert (await assert_replays(runner, game_id)).version == 1


@pytest.fixture
async def impatient_sosedi(tmp_path, monkeypatch, caplog):  # type: ignore[no-untyped-def]
    """A «соседи» game of Аня, Борис and Вера whose bot waits 0.5 s for an answer, not 5."""
    import bot.app
    import bot.flow.catch_up

    monkeypatch.setattr(bot.app, "READ_TIMEOUT_S", 0.5)
    monkeypatch.setattr(bot.flow.catch_up, "TABLE_RETRY_S", 0.2)
    caplog.set_level(logging.WARNING)
    async with sosedi_started(tmp_path) as started:
        yield started


async def test_a_timed_out_edit_is_tried_again_and_the_move_is_stored_once(impatient_sosedi) -> None:
    (tg, runner, users), table = impatient_sosedi
    game_id = game_id_of(table)
    tg.delay_next("editMessageMedia", 1.5)  # Telegram edits, but answers after the bot gave up
    answer = await runner.press(mover_of(users, table), table, "🎲")
    assert answer["text"].startswith("🎲 ")
    await tg.wait_for(lambda s: len(s.requests_for("editMessageMedia")) >= 3, timeout=5)  # start, slow, again
    await runner.handled()
    slow, again = tg.requests_for("editMessageMedia")[-2:]
    assert slow.delayed == 1.5 and again.delayed == 0
    assert " бросает " in table.caption
    assert (await runner.app.bot_data["flow"].store.game(game_id)).shown_version == 1  # type: ignore[union-attr]
    assert (await assert_replays(runner, game_id)).version == 1


async def test_a_timed_out_answer_or_message_is_not_sent_twice(impatient_sosedi) -> None:
    (tg, runner, users), table = impatient_sosedi
    game_id = game_id_of(table)
    tg.delay_next("answerCallbackQuery", 1.5)
    answer = await runner.press(mover_of(users, table), table, "🎲")  # it arrived: the toast shows
    assert answer["text"].startswith("🎲 ")
    assert len([r for r in tg.requests_for("answerCallbackQuery") if r.delayed]) == 1
    sends, posted = len(tg.requests_for("sendMessage")), len(tg.bot_messages(CHAT_ID))
    tg.delay_next("sendMessage", 1.5)
    await runner.say(users["vera"], "/rules")
    await tg.wait_for(lambda s: s.late_answers == 0, timeout=5)
    await runner.handled()
    assert len(tg.requests_for("sendMessage")) == sends + 1  # posted once, not again
    assert len(tg.bot_messages(CHAT_ID)) == posted + 1
    assert (await assert_replays(runner, game_id)).version == 1
