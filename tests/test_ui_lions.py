"""«Охота на львов» in words: piece and circle buttons and their rows, turn lines, status, result, lobby."""

from __future__ import annotations

import pytest

from bot import texts
from bot.flow.context import Game
from bot.games.common import set_option
from bot.games.lions import SPEC, UI
from bot.store import GameRow, Seat
from engines.base import OptionsError
from engines.lions import ENGINE, LionsOptions, LionsState
from engines.lions_board import INDEX
from locales import Translator
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES, button_labels, tr_fixture, translate, translator_fixture

translator = translator_fixture()
tr = tr_fixture()


def at(*labels: str) -> tuple[int, ...]:
    return tuple(sorted(INDEX[x] for x in labels))


LIONS_START = ("1", "2", "3", "4", "5", "6")
HUNTERS_START = ("А", "Б", "В", "Г", "Д", "Е")


def table(lions: tuple[str, ...] = LIONS_START, hunters: tuple[str, ...] = HUNTERS_START, turn: int = 0,
          **changes) -> LionsState:
    """Оля (seat 0) plays the lions, Боря the hunters; ``turn`` says who moves."""
    return new_state(ENGINE, LionsOptions(), 2, "ab" * 32, lions=at(*lions), hunters=at(*hunters), turn=turn,
                     **changes)


def play(state: LionsState, *codes: str) -> tuple[LionsState, list]:
    events: list = []
    for code in codes:
        state, more, _ = ENGINE.apply(state, code)
        events += more
    return state, events


def p(label: str) -> str:
    return f"p{INDEX[label]}"


def s(label: str) -> str:
    return f"s{INDEX[label]}"


def test_buttons_name_pieces_then_circles(translator: Translator) -> None:
    state = table()
    assert button_labels(ENGINE, state, translator) == [
        "🦁 1", "🦁 2", "🦁 3", "🦁 4", "🦁 5", "🦁 6", "🤝 Ничья?", "🏳 Сдаться"]
    state, _ = play(state, p("6"))
    assert button_labels(ENGINE, state, translator) == [
        "→ +1", "🦁 1", "🦁 2", "🦁 3", "🦁 4", "🦁 5", "🤝 Ничья?", "🏳 Сдаться"]
    state, _ = play(state, s("+1"))
    labels = button_labels(ENGINE, state, translator)
    assert labels[:6] == ["→ +4", "🦁 1", "🦁 2", "🦁 3", "🦁 4", "🦁 5"]
    assert labels[-3:] == ["✅ Готово", "↩️ Отменить шаг", "🏳 Сдаться"]
    hunters = table(turn=1)
    assert button_labels(ENGINE, hunters, translator, "en")[:2] == ["🏹 Е", "🏹 Д"]  # board order: row by row


def _game(state: LionsState) -> Game:
    row = GameRow(id=7, chat_id=-1, code="lions", options={}, seed="ab", state=None, version=state.version,
                  shown_version=0, status="running", host_id=1, message_id=None, result=None,
                  seats=(Seat(0, 1, NAMES[0]), Seat(1, 2, NAMES[1])))
    return Game(row, SPEC, state.options, state)


def test_keyboard_rows_group_circles_pieces_and_commands(tr) -> None:
    state, _ = play(table(), p("6"), s("+1"))
    keyboard = texts.table_keyboard(_game(state), tr)
    rows = [[b.text for b in row] for row in keyboard.inline_keyboard]
    assert rows == [["→ +4"], ["🦁 1", "🦁 2", "🦁 3", "🦁 4"], ["🦁 5"], ["✅ Готово", "↩️ Отменить шаг"],
                    ["🏳 Сдаться"]]
    state = table()
    rows = [[b.text for b in row] for row in texts.table_keyboard(_game(state), tr).inline_keyboard]
    assert rows[-1] == ["🤝 Ничья?", "🏳 Сдаться"]


def test_a_sent_turn_is_one_line_with_its_captures(tr) -> None:
    # rule 4, the seed's first example: a hunter steps onto +4 and the lion on +7 has nowhere to go
    state = table(lions=("+7", "1", "2", "3"), hunters=("+8", "А", "Б"), turn=1)
    _, events = play(state, p("+8"), s("+4"), "d")
    assert UI.describe(events, NAMES, tr) == ["Боря (🏹): +8 → +4 · 🦁 взят лев на +7"]
    state = table()
    _, events = play(state, p("6"), s("+1"), s("+4"), p("5"), s("6"), "d")
    assert UI.describe(events, NAMES, tr) == ["Оля (🦁): 6 → +1 → +4; 5 → 6"]


