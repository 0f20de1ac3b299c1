"""A throwaway PostgreSQL server for the tests: a new cluster in a temporary folder, on a free port.

`.ci/run` starts one for the whole run (``python -m tests.postgres_server start DIR`` prints its URL,
``stop DIR`` ends it and deletes the folder); the tests read it from ``SOSEDI_POSTGRES_URL``. Without
that variable, a test session starts its own where Debian's (or any) PostgreSQL server programs are
installed. Run as root (as CI is), the server runs as the ``postgres`` user, since PostgreSQL refuses
to run as root. Durability is switched off (``fsync=off``): the data is thrown away anyway, and the
crash tests kill the bot, not the server.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

URL_VARIABLE = "SOSEDI_POSTGRES_URL"  # a running server the tests may use (each test its own database)
REQUIRE_VARIABLE = "SOSEDI_REQUIRE_POSTGRES"  # set by CI: no PostgreSQL is a failure, not a skip
SETTINGS = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300 "
            "-c listen_addresses=127.0.0.1")


def server_programs() -> Path | None:
    """The folder of initdb and pg_ctl: on PATH, else Debian's newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    folders = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(Path(p).parent.name or 0))
    for folder in reversed(folders):
        if (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Cluster:
    """One server's data folder, port and programs."""

    folder: Path
    port: int
    programs: Path
    settings: str = SETTINGS  # the server's -c options (the benchmark starts one with fsync on)

    @property
    def url(self) -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        command = [str(self.programs / args[0]), *args[1:]]
        if os.geteuid() == 0:  # PostgreSQL will not run as root
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def start(self) -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-l", str(self.folder / "server.log"), "-w",
                  "-o", f"-p {self.port} -k {self.folder} {self.settings}", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.folder / "data"), "-m", mode, "-w", "stop")

    def restart(self) -> None:
        """Stop (dropping every connection) and start again on the same port and data."""
        self.stop()
        self.start()


def create(parent: str | None = None, settings: str = SETTINGS) -> Cluster:
    """initdb a new cluster in a new folder and start it with ``settings`` (-c options; by default the
    tests' own, durability off)."""
    programs = server_programs()
    if programs is None:
        raise FileNotFoundError("PostgreSQL's server programs (initdb, pg_ctl) are not installed")
    folder = Path(tempfile.mkdtemp(prefix="sosedi-pg-", dir=parent))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    cluster = Cluster(folder, free_port(), programs, settings)
    cluster._run("initdb", "-D", str(folder / "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8",
                 "--locale=C", "--no-sync")
    cluster.start()
    return cluster


def destroy(cluster: Cluster) -> None:
    with contextlib.suppress(subprocess.CalledProcessError):  # already down
        cluster.stop("immediate")
    shutil.rmtree(cluster.folder, ignore_errors=True)


def main(argv: list[str]) -> int:
    """``start PARENT``: a new cluster under PARENT, its URL and folder on stdout; ``stop FOLDER PORT``."""
    if len(argv) == 2 and argv[0] == "start":
        cluster = create(argv[1])
        print(cluster.url, cluster.folder, cluster.port, cluster.programs)
        return 0
    if len(argv) == 4 and argv[0] == "stop":
        destroy(Cluster(Path(argv[1]), int(argv[2]), Path(argv[3])))
        return 0
    print("usage: python -m tests.postgres_server start PARENT | stop FOLDER PORT PROGRAMS", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
