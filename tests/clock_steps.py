"""The flow's clock moved on, and turns timed out, as the timer tests do it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.fake_telegram import StoredMessage
from bot.flow import GameFlow
from tests.bot_harness import (
    BotRunner,
    current_player_name,
    flow_of,
    game_id_of,
)


def later(flow: GameFlow, seconds: float) -> None:
    """Move the flow's clock on by ``seconds``."""
    now = flow.clock()
    flow.clock = lambda: now + seconds


async def time_out(runner: BotRunner, table: StoredMessage) -> bool:
    """The player to move lets the timer run out; one edit of the table follows."""
    flow = flow_of(runner)
    game = await flow.store.game(game_id_of(table))
    assert game is not None and game.deadline is not None
    later(flow, game.deadline - flow.clock() + 1)
    edits = table.edit_count
    assert runner.app is not None
    played = await flow.on_deadline(game.id)
    assert table.edit_count == edits + 1
    return played


async def boris_times_out_three_times(runner: BotRunner, table: StoredMessage,
                                      anya_turn: Callable[[], Awaitable[None]]) -> None:
    """Аня plays her turns, Борис lets the timer run out on each of his, three times; the game
    runs on until the third."""
    timeouts = 0
    while timeouts < 3:
        game = await flow_of(runner).store.game(game_id_of(table))
        assert game is not None and game.status == "running"
        if current_player_name(table.caption) == "Борис":
            assert await time_out(runner, table)
            timeouts += 1
        else:
            await anya_turn()
