"""Configuration from the environment (and `.env`, loaded by `python -m bot`)."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

GROUP_MAX_RATE, GROUP_RATE_PERIOD = 20, 60  # Telegram's flood limit in a group
OVERALL_MAX_RATE = 0  # off: Telegram limits each chat, not a bot that answers its chats (docs: operators)
USER_COMMANDS_PER_MINUTE = 12  # a person's commands in one chat before the bot stops answering them for a minute
TELEGRAM_BASE_URL = "https://api.telegram.org/bot"
TELEGRAM_FILE_URL = "https://api.telegram.org/file/bot"
MISSING_TOKEN = (
    "BOT_TOKEN не задан: создайте бота у @BotFather (/newbot) и впишите токен в .env · "
    "BOT_TOKEN is not set: create a bot with @BotFather (/newbot) and put its token into .env"
)
# @BotFather's tokens: the bot's id, a colon, 35 URL-safe characters (123456789:AAH…); Telegram's
# own examples show 34 and it never promised a length, so a little either way still passes
TOKEN_SHAPE = re.compile(r"[0-9]{1,20}:[A-Za-z0-9_-]{30,64}")
BAD_TOKEN = (  # never quotes the token: a mistyped one is still mostly the real secret
    "BOT_TOKEN не похож на токен бота (цифры, двоеточие и около 35 букв, цифр, - или _): скопируйте его у "
    "@BotFather (/token) в .env целиком · BOT_TOKEN does not look like a bot token (digits, a colon and about 35 "
    "letters, digits, - or _): copy it from @BotFather (/token) into .env whole"
)
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
WEBHOOK_PORT = 8443
WEBHOOK_MAX_CONNECTIONS = 40  # Telegram's default for setWebhook, which allows 1 to 100
WEBHOOK_SECRET_SHAPE = re.compile(r"[A-Za-z0-9_-]{1,256}")  # Telegram's rule for setWebhook's secret_token
LOOPBACK_HOSTS = ("127.0.0.1", "localhost")  # the only hosts a plain http:// webhook may name (tests)
BAD_WEBHOOK_URL = (
    "WEBHOOK_URL должен быть адресом https://… (http:// — только для 127.0.0.1 и localhost), а не {url!r} · "
    "WEBHOOK_URL must be an https://… address (http:// only for 127.0.0.1 and localhost), not {url!r}"
)
MISSING_WEBHOOK_SECRET = (
    "WEBHOOK_SECRET не задан, а с WEBHOOK_URL он обязателен: 1–256 знаков A-Z, a-z, 0-9, _ и - · "
    "WEBHOOK_SECRET is not set, and WEBHOOK_URL needs one: 1–256 characters A-Z, a-z, 0-9, _ and -"
)
BAD_WEBHOOK_SECRET = (  # never quotes it: it is a secret
    "WEBHOOK_SECRET должен состоять из 1–256 знаков A-Z, a-z, 0-9, _ и - · "
    "WEBHOOK_SECRET must be 1–256 characters A-Z, a-z, 0-9, _ and -"
)


@dataclass(frozen=True, slots=True)
class Setting:
    """One variable the bot reads from its environment, as `python -m bot --help` lists it."""

    name: str
    default: str
    about: str


SETTINGS = (
    Setting("BOT_TOKEN", "(required)", "the bot's token from @BotFather (/newbot), 123456789:AAH…"),
    Setting("BOT_API_BASE_URL", TELEGRAM_BASE_URL, "Bot API endpoint (a local Bot API server or a test server)"),
    Setting("BOT_API_FILE_URL", TELEGRAM_FILE_URL, "Bot API file endpoint"),
    Setting("DATABASE_PATH", "data/bot.sqlite3", "SQLite file; its folder is created on first run"),
    Setting("DATABASE_URL", "(unset: SQLite at DATABASE_PATH)",
            "postgresql://user:password@host:port/database for PostgreSQL (or sqlite:///path for SQLite)"),
    Setting("DEFAULT_LOCALE", "ru", "ru or en: the language of chats that have not chosen one with /lang"),
    Setting("LOG_LEVEL", "INFO", "DEBUG, INFO, WARNING or ERROR"),
    Setting("GROUP_MAX_RATE", str(GROUP_MAX_RATE), "messages the bot sends to one group per GROUP_RATE_PERIOD"),
    Setting("GROUP_RATE_PERIOD", str(GROUP_RATE_PERIOD), "seconds of that window (Telegram's flood limit)"),
    Setting("OVERALL_MAX_RATE", "0 (off)", "sends+edits per second over all chats, if you want a cap of your own"),
    Setting("USER_COMMANDS_PER_MINUTE", str(USER_COMMANDS_PER_MINUTE),
            "commands one person may send in a chat per minute; past it they are ignored for a minute"),
    Setting("DRAW_PROCESSES", "one per core", "processes that draw the boards; 0 draws in the bot's own process"),
    Setting("GAME_IDLE_HOURS", "24", "a running game no person acted in for this many hours is stopped"),
    Setting("METRICS_PORT", "off", "port serving Prometheus metrics at /metrics and a health check at /healthz"),
    Setting("METRICS_LISTEN", "127.0.0.1", "address the metrics port listens on (0.0.0.0: every interface)"),
    Setting("WEBHOOK_URL", "unset: long polling",
            "the public https:// address Telegram sends updates to, served through a TLS proxy"),
    Setting("WEBHOOK_SECRET", "required with WEBHOOK_URL",
            "the secret Telegram sends with every update: 1-256 of A-Z a-z 0-9 _ -"),
    Setting("WEBHOOK_LISTEN", "127.0.0.1", "address the webhook server listens on (the proxy forwards to it)"),
    Setting("WEBHOOK_PORT", str(WEBHOOK_PORT), "port the webhook server listens on; it serves WEBHOOK_URL's path"),
    Setting("WEBHOOK_MAX_CONNECTIONS", str(WEBHOOK_MAX_CONNECTIONS),
            "connections Telegram may open to the webhook (1-100), and requests it serves at once"),
)


class ConfigError(Exception):
    """A setting is missing or invalid; the message is one line for the admin."""


@dataclass(frozen=True, slots=True)
class Webhook:
    """Webhook mode: Telegram POSTs updates to ``url`` (a TLS proxy forwards them to listen:port)."""

    url: str
    secret: str
    listen: str = "127.0.0.1"
    port: int = WEBHOOK_PORT
    max_connections: int = WEBHOOK_MAX_CONNECTIONS  # given to setWebhook; more requests at once get 503

    def __repr__(self) -> str:  # never print the secret
        return f"Webhook(url={self.url!r}, listen={self.listen!r}, port={self.port})"

    @property
    def path(self) -> str:
        """The path the bot serves: the URL's own, as a proxy passes it on unchanged."""
        return urlsplit(self.url).path or "/"


