"""Fixtures shared by test modules."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from bot.fake_telegram import StoredMessage
from bot.playground.watch import WatchSettingError, check_watch_port
from tests import backends
from tests.bot_harness import World, group_world
from tests.test_e2e_sosedi import open_lobby


def pytest_configure(config: pytest.Config) -> None:
    """PLAYGROUND_WATCH that cannot be served stops the run at once, in one line."""
    try:
        check_watch_port(os.environ)
    except WatchSettingError as exc:
        pytest.exit(str(exc), returncode=2)


@asynccontextmanager
async def sosedi_started(tmp_path: Path) -> AsyncIterator[tuple[World, StoredMessage]]:
    """A «соседи» game of Аня, Борис and Вера, just started (seed 11), and its table."""
    async with group_world(tmp_path, first_seed=11) as world:
        _, runner, users = world
        lobby = await open_lobby(runner, users)
        await runner.press(users["anya"], lobby, "Начать")
        yield world, runner.table()


@pytest.fixture
async def started_sosedi(tmp_path: Path,
                         caplog: pytest.LogCaptureFixture) -> AsyncIterator[tuple[World, StoredMessage]]:
    """A «соседи» game of Аня, Борис and Вера, just started; warnings and worse are captured."""
    caplog.set_level(logging.WARNING)
    async with sosedi_started(tmp_path) as started:
        yield started


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server's admin URL for the session (skipped, or in CI failed, without one)."""
    yield from backends.server_url()


@pytest.fixture(params=backends.BACKENDS)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """What DATABASE_PATH or DATABASE_URL would name, once per backend: an SQLite file in the test's
    folder, or a new PostgreSQL database of the test's own."""
    if request.param == "sqlite":
        yield str(tmp_path / "data" / "bot.sqlite3")
        return
    async with backends.fresh_database(request.getfixturevalue("postgres_server")) as url:
        yield url
