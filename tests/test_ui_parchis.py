"""«Парчис» in words: move and bonus buttons, the log lines, status, result."""

from __future__ import annotations

from bot.games.common import Tr
from bot.games.parchis import UI
from engines.parchis import CENTRE, ENGINE, HOME, ParchisOptions, ParchisState
from locales import Translator
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES, button_labels, throw_lines, tr_fixture, translator_fixture

translator = translator_fixture()
tr = tr_fixture()


def table(pieces: tuple[int, ...], turn: int = 0, **changes) -> ParchisState:
    """Four players; Оля is colour 0 (exit 5: progress p stands on cell p + 5)."""
    return new_state(ENGINE, ParchisOptions(), 4, "ef" * 32,
                     pieces=pieces + (HOME,) * (16 - len(pieces)), turn=turn, **changes)


def throw(state: ParchisState, die: int, tr: Tr) -> tuple[ParchisState, list[str]]:
    """Roll ``die``: the new state and its log lines."""
    return throw_lines(ENGINE, UI, NAMES, state, (die,), tr)


def test_buttons_say_piece_from_and_to(translator: Translator, tr) -> None:
    state, lines = throw(table((HOME, 9, 30, HOME)), 6, tr)
    assert lines == ["Оля: 🎲 6 → выбирает фишку"]
    assert button_labels(ENGINE, state, translator) == ["2: 14 → 20", "3: 35 → 41"]
    state, _ = throw(table((62, 67, CENTRE, CENTRE)), 4, tr)
    assert button_labels(ENGINE, state, translator) == ["1: 67 → к3", "2: к4 → 🏁"]


def test_exit_is_forced_and_told(tr) -> None:
    _, lines = throw(table((HOME, 9, HOME, HOME)), 5, tr)
    assert lines == ["Оля: 🎲 5 → выводит фишку 1 на 5, единственный ход"]


def test_capture_then_a_bonus_choice(translator: Translator, tr) -> None:
    # Боря (colour 1, exit 22) stands alone on cell 16 (his progress 62); Оля hits it with a 2
    state, lines = throw(table((9, 30, HOME, HOME, 62)), 2, tr)
    assert lines == ["Оля: 🎲 2 → выбирает фишку"]
    state, events, _ = ENGINE.apply(state, "p0")
    assert UI.describe(events, NAMES, tr) == [
        "Оля → фишка 1: 14 → 16, рубит фишку 1 (Боря) — домой, +20, выбирает, чем сходить на +20"]
    assert button_labels(ENGINE, state, translator) == ["+20: фишка 1 → 36", "+20: фишка 2 → 55"]
    assert UI.status_lines(state, NAMES, tr)[-1] == "Бонус +20: выберите фишку"
    state, events, _ = ENGINE.apply(state, "p1")
    assert UI.describe(events, NAMES, tr) == ["Оля: бонус +20 → фишка 2: 35 → 55, единственный ход"]


def test_six_as_seven_third_six_and_lost_bonus(tr) -> None:
    _, lines = throw(table((9, CENTRE, CENTRE, CENTRE)), 6, tr)
    assert lines == ["Оля: 🎲 6 → шестёрка идёт за 7, фишка 1: 14 → 21, единственный ход"]
    _, lines = throw(table((9, HOME, HOME, HOME), sixes=2, moved=0), 6, tr)
    assert lines == ["Оля: 🎲 6 → третья шестёрка подряд — фишка 1 идёт домой"]
    _, lines = throw(table((9, HOME, HOME, HOME), sixes=2), 6, tr)
    assert lines == ["Оля: 🎲 6 → третья шестёрка подряд — ход сгорает"]
    # Боря alone on cell 67; Оля's last piece takes him, but 20 more would overshoot the centre
    _, lines = throw(table((60, CENTRE, CENTRE, CENTRE, 45)), 2, tr)
    assert lines == ["Оля: 🎲 2 → фишка 1: 65 → 67, единственный ход, рубит фишку 1 (Боря) — домой, +20, "
                     "бонус +20 пропал: ходить нечем"]


def test_status_and_result(tr) -> None:
    state = table((HOME, 9, CENTRE, HOME))
    assert UI.status_lines(state, NAMES, tr)[0].startswith("Оля: дома 2, центр 1/4 · Боря: дома 4, центр 0/4")
    done, _ = throw(table((67, CENTRE, CENTRE, CENTRE)), 4, tr)
    outcome = ENGINE.outcome(done)
    assert outcome is not None and outcome.winners == (0,)
    assert UI.result_lines(done, outcome, NAMES, tr) == ["🏆 Оля заводит все четыре фишки в центр и побеждает!"]
    assert UI.lobby_buttons(ParchisOptions(), 4, tr) == []