@dataclass(frozen=True, slots=True)
class Config:
    """Everything the bot reads from its environment."""

    token: str
    base_url: str = TELEGRAM_BASE_URL
    base_file_url: str = TELEGRAM_FILE_URL
    database_path: str = "data/bot.sqlite3"
    database_url: str = ""  # postgresql://…: PostgreSQL instead of the SQLite file at database_path
    default_locale: str = "ru"
    log_level: str = "INFO"
    # Telegram allows about 20 messages a minute per group; tests against the fake
    # server raise these to play fast.
    group_max_rate: int = GROUP_MAX_RATE
    group_time_period: int = GROUP_RATE_PERIOD
    overall_max_rate: int = OVERALL_MAX_RATE  # 0: no overall cap
    private_max_rate: int = 1  # sends+edits a second in a private chat (Telegram: «about one»)
    rate_limit_retries: int = 3
    user_commands_per_minute: int = USER_COMMANDS_PER_MINUTE
    # processes that draw the boards (bot/drawing.py); 0 draws on threads of the bot's own
    # process, as the in-process tests do. From the environment: one per core by default.
    draw_processes: int = 0
    poll_timeout: int = 30
    game_idle_hours: int = 24  # a running game in which no person acted this long is stopped as abandoned
    metrics_port: int | None = None  # /metrics and /healthz (bot/metrics.py); None: not served, not collected
    metrics_listen: str = "127.0.0.1"
    webhook: Webhook | None = None  # None: long polling (the default)

    def __repr__(self) -> str:  # never print the token (nor the database's password)
        return f"Config(base_url={self.base_url!r}, database={shown_database(self.database)!r}, ...)"

    @property
    def database(self) -> str:
        """What the store opens: the PostgreSQL URL if one is set, else the SQLite file's path."""
        return self.database_url or self.database_path

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Config:
        env = os.environ if env is None else env
        token = env.get("BOT_TOKEN", "").strip()
        if not token:
            raise ConfigError(MISSING_TOKEN)
        if not TOKEN_SHAPE.fullmatch(token):  # caught here, before a connection is made to be refused
            raise ConfigError(BAD_TOKEN)
        locale = env.get("DEFAULT_LOCALE", "ru").strip() or "ru"
        if locale not in ("ru", "en"):
            raise ConfigError(f"DEFAULT_LOCALE must be ru or en, not {locale!r}")
        log_level = (env.get("LOG_LEVEL", "").strip() or "INFO").upper()
        if log_level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {log_level!r}")
        return cls(
            token=token,
            group_max_rate=_positive(env, "GROUP_MAX_RATE", GROUP_MAX_RATE),
            group_time_period=_positive(env, "GROUP_RATE_PERIOD", GROUP_RATE_PERIOD),
            overall_max_rate=_count(env, "OVERALL_MAX_RATE", OVERALL_MAX_RATE),
            user_commands_per_minute=_positive(env, "USER_COMMANDS_PER_MINUTE", USER_COMMANDS_PER_MINUTE),
            draw_processes=_count(env, "DRAW_PROCESSES", os.cpu_count() or 1),
            base_url=env.get("BOT_API_BASE_URL", "").strip() or TELEGRAM_BASE_URL,
            base_file_url=env.get("BOT_API_FILE_URL", "").strip() or TELEGRAM_FILE_URL,
            database_path=_sqlite_path(env),
            database_url=_postgres_url(env),
            default_locale=locale,
            log_level=log_level,
            game_idle_hours=_positive(env, "GAME_IDLE_HOURS", 24),
            metrics_port=_port(env, "METRICS_PORT"),
            metrics_listen=env.get("METRICS_LISTEN", "").strip() or "127.0.0.1",
            webhook=webhook_from_env(env),
        )


