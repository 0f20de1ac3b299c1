"""The repository cites only itself: no file outside it (a design note, a shared rules folder) and no
tracker's issue numbers, in code, comments, docs or tests. A rule is cited by its page and number
(«docs/rules/sosedi.md, rule 9»), a behaviour by its docs page."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
THIS = Path(__file__).resolve().relative_to(ROOT).as_posix()
# what points outside: each pattern spelled in pieces, so that this file could be searched too
OUTSIDE = re.compile("|".join([
    r"design" + r"\.md",
    r"shared" + r"/rules",
    r"\.\./" + r"shared",
    r"\b[Ii]ssues?(?:\s*#\s+|\s+)" + r"#\d+",  # also wrapped in a comment: «issue\n    # #27»
]))
SKIPPED = ("tests/fixtures/",)  # databases and recorded data, not prose
DATA = (".sqlite3", ".png", ".ttf")  # binary: databases, pictures, fonts


def tracked_text_files() -> list[str]:
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                           capture_output=True, check=True).stdout.decode().split("\0")
    return [name for name in names if name and name != THIS and not name.startswith(".venv/")
            and not (name.startswith(SKIPPED) and not name.endswith(".py")) and not name.endswith(DATA)]


def outside_references(text: str) -> list[str]:
    return [match.group(0) for match in OUTSIDE.finditer(text)]


def test_nothing_points_outside_the_repository() -> None:
    found = []
    for name in tracked_text_files():
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the work tree, not yet in the index
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        for match in OUTSIDE.finditer(text):  # the whole text: a reference may wrap over two lines
            found.append(f"{name}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)!r}")
    assert not found, "cite docs/ or a rule's number instead:\n" + "\n".join(found)


def test_the_search_finds_each_kind() -> None:
    samples = ["see design" + ".md, Layers", "shared" + "/rules/ludo.md", "../" + "shared/x",
               "(issue" + " #24, point 3)", "Issue" + " #7", "(issue" + "\n#27)", "issue" + "\n    # #27"]
    assert [len(outside_references(sample)) for sample in samples] == [1, 1, 1, 1, 1, 1, 1]
    assert outside_references("docs/rules/sosedi.md, rule 9; migration 10; game #12") == []
