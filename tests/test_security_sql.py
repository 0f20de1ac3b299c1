"""Security suite: SQL.

**SQL** is parameterised: :class:`SqlChecker` reads every module under ``bot/`` with ``ast``
and follows each SQL argument of ``execute``/``executemany``/``executescript``/``execute_fetchall`` (and of the
private helpers that pass a parameter on to them) back to string literals; it is itself
tried on bad snippets and on the SQLite store with a seeded f-string; names imported from
another module of the bot (``sql.SAVE_GAME``) are followed there. Players named like SQL
play pub rounds; their names come back intact and every game replays from its log.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.bot_harness import CHAT_ID, assert_replays, group_world
from tests.process_steps import ROOT
from tests.security_helpers import pub_rounds

BOT_DIR = ROOT / "bot"
SQL_METHODS = frozenset({"execute", "executemany", "executescript", "execute_fetchall", "execute_insert", "cursor",
                         "fetch", "fetchrow", "fetchval"})  # aiosqlite's and asyncpg's

NAME_BUILDERS = frozenset({"ident", "idents", "placeholders"})
ITERATING_BUILTINS = frozenset({"enumerate", "filter", "iter", "list", "reversed", "sorted", "tuple"})
STR_METHODS = frozenset({"lower", "lstrip", "rstrip", "split", "splitlines", "strip", "upper"})
Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


class SqlChecker:
    """Follows every SQL argument in one module back to string literals.

    An SQL argument is the first argument (or ``sql=``) of a ``.execute``, ``.executemany`` or
    ``.executescript`` call, or the argument a private helper passes on to one of those as its
    own parameter (``_write(sql, params)``: then each call of the helper is checked instead).
    It is safe when built only from string literals: a literal, an implicit concatenation
    (folded by the parser), ``+`` of safe parts, a name every binding of which is safe (module
    constants such as ``MIGRATIONS``, loop variables over them, defaults of nested functions),
    and splitting or iterating such values. f-strings, ``%``, ``.format()``, parameters of
    public functions and anything computed at run time are not.
    """

    def __init__(self, source: str, load: Callable[[str], SqlChecker | None] | None = None) -> None:
        self.load = load or (lambda dotted: None)  # the checker of another module of the bot, by dotted name
        self.tree = ast.parse(source)
        self.parents = {child: node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)}
        self.helpers: dict[str, tuple[int, str]] = {}  # helper name -> (position, name) of its SQL parameter
        self._note_abstract_helpers()
        while True:  # helpers of helpers: until no new one turns up
            known = len(self.helpers)
            for arg in self.sql_args():
                self._note_helper(arg)
            if len(self.helpers) == known:
                break

    def _note_abstract_helpers(self) -> None:
        """A private method a subclass supplies (its body only raises NotImplementedError) whose first
        parameter is ``statement`` is a helper too: the shared store calls it, each database's runs it."""
        for node in ast.walk(self.tree):
            if (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("_")
                    and [a.arg for a in node.args.args[:2]] == ["self", "statement"]
                    and isinstance(node.body[-1], ast.Raise) and isinstance(node.body[-1].exc, ast.Name)
                    and node.body[-1].exc.id == "NotImplementedError"):
                self.helpers[node.name] = (0, "statement")

    def sql_args(self) -> list[ast.expr]:
        found = []
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if isinstance(func, ast.Attribute) and name in SQL_METHODS:
                position, keyword = 0, "sql"
            elif name in self.helpers:
                position, keyword = self.helpers[name]
            else:
                continue
            if len(node.args) > position:
                found.append(node.args[position])
            else:
                found.extend(k.value for k in node.keywords if k.arg == keyword)
        return found

    def problems(self) -> list[str]:
        """«line N: <expression>: why» for every SQL argument not built from literals only."""
        out = []
        for arg in self.sql_args():
            why = self._unsafe(arg, self._scopes(arg), frozenset())
            if why is not None:
                out.append(f"line {arg.lineno}: {ast.unparse(arg)}: {why}")
        return out

    # scopes and bindings ----------------------------------------------------------------------

    def _scopes(self, node: ast.AST) -> list[Scope]:
        """The scopes a name used at ``node`` is looked up in, innermost first (no class bodies)."""
        chain: list[Scope] = []
        while node in self.parents:
            node = self.parents[node]
            if isinstance(node, Scope):
                chain.append(node)
        return chain

    @staticmethod
    def _own_nodes(scope: Scope) -> list[ast.AST]:
        """The nodes of ``scope``'s own body, not of the functions and lambdas nested in it."""
        out: list[ast.AST] = []
        todo: list[ast.AST] = [scope.body] if isinstance(scope, ast.Lambda) else list(scope.body)
        while todo:
            node = todo.pop()
            out.append(node)
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
                todo.extend(ast.iter_child_nodes(node))
            elif isinstance(node, ast.ClassDef):  # a class body runs in the enclosing scope's time
                todo.extend(node.body)
        return out

    @staticmethod
    def _params(scope: Scope) -> dict[str, ast.expr | None]:
        """The scope's parameters and their defaults (None: no default)."""
        if isinstance(scope, ast.Module):
            return {}
        args = scope.args
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        params = {a.arg: d for a, d in zip(positional, defaults, strict=True)}
        params.update({a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)})
        params.update({a.arg: None for a in (args.vararg, args.kwarg) if a is not None})
        return params

    def _note_helper(self, arg: ast.expr) -> None:
        """An SQL argument that is a parameter of a private function makes that function a helper."""
        if (isinstance(arg, ast.Call) and len(arg.args) == 1 and isinstance(arg.func, ast.Name | ast.Attribute)
                and (arg.func.id if isinstance(arg.func, ast.Name) else arg.func.attr) == "numbered"):
            arg = arg.args[0]  # a statement renumbered for PostgreSQL is still the parameter
        if not isinstance(arg, ast.Name):
            return
        for scope in self._scopes(arg):
            if arg.id in self._params(scope):
                if isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef) and scope.name.startswith("_"):
                    names = [a.arg for a in [*scope.args.posonlyargs, *scope.args.args]]
                    method = isinstance(self.parents.get(scope), ast.ClassDef) and names[:1] in (["self"], ["cls"])
                    if arg.id in names and self._params(scope)[arg.id] is None:
                        self.helpers[scope.name] = (names.index(arg.id) - method, arg.id)
                return
            if self._bindings(scope, arg.id):
                return

    def _bindings(self, scope: Scope, name: str) -> list[tuple[str, ast.AST]]:
        """How ``scope`` binds ``name``: ("value", expr) for an assignment, ("each", iterable)
        for a loop target, ("other", node) for anything else."""
        return [binding for node in self._own_nodes(scope) if (binding := self._binding(node, name))]

    def _binding(self, node: ast.AST, name: str) -> tuple[str, ast.AST] | None:
        match node:
            case ast.Assign(targets=targets, value=value) if any(name in self._names(t) for t in targets):
                return "value", value
            case ast.AnnAssign(target=target, value=ast.expr() as value) if name in self._names(target):
                return "value", value
            case ast.For(target=target, iter=iterable) | ast.AsyncFor(target=target, iter=iterable) | ast.comprehension(
                    target=target, iter=iterable) if name in self._names(target):
                return "each", iterable
            case ast.AugAssign(target=target) | ast.NamedExpr(target=target) | ast.withitem(
                    optional_vars=ast.expr() as target) if name in self._names(target):
                return "other", node
            case ast.Import(names=aliases) | ast.ImportFrom(names=aliases) if any(
                    (a.asname or a.name).split(".")[0] == name for a in aliases):
                return "other", node
            case ast.FunctionDef(name=defined) | ast.AsyncFunctionDef(name=defined) | ast.ClassDef(
                    name=defined) if defined == name:
                return "other", node
        return None

    @staticmethod
    def _names(target: ast.AST) -> set[str]:
        return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}

    # safety ---------------------------------------------------------------------------------

    def _unsafe(self, expr: ast.AST, scopes: list[Scope], seen: frozenset[tuple[int, str]]) -> str | None:
        """None if ``expr`` (looked up in ``scopes``) is built from string literals only, else why not."""
        match expr:
            case ast.Constant(value=str() | int()):  # a number beside a statement: (8, SCHEMA_8)
                return None
            case ast.JoinedStr(values=values) if all(
                    isinstance(v, ast.Constant) or (isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Call)
                                                    and isinstance(v.value.func, ast.Name)
                                                    and v.value.func.id in NAME_BUILDERS) for v in values):
                return None  # bot.store.sql's ident/idents/placeholders: names checked to be [a-z_], or «?»s
            case ast.JoinedStr():
                return "an f-string"
            case ast.BinOp(op=ast.Add(), left=left, right=right):
                return self._unsafe(left, scopes, seen) or self._unsafe(right, scopes, seen)
            case ast.BinOp(op=ast.Mod()):
                return "%-formatting"
            case ast.Call(func=ast.Attribute(attr="format")):
                return ".format()"
            case ast.Call(func=ast.Name(id="numbered") | ast.Attribute(attr="numbered"), args=[statement], keywords=[]):
                # bot.store.sql.numbered only renumbers placeholders (? → $1, $2 …): safe of a safe statement
                return self._unsafe(statement, scopes, seen)
            case ast.Call(func=ast.Attribute(value=value, attr=method), args=args, keywords=[]) if (
                    method in STR_METHODS and all(isinstance(a, ast.Constant) for a in args)):
                return self._unsafe(value, scopes, seen)
            case ast.Call(func=ast.Name(id=builtin), args=args, keywords=keywords) if builtin in ITERATING_BUILTINS:
                if not all(isinstance(k.value, ast.Constant) for k in keywords):
                    return f"{builtin}() with computed options"
                data = [a for a in args if not (isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name)
                                                and a.value.id == "str")]  # filter(str.strip, …)
                return next((why for a in data if (why := self._unsafe(a, scopes, seen))), None)
            case ast.Tuple(elts=elts) | ast.List(elts=elts):
                return next((why for e in elts if (why := self._unsafe(e, scopes, seen))), None)
            case ast.Subscript(value=value):
                return self._unsafe(value, scopes, seen)
            case ast.Name(id=name):
                return self._unsafe_name(name, scopes, seen)
            case ast.Attribute(value=ast.Name(id=alias), attr=attr) if (module := self._module(alias, scopes)):
                return module._unsafe_name(attr, [module.tree], seen)  # a constant of another module: sql.SAVE
        return f"computed at run time: {ast.unparse(expr)}"

    def _module(self, alias: str, scopes: list[Scope]) -> SqlChecker | None:
        """The bot module ``alias`` names in ``scopes`` (``from bot.store import sql``), if any."""
        for scope in scopes:
            for kind, node in self._bindings(scope, alias):
                if kind == "other" and isinstance(node, ast.ImportFrom) and node.module:
                    name = next(a.name for a in node.names if (a.asname or a.name) == alias)
                    return self.load(f"{node.module}.{name}")
                if kind == "other" and isinstance(node, ast.Import):
                    return self.load(next(a.name for a in node.names if (a.asname or a.name) == alias))
            if self._bindings(scope, alias):
                return None
        return None

    def _imported(self, node: ast.ImportFrom, name: str, seen: frozenset[tuple[int, str]]) -> str | None:
        """None if the name ``from <module> import`` binds is safe where it is defined, else why not."""
        original = next(a.name for a in node.names if (a.asname or a.name) == name)
        module = self.load(node.module or "")
        if module is None or self.load(f"{node.module}.{original}") is not None:  # not of the bot, or a module
            return f"{name!r} is imported from {node.module} (line {node.lineno})"
        return module._unsafe_name(original, [module.tree], seen)

    def _unsafe_name(self, name: str, scopes: list[Scope], seen: frozenset[tuple[int, str]]) -> str | None:
        for depth, scope in enumerate(scopes):
            if (id(scope), name) in seen:
                return None  # a name defined through itself: its other bindings decide
            seen = seen | {(id(scope), name)}
            params = self._params(scope)
            if name in params:
                default = params[name]
                owner = getattr(scope, "name", "lambda")
                if default is not None:  # evaluated where the function is defined
                    return self._unsafe(default, scopes[depth + 1:], seen)
                if self.helpers.get(owner, (0, ""))[1] == name:
                    return None  # a helper's SQL parameter: each call of the helper is checked
                return f"parameter {name!r} of {owner}()"
            bindings = self._bindings(scope, name)
            if bindings:
                for kind, node in bindings:
                    if kind == "other" and isinstance(node, ast.ImportFrom):
                        if (why := self._imported(node, name, seen)) is not None:
                            return why
                        continue
                    if kind == "other":
                        return f"{name!r} is bound at run time (line {getattr(node, 'lineno', '?')})"
                    assert isinstance(node, ast.expr)
                    why = self._unsafe(node, scopes[depth:], seen)
                    if why is not None:
                        return f"{name!r}: {why}"
                return None
        return f"{name!r} is not defined in the module"


