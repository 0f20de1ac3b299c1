"""«Башня» has a title card of its own: a tower of beer coasters, not the classic card's chips and bowl; a
lobby set to the tower gets it, with a line under the name that speaks of coasters and fits the card as
every game's line does (tests/test_cover_texts.py)."""

from __future__ import annotations

import itertools
import pickle

import pytest

from bot.games import GAMES
from bot.games.sosedi import SPEC
from engines.sosedi import MODES, SosediOptions
from locales import SUPPORTED, Translator
from render import covers
from render.cover import ART_BOX, W, render_cover
from render.typeset import READABLE, clean_text
from tests.cover_helpers import FELT_BOTTOM, MARGIN, card, differ, drawn_words
from tests.ui_helpers import translator_fixture

translator = translator_fixture()
VARIANT_CARDS = [(code, variant) for code, spec in GAMES.items() for variant in spec.variant_covers]


@pytest.mark.parametrize("mode", MODES)
def test_a_tower_lobby_gets_the_tower_card_the_others_the_games(mode: str) -> None:
    art, tagline = SPEC.cover(SosediOptions(mode=mode))
    if mode == "tower":
        assert (art, tagline) == (covers.sosedi_tower_art, "game-sosedi-tagline-tower")
    else:
        assert (art, tagline) == (covers.sosedi_art, "game-sosedi-tagline")


def test_the_tower_card_is_a_picture_of_its_own() -> None:
    tower = card(render_cover("Игра", "строка", covers.sosedi_tower_art))
    for code, spec in GAMES.items():  # the classic card above all: chips and a bowl
        assert differ(tower, card(render_cover("Игра", "строка", spec.cover_art))) > 0.05, code


def test_the_tower_card_travels_to_a_drawing_process() -> None:
    """bot/drawing.py pickles (render, args): the art must be a module-level function."""
    for _code, variant in VARIANT_CARDS:
        art = SPEC.variant_covers[variant]
        assert pickle.loads(pickle.dumps(art)) is art


def test_the_tower_card_speaks_of_coasters(translator: Translator) -> None:
    assert VARIANT_CARDS == [("sosedi", "tower")]
    assert "подставки" in translator.t("ru", "game-sosedi-tagline-tower")
    assert "coasters" in translator.t("en", "game-sosedi-tagline-tower")
    assert not any(word in translator.t(lang, "game-sosedi-tagline-tower").casefold()
                   for lang in SUPPORTED for word in ("фишк", "чаш", "chip", "bowl"))


@pytest.mark.parametrize("lang", SUPPORTED)
@pytest.mark.parametrize(("code", "variant"), VARIANT_CARDS)
def test_a_variant_cards_words_fit_whole(monkeypatch: pytest.MonkeyPatch, translator: Translator, code: str,
                                         variant: str, lang: str) -> None:
    """As tests/test_cover_texts.py measures every game's card: whole, inside the felt, readable, apart."""
    title, subtitle = translator.t(lang, f"game-{code}"), translator.t(lang, f"game-{code}-tagline-{variant}")
    head, *lines = drawn_words(monkeypatch, title, subtitle)
    assert head.text == clean_text(title, True)
    words = [line.text for line in lines]
    assert clean_text(subtitle) in (" ".join(words), " · ".join(words)) and len(words) <= 2, words
    boxes = [d.box for d in (head, *lines)]
    for drawn, (left, _top, right, _bottom) in zip((head, *lines), boxes, strict=True):
        assert left >= MARGIN and right <= W - MARGIN and drawn.fnt.size >= READABLE, drawn.text
    assert boxes[0][1] >= ART_BOX[3] - 4 and boxes[-1][3] <= FELT_BOTTOM - 10
    assert all(upper[3] <= lower[1] for upper, lower in itertools.pairwise(boxes))
