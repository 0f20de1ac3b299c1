"""Every inline button the bot draws fits a 390-px phone without being cut («Поле → длинное п…»): each
label, measured as bot/phone.py says (the playground's layout at 390 px, in DejaVu Sans standing in for
the page's system font, an emoji one wide glyph), against the room a button gets in its row there. Every
keyboard of every game in both languages: the lobby of each game and variant with every number of
people and computers and every table setting, the table over random games (the confirmation rows and
«⏭ Пропустить игрока» included), the result buttons, the game picker, every /settings menu and /start's."""

from __future__ import annotations

import contextlib
import itertools
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot import texts
from bot.flow.context import PACE_CHOICES, PING_CHOICES, TIMER_CHOICES, Chat, ChatSettings, Game
from bot.flow.settings_menu import SettingsMenu
from bot.flow.table_settings import TableSettings
from bot.games import GAMES, GameSpec
from bot.games.common import html_words, set_option
from bot.phone import fits, label_width, room
from bot.store import GameRow, Seat
from bot.zones import ZONE_CHOICES
from engines.base import LEVELS, OptionsError
from locales import SUPPORTED, Translator
from tests.ui_helpers import translate, translator_fixture

translator = translator_fixture()
Keyboard = InlineKeyboardMarkup | None
PLAYOUT = 300  # actions of each random game whose keyboards are measured


def cut(keyboard: Keyboard) -> Iterator[str]:
    """Each label of ``keyboard`` that a 390-px phone cuts, with its width and the room it has."""
    for row in keyboard.inline_keyboard if keyboard is not None else ():
        for button in row:
            if (width := label_width(button.text)) > room(len(row)):
                yield f"{button.text!r} in a row of {len(row)}: {width:.0f} px > {room(len(row)):.0f} px"


def assert_fit(keyboards: Iterator[Keyboard]) -> None:
    too_wide = sorted({label for keyboard in keyboards for label in cut(keyboard)})
    assert not too_wide, "\n".join(too_wide)


def row_of(spec: GameSpec[Any, Any], options: Any, seats: Sequence[Seat], state: Any = None,
           timeouts: dict[str, int] | None = None) -> GameRow:
    return GameRow(id=12345, chat_id=-100123, code=spec.code, options=options.to_json(), seed="ab" * 32,
                   state=None, version=state.version if state is not None else 0, shown_version=0,
                   status="running" if state is not None else "lobby", host_id=1, message_id=7, result=None,
                   seats=tuple(seats), timeouts=timeouts or {})


def seatings(spec: GameSpec[Any, Any]) -> Iterator[list[Seat]]:
    """Every lobby: from the host alone to a full table, with none to all but the host computers."""
    for count in range(1, spec.engine.max_players + 1):
        for bots in range(count if spec.policy is not None else 1):
            people = count - bots
            yield [Seat(i, i + 1, f"Игрок {i}") if i < people else Seat(i, -(i - people + 1), "🤖 Кеша")
                   for i in range(count)]


def lobby_options(spec: GameSpec[Any, Any], tr: Any) -> list[Any]:
    """Every set of options a lobby's own buttons reach, from each variant's."""
    found: list[Any] = []
    todo = [spec.engine.options_from_json(v.options) for v in spec.variants]
    while todo:
        options = todo.pop()
        if options in found:
            continue
        found.append(options)
        for seats in range(1, spec.engine.max_players + 1):
            for row in spec.ui.lobby_buttons(options, seats, tr):
                for button in row:
                    with contextlib.suppress(OptionsError):  # a step past the range is not offered
                        todo.append(set_option(options, button.key, button.value))
    return found


def tables() -> Iterator[TableSettings]:
    """Every choice of the lobby's ⏱, 🔔, 🎲 Стол and 🤖 Уровень, each at least once."""
    for i in range(max(len(TIMER_CHOICES), len(PING_CHOICES), len(PACE_CHOICES), len(LEVELS))):
        yield TableSettings(TIMER_CHOICES[i % len(TIMER_CHOICES)], PING_CHOICES[i % len(PING_CHOICES)],
                            LEVELS[i % len(LEVELS)], PACE_CHOICES[i % len(PACE_CHOICES)])


def lobby_keyboards(spec: GameSpec[Any, Any], tr: Any) -> Iterator[Keyboard]:
    """Each variant's lobby with every seating and every table choice; every other set of options its
    buttons reach with the seatings and the table's choices taking turns."""
    sittings, choices = list(seatings(spec)), list(tables())
    variants = [spec.engine.options_from_json(v.options) for v in spec.variants]
    shown = [*itertools.product(variants, sittings, choices),
             *((options, sittings[i % len(sittings)], choices[i % len(choices)])
               for i, options in enumerate(lobby_options(spec, tr)))]
    for options, seats, table in shown:
        yield texts.lobby_keyboard(Game(row_of(spec, options, seats), spec, options, None), tr, table)


