"""Catalogues: same keys and placeholders in ru and en, every key used exists, plurals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fluent.syntax import FluentParser, ast, visitor

from bot.app import COMMANDS
from bot.games import GAMES
from locales import SUPPORTED, Translator

ROOT = Path(__file__).resolve().parent.parent


class _Vars(visitor.Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.names: set[str] = set()

    def visit_VariableReference(self, node: ast.VariableReference) -> None:
        self.names.add(node.id.name)


def _placeholders(lang: str) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for path in sorted((ROOT / "locales" / lang).glob("*.ftl")):
        for entry in FluentParser().parse(path.read_text(encoding="utf-8")).body:
            assert not isinstance(entry, ast.Junk), f"{path}: syntax error near {entry.content[:60]!r}"
            if isinstance(entry, ast.Message):
                found = _Vars()
                found.visit(entry)
                out[entry.id.name] = found.names
    return out


@pytest.fixture(scope="module")
def tr() -> Translator:
    return Translator.load(strict=True)


def test_same_keys_and_placeholders() -> None:
    ru, en = _placeholders("ru"), _placeholders("en")
    assert set(ru) == set(en), f"only ru: {set(ru) - set(en)}; only en: {set(en) - set(ru)}"
    for key in ru:
        assert ru[key] == en[key], f"{key}: ru {ru[key]} vs en {en[key]}"


def _keys_used_in_code() -> set[str]:
    keys: set[str] = set()
    pattern = re.compile(r"""\btr?\(\s*(?:[a-z_.]+,\s*)?["']([a-z0-9\-]+)["']""")
    for path in (ROOT / "bot").rglob("*.py"):
        keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def _dynamic_keys() -> set[str]:
    """The keys the bot builds from data: the commands', and every game's (its words say which)."""
    keys = {f"cmd-{c}" for c in COMMANDS}
    for code, spec in GAMES.items():
        keys |= {f"game-{code}", f"game-{code}-tagline", f"rules-{code}"}
        keys |= {f"board-{k}" for k in spec.label_keys}
        keys |= spec.ui.locale_keys()
    return keys


def test_the_games_name_the_keys_they_build() -> None:
    """What the list of these keys held for each game before the games named them (a sample)."""
    built = _dynamic_keys()
    assert {"sosedi-mode-tower", "action-spichki-chase", "tishe-ev-land-seven", "action-ludo-exit",
            "parchis-pos-corridor", "shishbesh-ev-jump-diagonal", "shishbesh-start-six_or_double",
            "lions-result-draw-quiet", "ludo-lobby-variant", "tishe-option-both_home-on"} <= built
    assert all(spec.ui.locale_keys() for spec in GAMES.values())


def test_every_key_used_exists(tr: Translator) -> None:
    used = _keys_used_in_code() | _dynamic_keys()
    assert len(used) > 40  # the scan really found the keys
    for lang in SUPPORTED:
        missing = sorted(k for k in used if not tr.has(lang, k))
        assert not missing, f"{lang} lacks {missing}"


def test_every_game_has_its_texts(tr: Translator) -> None:
    for lang in SUPPORTED:
        for code in GAMES:
            assert tr.t(lang, f"rules-{code}").strip()


@pytest.mark.parametrize(
    ("key", "args", "expected"),
    [
        ("sosedi-status-bowl", {"count": 1}, "В чаше: 1 фишка"),
        ("sosedi-status-bowl", {"count": 2}, "В чаше: 2 фишки"),
        ("sosedi-status-bowl", {"count": 5}, "В чаше: 5 фишек"),
        ("sosedi-status-bowl", {"count": 11}, "В чаше: 11 фишек"),
        ("sosedi-status-bowl", {"count": 21}, "В чаше: 21 фишка"),
        ("sosedi-lobby-tower", {"count": 1}, "В башне: 1 подставка"),
        ("sosedi-lobby-tower", {"count": 2}, "В башне: 2 подставки"),
        ("sosedi-lobby-tower", {"count": 5}, "В башне: 5 подставок"),
        ("sosedi-lobby-tower", {"count": 11}, "В башне: 11 подставок"),
        ("sosedi-lobby-tower", {"count": 21}, "В башне: 21 подставка"),
        ("pub-tally-line", {"name": "Оля", "count": 1}, "Оля — 1 раунд"),
        ("pub-tally-line", {"name": "Оля", "count": 2}, "Оля — 2 раунда"),
        ("pub-tally-line", {"name": "Оля", "count": 5}, "Оля — 5 раундов"),
        ("pub-tally-line", {"name": "Оля", "count": 11}, "Оля — 11 раундов"),
        ("pub-tally-line", {"name": "Оля", "count": 21}, "Оля — 21 раунд"),
    ],
)
def test_russian_plurals(tr: Translator, key: str, args: dict[str, object], expected: str) -> None:
    assert tr.t("ru", key, **args) == expected


@pytest.mark.parametrize(("count", "word"), [(1, "фишку"), (2, "фишки"), (5, "фишек"), (11, "фишек"), (21, "фишку")])
def test_russian_accusative_plural(tr: Translator, count: int, word: str) -> None:
    assert f"в чашу {count} {word} (осталось 3)" in tr.t("ru", "sosedi-ev-pay", name="Оля", count=count, held=3)


@pytest.mark.parametrize(("count", "word"), [(1, "подставку"), (2, "подставки"), (5, "подставок"), (11, "подставок"),
                                             (21, "подставку")])
def test_russian_coasters_taken(tr: Translator, count: int, word: str) -> None:
    assert tr.t("ru", "sosedi-ev-take", name="Оля", count=count, held=4) == f"Оля берёт {count} {word} (у себя 4)"


@pytest.mark.parametrize(("count", "word"), [(1, "chip"), (2, "chips"), (5, "chips"), (11, "chips"), (21, "chips")])
def test_english_plurals(tr: Translator, count: int, word: str) -> None:
    assert tr.t("en", "sosedi-status-bowl", count=count) == f"Bowl: {count} {word}"


@pytest.mark.parametrize(("left", "ru", "en"), [(0, "шагов больше нет", "no steps left"),
                                               (1, "остался 1 шаг", "1 step left"),
                                               (2, "осталось 2 шага", "2 steps left")])
def test_lions_steps_left(tr: Translator, left: int, ru: str, en: str) -> None:
    text = tr.t("ru", "lions-status-building", moves="6 → +1", left=left)
    assert text.endswith(ru + ("" if left else " — «Готово»"))
    assert en in tr.t("en", "lions-status-building", moves="6 → +1", left=left)


def test_every_plural_message_formats_for_sample_counts(tr: Translator) -> None:
    ru = _placeholders("ru")
    for lang in SUPPORTED:
        for key, names in ru.items():
            for n in (0, 1, 2, 5, 11, 21):
                args = {name: n if name in {"count", "left", "held", "bowl", "phase", "many", "max", "min",
                                              "pile", "players", "a", "b", "turns", "bounced",
                                              "missed", "total", "checker", "at", "to", "start",
                                              "die", "yard", "centre", "home", "piece", "n", "park",
                                              "lions_left", "hunters_left", "limit", "effect", "double",
                                              "final", "bonus", "start_where", "to_where"}
                        else "X" for name in names}
                text = tr.t(lang, key, **args)  # strict: raises on a missing variable
                assert text.strip() and "{" not in text, (lang, key, text)


def test_fallback_and_strictness() -> None:
    loose = Translator.load(default="en")
    assert loose.t("de", "btn-join") == loose.t("en", "btn-join")
    assert loose.t("ru", "no-such-key") == "no-such-key"
    with pytest.raises(KeyError):
        Translator.load(strict=True).t("ru", "no-such-key")


def test_no_message_is_defined_twice() -> None:
    """Every catalogue file of a language shares one namespace: a second definition would
    silently replace the first (a board label of one game showing on another's board)."""
    for lang in SUPPORTED:
        seen: dict[str, str] = {}
        for path in sorted((ROOT / "locales" / lang).glob("*.ftl")):
            for line in path.read_text(encoding="utf-8").splitlines():
                match = re.match(r"([a-z][a-z0-9_-]*) =", line)
                if match:
                    key = match.group(1)
                    assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {path.name}"
                    seen[key] = path.name


def test_formatted_messages_are_remembered_per_language_key_and_arguments() -> None:
    fresh = Translator.load(strict=True)
    first = fresh.t("ru", "pub-tally-line", name="Оля", count=2)
    assert fresh.t("ru", "pub-tally-line", name="Оля", count=2) is first  # from the memo, not formatted again
    assert fresh.t("ru", "pub-tally-line", name="Оля", count=5) == "Оля — 5 раундов"
    assert fresh.t("en", "pub-tally-line", name="Оля", count=2) != first
    assert len(fresh._formatted) == 3


def test_memo_tells_argument_types_apart_and_formats_unhashable_ones() -> None:
    fresh = Translator.load(strict=True)
    assert fresh.t("ru", "pub-tally-line", name="Оля", count=1) == "Оля — 1 раунд"
    assert fresh.t("ru", "pub-tally-line", name="Оля", count=True) == fresh._format("ru", "pub-tally-line",
                                                                                     {"name": "Оля", "count": True})
    assert len(fresh._formatted) == 2
    assert fresh.t("ru", "pub-tally-line", name="Оля", count=2, extra=[1]) == "Оля — 2 раунда"
    assert len(fresh._formatted) == 2


def test_memo_starts_over_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    import locales

    monkeypatch.setattr(locales, "FORMATTED_CACHE", 2)
    fresh = Translator.load(strict=True)
    for count in (1, 2, 3):
        fresh.t("ru", "pub-tally-line", name="Оля", count=count)
    assert len(fresh._formatted) == 1
    assert fresh.t("ru", "pub-tally-line", name="Оля", count=1) == "Оля — 1 раунд"


def test_english_uses_english_quotes() -> None:
    """An English message quotes “like this”, never with the Russian «…» (no English text quotes a Russian
    name on purpose)."""
    russian = [f"{path.name}:{n}: {line.strip()}" for path in sorted((ROOT / "locales" / "en").glob("*.ftl"))
               for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if not line.lstrip().startswith("#") and ("«" in line or "»" in line)]
    assert russian == []


def test_a_stop_says_a_game_was_stopped(tr: Translator) -> None:
    """/stop names what stopped as a game, not a bare «Людо» остановлена."""
    assert tr.t("ru", "stopped", game="Людо") == "Игра «Людо» остановлена."
    assert tr.t("en", "stopped", game="Ludo") == "The game “Ludo” has been stopped."
