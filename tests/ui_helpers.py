"""Helpers for the UI tests (a game's wording): the translator fixtures, the labels of the move
buttons, and the log lines of a throw with the dice a test wants.

Fixtures are made by factories, so a test module names them itself::

    translator = translator_fixture()
    tr = tr_fixture()
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from bot.games import GAMES
from bot.games.common import GameUI, Tr
from engines.base import LoadedDice
from locales import Translator

NAMES = ("Оля", "Боря", "Вера", "Гоша")


def translate(translator: Translator, lang: str) -> Tr:
    """``translator.t`` for one language: ``tr(key, **args)``."""
    return lambda key, /, **args: translator.t(lang, key, **args)


def translator_fixture() -> Callable[..., Translator]:
    """A module-scoped ``translator`` fixture: every locale, loaded strictly."""

    @pytest.fixture(scope="module", name="translator")
    def translator() -> Translator:
        return Translator.load(strict=True)

    return translator


def tr_fixture(lang: str = "ru") -> Callable[..., Tr]:
    """A ``tr`` fixture: the ``translator`` fixture's wording in ``lang``."""

    @pytest.fixture(name="tr")
    def tr(translator: Translator) -> Tr:
        return translate(translator, lang)

    return tr


def button_labels(engine: Any, state: Any, translator: Translator, lang: str = "ru") -> list[str]:
    """The text of each move button the bot shows for ``state``, in ``lang`` (the game's UI adds what the
    buttons name beyond the action's args)."""
    actions = engine.legal_actions(state)
    words = GAMES[engine.code].ui.button_args(state, actions, translate(translator, lang))
    return [translator.t(lang, f"action-{engine.code}-{a.kind}", **args)
            for a, args in zip(actions, words, strict=True)]


def throw_lines(engine: Any, ui: GameUI, names: Sequence[str], state: Any, dice: tuple[int, ...], tr: Tr,
                choice: str | None = None) -> tuple[Any, list[str]]:
    """Roll exactly ``dice`` (then make ``choice``, if given): the new state and the log lines of it all."""
    state, events, _ = engine.apply(state, "r", LoadedDice(dice))
    lines = ui.describe(events, names, tr)
    if choice is not None:
        state, events, _ = engine.apply(state, choice)
        lines += ui.describe(events, names, tr)
    return state, lines