SQLITE_URL = "sqlite:///"
POSTGRES_URLS = ("postgresql://", "postgres://")
BAD_DATABASE_URL = ("DATABASE_URL должен начинаться с postgresql:// или sqlite:/// · "
                    "DATABASE_URL must begin with postgresql:// or sqlite:///, not {shown!r}")


def database_from_env(env: Mapping[str, str]) -> str:
    """The database the bot would open (Config.database) read from the environment alone: for the
    maintenance commands, which need no token."""
    return _postgres_url(env) or _sqlite_path(env)


def _sqlite_path(env: Mapping[str, str]) -> str:
    url = env.get("DATABASE_URL", "").strip()
    if url.startswith(SQLITE_URL):
        return url.removeprefix(SQLITE_URL) or "data/bot.sqlite3"
    return env.get("DATABASE_PATH", "").strip() or "data/bot.sqlite3"


def _postgres_url(env: Mapping[str, str]) -> str:
    url = env.get("DATABASE_URL", "").strip()
    if not url or url.startswith(SQLITE_URL):
        return ""
    if not url.startswith(POSTGRES_URLS):
        raise ConfigError(BAD_DATABASE_URL.format(shown=shown_database(url)))
    return url


def shown_database(database: str) -> str:
    """``database`` as it may be printed: a URL's password replaced by ***."""
    parts = urlsplit(database)
    if parts.password is None:
        return database
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


def _port(env: Mapping[str, str], name: str, default: int | None = None) -> int | None:
    """A TCP port (1–65535) from the environment, or ``default`` when it is unset."""
    if not env.get(name, "").strip():
        return default
    port = _whole(env, name, 0, least=1, kind="a port number (1 to 65535)")
    if port > 65535:
        raise ConfigError(f"{name} must be a port number (1 to 65535), not {env[name].strip()!r}")
    return port


MAX_CONNECTIONS_KIND = "a whole number from 1 to 100 (setWebhook's max_connections)"


def webhook_from_env(env: Mapping[str, str]) -> Webhook | None:
    """The webhook settings, or None for polling (WEBHOOK_URL unset); all five are read either way."""
    url = env.get("WEBHOOK_URL", "").strip()
    secret = env.get("WEBHOOK_SECRET", "").strip()
    listen = env.get("WEBHOOK_LISTEN", "").strip() or "127.0.0.1"
    port = _port(env, "WEBHOOK_PORT", WEBHOOK_PORT)
    assert port is not None
    connections = _whole(env, "WEBHOOK_MAX_CONNECTIONS", WEBHOOK_MAX_CONNECTIONS, least=1, kind=MAX_CONNECTIONS_KIND)
    if connections > 100:
        raise ConfigError(f"WEBHOOK_MAX_CONNECTIONS must be {MAX_CONNECTIONS_KIND}, "
                          f"not {env['WEBHOOK_MAX_CONNECTIONS'].strip()!r}")
    if not url:
        return None
    parts = urlsplit(url)
    secure = parts.scheme == "https" or (parts.scheme == "http" and parts.hostname in LOOPBACK_HOSTS)
    if not secure or not parts.hostname:
        raise ConfigError(BAD_WEBHOOK_URL.format(url=url))
    if not secret:
        raise ConfigError(MISSING_WEBHOOK_SECRET)
    if not WEBHOOK_SECRET_SHAPE.fullmatch(secret):
        raise ConfigError(BAD_WEBHOOK_SECRET)
    return Webhook(url=url, secret=secret, listen=listen, port=port, max_connections=connections)


def _positive(env: Mapping[str, str], name: str, default: int) -> int:
    """A positive whole number from the environment, or the default when it is unset."""
    return _whole(env, name, default, least=1, kind="a positive whole number")


def _count(env: Mapping[str, str], name: str, default: int) -> int:
    """A whole number ≥ 0 from the environment, or the default when it is unset."""
    return _whole(env, name, default, least=0, kind="a whole number (0 or more)")


def _whole(env: Mapping[str, str], name: str, default: int, least: int, kind: str) -> int:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ConfigError(f"{name} must be {kind}, not {text!r}") from None
    if value < least:
        raise ConfigError(f"{name} must be {kind}, not {text!r}")
    return value
