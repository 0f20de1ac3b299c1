"""Secrets and people stay out of the log (docs/operators.md: LOG_LEVEL): `python -m bot` at DEBUG in webhook
mode, with players of distinctive names writing, pressing and playing in a group and in a private chat;
then neither the token, nor the webhook secret, nor a name, nor a message's text is anywhere in the log,
while the log still tells what happened by ids."""

from __future__ import annotations

import asyncio
import logging
import re
import signal
import sys
from pathlib import Path
from types import SimpleNamespace

from telegram import Bot, Update

from bot import handlers
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.logs import PeopleOutOfLogs, RedactToken
from tests.bot_harness import CHAT_ID, current_player_name, free_port
from tests.startup_steps import bot_env

TOKEN = "424243:PRIVACY-token-secret-part-0000000000"
SECRET = "privacy_webhook-SECRET-4711"
CHAT_TITLE = "Клуб Полуночных Ватрушек"
NAMES = {"first": ("Зефирина", "Аполлинарий"), "last": ("Квакушкина", "Громобоев"),
         "username": ("zefirina_kv", "apollinary_gr")}
TEXTS = ("у меня пароль от вайфая кошка-бегемот-1984", "а я живу на улице Незабудковой, дом семь")


async def press(tg: FakeTelegram, user: FakeUser, message: StoredMessage, label: str) -> None:
    edits = message.edit_count
    handle = await tg.press(user, message.chat.id, message.message_id, message.button(label))
    await tg.wait_answer(handle, timeout=15)
    await tg.wait_for(lambda s: message.edit_count > edits, timeout=15)


async def play_a_while(tg: FakeTelegram, port: int) -> None:
    """Everything people do that reaches the bot: commands, plain texts, lobby presses, moves, a private chat."""
    users = [tg.add_user(i + 1, first, username, last_name=last)
             for i, (first, last, username) in enumerate(zip(*NAMES.values(), strict=True))]
    by_name = {f"{u.first_name} {u.last_name}": u for u in users}  # as the captions name them
    tg.add_chat(CHAT_ID, "supergroup", CHAT_TITLE, creator=1)
    tg.privacy_mode = False  # the bot sees every message of the group, not only commands
    await tg.wait_for(lambda s: s.webhook.hook is not None, timeout=30)
    await tg.send_message(users[0], CHAT_ID, TEXTS[0])
    await tg.send_message(users[0], CHAT_ID, "/newgame sosedi")
    await tg.wait_for(lambda s: any(m.photo for m in s.bot_messages(CHAT_ID)), timeout=30)
    table = next(m for m in tg.bot_messages(CHAT_ID) if m.photo)
    await press(tg, users[1], table, "Играю")
    await press(tg, users[0], table, "Начать")
    for _ in range(3):
        assert table.caption is not None
        await press(tg, by_name[current_player_name(table.caption)], table, "🎲")
    await tg.send_message(users[1], CHAT_ID, TEXTS[1])
    await tg.send_message(users[1], tg.private_chat(users[1]), "/help")  # the private chat carries the person's names
    await tg.wait_for(lambda s: bool(s.bot_messages(users[1].id)), timeout=15)
    await tg.wait_idle(timeout=15)


