"""Webhook settings: WEBHOOK_URL switches from polling to a webhook; each
setting that cannot work is one line, and the secret is never quoted."""

from __future__ import annotations

import pytest

from bot.config import BAD_WEBHOOK_SECRET, BAD_WEBHOOK_URL, MISSING_WEBHOOK_SECRET, Config, ConfigError, Webhook
from tests.config_values import GOOD_TOKEN

SECRET = "Abc_123-xyz"


def webhook_of(**env: str) -> Webhook | None:
    return Config.from_env({"BOT_TOKEN": GOOD_TOKEN, **env}).webhook


def refused(**env: str) -> str:
    with pytest.raises(ConfigError) as info:
        webhook_of(**env)
    text = str(info.value)
    assert "\n" not in text
    return text


def test_polling_is_the_default() -> None:
    assert webhook_of() is None
    assert webhook_of(WEBHOOK_SECRET=SECRET, WEBHOOK_PORT="9000") is None  # no URL: still polling


def test_a_webhook_and_its_defaults() -> None:
    hook = webhook_of(WEBHOOK_URL=" https://bot.example.com/tg/hook ", WEBHOOK_SECRET=SECRET)
    assert hook == Webhook(url="https://bot.example.com/tg/hook", secret=SECRET, listen="127.0.0.1", port=8443)
    assert hook.path == "/tg/hook" and SECRET not in repr(hook) and SECRET not in repr(Config(GOOD_TOKEN, webhook=hook))
    hook = webhook_of(WEBHOOK_URL="https://bot.example.com", WEBHOOK_SECRET="x" * 256, WEBHOOK_LISTEN="0.0.0.0",
                      WEBHOOK_PORT="8080")
    assert hook is not None and (hook.path, hook.listen, hook.port) == ("/", "0.0.0.0", 8080)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8080/hook", "http://localhost/hook"])
def test_plain_http_only_to_this_machine(url: str) -> None:
    hook = webhook_of(WEBHOOK_URL=url, WEBHOOK_SECRET=SECRET)
    assert hook is not None and hook.url == url


@pytest.mark.parametrize("url", ["http://bot.example.com/hook", "bot.example.com/hook", "ftp://x/y", "https://",
                                 "https:///hook", "http://127.0.0.1.example.com/"])
def test_a_url_telegram_would_refuse_is_one_line(url: str) -> None:
    assert refused(WEBHOOK_URL=url, WEBHOOK_SECRET=SECRET) == BAD_WEBHOOK_URL.format(url=url)


def test_a_webhook_needs_a_secret() -> None:
    assert refused(WEBHOOK_URL="https://bot.example.com/hook") == MISSING_WEBHOOK_SECRET


@pytest.mark.parametrize("secret", ["has space", "tok:en", "é", "x" * 257, "a/b"])
def test_a_secret_telegram_would_refuse_is_one_line_without_it(secret: str) -> None:
    text = refused(WEBHOOK_URL="https://bot.example.com/hook", WEBHOOK_SECRET=secret)
    assert text == BAD_WEBHOOK_SECRET and secret not in text


@pytest.mark.parametrize("port", ["0", "65536", "http", "-1", "8443.0"])
def test_a_bad_port_is_one_line(port: str) -> None:
    assert refused(WEBHOOK_URL="https://bot.example.com/hook", WEBHOOK_SECRET=SECRET, WEBHOOK_PORT=port) == (
        f"WEBHOOK_PORT must be a port number (1 to 65535), not {port!r}")


def test_webhook_max_connections() -> None:
    assert webhook_of(WEBHOOK_URL="https://bot.example.com/hook", WEBHOOK_SECRET=SECRET) == Webhook(
        url="https://bot.example.com/hook", secret=SECRET, max_connections=40)
    hook = webhook_of(WEBHOOK_URL="https://bot.example.com/hook", WEBHOOK_SECRET=SECRET, WEBHOOK_MAX_CONNECTIONS="100")
    assert hook is not None and hook.max_connections == 100


@pytest.mark.parametrize("value", ["0", "101", "-3", "forty"])
def test_webhook_max_connections_telegram_would_refuse_is_one_line(value: str) -> None:
    text = refused(WEBHOOK_URL="https://bot.example.com/hook", WEBHOOK_SECRET=SECRET, WEBHOOK_MAX_CONNECTIONS=value)
    assert text == f"WEBHOOK_MAX_CONNECTIONS must be a whole number from 1 to 100 (setWebhook's max_connections), " \
                   f"not {value!r}"
