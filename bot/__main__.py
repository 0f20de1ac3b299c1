"""`python -m bot`: read `.env` (in the current folder) and the environment, then poll Telegram (or serve
a webhook, if WEBHOOK_URL is set) until stopped.

Whatever stops the start — a missing or malformed token, a token Telegram rejects, a database
that cannot be written — is one line on stderr and exit code 2, with no traceback. A Bot API
that cannot be reached is tried again with a growing pause (one log line a try), since a
network that is down at boot usually comes back. SIGTERM or Ctrl-C stop the bot (exit code 0).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sqlite3
import sys
import warnings
from collections.abc import Iterator, Sequence
from contextlib import closing, contextmanager, suppress
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
from dotenv import load_dotenv
from telegram.error import BadRequest, InvalidToken, NetworkError, RetryAfter, TelegramError

from bot.app import BotApp, build_application
from bot.config import SETTINGS, Config, ConfigError, shown_database
from bot.instance import InstanceLock
from bot.logs import PeopleOutOfLogs, RedactToken
from bot.metrics import Metrics, MetricsPortError
from bot.store import StorageError, is_postgres
from bot.webhook import WebhookListenError, start_receiving

log = logging.getLogger("bot")
EXIT_FAILED = 2
EXIT_LOST_LOCK = 3
RETRY_FIRST_S, RETRY_MAX_S = 1.0, 60.0  # pauses between tries to reach the Bot API: 1, 2, 4, … 60, 60 s
TOKEN_REJECTED = ("Telegram отклонил BOT_TOKEN: проверьте токен у @BotFather (/token) и впишите его в .env · "
                  "Telegram rejected BOT_TOKEN: check it with @BotFather (/token) and put it into .env")
DATABASE_FAILED = ("База данных DATABASE_PATH={path} недоступна для записи ({reason}) · "
                   "the database DATABASE_PATH={path} cannot be written ({reason})")
POSTGRES_FAILED = ("База данных DATABASE_URL={url} недоступна ({reason}) · "
                   "the database DATABASE_URL={url} cannot be reached ({reason})")
POSTGRES_CHECK_TIMEOUT_S = 10.0
TELEGRAM_FAILED = "Telegram не дал запуститься ({reason}) · Telegram refused the start ({reason})"
LOST_LOCK = ("Бот потерял блокировку базы ({reason}) и остановился: её держит другой экземпляр или сервер "
             "перезапущен · the bot lost the database's lock ({reason}) and stopped, so that only one instance serves")
METRICS_FAILED = ("Порт метрик METRICS_PORT не открыть ({reason}) · "
                  "the metrics port METRICS_PORT cannot be listened on ({reason})")


class StartupError(Exception):
    """The bot cannot start; the message is the one line the admin reads."""


class LostLockError(StartupError):
    """The active instance lost the database's lock: it stopped serving (exit 3, for its supervisor
    to start it again, as a standby)."""


def redaction(config: Config) -> RedactToken:
    """The filter that keeps the token and the webhook secret out of what the bot writes."""
    return RedactToken(config.token, config.webhook.secret if config.webhook is not None else None)


def setup_logging(config: Config) -> None:
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:  # people first, while PTB's arguments are still objects
        handler.addFilter(PeopleOutOfLogs())
        handler.addFilter(redaction(config))
    # httpx logs every request URL, and Bot API URLs contain the token
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # aiosqlite logs every statement with its parameters at DEBUG: names, messages, whole game states
    logging.getLogger("aiosqlite").setLevel(logging.INFO)
    # every move re-arms a turn timer: APScheduler's "Added job" lines are noise unless debugging
    if config.log_level != "DEBUG":
        logging.getLogger("apscheduler").setLevel(logging.WARNING)


def settings_help() -> str:
    """The variables the bot reads, one a line: name, default, what it is."""
    width = max(len(s.name) for s in SETTINGS)
    lines = [f"  {s.name:<{width}}  {s.about} (default: {s.default})" for s in SETTINGS]
    return "settings, read from the environment or from .env in the current folder:\n" + "\n".join(lines)


def parse_args(argv: Sequence[str] | None) -> None:
    """`--help` lists the settings; the bot itself takes no arguments."""
    parser = argparse.ArgumentParser(
        prog="python -m bot", formatter_class=argparse.RawDescriptionHelpFormatter, epilog=settings_help(),
        description="Runs the Telegram bot: polls the Bot API (or serves a webhook, if WEBHOOK_URL is set) "
                    "until stopped (SIGTERM or Ctrl-C).")
    parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    parse_args(argv)
    load_dotenv(Path.cwd() / ".env")  # where it is run from, as the README says; the environment wins
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return EXIT_FAILED
    setup_logging(config)
    try:
        asyncio.run(serve(config))
    except StartupError as exc:
        print(redaction(config).redact(str(exc)), file=sys.stderr)
        return EXIT_LOST_LOCK if isinstance(exc, LostLockError) else EXIT_FAILED
    return 0


async def serve(config: Config) -> None:
    """Check the database, reach the Bot API, take the instance lock (PostgreSQL: waiting as a standby
    while another instance holds it), then poll (or serve the webhook) until SIGTERM or SIGINT."""
    if is_postgres(config.database):
        await check_postgres(config.database)
    else:
        check_database(config.database_path)
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stopped.set)
    app = build_application(config)
    lock = InstanceLock(config.database) if is_postgres(config.database) else None
    lost: list[str] = []

    def lose(reason: str) -> None:
        lost.append(reason)
        stopped.set()

    try:
        if await connect(app, config, stopped) and (lock is None or await take_lock(app, config, lock, stopped)):
            await start_serving(app, config)
            watching = None if lock is None else asyncio.create_task(lock.watch(lose))
            await stopped.wait()
            if watching is not None:
                watching.cancel()
    finally:
        await shut_down(app)  # presses in flight finish, the store closes …
        if lock is not None:
            await lock.release()  # … and only then may a standby take over
    if lost:
        raise LostLockError(LOST_LOCK.format(reason=lost[0]))


async def take_lock(app: BotApp, config: Config, lock: InstanceLock, stopped: asyncio.Event) -> bool:
    """Become the active instance (True), serving the metrics as a standby meanwhile; False if stopped first."""
    metrics: Metrics | None = app.bot_data.get("metrics")

    async def standby() -> None:
        if metrics is not None and config.metrics_port is not None:
            metrics.set_role("standby")
            with metrics_errors():
                await metrics.serve(None, config.metrics_listen, config.metrics_port)

    waiting: list[asyncio.Task[None]] = []
    taken = await lock.acquire(stopped, on_standby=lambda: waiting.append(asyncio.create_task(standby())))
    for task in waiting:
        await task  # a metrics port that cannot be listened on stops the standby too
    if taken and metrics is not None:
        metrics.set_role("active")
    return taken


async def start_serving(app: BotApp, config: Config) -> None:
    """Start the application: polling, or a webhook if WEBHOOK_URL is set; every failure one line."""
    try:
        with metrics_errors():
            await start_receiving(app, config)
    except WebhookListenError as exc:
        raise StartupError(str(exc)) from None
    except (OSError, sqlite3.Error, StorageError) as exc:
        if is_postgres(config.database):
            raise postgres_failed(config.database, exc) from None
        raise database_failed(config.database_path, exc) from None
    except TelegramError as exc:
        raise StartupError(TELEGRAM_FAILED.format(reason=exc)) from None


@contextmanager
def metrics_errors() -> Iterator[None]:
    try:
        yield
    except MetricsPortError as exc:
        raise StartupError(METRICS_FAILED.format(reason=exc)) from None


def check_database(path: str) -> None:
    """Take the database's write lock once before anything else, so a path that cannot be written is
    said at once, not after a wait for the network (plain sqlite3: aiosqlite's worker thread outlives
    a failed open and complains once the loop is closed)."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
        with closing(sqlite3.connect(path)) as db:
            db.execute("BEGIN IMMEDIATE")
            db.rollback()
    except (OSError, sqlite3.Error) as exc:
        raise database_failed(path, exc) from None


