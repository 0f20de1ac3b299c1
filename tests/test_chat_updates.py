"""bot.chat_updates.ChatUpdateProcessor: each chat's updates in places of their own."""

from __future__ import annotations

import asyncio

from telegram import Chat, Message, Update

from bot.chat_updates import ChatUpdateProcessor

NOW = 1_700_000_000


def update_in(chat_id: int, update_id: int) -> Update:
    chat = Chat(chat_id, Chat.SUPERGROUP)
    return Update(update_id, message=Message(update_id, NOW, chat, text="/help"))  # type: ignore[arg-type]


async def test_a_chat_with_its_places_taken_does_not_hold_another_chat() -> None:
    processor = ChatUpdateProcessor(per_chat=2, waiting=3)
    gate, ran = asyncio.Event(), []

    async def handle(name: str, wait: bool) -> None:
        ran.append(f"{name} started")
        if wait:
            await gate.wait()  # a handler waiting for its chat (its lock, its window)
        ran.append(f"{name} done")

    busy = [asyncio.create_task(processor.process_update(update_in(-1, i), handle(f"busy {i}", True)))
            for i in range(6)]  # 2 run, 3 wait in line, the sixth is one too many
    await asyncio.sleep(0.01)
    quiet = asyncio.create_task(processor.process_update(update_in(-2, 99), handle("quiet", False)))
    await asyncio.wait_for(quiet, 1)
    assert ran == ["busy 0 started", "busy 1 started", "quiet started", "quiet done"]
    assert busy[5].done()  # dropped at once: the busy chat's line was full
    gate.set()
    await asyncio.gather(*busy)
    assert sorted(r for r in ran if r.startswith("busy") and r.endswith("done")) == [
        f"busy {i} done" for i in range(5)]
    assert processor.chats() == 0  # idle chats are forgotten


async def test_updates_of_no_chat_run_at_once() -> None:
    processor, ran = ChatUpdateProcessor(per_chat=1, waiting=0), []

    async def handle() -> None:
        ran.append(1)

    await processor.process_update(Update(1), handle())
    assert ran == [1] and processor.chats() == 0
