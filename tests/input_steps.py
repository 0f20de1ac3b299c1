"""Everything a refused input could have changed, as the fault tests compare it."""

from __future__ import annotations

from typing import Any

from bot.fake_telegram import FakeTelegram, StoredMessage
from tests.bot_harness import BotRunner, game_id_of


async def snapshot(tg: FakeTelegram, runner: BotRunner, table: StoredMessage,
                   game_id: int | None = None) -> tuple[Any, ...]:
    """Everything a hostile input must leave alone: the stored games and the table message."""
    assert runner.app is not None
    store = runner.app.bot_data["flow"].store
    game = await store.game(game_id or game_id_of(table))
    other = await store.active_game(OTHER_CHAT)
    return (game.version, game.state, game.status, game.seats, other and (other.id, other.version),
            table.edit_count, table.caption, table.photo_hash, table.buttons, table.deleted)


OTHER_CHAT = -100777
