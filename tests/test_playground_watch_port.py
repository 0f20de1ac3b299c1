"""The playground's watch mode on a port it cannot serve: the test run stops
before any test, in one line that names the port, with a non-zero exit; no traceback per test."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.playground.watch import WatchSettingError, check_watch_port

ROOT = Path(__file__).resolve().parent.parent


def run_watched(port: str) -> subprocess.CompletedProcess[str]:
    """A test file that plays through the harness, run watched on ``port``."""
    env = {**os.environ, "PLAYGROUND_WATCH": port, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_new_game.py"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def test_a_busy_watch_port_stops_the_run_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = run_watched(str(port))
    lines = (done.stdout + done.stderr).splitlines()
    assert done.returncode != 0
    assert lines == [f"Exit: PLAYGROUND_WATCH={port}: port {port} on 127.0.0.1 cannot be served (Address already in "
                     f"use); pick another port, or 0 for any free one"], lines


def test_a_watch_setting_that_is_no_port_stops_the_run_in_one_line() -> None:
    done = run_watched("eighty")
    assert done.returncode != 0
    assert (done.stdout + done.stderr).splitlines() == [
        "Exit: PLAYGROUND_WATCH must be a port number and PLAYGROUND_WATCH_HOLD seconds"]


def test_a_free_port_or_none_passes_the_check() -> None:
    check_watch_port({})
    check_watch_port({"PLAYGROUND_WATCH": "0"})
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        free = probe.getsockname()[1]
    check_watch_port({"PLAYGROUND_WATCH": str(free)})
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(WatchSettingError, match=f"PLAYGROUND_WATCH={taken.getsockname()[1]}: "):
            check_watch_port({"PLAYGROUND_WATCH": str(taken.getsockname()[1])})
