"""«Людо» in words: move buttons, the log line of each kind of throw, status, result, lobby."""

from __future__ import annotations

from bot.games.common import Tr, set_option
from bot.games.ludo import UI
from engines.ludo import CENTRE, ENGINE, YARD, LudoOptions, LudoState
from locales import Translator
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES, button_labels, throw_lines, tr_fixture, translator_fixture

translator = translator_fixture()
tr = tr_fixture()


def table(pieces: tuple[int, ...], turn: int = 0, bonuses: bool = False, **changes) -> LudoState:
    """Four players; ``pieces`` from seat 0 on, the rest in the yard."""
    return new_state(ENGINE, LudoOptions(bonuses=bonuses), 4, "cd" * 32,
                     pieces=pieces + (YARD,) * (16 - len(pieces)), turn=turn, **changes)


def throw(state: LudoState, die: int, tr: Tr) -> tuple[LudoState, list[str]]:
    """Roll ``die``: the new state and its log lines."""
    return throw_lines(ENGINE, UI, NAMES, state, (die,), tr)


def test_buttons_name_the_piece_and_where_it_goes(translator: Translator, tr) -> None:
    state, lines = throw(table((YARD, 13, 20, YARD)), 6, tr)
    assert lines == ["Оля: 🎲 6 → выбирает фишку"]
    assert button_labels(ENGINE, state, translator) == ["🐣 Вывести фишку", "Фишка 2: 14 → 20", "Фишка 3: 21 → 27 🛡"]
    # Боря (colour 1) stands alone on cell 17; Оля's piece on cell 14 hits it with a 3
    state, _ = throw(table((14, 53, CENTRE, CENTRE, 17 - 13)), 3, tr)
    assert button_labels(ENGINE, state, translator) == ["Фишка 1: 15 → 18 ⚔", "Фишка 2: 54 → 🏁"]


def test_each_kind_of_throw_in_words(tr) -> None:
    _, lines = throw(table((YARD, YARD, YARD, YARD)), 6, tr)
    assert lines == ["Оля: 🎲 6 → выводит фишку 1, единственный ход, шестёрка — бросает ещё"]
    _, lines = throw(table((YARD, YARD, YARD, YARD)), 4, tr)
    assert lines == ["Оля: 🎲 4 → хода нет"]
    _, lines = throw(table((14, YARD, YARD, YARD, 17 - 13)), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 15 → 18, единственный ход, рубит фишку 1 (Боря) — во двор"]
    _, lines = throw(table((53, YARD, YARD, YARD)), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 54 → 🏁, единственный ход, фишка 1 в центре"]
    _, lines = throw(table((53, CENTRE, CENTRE, CENTRE)), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 54 → 🏁, единственный ход, фишка 1 в центре, победа!"]
    _, lines = throw(table((5, YARD, YARD, YARD), sixes=2), 6, tr)
    assert lines == ["Оля: 🎲 6 → третья шестёрка подряд — ход сгорает"]
    _, lines = throw(table((14, YARD, YARD, YARD, 17 - 13), bonuses=True), 3, tr)
    assert lines == ["Оля: 🎲 3 → фишка 1: 15 → 18, единственный ход, рубит фишку 1 (Боря) — во двор, "
                     "бонус — бросает ещё"]


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
    assert (button.text, button.key, button.value) == ("Вариант: классика", "bonuses", "on")  # what is set now
    assert set_option(options, button.key, button.value).bonuses
