"""The shape every game's bot presentation shares, and option parsing from text."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup, escape

from engines.base import Action, Event, OptionsError, Outcome

Tr = Callable[..., str]  # tr(key, **args) in the chat's language, as plain text (toasts, buttons, pictures)
# the same as HTML (captions and messages): string arguments (names) are escaped, Markup ones kept
# as they are, so a value is escaped exactly once however many messages it travels through
Html = Callable[..., Markup]


def html_words(tr: Tr) -> Html:
    """``tr`` for HTML: the catalogue's own markup kept, every string argument escaped once."""

    def html(key: str, /, **args: Any) -> Markup:
        if not args:
            return Markup(tr(key))
        return Markup(tr(key, **{k: escape(v) if isinstance(v, str) else v for k, v in args.items()}))

    return html

TRUE_WORDS = {"1", "on", "yes", "true", "да", "вкл"}
FALSE_WORDS = {"0", "off", "no", "false", "нет", "выкл"}
AUTO_WORDS = {"auto", "авто", "-", "none"}
ASCII_DIGITS = frozenset("0123456789")
NUMBER_DIGITS = 6  # more than any option's number has (lions' quiet_draw goes to 999)


@dataclass(frozen=True, slots=True)
class Button:
    """A lobby button: its text and the setting (``key`` = ``value``) it applies."""

    text: str
    key: str
    value: str


class GameUI(Protocol):
    """A game's words: its lobby's lines and buttons, its log, status and result lines."""

    code: str

    def lobby_lines(self, options: Any, seats: int, tr: Html) -> list[Markup]: ...

    def lobby_buttons(self, options: Any, seats: int, tr: Tr) -> list[list[Button]]: ...

    def lobby_seats(self, options: Any, names: Sequence[str], tr: Html) -> list[Markup] | None: ...

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]: ...

    def status_lines(self, state: Any, names: Sequence[str], tr: Html) -> list[Markup]: ...

    def result_lines(self, state: Any, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]: ...

    def variant(self, options: Any, tr: Tr) -> str: ...

    def is_pub(self, options: Any) -> bool: ...

    def button_args(self, state: Any, actions: Sequence[Action], tr: Tr) -> list[dict[str, Any]]:
        """The arguments of each move button's text, ``action-<code>-<kind>``: the action's own args and
        whatever else the button names (a place marked on the picture)."""
        ...

    def locale_keys(self) -> frozenset[str]:
        """The messages it builds from data (``action-<code>-<kind>``, ``…-mode-<mode>``), all of them:
        the catalogues must hold each (tests/test_locales.py)."""
        ...


@dataclass
class ThrowLog:
    """The log of one action: a line per throw or choice («Оля: 🎲 6 → выводит фишку 1, бросает ещё»,
    made by the locale key ``line_key`` from a head and its parts), then lines of their own. A move
    that came with its throw, not chosen after it, was the only legal one: «единственный ход» follows it."""

    tr: Html
    line_key: str
    head: Markup = dataclasses.field(default_factory=Markup)
    parts: list[Markup] = dataclasses.field(default_factory=list)
    throws: list[Markup] = dataclasses.field(default_factory=list)
    others: list[Markup] = dataclasses.field(default_factory=list)
    thrown: bool = False  # the line is a throw's (its moves came with it)
    only_move_at: int = -1  # where in ``parts`` «единственный ход» goes (after the throw's last move), or −1

    def start(self, head: Markup) -> None:
        """A new throw (or bonus move) begins a line of its own."""
        self._flush()
        self.head, self.thrown = head, True

    def head_or(self, head: Markup) -> None:
        """A move, whose part comes next: headed by the throw it came with, else by ``head`` (the player's choice)."""
        if self.thrown:
            self.only_move_at = len(self.parts) + 1
        self.head = self.head or head

    def part(self, text: Markup) -> None:
        self.parts.append(text)

    def own(self, text: Markup) -> None:
        self.others.append(text)

    def lines(self) -> list[Markup]:
        self._flush()
        return self.throws + self.others

    def _flush(self) -> None:
        if self.head:
            parts = self.parts
            if self.only_move_at >= 0:
                parts.insert(self.only_move_at, self.tr("log-only-move"))
            joined = self.tr(self.line_key, head=self.head, parts=Markup(", ").join(parts))
            self.throws.append(joined if parts else self.head)
        self.head, self.parts, self.thrown, self.only_move_at = Markup(), [], False, -1