async def test_a_debug_log_holds_no_token_secret_name_or_text(tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "bot.log"
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        env = bot_env(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url, BOT_API_FILE_URL=tg.file_url,
                      LOG_LEVEL="DEBUG", DRAW_PROCESSES="0", WEBHOOK_URL=f"http://127.0.0.1:{port}/hook",
                      WEBHOOK_SECRET=SECRET, WEBHOOK_PORT=str(port))
        with log.open("wb") as out:
            process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                           stdout=out, stderr=out)
            try:
                await play_a_while(tg, port)
            finally:
                process.send_signal(signal.SIGTERM)
                await asyncio.wait_for(process.wait(), 30)
        assert tg.violations == []
        update_ids = [u["update_id"] for u in tg.webhook.delivered]
    text = log.read_text(encoding="utf-8")
    assert process.returncode == 0, text[-3000:]
    secrets = [TOKEN, TOKEN.partition(":")[2], SECRET]
    people = [name for names in NAMES.values() for name in names] + [CHAT_TITLE, *TEXTS]
    leaks = {word for word in secrets + people if word.lower() in text.lower()}
    assert leaks == set(), [line for line in text.splitlines() if any(w.lower() in line.lower() for w in leaks)][:5]
    # and it is a DEBUG log of this run all the same: every update is in it by its id, every call by its method
    assert " DEBUG " in text and len(update_ids) >= 9
    for update_id in update_ids:
        assert re.search(rf"\bupdate {update_id}\b", text), (update_id, text[-3000:])
    for method in ("setWebhook", "sendPhoto", "editMessageCaption", "answerCallbackQuery", "sendMessage"):
        assert f"`{method}`" in text, method


def test_the_webhook_secret_is_redacted_like_the_token() -> None:
    """Wherever a line would quote them: a request's headers in a traceback's message, a URL."""
    record = logging.LogRecord("tornado.application", logging.ERROR, __file__, 1, "Uncaught exception %r: %s",
                               ({"X-Telegram-Bot-Api-Secret-Token": SECRET}, f"/bot{TOKEN}/getMe"), None)
    assert RedactToken(TOKEN, SECRET).filter(record)
    assert record.getMessage() == ("Uncaught exception {'X-Telegram-Bot-Api-Secret-Token': '<webhook secret>'}: "
                                   "/bot<token>/getMe")


def test_ptb_records_show_updates_and_calls_by_their_ids() -> None:
    message = {"message_id": 5, "date": 0, "text": TEXTS[0],
               "chat": {"id": -100, "type": "supergroup", "title": CHAT_TITLE},
               "from": {"id": 3, "is_bot": False, "first_name": NAMES["first"][0], "last_name": NAMES["last"][0]}}
    update = Update.de_json({"update_id": 77, "message": message}, Bot(TOKEN))
    processing = logging.LogRecord("telegram.ext.Application", logging.DEBUG, __file__, 1, "Processing update %s",
                                   (update,), None)
    calling = logging.LogRecord("telegram.ext.ExtBot", logging.DEBUG, __file__, 1,
                                "Calling Bot API endpoint `%s` with parameters `%s`",
                                ("sendMessage", {"chat_id": -100, "text": TEXTS[1], "message_thread_id": 4}), None)
    returned = logging.LogRecord("telegram.ext.ExtBot", logging.DEBUG, __file__, 1,
                                 "Call to Bot API endpoint `%s` finished with return value `%s`",
                                 ("sendMessage", message), None)
    for record in (processing, calling, returned):
        assert PeopleOutOfLogs().filter(record)
    assert processing.getMessage() == "Processing update 77 (message, chat -100, user 3)"
    assert calling.getMessage() == ("Calling Bot API endpoint `sendMessage` with parameters "
                                    "`chat_id=-100, text, message_thread_id=4`")
    assert returned.getMessage() == ("Call to Bot API endpoint `sendMessage` finished with return value "
                                     "`message_id=5, date, text, chat=-100, from=3`")  # as the Bot API answered


async def test_an_unexpected_error_is_logged_by_its_type_and_place_never_its_words(caplog) -> None:  # type: ignore[no-untyped-def]
    """An exception's message may quote what people wrote (``int("Зефирина")``): the log names its type and
    where it was raised, with the traceback's frames, not its message."""
    try:
        int(NAMES["first"][0])
    except ValueError as exc:
        error = exc
    with caplog.at_level(logging.ERROR, logger="bot.handlers"):
        await handlers.on_error(None, SimpleNamespace(error=error))  # type: ignore[arg-type]
    [record] = [r for r in caplog.records if r.name == "bot.handlers"]
    logged = record.getMessage() + (record.exc_text or "")
    assert "ValueError" in logged and "test_log_privacy.py" in logged  # what and where
    assert NAMES["first"][0] not in logged
