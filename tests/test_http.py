"""The aiohttp transport maps failures to PTB's errors (the e2e tests use it for everything else)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web
from telegram.error import NetworkError, TimedOut

from bot.http import AiohttpRequest


@contextlib.asynccontextmanager
async def _serving(methods: dict[str, Callable[[web.Request], Awaitable[web.Response]]]) -> AsyncIterator[int]:
    """A bare HTTP server on 127.0.0.1 answering ``/botX/<method>``; yields its port."""
    app = web.Application()
    for name, handler in methods.items():
        app.router.add_post(f"/botX/{name}", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    try:
        yield runner.addresses[0][1]
    finally:
        await runner.cleanup()


async def test_a_refused_connection_is_a_network_error() -> None:
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    request = AiohttpRequest()
    await request.initialize()
    try:
        with pytest.raises(NetworkError):
            await request.do_request(f"http://127.0.0.1:{port}/botX/getMe", "POST")
    finally:
        await request.shutdown()


async def test_a_server_that_does_not_answer_in_time_is_timed_out() -> None:
    release = asyncio.Event()

    async def slow(_: web.Request) -> web.Response:
        await release.wait()
        return web.json_response({"ok": True, "result": True})

    request = AiohttpRequest(read_timeout=0.2)
    async with _serving({"getMe": slow}) as port:
        await request.initialize()
        try:
            with pytest.raises(TimedOut):
                await request.do_request(f"http://127.0.0.1:{port}/botX/getMe", "POST")
            release.set()
            status, body = await request.do_request(f"http://127.0.0.1:{port}/botX/getMe", "POST")
            assert status == 200 and b'"ok": true' in body
        finally:
            await request.shutdown()


async def test_not_initialized_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="not initialized"):
        await AiohttpRequest().do_request("http://127.0.0.1:1/botX/getMe", "POST")


async def test_an_upload_leaves_in_a_few_writes_and_arrives_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    from asyncio import selector_events

    from telegram import Bot, InputMediaPhoto

    received: dict[str, object] = {}

    async def get_me(_: web.Request) -> web.Response:
        return web.json_response({"ok": True, "result": {"id": 1, "is_bot": True, "first_name": "B",
                                                         "username": "b_bot"}})

    async def edit(request: web.Request) -> web.Response:
        form = await request.post()
        received.update({k: (v.file.read() if isinstance(v, web.FileField) else v) for k, v in form.items()})
        return web.json_response({"ok": True, "result": True})

    writes: list[int] = []
    real_write = selector_events._SelectorSocketTransport.write

    def counted(self, data):  # type: ignore[no-untyped-def]
        writes.append(len(data))
        return real_write(self, data)

    async with _serving({"getMe": get_me, "editMessageMedia": edit}) as port:
        bot = Bot("X", base_url=f"http://127.0.0.1:{port}/bot", request=AiohttpRequest(),
                  get_updates_request=AiohttpRequest())
        await bot.initialize()
        try:
            png = b"\x89PNG" + bytes(30_000)
            monkeypatch.setattr(selector_events._SelectorSocketTransport, "write", counted)
            assert await bot.edit_message_media(InputMediaPhoto(png), chat_id=-100, message_id=7) is True
            monkeypatch.undo()
            assert received["chat_id"] == "-100" and received["message_id"] == "7"
            assert png in received.values()
            # headers and body: not four sends for each of the form's parts (each a packet the server wakes for)
            assert 1 <= len(writes) <= 2 and sum(writes) > 30_000
        finally:
            await bot.shutdown()
