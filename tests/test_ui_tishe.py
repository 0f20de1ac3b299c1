"""«Тише едешь» in words: the move buttons, the log line of each rule, status and results."""

from __future__ import annotations

from bot.games.common import Tr, set_option
from bot.games.tishe import UI
from engines.tishe import ENGINE, HOME, OFF, TisheOptions, TisheState
from locales import Translator
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES as ALL_NAMES
from tests.ui_helpers import button_labels, throw_lines, tr_fixture, translator_fixture

NAMES = ALL_NAMES[:3]  # three players

translator = translator_fixture()
tr = tr_fixture()


def table(checkers: tuple[int, ...], turn: int = 0, both_home: bool = False, **changes) -> TisheState:
    """Three players; ``checkers`` lists every seat's two checkers in seat order."""
    return new_state(ENGINE, TisheOptions(both_home=both_home), 3, "ab" * 32, checkers=checkers, turn=turn,
                     **changes)


def throw(state: TisheState, dice: tuple[int, int], tr: Tr, choice: str | None = None) -> tuple[TisheState, list[str]]:
    """Roll ``dice`` (and make ``choice`` if the roll asks for one); the log lines of it all."""
    return throw_lines(ENGINE, UI, NAMES, state, dice, tr, choice)


def test_move_buttons_say_where_each_choice_leads(translator: Translator, tr) -> None:
    state, lines = throw(table((23, OFF, 0, 0, 0, 0)), (6, 2), tr)
    assert lines == ["Оля: 6–2 → выбирает фишку"]
    assert button_labels(ENGINE, state, translator) == ["➕ Ввести фишку → 8", "Фишка 1: 23 → 31 ⏩ 34"]
    state, _ = throw(table((20, 5, 0, 0, 0, 0)), (6, 1), tr)
    assert button_labels(ENGINE, state, translator) == ["Фишка 1: 20 → 27 ⏪ 24", "Фишка 2: 5 → 12 ⏩ 15"]
    state, _ = throw(table((4, 15, 0, 0, 0, 0)), (3, 3), tr)
    assert button_labels(ENGINE, state, translator) == ["Фишка 1: 4 → 10 ✖", "Фишка 2: 15 → 21 ⏩ 24"]
    state, _ = throw(table((92, 15, 0, 0, 0, 0)), (4, 4), tr)
    assert button_labels(ENGINE, state, translator) == ["Фишка 1: 92 → 100 🏁", "Фишка 2: 15 → 23"]
    state, _ = throw(table((16, 2, 0, 0, 0, 0)), (3, 3), tr)
    assert button_labels(ENGINE, state, translator) == ["Фишка 1: 16 → 22 ⏸", "Фишка 2: 2 → 8"]
    state, _ = throw(table((OFF, 50 - 45, 0, 0, 0, 0)), (6, 5), tr)
    assert button_labels(ENGINE, state, translator) == ["➕ Ввести фишку → 11 ⏩ 14 ⏸", "Фишка 2: 5 → 16 ⏩ 19"]


def test_a_move_past_100_shows_its_bounce(translator: Translator, tr) -> None:
    """Rule 9: 95 and 6–4 reach 100 and count back to 95 — the button shows the bounce, not «95 → 95»."""
    state, _ = throw(table((95, OFF, 0, 0, 0, 0)), (6, 4), tr)
    assert button_labels(ENGINE, state, translator) == ["➕ Ввести фишку → 10 ✖", "Фишка 1: 95 → 100 ↩ 95"]
    assert button_labels(ENGINE, state, translator, "en")[1] == "Checker 1: 95 → 100 ↩ 95"
    state, _ = throw(table((92, OFF, 0, 0, 0, 0)), (6, 5), tr)  # 103 → 97, and the 7 sends it back to 94
    assert button_labels(ENGINE, state, translator)[1] == "Фишка 1: 92 → 100 ↩ 97 ⏪ 94"
    state, _ = throw(table((89, OFF, 0, 0, 0, 0)), (6, 5), tr)  # exactly 100: no bounce
    assert button_labels(ENGINE, state, translator)[1] == "Фишка 1: 89 → 100 🏁"


def test_a_single_legal_move_is_made_with_the_throw(tr) -> None:
    state, lines = throw(table((OFF, OFF, 0, 0, 0, 0)), (6, 2), tr)
    assert lines == ["Оля: 6–2 → вводит фишку 1 на 8, единственный ход"]
    assert state.of(0) == (8, OFF) and state.turn == 1


