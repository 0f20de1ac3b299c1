"""docs/rules/<code>.md carry the in-bot /rules word for word: the part between the markers is made
from the `rules-<code>` texts of locales/{ru,en}/<code>.ftl, the rest of each file is written by
hand (the rules in full, as the engine plays them). The index docs/rules/README.md lists the games.

After changing a /rules text: ``.venv/bin/python -m tests.docs_rules --write`` (tests/test_docs_rules.py
fails until the docs say what the bot says).
"""

from __future__ import annotations

import argparse
import html
import importlib
import re
import sys
from pathlib import Path

from bot.games import GAMES
from locales import SUPPORTED, Translator

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
BEGIN = ("<!-- begin /rules: made by `python -m tests.docs_rules --write` from locales/*/{code}.ftl and the "
         "docstring of engines/{code}.py; do not edit by hand -->")
END = "<!-- end /rules -->"
HEADINGS = {"ru": "## В боте: /rules", "en": "## In the bot: /rules (English)"}
ENGINE_HEADING = "## As the engine plays it (`engines/{code}.py`)"


def markdown(text: str) -> str:
    """A /rules text (Telegram HTML, one paragraph or «•» point a line) as Markdown."""
    out, after_point = "", False
    for raw in text.strip().splitlines():
        line = html.unescape(re.sub(r"</?b>", "**", raw.strip()))
        if not line:
            continue
        point = line.startswith("• ")
        if out:
            out += "\n" if point and after_point else "\n\n"  # the points of one list stay together
        out += "- " + line[2:] if point else line
        after_point = point
    return out


def engine_rules(code: str) -> str:
    """The engine's module docstring from its first numbered rule on (the rules, options and the points
    it settled) as Markdown: numbered rules (and their 3.1, 3.2 …) a list, other lines paragraphs, each
    reflowed to one line."""
    doc = importlib.import_module(f"engines.{code}").__doc__ or ""
    blocks: list[tuple[str, list[str]]] = []  # ("rule" | "part" | "text", its lines)
    ended = True
    for line in doc[doc.index("\n1. ") + 1:].splitlines():
        kind = "rule" if re.match(r"\d+\. ", line) else "part" if re.match(r"\s+\d+\.\d+ ", line) else "text"
        if not line.strip():
            ended = True
        elif kind != "text" or (not line[0].isspace() and (ended or blocks[-1][0] != "text")):
            blocks.append((kind, [line.strip()]))
            ended = False
        else:
            blocks[-1][1].append(line.strip())
    out = ""
    for i, (kind, block) in enumerate(blocks):
        if out:
            out += "\n\n" if "text" in (kind, blocks[i - 1][0]) else "\n"
        out += ("   - " if kind == "part" else "") + " ".join(block)
    return re.sub(r"(?::\w+:)?``?([^`]+)``?", r"`\1`", out)  # RST's ``code`` and :data:`NAME` as Markdown


def rules_section(tr: Translator, code: str) -> str:
    """The generated part of docs/rules/<code>.md, markers included."""
    parts = [BEGIN.format(code=code)]
    for lang in SUPPORTED:
        parts += [HEADINGS[lang], markdown(tr.t(lang, f"rules-{code}"))]
    parts += [ENGINE_HEADING.format(code=code), engine_rules(code)]
    return "\n\n".join([*parts, END])


def with_rules(doc: str, section: str) -> str:
    """``doc`` with its generated part replaced by ``section``."""
    start, end = doc.index("<!-- begin /rules"), doc.index(END) + len(END)
    return doc[:start] + section + doc[end:]


def stale(tr: Translator) -> list[str]:
    """The game docs whose /rules part is not what the bot says."""
    out = []
    for code in GAMES:
        path = DOCS / f"{code}.md"
        if not path.exists() or with_rules(path.read_text(encoding="utf-8"), rules_section(tr, code)) != (
                path.read_text(encoding="utf-8")):
            out.append(code)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.docs_rules", description=__doc__)
    parser.add_argument("--write", action="store_true", help="rewrite the /rules part of every game's doc")
    args = parser.parse_args(argv)
    tr = Translator.load(strict=True, extra=GAMES.locale_files())
    if not args.write:
        print("\n".join(stale(tr)) or "docs/rules say what /rules says")
        return 1 if stale(tr) else 0
    for code in GAMES:
        path = DOCS / f"{code}.md"
        path.write_text(with_rules(path.read_text(encoding="utf-8"), rules_section(tr, code)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
