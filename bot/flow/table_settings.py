"""A game's own turn timer, turn ping, computer level and pace: what the lobby's «⏱», «🔔», «🤖 Уровень»
and «🎲 Стол» change (for this lobby and its game only, never the chat's defaults, which only /settings
changes; the level has no chat default: «Средний» unless the lobby chose).

They are stored with the game's options, under :data:`TABLE_KEY` beside the engine's own (an engine
ignores the keys it does not know, engines/base.py ``JsonData``), so «Ещё раунд», which copies the
options, keeps them too. A game that has not chosen follows the chat's defaults.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.flow.context import FAST, PACE_CHOICES, PING_CHOICES, TIMER_CHOICES, ChatSettings
from engines.base import DEFAULT_LEVEL, LEVELS

TABLE_KEY = "table"  # never an engine's option name: those are Python identifiers of its dataclass
CHOICES: dict[str, tuple[Any, ...]] = {"turn_timer": TIMER_CHOICES, "ping": PING_CHOICES, "level": LEVELS,
                                       "pace": PACE_CHOICES}


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The turn timer (minutes, 0: off), turn ping (seconds, 0: off), computer level and pace one game plays with."""

    turn_timer: int
    ping: int
    level: str = DEFAULT_LEVEL  # engines.base.LEVELS: the level of its «🤖» seats
    pace: str = FAST  # context.PACE_CHOICES: whether the bot rolls for people (GameSpec.fast_table)

    def after(self, key: str, offered: tuple[Any, ...] = ()) -> Any:
        """The choice of ``key`` after this one: what its lobby button sets, and carries (lobby_keyboard)."""
        return next_choice(key, getattr(self, key), offered)

    @classmethod
    def of(cls, chat: ChatSettings, options: Mapping[str, Any]) -> TableSettings:
        """The game's own choices (in its stored ``options``), else the chat's defaults."""
        own = own_choices(options)
        return cls(turn_timer=own.get("turn_timer", chat.turn_timer), ping=own.get("ping", chat.ping),
                   level=own.get("level", DEFAULT_LEVEL), pace=own.get("pace", chat.pace))


def next_choice(key: str, now: Any, offered: tuple[Any, ...] = ()) -> Any:
    """The choice of ``key`` after ``now`` (among ``offered``, if given), round the list: what a press of
    its lobby button sets, and the value the button carries."""
    choices = offered or CHOICES[key]
    return choices[(choices.index(now) + 1) % len(choices)] if now in choices else choices[0]


def choice_named(key: str, text: str) -> Any | None:
    """The choice of ``key`` a button's data names (never trusted: only one of CHOICES), or None."""
    return next((choice for choice in CHOICES[key] if str(choice) == text and not isinstance(choice, bool)), None)


def level_of(options: Mapping[str, Any]) -> str:
    """The computer level a game chose (in its stored ``options``), else the default."""
    level: str = own_choices(options).get("level", DEFAULT_LEVEL)  # own_choices keeps only LEVELS
    return level


def own_choices(options: Mapping[str, Any]) -> dict[str, Any]:
    """The settings the game chose itself, each checked against its choices (never trust what is stored)."""
    stored = options.get(TABLE_KEY)
    if not isinstance(stored, dict):
        return {}
    return {key: value for key, value in stored.items()
            if key in CHOICES and value in CHOICES[key] and not isinstance(value, bool)}


def with_choices(options: Mapping[str, Any], choices: Mapping[str, Any]) -> dict[str, Any]:
    """The stored ``options`` with the game's own ``choices`` (none: the key is left out)."""
    fresh = {key: value for key, value in options.items() if key != TABLE_KEY}
    if choices:
        fresh[TABLE_KEY] = dict(choices)
    return fresh
