"""The webhook server's limits, with real sockets on 127.0.0.1 against the bot's real webhook: a body over
1 MB and a request without the secret are refused before their body is read, slow clients are cut
after the timeout, no more than WEBHOOK_MAX_CONNECTIONS requests are served at once, and neither
many connections, a flood beyond the cap nor running out of file descriptors stops the bot from
serving Telegram's own posts."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import logging
import os
import resource
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from telegram.ext import Application

from bot.config import Webhook
from bot.fake_telegram.webhook import SECRET_HEADER
from bot.webhook import start_webhook_app
from bot.webhook_server import Limits, WebhookServer, WebhookUpdater
from tests import bot_harness
from tests.bot_harness import CHAT_ID, WEBHOOK_SECRET, BotRunner, World, group_world

MB = 1 << 20
QUICK = Limits(header_timeout_s=1.0, body_timeout_s=0.5, accept_retry_s=0.05)  # the defaults are 10 s and 10 s


@asynccontextmanager
async def limited_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limits: Limits = QUICK,
                        max_connections: int = 40) -> AsyncIterator[World]:
    """A group and the bot taking its updates by webhook, served within ``limits`` and
    ``max_connections`` (WEBHOOK_MAX_CONNECTIONS)."""

    async def start(app: Application, hook: Webhook) -> None:  # type: ignore[type-arg]
        await start_webhook_app(app, dataclasses.replace(hook, max_connections=max_connections), limits=limits)

    monkeypatch.setattr(bot_harness, "start_webhook_app", start)
    async with group_world(tmp_path, first_seed=21, webhook=True) as world:
        yield world


@pytest.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    async with limited_world(tmp_path, monkeypatch) as world:
        yield world


def server_of(runner: BotRunner) -> WebhookServer:
    assert runner.app is not None and isinstance(runner.app.updater, WebhookUpdater)
    assert runner.app.updater.server is not None
    return runner.app.updater.server


def head(runner: BotRunner, length: int, secret: str | None = WEBHOOK_SECRET) -> bytes:
    """A POST's headers as Telegram sends them, announcing a body of ``length`` bytes."""
    lines = [f"POST {urlsplit(runner.webhook_settings().url).path} HTTP/1.1", "Host: 127.0.0.1",
             "Content-Type: application/json", f"Content-Length: {length}"]
    if secret is not None:
        lines.append(f"{SECRET_HEADER}: {secret}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def connect(runner: BotRunner) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection("127.0.0.1", runner.webhook_settings().port)


async def status_of(reader: asyncio.StreamReader) -> int:
    """The status of the answer on ``reader`` (within 5 s: a server still reading a body gives none)."""
    line = await asyncio.wait_for(reader.readline(), 5)
    return int(line.split()[1])


async def closed_after(reader: asyncio.StreamReader, timeout: float = 5) -> float:
    """Seconds until the server closes the connection (whatever it answered first is skipped)."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    while await asyncio.wait_for(reader.read(65536), timeout):
        pass
    return loop.time() - started


def rss() -> int:
    """This process's resident memory now, in bytes."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait until ``condition`` holds (it is the server's own state: nothing to await)."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def warnings_with(caplog: pytest.LogCaptureFixture, text: str) -> int:
    return sum(text in r.getMessage() for r in caplog.records if r.levelno == logging.WARNING)


async def test_a_body_over_1_mb_is_refused_before_it_is_read(world: World) -> None:
    tg, runner, users = world
    assert tg.webhook.hook is not None and tg.webhook.hook.max_connections == 40

    async def oversized() -> tuple[int, int]:
        reader, writer = await connect(runner)
        writer.write(head(runner, length=50 * MB))
        status = await status_of(reader)  # answered before a byte of the body was sent
        sent = 0
        with contextlib.suppress(ConnectionError):  # the server closed the connection: it reads no more
            while sent < 8 * MB:
                writer.write(b"x" * 65536)
                await writer.drain()
                sent += 65536
        writer.close()
        return status, sent

    before = rss()
    results = await asyncio.gather(*(oversized() for _ in range(4)))
    assert [status for status, _ in results] == [413] * 4
    assert all(sent < 8 * MB for _, sent in results), results  # cut off while streaming
    assert rss() - before < 8 * MB  # far less than the 32 MB offered
    await runner.say(users["anya"], "/newgame sosedi")  # Telegram's own posts still come through
    assert runner.table().photo is not None


@pytest.mark.parametrize("secret", [None, "", "wrong", WEBHOOK_SECRET[:-1], WEBHOOK_SECRET + "x"])
async def test_a_request_without_the_secret_is_refused_before_its_body(world: World, secret: str | None) -> None:
    tg, runner, _ = world
    reader, writer = await connect(runner)
    writer.write(head(runner, length=500_000, secret=secret))  # a size within the limit: the secret refuses it
    assert await status_of(reader) == 403  # without the body sent at all
    assert await closed_after(reader) < 1  # and the connection closed: the body is never read
    writer.close()
    assert tg.bot_messages(CHAT_ID) == []


