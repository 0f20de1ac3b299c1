"""«Людо» in words: move buttons, the log line of each kind of throw, status, result, lobby."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.common import set_option
from bot.games.ludo import UI
from engines.ludo import CENTRE, ENGINE, YARD, LudoOptions, LudoState
from locales import Translator
from tests.engine_helpers import with_dice

NAMES = ("Оля", "Боря", "Вера", "Гоша")


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load(strict=True)


@pytest.fixture
def tr(translator: Translator):
    return lambda key, /, **args: translator.t("ru", key, **args)


def table(pieces: tuple[int, ...], turn: int = 0, bonuses: bool = False, **changes) -> LudoState:
    state, _ = ENGINE.new_game(LudoOptions(bonuses=bonuses), 4, "cd" * 32)
    return replace(state, pieces=pieces + (YARD,) * (16 - len(pieces)), turn=turn, **changes)


def throw(state: LudoState, die: int, tr) -> tuple[LudoState, list[str]]:
    state, events, _ = ENGINE.apply(with_dice(state, (die,), count=1), "r")
    return state, UI.describe(events, NAMES, tr)


def labels(state: LudoState, translator: Translator) -> list[str]:
    return [translator.t("ru", f"action-ludo-{a.kind}", **{f"a{i}": v for i, v in enumerate(a.args)})
            for a in ENGINE.legal_actions(state)]


def test_buttons_name_the_piece_and_where_it_goes(translator: Translator, tr) -> None:
    state, lines = throw(table((YARD, 13, 20, YARD)), 6, tr)
    assert lines == ["Оля: 🎲 6 → выбирает фишку"]
    assert labels(state, translator) == ["🐣 Вывести фишку", "Фишка 2: 14 → 20", "Фишка 3: 21 → 27 🛡"]
    # Боря (colour 1) stands alone on cell 17; Оля's piece on cell 14 hits it with a 3
    state, _ = throw(table((14, 53, CENTRE, CENTRE, 17 - 13)), 3, tr)
    assert labels(state, translator) == ["Фишка 1: 15 → 18 ⚔", "Фишка 2: 54 → 🏁"]


def test_each_kind_of_throw_in_words(tr) -> None:
    _, lines = throw(table((YARD, YARD, YARD, YARD)), 6, tr)
    assert lines == ["Оля: 🎲 6 → выводит фишку 1, шестёрка — бросает ещё"]
    _, lines = throw(table((YARD, YARD, YARD, YARD)), 4, tr)
    assert lines == ["Оля: 🎲 4 → хода нет"]
    _, lines = throw(table((14, YARD, YARD, YARD, 17 - 13)), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 15 → 18, рубит фишку 1 (Боря) — во двор"]
    _, lines = throw(table((53, YARD, YARD, YARD)), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 54 → 🏁, фишка 1 в центре"]
    _, lines = throw(table((53, CENTRE, CENTRE, CENTRE)), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 54 → 🏁, фишка 1 в центре, победа!"]
    _, lines = throw(table((5, YARD, YARD, YARD), sixes=2), 6, tr)
    assert lines == ["Оля: 🎲 6 → третья шестёрка подряд — ход сгорает"]
    _, lines = throw(table((14, YARD, YARD, YARD, 17 - 13), bonuses=True), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 15 → 18, рубит фишку 1 (Боря) — во двор, бонус — бросает ещё"]


def test_a_choice_is_its_own_line(tr) -> None:
    state, _ = throw(table((YARD, 13, 20, YARD)), 6, tr)
    state, events, _ = ENGINE.apply(state, "p1")
    assert UI.describe(events, NAMES, tr) == ["Оля → фишка 2: 14 → 20, шестёрка — бросает ещё"]


def test_status_result_and_lobby(tr) -> None:
    state, _ = throw(table((YARD, 13, 20, CENTRE)), 6, tr)
    assert UI.status_lines(state, NAMES, tr) == [
        "Оля: двор 1, центр 1/4 · Боря: двор 4, центр 0/4 · Вера: двор 4, центр 0/4 · Гоша: двор 4, центр 0/4",
        "🎲 6: выберите фишку"]
    done, _ = throw(table((53, CENTRE, CENTRE, CENTRE)), 3, tr)
    outcome = ENGINE.outcome(done)
    assert outcome is not None
    assert UI.result_lines(done, outcome, NAMES, tr) == ["🏆 Оля заводит все четыре фишки в центр и побеждает!"]
    options = LudoOptions()
    assert UI.lobby_lines(options, 2, tr) == ["Вариант: классика"]
    ((button,),) = UI.lobby_buttons(options, 2, tr)
    assert (button.text, button.key, button.value) == ("Вариант → с бонусами", "bonuses", "on")
    assert set_option(options, button.key, button.value).bonuses
