"""What an option error must read like: the players' words, not the developer's."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from bot import texts
from bot.games import GameSpec
from bot.games.common import option_type
from engines.base import OptionsError

DEVELOPER_TEXT = ("allowed=", "min=", "max=", "(", ")", "'", "Допустимо", "Allowed", "None", "True", "False")


def assert_in_words(message: str, spec: GameSpec[Any, Any], exc: OptionsError, tr: Any) -> None:
    options = spec.engine.options_from_json(None)
    for bad in DEVELOPER_TEXT:
        assert bad not in message, (message, bad)
    assert not re.search(r"от (\d+) до \1\b|\b(\d+) to \2\b", message), message  # «ровно 2»
    assert message.strip() and not message.rstrip().endswith(":"), message
    assert ": ," not in message and ":\n" not in message and "«»" not in message and "“”" not in message, message
    if option_type(options, exc.key) is not None or exc.key == "players":
        assert message.startswith(texts.option_label(spec.code, exc.key, tr) + ": "), message
    else:  # an option the game does not have: the ones it has, each by name and by the key to type
        for field in dataclasses.fields(options):
            assert f"{texts.option_label(spec.code, field.name, tr)} — {field.name}" in message, message
