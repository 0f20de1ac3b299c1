"""Text is escaped exactly once: players named like HTML play every game, and after the fake server's
entity parsing (as Telegram does it) every caption, log line, result, /stats, /top and /history shows
their names as they are: neither as markup nor with an entity showing («&amp;»)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.games import GAMES
from tests.bot_harness import CHAT_ID, BotRunner, assert_replays, current_player_name, game_id_of, stored_state

NAMES = ("Tom & Jerry", "<b>Босс</b>", '"Q" <q@x>')
ENTITIES = ("&amp;", "&lt;", "&gt;", "&quot;", "&#")  # what a second escaping would leave on screen
PRESSES = 6  # each game is played a little by its people, then they leave and the computer ends it


def verbatim(message: StoredMessage, *names: str) -> str:
    """The message's text as a reader sees it; it shows ``names`` and no entity of an escaping."""
    text = message.text if message.text is not None else message.caption
    assert text is not None
    assert not [e for e in ENTITIES if e in text], text
    assert all(name in text for name in names), (names, text)  # unescaped, «<b>Босс</b>» would be a bold «Босс»
    return text


async def play_a_little_then_leave(tg: FakeTelegram, runner: BotRunner, people: list[FakeUser], code: str,
                                   rng: random.Random) -> None:
    host, by_name = people[0], {u.first_name: u for u in people}
    seated = people[:GAMES[code].engine.max_players]
    await runner.say(host, f"/newgame {code}")
    lobby = runner.table()
    for guest in seated[1:]:
        await runner.press(guest, lobby, "Играю")
    verbatim(lobby, *(u.first_name for u in seated))
    await runner.press(host, lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)
    skips = GAMES[code].random_skips  # never a draw offered, a resignation or a step back
    async def press_once() -> None:  # the log names the player of each press
        mover = by_name[current_player_name(verbatim(table, *(u.first_name for u in seated)))]
        offered = [data for _, data in table.buttons if data.startswith("g:")]
        engine = GAMES[code].engine
        kinds = {a.code: a.kind for a in engine.legal_actions(await stored_state(runner, engine, game_id))}
        choices = [d for d in offered if kinds[d.rsplit(":", 1)[1]] not in skips]
        await runner.press_data(mover, table, rng.choice(choices))

    for _ in range(PRESSES):
        await press_once()
        if not table.buttons:
            break
    for person in seated[:-1]:  # /leave: the computer takes the seat (or the player resigns) and says so
        if not table.buttons:
            break
        await runner.say(person, "/leave")
        verbatim(tg.last_bot_message(CHAT_ID), person.first_name)
    for _ in range(3000):  # the last person plays it out against the computers in the others' seats
        if not table.buttons:
            break
        await press_once()
    await runner.handled()
    result = next(m for m in reversed(tg.bot_messages(CHAT_ID)) if m.buttons and "Ещё раунд" in m.buttons[0][0])
    text = verbatim(result)
    assert any(u.first_name in text for u in seated), text  # who won or paid: a person, or a computer in their seat
    verbatim(table, *(u.first_name for u in seated))  # the last table: its log, status and result
    await assert_replays(runner, game_id)


async def test_names_like_html_show_as_they_are_in_every_game_and_in_the_stats(tmp_path: Path) -> None:
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        people = [tg.add_user(i + 1, name) for i, name in enumerate(NAMES)]
        tg.add_chat(CHAT_ID, "supergroup", "Пятничный клуб", creator=1)
        runner = BotRunner(tg, tmp_path / "bot.sqlite3")
        await runner.start()
        seeds = (f"{i:064x}" for i in itertools.count(41))
        runner.app.bot_data["flow"].seed_factory = lambda: next(seeds)  # type: ignore[union-attr]
        try:
            rng = random.Random(7)
            for code in GAMES:
                await play_a_little_then_leave(tg, runner, people, code, rng)
            for person in people:
                await runner.say(person, "/stats")
                verbatim(tg.last_bot_message(CHAT_ID), person.first_name)
            await runner.say(people[0], "/top")
            verbatim(tg.last_bot_message(CHAT_ID), *NAMES)
            await runner.say(people[0], "/history")
            verbatim(tg.last_bot_message(CHAT_ID), *NAMES)
        finally:
            await runner.stop()
        assert tg.violations == [] and not tg.unanswered_callbacks()