class UIBase:
    """What every game's words share: no game is a pub game unless it says so, and its lobby lists its
    players by number."""

    def is_pub(self, options: Any) -> bool:
        return False

    def button_args(self, state: Any, actions: Sequence[Action], tr: Tr) -> list[dict[str, Any]]:
        return [dict(action.args) for action in actions]

    def lobby_seats(self, options: Any, names: Sequence[str], tr: Html) -> list[Markup] | None:
        """The lobby's players in the game's own words (the side each seat plays), or None: a numbered list."""
        return None

    def locale_keys(self) -> frozenset[str]:
        return frozenset()


class SwitchVariantUI(UIBase):
    """The lobby of a game whose variant is one yes/no option («с бонусами», «обе фишки до 100»):
    a line naming the variant and a button that shows it and switches it.

    Subclasses set ``code``, ``switch`` (the option's field) and ``variants`` (the locale
    suffixes of ``<code>-variant-…`` for off and on).
    """

    code: str
    switch: str
    variants: tuple[str, str]

    def locale_keys(self) -> frozenset[str]:
        return frozenset({*(f"{self.code}-variant-{v}" for v in self.variants), f"{self.code}-lobby-variant",
                          *option_word_keys(self.code, self.switch, bool)})

    def variant_key(self, options: Any) -> str:
        return self.variants[bool(getattr(options, self.switch))]

    def variant(self, options: Any, tr: Tr) -> str:
        return tr(f"{self.code}-variant-{self.variant_key(options)}")

    def lobby_lines(self, options: Any, seats: int, tr: Html) -> list[Markup]:
        return [tr(f"{self.code}-lobby-variant", variant=self.variant(options, tr))]

    def lobby_buttons(self, options: Any, seats: int, tr: Tr) -> list[list[Button]]:
        return [[toggle(self.code, options, self.switch, (False, True), tr)]]


def option_label(code: str, key: str, tr: Tr) -> str:
    """The option's name in the chat's language: «Фишки» (``<code>-option-<key>``; the player count,
    checked of every game, is ``option-players``)."""
    return tr("option-players") if key == "players" else tr(f"{code}-option-{key}")


def option_word_keys(code: str, key: str, kind: type, values: Iterable[Any] = ()) -> set[str]:
    """The locale keys of an option's name and of its values' words (``<code>-option-<key>-<value>``;
    a yes/no option's ``-on`` and ``-off``): what :func:`option_words` asks for."""
    suffixes = ("on", "off") if kind is bool else tuple(str(v) for v in values)
    return {f"{code}-option-{key}", *(f"{code}-option-{key}-{s}" for s in suffixes)}


def option_words(code: str, options: Any, key: str, value: Any, tr: Tr) -> str:
    """A value of the option ``key`` in the chat's words, as the lobby's buttons, its toasts and the
    refusals say it: «длинное», «да», «авто», «выкл», or the number itself («20»). The catalogue gets the
    options' words as arguments, so a value may be worded per variant (``$mode``: «Бросающий: берёт» in
    «Башня», where nobody pays)."""
    limits = option_limits(options, key)
    if value is None:
        return tr("option-auto")
    if isinstance(value, bool):
        return tr(f"{code}-option-{key}-{'on' if value else 'off'}", **_worded(options))
    if "allowed" in limits:
        return tr(f"{code}-option-{key}-{value}", **_worded(options))
    if "off" in limits and value == limits["off"]:
        return tr("option-off")
    return str(value)


