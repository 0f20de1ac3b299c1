"""Helpers shared by the security suite (``test_security_*.py``): a command and what the bot
said to it (also from an anonymous admin), a refusal, a die rolled, and pub rounds played.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from typing import Any

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, game_id_of

# a refusal, from locales/ru/main.ftl
STOP_DENIED = "Остановить игру может только хост или администратор чата."
ANONYMOUS_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}


@dataclass
class Outcome:
    """What the sender was told (the command's reply or the press's toast), and any other
    message the bot posted."""

    text: str
    others: list[StoredMessage]


Actor = FakeUser | None  # None: the anonymous admin


_anonymous_ids = itertools.count(900_001)


def anonymous_message(tg: FakeTelegram, text: str) -> dict[str, Any]:
    """A command from an anonymous admin: Telegram sends it from GroupAnonymousBot with the
    group itself as ``sender_chat``."""
    chat = tg.chats[CHAT_ID].to_dict()
    command = text.split()[0]
    return {"message": {"message_id": next(_anonymous_ids), "date": int(time.time()), "chat": chat,
                        "from": ANONYMOUS_BOT, "sender_chat": chat, "text": text,
                        "entities": [{"type": "bot_command", "offset": 0, "length": len(command)}]}}


async def command(runner: BotRunner, who: Actor, text: str) -> Outcome:
    """``who`` sends ``text`` in the group; the bot's reply (to that message) and the rest."""
    tg = runner.tg
    before = len(tg.bot_messages(CHAT_ID))
    if who is None:
        await tg.push_update(anonymous_message(tg, text))
        await runner.handled()
    else:
        await runner.say(who, text)
    new = tg.bot_messages(CHAT_ID)[before:]
    replies = [m for m in new if m.text is not None and (who is None or (
        m.reply_to is not None and m.reply_to.sender.id == who.id and m.reply_to.text == text))]
    assert len(replies) <= 1, [m.summary() for m in new]
    told = (replies[0].text or "") if replies else ""
    return Outcome(told, [m for m in new if m not in replies])


async def roll(runner: BotRunner, players: dict[str, FakeUser], table: StoredMessage) -> dict[str, Any]:
    """Whoever the caption names rolls."""
    return await runner.press(players[current_player_name(table.caption)], table, "🎲")


async def pub_rounds(runner: BotRunner, host: FakeUser, guest: FakeUser,
                     payers: set[str]) -> tuple[list[int], list[StoredMessage]]:
    """``host`` opens a «соседи наоборот» lobby (a pub game: the loser pays a round), ``guest``
    sits down, and they play rounds («🔁 Ещё раунд», at least two) until everyone in ``payers``
    has paid one. Returns the game ids and the result messages."""
    tg, players = runner.tg, {host.first_name: host, guest.first_name: guest}
    await runner.say(host, "/newgame sosedi")
    table = runner.table()
    await runner.press(guest, table, "Играю")
    await runner.press(host, table, "Вариант: ")
    assert "Вариант: наоборот" in table.caption
    await runner.press(host, table, "Начать")
    assert runner.app is not None
    store = runner.app.bot_data["flow"].store
    games: list[int] = []
    results: list[StoredMessage] = []
    while len(games) < 2 or not payers <= {t.name for t in await store.pub_tally(CHAT_ID)}:
        assert len(games) < 8, await store.pub_tally(CHAT_ID)
        if games:
            await runner.press(host, results[-1], "🔁 Ещё раунд")
            table = runner.table()
        games.append(game_id_of(table))
        for _ in range(500):
            if not table.buttons:
                break
            await roll(runner, players, table)
        results.append(tg.last_bot_message(CHAT_ID))
        assert results[-1].text is not None and results[-1].text.startswith("🏁 Помоги своему соседу")
    return games, results