def table_keyboards(spec: GameSpec[Any, Any], tr: Any) -> Iterator[Keyboard]:
    """The table's keyboards over a random game of each variant, for the fewest and the most players:
    the moves, «⏭ Пропустить игрока», each question a move asks first, and the result's buttons."""
    engine = spec.engine
    for variant, count in itertools.product(spec.variants, sorted({engine.min_players, engine.max_players})):
        options = engine.options_from_json(variant.options)
        seats = [Seat(i, i + 1, f"Игрок {i}") for i in range(count)]
        state, _ = engine.new_game(options, count, "cd" * 32)
        rng = random.Random(f"{spec.code}{variant.name}{count}")
        for _ in range(PLAYOUT):
            timeouts = {str(state.current_player): 1} if state.current_player is not None else {}
            game = Game(row_of(spec, options, seats, state, timeouts), spec, options, state)
            yield texts.table_keyboard(game, tr)
            actions = engine.legal_actions(state)
            for action in actions:
                if action.kind in spec.confirm:
                    yield texts.confirm_keyboard(game, tr, action.code, action.kind)
            if not actions:
                yield texts.result_keyboard(game, tr)
                break
            state, _, _ = engine.apply(state, rng.choice([a for a in actions if a.kind not in spec.random_skips]
                                                         or actions).code)


class Clock:
    """The store a settings menu asks the time of (the zones' offsets)."""

    def clock(self) -> float:
        return 1_750_000_000.0


class Words:
    """The loader a settings menu asks the other language's words of."""

    def __init__(self, translator: Translator) -> None:
        self.translator = translator

    def words(self, lang: str) -> Any:
        return translate(self.translator, lang)


def settings_keyboards(translator: Translator, lang: str) -> Iterator[Keyboard]:
    """/settings with every choice of each setting, and each game's every variant as the default."""
    menu = SettingsMenu(Clock(), GAMES, Words(translator), None)  # type: ignore[arg-type]
    tr = translate(translator, lang)
    variants = {code: [getattr(o, spec.variant_option) for o in lobby_options(spec, tr)]
                for code, spec in GAMES.items() if spec.variant_option is not None}
    for i in range(max(len(ZONE_CHOICES), *(len(v) for v in variants.values()))):
        defaults = {code: {GAMES[code].variant_option: values[i % len(values)]} for code, values in variants.items()}
        settings = ChatSettings(turn_timer=TIMER_CHOICES[i % len(TIMER_CHOICES)], pace=PACE_CHOICES[i % 2],
                                ping=PING_CHOICES[i % len(PING_CHOICES)], tidy=bool(i % 2),
                                time_zone=ZONE_CHOICES[i % len(ZONE_CHOICES)],
                                defaults=defaults)
        yield menu.view(Chat(-100123, lang, settings, tr, html_words(tr)))[1]


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("code", list(GAMES))
def test_every_lobby_button_fits_a_phone(translator: Translator, code: str, lang: str) -> None:
    spec, tr = GAMES[code], translate(translator, lang)
    assert_fit(lobby_keyboards(spec, tr))
    for options in lobby_options(spec, tr):  # the game's rows fit as the game lays them out, none split
        for row in spec.ui.lobby_buttons(options, spec.engine.max_players, tr):
            assert fits([b.text for b in row]), [b.text for b in row]


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("code", list(GAMES))
def test_every_table_button_fits_a_phone(translator: Translator, code: str, lang: str) -> None:
    assert_fit(table_keyboards(GAMES[code], translate(translator, lang)))


@pytest.mark.parametrize("lang", SUPPORTED)
def test_every_settings_button_the_picker_and_start_fit_a_phone(translator: Translator, lang: str) -> None:
    tr = translate(translator, lang)
    assert_fit(settings_keyboards(translator, lang))
    assert_fit(iter([texts.picker_keyboard(GAMES, tr)]))
    add_to_group = InlineKeyboardButton(tr("btn-add-to-group"), url="https://t.me/SosediBot?startgroup=1")
    assert_fit(iter([InlineKeyboardMarkup([[add_to_group]])]))  # /start in a private chat


def test_the_measure_tells_a_cut_label() -> None:
    """The measure itself: the labels players saw cut at 390 px are too wide for their rows, a short one fits."""
    assert label_width("Поле → длинное поле") > room(2)
    assert label_width("🤝 Предложить ничью") > room(2)
    assert label_width("Тише едешь — дальше будешь → обе фишки до 100") > room(1)
    assert label_width("✋ Играю") < room(2)
    assert label_width("🎲") == label_width("🎲\ufe0f") > label_width("a")  # an emoji is one wide glyph
