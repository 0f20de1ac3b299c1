"""Security suite: HTML.

**HTML**: user text that reaches an HTML message (``/set``, ``/newgame``, ``/rules``,
``/lang``, ``/tally``, names in the result message, its tally and the rematch's table) is
escaped or not echoed. The fake server parses HTML like Telegram and rejects malformed
markup (a violation ``group_world`` fails on). Names in the lobby and table captions are
``test_names_cannot_make_the_bot_post_html`` in ``test_faults_input.py``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.fake_telegram import StoredMessage
from bot.games import GAMES
from tests.bot_harness import CHAT_ID, group_world
from tests.security_helpers import command, pub_rounds

EVIL_NAME = "<b>Ева</b> & <i>"  # markup, an entity and an unclosed tag Telegram would reject


def own_code(text: str | None, entity: dict[str, Any]) -> bool:
    """The bot's own <code>: the lobby's commitment (32 hex digits), a dice seed or its
    sha256 (64, in a check of the dice), or «/verify N»."""
    units = (text or "").encode("utf-16-le")  # entity offsets count UTF-16 units
    covered = units[2 * entity["offset"]:2 * (entity["offset"] + entity["length"])].decode("utf-16-le")
    return entity["type"] == "code" and re.fullmatch(r"[0-9a-f]{32}|[0-9a-f]{64}|/verify \d+", covered) is not None


def plain(message: StoredMessage) -> None:
    """The message has no formatting a user's text could have made (bold, italic, links…)."""
    assert not [e for e in message.entities if e["type"] != "bold" and not own_code(message.text, e)], \
        message.entities


async def test_user_text_in_commands_is_escaped_or_not_echoed(tmp_path: Path) -> None:
    unknown = "Такой игры нет. Доступные: " + ", ".join(GAMES)
    async with group_world(tmp_path, first_seed=41, count=1) as (tg, runner, users):
        anya = users["anya"]
        for text, expected in (("/newgame <b>x</b>", unknown), ("/rules <i>", unknown),
                               ('/newgame <a href="https://x.evil">sosedi</a>', unknown),
                               ("/lang <b>en</b>", "Использование: /lang ru | en"),
                               ("/tally <b>reset</b>", "Пока никто не проставлялся."),
                               ("/set <b>chips</b> 5", "Настройки меняются в лобби, до начала игры. Начать: /newgame")):
            reply = await command(runner, anya, text)
            assert (reply.text, reply.others) == (expected, []), text
        await runner.say(anya, "/newgame sosedi")
        lobby = runner.table()
        caption, edits = lobby.caption, lobby.edit_count
        for text, expected in (
                ("/set <b>chips</b> 5", "Такой настройки нет: «<b>chips</b>». Настройки этой игры:"),  # echoed, escaped
                ("/set a&amp;b<i> 1", "Такой настройки нет: «a&amp;b<i>». Настройки этой игры:"),
                ("/set chips <b>5</b>", "Фишки: от 5 до 30"),  # the value is not echoed
                ("/set mode <i>reverse</i>", "Вариант: «классика», «наоборот» или «Башня»"),
                ("/set tower <tg-spoiler>", "Башня: от 5 до 60 или «авто»"),
                ('/set <a href="x">k</a> 1', "Такой настройки нет: «<a». Настройки этой игры:")):  # names no option
            before = len(tg.bot_messages(CHAT_ID))
            await runner.say(anya, text)
            replies = tg.bot_messages(CHAT_ID)[before:]
            assert len(replies) == 1 and replies[0].text is not None, text
            assert replies[0].text.startswith(expected), (text, replies[0].text)
            plain(replies[0])
        assert (lobby.caption, lobby.edit_count) == (caption, edits)


async def test_names_with_markup_in_the_result_the_tally_and_the_rematch(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=61, count=1) as (tg, runner, users):
        eva = tg.add_user(66, EVIL_NAME)
        _, results = await pub_rounds(runner, users["anya"], eva, {EVIL_NAME})
        paid = next(r for r in results if f"🍺 {EVIL_NAME} платит" in (r.text or ""))  # shown as the text it is
        for result in results:
            assert f"{EVIL_NAME} — " in (result.text or "") or result.message_id < paid.message_id
            plain(result)
        table = runner.table()  # the rematch's table
        assert EVIL_NAME in table.caption
        assert not [e for e in table.caption_entities
                    if e["type"] not in ("bold", "text_link") and not own_code(table.caption, e)]
        assert {e.get("url") for e in table.caption_entities if e["type"] == "text_link"} <= {
            f"tg://user?id={users['anya'].id}", f"tg://user?id={eva.id}"}
        await runner.say(eva, "/tally")
        tally = tg.last_bot_message(CHAT_ID)
        assert tally.text is not None and f"\n{EVIL_NAME} — " in tally.text
        plain(tally)