async def test_slow_clients_are_cut_after_the_timeout(world: World) -> None:
    _, runner, users = world
    trickling, trickling_writer = await connect(runner)
    trickling_writer.write(head(runner, length=1000) + b'{"update_id": ')  # and the rest never comes
    half_headers, half_writer = await connect(runner)
    half_writer.write(head(runner, length=1000)[:40])
    idle, idle_writer = await connect(runner)
    body_cut, headers_cut, idle_cut = await asyncio.gather(
        closed_after(trickling), closed_after(half_headers), closed_after(idle))
    assert QUICK.body_timeout_s - 0.1 < body_cut < QUICK.body_timeout_s + 2
    assert QUICK.header_timeout_s - 0.1 < headers_cut < QUICK.header_timeout_s + 2
    assert QUICK.header_timeout_s - 0.1 < idle_cut < QUICK.header_timeout_s + 2
    for writer in (trickling_writer, half_writer, idle_writer):
        writer.close()
    assert server_of(runner).serving == 0  # the cut request no longer counts
    await runner.say(users["anya"], "/newgame sosedi")
    assert runner.table().photo is not None


@pytest.mark.parametrize("length", ["\u00b2", "\u00b9\u00b2", "-1", "1e3", ""])
async def test_a_length_that_is_not_ascii_digits_is_refused_with_411(world: World, length: str) -> None:
    """«²» is a digit to str.isdigit and not to int(): with the secret right, it must still be a 411, not
    an error of the server's (the header is latin-1 on the wire, as HTTP has it)."""
    _, runner, users = world
    reader, writer = await connect(runner)
    announced = head(runner, length=0).replace(b"Content-Length: 0", b"Content-Length: " + length.encode("latin-1"))
    writer.write(announced)
    assert await status_of(reader) == 411
    writer.close()
    await runner.say(users["anya"], "/newgame sosedi")  # the server goes on serving
    assert runner.table().photo is not None


async def test_no_more_than_max_connections_requests_are_served_at_once(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    async with limited_world(tmp_path, monkeypatch, max_connections=3) as (tg, runner, users):
        assert tg.webhook.hook is not None and tg.webhook.hook.max_connections == 3  # what setWebhook was told
        server = server_of(runner)
        slow = [await connect(runner) for _ in range(3)]
        for _, writer in slow:
            writer.write(head(runner, length=100) + b"{")
        await until(lambda: server.serving == 3)
        reader, writer = await connect(runner)
        writer.write(head(runner, length=2) + b"{}")
        assert await status_of(reader) == 503  # one more: Telegram would send it again
        writer.close()
        await asyncio.gather(*(closed_after(r) for r, _ in slow))  # cut by the body timeout
        assert server.serving == 0
        await runner.say(users["anya"], "/newgame sosedi")  # served again
        assert runner.table().photo is not None
        for _, w in slow:
            w.close()


async def test_telegrams_posts_are_served_while_200_junk_connections_are_open(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    limits = dataclasses.replace(QUICK, header_timeout_s=3.0)  # long enough to play while they are open
    async with limited_world(tmp_path, monkeypatch, limits) as (_, runner, users):
        server = server_of(runner)
        junk = [await connect(runner) for _ in range(200)]
        for n, (_, writer) in enumerate(junk):
            if n % 3 == 1:
                writer.write(head(runner, length=1000)[:30])  # headers that never end
            elif n % 3 == 2:
                writer.write(head(runner, length=40 * MB, secret=None))  # no secret, a huge body announced
        await until(lambda: server.open_connections >= 130)
        await runner.say(users["anya"], "/newgame sosedi")  # by the fake Telegram's webhook delivery
        lobby = runner.table()
        edits = lobby.edit_count
        await runner.press(users["boris"], lobby, "Играю")  # answered …
        assert lobby.edit_count > edits  # … and the lobby shows him
        assert server.open_connections >= 130  # all that while the junk was open
        cut = await asyncio.gather(*(closed_after(reader) for reader, _ in junk))
        assert max(cut) < limits.header_timeout_s + 2  # and then every one of them was cut
        for _, writer in junk:
            writer.close()


async def test_a_flood_beyond_the_cap_is_closed_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    limits = dataclasses.replace(QUICK, max_open=50, header_timeout_s=5.0)
    async with limited_world(tmp_path, monkeypatch, limits) as (_, runner, users):
        server = server_of(runner)
        flood = [await connect(runner) for _ in range(200)]
        waits = [asyncio.create_task(closed_after(reader, timeout=10)) for reader, _ in flood]
        await until(lambda: sum(w.done() for w in waits) == 150)  # everything beyond the 50 closed at once
        assert server.open_connections == 50 and all(w.exception() is None for w in waits if w.done())
        assert warnings_with(caplog, "the most it keeps") == 1  # one line for the whole burst
        for _, writer in flood:
            writer.close()
        await asyncio.gather(*waits)
        await until(lambda: server.open_connections == 0)
        await runner.say(users["anya"], "/newgame sosedi")
        assert runner.table().photo is not None


async def test_running_out_of_file_descriptors_is_said_once_and_survived(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async with limited_world(tmp_path, monkeypatch) as (_, runner, users):
        server = server_of(runner)
        address = ("127.0.0.1", runner.webhook_settings().port)
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        clients: list[socket.socket] = []
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(int(fd) for fd in os.listdir("/proc/self/fd")) + 40, hard))
        try:
            while True:  # connections wait to be accepted, the process's last descriptors taken by their clients
                try:
                    client = socket.socket()
                except OSError as exc:
                    assert exc.errno == errno.EMFILE
                    break
                client.setblocking(False)
                client.connect_ex(address)
                clients.append(client)
            await until(lambda: server.accept_pauses >= 3)  # tried again and again while short
            assert warnings_with(caplog, "cannot accept connections") == 1
        finally:
            for client in clients:
                client.close()
            resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
        await until(lambda: warnings_with(caplog, "accepting connections again") == 1)
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []  # no tracebacks
        await runner.say(users["anya"], "/newgame sosedi")
        assert runner.table().photo is not None
