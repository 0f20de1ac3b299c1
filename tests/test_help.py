"""/help names every game the bot offers («Охота на львов» was missing), by its
name and the command that opens it, in the chat's language. Through the fake Bot API."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import GAMES
from locales import Translator
from tests.bot_harness import CHAT_ID, group_world


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_help_lists_every_game_by_name(tmp_path: Path, lang: str) -> None:
    words = Translator.load(strict=True)
    async with group_world(tmp_path, first_seed=5, count=1) as (tg, runner, users):
        if lang == "en":
            await runner.say(users["anya"], "/lang en")
        await runner.say(users["anya"], "/help")
        text = tg.last_bot_message(CHAT_ID).text
        assert text is not None
        lines = text.splitlines()
        for code in GAMES:
            assert f"• {words.t(lang, f'game-{code}')} — /newgame {code}" in lines, (code, text)
        assert "кост" not in lines[0] and "Dice" not in lines[0]  # not every game has dice
