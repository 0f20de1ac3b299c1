"""`python -m bot` in webhook mode as its own process: it registers its webhook,
serves the updates Telegram pushes, stops on SIGTERM; a webhook setting that cannot work, an
address already in use, or a webhook Telegram refuses is one line and exit code 2."""

from __future__ import annotations

import asyncio
import signal
import socket
import sys
from pathlib import Path

import pytest

from bot.__main__ import TELEGRAM_FAILED
from bot.config import BAD_WEBHOOK_SECRET, BAD_WEBHOOK_URL, MISSING_WEBHOOK_SECRET
from bot.fake_telegram import FakeTelegram
from bot.webhook import LISTEN_FAILED
from tests.bot_harness import CHAT_ID, free_port
from tests.startup_steps import TOKEN, bot_env, run_bot

SECRET = "startup_webhook-SECRET"


async def test_the_bot_registers_its_webhook_serves_it_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg/hook"
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        anya = tg.add_user(1, "Аня")
        tg.add_chat(CHAT_ID, "supergroup", creator=anya.id)
        env = bot_env(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url, BOT_API_FILE_URL=tg.file_url,
                      DRAW_PROCESSES="1", WEBHOOK_URL=url, WEBHOOK_SECRET=SECRET, WEBHOOK_PORT=str(port))
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                       stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT)
        try:
            await tg.wait_for(lambda s: s.webhook.hook is not None, timeout=30)
            await tg.send_message(anya, CHAT_ID, "/newgame sosedi")  # pushed to the bot: a lobby
            await tg.wait_for(lambda s: any(m.photo for m in s.bot_messages(CHAT_ID)), timeout=30)
        finally:
            process.send_signal(signal.SIGTERM)
            out, _ = await asyncio.wait_for(process.communicate(), 30)
        hook = tg.webhook.hook
        assert hook is not None and (hook.url, hook.secret_token) == (url, SECRET)  # kept: Telegram queues meanwhile
        assert hook.allowed_updates == ["message", "callback_query", "my_chat_member"]
        assert tg.requests_for("getUpdates") == [] and tg.pending_updates_count() == 0
    text = out.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text and "Unclosed" not in text and TOKEN not in text and SECRET not in text
    assert f"webhook mode: {url} is served on 127.0.0.1:{port}/tg/hook" in text
    assert tg.violations == []
    with socket.socket() as sock:  # the webhook server is gone with the process
        assert sock.connect_ex(("127.0.0.1", port)) != 0


@pytest.mark.parametrize(("settings", "line"), [
    ({"WEBHOOK_URL": "http://bot.example.com/hook", "WEBHOOK_SECRET": SECRET},
     BAD_WEBHOOK_URL.format(url="http://bot.example.com/hook")),
    ({"WEBHOOK_URL": "https://bot.example.com/hook"}, MISSING_WEBHOOK_SECRET),
    ({"WEBHOOK_URL": "https://bot.example.com/hook", "WEBHOOK_SECRET": "not:allowed"}, BAD_WEBHOOK_SECRET),
    ({"WEBHOOK_URL": "https://bot.example.com/hook", "WEBHOOK_SECRET": SECRET, "WEBHOOK_PORT": "99999"},
     "WEBHOOK_PORT must be a port number (1 to 65535), not '99999'"),
])
async def test_a_webhook_setting_that_cannot_work_is_one_line(tmp_path: Path, settings: dict[str, str],
                                                              line: str) -> None:
    assert await run_bot(tmp_path, BOT_TOKEN=TOKEN, **settings) == (2, [line])
    assert not (tmp_path / "bot.sqlite3").exists()  # refused before anything was touched


async def test_an_address_in_use_is_one_line_before_setwebhook(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = int(taken.getsockname()[1])
        async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
            code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url,
                                        BOT_API_FILE_URL=tg.file_url, WEBHOOK_URL=f"http://127.0.0.1:{port}/hook",
                                        WEBHOOK_SECRET=SECRET, WEBHOOK_PORT=str(port))
            assert tg.requests_for("setWebhook") == [] and tg.webhook.hook is None  # Telegram not pointed at it
    assert (code, lines) == (2, [LISTEN_FAILED.format(address=f"127.0.0.1:{port}", reason="Address already in use")])


async def test_a_webhook_telegram_refuses_is_one_line(tmp_path: Path) -> None:
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url,
                                    BOT_API_FILE_URL=tg.file_url, WEBHOOK_URL="https://bot.example.com:8080/hook",
                                    WEBHOOK_SECRET=SECRET, WEBHOOK_PORT=str(free_port()))
    reason = "Bad webhook: webhook can be set up only on ports 80, 88, 443 or 8443"
    assert (code, lines) == (2, [TELEGRAM_FAILED.format(reason=reason)])
