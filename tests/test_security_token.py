"""Security suite: the bot token.

**The token** is in no log record (every logger at DEBUG, written through the bot's own
:class:`RedactToken` filter as ``python -m bot`` sets it up), no request, message, caption,
button or upload, through a pub game with a 500, a 429, 401s, a 403 and a 502, then the
server gone (connection refused); nor in a connection error, ``repr``/``str`` of
:class:`Config` or a config error; nor in the output of the real ``python -m bot`` at DEBUG
(start, presses, faults, SIGTERM; a server it cannot reach; a token the server rejects),
nor in the error of a kept-alive connection the server dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import sys
import traceback
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from telegram.error import NetworkError

import bot.flow.catch_up
from bot.__main__ import RedactToken
from bot.app import build_application
from bot.config import Config, ConfigError
from bot.fake_telegram import FakeTelegram, FakeUser
from bot.flow import GameFlow
from bot.http import AiohttpRequest
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name
from tests.process_steps import ROOT
from tests.process_steps import press as e2e_press
from tests.security_helpers import STOP_DENIED, roll

TOKEN = "8000000001:AAH-never_LEAK-th1s-s3cret-00000000"
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
    await runner.press(anya, result, "🔁 Ещё раунд")  # the host's: the next game at once
    await roll(runner, players, runner.table())


@pytest.mark.filterwarnings("ignore::telegram.warnings.PTBDeprecationWarning")  # PTB's rate limiter reads retry_after
async def test_the_token_is_in_no_log_record_and_no_message(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bot.flow.catch_up, "TABLE_RETRY_S", 0.2)
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
            chat, game = await flow.loader.load(CHAT_ID)
            assert game is not None
            await tg.close()
            await asyncio.sleep(0.1)  # the bot's pooled connections see the server close them
            await flow.table.show(game, chat)
            await asyncio.sleep(0.5)  # the edit is tried again after TABLE_RETRY_S
        finally:
            runner.app = None  # stopped here: BotRunner.stop would stop the updater again
            await app.stop()
            if app.post_shutdown is not None:
                await app.post_shutdown(app)
            await app.shutdown()
    texts = [record_text(r) for r in caplog.records]
    # the session did meet every fault it was meant to
    for sign in ("Internal Server Error", "Telegram asked to wait", "reply failed: Unauthorized", "Bad Gateway",
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
                                                   stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert process.stdout is not None
    seen = b""
    try:  # it tries again and again: up to its second try
        while seen.count(b"Cannot connect to host") < 2:
            seen += await asyncio.wait_for(process.stdout.readline(), 30)
    finally:
        process.send_signal(signal.SIGTERM)
        out, _ = await asyncio.wait_for(process.communicate(), 30)
    text = (seen + out).decode()
    assert "Cannot connect to host" in text
    assert SECRET not in text


async def test_the_bot_process_prints_no_token_when_it_is_rejected(tmp_path: Path) -> None:
    async with FakeTelegram(token="8000000009:AAH-the-server-knows-another", bot_username="SosediBot") as tg:
        process = await spawn_bot(tg, tmp_path, TOKEN)  # 401 Unauthorized at getMe
        assert await asyncio.wait_for(process.wait(), 30) != 0
    assert SECRET not in output(tmp_path)
