"""«Шиш-беш»: every move button names a place the picture marks.

Each distinct landing place on offer gets a letter drawn on the board, and every button that goes
there names that letter; no two places share one.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import replace
from typing import Any

import pytest

from bot import drawing
from engines.shishbesh import ENGINE, PARK, PHASE_MOVE, ShishbeshOptions, ShishbeshState
from locales import Translator
from render.shishbesh import render_board
from render.shishbesh_geometry import piece_spot
from render.shishbesh_targets import offered
from tests.bot_harness import game_id_of, start_for_two, stored_state
from tests.drawn_words import drawn_words
from tests.engine_helpers import new_state
from tests.render_helpers import play_game
from tests.ui_helpers import button_labels, translator_fixture

translator = translator_fixture()
LABEL_KEYS = ("turn", "winner", "park", "hut", "jump", "targets")
NAMES = ["Аня", "Борис", "Вика", "Гриша"]
TARGET = re.compile(r"[→↷↶⤧] (\S+)")  # the letter a button names, after its arrow
MIN_CAP = 18  # px of a capital in the 1024-px picture (a phone shows it some 7 px tall)


def board_labels(translator: Translator, lang: str) -> dict[str, str]:
    return {key: translator.t(lang, f"board-{key}") for key in LABEL_KEYS}


def letters_drawn(state: ShishbeshState, labels: dict[str, str]) -> list[Any]:
    """The target letters the picture of ``state`` writes (words drawn that are one of the letters)."""
    letters = set(labels["targets"].split())
    with drawn_words() as words:
        render_board(state, NAMES[: state.seats], labels)
    return [w for w in words if w.text in letters]


@functools.cache
def choosing_states() -> list[ShishbeshState]:
    """States of seeded random games where the mover picks among moves, on both boards, 2–4 players."""
    out = []
    for board in ("standard", "long"):
        for seats in (2, 3, 4):
            game = play_game(ENGINE, ShishbeshOptions(board=board), seats, seats)
            out += [s for s, _ in game if s.phase == PHASE_MOVE and not s.finished][::9]
    return out


def check_buttons_against_picture(state: ShishbeshState, buttons: list[str], labels: dict[str, str]) -> None:
    """Each button's letter is drawn once, by the place its move lands on; different places, different letters."""
    drawn = letters_drawn(state, labels)
    assert min((w.cap_height for w in drawn), default=MIN_CAP) >= MIN_CAP
    texts = [w.text for w in drawn]
    assert len(texts) == len(set(texts)) == len(offered(state).targets), texts
    where = {w.text: w.xy for w in drawn}
    actions = ENGINE.legal_actions(state)
    place_of_letter: dict[str, tuple[tuple[int, int], int]] = {}
    for action, button in zip(actions, buttons, strict=True):
        match = TARGET.search(button)
        assert match, button
        letter = match.group(1)
        assert letter in where, (button, texts)
        piece, end = int(action.args["piece"]) - 1, int(action.args.get("to", 0))
        (x, y), size = piece_spot(state, state.turn, piece, end, action.args["effect"] == 2)
        assert math.dist(where[letter], (x, y)) <= size, (button, where[letter], (x, y))
        assert place_of_letter.setdefault(letter, ((x, y), size)) == ((x, y), size), button
    assert len(set(place_of_letter.values())) == len(place_of_letter)  # one letter, one place


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_button_names_a_letter_drawn_at_its_target(translator: Translator, lang: str) -> None:
    labels = board_labels(translator, lang)
    states = choosing_states()
    assert len(states) > 100
    for state in states:
        check_buttons_against_picture(state, button_labels(ENGINE, state, translator, lang), labels)


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_letter_is_big_enough_for_a_phone(translator: Translator, lang: str) -> None:
    # the most places seen on offer at once is 11; every letter of the alphabet keeps its full size
    letters = board_labels(translator, lang)["targets"].split()
    assert len(letters) >= 16
    with drawn_words() as words:
        for letter in letters:
            render_board(choosing_states()[0], NAMES, {**board_labels(translator, lang), "targets": letter})
    assert {w.text for w in words} >= set(letters)
    assert min(w.cap_height for w in words if w.text in letters) >= MIN_CAP


def test_two_pieces_landing_on_one_place_share_its_letter(translator: Translator) -> None:
    # pieces at 10 and 12, dice 4 and 2: both may land on 14 (and the 2 on 12 is blocked by the own piece)
    state = new_state(ENGINE, ShishbeshOptions(), 2, "ab" * 32, pieces=(10, 12) + (PARK,) * 6, turn=0,
                      phase=PHASE_MOVE, dice=(4, 2), rolled=(4, 2))
    buttons = button_labels(ENGINE, state, translator)
    assert buttons == ["[4] Фишка 1 → А", "[4] Фишка 2 → Б", "[2] Фишка 2 → А"]
    check_buttons_against_picture(state, buttons, board_labels(translator, "ru"))


def test_no_letters_while_the_mover_is_to_throw(translator: Translator) -> None:
    state = choosing_states()[0]
    assert letters_drawn(replace(state, phase="roll", dice=()), board_labels(translator, "ru")) == []


# ---------------------------------------------------------------- through the bot


pytestmark = pytest.mark.world(first_seed=21)  # group_world's arguments (tests/conftest.py)


async def test_the_bots_buttons_name_the_letters_on_the_picture_it_sent(world, monkeypatch,
                                                                        translator: Translator) -> None:
    """The table's move buttons and the picture drawn with them: every letter named is drawn."""
    drawn: list[tuple[ShishbeshState, dict[str, str]]] = []
    draw = drawing.Drawing.draw

    async def recording(self: Any, render: Any, *args: Any) -> bytes:
        if render is render_board:
            drawn.append((args[0], dict(args[2])))
        return await draw(self, render, *args)

    monkeypatch.setattr(drawing.Drawing, "draw", recording)
    _tg, runner, users = world
    table = await start_for_two(runner, users, "shishbesh")
    game_id = game_id_of(table)
    by_seat = [users["anya"], users["boris"]]
    choices = 0
    for _ in range(300):
        if not table.buttons or choices >= 6:
            break
        state = await stored_state(runner, ENGINE, game_id)
        labels = [label for label, _ in table.buttons]
        if state.phase == PHASE_MOVE and len(labels) > 1:
            shown, words = drawn[-1]
            assert shown == state
            check_buttons_against_picture(state, labels, words)
            assert labels == button_labels(ENGINE, state, translator)
            choices += 1
        await runner.press(by_seat[state.current_player], table, labels[-1])
    assert choices >= 6
