"""Configuration from the environment; the token never reaches a log line."""

from __future__ import annotations

import logging
import os

import pytest

from bot.__main__ import RedactToken
from bot.config import BAD_TOKEN, MISSING_TOKEN, SETTINGS, Config, ConfigError
from tests.config_values import GOOD_TOKEN


def test_missing_token_is_one_clear_line() -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env({})
    text = str(info.value)
    assert text == MISSING_TOKEN and "\n" not in text
    assert "@BotFather" in text and "BOT_TOKEN" in text


@pytest.mark.parametrize("token", ["abc", "123456", "123456:", ":AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ",
                                   "bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ",
                                   "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ/getMe",
                                   '"123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ"',
                                   "123456789 AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawQ", "123456789:AAHdqTcv"])
def test_a_token_of_the_wrong_shape_is_refused_before_connecting(token: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env({"BOT_TOKEN": token})
    assert str(info.value) == BAD_TOKEN and "\n" not in BAD_TOKEN
    assert token not in str(info.value)  # never quoted: a mistyped token is still mostly the secret


@pytest.mark.parametrize("token", [GOOD_TOKEN, "7000000001:AAF0123456789abcdefghijklmnopqrstu-_",
                                   "110201543:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"])  # Telegram's docs: 34
def test_tokens_of_botfathers_shape_pass(token: str) -> None:
    assert Config.from_env({"BOT_TOKEN": f" {token} "}).token == token


def test_an_unknown_log_level_is_one_line() -> None:
    with pytest.raises(ConfigError) as info:
        Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "LOG_LEVEL": "loud"})
    assert str(info.value) == "LOG_LEVEL must be one of DEBUG, INFO, WARNING, ERROR, not 'LOUD'"


class Reads(dict[str, str]):
    """An environment that remembers every variable asked for."""

    def __init__(self, values: dict[str, str]) -> None:
        super().__init__(values)
        self.asked: set[str] = set()

    def get(self, key: str, default: object = None) -> object:  # type: ignore[override]
        self.asked.add(key)
        return super().get(key, default)


def test_the_settings_list_is_what_the_bot_reads() -> None:
    env = Reads({"BOT_TOKEN": GOOD_TOKEN})
    Config.from_env(env)
    assert len({s.name for s in SETTINGS}) == len(SETTINGS)
    assert env.asked == {s.name for s in SETTINGS}


def test_defaults_and_overrides() -> None:
    config = Config.from_env({"BOT_TOKEN": GOOD_TOKEN})
    assert config.database_path == "data/bot.sqlite3"
    assert config.base_url == "https://api.telegram.org/bot" and config.default_locale == "ru"
    config = Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "BOT_API_BASE_URL": "http://127.0.0.1:1/bot",
                              "DATABASE_PATH": "/tmp/x.db", "DEFAULT_LOCALE": "en", "LOG_LEVEL": "debug"})
    assert (config.base_url, config.database_path, config.default_locale, config.log_level) == (
        "http://127.0.0.1:1/bot", "/tmp/x.db", "en", "DEBUG")
    with pytest.raises(ConfigError):
        Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "DEFAULT_LOCALE": "de"})


def test_rate_limits_from_env() -> None:
    config = Config.from_env({"BOT_TOKEN": GOOD_TOKEN})
    # no overall cap by default: Telegram limits each chat
    assert (config.group_max_rate, config.group_time_period, config.overall_max_rate) == (20, 60, 0)
    config = Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "GROUP_MAX_RATE": "100000", "GROUP_RATE_PERIOD": "2",
                              "OVERALL_MAX_RATE": "1000"})
    assert (config.group_max_rate, config.group_time_period, config.overall_max_rate) == (100000, 2, 1000)
    for name, bad in (("GROUP_MAX_RATE", "many"), ("GROUP_MAX_RATE", "0"), ("GROUP_RATE_PERIOD", "0.5"),
                      ("OVERALL_MAX_RATE", "1.5")):
        with pytest.raises(ConfigError, match=name):
            Config.from_env({"BOT_TOKEN": GOOD_TOKEN, name: bad})


def test_drawing_processes_from_env() -> None:
    assert Config.from_env({"BOT_TOKEN": GOOD_TOKEN}).draw_processes == (os.cpu_count() or 1)  # one per core
    assert Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "DRAW_PROCESSES": "0"}).draw_processes == 0  # threads
    assert Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "DRAW_PROCESSES": " 3 "}).draw_processes == 3
    for bad in ("-1", "two", "1.5"):
        with pytest.raises(ConfigError, match="DRAW_PROCESSES must be a whole number"):
            Config.from_env({"BOT_TOKEN": GOOD_TOKEN, "DRAW_PROCESSES": bad})
    assert Config(token="1:x").draw_processes == 0  # as the in-process tests build it


def test_token_not_in_repr() -> None:
    assert "SECRET" not in repr(Config(token="123:SECRET"))


def test_log_filter_redacts_token() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "GET /bot%s/getMe", ("123:SECRET",), None)
    assert RedactToken("123:SECRET").filter(record)
    assert record.getMessage() == "GET /bot<token>/getMe"


def test_python_m_bot_without_token_explains_in_one_line(tmp_path) -> None:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k != "BOT_TOKEN"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parent.parent)
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.strip() == MISSING_TOKEN
    assert "Traceback" not in done.stderr
