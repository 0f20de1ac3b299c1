"""Text is escaped exactly once and names are cleaned once: players named like HTML, or with nothing but
controls, bidi overrides and zero-width characters in their names, play every game, and after the fake
server's entity parsing (as Telegram does it) every caption, log line, result, /stats, /top and /history
shows their names as they are, cleaned: neither as markup nor with an entity showing («&amp;»), no control
or format character anywhere, and a name nothing is left of as «Игрок N» (N: the seat, from 1)."""

from __future__ import annotations

import itertools
import random
import unicodedata
from pathlib import Path

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.games import GAMES
from tests.bot_harness import (
    CHAT_ID,
    BotRunner,
    assert_replays,
    current_player_name,
    game_id_of,
    group_world,
    start_for_two,
    stored_state,
)

NAMES = ("Tom & Jerry", "<b>Босс</b>", '"Q" <q@x>')
# a right-to-left override, a zero-width space inside a name, nothing but joiners, bidi isolates or
# whitespace controls, a NUL: what each leaves on screen (nothing: «Игрок N»)
HOSTILE = {"\u202eАня": "Аня", "Б\u200bорис": "Борис", "\u200b\u200c\u200d": "", "\u2066\u2067\u2069": "",
           "\n\t": "", "Вера\u0000": "Вера"}
FIRST_ID = 1001  # ids of four digits: a person with no name left and no seat is «Игрок 1006»
ENTITIES = ("&amp;", "&lt;", "&gt;", "&quot;", "&#")  # what a second escaping would leave on screen
PRESSES = 6  # each game is played a little by its people, then they leave and the computer ends it


def shown(user: FakeUser, seat: int | None = None) -> str:
    """How the bot names ``user``: their name cleaned, or «Игрок N» at ``seat`` (with no seat: by their id)."""
    return HOSTILE.get(user.first_name, user.first_name) or f"Игрок {seat + 1 if seat is not None else user.id}"


def verbatim(message: StoredMessage, *names: str) -> str:
    """The message's text as a reader sees it; it shows ``names``, no entity of an escaping and no control
    or format character (a line break aside)."""
    text = message.text if message.text is not None else message.caption
    assert text is not None
    assert not [e for e in ENTITIES if e in text], text
    assert all(name in text for name in names), (names, text)  # unescaped, «<b>Босс</b>» would be a bold «Босс»
    hidden = [c for c in text if c != "\n" and unicodedata.category(c) in ("Cc", "Cf", "Cs")]
    assert not hidden, ascii(text)
    return text


async def play_a_little_then_leave(tg: FakeTelegram, runner: BotRunner, seated: list[FakeUser], code: str,
                                   rng: random.Random) -> list[str]:
    """Play ``code`` with ``seated`` (the first one hosts); the names the game showed, by seat."""
    host, names = seated[0], [shown(u, seat) for seat, u in enumerate(seated)]
    by_name = dict(zip(names, seated, strict=True))
    await runner.say(host, f"/newgame {code}")
    lobby = runner.table()
    for guest in seated[1:]:
        await runner.press(guest, lobby, "Играю")
    verbatim(lobby, *names)
    await runner.press(host, lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)
    skips = GAMES[code].random_skips  # never a draw offered, a resignation or a step back
    async def press_once() -> None:  # the log names the player of each press
        mover = by_name[current_player_name(verbatim(table, *names))]
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
        verbatim(tg.last_bot_message(CHAT_ID), names[seated.index(person)])
    for _ in range(3000):  # the last person plays it out against the computers in the others' seats
        if not table.buttons:
            break
        await press_once()
    await runner.handled()
    result = next(m for m in reversed(tg.bot_messages(CHAT_ID)) if m.buttons and "Ещё раунд" in m.buttons[0][0])
    text = verbatim(result)
    assert any(name in text for name in names), text  # who won or paid: a person, or a computer in their seat
    verbatim(table, *names)  # the last table: its log, status and result
    await assert_replays(runner, game_id)
    return names


async def test_names_like_html_or_made_of_controls_show_cleaned_in_every_game_and_in_the_stats(
        tmp_path: Path) -> None:
    async with FakeTelegram(token="123456:TEST-token", bot_username="SosediBot") as tg:
        people = [tg.add_user(FIRST_ID + i, name) for i, name in enumerate((*NAMES, *HOSTILE))]
        tg.add_chat(CHAT_ID, "supergroup", "Пятничный клуб", creator=FIRST_ID)
        runner = BotRunner(tg, tmp_path / "bot.sqlite3")
        await runner.start()
        seeds = (f"{i:064x}" for i in itertools.count(41))
        runner.app.bot_data["flow"].seed_factory = lambda: next(seeds)  # type: ignore[union-attr]
        try:
            rng, first, played = random.Random(7), 0, set()
            for code in GAMES:  # each game seats the next people round the list: everyone plays three games or more
                seats = GAMES[code].engine.max_players
                seated = [people[(first + i) % len(people)] for i in range(seats)]
                played.update(await play_a_little_then_leave(tg, runner, seated, code, rng))
                first += seats
            assert {"Игрок 1", "Игрок 2"} <= played  # a name made of controls, as its seat: the caption, the log
            for person in people:
                await runner.say(person, "/stats")
                verbatim(tg.last_bot_message(CHAT_ID), shown(person))
            await runner.say(people[0], "/top")
            verbatim(tg.last_bot_message(CHAT_ID), *(shown(person) for person in people))  # «Игрок 1006» by id
            await runner.say(people[0], "/history")
            verbatim(tg.last_bot_message(CHAT_ID), *played)  # every game's names, «Игрок N» by seat
        finally:
            await runner.stop()
        assert tg.violations == [] and not tg.unanswered_callbacks()


async def test_names_stored_before_names_were_cleaned_show_cleaned_in_the_chats_language(tmp_path: Path) -> None:
    async with group_world(tmp_path, 61, count=2) as (tg, runner, users):
        anya, boris = users["anya"], users["boris"]
        table = await start_for_two(runner, users, "sosedi")
        game_id = game_id_of(table)
        dirty = {anya.id: "\u202eАня\u200b", boris.id: "\u2066\u200d\n"}  # as an older bot stored them
        for user_id, name in dirty.items():
            runner.write_db("UPDATE seats SET name = ? WHERE game_id = ? AND user_id = ?", (name, game_id, user_id))
            runner.write_db("INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, ?, ?, 2)",
                            (CHAT_ID, user_id, name))
            for n in range(3):  # three games each: on the leaderboard
                runner.write_db("INSERT INTO results(game_id, chat_id, code, user_id, name, won, paid, finished_at) "
                                "VALUES (?, ?, 'sosedi', ?, ?, 0, 0, ?)", (900 + n, CHAT_ID, user_id, name, n))
        await runner.say(anya, "/lang en")
        await runner.say(anya, "/table")
        verbatim(runner.table(), "Аня", "Player 2")  # the seat, in the chat's language now
        await runner.say(anya, "/tally")
        verbatim(tg.last_bot_message(CHAT_ID), "Аня — 2 rounds", f"Player {boris.id} — 2 rounds")
        await runner.say(anya, "/top")
        verbatim(tg.last_bot_message(CHAT_ID), "Аня", f"Player {boris.id}")
        await runner.say(anya, "/stop")
        await runner.say(anya, "/history")
        verbatim(tg.last_bot_message(CHAT_ID), "Аня, Player 2")
