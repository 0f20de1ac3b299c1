"""«Помоги своему соседу» in words, «Башня» above all: it speaks of coasters from start to end. The caption
has one clear line per phase (never a tower's count once it has fallen: rule 7, it then counts coasters put
back) and who holds how many, the names as they are («На руках: Борис 3», the bot declines no name); a tower
lobby's roller takes coasters instead of paying, and chips are not mentioned there."""

from __future__ import annotations

import pytest

from bot.games.common import html_words, named_option, option_state
from bot.games.sosedi import UI
from engines.sosedi import ENGINE, SosediOptions, SosediState
from locales import SUPPORTED, Translator
from tests.engine_helpers import apply_throw, new_state
from tests.ui_helpers import translate, translator_fixture

translator = translator_fixture()
NAMES = ("Борис", "Аня", "Вера")  # seat 0 owns 1–2, seat 1 owns 3–4, seat 2 owns 5–6
TOWER = SosediOptions(mode="tower", tower=5)


def standing() -> SosediState:
    """Two coasters left in the tower; Борис holds 2, Аня 1, Вера none; Борис throws."""
    return new_state(ENGINE, TOWER, 3, tower=2, chips=(2, 1, 0), turn=0)


def fallen() -> SosediState:
    """Борис throws 1 · 3 · 5: he and Аня take the last two coasters, the tower falls and Вера, holding
    none, is safe; then Аня throws 1 · 6 · 6 and Борис puts one back (the tower's count is 1 again)."""
    state, _, _ = apply_throw(ENGINE, standing(), (1, 3, 5))
    assert state.phase == 2 and state.tower == 0 and state.safe == (False, False, True)
    state, _, _ = apply_throw(ENGINE, state, (1, 6, 6))
    assert state.chips == (2, 2, 0) and state.tower == 1  # what a «В башне: 1» would have shown
    return state


@pytest.mark.parametrize(("lang", "head", "hands"), [
    ("ru", "🗼 В башне 2 подставки — разбираем", "На руках: Борис 2 · Аня 1 · Вера 0"),
    ("en", "🗼 2 coasters in the tower — take them", "In hand: Борис 2 · Аня 1 · Вера 0"),
])
def test_while_the_tower_stands_the_caption_counts_it(translator: Translator, lang: str, head: str,
                                                     hands: str) -> None:
    assert UI.status_lines(standing(), NAMES, html_words(translate(translator, lang))) == [head, hands]


@pytest.mark.parametrize(("lang", "head", "hands"), [
    ("ru", "🏚 Башня рухнула — возвращаем подставки", "На руках: Борис 2 · Аня 2"),
    ("en", "🏚 The tower fell — put the coasters back", "In hand: Борис 2 · Аня 2"),
])
def test_once_it_has_fallen_the_caption_says_so_and_who_holds_how_many(translator: Translator, lang: str,
                                                                       head: str, hands: str) -> None:
    lines = UI.status_lines(fallen(), NAMES, html_words(translate(translator, lang)))
    assert lines == [head, hands]  # Вера, safe, holds nothing; no count of a tower that is gone
    assert not any(word in line for line in lines for word in ("В башне", "in the tower", "Tower:"))


@pytest.mark.parametrize(("lang", "line"), [
    ("ru", "🏚 Башня рухнула! Без подставок и в безопасности: Вера."),
    ("en", "🏚 The tower falls! Safe with no coasters: Вера."),
])
def test_the_tower_falls_in_the_log(translator: Translator, lang: str, line: str) -> None:
    _, events, _ = apply_throw(ENGINE, standing(), (1, 3, 5))
    assert line in UI.describe(events, NAMES, html_words(translate(translator, lang)))


def test_a_tower_that_falls_with_everyone_holding_coasters(translator: Translator) -> None:
    state = new_state(ENGINE, TOWER, 3, tower=1, chips=(2, 1, 1), turn=0)
    _, events, _ = apply_throw(ENGINE, state, (2, 6, 6))
    assert UI.describe(events, NAMES, html_words(translate(translator, "ru")))[1] == \
        "🏚 Башня рухнула! Подставки на руках у всех — возвращаем."


@pytest.mark.parametrize(("lang", "line"), [("ru", "✅ Аня без подставок — в безопасности."),
                                            ("en", "✅ Аня has no coasters left — safe.")])
def test_putting_back_the_last_coaster(translator: Translator, lang: str, line: str) -> None:
    state = new_state(ENGINE, TOWER, 3, tower=0, phase=2, chips=(2, 1, 1), turn=0)
    _, events, _ = apply_throw(ENGINE, state, (3, 2, 2))
    assert line in UI.describe(events, NAMES, html_words(translate(translator, lang)))


@pytest.mark.parametrize(("lang", "immune", "line", "toggle"), [
    ("ru", False, "Бросающий берёт и возвращает подставки и за свои числа", "Бросающий: берёт"),
    ("ru", True, "Бросающий за свои числа подставки не берёт и не возвращает", "Бросающий: не берёт"),
    ("en", False, "The roller takes and puts back coasters for their own numbers too", "Roller: takes"),
    ("en", True, "The roller never takes or puts back coasters for their own numbers", "Roller: doesn't take"),
])
def test_a_tower_lobby_speaks_of_coasters_not_of_paying(translator: Translator, lang: str, immune: bool, line: str,
                                                        toggle: str) -> None:
    tr = translate(translator, lang)
    options = SosediOptions(mode="tower", roller_immune=immune)
    lines = UI.lobby_lines(options, 3, html_words(tr))
    buttons = [b.text for row in UI.lobby_buttons(options, 3, tr) for b in row]
    assert lines[-1] == line and toggle in buttons
    assert option_state("sosedi", options, "roller_immune", tr) == toggle  # what a press answers, too
    said = " ".join([*lines, *buttons]).casefold()
    assert not any(word in said for word in ("плат", "фишк", "pays", "chip", "immune")), said


@pytest.mark.parametrize("mode", ["classic", "reverse"])
def test_the_other_variants_still_pay(translator: Translator, mode: str) -> None:
    tr = translate(translator, "ru")
    options = SosediOptions(mode=mode)
    assert UI.lobby_lines(options, 3, html_words(tr))[1:] == ["Фишек у каждого: 10", "Бросающий платит и за свои числа"]
    assert [b.text for b in UI.lobby_buttons(options, 3, tr)[-1]] == ["Бросающий: платит"]


@pytest.mark.parametrize(("mode", "words", "value"), [
    ("tower", "не берёт", "on"), ("tower", "не платит", "on"), ("tower", "берёт", "off"), ("tower", "pays", "off"),
    ("classic", "не платит", "on"), ("classic", "не берёт", "on"), ("reverse", "takes", "off"),
])
def test_set_takes_the_roller_by_any_of_its_names(translator: Translator, mode: str, words: str, value: str) -> None:
    """/set keeps the option's names: «не платит» still sets it in a tower lobby, whose toggle says «не берёт»."""
    trs = [translate(translator, lang) for lang in SUPPORTED]
    assert named_option("sosedi", SosediOptions(mode=mode), ["бросающий", *words.split()], trs) == ("roller_immune",
                                                                                                   value)
