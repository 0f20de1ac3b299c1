"""«Спички» in words: the log line of every kind of throw, lobby settings, status and results."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.games.common import Tr, set_option
from bot.games.spichki import UI
from engines.base import Event, OptionsError
from engines.spichki import ENGINE, SpichkiOptions, SpichkiState
from locales import Translator
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES, throw_lines, translate, translator_fixture

translator = translator_fixture()


def ru(translator: Translator) -> Tr:
    return translate(translator, "ru")


def en(translator: Translator) -> Tr:
    return translate(translator, "en")


def chasing(target: tuple[int, int] = (2, 4), turn: int = 0, **options: int) -> SpichkiState:
    """Four players chasing ``target``, seat ``turn`` to throw."""
    return new_state(ENGINE, SpichkiOptions(**options), 4, "ab" * 32, target=target, turn=turn)


def line_after(state: SpichkiState, dice: tuple[int, int], tr: Tr) -> tuple[SpichkiState, list[str]]:
    """Throw ``dice``: the new state and its log lines."""
    return throw_lines(ENGINE, UI, NAMES, state, dice, tr)


def test_seed_worked_example_in_words(translator: Translator) -> None:
    tr = ru(translator)
    state, lines = line_after(chasing(), (4, 5), tr)
    assert lines == ["Цель: 2 и 4 · Оля: 4–5 → +1 спичка, бросает ещё"]
    state, lines = line_after(state, (2, 2), tr)
    assert lines == ["Цель: 2 и 4 · Оля: 2–2 → +2 спички, бросает ещё"]
    state, lines = line_after(state, (3, 5), tr)
    assert lines == ["Цель: 2 и 4 · Оля: 3–5 → мимо, бросает Боря"]
    assert state.matches[0] == 3 and state.turn == 1


def test_exact_hit_and_setting_a_target_in_words(translator: Translator) -> None:
    tr = ru(translator)
    state, lines = line_after(chasing(turn=2), (4, 2), tr)
    assert lines == ["Цель: 2 и 4 · Вера: 4–2 → в точку! +3 спички, ставит новую цель"]
    state, lines = line_after(state, (5, 5), tr)
    assert lines == ["Цель ставится · Вера: 5–5 → дубль: +2 спички, бросает ещё"]
    state, lines = line_after(state, (6, 1), tr)
    assert lines == ["Цель ставится · Вера: 6–1 → новая цель 6 и 1, бросает Гоша"]
    assert state.target == (6, 1) and state.turn == 3


def test_double_hit_one_in_words(translator: Translator) -> None:
    _, lines = line_after(chasing(double_hit=1), (4, 4), ru(translator))
    assert lines == ["Цель: 2 и 4 · Оля: 4–4 → +1 спичка, бросает ещё"]


def test_win_and_empty_pile_in_words(translator: Translator) -> None:
    tr = ru(translator)
    near = replace(chasing(), matches=(10, 0, 0, 0), pile=30)
    state, lines = line_after(near, (2, 3), tr)
    assert lines == ["Цель: 2 и 4 · Оля: 2–3 → +1 спичка, набрано 11 — победа!"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None
    assert UI.result_lines(state, outcome, NAMES, tr) == ["🏆 Оля набирает 11 спичек и побеждает!"]

    last = replace(chasing(), matches=(5, 5, 9, 1), pile=1)
    state, lines = line_after(last, (4, 2), tr)
    assert lines == ["Цель: 2 и 4 · Оля: 4–2 → в точку! +1 спичка, куча пуста"]
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.kind == "win" and outcome.winners == (2,)
    assert UI.result_lines(state, outcome, NAMES, tr) == ["🏆 Куча пуста. Побеждает Вера — больше всех спичек: 9."]

    tie = replace(chasing(), matches=(8, 9, 9, 1), pile=1)
    state, _ = line_after(tie, (2, 5), tr)
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.kind == "draw" and outcome.winners == (0, 1, 2)
    assert UI.result_lines(state, outcome, NAMES, tr) == [
        "🤝 Куча пуста — ничья: Оля, Боря, Вера, у каждого 9 спичек."]


def test_english_log_lines(translator: Translator) -> None:
    tr = en(translator)
    state, lines = line_after(chasing(), (4, 5), tr)
    assert lines == ["Target: 2 and 4 · Оля: 4–5 → +1 match, rolls again"]
    _, lines = line_after(state, (1, 1), tr)
    assert lines == ["Target: 2 and 4 · Оля: 1–1 → a miss, Боря rolls next"]


def test_starter_line_and_status(translator: Translator) -> None:
    tr = ru(translator)
    state, events = ENGINE.new_game(SpichkiOptions(), 4, "cd" * 32)
    assert UI.describe(events, NAMES, tr) == [f"Жребий: начинает {NAMES[state.turn]}. В куче 40 спичек."]
    assert UI.status_lines(state, NAMES, tr) == ["🎯 Цель ставится · в куче 40 · играем до 11",
                                                 "Оля: 0 · Боря: 0 · Вера: 0 · Гоша: 0"]
    chase = replace(state, target=(3, 6), matches=(1, 2, 0, 21), pile=16)
    assert UI.status_lines(chase, NAMES, tr)[0] == "🎯 Цель: 3 и 6 · в куче 16 · играем до 11"


@pytest.mark.parametrize(("count", "word"), [(1, "спичка"), (2, "спички"), (5, "спичек"), (11, "спичек"),
                                             (21, "спичка")])
def test_russian_match_plurals(translator: Translator, count: int, word: str) -> None:
    event = Event("take", seat=0, data={"count": count, "held": count, "pile": 5, "why": "one"})
    throw = Event("throw", seat=0, data={"dice": [2, 5], "target": [2, 4]})
    line = UI.describe([throw, event], NAMES, ru(translator))[0]
    assert line.endswith(f"→ +{count} {word}")


@pytest.mark.parametrize(("count", "word"), [(1, "match"), (2, "matches"), (5, "matches"), (11, "matches"),
                                             (21, "matches")])
def test_english_match_plurals(translator: Translator, count: int, word: str) -> None:
    assert translator.t("en", "spichki-ev-take-one", count=count) == f"+{count} {word}"


def test_lobby_lines_buttons_and_settings(translator: Translator) -> None:
    tr = ru(translator)
    options = SpichkiOptions()
    assert UI.lobby_lines(options, 3, tr) == ["Играем до 11 спичек", "В куче: по 10 спичек на игрока",
                                              "Дубль числа цели: +2 спички"]
    buttons = {(b.key, b.value) for row in UI.lobby_buttons(options, 3, tr) for b in row}
    assert buttons == {("goal", "10"), ("goal", "12"), ("per_player", "9"), ("per_player", "11"),
                       ("double_hit", "1")}
    options = set_option(options, "double_hit", "1")
    assert UI.lobby_lines(options, 3, tr)[2] == "Дубль числа цели: +1 спичка"
    assert ("double_hit", "2") in {(b.key, b.value) for row in UI.lobby_buttons(options, 3, tr) for b in row}
    top = SpichkiOptions(goal=30, per_player=15)  # no button leads out of range
    keys = {(b.key, b.value) for row in UI.lobby_buttons(top, 2, tr) for b in row}
    assert ("goal", "31") not in keys and ("per_player", "16") not in keys and ("goal", "29") in keys


def test_lobby_warns_when_the_goal_exceeds_the_pile(translator: Translator) -> None:
    tr = ru(translator)
    options = SpichkiOptions(goal=20, per_player=8)
    assert UI.lobby_lines(options, 2, tr)[-1] == ("⚠️ При 2 игроках в куче всего 16: уменьшите цель или "
                                                  "добавьте спичек.")
    assert len(UI.lobby_lines(options, 3, tr)) == 3  # 24 matches: fine
    assert len(UI.lobby_lines(options, 1, tr)) == 3  # a lone host is not warned yet
    with pytest.raises(OptionsError) as err:
        options.validate(2)
    assert err.value.key == "goal" and err.value.limits["max"] == 16


@pytest.mark.parametrize(("key", "raw"), [("double_hit", "3"), ("goal", "4"), ("goal", "31"), ("per_player", "7"),
                                          ("per_player", "16"), ("goal", "много"), ("pile", "3")])
def test_bad_settings_are_refused(key: str, raw: str) -> None:
    with pytest.raises(OptionsError):
        set_option(SpichkiOptions(), key, raw)


def test_variant_and_buttons_labels(translator: Translator) -> None:
    assert UI.variant(SpichkiOptions(goal=21), ru(translator)) == "до 21 спички"
    assert UI.variant(SpichkiOptions(goal=12), ru(translator)) == "до 12 спичек"
    assert not UI.is_pub(SpichkiOptions())
    assert translator.t("ru", "action-spichki-target") == "🎯 Бросить на цель"
    assert translator.t("ru", "action-spichki-chase") == "🎲 Бросить"
