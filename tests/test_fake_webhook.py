"""The fake Bot API's webhook: setWebhook/getWebhookInfo/deleteWebhook as Telegram
answers them, 409 for getUpdates while a webhook is set, updates POSTed one at a time with the
secret header, and a failed delivery kept and tried again until the receiver takes it."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
from aiohttp import web
from PIL import Image
from telegram import Bot
from telegram.error import BadRequest, Conflict

from bot.fake_telegram import FakeTelegram
from bot.fake_telegram.webhook import SECRET_HEADER

SECRET = "s3cret_TOKEN-x"


@dataclass
class Receiver:
    """A webhook receiver on 127.0.0.1: records each POST and answers ``status`` (200 by default)."""

    status: int = 200
    bodies: list[dict[str, object]] = field(default_factory=list)
    secrets: list[str | None] = field(default_factory=list)
    content_types: list[str] = field(default_factory=list)
    runner: web.AppRunner | None = None
    port: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    async def handle(self, request: web.Request) -> web.Response:
        self.secrets.append(request.headers.get(SECRET_HEADER))
        self.content_types.append(request.headers.get("Content-Type", ""))
        self.bodies.append(json.loads(await request.read()))
        return web.Response(status=self.status)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self.handle)
        self.runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()
        self.port = int(self.runner.addresses[0][1])

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None


pytestmark = pytest.mark.tg(token="123456:WEBHOOK-fake-test")  # FakeTelegram's arguments (tests/conftest.py)


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    """A PTB Bot on the fake server: the calls go through real HTTP and PTB's own parsing."""
    async with Bot(tg.token, base_url=tg.base_url, base_file_url=tg.file_url) as client:
        yield client


@pytest.fixture
async def receiver() -> AsyncIterator[Receiver]:
    hook = Receiver()
    await hook.start()
    yield hook
    await hook.stop()


def ids(receiver: Receiver) -> list[object]:
    return [body["update_id"] for body in receiver.bodies]


async def test_set_info_and_delete(tg: FakeTelegram, bot: Bot, receiver: Receiver) -> None:
    info = await bot.get_webhook_info()
    assert (info.url, info.pending_update_count, info.has_custom_certificate) == ("", 0, False)
    assert await bot.set_webhook(receiver.url, secret_token=SECRET, allowed_updates=["message", "callback_query"],
                                 max_connections=5)
    info = await bot.get_webhook_info()
    assert (info.url, info.max_connections, info.allowed_updates) == (receiver.url, 5, ("message", "callback_query"))
    assert info.last_error_date is None and info.last_error_message is None
    assert await bot.delete_webhook()
    assert (await bot.get_webhook_info()).url == ""


@pytest.mark.parametrize(("url", "secret", "error"), [
    ("http://example.com/hook", None, "An HTTPS URL must be provided for webhook"),
    ("https://example.com:8080/hook", None, "Webhook can be set up only on ports 80, 88, 443 or 8443"),
    ("https://example.com/hook", "has space", "secret token contains unallowed characters"),
    ("https://example.com/hook", "tok:en", "secret token contains unallowed characters"),
    ("https://example.com/hook", "x" * 257, "secret token is too long"),
])
async def test_set_webhook_is_checked_like_telegram(tg: FakeTelegram, bot: Bot, url: str, secret: str | None,
                                                   error: str) -> None:
    with pytest.raises(BadRequest, match=f"(?i){error}"):  # PTB capitalizes what follows «Bad Request: »
        await bot.set_webhook(url, secret_token=secret)
    assert (await bot.get_webhook_info()).url == ""  # nothing registered


async def test_https_on_a_telegram_port_is_taken_and_never_leaves_the_machine(tg: FakeTelegram, bot: Bot) -> None:
    assert await bot.set_webhook("https://bot.example.com:8443/hook", secret_token="x" * 256)
    await tg.send_private(tg.add_user(1, "Аня"), "hi")
    await tg.wait_for(lambda s: s.webhook.failures > 0)
    info = await bot.get_webhook_info()
    assert info.pending_update_count == 1 and "127.0.0.1" in (info.last_error_message or "")


