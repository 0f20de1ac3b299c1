"""The project carries its own rules: docs/rules/<code>.md for every game, listed
in docs/rules/README.md, each saying word for word what the in-bot /rules says (in both languages) and
what the engine's docstring states (its numbered rules and the points it settled)."""

from __future__ import annotations

import re
from dataclasses import fields

import pytest

from bot.games import GAMES
from locales import SUPPORTED, Translator
from tests.docs_rules import DOCS, END, engine_rules, markdown, rules_section, stale

TR = Translator.load(strict=True, extra=GAMES.locale_files())
FIX = "docs/rules differ from the bot: run .venv/bin/python -m tests.docs_rules --write"


def test_every_game_has_its_rules_and_the_index_lists_them() -> None:
    index = (DOCS / "README.md").read_text(encoding="utf-8")
    assert set(re.findall(r"\]\((\w+)\.md\)", index)) == set(GAMES)
    assert {path.stem for path in DOCS.glob("*.md")} == {*GAMES, "README"}


def test_every_doc_says_what_the_bot_says() -> None:
    assert stale(TR) == [], FIX


@pytest.mark.parametrize("code", sorted(GAMES))
def test_every_line_of_rules_and_every_settled_point_is_in_the_doc(code: str) -> None:
    """Line by line, so a failure names what is missing (the whole-section check above says the same)."""
    doc = (DOCS / f"{code}.md").read_text(encoding="utf-8")
    for lang in SUPPORTED:
        for line in markdown(TR.t(lang, f"rules-{code}")).split("\n"):
            assert line in doc, (lang, line, FIX)
    rules = engine_rules(code)
    assert rules.startswith("1. ") and "Settled here where the texts are silent:" in rules
    for line in rules.split("\n"):
        assert line in doc, (line, FIX)
    assert doc.index(rules_section(TR, code)) < doc.index("## The rules in full") > doc.index(END)


def test_the_markdown_of_a_rules_text() -> None:
    text = "<b>Игра</b> — двое.\nПервый абзац &lt;1&gt;.\n• раз;\n• два.\nПосле."
    assert markdown(text) == "**Игра** — двое.\n\nПервый абзац <1>.\n\n- раз;\n- два.\n\nПосле."


@pytest.mark.parametrize("code", sorted(GAMES))
def test_every_option_the_full_rules_name_is_one_the_engine_has(code: str) -> None:
    doc = (DOCS / f"{code}.md").read_text(encoding="utf-8")
    named = set(re.findall(r"[Oo]ptions? `(\w+)", doc[doc.index("## The rules in full"):]))
    assert named <= {f.name for f in fields(GAMES[code].engine.options_from_json(None))}
