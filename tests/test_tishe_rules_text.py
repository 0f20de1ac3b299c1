"""«Тише едешь», rule 8 as settled (docs/rules/tishe.md): a double throws again even when it
could not be played (nothing on the board and no 6). The engine does it, and the in-bot /rules
says so in both languages."""

from __future__ import annotations

import pytest

from engines.base import Event
from engines.tishe import ENGINE, TisheOptions
from locales import Translator
from tests.engine_helpers import apply_throw, new_state
from tests.tishe_steps import ROLL

# the clause of /rules that says it, as the players read it
UNPLAYABLE_DOUBLE = {
    "ru": "Дубль на костях — бросок ещё раз, даже если ходить было нечем (на поле нет фишек и нет шестёрки)",
    "en": "A double on the dice rolls again, even when it could not be played (nothing on the board and no 6)",
}


@pytest.mark.parametrize("dice", [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
def test_an_unplayable_double_throws_again(dice: tuple[int, int]) -> None:
    state = new_state(ENGINE, TisheOptions(), 3, turn=1)  # nobody has a checker on the board
    after, events, _ = apply_throw(ENGINE, state, dice)
    assert events == [Event("roll", seat=1, data={"dice": list(dice)}), Event("no_move", seat=1),
                      Event("again", seat=1)]
    assert after.turn == 1 and after.checkers == state.checkers and ENGINE.legal_actions(after) == [ROLL]


@pytest.mark.parametrize("lang", sorted(UNPLAYABLE_DOUBLE))
def test_the_rules_text_says_an_unplayable_double_throws_again(lang: str) -> None:
    text = Translator.load(strict=True).t(lang, "rules-tishe")
    assert UNPLAYABLE_DOUBLE[lang] in " ".join(text.split())
