"""The two databases the bot process is benchmarked on: an SQLite file, or a new database on a
PostgreSQL server (SOSEDI_POSTGRES_URL if set, else a throwaway cluster started for the run).

Durability, stated so that the two columns compare like with like: the bot's SQLite runs in WAL mode
with synchronous=NORMAL, so a commit is not fsynced (a power cut may lose the last commits, never
corrupt the file). The bench's own PostgreSQL cluster runs likewise: fsync=on (a crash of the machine
leaves a consistent database) but synchronous_commit=off (a commit does not wait for its WAL to reach
the disk). A server given by SOSEDI_POSTGRES_URL has what it has; the figures record its settings.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg

from tests import postgres_server
from tests.backends import fresh_database

BACKENDS = ("sqlite", "postgres")
# as tests/postgres_server.py's, but with fsync on: a crash-safe server whose commits do not wait for the disk
BENCH_SETTINGS = ("-c fsync=on -c synchronous_commit=off -c full_page_writes=on -c max_connections=300 "
                  "-c listen_addresses=127.0.0.1")
SQLITE_DURABILITY = {"journal_mode": "wal", "synchronous": "normal (no fsync per commit)"}
SHOWN = ("fsync", "synchronous_commit", "full_page_writes", "server_version")


@contextmanager
def postgres_admin_url() -> Iterator[tuple[str, str]]:
    """The admin URL of a PostgreSQL server for this run and where it came from; a cluster started
    here is destroyed on the way out."""
    given = os.environ.get(postgres_server.URL_VARIABLE, "").strip()
    if given:
        yield given, postgres_server.URL_VARIABLE
        return
    cluster = postgres_server.create(settings=BENCH_SETTINGS)
    try:
        yield cluster.url, f"a throwaway cluster ({cluster.programs.parent.name}, {BENCH_SETTINGS})"
    finally:
        postgres_server.destroy(cluster)


def fresh_postgres(admin_url: str, label: str) -> AbstractAsyncContextManager[str]:
    """A new empty database (one per scenario) on the server of ``admin_url``; dropped afterwards."""
    return fresh_database(admin_url, f"bench_{label}")


async def postgres_durability(admin_url: str) -> dict[str, str]:
    """The server's durability settings as it reports them (SHOW), and its version."""
    admin = await asyncpg.connect(admin_url)
    try:
        return {name: str(await admin.fetchval(f"SHOW {name}")) for name in SHOWN}
    finally:
        await admin.close()


def server_pid(admin_url: str) -> int | None:
    """The postmaster's pid when the server runs on this machine and its data folder is readable."""
    for pid_file in Path("/tmp").glob("sosedi-pg-*/data/postmaster.pid"):
        try:
            lines = pid_file.read_text().splitlines()
        except OSError:
            continue
        if len(lines) > 3 and lines[3].strip() == str(urlsplit(admin_url).port):
            return int(lines[0])
    return None
