"""`python -m bot.playground`: play every game in a browser, with no Telegram and no token."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

from bot.playground.world import open_playground


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bot.playground",
        description="The real bot against a local fake Telegram, played in the browser as Аня, Борис, Вера or Глеб.")
    parser.add_argument("--port", type=int, default=8080, help="port on 127.0.0.1 for the page (default 8080, 0: any)")
    parser.add_argument("--db", type=Path, default=None,
                        help="keep games and stats in this SQLite file (default: a temporary one, gone at exit)")
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0–65535, not {args.port}")
    return args


async def serve(port: int, database: Path | None) -> None:
    """Run the playground until Ctrl-C or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    async with open_playground(port, database) as playground:
        print(f"Playground: {playground.url}  (Ctrl-C to stop)", flush=True)
        await stop.wait()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        asyncio.run(serve(args.port, args.db))
    except OSError as exc:  # the port is taken, or the database folder cannot be made
        print(f"Playground could not start: {exc}. Try another --port.", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
