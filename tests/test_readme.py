"""The README's commands are the ones CI runs, and the dice snippet of docs/fair-dice.md is the real derivation."""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from bot.games import GAMES
from engines.base import COMMITMENT_DIGITS, DiceSource, seed_digest
from tests.engine_helpers import play_random

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
FAIR_DICE = (ROOT / "docs" / "fair-dice.md").read_text(encoding="utf-8")  # the «Fair dice» section
OPERATORS = (ROOT / "docs" / "operators.md").read_text(encoding="utf-8")  # the settings table


def test_ci_runs_the_readme_test_command() -> None:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    marker = next(i for i, line in enumerate(lines) if line.startswith("# test-command"))
    command = lines[marker + 1].strip()
    assert "pytest" in command
    assert command in README


ENV_STEP = "{ [ -f .env ] || cp .env.example .env; }"


def test_readme_has_the_run_command() -> None:
    assert ".venv/bin/python -m bot" in README
    assert ENV_STEP in README
    assert "cp -n" not in README  # fails when .env exists on coreutils 9.2–9.4 and BSD/macOS


@pytest.mark.parametrize("has_env", [False, True])
def test_the_run_commands_env_step_works_with_and_without_an_env(tmp_path: Path, has_env: bool) -> None:
    """The README's `.env` step succeeds either way and never overwrites a `.env` that is there."""
    (tmp_path / ".env.example").write_text("BOT_TOKEN=\n")
    if has_env:
        (tmp_path / ".env").write_text("BOT_TOKEN=mine\n")
    done = subprocess.run(["sh", "-c", f"{ENV_STEP} && echo next"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == "next\n", done.stderr
    assert (tmp_path / ".env").read_text() == ("BOT_TOKEN=mine\n" if has_env else "BOT_TOKEN=\n")


def fair_dice_snippet(page: str) -> str:
    """The first Python block of the «## Fair dice» section (docs/fair-dice.md)."""
    section = re.search(r"^## Fair dice.*?$(.*?)(?=^## |\Z)", page, re.S | re.M)
    assert section is not None, "docs/fair-dice.md has no «## Fair dice» section"
    block = re.search(r"```python\n(.*?)```", section.group(1), re.S)
    assert block is not None, "the «Fair dice» section has no Python block"
    return block.group(1)


def run_snippet(page: str) -> tuple[dict[str, Any], list[str]]:
    """Run the snippet as a reader would: its names, and the lines it prints."""
    namespace: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(fair_dice_snippet(page), namespace)
    return namespace, out.getvalue().splitlines()


def test_the_dice_snippet_matches_dice_source() -> None:
    code = fair_dice_snippet(FAIR_DICE)
    assert len([line for line in code.splitlines() if line.strip()]) <= 12  # short enough to type by hand
    namespace, _ = run_snippet(FAIR_DICE)
    throw = namespace["throw"]
    for seed in ("00" * 32, "ab" * 32, "5f" * 32):
        source = DiceSource(seed)
        for n in range(40):
            for count, sides in ((3, 6), (1, 5), (40, 6), (2, 3)):
                assert throw(seed, n, count, sides) == list(source.throw(n, count, sides))


def test_the_dice_snippet_prints_the_commitment_and_the_first_rolls() -> None:
    namespace, printed = run_snippet(FAIR_DICE)
    seed = namespace["seed"]
    assert printed == [seed_digest(seed), str([list(DiceSource(seed).throw(k, 3)) for k in range(1, 11)])]


def test_fair_dice_says_how_long_the_commitment_is() -> None:
    """The lobby's commitment is the digest's first COMMITMENT_DIGITS hex digits; a birthday search for
    two seeds sharing them takes the square root of their 16**COMMITMENT_DIGITS values."""
    section = " ".join(FAIR_DICE[FAIR_DICE.index("## Fair dice"):].split())  # wherever the lines wrap
    assert f"the first {COMMITMENT_DIGITS} hex digits of the seed's SHA-256" in section
    bits = COMMITMENT_DIGITS * 4
    assert f"share those {bits} bits, a birthday search of about 2^{bits // 2} hashes" in section


# dice per roll in each game (GameSpec.dice_per_roll), as the «Fair dice» section (docs/fair-dice.md) says
# (lions: none, only the draw)
FAIR_DICE_SAYS = {"sosedi": 3, "spichki": 2, "tishe": 2, "shishbesh": 2, "ludo": 1, "parchis": 1, "lions": 0}


def test_fair_dice_says_how_many_dice_each_game_rolls() -> None:
    assert {code: spec.dice_per_roll for code, spec in GAMES.items()} == FAIR_DICE_SAYS


@pytest.mark.parametrize("code", sorted(GAMES))
def test_the_fair_dice_numbering_rederives_every_roll_of_a_game(code: str) -> None:
    """Throw 0 is the draw (value v: the v-th player), roll k is throw k: docs/fair-dice.md's recipe
    re-derives whole random games of every engine."""
    engine = GAMES[code].engine
    throw = run_snippet(FAIR_DICE)[0]["throw"]
    options = engine.options_from_json(None)
    for seats in range(engine.min_players, engine.max_players + 1):
        seed = f"{seats:064x}"
        _, _, log = play_random(engine, options, seats, seed, limit=20_000)
        rolls = [entry.dice for entry in log if entry.dice]
        assert {len(dice) for dice in rolls} <= {GAMES[code].dice_per_roll}
        assert [tuple(throw(seed, k, len(dice))) for k, dice in enumerate(rolls, 1)] == rolls
        assert log[0].seat == throw(seed, 0, 1, seats)[0] - 1  # whoever acts first was drawn by throw 0


def test_every_config_variable_is_documented() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    source = (ROOT / "bot" / "config.py").read_text(encoding="utf-8")
    names = set(re.findall(r'env(?:\.get\(|, )"([A-Z_]+)"', source))  # every variable Config.from_env reads
    assert {"BOT_TOKEN", "LOG_LEVEL", "GROUP_MAX_RATE", "DRAW_PROCESSES"} <= names
    for name in names:
        assert f"`{name}`" in OPERATORS, name
        assert f"{name}=" in example, name
