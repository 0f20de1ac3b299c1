"""The chat changes under a game: the bot is kicked or muted, the group becomes a supergroup.

Kicked or muted, the bot pauses the chat's game (no turn timer, nothing queued for the chat) and
closes a lobby; let back in, it posts a fresh table and play goes on. A group that becomes a
supergroup takes its games, language, settings and pub tally to the new chat id. Whatever
happens, every game still equals the replay of its action log.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.fake_telegram import StoredMessage
from tests.bot_harness import BotRunner, assert_replays, current_player_name, game_id_of, group_world

PAUSED = ("Игра на паузе: боту сейчас нельзя писать в этот чат. Она продолжится, когда администратор "
          "вернёт боту права.")
GROUP_ID = -4001  # a basic group (ids of basic groups have no -100 prefix)


def mover_of(users, table: StoredMessage):  # type: ignore[no-untyped-def]
    return next(u for u in users.values() if u.first_name == current_player_name(table.caption))


async def stored_game(runner: BotRunner, game_id: int):  # type: ignore[no-untyped-def]
    assert runner.app is not None
    game = await runner.app.bot_data["flow"].store.game(game_id)
    assert game is not None
    return game


async def _settled(runner: BotRunner) -> None:
    """Wait for the pauses and migrations the bot started apart from the update that found them."""
    assert runner.app is not None
    await runner.app.bot_data["flow"].settled(timeout=5)


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]


async def test_kicked_the_game_pauses_and_goes_on_when_the_bot_is_back(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    await runner.press(mover_of(users, table), table, "🎲")
    assert (await stored_game(runner, game_id)).deadline is not None  # a turn timer runs (3 min)
    calls = len(tg.requests)
    await tg.set_bot_status(runner.chat_id, "kicked", by=users["anya"])
    await runner.handled()
    game = await stored_game(runner, game_id)
    assert game.paused and game.status == "running" and game.deadline is None  # no timer while away
    assert [r.method for r in tg.requests[calls:] if r.method != "getUpdates"] == []  # it stays quiet
    assert [r.getMessage() for r in caplog.records if "paused" in r.getMessage()] == [
        f"chat {runner.chat_id}: the bot is kicked there; game {game_id} is paused until the bot may post there again"]
    with pytest.raises(ValueError):  # the group cannot reach a bot that is gone
        await tg.press(users["anya"], runner.chat_id, table.message_id, table.buttons[0][1])

    await tg.set_bot_status(runner.chat_id, "member", by=users["anya"])  # an admin adds it again
    await runner.handled()
    fresh = runner.table()
    assert fresh.message_id != table.message_id and game_id_of(fresh) == game_id  # posted anew, at the bottom
    game = await stored_game(runner, game_id)
    assert not game.paused and game.deadline is not None and game.message_id == fresh.message_id
    assert " бросает " in fresh.caption
    answer = await runner.press(mover_of(users, fresh), fresh, "🎲")
    assert answer["text"].startswith("🎲 ")
    assert (await assert_replays(runner, game_id)).version == 2
    no_tracebacks(caplog)


async def test_muted_a_press_gets_a_clear_alert_and_changes_nothing(started_sosedi, caplog) -> None:
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    await tg.set_bot_status(runner.chat_id, "restricted", can_send=False, by=users["anya"])
    await runner.handled()
    assert (await stored_game(runner, game_id)).paused
    before = await stored_game(runner, game_id)
    answer = await runner.press(mover_of(users, table), table, "🎲")  # presses still reach the bot
    assert answer == {**answer, "text": PAUSED, "show_alert": True}
    assert await stored_game(runner, game_id) == before
    await runner.say(users["boris"], "/help")  # its reply is refused: nothing breaks
    assert tg.failed_requests()[-1].response["description"].endswith("not enough rights to send text messages "
                                                                       "to the chat")

    await tg.set_bot_status(runner.chat_id, "restricted", can_send=True, by=users["anya"])  # rights are back
    await runner.handled()
    fresh = runner.table()
    assert fresh.message_id != table.message_id and not (await stored_game(runner, game_id)).paused
    answer = await runner.press(mover_of(users, fresh), fresh, "🎲")
    assert answer["text"].startswith("🎲 ")
    assert (await assert_replays(runner, game_id)).version == 1
    no_tracebacks(caplog)


@pytest.mark.parametrize("refusal", [
    (403, "Forbidden: bot was kicked from the supergroup chat"),
    (400, "Bad Request: not enough rights to send photos to the chat"),
])
async def test_a_refused_edit_pauses_the_game_without_the_update(started_sosedi, refusal) -> None:
    """The my_chat_member update may come late (or never, if the bot was down long): the refusal
    itself pauses the game. The move that was pressed is stored."""
    (tg, runner, users), table = started_sosedi
    game_id = game_id_of(table)
    code, description = refusal
    tg.fail_next("editMessageMedia", error_code=code, description=description)
    answer = await runner.press(mover_of(users, table), table, "🎲")
    assert answer["text"].startswith("🎲 ")
    await runner.handled()
    await _settled(runner)
    game = await stored_game(runner, game_id)
    assert game.paused and game.version == 1 and game.deadline is None
    await assert_replays(runner, game_id)


async def test_kicked_from_a_lobby_the_lobby_is_closed(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=5) as (tg, runner, users):
        await runner.say(users["anya"], "/newgame sosedi")
        lobby = runner.table()
        game_id = game_id_of(lobby)
        await tg.set_bot_status(runner.chat_id, "left")
        await runner.handled()
        assert (await stored_game(runner, game_id)).status == "stopped"
        await tg.set_bot_status(runner.chat_id, "member")  # back: nothing to resume, a new game can start
        await runner.handled()
        await runner.say(users["anya"], "/newgame sosedi")
        assert game_id_of(runner.table()) != game_id


async def test_a_group_that_becomes_a_supergroup_keeps_its_game_language_settings_and_tally(
        tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=7, chat_type="group", chat_id=GROUP_ID) as (tg, runner, users):
        store = runner.app.bot_data["flow"].store  # type: ignore[union-attr]
        await runner.say(users["anya"], "/lang en")
        await runner.say(users["anya"], "/newgame sosedi")
        lobby = runner.table()
        await runner.press(users["boris"], lobby, "Play")
        await runner.press(users["anya"], lobby, "⏱")  # this game's turn timer: 3 → 10 minutes
        await store.set_chat_setting(GROUP_ID, "ping", 60)  # a chat default, as /settings stores it
        runner.write_db(  # as finished pub games leave it
            "INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, ?, ?, ?)",
            (GROUP_ID, users["boris"].id, "Борис", 2))
        await runner.press(users["anya"], lobby, "Start")
        table = runner.table()
        game_id = game_id_of(table)
        await runner.press(mover_of(users, table), table, "🎲")

        supergroup = await tg.migrate_to_supergroup(GROUP_ID, by=users["anya"])
        runner.chat_id = supergroup.id
        await runner.handled()
        await _settled(runner)
        fresh = runner.table()  # the table, posted afresh in the supergroup
        assert fresh.chat.id == supergroup.id and game_id_of(fresh) == game_id
        game = await stored_game(runner, game_id)
        assert game.chat_id == supergroup.id and game.message_id == fresh.message_id
        assert await store.active_game(GROUP_ID) is None
        assert (await store.chat(supergroup.id)).locale == "en"
        assert (await store.chat(supergroup.id)).settings.get("ping") == 60
        assert game.options["table"] == {"turn_timer": 10}
        assert await store.pub_tally(supergroup.id) == [(users["boris"].id, "Борис", 2)]
        assert await store.pub_tally(GROUP_ID) == []

        answer = await runner.press(mover_of(users, fresh), fresh, "🎲")  # play goes on there
        assert answer["text"].startswith("🎲 ")
        assert (await assert_replays(runner, game_id)).version == 2
        await runner.say(users["boris"], "/tally")
        assert "Борис" in tg.last_bot_message(supergroup.id).text  # type: ignore[operator]
        no_tracebacks(caplog)


async def test_a_refused_call_to_the_old_group_moves_its_game_without_the_service_messages(
        tmp_path: Path, caplog) -> None:
    """Telegram keeps updates a day: a bot down longer misses the migration's service messages.
    Its first call to the old group is refused with the new id, and the game moves there."""
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=7, chat_type="group", chat_id=GROUP_ID) as (tg, runner, users):
        flow = runner.app.bot_data["flow"]  # type: ignore[union-attr]
        await runner.say(users["anya"], "/newgame sosedi")
        await runner.press(users["boris"], runner.table(), "Играю")
        await runner.press(users["anya"], runner.table(), "Начать")
        game_id = game_id_of(runner.table())
        tg.chats[GROUP_ID].bot_status = "left"  # so the fake sends the bot no service message
        supergroup = await tg.migrate_to_supergroup(GROUP_ID, by=users["anya"])
        supergroup.bot_status = "administrator"
        assert tg.pending_updates_count() == 0
        flow.clock = lambda: 4e9  # the player to move ran out of time: the bot plays their turn ...
        assert await flow.on_deadline(game_id)  # type: ignore[union-attr]
        await _settled(runner)  # ... its table edit is refused: the game moves to the supergroup
        await flow.outbox.idle()
        runner.chat_id = supergroup.id
        fresh = runner.table()
        assert game_id_of(fresh) == game_id and "⏱" in fresh.caption  # the timed-out turn is shown
        game = await stored_game(runner, game_id)
        assert game.chat_id == supergroup.id and game.message_id == fresh.message_id and game.version == 1
        answer = await runner.press(mover_of(users, fresh), fresh, "🎲")
        assert answer["text"].startswith("🎲 ")
        await assert_replays(runner, game_id)


async def test_a_lobby_moves_to_the_supergroup_and_is_posted_there(tmp_path: Path, caplog) -> None:
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=7, chat_type="group", chat_id=GROUP_ID) as (tg, runner, users):
        await runner.say(users["anya"], "/newgame sosedi")
        game_id = game_id_of(runner.table())
        supergroup = await tg.migrate_to_supergroup(GROUP_ID)
        runner.chat_id = supergroup.id
        await runner.handled()
        lobby = runner.table()
        assert game_id_of(lobby) == game_id and "Игроки (1/6)" in lobby.caption
        await runner.press(users["boris"], lobby, "Играю")
        await runner.press(users["anya"], lobby, "Начать")
        assert "Ходит: " in runner.table().caption
        no_tracebacks(caplog)