def _worded(options: Any) -> dict[str, str]:
    """The options set by a word (a variant: ``mode="tower"``), by name."""
    return {f.name: v for f in dataclasses.fields(options) if isinstance(v := getattr(options, f.name), str)}


def option_state(code: str, options: Any, key: str, tr: Tr) -> str:
    """«Поле: длинное»: the option's name and its value in ``options``, as a toggle shows it and as the
    toast of a change says it."""
    return tr("option-state", label=option_label(code, key, tr), value=option_words(code, options, key,
                                                                                     getattr(options, key), tr))


def toggle(code: str, options: Any, key: str, cycle: Sequence[Any], tr: Tr) -> Button:
    """A lobby button that shows the option's value now («Быстрый заряд: нет») and sets the next one of
    ``cycle`` when pressed (every toggle of the lobby and of /settings speaks this one way)."""
    now = getattr(options, key)
    after = cycle[(cycle.index(now) + 1) % len(cycle)] if now in cycle else cycle[0]
    return Button(option_state(code, options, key, tr), key, as_code(after))


def as_code(value: Any) -> str:
    """A value as a button carries it and /set takes it: a yes/no as «on»/«off», «auto» for None."""
    if value is None:
        return "auto"
    return ("on" if value else "off") if isinstance(value, bool) else str(value)


def option_type(options: Any, key: str) -> tuple[type, bool] | None:
    """The type of the option ``key`` (``bool``, ``int``, ``str``) and whether it may be left to the
    game («авто», None); None if ``options`` has no such option."""
    return _option_type(options.__class__, key)  # cached by the class: every lobby button asks


@functools.lru_cache(maxsize=256)
def _option_type(options: Any, key: str) -> tuple[type, bool] | None:
    if key not in {f.name for f in dataclasses.fields(options)}:
        return None
    kind = typing.get_type_hints(options)[key]
    optional = isinstance(kind, types.UnionType) and type(None) in typing.get_args(kind)
    base = next((a for a in typing.get_args(kind) if a is not type(None)), kind) if optional else kind
    return base, optional


# a value no option takes: validating it makes the engine name the option's limits
_NO_SUCH_VALUE: dict[type, Any] = {int: -10**9, str: "\x00"}


def option_limits(options: Any, key: str) -> dict[str, Any]:
    """What the engine allows for ``key`` (``min``/``max`` or ``allowed``), asked of the engine itself so
    the words the bot shows never drift from the rules it checks; {} for a yes/no option."""
    found = option_type(options, key)
    if found is None or found[0] not in _NO_SUCH_VALUE:
        return {}
    try:
        dataclasses.replace(options, **{key: _NO_SUCH_VALUE[found[0]]}).validate(None)
    except OptionsError as exc:
        return dict(exc.limits) if exc.key == key else {}
    return {}


def parse_number(text: str, *, negative: bool = False) -> int | None:
    """The whole number ``text`` spells in ASCII digits (at most :data:`NUMBER_DIGITS` of them, and one
    leading «-» only where ``negative``), or None for anything else.

    Only 0-9 are digits here: ``str.isdigit`` also takes «²» and «¹⁰» (which ``int`` refuses), and ``int``
    takes «٣», «１», «+5» and «1_0», so a check by one and a conversion by the other disagree on hostile
    text. The bound keeps ``int`` from ever meeting thousands of digits."""
    sign, body = (-1, text[1:]) if negative and text.startswith("-") else (1, text)
    if not 0 < len(body) <= NUMBER_DIGITS or not ASCII_DIGITS.issuperset(body):
        return None
    return sign * int(body)


def parse_choice(text: str, allowed: Iterable[Any]) -> Any | None:
    """The value of ``allowed`` (an option's list) that ``text`` names by its code, or None."""
    return next((value for value in allowed if str(value) == text), None)