async def check_postgres(url: str) -> None:
    """Connect once before anything else, so a wrong URL, a server that cannot be reached, a database
    that does not exist or a refused password is said at once, in one line."""
    try:
        connection = await asyncpg.connect(url, timeout=POSTGRES_CHECK_TIMEOUT_S)
    except (OSError, TimeoutError, ValueError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        raise postgres_failed(url, exc) from None
    await connection.close()


def postgres_failed(url: str, exc: BaseException) -> StartupError:
    reason = (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__
    if isinstance(exc, TimeoutError):
        reason = f"no answer in {POSTGRES_CHECK_TIMEOUT_S:.0f} s"
    return StartupError(POSTGRES_FAILED.format(url=shown_database(url), reason=reason.replace(url, "…")))


def database_failed(path: str, exc: BaseException) -> StartupError:
    if isinstance(exc, OSError) and exc.strerror:
        reason = f"{exc.strerror}: {exc.filename}" if exc.filename else exc.strerror
    else:
        reason = str(exc) or type(exc).__name__
    return StartupError(DATABASE_FAILED.format(path=path, reason=reason))


async def connect(app: BotApp, config: Config, stopped: asyncio.Event) -> bool:
    """Initialize ``app`` (getMe), trying again while the Bot API cannot be reached; False if stopped meanwhile."""
    pause, attempt = RETRY_FIRST_S, 0
    host = urlsplit(config.base_url).netloc or config.base_url
    while not stopped.is_set():
        attempt += 1
        try:
            await app.initialize()
            return True
        except InvalidToken:  # PTB's own message quotes the token: say it in our words
            raise StartupError(TOKEN_REJECTED) from None
        except BadRequest as exc:  # a NetworkError to PTB, but the server did answer
            raise StartupError(TELEGRAM_FAILED.format(reason=exc)) from None
        except RetryAfter as exc:  # flood control: the pause Telegram asks for
            with warnings.catch_warnings():  # PTB 22 warns that its int form goes away; both are read
                warnings.simplefilter("ignore")
                after = exc.retry_after
            seconds, reason = float(after if isinstance(after, int) else after.total_seconds()), str(exc)
        except NetworkError as exc:
            seconds, reason = pause, str(exc)
            pause = min(pause * 2, RETRY_MAX_S)
        except TelegramError as exc:
            raise StartupError(TELEGRAM_FAILED.format(reason=exc)) from None
        log.warning("Bot API at %s: %s; trying again in %.0f s (try %d)", host, reason, seconds, attempt)
        with suppress(TimeoutError):
            await asyncio.wait_for(stopped.wait(), seconds)
    return False


async def shut_down(app: BotApp) -> None:
    """Undo whatever of the start happened, as PTB's run_polling does, and close the Bot API sessions
    even when getMe failed (else aiohttp warns of unclosed sessions)."""
    if app.updater is not None and app.updater.running:
        await app.updater.stop()
    if app.running:
        await app.stop()
    if app.post_shutdown is not None and "flow" in app.bot_data:
        await app.post_shutdown(app)
    await app.shutdown()
    await app.bot.shutdown()


if __name__ == "__main__":
    sys.exit(main())
