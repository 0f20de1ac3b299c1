"""Group commit (bot/store/batches.py): the game reads and «table shown» writes of many chats share
statements, and still each call sees every write made before it, on both databases."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.store import Seat, StorageError, open_store
from bot.store.batches import Batched
from tests.store_helpers import moved


class Source:
    """A run of Batched that records each batch and can be held up until released."""

    def __init__(self) -> None:
        self.batches: list[dict[int, int]] = []
        self.writes = 0  # what a read returns: the writes counted when its batch began
        self.gate = asyncio.Event()
        self.gate.set()
        self.fail: Exception | None = None

    async def run(self, values: dict[int, int]) -> dict[int, Any]:
        self.batches.append(dict(values))
        seen = self.writes
        await self.gate.wait()
        if self.fail is not None:
            raise self.fail
        return {key: (value, seen) for key, value in values.items()}


async def test_calls_waiting_behind_a_batch_go_together_as_the_next() -> None:
    source = Source()
    batched: Batched[int, int, Any] = Batched(source.run)
    source.gate.clear()
    first = asyncio.create_task(batched(1, 10))
    await asyncio.sleep(0)  # the first batch is under way, held
    while not source.batches:
        await asyncio.sleep(0)
    rest = [asyncio.create_task(batched(k, 10 * k)) for k in range(2, 12)]
    await asyncio.sleep(0)
    source.gate.set()
    answers = await asyncio.gather(first, *rest)
    assert source.batches == [{1: 10}, {k: 10 * k for k in range(2, 12)}]
    assert [a[0] for a in answers] == [10 * k for k in range(1, 12)]


async def test_a_call_is_answered_by_a_batch_begun_after_it() -> None:
    """A read made after a write sees it, even though a batch begun before the write was on its way."""
    source = Source()
    batched: Batched[int, int, Any] = Batched(source.run)
    source.gate.clear()
    early = asyncio.create_task(batched(1, 0))
    while not source.batches:
        await asyncio.sleep(0)
    source.writes += 1  # a write lands while the early batch is out
    late = asyncio.create_task(batched(1, 0))  # the same key: it must not ride on the early batch
    await asyncio.sleep(0)
    source.gate.set()
    assert (await early)[1] == 0
    assert (await late)[1] == 1
    assert len(source.batches) == 2


async def test_two_values_for_one_key_in_a_batch_merge() -> None:
    source = Source()
    batched: Batched[int, int, Any] = Batched(source.run, merge=max)
    source.gate.clear()
    holder = asyncio.create_task(batched(9, 0))
    while not source.batches:
        await asyncio.sleep(0)
    calls = [asyncio.create_task(batched(1, v)) for v in (3, 7, 5)]
    await asyncio.sleep(0)
    source.gate.set()
    await asyncio.gather(holder, *calls)
    assert source.batches[1] == {1: 7}


async def test_an_error_reaches_every_call_of_its_batch_and_the_next_batch_runs() -> None:
    source = Source()
    batched: Batched[int, int, Any] = Batched(source.run)
    source.fail = StorageError("server gone")
    results = await asyncio.gather(*(batched(k, k) for k in range(5)), return_exceptions=True)
    assert all(isinstance(r, StorageError) for r in results)
    source.fail = None
    assert await batched(1, 1) == (1, 0)  # nothing stuck


async def test_a_cancelled_caller_leaves_the_others_their_answer() -> None:
    source = Source()
    batched: Batched[int, int, Any] = Batched(source.run)
    source.gate.clear()
    leaving, staying = asyncio.create_task(batched(1, 1)), asyncio.create_task(batched(2, 2))
    while not source.batches:
        await asyncio.sleep(0)
    leaving.cancel()
    source.gate.set()
    assert await staying == (2, 0)
    with pytest.raises(asyncio.CancelledError):
        await leaving


async def test_many_chats_reading_their_games_at_once_share_statements(database: str) -> None:
    store = await open_store(database)
    try:
        games = [await store.create_game(-100 - k, "sosedi", {"k": k}, f"{k:064x}", Seat(0, k + 1, f"P{k}"))
                 for k in range(30)]
        reads: list[int] = []
        read_games = store._read_games  # type: ignore[attr-defined]

        async def counted(params: Any) -> Any:
            reads.append(1)
            return await read_games(params)

        store._read_games = counted  # type: ignore[attr-defined]
        loaded = await asyncio.gather(*(store.game(g.id) for g in games), store.game(10**9))
        assert [g.options if g else None for g in loaded] == [{"k": k} for k in range(30)] + [None]
        assert [g.names if g else None for g in loaded[:3]] == [["P0"], ["P1"], ["P2"]]
        assert 1 <= len(reads) < 10  # 31 calls, a few statements
    finally:
        await store.close()


async def test_tables_shown_at_once_are_stored_when_each_call_returns(database: str) -> None:
    store = await open_store(database)
    games = [await store.create_game(-200 - k, "sosedi", {}, f"{k:064x}", Seat(0, 1, "Аня")) for k in range(20)]
    for g in games:
        await store.set_message_id(g.id, 5)
        await store.save_move(moved(g.id, 0, {}, 0, [(None, "start", (), [])]))
        for version in range(3):
            await store.save_move(moved(g.id, version, {}, version + 1, [(0, "r", (), [])]))
    # every game at version 3; each shown twice at once, the later version must win
    await asyncio.gather(*(store.set_shown_version(g.id, v) for g in games for v in (3, 2)))
    await store.close()
    store = await open_store(database)  # another connection: it was written, not only remembered
    try:
        assert await store.games_behind() == []
        assert {(await store.game(g.id)).shown_version for g in games} == {3}  # type: ignore[union-attr]
        await store.set_shown_version(games[0].id, 1)  # never back
        assert (await store.game(games[0].id)).shown_version == 3  # type: ignore[union-attr]
    finally:
        await store.close()