def set_option(options: Any, key: str, raw: str, seats: int | None = None) -> Any:
    """A copy of ``options`` with ``key`` parsed from text and validated.

    Each shape has its parser: yes/no and «авто» from their words (Russian or English), a number from
    ASCII digits (:func:`parse_number`), a name from the option's list (:func:`parse_choice`); the
    engine then checks the value. Raises OptionsError for an unknown key or a bad value, and nothing
    else whatever the text (it never trusts its input).
    """
    found = option_type(options, key)
    if found is None:
        raise OptionsError(key, "unknown option", allowed=tuple(f.name for f in dataclasses.fields(options)))
    base, optional = found
    text = raw.strip().lower()
    value: Any
    if optional and text in AUTO_WORDS:
        value = None
    elif base is bool:
        if text in TRUE_WORDS:
            value = True
        elif text in FALSE_WORDS:
            value = False
        else:
            raise OptionsError(key, "not a yes/no value")
    elif base is int and text in FALSE_WORDS and "off" in (limits := option_limits(options, key)):
        value = limits["off"]  # «выкл»: the engine's own «off» value of a number (lions' quiet_draw)
    elif base is int:
        if (value := parse_number(text)) is None:  # no option of a game is negative
            raise OptionsError(key, "not a number", **option_limits(options, key))
    elif (value := parse_choice(text, option_limits(options, key).get("allowed", ()))) is None:
        raise OptionsError(key, "not in the list", **option_limits(options, key))
    updated = dataclasses.replace(options, **{key: value})
    updated.validate(None)
    return updated


SET_WORDS = 8  # /set reads at most this many words, each at most SET_WORD long
SET_WORD = 24


def _plain(text: str) -> str:
    """A name as /set compares it: case, «ё», quotes and runs of spaces left out."""
    return " ".join(text.casefold().replace("ё", "е").strip("«»\"'“”„ ").split())


def named_values(options: Any, key: str) -> list[Any]:
    """The values of ``key`` that have names of their own: yes/no, a list's, «выкл», «авто» (None)."""
    found = option_type(options, key)
    if found is None:
        return []
    limits = option_limits(options, key)
    named: list[Any] = [True, False] if found[0] is bool else list(limits.get("allowed", ()))
    if "off" in limits:
        named.append(limits["off"])
    return [*named, None] if found[1] else named


def _every_wording(options: Any) -> list[Any]:
    """``options`` as each other variant would word them (every value of each option set by a word), then as
    they are: /set takes a value by any name it goes by («не платит» in «Башня», whose lobby says «не берёт»),
    this variant's first where two would differ."""
    others = [dataclasses.replace(options, **{f.name: v}) for f in dataclasses.fields(options)
              if isinstance(getattr(options, f.name), str) for v in option_limits(options, f.name).get("allowed", ())]
    return [*others, options]


def named_option(code: str, options: Any, words: Sequence[str], trs: Sequence[Tr]) -> tuple[str, str]:
    """/set's words as ``(key, value)`` for :func:`set_option`: the option by its key or by its name in any
    language of ``trs`` («фишки», «Выход из парка»), the value by its code or by its name («башня», «не
    платит»). The longest name the first words make wins; words that name no option come back as they
    are (the first as the key), for set_option to refuse in the usual words."""
    words = [w[:SET_WORD] for w in words[:SET_WORDS]]
    keys = {_plain(f.name): f.name for f in dataclasses.fields(options)}
    keys |= {_plain(option_label(code, key, tr)): key for key in list(keys.values()) for tr in trs}
    for split in range(len(words) - 1, 0, -1):
        if (key := keys.get(_plain(" ".join(words[:split])))) is not None:
            raw = " ".join(words[split:])
            names = {_plain(option_words(code, worded, key, v, tr)): v
                     for worded in _every_wording(options) for v in named_values(options, key) for tr in trs}
            return key, as_code(names[_plain(raw)]) if _plain(raw) in names else raw
    return words[0].lower(), " ".join(words[1:])
