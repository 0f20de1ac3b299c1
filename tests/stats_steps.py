"""Finished games of known players in a store, as the stats and ratings tests build them."""

from __future__ import annotations

from typing import Any

from bot.store import (
    Seat,
    Store,
)
from tests.store_helpers import moved

CHAT = -500


ANYA, BORIS, VERA = Seat(0, 10, "Аня"), Seat(1, 20, "Борис"), Seat(2, 30, "Вера")


KESHA = Seat(2, -1, "🤖 Кеша")


async def started(store: Store, seats: tuple[Seat, ...] = (ANYA, BORIS, KESHA), chat: int = CHAT,
                  code: str = "sosedi") -> int:
    """A game with ``seats``, begun (version 0) and one move on (version 1)."""
    game = await store.create_game(chat, code, {}, "00" * 32, seats[0], seats)
    await store.save_move(moved(game.id, 0, {"v": 0}, 0, [(None, "start", (), [])]))
    await store.save_move(moved(game.id, 0, {"v": 1}, 1, [(0, "r", (1, 2, 3), [])]))
    return game.id


async def finish(store: Store, game_id: int, result: dict[str, Any], payer: Seat | None = None,
                 new_seat: Seat | None = None) -> None:
    await store.save_move(moved(game_id, 1, {"v": 2}, 2, [(1, "r", (6, 6, 6), [])], status="finished",
                                result=result, pub_payer=payer, new_seat=new_seat))
