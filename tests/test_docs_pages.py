"""The front page stays a front page, and every relative link of README.md and docs/ leads somewhere:
README.md is at most 150 lines (the rest lives in docs/), and each relative link names a file of the
repository and, with a #fragment, a heading of that page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
FRONT_PAGE_LINES = 150
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")  # [text](target) and ![alt](target)
FENCE = re.compile(r"^```.*?^```", re.S | re.M)  # code blocks hold code, not links
EXTERNAL = ("http://", "https://", "mailto:", "tg://")


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)  # nor do inline code spans
    return [target for target in LINK.findall(text) if not target.startswith(EXTERNAL)]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation gone, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {slug(heading) for heading in re.findall(r"^#{1,6} (.+)$", text, re.M)}


def test_the_front_page_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= FRONT_PAGE_LINES, f"README.md has {len(lines)} lines; move text to docs/"


def test_the_pages_are_found() -> None:
    names = {page.relative_to(ROOT).as_posix() for page in PAGES}
    assert {"README.md", "docs/players.md", "docs/operators.md", "docs/fair-dice.md", "docs/architecture.md",
            "docs/benchmarks.md", "docs/adding-a-game.md", "docs/rules/README.md"} <= names


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, fragment = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.is_relative_to(ROOT) or not resolved.exists():
            broken.append(f"{target}: no such file")
        elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target}: no such heading")
    assert not broken, f"{page.relative_to(ROOT)}: " + "; ".join(broken)


def test_the_link_check_sees_a_broken_link(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[gone](missing.md) [here](#title) `[code](no.md)`\n```\n[x](y.md)\n```\n")
    assert links(page) == ["missing.md", "#title"]
    assert anchors(page) == {"title"}
    assert slug("Fair dice («честные кости»)") == "fair-dice-честные-кости"
