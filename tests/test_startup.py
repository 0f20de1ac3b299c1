"""`python -m bot` as an operator starts it: every start-up failure is
one clear line and a non-zero exit, with no traceback and no aiohttp «Unclosed client session»; a
Bot API that cannot be reached is tried again with a growing pause, one line a try; `--help`
lists the settings; `.env` is read from the folder the bot is run in."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from pathlib import Path

from bot.__main__ import DATABASE_FAILED, TOKEN_REJECTED
from bot.config import BAD_TOKEN, MISSING_TOKEN, SETTINGS
from bot.fake_telegram import FakeTelegram
from tests.bot_harness import CHAT_ID
from tests.startup_steps import TOKEN, bot_env, dead_port, run_bot

RETRY_LINE = re.compile(r"^\S+ \S+ WARNING bot: Bot API at 127\.0\.0\.1:(\d+): .*Cannot connect to host "
                        r"127\.0\.0\.1:\1.*; trying again in (\d+) s \(try (\d+)\)$")


async def test_a_token_of_the_wrong_shape_is_one_line(tmp_path: Path) -> None:
    code, lines = await run_bot(tmp_path, BOT_TOKEN="abc")
    assert (code, lines) == (2, [BAD_TOKEN])
    assert not (tmp_path / "bot.sqlite3").exists()  # refused before anything was touched


async def test_a_token_telegram_rejects_is_one_line(tmp_path: Path) -> None:
    async with FakeTelegram(token="8000000009:AAH-the-server-knows-another-0000000", bot_username="SosediBot") as tg:
        code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url,
                                    BOT_API_FILE_URL=tg.file_url)
        assert [r.method for r in tg.requests] == ["getMe"]  # it asked once, and nothing more
    assert (code, lines) == (2, [TOKEN_REJECTED])


async def test_a_database_that_cannot_be_written_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the database's folder should be", encoding="utf-8")
    path = str(tmp_path / "data" / "bot.sqlite3")
    code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, DATABASE_PATH=path,
                                BOT_API_BASE_URL=f"http://127.0.0.1:{dead_port()}/bot")
    assert code == 2 and len(lines) == 1, lines  # said before any try to reach the network
    head = DATABASE_FAILED.format(path=path, reason="\0").partition("\0")[0]
    assert lines[0].startswith(head) and str(tmp_path / "data") in lines[0]


async def test_a_directory_as_the_database_is_one_line(tmp_path: Path) -> None:
    code, lines = await run_bot(tmp_path, BOT_TOKEN=TOKEN, DATABASE_PATH=str(tmp_path))
    assert (code, lines) == (2, [DATABASE_FAILED.format(path=tmp_path, reason="unable to open database file")])


async def test_an_unreachable_bot_api_is_tried_again_with_a_growing_pause(tmp_path: Path) -> None:
    port = dead_port()
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env=bot_env(tmp_path, BOT_TOKEN=TOKEN,
                                                               BOT_API_BASE_URL=f"http://127.0.0.1:{port}/bot"),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    assert process.stdout is not None
    lines, seen_at = [], []
    loop = asyncio.get_running_loop()
    try:
        for _ in range(2):
            lines.append((await asyncio.wait_for(process.stdout.readline(), 30)).decode().rstrip("\n"))
            seen_at.append(loop.time())
    finally:
        process.send_signal(signal.SIGTERM)  # stops it in its pause, as at any other time
        rest, _ = await asyncio.wait_for(process.communicate(), 30)
    lines += rest.decode().splitlines()
    tries = [RETRY_LINE.match(line) for line in lines]
    assert all(tries) and len(lines) in (2, 3), lines  # one line a try, nothing else
    assert [(int(m[1]), int(m[2]), int(m[3])) for m in tries if m][:2] == [(port, 1, 1), (port, 2, 2)]  # 1 s, 2 s
    assert seen_at[1] - seen_at[0] >= 0.9  # it did wait before trying again
    assert process.returncode == 0  # stopped as asked


async def test_a_bot_api_that_fails_at_first_is_tried_again_then_polled(tmp_path: Path) -> None:
    """A 502 at getMe (to PTB a network error): one line, a pause, then it runs. (A 429 never gets
    here: the bot's rate limiter waits out Telegram's retry_after itself.)"""
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        tg.fail_next("getMe", error_code=502)
        env = bot_env(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url, BOT_API_FILE_URL=tg.file_url)
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                       stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT)
        try:
            await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)
        finally:
            process.send_signal(signal.SIGTERM)
            out, _ = await asyncio.wait_for(process.communicate(), 30)
    lines = [line for line in out.decode().splitlines() if " WARNING " in line or "Traceback" in line]
    assert process.returncode == 0 and len(lines) == 1, lines
    assert re.search(r"WARNING bot: Bot API at 127\.0\.0\.1:\d+: (.*); trying again in 1 s \(try 1\)$", lines[0])
    assert "Bad Gateway" in lines[0]
    assert [r.method for r in tg.requests[:2]] == ["getMe"] * 2


async def test_the_bot_starts_polls_and_stops_cleanly(tmp_path: Path) -> None:
    """The smoke test of a start that works (run on every Python .ci/run has)."""
    async with FakeTelegram(token=TOKEN, bot_username="SosediBot") as tg:
        anya = tg.add_user(1, "Аня")
        tg.add_chat(CHAT_ID, "supergroup", creator=anya.id)
        env = bot_env(tmp_path, BOT_TOKEN=TOKEN, BOT_API_BASE_URL=tg.base_url, BOT_API_FILE_URL=tg.file_url,
                      DRAW_PROCESSES="1")
        process = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot", cwd=tmp_path, env=env,
                                                       stdout=asyncio.subprocess.PIPE,
                                                       stderr=asyncio.subprocess.STDOUT)
        try:
            await tg.wait_for(lambda s: s.waiting_pollers > 0, timeout=30)
            await tg.send_message(anya, CHAT_ID, "/newgame sosedi")  # a lobby: the database and a drawing
            await tg.wait_for(lambda s: any(m.photo for m in s.bot_messages(CHAT_ID)), timeout=30)
        finally:
            process.send_signal(signal.SIGTERM)
            out, _ = await asyncio.wait_for(process.communicate(), 30)
    text = out.decode()
    assert process.returncode == 0, text
    assert "Traceback" not in text and "Unclosed" not in text and TOKEN not in text
    assert tg.violations == []


async def test_help_lists_every_setting_with_its_default(tmp_path: Path) -> None:
    code, lines = await run_bot(tmp_path, "--help")
    assert code == 0
    for setting in SETTINGS:
        assert any(line.split()[:1] == [setting.name] and f"(default: {setting.default})" in line
                   and setting.about in line for line in lines), setting.name
    assert not (tmp_path / "bot.sqlite3").exists()  # --help starts nothing


async def test_dotenv_is_read_from_the_folder_the_bot_is_run_in(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BOT_TOKEN=not-a-token\nDEFAULT_LOCALE=en\n", encoding="utf-8")
    assert await run_bot(tmp_path) == (2, [BAD_TOKEN])  # this .env's token, not «BOT_TOKEN is not set»
    (tmp_path / ".env").write_text("DEFAULT_LOCALE=de\n", encoding="utf-8")
    assert await run_bot(tmp_path, BOT_TOKEN=TOKEN) == (2, ["DEFAULT_LOCALE must be ru or en, not 'de'"])
    (tmp_path / ".env").unlink()
    assert await run_bot(tmp_path) == (2, [MISSING_TOKEN])


async def test_the_environment_wins_over_dotenv(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"BOT_TOKEN={TOKEN}\n", encoding="utf-8")
    assert await run_bot(tmp_path, BOT_TOKEN="abc") == (2, [BAD_TOKEN])
