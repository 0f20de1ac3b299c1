"""Security suite (issue #10): who may do what, the bot token, SQL and HTML.

1. **Permissions.** :data:`PERMISSIONS` is the table, one row per action and one column per
   person; ``Y`` is allowed, ``N`` refused, ``-`` cannot happen (an anonymous admin posts as
   the group, but presses buttons as themselves). The cast, in one supergroup:

   ========== ============================================================================
   host       Борис: opens the lobby (``/newgame``) and sits at the table
   admin      Дима: an administrator of the chat who does not play
   creator    Аня: the chat's creator (owner) who does not play
   anonymous  an anonymous admin: a message from GroupAnonymousBot whose ``sender_chat`` is
              the group itself
   player     Вера: seated at the table, not the host (Глеб sits there too); at the «Охота на
              львов» lobby of the «ai» row only the host sits, so there she is a bystander
   outsider   Женя: a member of the chat who does not play
   ========== ============================================================================

   :func:`test_permission_row` plays one row in one group: every refused person first (they
   get the refusal text of ``locales/ru`` and nothing changes: the stored game, the lobby
   options and host, the chat's language, timer and tally, the table message, and no other
   message is posted), then every allowed person on a fresh scene, each checked for the
   action's effect. The anonymous column is :func:`test_anonymous_admin_row`; a post on behalf
   of another chat gets no rights. Moves are no column:
   :func:`test_only_the_player_to_move_may_move` (anyone else gets «Сейчас ходит …», and the
   button of the version before is stale for everyone).
2. **The token** is in no log record (every logger at DEBUG, written through the bot's own
   :class:`RedactToken` filter as ``python -m bot`` sets it up), no request, message, caption,
   button or upload, through a pub game with a 500, a 429, 401s, a 403 and a 502, then the
   server gone (connection refused); nor in a connection error, ``repr``/``str`` of
   :class:`Config` or a config error; nor in the output of the real ``python -m bot`` at DEBUG
   (start, presses, faults, SIGTERM; a server it cannot reach; a token the server rejects),
   nor in the error of a kept-alive connection the server dropped.
3. **SQL** is parameterised: :class:`SqlChecker` reads every module under ``bot/`` with ``ast``
   and follows each SQL argument of ``execute``/``executemany``/``executescript`` (and of the
   private helpers that pass a parameter on to them) back to string literals; it is itself
   tried on bad snippets and on ``storage.py`` with a seeded f-string. Players named like SQL
   play pub rounds; their names come back intact and every game replays from its log.
4. **HTML**: user text that reaches an HTML message (``/set``, ``/newgame``, ``/rules``,
   ``/lang``, ``/tally``, names in the result message, its tally and the rematch's table) is
   escaped or not echoed. The fake server parses HTML like Telegram and rejects malformed
   markup (a violation ``group_world`` fails on). Names in the lobby and table captions are
   ``test_names_cannot_make_the_bot_post_html`` in ``test_faults_input.py``.
"""

from __future__ import annotations

import ast
import asyncio
import contextlib
import itertools
import json
import logging
import os
import signal
import socket
import sqlite3
import sys
import time
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from telegram.error import NetworkError

import bot.flow
from bot.__main__ import RedactToken
from bot.app import build_application
from bot.config import Config, ConfigError
from bot.flow import GameFlow
from bot.games import GAME_UIS
from bot.http import AiohttpRequest
from bot.storage import GameRow
from engines import GAMES
from tests.bot_harness import CHAT_ID, BotRunner, assert_replays, current_player_name, game_id_of, group_world
from tests.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from tests.test_e2e_process import ROOT
from tests.test_e2e_process import press as e2e_press
from tests.test_faults_input import snapshot
from tests.test_timers import time_out

# ---------------------------------------------------------------------------------------------
# 1. permissions
# ---------------------------------------------------------------------------------------------

Y, N, NA = "allowed", "refused", "-"
WHO = ("host", "admin", "creator", "anonymous", "player", "outsider")

PERMISSIONS: dict[str, tuple[str, ...]] = {
    # action             host admin creator anonymous player outsider
    "/stop in a lobby":   (Y,   Y,    Y,      Y,        N,     N),
    "/stop in a game":    (Y,   Y,    Y,      Y,        N,     N),
    "/kick":              (Y,   Y,    Y,      Y,        N,     N),
    "⏭ kick button":      (Y,   Y,    Y,      NA,       N,     N),
    "/set chips 15":      (Y,   Y,    Y,      Y,        N,     N),
    "lobby: set":         (Y,   Y,    Y,      NA,       N,     N),
    "lobby: cancel":      (Y,   Y,    Y,      NA,       N,     N),
    "lobby: start":       (Y,   Y,    Y,      NA,       N,     N),
    "lobby: bot":         (Y,   Y,    Y,      NA,       N,     N),
    "lobby: unbot":       (Y,   Y,    Y,      NA,       N,     N),
    "lobby: timer":       (Y,   Y,    Y,      NA,       N,     N),
    "lobby: ai":          (Y,   Y,    Y,      NA,       N,     N),
    "/lang en":           (N,   Y,    Y,      Y,        N,     N),
    "/tally reset":       (N,   Y,    Y,      Y,        N,     N),
}

# refusals, from locales/ru/main.ftl
STOP_DENIED = "Остановить игру может только хост или администратор чата."
HOST_ONLY = "Это может только хост (или админ)."
KICK_DENIED = "Пропускать игроков может только хост или администратор чата."
ADMINS_ONLY = "Это могут только администраторы чата."
NOT_YOUR_TURN = "Сейчас ходит {}."
STALE = "Кнопка устарела."
TIMER_TOASTS = {0: "Таймер хода выключен.", 1: "На ход — 1 мин; кто не успеет, за того сходит бот.",
                3: "На ход — 3 мин; кто не успеет, за того сходит бот.",
                10: "На ход — 10 мин; кто не успеет, за того сходит бот."}
ANONYMOUS_BOT = {"id": 1087968824, "is_bot": True, "first_name": "Group", "username": "GroupAnonymousBot"}


