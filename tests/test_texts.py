"""Composing HTML: a value is escaped once on its way into a message, whatever it passes through, and
a caption is measured as Telegram measures it."""

from __future__ import annotations

from markupsafe import Markup

from bot.games.common import html_words
from bot.texts import CAPTION_LIMIT, fit_caption, mention, visible_length


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
