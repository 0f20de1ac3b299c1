"""Rule 8's option ``quiet_draw`` (docs/rules/lions.md, «End»): that many turns in a
row without a capture draw the game whatever the piece count, 0 («выкл») turns it off; the text's 60 turns
at two pieces or fewer stay. Engine, /set, the lobby, the status and the result in words."""

from __future__ import annotations

import pytest

from bot import texts
from bot.games.common import html_words, set_option
from bot.games.lions import UI
from engines.base import Event, OptionsError
from engines.lions import ENGINE, LIONS, LionsOptions, LionsState
from engines.lions_board import INDEX
from tests.engine_helpers import new_state
from tests.ui_helpers import NAMES, tr_fixture, translate, translator_fixture

translator = translator_fixture()
tr = tr_fixture()
ALL_SIX = (("1", "2", "3", "4", "5", "6"), ("А", "Б", "В", "Г", "Д", "Е"))


def game(lions: tuple[str, ...] = ALL_SIX[0], hunters: tuple[str, ...] = ALL_SIX[1], quiet: int = 0,
         **options: int) -> LionsState:
    """The lions (seat 0) to move, ``quiet`` turns without a capture behind them."""
    return new_state(ENGINE, LionsOptions(**options), 2, "cd" * 32, lions=tuple(sorted(INDEX[x] for x in lions)),
                     hunters=tuple(sorted(INDEX[x] for x in hunters)), turn=0, quiet=quiet)


def one_quiet_turn(state: LionsState) -> tuple[LionsState, list[Event]]:
    """Lion 1 steps to +2 and back is not allowed, so: 1 → +2, «Готово» (nothing is near to take)."""
    events: list[Event] = []
    for code in (f"p{INDEX['1']}", f"s{INDEX['+2']}", "d"):
        state, more, _ = ENGINE.apply(state, code)
        events += more
    return state, events


def test_the_default_is_a_hundred_turns() -> None:
    assert LionsOptions().quiet_draw == 100
    assert LionsOptions.from_json({"lions_seat": 1}).quiet_draw == 100  # a game stored before the option


def test_a_hundred_quiet_turns_draw_with_every_piece_on_the_board(tr) -> None:
    state, events = one_quiet_turn(game(quiet=99))
    assert state.finished and state.winner is None and state.end == "quiet" and state.quiet == 100
    assert events[-1] == Event("draw_quiet", data={"turns": 100})
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.kind == "draw"
    assert UI.result_lines(state, outcome, NAMES, tr) == ["🤝 Ничья: 100 ходов подряд без взятий."]


def test_one_turn_short_plays_on() -> None:
    state, _ = one_quiet_turn(game(quiet=98))
    assert not state.finished and state.quiet == 99 and state.side != LIONS


def test_off_never_draws_with_three_pieces_or_more() -> None:
    state, _ = one_quiet_turn(game(quiet=5000, quiet_draw=0))
    assert not state.finished and state.quiet == 5001


def test_off_keeps_the_texts_sixty_turns_at_two_pieces() -> None:
    state, _ = one_quiet_turn(game(lions=("1", "2"), quiet=59, quiet_draw=0))
    assert state.finished and state.end == "quiet" and state.quiet == 60


@pytest.mark.parametrize(("setting", "pieces", "draws_at"), [
    (30, ALL_SIX[0], 30),  # a shorter standoff limit, set in the lobby
    (30, ("1", "2"), 30),  # below the text's 60: the sooner of the two
    (200, ("1", "2"), 60),  # the text's 60 at two pieces stays whatever the option
    (200, ALL_SIX[0], 200),
])
def test_the_sooner_limit_ends_the_game(setting: int, pieces: tuple[str, ...], draws_at: int) -> None:
    assert not one_quiet_turn(game(lions=pieces, quiet=draws_at - 2, quiet_draw=setting))[0].finished
    state, _ = one_quiet_turn(game(lions=pieces, quiet=draws_at - 1, quiet_draw=setting))
    assert state.finished and state.quiet == draws_at


def test_a_capture_resets_the_count() -> None:
    state = new_state(ENGINE, LionsOptions(), 2, "ef" * 32, lions=(INDEX["+7"], INDEX["1"], INDEX["2"]),
                      hunters=(INDEX["+5"], INDEX["А"], INDEX["Б"]), turn=1, quiet=99)
    for code in (f"p{INDEX['+5']}", f"s{INDEX['+4']}", "d"):  # a hunter on +4 takes the lion on +7 (example 1)
        state, _, _ = ENGINE.apply(state, code)
    assert not state.finished and state.quiet == 0 and len(state.lions) == 2