@dataclass
class Cast:
    """The group and its people (see the module docstring)."""

    tg: FakeTelegram
    runner: BotRunner
    people: dict[str, FakeUser]  # by role; the anonymous admin is no user
    third: FakeUser  # Глеб, the host's other guest

    @property
    def flow(self) -> GameFlow:
        assert self.runner.app is not None
        return self.runner.app.bot_data["flow"]

    @property
    def seated(self) -> dict[str, FakeUser]:
        """The people at the «соседи» table, by first name."""
        return {u.first_name: u for u in (self.people["host"], self.people["player"], self.third)}


@pytest.fixture
async def cast(tmp_path: Path) -> AsyncIterator[Cast]:
    async with group_world(tmp_path, first_seed=31, count=5) as (tg, runner, users):
        tg.chats[CHAT_ID].set_admin(users["dima"].id)
        outsider = tg.add_user(6, "Женя")
        tg.chats[CHAT_ID].add_member(outsider.id)
        people = {"host": users["boris"], "admin": users["dima"], "creator": users["anya"],
                  "player": users["vera"], "outsider": outsider}
        yield Cast(tg, runner, people, users["gleb"])


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


async def press(runner: BotRunner, who: Actor, table: StoredMessage, label: str) -> Outcome:
    """``who`` presses the table's button whose label is or contains ``label``."""
    assert who is not None, "an anonymous admin presses buttons as themselves"
    before = len(runner.tg.bot_messages(CHAT_ID))
    answer = await runner.press(who, table, label)
    return Outcome(answer.get("text", ""), runner.tg.bot_messages(CHAT_ID)[before:])


async def scene(cast: Cast, table: StoredMessage) -> tuple[Any, ...]:
    """Everything a refused action must leave alone."""
    repo = cast.flow.repo
    game = await repo.game(game_id_of(table))
    assert game is not None
    active = await repo.active_game(CHAT_ID)
    return (await snapshot(cast.tg, cast.runner, table), game.options, game.host_id, game.deadline, game.timeouts,
            active and active.id, await repo.chat_locale(CHAT_ID), await repo.chat_settings(CHAT_ID),
            await repo.pub_tally(CHAT_ID))


# scenes ---------------------------------------------------------------------------------------

async def clear(cast: Cast) -> None:
    """End whatever the last allowed action left behind, so a fresh scene can be set."""
    repo = cast.flow.repo
    active = await repo.active_game(CHAT_ID)
    if active is not None:
        await repo.stop_game(active.id, {"kind": "stopped"})
    if await repo.chat_locale(CHAT_ID) == "en":
        await repo.set_chat_locale(CHAT_ID, "ru")


async def sosedi_lobby(cast: Cast) -> StoredMessage:
    """Борис opens a «соседи» lobby; Вера and Глеб sit down."""
    await cast.runner.say(cast.people["host"], "/newgame sosedi")
    table = cast.runner.table()
    for guest in (cast.people["player"], cast.third):
        assert (await cast.runner.press(guest, table, "Играю"))["text"] == "Вы за столом!"
    return table


async def lobby_with_a_bot(cast: Cast) -> StoredMessage:
    table = await sosedi_lobby(cast)
    await cast.runner.press(cast.people["host"], table, "🤖 Добавить бота")
    return table


async def lions_lobby(cast: Cast) -> StoredMessage:
    """Борис opens an «Охота на львов» lobby and waits alone: «🤖 Играть с ботом» is offered."""
    await cast.runner.say(cast.people["host"], "/newgame lions")
    return cast.runner.table()


async def sosedi_game(cast: Cast) -> StoredMessage:
    table = await sosedi_lobby(cast)
    await cast.runner.press(cast.people["host"], table, "Начать")
    assert "Ходит:" in table.caption
    return table


async def game_with_a_timed_out_player(cast: Cast) -> StoredMessage:
    """A running game whose player to move has let the timer run out once: «⏭» is offered."""
    table = await sosedi_game(cast)
    slow = current_player_name(table.caption)
    await time_out(cast.runner, table)
    while current_player_name(table.caption) != slow:
        await cast.runner.press(cast.seated[current_player_name(table.caption)], table, "🎲")
    assert any(label == "⏭ Пропустить игрока" for label, _ in table.buttons)
    return table


async def game_and_a_tally(cast: Cast) -> StoredMessage:
    """A running game, and a pub tally in the chat: Вера paid two rounds before (written
    straight into storage: playing pub games to their end here would only cost time)."""
    table = await sosedi_game(cast)
    repo = cast.flow.repo
    if not await repo.pub_tally(CHAT_ID):
        await repo._write("INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, ?, ?, ?)",
                          (CHAT_ID, cast.people["player"].id, "Вера", 2))
    return table


# what an allowed action must have done -------------------------------------------------------

Check = Callable[[Cast, StoredMessage, GameRow, Outcome], Awaitable[None]]


async def stored(cast: Cast, game_id: int) -> GameRow:
    game = await cast.flow.repo.game(game_id)
    assert game is not None
    return game


def mover_of(before: GameRow) -> int:
    assert before.state is not None
    seat = GAMES[before.code].state_from_json(before.state).current_player
    assert seat is not None
    return seat


