"""Imports point down only (docs/architecture.md, «Layers»): walk every module with ast.

    bot/      may import anything
    render/   engines, render, PIL and the standard library
    engines/  the standard library and engines only; no clocks, no global random
    locales/  the standard library and fluent/babel; never engines, render or bot

Directories that do not exist yet are skipped.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = frozenset(sys.stdlib_module_names)

# stdlib modules that read clocks or global/OS randomness: never in an engine
ENGINE_FORBIDDEN = frozenset({"random", "time", "datetime", "secrets", "uuid", "hashlib", "hmac"})
# ... except the dice source and seed helpers in engines/base.py
ENGINE_BASE_ALLOWED = frozenset({"secrets", "hashlib", "hmac"})


@dataclass(frozen=True)
class Layer:
    package: str
    allowed: frozenset[str]  # top-level packages allowed besides the standard library
    stdlib: bool = True  # the standard library is allowed


LAYERS = {
    "engines": Layer("engines", frozenset({"engines"})),
    "render": Layer("render", frozenset({"engines", "render", "PIL"})),
    "locales": Layer("locales", frozenset({"locales", "fluent", "babel"})),
}
FIRST_PARTY = frozenset({"bot", "engines", "render", "locales", "tests"})


def imported_modules(tree: ast.AST, module: str, is_package: bool) -> list[tuple[int, str]]:
    """(line, absolute dotted name) of every import in ``tree``, nested ones included.

    ``module`` is the dotted name of the file (``engines.sosedi``), used to resolve
    relative imports.
    """
    out: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = module.split(".")
                base = parts if is_package else parts[:-1]
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                prefix = ".".join(base)
                if node.module:
                    out.append((node.lineno, f"{prefix}.{node.module}" if prefix else node.module))
                else:
                    out.extend((node.lineno, f"{prefix}.{a.name}") for a in node.names)
            elif node.module:
                out.append((node.lineno, node.module))
    return out


def violations(source: str, relpath: str) -> list[str]:
    """The forbidden imports in one file, as 'path:line: message' strings."""
    parts = Path(relpath).with_suffix("").parts
    is_package = parts[-1] == "__init__"
    module = ".".join(parts[:-1] if is_package else parts)
    layer = LAYERS.get(parts[0])
    if layer is None:  # bot/ (and anything else) may import everything
        return []
    tree = ast.parse(source, filename=relpath)
    found = []
    for line, name in imported_modules(tree, module, is_package):
        top = name.split(".")[0]
        where = f"{relpath}:{line}"
        if layer.package == "engines":
            allowed_here = ENGINE_BASE_ALLOWED if relpath == "engines/base.py" else frozenset()
            if top in ENGINE_FORBIDDEN and top not in allowed_here:
                found.append(f"{where}: engines must not import {name!r} (clocks/randomness)")
                continue
        if top in layer.allowed:
            continue
        if top in STDLIB and top not in FIRST_PARTY:
            continue
        found.append(f"{where}: {layer.package}/ must not import {name!r}")
    return found


def layer_files() -> list[Path]:
    files = []
    for package in ("engines", "render", "locales", "bot"):
        directory = ROOT / package
        if directory.is_dir():
            files.extend(sorted(directory.rglob("*.py")))
    return files


def test_layers_import_only_downwards():
    problems = []
    files = layer_files()
    for path in files:
        rel = path.relative_to(ROOT).as_posix()
        problems.extend(violations(path.read_text(encoding="utf-8"), rel))
    assert not problems, "forbidden imports (see docs/architecture.md, «Layers»):\n" + "\n".join(problems)
    assert any(p.relative_to(ROOT).parts[0] == "engines" for p in files), "engines/ not found"


# ---------------------------------------------------------------- the checker itself


@pytest.mark.parametrize(
    ("relpath", "source"),
    [
        ("engines/foo.py", "import random"),
        ("engines/foo.py", "from random import randint"),
        ("engines/foo.py", "import time"),
        ("engines/foo.py", "from datetime import datetime"),
        ("engines/foo.py", "import secrets"),
        ("engines/foo.py", "import hashlib"),
        ("engines/foo.py", "def f():\n    import random\n"),
        ("engines/foo.py", "import telegram"),
        ("engines/foo.py", "from PIL import Image"),
        ("engines/foo.py", "import render.sosedi"),
        ("engines/foo.py", "from bot import app"),
        ("engines/foo.py", "from locales import load"),
        ("engines/foo.py", "import aiosqlite"),
        ("engines/foo.py", "from .. import bot"),
        ("engines/base.py", "import random"),
        ("engines/base.py", "import time"),
        ("render/board.py", "import telegram"),
        ("render/board.py", "from bot.table import send"),
        ("render/board.py", "from locales import t"),
        ("render/board.py", "import aiosqlite"),
        ("locales/__init__.py", "from engines import sosedi"),
        ("locales/__init__.py", "import render"),
        ("locales/loader.py", "from bot import config"),
        ("locales/loader.py", "import telegram"),
        ("locales/loader.py", "from ..engines import base"),
    ],
)
def test_checker_flags_forbidden_import(relpath, source):
    assert violations(source, relpath), f"{relpath}: {source!r} should be forbidden"


@pytest.mark.parametrize(
    ("relpath", "source"),
    [
        ("engines/foo.py", "from __future__ import annotations\nimport dataclasses, json"),
        ("engines/foo.py", "from engines.base import DiceSource"),
        ("engines/foo.py", "from .base import DiceSource"),
        ("engines/foo.py", "from . import base"),
        ("engines/foo.py", "from collections.abc import Mapping"),
        ("engines/base.py", "import secrets, hashlib, hmac"),
        ("render/board.py", "from PIL import Image, ImageDraw\nimport io, functools"),
        ("render/board.py", "from engines.sosedi import SosediState\nfrom render import fonts"),
        ("render/sub/x.py", "from .. import fonts"),
        ("locales/__init__.py", "from fluent.runtime import FluentLocalization"),
        ("locales/__init__.py", "from babel.plural import PluralRule\nimport pathlib"),
        ("bot/app.py", "import telegram\nfrom engines import GAMES\nfrom render import x\nimport random"),
    ],
)
def test_checker_allows_permitted_import(relpath, source):
    assert violations(source, relpath) == []


def test_relative_imports_resolve():
    tree = ast.parse("from . import base\nfrom .base import X\nfrom .. import bot")
    names = [n for _, n in imported_modules(tree, "engines.sub.mod", False)]
    assert names == ["engines.sub.base", "engines.sub.base", "engines.bot"]
    names = [n for _, n in imported_modules(ast.parse("from . import x"), "locales", True)]
    assert names == ["locales.x"]


# the command-line tools beside the bot (copying a database, rebuilding the ratings): the running bot never
# imports them, so none of their dependencies is on the way of a press
TOOLS = frozenset({"bot.migrate", "bot.migrate_sides", "bot.ratings.__main__"})
# what is not the running bot: the tools themselves and the test doubles (the fake Bot API, the playground)
NOT_RUNTIME = ("bot/migrate.py", "bot/migrate_sides.py", "bot/ratings/__main__.py", "bot/fake_telegram/",
               "bot/playground/")


def tool_imports(source: str, relpath: str) -> list[str]:
    """The imports of a command-line tool in one runtime file, as 'path:line: name' strings."""
    parts = Path(relpath).with_suffix("").parts
    is_package = parts[-1] == "__init__"
    module = ".".join(parts[:-1] if is_package else parts)
    tree = ast.parse(source, filename=relpath)
    return [f"{relpath}:{line}: {name}" for line, name in imported_modules(tree, module, is_package)
            if name in TOOLS or name.rsplit(".", 1)[0] in TOOLS]


def test_the_running_bot_never_imports_a_command_line_tool():
    runtime = [path for path in sorted((ROOT / "bot").rglob("*.py"))
               if not path.relative_to(ROOT).as_posix().startswith(NOT_RUNTIME)]
    assert len(runtime) > 50
    problems = [p for path in runtime
                for p in tool_imports(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())]
    assert problems == []


def test_the_tool_check_sees_a_tool_imported_inside_a_function():
    source = "def main():\n    from bot.migrate import database_of\n"
    assert tool_imports(source, "bot/ratings/__init__.py") == ["bot/ratings/__init__.py:2: bot.migrate"]