async def test_get_updates_while_a_webhook_is_set_is_a_conflict(tg: FakeTelegram, bot: Bot,
                                                                receiver: Receiver) -> None:
    await bot.set_webhook(receiver.url)
    with pytest.raises(Conflict, match="can't use getUpdates method while webhook is active; use deleteWebhook"):
        await bot.get_updates(timeout=0)
    await bot.delete_webhook()
    assert await bot.get_updates(timeout=0) == ()


async def test_a_long_poll_ends_when_a_webhook_is_set(tg: FakeTelegram, bot: Bot, receiver: Receiver) -> None:
    async with Bot(tg.token, base_url=tg.base_url) as poller:
        poll = asyncio.create_task(poller.get_updates(timeout=20, read_timeout=30))
        await tg.wait_for(lambda s: s.waiting_pollers == 1)
        await bot.set_webhook(receiver.url)
        with pytest.raises(Conflict, match="terminated by setWebhook request"):
            await asyncio.wait_for(poll, 5)


async def test_updates_are_pushed_in_order_with_the_secret_header(tg: FakeTelegram, bot: Bot,
                                                                  receiver: Receiver) -> None:
    anya = tg.add_user(1, "Аня")
    first = await tg.send_private(anya, "one")  # queued before the webhook: delivered once it is set
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    await tg.send_private(anya, "two")
    await tg.send_private(anya, "three")
    await tg.wait_for(lambda s: len(receiver.bodies) == 3 and s.pending_updates_count() == 0)
    assert [b["message"]["text"] for b in receiver.bodies] == ["one", "two", "three"]  # type: ignore[index]
    assert ids(receiver) == sorted(ids(receiver)) and receiver.bodies[0]["message"] == first
    assert receiver.secrets == [SECRET] * 3 and receiver.content_types == ["application/json"] * 3
    assert tg.webhook.attempts == 3 and (await bot.get_webhook_info()).pending_update_count == 0


async def test_allowed_updates_and_drop_pending(tg: FakeTelegram, bot: Bot, receiver: Receiver) -> None:
    anya = tg.add_user(1, "Аня")
    await tg.send_private(anya, "old")
    await bot.set_webhook(receiver.url, allowed_updates=["callback_query"], drop_pending_updates=True)
    await tg.send_private(anya, "not wanted")
    assert [u["message"]["text"] for u in tg.dropped_updates] == ["old", "not wanted"]
    assert receiver.bodies == [] and tg.pending_updates_count() == 0


async def test_an_error_answer_is_kept_and_tried_again(tg: FakeTelegram, bot: Bot, receiver: Receiver) -> None:
    receiver.status = 500
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    anya = tg.add_user(1, "Аня")
    await tg.send_private(anya, "one")
    await tg.send_private(anya, "two")
    await tg.wait_for(lambda s: s.webhook.failures >= 3)
    info = await bot.get_webhook_info()
    assert info.pending_update_count == 2
    assert info.last_error_message == "Wrong response from the webhook: 500 Internal Server Error"
    assert info.last_error_date is not None
    assert {b["message"]["text"] for b in receiver.bodies} == {"one"}  # type: ignore[index]  # in order: "two" waits
    receiver.status = 200
    await tg.wait_for(lambda s: s.pending_updates_count() == 0, timeout=5)
    texts = [b["message"]["text"] for b in receiver.bodies]  # type: ignore[index]
    assert texts[-2:] == ["one", "two"] and set(texts[:-2]) == {"one"}
    assert (await bot.get_webhook_info()).last_error_message is not None  # Telegram keeps the last error


