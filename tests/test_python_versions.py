"""Python 3.11–3.13 are supported: pyproject.toml lets each install and says
so, and .ci/run tests each one the machine has (the whole suite on 3.11, a quick subset on 3.12
and 3.13, and one line saying so where one is missing)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.specifiers import SpecifierSet

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
CI = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
SUPPORTED = ("3.11", "3.12", "3.13")


@pytest.mark.parametrize("version", SUPPORTED)
def test_pyproject_lets_every_supported_python_install(version: str) -> None:
    assert SpecifierSet(PROJECT["requires-python"]).contains(f"{version}.0")
    assert f"Programming Language :: Python :: {version}" in PROJECT["classifiers"]


def test_pyproject_refuses_what_the_code_cannot_run_on() -> None:
    # the code is written for 3.11 on (ruff: target-version py311)
    assert not SpecifierSet(PROJECT["requires-python"]).contains("3.10.12")


def test_ci_tests_the_other_pythons_where_it_has_them() -> None:
    loop = re.search(r"^for version in ([\d. ]+); do$", CI, re.M)
    assert loop is not None and loop.group(1).split() == list(SUPPORTED[1:])
    assert 'echo "Python $version is not installed here: its smoke tests are skipped"' in CI
    smoke = re.search(r"SMOKE_TESTS=\((.*?)\)", CI, re.S)
    assert smoke is not None
    files = smoke.group(1).split()
    assert all((ROOT / name).is_file() for name in files), files
    assert {"tests/test_engine_base.py", "tests/test_startup.py"} <= set(files)
    assert {f"tests/test_engine_{code}.py" for code in ("sosedi", "spichki", "tishe", "shishbesh", "ludo",
                                                       "parchis", "lions")} <= set(files)
