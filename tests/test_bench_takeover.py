"""bench/takeover.py tells a bot process's role from the line it writes on stderr («instance is
active» / «instance is standby»), and times a takeover from presses made after the kill only.
Real processes here (a few lines of Python each), not the bot: the whole scenario needs the bot's
failover and runs as `python -m bench.takeover`."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

from bench.takeover import Instance, Presses

SAYS_STANDBY_THEN_ACTIVE = """
import sys, time
print("08:00:00 INFO bot.instance: instance is standby: another instance holds the lock", file=sys.stderr, flush=True)
sys.stdin.readline()
print("08:00:01 INFO bot.instance: instance is active: holding the lock of the database", file=sys.stderr, flush=True)
sys.stdin.readline()
"""


async def _spawn(code: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(sys.executable, "-c", code, stdin=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)


async def test_the_role_follows_the_last_line_the_process_wrote(tmp_path: Path) -> None:
    process = await _spawn(SAYS_STANDBY_THEN_ACTIVE)
    instance = Instance(process, tmp_path / "bot.log", time.monotonic)
    reading = asyncio.create_task(instance.read())
    assert await instance.wait_role("standby", 10)
    assert not await instance.wait_role("active", 0.2)  # it has not said so yet
    assert process.stdin is not None
    process.stdin.write(b"\n")
    assert await instance.wait_role("active", 10) and instance.role == "active"
    process.stdin.write(b"\n")
    await process.wait()
    await reading
    assert "instance is standby" in (tmp_path / "bot.log").read_text()  # stderr kept for the tracebacks count


async def test_a_process_that_ends_without_a_role_is_no_instance(tmp_path: Path) -> None:
    process = await _spawn("import sys; print('no failover here', file=sys.stderr)")
    instance = Instance(process, tmp_path / "bot.log", time.monotonic)
    reading = asyncio.create_task(instance.read())
    await process.wait()
    started = time.monotonic()
    assert not await instance.wait_role("active", 30)
    assert time.monotonic() - started < 5 and instance.role is None  # at once, not after the timeout
    await reading


def test_only_presses_made_after_the_kill_count_for_the_takeover() -> None:
    presses = Presses(done=[(9.0, 12.5), (10.2, 13.0), (10.5, 12.8)])
    assert presses.first_after(10.0) == 12.8  # the press at 9.0 may have gone to the killed process
    assert presses.first_after(11.0) is None
