"""`python -m bot`: read `.env` and the environment, then poll Telegram until stopped."""

from __future__ import annotations

import logging
import sys

from dotenv import load_dotenv
from telegram.error import InvalidToken

from bot.app import ALLOWED_UPDATES, build_application
from bot.config import Config, ConfigError

TOKEN_REJECTED = ("Telegram отклонил BOT_TOKEN: проверьте токен у @BotFather (/token) и впишите его в .env · "
                  "Telegram rejected BOT_TOKEN: check it with @BotFather (/token) and put it into .env")


class RedactToken(logging.Filter):
    """Replaces the bot token wherever it would appear in a log line."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self.token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.token in message:
            record.msg, record.args = message.replace(self.token, "<token>"), None
        if record.exc_info and not record.exc_text:  # a traceback quotes exception messages too
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        for name in ("exc_text", "stack_info"):
            text = getattr(record, name)
            if text and self.token in text:
                setattr(record, name, text.replace(self.token, "<token>"))
        return True


def setup_logging(config: Config) -> None:
    logging.basicConfig(level=config.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactToken(config.token))
    # httpx logs every request URL, and Bot API URLs contain the token
    logging.getLogger("httpx").setLevel(logging.WARNING)
    # every move re-arms a turn timer: APScheduler's "Added job" lines are noise unless debugging
    if config.log_level != "DEBUG":
        logging.getLogger("apscheduler").setLevel(logging.WARNING)


def main() -> int:
    load_dotenv()
    try:
        config = Config.from_env()
    except ConfigError as exc:
        print(exc, file=sys.stderr)
        return 2
    setup_logging(config)
    app = build_application(config)
    try:
        app.run_polling(allowed_updates=list(ALLOWED_UPDATES), drop_pending_updates=False)
    except InvalidToken:  # PTB's own message quotes the token: say it in our words
        print(TOKEN_REJECTED, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
