"""Every title card's words fit the card (the lions' subtitle was cut inside the picture, «2 игрока (или
про…»): the title and the subtitle of each game, in both languages, as the card draws them, measured in the
font they are drawn in: whole (no «…»), inside the felt with a margin, readable on a phone, below the
picture and clear of each other and of the rim."""

from __future__ import annotations

import itertools

import pytest

from bot.games import GAMES
from locales import SUPPORTED, Translator
from render.cover import ART_BOX, W
from render.typeset import READABLE, clean_text
from tests.cover_helpers import FELT_BOTTOM, MARGIN, drawn_words
from tests.ui_helpers import translator_fixture

translator = translator_fixture()


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize("code", list(GAMES))
def test_every_title_cards_words_fit_whole(monkeypatch: pytest.MonkeyPatch, translator: Translator, code: str,
                                           lang: str) -> None:
    title, subtitle = translator.t(lang, f"game-{code}"), translator.t(lang, f"game-{code}-tagline")
    head, *lines = drawn_words(monkeypatch, title, subtitle)
    assert head.text == clean_text(title, True)  # whole: nothing cut with «…»
    words = [line.text for line in lines]  # whole too, on one line or two (broken at « · » or a space)
    assert clean_text(subtitle) in (" ".join(words), " · ".join(words)) and len(words) <= 2, words
    boxes = [d.box for d in (head, *lines)]
    for drawn, (left, _top, right, _bottom) in zip((head, *lines), boxes, strict=True):
        assert left >= MARGIN and right <= W - MARGIN, drawn.text
        assert drawn.fnt.size >= READABLE, drawn.text  # 24 px of 1024 are 9 px on a 390-px phone
    assert boxes[0][1] >= ART_BOX[3] - 4 and boxes[-1][3] <= FELT_BOTTOM - 10  # under the picture, above the rim
    assert all(upper[3] <= lower[1] for upper, lower in itertools.pairwise(boxes))  # none over another


def test_a_long_subtitle_goes_on_two_lines_at_its_dot(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lions' subtitle: two lines, broken at its « · », rather than one line cut short."""
    drawn = drawn_words(monkeypatch, "Охота на львов", "Львы против охотников, поле из кругов и линий, без костей "
                                                       "· 2 игрока (или против бота)")
    assert [d.text for d in drawn[1:]] == ["Львы против охотников, поле из кругов и линий, без костей",
                                           "2 игрока (или против бота)"]
