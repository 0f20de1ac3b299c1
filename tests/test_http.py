"""The aiohttp transport maps failures to PTB's errors (the e2e tests use it for everything else)."""

from __future__ import annotations

import asyncio
import socket

import pytest
from aiohttp import web
from telegram.error import NetworkError, TimedOut

from bot.http import AiohttpRequest


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

    app = web.Application()
    app.router.add_post("/botX/getMe", slow)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    request = AiohttpRequest(read_timeout=0.2)
    await request.initialize()
    try:
        with pytest.raises(TimedOut):
            await request.do_request(f"http://127.0.0.1:{port}/botX/getMe", "POST")
        release.set()
        status, body = await request.do_request(f"http://127.0.0.1:{port}/botX/getMe", "POST")
        assert status == 200 and b'"ok": true' in body
    finally:
        await request.shutdown()
        await runner.cleanup()


async def test_not_initialized_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="not initialized"):
        await AiohttpRequest().do_request("http://127.0.0.1:1/botX/getMe", "POST")
