"""The browser playground: its JSON API, the watch hook, the command, and a whole game
played in headless Chromium (Debian's, driven by Playwright; never a downloaded browser)."""

from __future__ import annotations

import asyncio
import io
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from PIL import Image
from playwright.async_api import expect
from telegram import Bot, InputFile

from bot.clip import encode_clip
from bot.fake_telegram import FakeTelegram
from bot.playground import open_playground, serve_view
from bot.playground.__main__ import parse_args
from bot.playground.server import MAX_TEXT
from bot.playground.watch import WatchSettingError, watch_settings, watching
from tests.bot_harness import ManualAlarms, group_world

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "bot" / "playground" / "static"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SEED = f"{7:064x}"
SHOWN_WITHIN_MS = 15_000  # the page shows what the bot did within this (it is usually a few ms)


@asynccontextmanager
async def playground(tmp_path: Path) -> AsyncIterator[Any]:
    """A playground on a free port with seeded dice."""
    async with open_playground(0, tmp_path / "playground.sqlite3") as pg:
        pg.app.bot_data["flow"].seed_factory = lambda: SEED
        yield pg


async def call(session: aiohttp.ClientSession, method: str, url: str, **kwargs: Any) -> tuple[int, Any]:
    async with session.request(method, url, **kwargs) as response:
        body = await response.json() if response.content_type == "application/json" else await response.read()
        return response.status, body


# ---------------------------------------------------------------------------- the JSON API

