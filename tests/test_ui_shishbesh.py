"""«Шиш-беш» in words: dice-and-piece buttons, jumps, captures, status, result, lobby."""

from __future__ import annotations

from bot.games.common import Tr, set_option
from bot.games.shishbesh import UI
from engines.shishbesh import ENGINE, PARK, ShishbeshOptions, ShishbeshState
from locales import Translator
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES, button_labels, throw_lines, tr_fixture, translator_fixture

translator = translator_fixture()
tr = tr_fixture()


def table(pieces: tuple[int, ...], **changes) -> ShishbeshState:
    """Four players on the standard board; ``pieces`` from seat 0 on, the rest in the park."""
    return new_state(ENGINE, ShishbeshOptions(), 4, "ab" * 32, pieces=pieces + (PARK,) * (16 - len(pieces)),
                     turn=0, **changes)


def throw(state: ShishbeshState, dice: tuple[int, int], tr: Tr, choice: str | None = None):
    return throw_lines(ENGINE, UI, NAMES, state, dice, tr, choice)


def test_forced_moves_are_played_and_told(tr) -> None:
    state, lines = throw(table(()), (6, 2), tr)
    assert lines == ["Оля: 🎲 6 · 2 → выводит фишку 1, фишка 1: 0 → 2, единственный ход"]
    assert state.of(0)[0] == 2 and state.turn == 1


def test_buttons_name_the_die_the_piece_and_the_letter_of_where_it_goes(translator: Translator, tr) -> None:
    # each landing place has its letter on the picture, in the order of the buttons
    state, lines = throw(table((0, 10)), (3, 5), tr)
    assert lines == ["Оля: 🎲 3 · 5 → выбирает ход"]
    assert button_labels(ENGINE, state, translator) == [
        "[3] Фишка 1 → А 🛖", "[3] Фишка 2 → Б", "[5] Фишка 1 → В", "[5] Фишка 2 → Г 🛖"]
    assert button_labels(ENGINE, state, translator, "en") == [
        "[3] Piece 1 → A 🛖", "[3] Piece 2 → B", "[5] Piece 1 → C", "[5] Piece 2 → D 🛖"]
    assert UI.status_lines(state, NAMES, tr)[-1] == "🎲 осталось 3 · 5: выберите ход"


def test_jumps_and_the_shortcut(translator: Translator, tr) -> None:
    state, _ = throw(table((6,)), (1, 2), tr)
    assert button_labels(ENGINE, state, translator) == [
        "[1] Фишка 1 → А", "[1] Фишка 1: прыжок ↷ Б", "[1] Фишка 1: прыжок назад ↶ В", "[2] Фишка 1 → Г"]
    state, events, _ = ENGINE.apply(state, "jb0")
    assert UI.describe(events, NAMES, tr) == ["Оля → фишка 1 прыгает назад 6 ↶ 42, фишка 1: 42 → 44"]
    assert state.of(0)[0] == 44


def test_a_capture_gives_another_throw(tr) -> None:
    # Боря (arm 1) stands on the cell of Оля's position 5: his position 41
    state, _ = throw(table((0, PARK, PARK, PARK, 41)), (5, 1), tr)
    state, events, _ = ENGINE.apply(state, "s50")
    assert UI.describe(events, NAMES, tr) == [
        "Оля → фишка 1: 0 → 5, рубит фишку 1 (Боря) — в парк, фишка 1: 5 → 6, за рубку — бросает ещё"]
    assert state.turn == 0 and state.of(1)[0] == PARK


def test_status_result_and_lobby(tr) -> None:
    state = table((49, 50, 51, 20))
    assert UI.status_lines(state, NAMES, tr) == [
        "Оля: парк 0, домик 3/4 · Боря: парк 4, домик 0/4 · Вера: парк 4, домик 0/4 · Гоша: парк 4, домик 0/4"]
    done, lines = throw(table((50, 51, 52, 48)), (1, 6), tr)  # no jumping over own pieces: only 48 → 49
    assert lines == ["Оля: 🎲 1 · 6 → фишка 4: 48 → 49, единственный ход, фишка 4 дома, победа!"]
    outcome = ENGINE.outcome(done)
    assert outcome is not None
    assert UI.result_lines(done, outcome, NAMES, tr) == ["🏆 Оля заводит все четыре фишки в домик и побеждает!"]
    options = ShishbeshOptions()
    assert UI.lobby_lines(options, 2, tr) == ["Поле: обычное поле", "Избушки: друг напротив друга",
                                              "Выход из парка: на шестёрку", "Быстрый заряд: нет"]
    buttons = [(b.text, b.key, b.value) for row in UI.lobby_buttons(options, 2, tr) for b in row]
    # each shows what is set now, as the lines above do, and carries the next value
    assert buttons == [("Поле: обычное", "board", "long"), ("Быстрый заряд: нет", "fast_charge", "on"),
                       ("Избушки: напротив", "shelters", "staggered"),
                       ("Выход из парка: на шестёрку", "start", "double")]
    changed = set_option(set_option(options, "start", "six_or_double"), "fast_charge", "on")
    assert UI.lobby_lines(changed, 2, tr)[2:] == ["Выход из парка: на шестёрку или дубль",
                                                 "Быстрый заряд: три броска на выход"]
    buttons = [(b.text, b.value) for row in UI.lobby_buttons(changed, 2, tr) for b in row]
    assert ("Быстрый заряд: да", "off") in buttons and ("Выход из парка: на шестёрку или дубль", "six") in buttons


def test_rules_say_a_step_inside_the_home_keeps_the_fast_charge(translator: Translator) -> None:
    """shishbesh.md, fast charge: /rules says what the engine does (a home step does not end it)."""
    assert "ход внутри домика заряд не прерывает" in translator.t("ru", "rules-shishbesh")
    assert "a step inside the home does not end the charge" in translator.t("en", "rules-shishbesh")
