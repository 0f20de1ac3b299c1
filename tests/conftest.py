"""Fixtures shared by test modules.

``world`` and ``tg`` are built from the test's marks: a module says ``pytestmark = pytest.mark.world(first_seed=…,
count=…)`` (:func:`tests.bot_harness.group_world`'s arguments) or ``pytest.mark.tg(token=…)`` (FakeTelegram's),
and may override ``world_options`` / ``tg_options`` (say, to parametrize them) or ``world`` itself (to set it up
further, asking for the shared one by the same name)."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.fake_telegram import FakeTelegram, StoredMessage
from bot.playground.watch import WatchSettingError, check_watch_port
from tests import backends
from tests.bot_harness import World, group_world
from tests.sosedi_steps import sosedi_started


def pytest_configure(config: pytest.Config) -> None:
    """The shared fixtures' marks; PLAYGROUND_WATCH that cannot be served stops the run at once, in one line."""
    config.addinivalue_line("markers", "world(**kwargs): group_world's arguments for the `world` fixture")
    config.addinivalue_line("markers", "tg(**kwargs): FakeTelegram's arguments for the `tg` fixture")
    try:
        check_watch_port(os.environ)
    except WatchSettingError as exc:
        pytest.exit(str(exc), returncode=2)


def mark_arguments(request: pytest.FixtureRequest, name: str) -> dict[str, Any]:
    """The keyword arguments of the test's closest ``name`` mark (its own, its class's or its module's)."""
    mark = request.node.get_closest_marker(name)
    if mark is None:
        pytest.fail(f"the `{name}` fixture needs pytest.mark.{name}(…) on the test or its module", pytrace=False)
    return dict(mark.kwargs)


@pytest.fixture
def world_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """group_world's arguments but the folder: the seed, the player count and the options."""
    return mark_arguments(request, "world")


@pytest.fixture
async def world(tmp_path: Path, world_options: dict[str, Any]) -> AsyncIterator[World]:
    """The bot in a group of the mark's players, its games seeded from the mark's first seed."""
    async with group_world(tmp_path, **world_options) as world:
        yield world


@pytest.fixture
def tg_options(request: pytest.FixtureRequest) -> dict[str, Any]:
    """FakeTelegram's arguments: the token, and the bot's username if the module names one."""
    return mark_arguments(request, "tg")


@pytest.fixture
async def tg(tg_options: dict[str, Any]) -> AsyncIterator[FakeTelegram]:
    """The fake Bot API server, running."""
    async with FakeTelegram(**tg_options) as server:
        yield server


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