@functools.cache
def bot_module(dotted: str) -> SqlChecker | None:
    """The checker of the bot's module ``dotted`` (``bot.store.sql``), None for any other module."""
    parts = dotted.split(".")
    if parts[0] != "bot":
        return None
    for path in (ROOT.joinpath(*parts).with_suffix(".py"), ROOT.joinpath(*parts, "__init__.py")):
        if path.is_file():
            return SqlChecker(path.read_text(encoding="utf-8"), bot_module)
    return None


def test_every_sql_statement_of_the_bot_is_a_literal() -> None:
    checked: dict[str, int] = {}
    problems: list[str] = []
    for path in sorted(BOT_DIR.rglob("*.py")):
        checker = SqlChecker(path.read_text(encoding="utf-8"), bot_module)
        checked[path.name] = len(checker.sql_args())
        problems += [f"{path.relative_to(ROOT)}: {p}" for p in checker.problems()]
        if path.name in ("sqlite.py", "postgres.py"):  # SQL passed on through a parameter
            assert {"_read", "_write", "_exec", "_fetch"} <= set(checker.helpers)
    assert problems == []
    # the checker saw the bot's SQL (the statements both stores share, and each one's own)
    assert checked["sql_store.py"] >= 25 and checked["sqlite.py"] >= 8 and checked["postgres.py"] >= 8