async def test_a_lobby_opened_and_joined_through_the_api(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, aiohttp.ClientSession(pg.url) as http:
        status, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
        assert status == 200 and chat["revision"] == 1 and chat["messages"] == [] and not chat["read_only"]
        assert [(m["name"], m["role"]) for m in chat["members"]] == [
            ("Аня", "creator"), ("Борис", "member"), ("Вера", "member"), ("Глеб", "member")]
        waiting = asyncio.create_task(call(http, "GET", "/api/chat", params={"after": str(chat["revision"])}))
        assert await call(http, "POST", "/api/send", json={"user": 1, "text": "/newgame sosedi"}) == (200, {"ok": True})
        status, news = await waiting  # the long poll answers with the news, not after its timeout
        assert status == 200 and news["revision"] > chat["revision"]
        assert news["messages"][0]["text"] == "/newgame sosedi" and news["messages"][0]["from"]["name"] == "Аня"
        await pg.tg.wait_for(lambda tg: len(tg.bot_messages(pg.chat_id)) == 1)
        status, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
        lobby = chat["messages"][-1]
        assert lobby["from"]["is_bot"] and "Помоги своему соседу" in lobby["caption"]
        join = next(b for row in lobby["buttons"] for b in row if "Играю" in b["text"])
        status, pressed = await call(http, "POST", "/api/press",
                                     json={"user": 2, "message_id": lobby["id"], "data": join["data"]})
        assert status == 200 and pressed == {"ok": True, "answer": {"text": "Вы за столом!", "show_alert": False}}
        await pg.tg.wait_for(lambda tg: "Борис" in tg.message(pg.chat_id, lobby["id"]).caption)
        status, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
        assert chat["messages"][-1]["edited"] and "2. Борис" in chat["messages"][-1]["caption"]
        status, png = await call(http, "GET", chat["messages"][-1]["photo"])
        assert status == 200 and png == pg.tg.message(pg.chat_id, lobby["id"]).photo and png[:4] == b"\x89PNG"
        assert chat["messages"][-1]["photo"] == lobby["photo"]  # the lobby's title card stays: only its caption changed


def png(color: str) -> bytes:
    picture = io.BytesIO()
    Image.new("RGB", (96, 64), color).save(picture, "PNG")
    return picture.getvalue()


async def test_the_chat_json_gives_a_clips_video_and_a_replys_quote() -> None:
    """A clip (sendAnimation's MP4) comes with the URL its stored bytes are served at; a reply (a turn ping
    replies to the table) names the message it replies to as its quote shows it: author and first line."""
    async with FakeTelegram("1:A", "SosediBot", bot_first_name="Соседи") as tg:
        anya = tg.add_user(1, "Аня")
        tg.add_chat(-5, creator=1)
        async with (Bot(tg.token, base_url=tg.base_url, base_file_url=tg.file_url) as bot,
                    serve_view(tg, -5, port=0, members=[anya]) as url, aiohttp.ClientSession(url) as http):
            table = await bot.send_photo(-5, png("white"), caption="Тише едешь\nХодит: Аня")
            ping = await bot.send_message(-5, "Аня, ваш ход", reply_to_message_id=table.message_id)
            mp4 = encode_clip([(Image.new("RGB", (64, 64), "white"), 4)])
            clip = await bot.send_animation(-5, InputFile(mp4, filename="replay-1.mp4"), caption="🎬 Повтор игры #1")
            reply = await bot.send_message(-5, "ещё раз?", reply_to_message_id=clip.message_id)
            _, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
            shown = {m["id"]: m for m in chat["messages"]}
            assert shown[ping.message_id]["reply_to"] == {
                "id": table.message_id, "from": {"id": bot.id, "name": "Соседи"}, "text": "Тише едешь",
                "media": "photo", "deleted": False}
            assert shown[table.message_id]["reply_to"] is None and shown[table.message_id]["video"] is None
            video = shown[clip.message_id]["video"]
            assert clip.animation is not None and shown[clip.message_id]["photo"] is None
            assert video == {"url": f"/api/video/{clip.message_id}?f={clip.animation.file_unique_id}",
                             "mime_type": "video/mp4", "width": clip.animation.width, "height": clip.animation.height}
            assert shown[reply.message_id]["reply_to"]["media"] == "video"
            assert shown[reply.message_id]["reply_to"]["text"] == "🎬 Повтор игры #1"
            status, served = await call(http, "GET", video["url"])
            assert status == 200 and served == mp4
            # parts, as a browser asks for them to seek in a clip
            assert await call(http, "GET", video["url"], headers={"Range": "bytes=10-19"}) == (206, mp4[10:20])
            assert await call(http, "GET", video["url"], headers={"Range": "bytes=-8"}) == (206, mp4[-8:])
            assert (await call(http, "GET", video["url"], headers={"Range": f"bytes={len(mp4)}-"}))[0] == 416
            for path in (f"/api/video/{table.message_id}", f"/api/video/{ping.message_id}", "/api/video/99"):
                assert (await call(http, "GET", path))[0] == 404, path
            await bot.delete_message(-5, table.message_id)
            await bot.delete_message(-5, clip.message_id)
            _, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
            shown = {m["id"]: m for m in chat["messages"]}
            assert shown[ping.message_id]["reply_to"]["deleted"] and clip.message_id not in shown
            assert (await call(http, "GET", video["url"]))[0] == 404  # a deleted clip is gone from the page too


BAD_REQUESTS = [
    ("/api/send", {"user": 9, "text": "/newgame"}, "unknown member", "pg-error-unknown-member"),
    ("/api/send", {"user": "1", "text": "/newgame"}, "unknown member", "pg-error-unknown-member"),
    ("/api/send", {"user": True, "text": "/newgame"}, "unknown member", "pg-error-unknown-member"),
    ("/api/send", {"user": 1, "text": "   "}, "empty", "pg-error-empty"),
    ("/api/send", {"user": 1, "text": 42}, "empty", "pg-error-empty"),
    ("/api/send", {"user": 1, "text": "я" * (MAX_TEXT + 1)}, "longer than 4096", "pg-error-too-long"),
    ("/api/send", [1, "/newgame"], "JSON object", "pg-error-bad-request"),
    ("/api/press", {"user": 1, "message_id": "2", "data": "l:1:join"}, "message_id", "pg-error-bad-request"),
    ("/api/press", {"user": 1, "message_id": True, "data": "l:1:join"}, "message_id", "pg-error-bad-request"),
    ("/api/press", {"user": 1, "message_id": 2, "data": "x" * 65}, "callback data", "pg-error-bad-request"),
    ("/api/press", {"user": 1, "message_id": 2, "data": ""}, "callback data", "pg-error-bad-request"),
    ("/api/press", {"user": 1, "message_id": 2, "data": "l:1:set:chips:99"}, "no such button", "pg-error-no-button"),
    # Аня's own message, and one that does not exist
    ("/api/press", {"user": 1, "message_id": 1, "data": "l:1:join"}, "no such button", "pg-error-no-button"),
    ("/api/press", {"user": 1, "message_id": 999, "data": "l:1:join"}, "no such button", "pg-error-no-button"),
]


async def test_bad_requests_get_a_clear_400_and_change_nothing(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, aiohttp.ClientSession(pg.url) as http:
        await call(http, "POST", "/api/send", json={"user": 1, "text": "/newgame sosedi"})
        await pg.tg.wait_for(lambda tg: len(tg.bot_messages(pg.chat_id)) == 1)
        _, before = await call(http, "GET", "/api/chat", params={"after": "0"})
        updates = pg.tg.last_update_id
        for path, body, words, key in BAD_REQUESTS:
            status, answer = await call(http, "POST", path, json=body)
            assert status == 400 and answer["ok"] is False and words in answer["error"], (path, body, answer)
            assert answer["error_key"] == key
        for raw in (b"not json", b"\xff\xfe", b""):
            status, answer = await call(http, "POST", "/api/send", data=raw,
                                        headers={"Content-Type": "application/json"})
            assert (status, answer["error"]) == (400, "the body must be JSON")
            assert answer["error_key"] == "pg-error-bad-request"
        status, _ = await call(http, "POST", "/api/send", data=b"{" * 100_000,
                               headers={"Content-Type": "application/json"})  # over the body limit
        assert status == 413
        # another site's page may post text/plain without asking first: refused
        status, answer = await call(http, "POST", "/api/send", data=b'{"user": 1, "text": "/stop"}',
                                    headers={"Content-Type": "text/plain"})
        assert status == 400 and "application/json" in answer["error"]
        # and a name pointed at 127.0.0.1 (DNS rebinding) reaches nothing
        for path in ("/", "/api/chat?after=0", "/api/texts"):
            status, answer = await call(http, "GET", path, headers={"Host": "evil.example:8080"})
            assert status == 403 and "127.0.0.1" in answer["error"]
        status, _ = await call(http, "POST", "/api/send", json={"user": 1, "text": "/stop"},
                               headers={"Host": "evil.example"})
        assert status == 403
        assert (await call(http, "GET", "/api/chat", params={"after": "x"}))[0] == 400
        for path in ("/api/photo/1", "/api/photo/999", "/api/photo/abc", "/static/../server.py", "/static/x.js"):
            assert (await call(http, "GET", path))[0] == 404, path
        _, after = await call(http, "GET", "/api/chat", params={"after": "0"})
        assert after == before and pg.tg.last_update_id == updates  # no update reached the bot


async def test_a_page_from_an_earlier_server_is_answered_at_once(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, aiohttp.ClientSession(pg.url) as http:
        status, chat = await asyncio.wait_for(call(http, "GET", "/api/chat", params={"after": "500"}), 5)
        assert status == 200 and chat["revision"] == 1  # not held for the long poll's 20 s


async def test_the_page_and_its_files_are_served_from_the_package(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, aiohttp.ClientSession(pg.url) as http:
        status, page = await call(http, "GET", "/")
        assert status == 200 and b"/static/app.js" in page and b"/static/style.css" in page
        for name in ("app.js", "style.css", "icon.svg"):
            status, body = await call(http, "GET", f"/static/{name}")
            assert status == 200 and body
            # no CDN, no external fonts: everything comes from this process
            assert not re.search(rb"https?://(?!127\.0\.0\.1)", body.replace(b"http://www.w3.org", b"")), name
        assert not re.search(rb"<script[^>]+src=\"https?:", page)


async def test_the_pages_words_come_from_the_locales(tmp_path: Path) -> None:
    used = set()
    for name in ("index.html", "app.js"):
        used |= set(re.findall(r"pg-[a-z-]+[a-z]", (STATIC / name).read_text(encoding="utf-8")))
    used |= set(re.findall(r'"(pg-[a-z-]+)"', (ROOT / "bot" / "playground" / "server.py").read_text(encoding="utf-8")))
    assert len(used) > 20  # the scan found them
    async with playground(tmp_path) as pg, aiohttp.ClientSession(pg.url) as http:
        for lang, send in (("ru", "Отправить"), ("en", "Send"), ("xx", "Отправить"), ("", "Отправить")):
            status, texts = await call(http, "GET", "/api/texts", params={"lang": lang})
            assert status == 200 and texts["lang"] == (lang if lang in ("ru", "en") else "ru")
            assert texts["texts"]["pg-send"] == send
            missing = sorted(key for key in used if key not in texts["texts"])
            assert not missing, (lang, missing)
    for name in ("index.html", "app.js", "style.css"):  # no words of their own: comments aside, no Cyrillic
        code = re.sub(r"//[^\n]*|/\*.*?\*/|<!--.*?-->", "", (STATIC / name).read_text(encoding="utf-8"), flags=re.S)
        assert not re.search("[А-Яа-яЁё]", code), name


# ---------------------------------------------------------------------------- watching a test run

def test_watch_settings_from_the_environment() -> None:
    assert watch_settings({}) is None and watch_settings({"PLAYGROUND_WATCH": " "}) is None
    assert watch_settings({"PLAYGROUND_WATCH": "8080"}) == (8080, 0.0)
    assert watch_settings({"PLAYGROUND_WATCH": "0", "PLAYGROUND_WATCH_HOLD": "2.5"}) == (0, 2.5)
    for bad in ({"PLAYGROUND_WATCH": "eighty"}, {"PLAYGROUND_WATCH": "70000"},
                {"PLAYGROUND_WATCH": "8080", "PLAYGROUND_WATCH_HOLD": "-1"},
                {"PLAYGROUND_WATCH": "8080", "PLAYGROUND_WATCH_HOLD": "soon"}):
        with pytest.raises(WatchSettingError):
            watch_settings(bad)


async def test_a_watched_chat_is_read_only() -> None:
    async with FakeTelegram("1:A", "SosediBot") as tg:
        user = tg.add_user(1, "Аня")
        tg.add_chat(-5, creator=1)
        async with watching(tg, -5, env={}) as nobody:
            assert nobody is None
        async with watching(tg, -5, env={"PLAYGROUND_WATCH": "0"}) as url, aiohttp.ClientSession(url) as http:
            await tg.send_message(user, -5, "привет")
            _, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
            assert chat["read_only"] and chat["members"] == [] and chat["messages"][0]["text"] == "привет"
            status, answer = await call(http, "POST", "/api/send", json={"user": 1, "text": "/newgame"})
            assert (status, answer["error"]) == (400, "this view is read-only")


async def test_the_hold_keeps_the_page_of_a_failed_test_up(monkeypatch) -> None:
    held: list[tuple[float, int]] = []
    where: list[str] = []

    async def looking(seconds: float) -> None:  # instead of the person looking: the page still answers
        async with aiohttp.ClientSession(where[0]) as http:
            held.append((seconds, (await call(http, "GET", "/api/chat", params={"after": "0"}))[0]))

    monkeypatch.setattr("bot.playground.watch.hold_page", looking)
    async with FakeTelegram("1:A", "SosediBot") as tg:
        tg.add_chat(-5, creator=1)
        with pytest.raises(AssertionError):
            async with watching(tg, -5, env={"PLAYGROUND_WATCH": "0", "PLAYGROUND_WATCH_HOLD": "7"}) as url:
                where.append(url)
                raise AssertionError("the test failed")
        assert held == [(7.0, 200)]
        async with watching(tg, -5, env={"PLAYGROUND_WATCH": "0"}) as url:
            where[0] = url
        assert held == [(7.0, 200)]  # no hold asked, none made


async def test_the_harness_serves_a_test_run_when_asked(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PLAYGROUND_WATCH", "0")
    async with group_world(tmp_path, first_seed=1, count=2) as (_tg, runner, users):
        await runner.say(users["anya"], "/newgame sosedi")
        url = re.search(r"watching chat -100123: (\S+)", capsys.readouterr().err)
        assert url is not None
        async with aiohttp.ClientSession(url.group(1)) as http:
            _, chat = await call(http, "GET", "/api/chat", params={"after": "0"})
        assert chat["read_only"] and "Помоги своему соседу" in chat["messages"][-1]["caption"]


# ---------------------------------------------------------------------------- the command

def test_command_line_arguments() -> None:
    assert (parse_args([]).port, parse_args([]).db) == (8080, None)
    assert (parse_args(["--port", "0", "--db", "x.sqlite3"]).port, str(parse_args(["--db", "x.sqlite3"]).db)) == (
        0, "x.sqlite3")
    for bad in (["--port", "70000"], ["--port", "eighty"], ["--nonsense"]):
        with pytest.raises(SystemExit) as exited:
            parse_args(bad)
        assert exited.value.code == 2


def test_python_m_bot_playground_serves_then_stops_on_sigterm(tmp_path: Path) -> None:
    database = tmp_path / "kept" / "games.sqlite3"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("BOT_TOKEN", None)  # needs no token
    process = subprocess.Popen([sys.executable, "-m", "bot.playground", "--port", "0", "--db", str(database)],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # blocks until the page is up
        url = re.match(r"Playground: (http://127\.0\.0\.1:\d+/) ", line)
        assert url, line + process.stderr.read() if process.stderr else line
        busy = subprocess.run([sys.executable, "-m", "bot.playground", "--port", url.group(1).split(":")[2][:-1]],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
        assert busy.returncode == 2 and "Try another --port" in busy.stderr and "Traceback" not in busy.stderr

        async def fetch() -> tuple[int, Any]:
            async with aiohttp.ClientSession(url.group(1)) as http:
                return await call(http, "GET", "/api/chat", params={"after": "0"})

        status, chat = asyncio.run(fetch())
        assert status == 200 and chat["title"] == "Игровая"
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=30) == 0
        assert database.exists()  # --db keeps the games
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# ---------------------------------------------------------------------------- a real browser

def chromium_path() -> str:
    """Debian's Chromium; missing, the test is skipped, unless CI (which installs it) requires it."""
    found = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if found:
        return found
    if os.environ.get("SOSEDI_REQUIRE_BROWSER"):
        pytest.fail("Debian's chromium is not installed (apt-get install chromium); .ci/run installs it")
    pytest.skip("Debian's chromium is not installed (apt-get install chromium)")


@asynccontextmanager
async def browser_page(width: int = 1100, height: int = 900, locale: str = "ru-RU") -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    executable = chromium_path()
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = await browser.new_page(viewport={"width": width, "height": height}, locale=locale)
            errors: list[str] = []
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            yield page
            assert errors == []  # no exception in the page's script
        finally:
            await browser.close()


class ChatPage:
    """The playground page, driven like a person would: pick who you are, type, press buttons."""

    def __init__(self, page: Any) -> None:
        self.page = page

    async def open(self, url: str) -> None:
        await self.page.goto(url)
        await self.page.wait_for_selector("body[data-ready='1']")

    async def open_lobby(self, url: str, host: str, code: str) -> Any:
        """Open the page, and as ``host`` open a lobby of ``code``; the lobby message."""
        await self.open(url)
        await self.act_as(host)
        await self.send(f"/newgame {code}")
        lobby = self.bot_message(has_photo=True)
        await lobby.locator(".keyboard button.kb", has_text="Играю").wait_for()
        return lobby

    async def revision(self) -> int:
        return int(await self.page.evaluate("document.body.dataset.revision || '0'"))

    async def changed_since(self, revision: int) -> None:
        await self.page.wait_for_function(f"Number(document.body.dataset.revision) > {revision}")

    async def act_as(self, name: str) -> None:
        button = self.page.locator("#members button", has_text=name)
        await button.click()
        assert await button.get_attribute("aria-pressed") == "true"

    async def send(self, text: str) -> None:
        seen = await self.revision()
        await self.page.fill("#composer input[name=text]", text)
        await self.page.click("#composer button[type=submit]")
        await self.changed_since(seen)
        assert await self.page.input_value("#composer input[name=text]") == ""

    def bot_message(self, has_photo: bool = False) -> Any:
        selector = ".message.bot:has(img.photo)" if has_photo else ".message.bot"
        return self.page.locator(f"#messages {selector}").last

    async def press(self, message: Any, label: str) -> None:
        """Press ``label`` on ``message`` and wait until the bot's edit shows (every press here changes the text).

        Not merely any change: the bot answers first and edits after, and another message
        (a reply to an earlier command) may come in between.
        """
        text = message.locator(".text")
        before = await text.inner_text()
        await message.locator(".keyboard button.kb", has_text=label).first.click()
        await expect(text).not_to_have_text(before, timeout=SHOWN_WITHIN_MS)

    async def shows(self, message: Any, words: str) -> None:
        await expect(message.locator(".text")).to_contain_text(words, timeout=SHOWN_WITHIN_MS)


async def test_a_whole_game_of_sosedi_in_the_browser(tmp_path: Path) -> None:
    """A game played by clicks; on the way its turn ping shows as a reply to the table, and at its end
    its replay plays as a clip (by the button, then by /replay, whose «Готовлю повтор…» goes)."""
    async with playground(tmp_path) as pg, browser_page() as page:
        alarms = pg.app.bot_data["flow"].alarms = ManualAlarms()  # the turn ping is rung, not waited for
        chat = ChatPage(page)
        lobby = await chat.open_lobby(pg.url, "Аня", "sosedi")
        await chat.send("/set chips 5")  # a short game
        await chat.shows(lobby, "Фишек у каждого: 5")
        await chat.act_as("Борис")
        await chat.press(lobby, "Играю")
        await chat.shows(lobby, "2. Борис")
        await chat.act_as("Аня")
        await chat.press(lobby, "Начать")
        table = chat.bot_message(has_photo=True)
        await chat.shows(table, "Ходит:")
        await ping_shows_as_a_reply_to(page, table, alarms)
        first_picture = await table.locator("img.photo").get_attribute("src")
        rolls = 0
        while await table.locator(".keyboard button.kb", has_text="🎲").count():
            caption = await table.locator(".text").inner_text()
            mover = re.search(r"Ходит: (\S+)", caption)
            assert mover, caption
            await chat.act_as(mover.group(1))
            await chat.press(table, "🎲")
            rolls += 1
            assert rolls < 400
        result = page.locator("#messages .message.bot", has=page.locator(".keyboard button.kb", has_text="Ещё раунд"))
        await chat.shows(result, "побеждает")  # the result message comes after the last edit
        assert await result.count() == 1
        picture = table.locator("img.photo")
        assert await picture.get_attribute("src") != first_picture  # the board was redrawn in place
        assert await picture.evaluate("img => img.complete && img.naturalWidth > 0")
        assert await page.locator("#messages .message.bot:has(img.photo)").count() == 1  # edited, never re-sent
        await replay_plays_as_a_clip(chat, result, pg)
        await page.screenshot(path=str(tmp_path / "playground.png"))
        assert (tmp_path / "playground.png").stat().st_size > 10_000
        print(f"\nplayground screenshot after {rolls} rolls: {tmp_path / 'playground.png'}")


async def ping_shows_as_a_reply_to(page: Any, table: Any, alarms: ManualAlarms) -> None:
    """The turn ping (a reply to the table) has a quote of the table: its author and first line; a click
    on the quote brings the table into view, lit up."""
    (ping_alarm,) = [key for key in alarms.armed if key[0] == "ping"]
    await alarms.ring(ping_alarm)
    ping = page.locator("#messages .message.bot", has_text="ваш ход")
    quote = ping.locator(".reply-quote")
    await expect(quote.locator(".reply-author")).to_have_text("Соседи", timeout=SHOWN_WITHIN_MS)
    first_line = (await table.locator(".text").inner_text()).split("\n")[0]
    await expect(quote.locator(".reply-text")).to_have_text(first_line)
    assert await quote.evaluate("q => q.nextElementSibling.classList.contains('text')")  # above the text
    await page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    await quote.click()
    await expect(table).to_have_class(re.compile(r"\bflash\b"))
    await expect(table.locator("img.photo")).to_be_in_viewport()


async def replay_plays_as_a_clip(chat: ChatPage, result: Any, pg: Any) -> None:
    """«🎬 Повтор» under the result: a toast, then the clip as a <video> that plays. Then /replay: the
    same clip again, and «Готовлю повтор…» is gone from the chat (and from the fake server's)."""
    page = chat.page
    await result.locator(".keyboard button.kb", has_text="Повтор").click()
    await expect(page.locator("#toast.show")).to_contain_text("Готовлю повтор", timeout=SHOWN_WITHIN_MS)
    clip = page.locator("#messages .message.bot.has-video")
    await expect(clip.locator("video.video[controls]")).to_have_count(1, timeout=SHOWN_WITHIN_MS)
    await page.wait_for_function("""() => {
        const video = document.querySelector("#messages video.video");
        return video.readyState >= 2 && video.duration > 0 && !video.paused && video.muted && video.loop
            && video.seekable.length === 1 && video.seekable.end(0) === video.duration;
    }""", timeout=SHOWN_WITHIN_MS)  # Chromium decodes the clip, plays it by itself and can seek in it
    game_id = re.search(r"Повтор игры #(\d+)", await clip.locator(".text").inner_text())
    assert game_id is not None
    await chat.send(f"/replay {game_id[1]}")
    await expect(page.locator("#messages video.video")).to_have_count(2, timeout=SHOWN_WITHIN_MS)
    await expect(page.locator("#messages .message", has_text="Готовлю повтор")).to_have_count(0)
    making = [m for m in pg.tg.messages[pg.chat_id].values() if "Готовлю повтор" in (m.text or "")]
    assert len(making) == 1 and making[0].deleted


async def test_a_refused_press_shows_the_bots_toast(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, browser_page(390, 844) as page:  # a phone's width
        chat = ChatPage(page)
        lobby = await chat.open_lobby(pg.url, "Вера", "sosedi")
        await chat.act_as("Глеб")
        await lobby.locator(".keyboard button.kb", has_text="Отмена").click()  # only the host may cancel
        toast = page.locator("#toast.show")
        await toast.wait_for()
        assert "только хост" in await toast.inner_text()
        assert "Игроки (1/6)" in await lobby.locator(".text").inner_text()
        assert await page.inner_text("#composer button[type=submit]") == "Отправить"


async def test_the_page_speaks_the_browsers_language_and_shows_api_errors(tmp_path: Path) -> None:
    async with playground(tmp_path) as pg, browser_page(locale="en-US") as page:
        await ChatPage(page).open(pg.url + "?lang=ru")  # asked for, Russian wins over the browser's English
        assert await page.inner_text("#composer button[type=submit]") == "Отправить"
        await ChatPage(page).open(pg.url)
        assert await page.inner_text("#composer button[type=submit]") == "Send"
        placeholder = await page.get_attribute("#composer input[name=text]", "placeholder")
        assert placeholder == "A command, e.g. /newgame sosedi"
        assert await page.evaluate("document.documentElement.lang") == "en"
        await page.fill("#composer input[name=text]", "x" * 4096 + "y")  # the field stops at 4096 …
        assert len(await page.input_value("#composer input[name=text]")) == 4096
        await page.evaluate("""fetch('/api/send', {method: 'POST', headers: {'Content-Type': 'application/json'},
                                                   body: '{"user": 1, "text": "hi"}'})""")
        await pg.tg.wait_for(lambda tg: len(tg.messages[pg.chat_id]) == 1)
        # … and a refused send shows the server's reason in the page's language
        await page.evaluate("document.querySelector('#composer input[name=text]').removeAttribute('maxlength')")
        await page.fill("#composer input[name=text]", "y" * 4097)
        await page.click("#composer button[type=submit]")
        toast = page.locator("#toast.show.error")
        await toast.wait_for()
        assert await toast.inner_text() == "The message is longer than 4096 characters."
        assert len(pg.tg.messages[pg.chat_id]) == 1


async def test_a_test_run_watched_in_the_browser(tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv("PLAYGROUND_WATCH", "0")
    async with group_world(tmp_path, first_seed=1, count=2) as (_tg, runner, users), browser_page() as page:
        url = re.search(r"watching chat -100123: (\S+)", capsys.readouterr().err)
        assert url is not None
        await ChatPage(page).open(url.group(1))
        assert await page.is_visible("#readonly") and not await page.is_visible("#composer")
        assert not await page.is_visible("#members")
        seen = int(await page.evaluate("document.body.dataset.revision"))
        await runner.say(users["anya"], "/newgame sosedi")  # the test plays; the page follows
        await page.wait_for_function(f"Number(document.body.dataset.revision) > {seen}")
        join = page.locator("#messages .message.bot .keyboard button.kb", has_text="Играю")
        await join.wait_for()
        assert await join.is_disabled()  # watching, not playing
