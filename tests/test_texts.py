"""Composing HTML: a value is escaped once on its way into a message, whatever it passes through, and
a caption is measured as Telegram measures it; a person's name is cleaned by one function."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from bot.games.common import Tr, html_words
from bot.store import Seat
from bot.texts import (
    CAPTION_LIMIT,
    NAME_LIMIT,
    clean_name,
    display_name,
    fit_caption,
    mention,
    seat_names,
    shown_name,
    visible_length,
)
from locales import Translator

# what a hostile name is made of, drawn often: controls, bidi overrides and isolates, zero-width
# characters, whitespace of every kind, the Hangul filler, combining marks, a lone surrogate, emoji
TRICKY = ("\x00", "\n", "\t", "\r", "\x1f", "\x85", "\u00a0", "\u00ad", "\u061c", "\u200b", "\u200c", "\u200d",
          "\u200e", "\u2028", "\u202a", "\u202e", "\u2066", "\u2069", "\u3000", "\u3164", "\u2800", "\ufeff",
          "\ud800", "\u0301", "e", " ", "А", "…", "🤖", "\U000e0067")
TRANSLATOR = Translator.load()


def words_of(lang: str) -> Tr:
    return lambda key, /, **args: TRANSLATOR.t(lang, key, **args)


RU = words_of("ru")
NAMES = st.text(st.one_of(st.characters(exclude_categories=()), st.sampled_from(TRICKY)), max_size=80)


def words(key: str, /, **args: object) -> str:
    """A catalogue of one message, with markup of its own: «<b>{name}</b> and {rest}»."""
    return f"<b>{args['name']}</b> and {args.get('rest', '')}"


def test_a_name_is_escaped_once_however_often_it_is_put_into_a_message() -> None:
    html = html_words(words)
    inner = html("line", name="Tom & Jerry")
    assert inner == "<b>Tom &amp; Jerry</b> and "
    outer = html("line", name="<b>Босс</b>", rest=inner)  # the inner line is markup already: kept as it is
    assert outer == "<b>&lt;b&gt;Босс&lt;/b&gt;</b> and <b>Tom &amp; Jerry</b> and "
    assert Markup("; ").join([inner, "a & b"]) == "<b>Tom &amp; Jerry</b> and ; a &amp; b"


def test_a_mention_links_people_and_escapes_every_name() -> None:
    assert mention(7, '"Q" <q@x>') == '<a href="tg://user?id=7">&#34;Q&#34; &lt;q@x&gt;</a>'
    assert mention(-1, "🤖 Tom & Jerry") == "🤖 Tom &amp; Jerry"  # a computer player has no account to link


def test_a_caption_is_measured_in_utf16_units_after_entities_as_telegram_does() -> None:
    assert visible_length("<b>Tom &amp; Jerry</b>") == len("Tom & Jerry")
    assert visible_length("🤖🎲") == 4  # outside the basic plane: two units each
    line = Markup("🤖 " * 100)  # 200 code points, 300 units: four lines fit 1024 code points, not 1024 units
    caption = fit_caption([Markup("head")], [line] * 4, [Markup("tail")])
    assert visible_length(caption) <= CAPTION_LIMIT and caption.count("🤖") == 300  # the oldest line went
    cut = fit_caption([Markup("🤖") * 600], [], [])  # nothing to drop: cut, still within the limit
    assert visible_length(cut) <= CAPTION_LIMIT and cut.endswith("…")


@pytest.mark.parametrize(("name", "shown"), [
    ("\u202eАня", "Аня"), ("Б\u200bорис", "Борис"), ("Вера\u0000", "Вера"),  # bidi override, zero width, NUL
    ("\u200b\u200c\u200d", ""), ("\u2066\u2067\u2069", ""), ("\n\t", ""), ("\u3164", ""),  # nothing left
    ("  Анна\nМария\u2028 ", "Анна Мария"), ("Зое\u0308", "Зоё"),  # whitespace runs one space; NFC
    ("Я" * 40, "Я" * (NAME_LIMIT - 1) + "…"), ("Я" * 30 + " ЮЮ", "Я" * 30 + "…"),  # no space before the «…»
])
def test_a_name_is_cleaned_of_controls_and_format_characters(name: str, shown: str) -> None:
    assert clean_name(name) == shown
    assert display_name(name, "\u202e") == shown  # the last name as well


@settings(max_examples=500, deadline=None)
@given(NAMES, st.integers(0, 7))
@example("e\u0301 \u202e", 0)  # composed, and a mark of its own
def test_a_cleaned_name_is_printable_trimmed_short_and_stays_as_it_is(name: str, seat: int) -> None:
    clean = clean_name(name)
    assert not [c for c in clean if unicodedata.category(c) in ("Cc", "Cf", "Cs")]
    assert clean == clean.strip() and "  " not in clean and all(c == " " or not c.isspace() for c in clean)
    assert len(clean) <= NAME_LIMIT and unicodedata.is_normalized("NFC", clean)
    assert clean_name(clean) == clean  # idempotent: a name stored clean is shown as it is
    assert shown_name(name, RU, seat) == (clean or f"Игрок {seat + 1}")  # never empty, with the seat's fallback


def test_a_name_nothing_is_left_of_is_its_seat_in_the_chats_language_or_its_id() -> None:
    en = words_of("en")
    seats = [Seat(0, 7, "\u202eАня"), Seat(1, 8, "\u200b\u200d"), Seat(2, -1, "🤖 Кеша")]
    assert seat_names(seats, RU) == ["Аня", "Игрок 2", "🤖 Кеша"]
    assert seat_names(seats, en) == ["Аня", "Player 2", "🤖 Кеша"]
    left = Seat(1, -2, "🤖 Игрок 2", left_user_id=8, left_name="\n", left_at=5)
    assert seat_names([seats[0], left], RU, at=4) == ["Аня", "Игрок 2"]  # the person's moves, before the computer's
    assert shown_name("\u2066", RU, user_id=123456789) == "Игрок 6789"  # no seat: the end of the id, not «6 789»
