"""«🔁 Ещё раунд», through the fake Bot API: the host's press deals the next game at once, with the same
players and settings; anyone else's who played opens a lobby with the same people seated, so that the
host may change the settings (or seat a computer) first, and starts it."""

from __future__ import annotations

import pytest

from bot.fake_telegram import FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, flow_of, game_id_of

pytestmark = pytest.mark.world(first_seed=720, count=3)  # group_world's arguments (tests/conftest.py)


async def resigned(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage) -> StoredMessage:
    """The player to move resigns («🏳 Сдаться», then «Да, сдаюсь»); the result message."""
    mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption))
    await runner.press(mover, table, "🏳 Сдаться")
    await runner.press(mover, table, "Да, сдаюсь")
    return next(m for m in reversed(runner.tg.bot_messages(CHAT_ID)) if m.buttons and "Ещё раунд" in m.buttons[0][0])


async def status_of(runner: BotRunner, message: StoredMessage) -> str:
    game = await flow_of(runner).store.game(game_id_of(message))
    assert game is not None
    return game.status


async def test_a_players_rematch_opens_a_lobby_the_host_starts_and_the_hosts_starts_at_once(world) -> None:
    tg, runner, users = world
    anya, boris = users["anya"], users["boris"]
    await runner.say(anya, "/newgame lions")
    lobby = runner.table()
    await runner.press(boris, lobby, "Играю")
    await runner.press(anya, lobby, "Начать")
    result = await resigned(runner, users, runner.table())

    answer = await runner.press(boris, result, "Ещё раунд")  # not the host: a lobby, nobody plays yet
    assert answer["text"] == "Новое лобби с теми же игроками: начнёт хост, Аня."
    lobby = runner.table()
    assert await status_of(runner, lobby) == "lobby"
    assert "🦁 Львы: Аня · 🏹 Охотники: Борис" in lobby.caption and "Хост: Аня" in lobby.caption
    answer = await runner.press(boris, lobby, "Начать")
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(anya, lobby, "Поменять стороны")  # the host sets it up first
    assert "🦁 Львы: Борис · 🏹 Охотники: Аня" in lobby.caption
    await runner.press(anya, lobby, "Начать")
    table = runner.table()
    assert await status_of(runner, table) == "running" and "Ходит:" in table.caption
    game = await flow_of(runner).store.game(game_id_of(table))
    assert game is not None and game.names == ["Аня", "Борис"] and game.options["lions_seat"] == 1

    result = await resigned(runner, users, table)
    before = len(tg.bot_messages(CHAT_ID))
    answer = await runner.press(anya, result, "Ещё раунд")  # the host's press: the table at once, one message
    assert answer["text"] == "Поехали!"
    table = runner.table()
    assert await status_of(runner, table) == "running" and len(tg.bot_messages(CHAT_ID)) == before + 1
    game = await flow_of(runner).store.game(game_id_of(table))
    assert game is not None and game.names == ["Аня", "Борис"] and game.options["lions_seat"] == 1
