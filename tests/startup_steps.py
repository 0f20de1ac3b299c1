"""The bot's entry point run in-process with a test environment."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

from bot.config import SETTINGS
from tests.process_steps import ROOT

TOKEN = "8000000002:AAH-startup-test-token-000000000000"


def bot_env(tmp_path: Path, **settings: str) -> dict[str, str]:
    """The environment of a fresh shell (none of the bot's settings) plus ``settings``."""
    names = {s.name for s in SETTINGS}
    env = {k: v for k, v in os.environ.items() if k not in names}
    return {**env, "PYTHONPATH": str(ROOT), "DATABASE_PATH": str(tmp_path / "bot.sqlite3"), **settings}


async def run_bot(tmp_path: Path, *args: str, timeout: float = 60, **settings: str) -> tuple[int, list[str]]:
    """``python -m bot`` run in ``tmp_path`` to its end: its exit code and every line it printed."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=tmp_path, env=bot_env(tmp_path, **settings),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
    out, _ = await asyncio.wait_for(process.communicate(), timeout)
    assert process.returncode is not None
    return process.returncode, out.decode().splitlines()


def dead_port() -> int:
    with socket.socket() as sock:  # bound and closed again: nothing listens there
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])