async def stopped(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "«Помоги своему соседу» остановлена."
    assert (await stored(cast, before.id)).status == "stopped"
    assert table.buttons == []
    if before.status == "lobby":
        assert table.caption == "Лобби закрыто."
    else:
        assert "⏹ Игра остановлена." in table.caption


async def kicked(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    seat = mover_of(before)
    name = before.seats[seat].name
    left = f"🤖 {name} выходит из игры — дальше за этого игрока играет бот."
    if outcome.text == "Готово.":  # the button: a toast, and the line posted
        assert [m.text for m in outcome.others] == [left]
    else:
        assert outcome.text == left and outcome.others == []
    game = await stored(cast, before.id)
    assert game.seats[seat].name == f"🤖 {name}" and game.seats[seat].user_id < 0


async def chips_set(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Настройка изменена."
    assert (await stored(cast, before.id)).options["chips"] == 15
    assert "Фишек у каждого: 15" in table.caption


async def lobby_closed(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Лобби закрыто."
    assert (await stored(cast, before.id)).status == "stopped"
    assert table.caption == "Лобби закрыто." and table.buttons == []


async def started(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Поехали!"
    game = await stored(cast, before.id)
    assert game.status == "running" and "Ходит:" in table.caption
    if game.code == "lions":  # «🤖 Играть с ботом»: the host against the computer
        assert game.names == ["Борис", "🤖 Бот"]


async def bot_seated(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Бот сел за стол."
    assert (await stored(cast, before.id)).names == [*before.names, "🤖 Кеша"]
    assert "4. 🤖 Кеша" in table.caption


async def bot_unseated(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Бот встал из-за стола."
    assert (await stored(cast, before.id)).names == before.names[:-1] == ["Борис", "Вера", "Глеб"]


async def timer_moved(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    now = (await cast.flow.repo.chat_settings(CHAT_ID))["turn_timer"]  # stored: it was never set before
    assert outcome.text == TIMER_TOASTS[now]
    label = f"⏱ Таймер хода: {now} мин" if now else "⏱ Таймер хода: выкл."
    assert any(text == label for text, _ in table.buttons)


async def english(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Chat language: English."
    assert await cast.flow.repo.chat_locale(CHAT_ID) == "en"


async def tally_reset(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Счёт раундов обнулён."
    assert await cast.flow.repo.pub_tally(CHAT_ID) == []


@dataclass(frozen=True)
class Action:
    """One row of the table: the scene it needs, how it is done, the refusal and the effect."""

    scene: Callable[[Cast], Awaitable[StoredMessage]]
    do: Callable[[Cast, Actor, StoredMessage], Awaitable[Outcome]]
    refusal: str
    allowed: Check


def says(text: str) -> Callable[[Cast, Actor, StoredMessage], Awaitable[Outcome]]:
    return lambda cast, who, table: command(cast.runner, who, text)


def presses(label: str) -> Callable[[Cast, Actor, StoredMessage], Awaitable[Outcome]]:
    return lambda cast, who, table: press(cast.runner, who, table, label)


ACTIONS: dict[str, Action] = {
    "/stop in a lobby": Action(sosedi_lobby, says("/stop"), STOP_DENIED, stopped),
    "/stop in a game": Action(sosedi_game, says("/stop"), STOP_DENIED, stopped),
    "/kick": Action(sosedi_game, says("/kick"), KICK_DENIED, kicked),
    "⏭ kick button": Action(game_with_a_timed_out_player, presses("⏭ Пропустить игрока"), KICK_DENIED, kicked),
    "/set chips 15": Action(sosedi_lobby, says("/set chips 15"), HOST_ONLY, chips_set),
    "lobby: set": Action(sosedi_lobby, presses("Фишки +5"), HOST_ONLY, chips_set),
    "lobby: cancel": Action(sosedi_lobby, presses("✖️ Отмена"), HOST_ONLY, lobby_closed),
    "lobby: start": Action(sosedi_lobby, presses("▶️ Начать"), HOST_ONLY, started),
    "lobby: bot": Action(sosedi_lobby, presses("🤖 Добавить бота"), HOST_ONLY, bot_seated),
    "lobby: unbot": Action(lobby_with_a_bot, presses("➖ Убрать бота"), HOST_ONLY, bot_unseated),
    "lobby: timer": Action(sosedi_lobby, presses("⏱ Таймер хода"), HOST_ONLY, timer_moved),
    "lobby: ai": Action(lions_lobby, presses("🤖 Играть с ботом"), HOST_ONLY, started),
    "/lang en": Action(sosedi_game, says("/lang en"), ADMINS_ONLY, english),
    "/tally reset": Action(game_and_a_tally, says("/tally reset"), ADMINS_ONLY, tally_reset),
}


def test_the_table_has_a_row_per_action_and_a_column_per_person() -> None:
    assert PERMISSIONS.keys() == ACTIONS.keys()
    assert all(len(row) == len(WHO) and set(row) <= {Y, N, NA} for row in PERMISSIONS.values())


@pytest.mark.parametrize("name", list(PERMISSIONS))
async def test_permission_row(cast: Cast, name: str) -> None:
    action, row = ACTIONS[name], dict(zip(WHO, PERMISSIONS[name], strict=True))
    people = [who for who in WHO if who != "anonymous"]  # test_anonymous_admin_row plays that column
    table: StoredMessage | None = None
    for who in sorted(people, key=lambda w: row[w] == Y):  # the refused first: they share one scene
        if table is None:
            await clear(cast)
            table = await action.scene(cast)
        actor = cast.people[who]
        if row[who] == N:
            before = await scene(cast, table)
            outcome = await action.do(cast, actor, table)
            assert (outcome.text, outcome.others) == (action.refusal, []), who
            assert await scene(cast, table) == before, who
        else:
            game = await stored(cast, game_id_of(table))
            await action.allowed(cast, table, game, await action.do(cast, actor, table))
            table = None


ANONYMOUS_ROWS = [name for name, row in PERMISSIONS.items() if row[WHO.index("anonymous")] == Y]


@pytest.mark.parametrize("name", ANONYMOUS_ROWS)
async def test_anonymous_admin_row(cast: Cast, name: str) -> None:
    action = ACTIONS[name]
    table = await action.scene(cast)
    game = await stored(cast, game_id_of(table))
    await action.allowed(cast, table, game, await action.do(cast, None, table))


async def test_posting_as_another_chat_is_no_admin_right(cast: Cast) -> None:
    """A message sent on behalf of a channel (``sender_chat`` is not this group) gets no admin
    rights: /stop, /kick, /tally reset and /lang change nothing (silence or the refusal)."""
    table = await game_and_a_tally(cast)
    channel = {"id": -100555, "type": "channel", "title": "Канал"}
    before = await scene(cast, table)
    for text, refusal in (("/stop", STOP_DENIED), ("/kick", KICK_DENIED), ("/tally reset", ADMINS_ONLY),
                          ("/lang en", ADMINS_ONLY)):
        update = anonymous_message(cast.tg, text)
        update["message"].update({"sender_chat": channel, "from": {
            "id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}})
        count = len(cast.tg.bot_messages(CHAT_ID))
        await cast.tg.push_update(update)
        await cast.runner.handled()
        assert [m.text for m in cast.tg.bot_messages(CHAT_ID)[count:]] in ([], [refusal]), text
        assert await scene(cast, table) == before, text


async def test_only_the_player_to_move_may_move(cast: Cast) -> None:
    table = await sosedi_game(cast)
    game_id = game_id_of(table)
    everyone = [*cast.seated.values(), cast.people["admin"], cast.people["creator"], cast.people["outsider"]]
    for _ in range(2):
        mover = cast.seated[current_player_name(table.caption)]
        old = table.buttons[0][1]
        before = await scene(cast, table)
        for user in everyone:
            if user is not mover:  # the host, an admin and the creator no more than anyone else
                answer = await cast.runner.press_data(user, table, old)
                assert answer.get("text") == NOT_YOUR_TURN.format(mover.first_name), user.first_name
                assert await scene(cast, table) == before, user.first_name
        version = (await stored(cast, game_id)).version
        assert (await cast.runner.press_data(mover, table, old))["text"].startswith("🎲 ")
        assert (await stored(cast, game_id)).version == version + 1
        after = await scene(cast, table)
        for user in everyone:  # the button of the version before is stale, for the mover too
            assert (await cast.runner.press_data(user, table, old)).get("text") == STALE, user.first_name
        assert await scene(cast, table) == after
    await assert_replays(cast.runner, game_id)


# ---------------------------------------------------------------------------------------------
# 2. the token
# ---------------------------------------------------------------------------------------------

TOKEN = "8000000001:AAH-never_LEAK-th1s-s3cret"
SECRET = TOKEN.partition(":")[2]  # the bot's id before the colon is public; this part is not
LOGGERS = ("", "telegram", "httpx", "aiohttp", "apscheduler", "asyncio", "bot", "engines", "locales", "render")
_FORMAT = logging.Formatter("%(levelname)s %(name)s: %(message)s")


def log_everything(caplog: pytest.LogCaptureFixture) -> None:
    """Capture every record of every logger the bot touches, at DEBUG, as the handlers of
    ``python -m bot`` see them: through its :class:`RedactToken` filter (PTB itself logs the API
    URL, token and all, at DEBUG when the bot is built; the filter is what keeps it out)."""
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    caplog.handler.addFilter(RedactToken(TOKEN))


def record_text(record: logging.LogRecord) -> str:
    """A log record as any handler could write it: message, traceback, stack, raw arguments."""
    return "\n".join((_FORMAT.format(record), repr(record.msg), repr(record.args), repr(record.exc_info)))


def exception_text(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc)) + repr(exc)


def sent_by_the_bot(tg: FakeTelegram) -> Iterator[str]:
    """Every parameter of every call the bot made, every file it uploaded, every message it left."""
    for request in tg.requests:
        yield json.dumps(request.params, ensure_ascii=False, default=str)
        yield from (data.decode("latin-1") for data in request.files.values())
    for messages in tg.messages.values():
        for m in messages.values():
            if m.from_bot:
                yield json.dumps([m.text, m.caption, m.reply_markup], ensure_ascii=False)


def dead_port() -> int:
    with socket.socket() as sock:  # bound and closed again: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def roll(runner: BotRunner, players: dict[str, FakeUser], table: StoredMessage) -> dict[str, Any]:
    """Whoever the caption names rolls."""
    return await runner.press(players[current_player_name(table.caption)], table, "🎲")


async def play_a_session_with_faults(tg: FakeTelegram, runner: BotRunner, anya: FakeUser, boris: FakeUser) -> None:
    """A pub game of Аня and Борис to its end and into a rematch, while the server fails calls."""
    players = {"Аня": anya, "Борис": boris}
    await runner.say(anya, "/newgame sosedi")
    table = runner.table()
    await runner.press(boris, table, "Играю")
    await runner.say(anya, "/set mode reverse")  # a pub game: the result carries the tally
    await runner.press(anya, table, "Начать")
    tg.fail_next("editMessageMedia", error_code=500)  # lost, then tried again after TABLE_RETRY_S
    edits = table.edit_count
    await roll(runner, players, table)
    await tg.wait_for(lambda _: table.edit_count > edits, timeout=5)
    tg.fail_next("answerCallbackQuery", error_code=429, retry_after=1)  # the rate limiter waits and retries
    assert (await roll(runner, players, table))["text"].startswith("🎲 ")
    tg.fail_next("sendMessage", error_code=401)  # the reply is lost
    await runner.say(boris, "/rules")
    tg.fail_next("getChatMember", error_code=401)  # Борис is no admin as far as the bot can tell
    await runner.say(boris, "/stop")
    assert tg.last_bot_message(CHAT_ID).text == STOP_DENIED
    tg.fail_next("sendMessage", error_code=403, description="Forbidden: bot was kicked from the supergroup chat")
    await runner.say(anya, "/help")  # the game pauses: the bot may not post here, it seems
    await tg.set_bot_status(CHAT_ID, "administrator")  # ... until it is let back in: a fresh table
    await runner.handled()
    assert runner.table().message_id != table.message_id
    table = runner.table()
    tg.fail_next("editMessageMedia", error_code=502)
    edits = table.edit_count
    await roll(runner, players, table)
    await tg.wait_for(lambda _: table.edit_count > edits, timeout=5)
    for _ in range(500):
        if not table.buttons:
            break
        await roll(runner, players, table)
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and "🍺" in result.text
    await runner.say(boris, "/tally")
    await runner.press(boris, result, "🔁 Ещё раунд")
    await roll(runner, players, runner.table())


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # PTB's rate limiter reads retry_after
async def test_the_token_is_in_no_log_record_and_no_message(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.flow, "TABLE_RETRY_S", 0.2)
    log_everything(caplog)
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        anya, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
        tg.add_chat(CHAT_ID, "supergroup", "Пятничный клуб", creator=anya.id)
        runner = BotRunner(tg, tmp_path / "data" / "bot.sqlite3")
        await runner.start()
        app = runner.app
        assert app is not None and app.updater is not None
        try:
            await play_a_session_with_faults(tg, runner, anya, boris)
            assert tg.violations == [] and not tg.unanswered_callbacks()
            # then the server goes away: a table edit and its retry meet a refused connection
            await app.updater.stop()  # (a poll in flight would race the closing server: see below)
            flow: GameFlow = app.bot_data["flow"]
            game = await flow.repo.active_game(CHAT_ID)
            assert game is not None
            await tg.close()
            await asyncio.sleep(0.1)  # the bot's pooled connections see the server close them
            await flow.show_table(app.bot, game)
            await asyncio.sleep(0.5)  # the edit is tried again after TABLE_RETRY_S
        finally:
            runner.app = None  # stopped here: BotRunner.stop would stop the updater again
            await app.stop()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
            await app.shutdown()
    texts = [record_text(r) for r in caplog.records]
    # the session did meet every fault it was meant to
    for sign in ("Internal Server Error", "Rate limit hit", "reply failed: Unauthorized", "Bad Gateway",
                 "Forbidden: bot was kicked", "edit failed: aiohttp.ClientConnectorError",
                 "Calling Bot API endpoint `getUpdates`", "Set Bot API URL: http://127.0.0.1:"):
        assert any(sign in t for t in texts), sign
    leaked = [t for t in texts if SECRET in t]
    assert not leaked, leaked[:3]
    assert not [t for t in sent_by_the_bot(tg) if SECRET in t]


async def test_the_token_is_not_in_a_connection_error(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    log_everything(caplog)
    port = dead_port()
    config = Config(token=TOKEN, base_url=f"http://127.0.0.1:{port}/bot", base_file_url=f"http://127.0.0.1:{port}/file/bot",
                    database_path=str(tmp_path / "bot.sqlite3"))
    app = build_application(config)
    try:
        with pytest.raises(NetworkError) as caught:
            await app.initialize()  # getMe: the connection is refused
    finally:
        for request in app.bot._request:  # opened by the failed initialize; nothing else closes them
            await request.shutdown()
    assert str(port) in str(caught.value)  # the error names where it could not connect ...
    assert SECRET not in exception_text(caught.value)  # ... but not the URL with the token
    texts = [record_text(r) for r in caplog.records]
    assert any(f"Set Bot API URL: http://127.0.0.1:{port}/bot<token>" in t for t in texts)  # redacted
    assert not [t for t in texts if SECRET in t]


@contextlib.asynccontextmanager
async def api_that_drops_kept_alive_connections() -> AsyncIterator[int]:
    """A Bot API that answers each call with keep-alive and then closes the connection, as
    servers and proxies do with idle connections; yields its port. The client's next call
    reuses the connection it still holds and fails while writing."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        body = b'{"ok": true, "result": []}'
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: keep-alive\r\n"
                     b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0)
    try:
        yield int(server.sockets[0].getsockname()[1])
    finally:
        server.close()
        await server.wait_closed()


async def test_a_dropped_connection_does_not_put_the_token_in_the_error(caplog: pytest.LogCaptureFixture) -> None:
    log_everything(caplog)
    request = AiohttpRequest()
    await request.initialize()
    errors: list[NetworkError] = []
    try:
        async with api_that_drops_kept_alive_connections() as port:
            for _ in range(4):  # the second call of each pair meets the dropped connection
                try:
                    await request.do_request(f"http://127.0.0.1:{port}/bot{TOKEN}/getUpdates", "POST")
                except NetworkError as exc:
                    errors.append(exc)
                    logging.getLogger("telegram.ext.Updater").exception(  # as PTB logs a polling error
                        "Exception happened while polling for updates.", exc_info=exc)
    finally:
        await request.shutdown()
    assert len(errors) == 2
    assert not [e for e in errors if SECRET in exception_text(e)]
    assert not [r for r in caplog.records if SECRET in record_text(r)]


def test_config_never_shows_the_token() -> None:
    config = Config.from_env({"BOT_TOKEN": TOKEN, "LOG_LEVEL": "debug"})
    assert config.token == TOKEN
    for shown in (repr(config), str(config), f"{config}", f"{config!r}", repr([config])):
        assert SECRET not in shown and "Config(" in shown
    for bad in ({"GROUP_MAX_RATE": "x"}, {"DEFAULT_LOCALE": "xx"}, {"DRAW_PROCESSES": "-1"}):
        with pytest.raises(ConfigError) as caught:
            Config.from_env({"BOT_TOKEN": TOKEN, **bad})
        assert SECRET not in exception_text(caught.value)


async def spawn_bot(tg: FakeTelegram, tmp_path: Path, token: str) -> asyncio.subprocess.Process:
    """``python -m bot`` at DEBUG against the fake server; stdout and stderr go to files."""
    env = {**os.environ, "BOT_TOKEN": token, "BOT_API_BASE_URL": tg.base_url, "BOT_API_FILE_URL": tg.file_url,
           "DATABASE_PATH": str(tmp_path / "bot.sqlite3"), "LOG_LEVEL": "DEBUG", "PYTHONPATH": str(ROOT)}
    with (tmp_path / "stdout").open("ab") as out, (tmp_path / "stderr").open("ab") as err:
        return await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                    stdout=out, stderr=err)


def output(tmp_path: Path) -> str:
    return (tmp_path / "stdout").read_text(encoding="utf-8") + (tmp_path / "stderr").read_text(encoding="utf-8")


async def test_the_bot_process_prints_no_token_at_debug(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        anya, boris = tg.add_user(1, "Аня"), tg.add_user(2, "Борис")
        players = {"Аня": anya, "Борис": boris}
        tg.add_chat(CHAT_ID, "supergroup", creator=anya.id)
        process = await spawn_bot(tg, tmp_path, TOKEN)
        try:
            await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)
            await tg.send_message(anya, CHAT_ID, "/newgame sosedi")
            await tg.wait_for(lambda s: any(m.photo for m in s.bot_messages(CHAT_ID)), timeout=15)
            table = next(m for m in tg.bot_messages(CHAT_ID) if m.photo)
            await e2e_press(tg, boris, table, "Играю")
            await e2e_press(tg, anya, table, "Начать")
            tg.fail_next("editMessageMedia", error_code=500)  # logged, and tried again 2 s later
            await e2e_press(tg, players[current_player_name(table.caption)], table, "🎲")
            tg.fail_next("sendMessage", error_code=401)
            await tg.send_message(boris, CHAT_ID, "/rules")
            await tg.wait_for(lambda s: s.requests_for("sendMessage") and not s.requests_for("sendMessage")[-1].ok)
            await e2e_press(tg, players[current_player_name(table.caption)], table, "🎲")
        finally:
            process.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(process.wait(), 30) == 0
    text = output(tmp_path)
    assert " DEBUG telegram" in text and "edit failed" in text and "reply failed" in text  # it did log, at DEBUG
    assert SECRET not in text
    assert tg.violations == []
    assert not [t for t in sent_by_the_bot(tg) if SECRET in t]


async def test_the_bot_process_prints_no_token_when_it_cannot_connect(tmp_path: Path) -> None:
    port = dead_port()
    env = {**os.environ, "BOT_TOKEN": TOKEN, "BOT_API_BASE_URL": f"http://127.0.0.1:{port}/bot",
           "DATABASE_PATH": str(tmp_path / "bot.sqlite3"), "LOG_LEVEL": "DEBUG", "PYTHONPATH": str(ROOT)}
    process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 30)
    text = (out + err).decode()
    assert process.returncode != 0 and "Cannot connect to host" in text
    assert SECRET not in text


async def test_the_bot_process_prints_no_token_when_it_is_rejected(tmp_path: Path) -> None:
    async with FakeTelegram(token="8000000009:AAH-the-server-knows-another", bot_username="SosediBot") as tg:
        process = await spawn_bot(tg, tmp_path, TOKEN)  # 401 Unauthorized at getMe
        assert await asyncio.wait_for(process.wait(), 30) != 0
    assert SECRET not in output(tmp_path)


# ---------------------------------------------------------------------------------------------
# 3. SQL
# ---------------------------------------------------------------------------------------------

BOT_DIR = ROOT / "bot"
SQL_METHODS = frozenset({"execute", "executemany", "executescript"})
ITERATING_BUILTINS = frozenset({"enumerate", "filter", "iter", "list", "reversed", "sorted", "tuple"})
STR_METHODS = frozenset({"lower", "lstrip", "rstrip", "split", "splitlines", "strip", "upper"})
Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


class SqlChecker:
    """Follows every SQL argument in one module back to string literals.

    An SQL argument is the first argument (or ``sql=``) of a ``.execute``, ``.executemany`` or
    ``.executescript`` call, or the argument a private helper passes on to one of those as its
    own parameter (``_write(sql, params)``: then each call of the helper is checked instead).
    It is safe when built only from string literals: a literal, an implicit concatenation
    (folded by the parser), ``+`` of safe parts, a name every binding of which is safe (module
    constants such as ``MIGRATIONS``, loop variables over them, defaults of nested functions),
    and splitting or iterating such values. f-strings, ``%``, ``.format()``, parameters of
    public functions and anything computed at run time are not.
    """

    def __init__(self, source: str) -> None:
        self.tree = ast.parse(source)
        self.parents = {child: node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)}
        self.helpers: dict[str, tuple[int, str]] = {}  # helper name -> (position, name) of its SQL parameter
        while True:  # helpers of helpers: until no new one turns up
            known = len(self.helpers)
            for arg in self.sql_args():
                self._note_helper(arg)
            if len(self.helpers) == known:
                break

    def sql_args(self) -> list[ast.expr]:
        found = []
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if isinstance(func, ast.Attribute) and name in SQL_METHODS:
                position, keyword = 0, "sql"
            elif name in self.helpers:
                position, keyword = self.helpers[name]
            else:
                continue
            if len(node.args) > position:
                found.append(node.args[position])
            else:
                found.extend(k.value for k in node.keywords if k.arg == keyword)
        return found

    def problems(self) -> list[str]:
        """«line N: <expression>: why» for every SQL argument not built from literals only."""
        out = []
        for arg in self.sql_args():
            why = self._unsafe(arg, self._scopes(arg), frozenset())
            if why is not None:
                out.append(f"line {arg.lineno}: {ast.unparse(arg)}: {why}")
        return out

    # scopes and bindings ----------------------------------------------------------------------

    def _scopes(self, node: ast.AST) -> list[Scope]:
        """The scopes a name used at ``node`` is looked up in, innermost first (no class bodies)."""
        chain: list[Scope] = []
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, Scope):
                chain.append(node)
        return chain

    @staticmethod
    def _own_nodes(scope: Scope) -> list[ast.AST]:
        """The nodes of ``scope``'s own body, not of the functions and lambdas nested in it."""
        out: list[ast.AST] = []
        todo: list[ast.AST] = [scope.body] if isinstance(scope, ast.Lambda) else list(scope.body)
        while todo:
            node = todo.pop()
            out.append(node)
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                todo.extend(ast.iter_child_nodes(node))
            elif isinstance(node, ast.ClassDef):  # a class body runs in the enclosing scope's time
                todo.extend(node.body)
        return out

    @staticmethod
    def _params(scope: Scope) -> dict[str, ast.expr | None]:
        """The scope's parameters and their defaults (None: no default)."""
        if isinstance(scope, ast.Module):
            return {}
        args = scope.args
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        params = {a.arg: d for a, d in zip(positional, defaults, strict=True)}
        params.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)})
        params.update({a.arg: None for a in (args.vararg, args.kwarg) if a is not None})
        return params

    def _note_helper(self, arg: ast.expr) -> None:
        """An SQL argument that is a parameter of a private function makes that function a helper."""
        if not isinstance(arg, ast.Name):
            return
        for scope in self._scopes(arg):
            if arg.id in self._params(scope):
                if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) and scope.name.startswith("_"):
                    names = [a.arg for a in [*scope.args.posonlyargs, *scope.args.args]]
                    method = isinstance(self.parents.get(scope), ast.ClassDef) and names[:1] in (["self"], ["cls"])
                    if arg.id in names and self._params(scope)[arg.id] is None:
                        self.helpers[scope.name] = (names.index(arg.id) - method, arg.id)
                return
            if self._bindings(scope, arg.id):
                return

    def _bindings(self, scope: Scope, name: str) -> list[tuple[str, ast.AST]]:
        """How ``scope`` binds ``name``: ("value", expr) for an assignment, ("each", iterable)
        for a loop target, ("other", node) for anything else."""
        return [binding for node in self._own_nodes(scope) if (binding := self._binding(node, name))]

    def _binding(self, node: ast.AST, name: str) -> tuple[str, ast.AST] | None:
        match node:
            case ast.Assign(targets=targets, value=value) if any(name in self._names(t) for t in targets):
                return "value", value
            case ast.AnnAssign(target=target, value=ast.expr() as value) if name in self._names(target):
                return "value", value
            case ast.For(target=target, iter=iterable) | ast.AsyncFor(target=target, iter=iterable) | ast.comprehension(
                    target=target, iter=iterable) if name in self._names(target):
                return "each", iterable
            case ast.AugAssign(target=target) | ast.NamedExpr(target=target) | ast.withitem(
                    optional_vars=ast.expr() as target) if name in self._names(target):
                return "other", node
            case ast.Import(names=aliases) | ast.ImportFrom(names=aliases) if any(
                    (a.asname or a.name).split(".")[0] == name for a in aliases):
                return "other", node
            case ast.FunctionDef(name=defined) | ast.AsyncFunctionDef(name=defined) | ast.ClassDef(
                    name=defined) if defined == name:
                return "other", node
        return None

    @staticmethod
    def _names(target: ast.AST) -> set[str]:
        return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}

    # safety ---------------------------------------------------------------------------------

    def _unsafe(self, expr: ast.AST, scopes: list[Scope], seen: frozenset[tuple[int, str]]) -> str | None:
        """None if ``expr`` (looked up in ``scopes``) is built from string literals only, else why not."""
        match expr:
            case ast.Constant(value=str()):
                return None
            case ast.JoinedStr():
                return "an f-string"
            case ast.BinOp(op=ast.Add(), left=left, right=right):
                return self._unsafe(left, scopes, seen) or self._unsafe(right, scopes, seen)
            case ast.BinOp(op=ast.Mod()):
                return "%-formatting"
            case ast.Call(func=ast.Attribute(attr="format")):
                return ".format()"
            case ast.Call(func=ast.Attribute(value=value, attr=method), args=args, keywords=[]) if (
                    method in STR_METHODS and all(isinstance(a, ast.Constant) for a in args)):
                return self._unsafe(value, scopes, seen)
            case ast.Call(func=ast.Name(id=builtin), args=args, keywords=keywords) if builtin in ITERATING_BUILTINS:
                if not all(isinstance(k.value, ast.Constant) for k in keywords):
                    return f"{builtin}() with computed options"
                data = [a for a in args if not (isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name)
                                                and a.value.id == "str")]  # filter(str.strip, …)
                return next((why for a in data if (why := self._unsafe(a, scopes, seen))), None)
            case ast.Tuple(elts=elts) | ast.List(elts=elts):
                return next((why for e in elts if (why := self._unsafe(e, scopes, seen))), None)
            case ast.Subscript(value=value):
                return self._unsafe(value, scopes, seen)
            case ast.Name(id=name):
                return self._unsafe_name(name, scopes, seen)
        return f"computed at run time: {ast.unparse(expr)}"

    def _unsafe_name(self, name: str, scopes: list[Scope], seen: frozenset[tuple[int, str]]) -> str | None:
        for depth, scope in enumerate(scopes):
            if (id(scope), name) in seen:
                return None  # a name defined through itself: its other bindings decide
            seen = seen | {(id(scope), name)}
            params = self._params(scope)
            if name in params:
                default = params[name]
                owner = getattr(scope, "name", "lambda")
                if default is not None:  # evaluated where the function is defined
                    return self._unsafe(default, scopes[depth + 1:], seen)
                if self.helpers.get(owner, (0, ""))[1] == name:
                    return None  # a helper's SQL parameter: each call of the helper is checked
                return f"parameter {name!r} of {owner}()"
            bindings = self._bindings(scope, name)
            if bindings:
                for kind, node in bindings:
                    if kind == "other":
                        return f"{name!r} is bound at run time (line {getattr(node, 'lineno', '?')})"
                    assert isinstance(node, ast.expr)
                    why = self._unsafe(node, scopes[depth:], seen)
                    if why is not None:
                        return f"{name!r}: {why}"
                return None
        return f"{name!r} is not defined in the module"


def test_every_sql_statement_of_the_bot_is_a_literal() -> None:
    checked: dict[str, int] = {}
    problems: list[str] = []
    for path in sorted(BOT_DIR.rglob("*.py")):
        checker = SqlChecker(path.read_text(encoding="utf-8"))
        checked[path.name] = len(checker.sql_args())
        problems += [f"{path.relative_to(ROOT)}: {p}" for p in checker.problems()]
        if path.name == "storage.py":
            assert {"_write", "_games"} <= set(checker.helpers)  # SQL passed on through a parameter
    assert problems == []
    assert checked["storage.py"] >= 40  # the checker saw the bot's SQL (storage holds all of it)


def seeded(source: str, through_helper: bool) -> tuple[str, str]:
    """``source`` with one of its SQL literals made dynamic: the first one passed straight to
    ``execute`` becomes an f-string, or the first one passed to a helper gets ``% chat_id``.
    Returns the new source and the seeded expression."""
    checker = SqlChecker(source)

    def direct(arg: ast.expr) -> bool:  # an argument of execute itself, not of a helper
        call = checker.parents[arg]
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in SQL_METHODS

    target = next(arg for arg in checker.sql_args() if isinstance(arg, ast.Constant) and direct(arg) != through_helper)
    bad: ast.expr = (ast.BinOp(ast.Constant(target.value), ast.Mod(), ast.Name("chat_id")) if through_helper else
                     ast.JoinedStr([ast.Constant(target.value), ast.FormattedValue(ast.Name("chat_id"), -1)]))
    parent = checker.parents[target]
    for name, value in ast.iter_fields(parent):
        if value is target:
            setattr(parent, name, bad)
        elif isinstance(value, list) and target in value:
            value[value.index(target)] = bad
    return ast.unparse(checker.tree), ast.unparse(bad)


@pytest.mark.parametrize("through_helper", [False, True], ids=["f-string in execute", "% in a helper call"])
def test_the_sql_checker_finds_a_seeded_statement_in_storage(through_helper: bool) -> None:
    source, bad = seeded((BOT_DIR / "storage.py").read_text(encoding="utf-8"), through_helper)
    problems = SqlChecker(source).problems()
    assert len(problems) == 1 and bad in problems[0], problems


BAD_SQL = {
    "f-string": 'def f(conn, name):\n    conn.execute(f"SELECT * FROM t WHERE name = \'{name}\'")\n',
    "%-formatting": 'def f(conn, name):\n    conn.execute("SELECT * FROM t WHERE name = \'%s\'" % name, ())\n',
    "+ a parameter": 'def f(conn, table):\n    conn.executemany("DELETE FROM " + table, [])\n',
    ".format()": 'def f(conn, table):\n    conn.executescript("DROP TABLE {};".format(table))\n',
    "a keyword": 'def f(conn, n):\n    conn.execute(sql=f"SELECT {n}")\n',
    "a local built from a parameter": (
        'def f(conn, name):\n    sql = "SELECT * FROM t"\n    sql = sql + " WHERE name = " + repr(name)\n'
        '    return conn.execute(sql).fetchall()\n'),
    "a module name read at run time": 'import os\nSQL = os.environ["SQL"]\n\ndef f(conn):\n    conn.execute(SQL)\n',
    "a public function's parameter": 'def run(conn, sql):\n    conn.execute(sql)\n',
    "a helper called with an f-string": (
        'class R:\n    async def _write(self, sql, params):\n'
        '        return await self._run(lambda c: c.execute(sql, params))\n\n'
        '    async def drop(self, name):\n        await self._write(f"DELETE FROM t WHERE name = \'{name}\'", ())\n'),
    "a helper's helper": (
        'class R:\n    def _one(self, sql):\n        return self.db.execute(sql)\n\n    def _two(self, query):\n'
        '        return self._one(query)\n\n    def get(self, name):\n        return self._two("SELECT " + name)\n'),
    "a loop over computed text": (
        'def f(conn, script):\n    for statement in script.split(";"):\n        conn.execute(statement)\n'),
}

GOOD_SQL = '''
SCHEMA: tuple[str, ...] = ("CREATE TABLE a (x)", "CREATE TABLE b (y); CREATE INDEX i ON b(y)")
ORDER = "ORDER BY x"


class Repo:
    async def _write(self, sql, params):
        return await self._run(lambda conn: conn.execute(sql, params).rowcount)

    async def names(self, chat_id):
        await self._write("DELETE FROM a WHERE x = ?", (chat_id,))
        return self.db.execute("SELECT x FROM a WHERE x = ? "
                               "AND x > 0 " + ORDER, (chat_id,)).fetchall()

    def migrate(self):
        for number, script in enumerate(SCHEMA, start=1):
            def run(conn, script=script):
                for statement in filter(str.strip, script.split(";")):
                    conn.execute(statement)
                conn.executemany("INSERT INTO v(n) VALUES (?)", [(number,)])
            self.transaction(run)
'''


@pytest.mark.parametrize("case", list(BAD_SQL))
def test_the_sql_checker_catches(case: str) -> None:
    problems = SqlChecker(BAD_SQL[case]).problems()
    assert len(problems) == 1, problems


def test_the_sql_checker_allows_literals_constants_and_helpers() -> None:
    checker = SqlChecker(GOOD_SQL)
    assert len(checker.sql_args()) == 5 and checker.problems() == []


async def pub_rounds(runner: BotRunner, host: FakeUser, guest: FakeUser,
                     payers: set[str]) -> tuple[list[int], list[StoredMessage]]:
    """``host`` opens a «соседи наоборот» lobby (a pub game: the loser pays a round), ``guest``
    sits down, and they play rounds («🔁 Ещё раунд», at least two) until everyone in ``payers``
    has paid one. Returns the game ids and the result messages."""
    tg, players = runner.tg, {host.first_name: host, guest.first_name: guest}
    await runner.say(host, "/newgame sosedi")
    table = runner.table()
    await runner.press(guest, table, "Играю")
    await runner.press(host, table, "Вариант →")
    assert "Вариант: наоборот" in table.caption
    await runner.press(host, table, "Начать")
    assert runner.app is not None
    repo = runner.app.bot_data["flow"].repo
    games: list[int] = []
    results: list[StoredMessage] = []
    while len(games) < 2 or not payers <= {name for name, _ in await repo.pub_tally(CHAT_ID)}:
        assert len(games) < 8, await repo.pub_tally(CHAT_ID)
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


async def test_names_that_look_like_sql_come_back_intact(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=51, count=1) as (tg, runner, _):
        robert, percent = tg.add_user(71, "Robert'); DROP TABLE games;--"), tg.add_user(72, "%s ? :name")
        names = [robert.first_name, percent.first_name]
        games, results = await pub_rounds(runner, robert, percent, set(names))
        assert runner.app is not None
        repo = runner.app.bot_data["flow"].repo
        for game_id in games:
            game = await repo.game(game_id)
            assert game is not None and game.names == names and game.status == "finished"
            await assert_replays(runner, game_id)
        assert {name for name, _ in await repo.pub_tally(CHAT_ID)} == set(names)
        assert all(f"{name} — " in results[-1].text for name in names)  # the result's tally
        table = runner.table()
        assert all(name in table.caption for name in names)
        await runner.say(robert, "/tally")
        tally = tg.last_bot_message(CHAT_ID).text
        assert tally is not None and tally.startswith("🍺 Счёт раундов в этом чате:")
        assert all(f"\n{name} — " in tally for name in names)
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "bot.sqlite3")) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "seats", "actions", "pub_tally", "chats"} <= tables
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == len(games)


# ---------------------------------------------------------------------------------------------
# 4. HTML
# ---------------------------------------------------------------------------------------------

EVIL_NAME = "<b>Ева</b> & <i>"  # markup, an entity and an unclosed tag Telegram would reject


def plain(message: StoredMessage) -> None:
    """The message has no formatting a user's text could have made (bold, italic, links…)."""
    assert not [e for e in message.entities if e["type"] != "bold"], message.entities


async def test_user_text_in_commands_is_escaped_or_not_echoed(tmp_path: Path) -> None:
    unknown = "Такой игры нет. Доступные: " + ", ".join(GAME_UIS)
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
                ("/set <b>chips</b> 5", "Нельзя так настроить «<b>chips</b>». Допустимо: allowed="),  # echoed, escaped
                ("/set a&amp;b<i> 1", "Нельзя так настроить «a&amp;b<i>». Допустимо: allowed="),
                ("/set chips <b>5</b>", "Нельзя так настроить «chips». Допустимо:"),  # the value is not echoed
                ("/set mode <i>reverse</i>", "Нельзя так настроить «mode». Допустимо: allowed=('classic',"),
                ("/set tower <tg-spoiler>", "Нельзя так настроить «tower». Допустимо:"),
                ('/set <a href="x">k</a> 1', "Использование: /set <настройка> <значение>, например /set chips 17")):
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
        assert not [e for e in table.caption_entities if e["type"] not in ("bold", "text_link")]
        assert {e.get("url") for e in table.caption_entities if e["type"] == "text_link"} <= {
            f"tg://user?id={users['anya'].id}", f"tg://user?id={eva.id}"}
        await runner.say(eva, "/tally")
        tally = tg.last_bot_message(CHAT_ID)
        assert tally.text is not None and f"\n{EVIL_NAME} — " in tally.text
        plain(tally)
