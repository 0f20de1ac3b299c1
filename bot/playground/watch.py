"""Watch a test run in the playground page: ``PLAYGROUND_WATCH=<port>``, read-only.

The e2e harness opens :func:`watching` around every test world, so
``PLAYGROUND_WATCH=8080 pytest tests/test_e2e_ludo.py -k capture`` shows the game at
http://127.0.0.1:8080/ while it runs. ``PLAYGROUND_WATCH_HOLD=<seconds>`` keeps the page
up that long after each test, passed or failed, to look at the end.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager

from bot.fake_telegram import FakeTelegram
from bot.playground.server import serve_view


class WatchSettingError(ValueError):
    """PLAYGROUND_WATCH or PLAYGROUND_WATCH_HOLD is not a number."""


def watch_settings(env: Mapping[str, str]) -> tuple[int, float] | None:
    """(port, hold seconds) from the environment, or None when nobody watches."""
    port_text = env.get("PLAYGROUND_WATCH", "").strip()
    if not port_text:
        return None
    try:
        port, hold = int(port_text), float(env.get("PLAYGROUND_WATCH_HOLD", "0").strip() or 0)
    except ValueError:
        raise WatchSettingError("PLAYGROUND_WATCH must be a port number and PLAYGROUND_WATCH_HOLD seconds") from None
    if not 0 <= port <= 65535 or hold < 0:
        raise WatchSettingError("PLAYGROUND_WATCH must be a port 0–65535 and PLAYGROUND_WATCH_HOLD ≥ 0")
    return port, hold


def check_watch_port(env: Mapping[str, str]) -> None:
    """Before any test runs: a watch port that cannot be served is one clear WatchSettingError, not
    an OSError traceback in every test."""
    settings = watch_settings(env)
    if settings is None or settings[0] == 0:  # nobody watches, or any free port will do
        return
    port = settings[0]
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as aiohttp binds the page's port
        try:
            probe.bind(("127.0.0.1", port))
        except OSError as exc:
            raise WatchSettingError(f"PLAYGROUND_WATCH={port}: port {port} on 127.0.0.1 cannot be served "
                                    f"({exc.strerror}); pick another port, or 0 for any free one") from None


async def hold_page(seconds: float) -> None:
    """Keep the page up while a person looks at it; nothing to wait for but them."""
    await asyncio.sleep(seconds)


@asynccontextmanager
async def watching(tg: FakeTelegram, chat_id: int, env: Mapping[str, str] | None = None) -> AsyncIterator[str | None]:
    """Serve a read-only page of ``chat_id`` while the block runs, if the environment asks; its URL or None."""
    settings = watch_settings(os.environ if env is None else env)
    if settings is None:
        yield None
        return
    port, hold = settings
    async with serve_view(tg, chat_id, port=port) as url:
        print(f"\nwatching chat {chat_id}: {url}", file=sys.stderr, flush=True)
        try:
            yield url
        finally:  # a failed test's last position too
            if hold:
                await hold_page(hold)