def test_each_landing_rule_in_words(tr) -> None:
    _, lines = throw(table((OFF, OFF, 0, 0, 0, 0)), (6, 1), tr)
    assert lines == ["Оля: 6–1 → вводит фишку 1 на 7, единственный ход, на 7 семёрка — на 3 назад, 4"]
    _, lines = throw(table((5, OFF, 0, 0, 0, 0)), (2, 1), tr)
    assert lines == ["Оля: 2–1 → фишка 1: 5 → 8, единственный ход"]
    _, lines = throw(table((8, OFF, 0, 0, 0, 0)), (2, 1), tr)
    assert lines == ["Оля: 2–1 → фишка 1: 8 → 11, единственный ход, на 11 единица — на 3 вперёд, 14, "
                     "11 — двойное число: пропуск 2 ходов"]
    _, lines = throw(table((68, OFF, 0, 0, 0, 0)), (3, 2), tr)
    assert lines == ["Оля: 3–2 → фишка 1: 68 → 73, единственный ход, на 73 семёрка — на 3 назад, 70"]
    _, lines = throw(table((12, OFF, 0, 0, 0, 0)), (3, 2), tr)
    assert lines == ["Оля: 3–2 → фишка 1: 12 → 17, единственный ход, 17: единица и семёрка — стоит"]
    _, lines = throw(table((25, OFF, 0, 0, 0, 0)), (4, 1), tr)
    assert lines == ["Оля: 4–1 → фишка 1: 25 → 30, единственный ход, на 30 ноль — фишка снята"]
    _, lines = throw(table((98, OFF, 0, 0, 0, 0)), (5, 3), tr)
    assert lines == ["Оля: 5–3 → фишка 1: 98 → 94 (отсчёт назад от 100), единственный ход"]


def test_bump_double_and_skips_in_words(tr) -> None:
    _, lines = throw(table((49, OFF, 52, 0, 0, 0)), (2, 1), tr)
    assert lines == ["Оля: 2–1 → фишка 1: 49 → 52, единственный ход, Боря теряет фишку 1 с 52"]
    _, lines = throw(table((2, OFF, 0, 0, 0, 0)), (2, 2), tr)
    assert lines == ["Оля: 2–2 → фишка 1: 2 → 6, единственный ход, дубль — бросает ещё"]
    state, lines = throw(table((18, OFF, 0, 0, 0, 0)), (2, 2), tr)
    assert lines == ["Оля: 2–2 → фишка 1: 18 → 22, единственный ход, 22 — двойное число: пропуск 2 ходов, дубль пропал"]
    assert state.turn == 1 and state.missed == (2, 0, 0)
    skipping = table((3, OFF, 0, 0, 0, 0), turn=2, missed=(2, 0, 0))
    state, lines = throw(skipping, (1, 2), tr)
    assert lines == ["Вера: 1–2 → хода нет", "⏸ Оля пропускает ход (ещё 1)"]
    assert state.turn == 1


def test_finish_and_results(tr) -> None:
    state, lines = throw(table((95, 40 - 1, 0, 0, 0, 0)), (4, 1), tr, choice="m0")
    assert lines == ["Оля: 4–1 → выбирает фишку", "Оля → фишка 1: 95 → 100, фишка 1 на финише, победа!"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert UI.result_lines(state, outcome, NAMES, tr) == ["🏆 Оля первым доводит фишку до 100 и побеждает!"]
    both = table((95, HOME, 0, 0, 0, 0), both_home=True)
    state, lines = throw(both, (4, 1), tr)
    assert lines == ["Оля: 4–1 → фишка 1: 95 → 100, единственный ход, фишка 1 на финише, победа!"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert UI.result_lines(state, outcome, NAMES, tr) == ["🏆 Оля приводит обе фишки к 100 и побеждает!"]


def test_status_lines(tr) -> None:
    state = table((23, OFF, HOME, 5, 0, 0), missed=(0, 2, 0), both_home=True)
    assert UI.status_lines(state, NAMES, tr) == ["Оля: 23, — · Боря: 🏁, 5 ⏸2 · Вера: —, —"]
    state, _ = throw(table((23, OFF, 0, 0, 0, 0)), (6, 2), tr)
    assert UI.status_lines(state, NAMES, tr)[1] == "🎲 6–2 (на 8): выберите фишку"


def test_lobby_variant(tr) -> None:
    options = TisheOptions()
    assert UI.lobby_lines(options, 2, tr) == ["Побеждает: до 100 одной фишкой"]
    ((button,),) = UI.lobby_buttons(options, 2, tr)
    assert (button.text, button.key, button.value) == ("Вариант: до 100 одной фишкой", "both_home", "on")
    options = set_option(options, button.key, button.value)
    assert options.both_home and UI.lobby_lines(options, 2, tr) == ["Побеждает: обе фишки до 100"]
    ((button,),) = UI.lobby_buttons(options, 2, tr)
    assert (button.text, button.value) == ("Вариант: обе фишки до 100", "off")