def seeded(source: str, through_helper: bool) -> tuple[str, str]:
    """``source`` with one of its SQL statements made dynamic: the first one passed straight to
    ``execute`` gets an f-string's ``{chat_id}``, or the first one passed to a helper ``% chat_id``.
    Returns the new source and the seeded expression."""
    checker = SqlChecker(source, bot_module)

    def direct(arg: ast.expr) -> bool:  # an argument of execute itself, not of a helper
        call = checker.parents[arg]
        return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in SQL_METHODS

    target = next(arg for arg in checker.sql_args() if direct(arg) != through_helper)
    bad: ast.expr = (ast.BinOp(target, ast.Mod(), ast.Name("chat_id")) if through_helper else
                     ast.JoinedStr([ast.FormattedValue(target, -1), ast.FormattedValue(ast.Name("chat_id"), -1)]))
    parent = checker.parents[target]
    for name, value in ast.iter_fields(parent):
        if value is target:
            setattr(parent, name, bad)
        elif isinstance(value, list) and target in value:
            value[value.index(target)] = bad
    return ast.unparse(checker.tree), ast.unparse(bad)


@pytest.mark.parametrize("through_helper", [False, True], ids=["f-string in execute", "% in a helper call"])
def test_the_sql_checker_finds_a_seeded_statement_in_storage(through_helper: bool) -> None:
    source, bad = seeded((BOT_DIR / "store" / "sqlite.py").read_text(encoding="utf-8"), through_helper)
    problems = SqlChecker(source, bot_module).problems()
    assert len(problems) == 1 and bad in problems[0], problems


