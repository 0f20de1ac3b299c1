"""The README's commands are the ones CI runs, and its dice snippet is the real derivation."""

from __future__ import annotations

import re
from pathlib import Path

from engines.base import DiceSource

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_ci_runs_the_readme_test_command() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = next(i for i, line in enumerate(lines) if line.startswith("# test-command"))
    command = lines[marker + 1].strip()
    assert "pytest" in command
    assert command in README


def test_readme_has_the_run_command() -> None:
    assert ".venv/bin/python -m bot" in README
    assert "cp -n .env.example .env" in README


def test_readme_dice_snippet_matches_dice_source() -> None:
    block = re.search(r"```python\n(.*?)```", README, re.S)
    assert block is not None
    namespace: dict[str, object] = {}
    exec(block.group(1), namespace)
    throw = namespace["throw"]
    for seed in ("00" * 32, "ab" * 32, "5f" * 32):
        source = DiceSource(seed)
        for n in range(40):
            for count, sides in ((3, 6), (1, 5), (40, 6), (2, 3)):
                assert throw(seed, n, count, sides) == list(source.throw(n, count, sides))


def test_every_config_variable_is_documented() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    names = set(re.findall(r'env(?:\.get\(|, )"([A-Z_]+)"', source))  # every variable Config.from_env reads
    assert {"BOT_TOKEN", "LOG_LEVEL", "GROUP_MAX_RATE", "DRAW_PROCESSES"} <= names
    for name in names:
        assert f"`{name}`" in README, name
        assert f"{name}=" in example, name
