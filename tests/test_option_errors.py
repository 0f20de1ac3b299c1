"""Every way a game's option can be refused, put into the chat's words: the
option's name and what it takes («Фишки: от 5 до 30»), never the engine's data («min=5», «allowed=(…)»)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from bot import texts
from bot.games import GAMES, GameSpec
from bot.games.common import option_type, set_option
from engines.base import OptionsError
from locales import Translator
from tests.option_words import assert_in_words
from tests.ui_helpers import translate, translator_fixture

translator = translator_fixture()
BAD_TEXT = {bool: ("maybe", "2"), int: ("abc", "-999", "999999", "0"), str: ("zzz", "1")}


def refusals(spec: GameSpec[Any, Any]) -> Iterator[tuple[str, OptionsError]]:
    """(what was tried, the error) for every refusal the game's options can give: an unknown option,
    every bad value typed for every option, too few and too many players, every option at its far end
    for the fewest players (a goal above the pile)."""
    options, engine = spec.engine.options_from_json(None), spec.engine
    attempts: list[tuple[str, Any]] = [("nonsense", lambda: set_option(options, "nonsense", "1"))]
    for field in dataclasses.fields(options):
        found = option_type(options, field.name)
        assert found is not None
        for raw in BAD_TEXT[found[0]]:
            attempts.append((f"{field.name}={raw}", lambda key=field.name, raw=raw: set_option(options, key, raw)))
        if found[0] is int:
            for value in range(0, 200):  # every value the option takes, for the fewest and the most players
                for seats in (engine.min_players, engine.max_players):
                    attempts.append((f"{field.name}={value}@{seats}",
                                     lambda key=field.name, v=value, n=seats: dataclasses.replace(
                                         options, **{key: v}).validate(n)))
    for seats in (engine.min_players - 1, engine.max_players + 1):
        attempts.append((f"{seats} players", lambda n=seats: options.validate(n)))
    for what, attempt in attempts:
        try:
            attempt()
        except OptionsError as exc:
            yield what, exc


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("code", list(GAMES))
def test_every_refusal_names_the_option_and_its_values_in_words(translator: Translator, code: str,
                                                                  lang: str) -> None:
    spec, tr = GAMES[code], translate(translator, lang)
    seen = set()
    for what, exc in refusals(spec):
        message = texts.option_error(exc, code, spec.engine.options_from_json(None), tr)
        try:
            assert_in_words(message, spec, exc, tr)
        except AssertionError as failed:
            raise AssertionError(f"{what}: {failed}") from None
        seen.add(exc.key)
    options = spec.engine.options_from_json(None)
    assert seen >= {"nonsense", "players", *(f.name for f in dataclasses.fields(options))}


@pytest.mark.parametrize(("command", "ru", "en"), [
    (("sosedi", "chips", "99"), "Фишки: от 5 до 30", "Chips: 5 to 30"),
    (("sosedi", "roller_immune", "maybe"), "Бросающий: «не платит» или «платит»", "Roller: “immune” or “pays”"),
    (("shishbesh", "fast_charge", "maybe"), "Быстрый заряд: «да» или «нет»", "Fast charge: “on” or “off”"),
    (("sosedi", "tower", "2"), "Башня: от 5 до 60 или «авто»", "Tower: 5 to 60, or “auto”"),
    (("sosedi", "mode", "x"), "Вариант: «классика», «наоборот» или «Башня»\nНабрать: /set mode classic | reverse"
                              " | tower", "Variant: “classic”, “reverse” or “Tower”\nType: /set mode classic | reverse"
                              " | tower"),
    (("spichki", "double_hit", "3"), "Дубль числа цели: «+1 спичка» или «+2 спички»\nНабрать: /set double_hit 1 | 2",
     "A double of a target number: “+1 match” or “+2 matches”\nType: /set double_hit 1 | 2"),
    (("sosedi", "nonsense", "1"),
     "Такой настройки нет: «nonsense». Настройки этой игры: Вариант — mode, Фишки — chips, Башня — tower, "
     "Бросающий — roller_immune",
     "There is no setting “nonsense”. This game’s settings: Variant — mode, Chips — chips, Tower — tower, "
     "Roller — roller_immune"),
    (("parchis", "nonsense", "1"), "Такой настройки нет: «nonsense». У этой игры настроек нет.",
     "There is no setting “nonsense”. This game has no settings."),
])
def test_the_words_of_a_refusal(translator: Translator, command: tuple[str, str, str], ru: str, en: str) -> None:
    code, key, raw = command
    options = GAMES[code].engine.options_from_json(None)
    with pytest.raises(OptionsError) as err:
        set_option(options, key, raw)
    assert texts.option_error(err.value, code, options, translate(translator, "ru")) == ru
    assert texts.option_error(err.value, code, options, translate(translator, "en")) == en


def test_a_goal_above_the_pile_says_how_far_it_may_go(translator: Translator) -> None:
    options = GAMES["spichki"].engine.options_from_json({"goal": 20, "per_player": 8})
    with pytest.raises(OptionsError) as err:
        options.validate(2)
    assert texts.option_error(err.value, "spichki", options, translate(translator, "ru")) == "До победы: от 5 до 16"
