"""The real `python -m bot` process: SIGKILL mid-game, start again, and the game goes on."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from bot.fake_telegram import FakeTelegram
from tests.bot_harness import CHAT_ID, current_player_name
from tests.process_steps import TOKEN, press, spawn

pytestmark = pytest.mark.tg(token=TOKEN, bot_username="SosediBot")  # FakeTelegram's arguments (tests/conftest.py)


async def test_sigkill_mid_game_then_restart_continues(tg: FakeTelegram, tmp_path: Path) -> None:
    users = [tg.add_user(1, "Аня"), tg.add_user(2, "Борис")]
    by_name = {u.first_name: u for u in users}
    tg.add_chat(CHAT_ID, "supergroup", creator=1)
    db, log = tmp_path / "bot.sqlite3", tmp_path / "bot.log"
    bot = await spawn(tg, db, log)
    try:
        await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)  # started and polling
        await tg.send_message(users[0], CHAT_ID, "/newgame sosedi")
        await tg.wait_for(lambda s: any(m.photo for m in s.bot_messages(CHAT_ID)), timeout=15)
        table = next(m for m in tg.bot_messages(CHAT_ID) if m.photo)
        await press(tg, users[1], table, "Играю")
        await press(tg, users[0], table, "Начать")
        for _ in range(3):
            await press(tg, by_name[current_player_name(table.caption)], table, "🎲")
        caption = table.caption
        bot.send_signal(signal.SIGKILL)
        assert await bot.wait() == -signal.SIGKILL
        bot = await spawn(tg, db, log)
        await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)
        assert table.caption == caption  # nothing was lost and nothing redrawn needlessly
        answer = await press(tg, by_name[current_player_name(table.caption)], table, "🎲")
        assert answer.startswith("🎲 ")
        assert table.caption != caption
        assert "Ходит:" in table.caption or "🏆" in table.caption  # going on, or just won
    finally:
        if bot.returncode is None:
            bot.send_signal(signal.SIGTERM)
            await asyncio.wait_for(bot.wait(), 30)
    text = log.read_text(encoding="utf-8")
    assert TOKEN not in text and "PROCESS-test-token" not in text  # the token is never logged
    assert "Traceback" not in text
    assert tg.violations == []