def test_news_lines(translator: Translator, tr) -> None:
    en = translate(translator, "en")
    state = table()
    _, events = play(state, "o")
    assert UI.describe(events, NAMES, tr) == ["🤝 Оля предлагает ничью."]
    offered, _ = play(state, "o")
    _, events = play(offered, "n")
    assert UI.describe(events, NAMES, tr) == ["Боря играет дальше."]
    _, events = play(offered, "y")
    assert UI.describe(events, NAMES, tr) == ["🤝 Боря принимает ничью."]
    _, events = play(state, "x")
    assert UI.describe(events, NAMES, en) == ["🏳 Оля resigns."]
    _, events = ENGINE.new_game(LionsOptions(), 2, "ab" * 32)
    (line,) = UI.describe(events, NAMES, tr)
    assert line.startswith("Жребий: первыми ходят")


def test_status_lines(tr) -> None:
    state = table()
    assert UI.status_lines(state, NAMES, tr) == ["🦁 Оля: 6/6 · 🏹 Боря: 6/6"]
    building, _ = play(state, p("6"), s("+1"))
    assert UI.status_lines(building, NAMES, tr)[-1] == "Ход: 6 → +1 · осталось 2 шага"
    offered, _ = play(state, "o")
    assert UI.status_lines(offered, NAMES, tr)[-1] == "🤝 Оля предлагает ничью — Боря, принимаете?"
    # push rule on and a lion on Д with three hunters behind it on the camp's row
    pushed = table(lions=("Д", "1"), hunters=("22", "Е", "Г"), push_on=True)
    assert UI.status_lines(pushed, NAMES, tr) == [
        "🦁 Оля: 2/6 · 🏹 Боря: 3/6", "🧱 Действует правило «в затылок».", "Ходов без взятий: 0 из 60",
        "⚠ Первой ходит фигура с Д (в затылок)."]


def test_a_finished_game_says_nothing_of_the_rules_still_going(tr) -> None:
    """Once the game is over, no «в затылок» and no count of turns without a capture: only the sides."""
    pushed = table(lions=("Д", "1"), hunters=("22", "Е", "Г"), push_on=True)
    over, _ = play(pushed, "x")  # the lions resign
    assert over.finished and over.push_on
    assert UI.status_lines(over, NAMES, tr) == ["🦁 Оля: 2/6 · 🏹 Боря: 3/6"]
    quiet = table(lions=("1",), hunters=("А", "Б", "В"), quiet=59)
    drawn, _ = play(quiet, p("1"), s("2"), "d")  # the 60th quiet turn draws it
    assert drawn.finished and UI.status_lines(drawn, NAMES, tr) == ["🦁 Оля: 1/6 · 🏹 Боря: 3/6"]


def test_results(tr) -> None:
    state, _ = play(table(), "x")
    outcome = ENGINE.outcome(state)
    assert UI.result_lines(state, outcome, NAMES, tr) == ["🏆 Боря (охотники) побеждает: соперник сдался."]
    state, _ = play(*play(table(), "o")[:1], "y")
    assert UI.result_lines(state, ENGINE.outcome(state), NAMES, tr) == ["🤝 Ничья по согласию."]
    quiet = table(lions=("1",), hunters=("А", "Б", "В"), quiet=59)
    state, _ = play(quiet, p("1"), s("2"), "d")
    assert UI.result_lines(state, ENGINE.outcome(state), NAMES, tr) == ["🤝 Ничья: 60 ходов подряд без взятий."]
    won = table(lions=("+7",), hunters=("+8", "А"), turn=1)
    state, _ = play(won, p("+8"), s("+4"), "d")
    assert UI.result_lines(state, ENGINE.outcome(state), NAMES, tr) == [
        "🏆 Боря (охотники) берёт все фигуры противника и побеждает!"]


def test_lobby_sides_and_swap(tr) -> None:
    options = LionsOptions()
    assert UI.lobby_seats(options, ["Аня"], tr) == ["🦁 Львы: Аня · 🏹 Охотники: ждём игрока"]
    (button,), _quiet = UI.lobby_buttons(options, 1, tr)
    swapped = set_option(options, button.key, button.value)
    assert swapped.lions_seat == 1
    assert UI.lobby_seats(swapped, ["Аня", "Боря"], tr) == ["🦁 Львы: Боря · 🏹 Охотники: Аня"]
    with pytest.raises(OptionsError):
        set_option(options, "lions_seat", "2")