BAD_SQL = {
    "f-string": 'def f(conn, name):\n    conn.execute(f"SELECT * FROM t WHERE name = \'{name}\'")\n',
    "%-formatting": 'def f(conn, name):\n    conn.execute("SELECT * FROM t WHERE name = \'%s\'" % name, ())\n',
    "+ a parameter": 'def f(conn, table):\n    conn.executemany("DELETE FROM " + table, [])\n',
    ".format()": 'def f(conn, table):\n    conn.executescript("DROP TABLE {};".format(table))\n',
    "a keyword": 'def f(conn, n):\n    conn.execute(sql=f"SELECT {n}")\n',
    "a local built from a parameter": (
        'def f(conn, name):\n    sql = "SELECT * FROM t"\n    sql = sql + " WHERE name = " + repr(name)\n'
        '    return conn.execute(sql).fetchall()\n'),
    "a module name read at run time": 'import os\nSQL = os.environ["SQL"]\n\ndef f(conn):\n    conn.execute(SQL)\n',
    "a public function's parameter": 'def run(conn, sql):\n    conn.execute(sql)\n',
    "a helper called with an f-string": (
        'class R:\n    async def _write(self, sql, params):\n'
        '        return await self._run(lambda c: c.execute(sql, params))\n\n'
        '    async def drop(self, name):\n        await self._write(f"DELETE FROM t WHERE name = \'{name}\'", ())\n'),
    "a helper's helper": (
        'class R:\n    def _one(self, sql):\n        return self.db.execute(sql)\n\n    def _two(self, query):\n'
        '        return self._one(query)\n\n    def get(self, name):\n        return self._two("SELECT " + name)\n'),
    "a loop over computed text": (
        'def f(conn, script):\n    for statement in script.split(";"):\n        conn.execute(statement)\n'),
}