@pytest.mark.parametrize("value", [0, 10, 100, 999])
def test_values_it_takes(value: int) -> None:
    LionsOptions(quiet_draw=value).validate(2)


@pytest.mark.parametrize("value", [-1, 1, 9, 1000, True, "100"])
def test_values_it_refuses(value: object) -> None:
    with pytest.raises(OptionsError) as err:
        LionsOptions(quiet_draw=value).validate(2)  # type: ignore[arg-type]
    assert err.value.key == "quiet_draw" and err.value.limits == {"min": 10, "max": 999, "off": 0}


@pytest.mark.parametrize(("typed", "value"), [("выкл", 0), ("off", 0), ("нет", 0), ("0", 0), ("50", 50),
                                              (" 250 ", 250)])
def test_set_takes_a_number_or_off(typed: str, value: int) -> None:
    assert set_option(LionsOptions(), "quiet_draw", typed).quiet_draw == value


@pytest.mark.parametrize("typed", ["5", "1000", "вкл", "много", "-3"])
def test_set_refuses_in_words(translator, typed: str) -> None:
    with pytest.raises(OptionsError) as err:
        set_option(LionsOptions(), "quiet_draw", typed)
    assert texts.option_error(err.value, "lions", LionsOptions(), translate(translator, "ru")) == (
        "Ничья без взятий: от 10 до 999 или «выкл»")
    assert texts.option_error(err.value, "lions", LionsOptions(), translate(translator, "en")) == (
        "Draw without captures: 10 to 999, or “off”")


def test_off_is_only_for_an_option_that_has_it() -> None:
    from bot.games import GAMES
    with pytest.raises(OptionsError):  # «Фишки» of «Соседи» is a number with no «off»
        set_option(GAMES["sosedi"].engine.options_from_json(None), "chips", "выкл")


def test_the_lobby_says_the_setting(tr) -> None:
    assert UI.lobby_lines(LionsOptions(), 1, tr)[0] == "🤝 Ничья после 100 ходов подряд без взятий"
    assert UI.lobby_lines(LionsOptions(quiet_draw=21), 1, tr)[0] == "🤝 Ничья после 21 хода подряд без взятий"
    assert UI.lobby_lines(LionsOptions(quiet_draw=0), 1, tr)[0] == (
        "🤝 Ничьей по затишью нет, только при двух фигурах и меньше")


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("quiet_draw", [100, 21, 0])
def test_no_player_sees_the_options_internal_name(translator, lang: str, quiet_draw: int) -> None:
    """The lobby, its buttons and /rules speak of the standoff draw in words, never as «/set quiet_draw»."""
    words = translate(translator, lang)
    options = LionsOptions(quiet_draw=quiet_draw)
    shown = [*UI.lobby_lines(options, 1, html_words(words)), *(b.text for row in UI.lobby_buttons(options, 1, words)
                                                                for b in row), words("rules-lions")]
    assert not [text for text in shown if "quiet_draw" in text or "/set" in text]


def test_a_lobby_button_shows_the_standoff_draw_and_switches_it_off_and_back_on(tr) -> None:
    options = LionsOptions(quiet_draw=21)  # set by /set: the button shows it, and a press goes back to the default
    for label, value in (("Ничья без взятий: 21", 100), ("Ничья без взятий: 100", 0),
                         ("Ничья без взятий: выкл", 100)):
        (button,) = UI.lobby_buttons(options, 2, tr)[-1]
        assert button.text == label
        options = set_option(options, button.key, button.value)
        assert options.quiet_draw == value


def test_the_status_counts_once_the_draw_nears(tr) -> None:
    assert not any("без взятий" in line for line in UI.status_lines(game(quiet=49), NAMES, tr))
    assert UI.status_lines(game(quiet=50), NAMES, tr)[-1] == "Ходов без взятий: 50 из 100"
    assert UI.status_lines(game(lions=("1", "2"), quiet=3), NAMES, tr)[-1] == "Ходов без взятий: 3 из 60"
    assert not any("без взятий" in line for line in UI.status_lines(game(quiet=900, quiet_draw=0), NAMES, tr))
