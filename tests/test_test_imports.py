"""Test modules import nothing from one another: shared steps and fixtures live in helper modules
(tests/*_steps.py, tests/*_helpers.py, tests/bot_harness.py) and in tests/conftest.py, so a test file can be
run, moved or cut alone, and importing it never collects its tests twice."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def is_test_module(name: str) -> bool:
    """``name`` (dotted) names a test module or conftest: its last part is test_* or conftest."""
    last = name.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def imported_test_modules(source: str) -> list[str]:
    """The test modules (and conftest) that ``source`` imports, as written."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if is_test_module(alias.name)]
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            if node.module and is_test_module(node.module):
                found.append(module)
            elif not node.module:  # from . import test_x
                found += [f"{module}{alias.name}" for alias in node.names if is_test_module(alias.name)]
    return found


def test_the_check_sees_each_way_of_importing_a_test_module() -> None:
    source = "\n".join([
        "from tests.test_stats import started", "import tests.test_timers", "from .test_outbox import held",
        "from . import test_config", "from tests.conftest import sosedi_started",
        "from tests.stats_steps import started", "from tests import bot_harness", "import pytest",
    ])
    assert imported_test_modules(source) == [
        "tests.test_stats", "tests.test_timers", ".test_outbox", ".test_config", "tests.conftest"]


def test_no_file_under_tests_imports_a_test_module() -> None:
    offenders = {str(path.relative_to(TESTS)): found for path in sorted(TESTS.rglob("*.py"))
                 if (found := imported_test_modules(path.read_text(encoding="utf-8")))}
    assert offenders == {}, "move what they share into a helper module (not test_*.py)"