async def test_a_receiver_that_is_down_gets_its_updates_when_it_is_back(tg: FakeTelegram, bot: Bot) -> None:
    with socket.socket() as sock:  # a port nothing listens on, taken by the receiver later
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    receiver = Receiver(port=port)
    await bot.set_webhook(receiver.url, secret_token=SECRET)
    anya = tg.add_user(1, "Аня")
    for text in ("one", "two", "three"):
        await tg.send_private(anya, text)
    await tg.wait_for(lambda s: s.webhook.failures >= 2)
    info = await bot.get_webhook_info()
    assert (info.pending_update_count, info.last_error_message) == (3, "Connection refused")
    await receiver.start()
    try:
        await bot.set_webhook(receiver.url, secret_token=SECRET)  # as the bot does when it starts: tried at once
        await tg.wait_for(lambda s: s.pending_updates_count() == 0, timeout=5)
    finally:
        await receiver.stop()
    assert [b["message"]["text"] for b in receiver.bodies] == ["one", "two", "three"]  # type: ignore[index]
    assert receiver.secrets == [SECRET] * 3


async def test_the_pause_between_tries_grows(tg: FakeTelegram, bot: Bot, receiver: Receiver) -> None:
    receiver.status = 502
    tg.webhook.retry_first_s, tg.webhook.retry_max_s = 0.05, 0.4
    await bot.set_webhook(receiver.url)
    await tg.send_private(tg.add_user(1, "Аня"), "one")
    loop = asyncio.get_running_loop()
    seen: list[float] = []
    for n in range(1, 6):
        await tg.wait_for(lambda s, n=n: s.webhook.attempts >= n)
        seen.append(loop.time())
    gaps = [b - a for a, b in itertools.pairwise(seen)]
    assert gaps[0] >= 0.04 and gaps[1] >= 0.09 and gaps[2] >= 0.19 and gaps[3] >= 0.35, gaps  # 0.05, 0.1, 0.2, 0.4


async def test_wait_idle_waits_for_the_webhook_to_take_its_updates(tg: FakeTelegram, bot: Bot,
                                                                   receiver: Receiver) -> None:
    receiver.status = 503
    await bot.set_webhook(receiver.url)
    await tg.send_private(tg.add_user(1, "Аня"), "one")
    await tg.wait_for(lambda s: s.webhook.failures >= 1)
    with pytest.raises(TimeoutError):  # tried and refused: not idle
        await tg.wait_idle(timeout=0.3)
    receiver.status = 200
    await tg.wait_idle()
    assert tg.pending_updates_count() == 0 and len(tg.webhook.delivered) == 1


async def test_a_press_the_bot_answered_without_taking_its_update_comes_again_and_telegram_refuses_the_answer(
        tg: FakeTelegram, bot: Bot, receiver: Receiver) -> None:
    """The bot answered the press but its webhook's 200 never came back (it stopped meanwhile):
    Telegram delivers the update again, and a second answerCallbackQuery is refused as too old. The
    bot could not have known, so that is no violation; answering one delivery twice still is."""
    user = tg.add_user(1, "Аня")
    tg.add_chat(-5, creator=user.id)
    png = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(png, "PNG")
    keyboard = {"inline_keyboard": [[{"text": "🎲", "callback_data": "r"}]]}
    message = tg.add_bot_photo(-5, png.getvalue(), "стол", keyboard)
    receiver.status = 500
    assert await bot.set_webhook(receiver.url)
    handle = await tg.press(user, -5, message.message_id, "r")
    await tg.wait_for(lambda s: s.webhook.failures >= 1)
    assert await bot.answer_callback_query(str(receiver.bodies[0]["callback_query"]["id"]), text="🎲 3")  # type: ignore[index]
    receiver.status = 200
    await tg.wait_for(lambda s: len(s.webhook.delivered) == 1)
    assert receiver.bodies[-1]["update_id"] == handle.update_id
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(str(receiver.bodies[-1]["callback_query"]["id"]), text="устарела")  # type: ignore[index]
    assert tg.violations == [] and handle.text == "🎲 3"
    other = await tg.press(user, -5, message.message_id, "r")  # delivered once, taken, answered twice: a bug
    await tg.wait_for(lambda s: len(s.webhook.delivered) == 2)
    assert await bot.answer_callback_query(other.query_id)
    with pytest.raises(BadRequest, match=r"(?i)query is too old"):
        await bot.answer_callback_query(other.query_id)
    assert tg.violations == [f"callback query {other.query_id} (data='r') answered twice"]
    tg.violations.clear()