GOOD_SQL = '''
SCHEMA: tuple[str, ...] = ("CREATE TABLE a (x)", "CREATE TABLE b (y); CREATE INDEX i ON b(y)")
ORDER = "ORDER BY x"


class Repo:
    async def _write(self, sql, params):
        return await self._run(lambda conn: conn.execute(sql, params).rowcount)

    async def names(self, chat_id):
        await self._write("DELETE FROM a WHERE x = ?", (chat_id,))
        return self.db.execute("SELECT x FROM a WHERE x = ? "
                               "AND x > 0 " + ORDER, (chat_id,)).fetchall()

    def migrate(self):
        for number, script in enumerate(SCHEMA, start=1):
            def run(conn, script=script):
                for statement in filter(str.strip, script.split(";")):
                    conn.execute(statement)
                conn.executemany("INSERT INTO v(n) VALUES (?)", [(number,)])
            self.transaction(run)
'''


@pytest.mark.parametrize("case", list(BAD_SQL))
def test_the_sql_checker_catches(case: str) -> None:
    problems = SqlChecker(BAD_SQL[case]).problems()
    assert len(problems) == 1, problems


def test_the_sql_checker_allows_literals_constants_and_helpers() -> None:
    checker = SqlChecker(GOOD_SQL)
    assert len(checker.sql_args()) == 5 and checker.problems() == []


async def test_names_that_look_like_sql_come_back_intact(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=51, count=1) as (tg, runner, _):
        robert, percent = tg.add_user(71, "Robert'); DROP TABLE games;--"), tg.add_user(72, "%s ? :name")
        names = [robert.first_name, percent.first_name]
        games, results = await pub_rounds(runner, robert, percent, set(names))
        assert runner.app is not None
        store = runner.app.bot_data["flow"].store
        for game_id in games:
            game = await store.game(game_id)
            assert game is not None and game.names == names and game.status == "finished"
            await assert_replays(runner, game_id)
        assert {t.name for t in await store.pub_tally(CHAT_ID)} == set(names)
        assert all(f"{name} — " in results[-1].text for name in names)  # the result's tally
        table = runner.table()
        assert all(name in table.caption for name in names)
        await runner.say(robert, "/tally")
        tally = tg.last_bot_message(CHAT_ID).text
        assert tally is not None and tally.startswith("🍺 Счёт раундов в этом чате:")
        assert all(f"\n{name} — " in tally for name in names)
    with contextlib.closing(sqlite3.connect(tmp_path / "data" / "bot.sqlite3")) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"games", "seats", "actions", "pub_tally", "chats"} <= tables
        assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == len(games)


def test_names_composed_into_a_statement_are_plain_identifiers() -> None:
    """bot.migrate composes statements from the schema's table and column names: each must be a
    plain lower-case identifier, or the statement is never built."""
    from bot.store.sql import ident, idents, placeholders
    assert ident("pub_tally") == "pub_tally" and idents(["game_id", "n"]) == "game_id, n"
    assert placeholders(3) == "?, ?, ?"
    for bad in ("games; DROP TABLE chats", "Games", "x y", "", "a--", '"games"'):
        with pytest.raises(ValueError):
            ident(bad)
    with pytest.raises(ValueError):
        idents(["id", "id) VALUES (1); --"])
