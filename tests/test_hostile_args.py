"""Hostile arguments are data (docs/architecture.md, «What it guarantees, and how it fails»): a command's numbers
are ASCII digits within the option's range, its names come from the option's list, and a button's
data is parsed as strictly. Anything else gets an answer in words, or silence, and changes nothing;
never a traceback. The parsers take any text here (hypothesis); the bot takes a few of each.
"""

from __future__ import annotations

import dataclasses
import logging
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot import callback_data as cb
from bot import texts
from bot.fake_telegram import StoredMessage
from bot.flow.context import PING_CHOICES, TIMER_CHOICES
from bot.games import GAMES, GameSpec
from bot.games.common import (
    AUTO_WORDS,
    FALSE_WORDS,
    TRUE_WORDS,
    named_option,
    option_limits,
    option_type,
    parse_number,
    set_option,
)
from bot.store import GameRow
from engines.base import OptionsError
from locales import SUPPORTED, Translator
from tests.bot_harness import CHAT_ID, BotRunner, World, flow_of, group_world
from tests.option_words import assert_in_words
from tests.ui_helpers import translate, translator_fixture

translator = translator_fixture()

CHIPS_RANGE_RU = "Фишки: от 5 до 30"


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    bad = [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


async def lobby_state(runner: BotRunner, lobby: StoredMessage) -> tuple[Any, ...]:
    """What a refused argument must leave alone: the stored lobby and its message."""
    game = await flow_of(runner).store.active_game(CHAT_ID)
    assert game is not None
    return game.options, game.version, game.seats, lobby.edit_count, lobby.caption, lobby.buttons


@pytest.fixture
async def sosedi_lobby(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> AsyncIterator[tuple[World, StoredMessage]]:
    """Аня's «соседи» lobby, just opened; warnings and worse are captured."""
    caplog.set_level(logging.WARNING)
    async with group_world(tmp_path, first_seed=44) as world:
        _, runner, users = world
        await runner.say(users["anya"], "/newgame sosedi")
        yield world, runner.table()


@pytest.mark.parametrize("value", ["--5", "²", "¹⁰", "٣٠", "１０", "+10", "-", "1e1", "0x10", "10.0"])
async def test_set_with_a_number_not_in_ascii_digits_is_refused_in_words(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture, value: str) -> None:
    (tg, runner, users), lobby = sosedi_lobby
    before = await lobby_state(runner, lobby)
    await runner.say(users["anya"], f"/set chips {value}")
    assert tg.last_bot_message(CHAT_ID).text == CHIPS_RANGE_RU
    assert await lobby_state(runner, lobby) == before
    no_tracebacks(caplog)


async def test_a_forged_lobby_button_with_a_bad_number_is_refused_in_words(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture) -> None:
    (_, runner, users), lobby = sosedi_lobby
    game = await flow_of(runner).store.active_game(CHAT_ID)
    assert game is not None
    before = await lobby_state(runner, lobby)
    for value in ("--5", "-5", "-0", "0-5", "5-", "_5"):
        forged = f"l:{cb.to_base36(game.id)}:set:chips:{value}"
        assert cb.parse(forged) is not None, forged  # the data's shape is right: the value is what is wrong
        answer = await runner.press_data(users["anya"], lobby, forged)
        assert answer.get("text") == CHIPS_RANGE_RU, (value, answer)
        assert answer.get("show_alert") is True
        assert await lobby_state(runner, lobby) == before, value
    no_tracebacks(caplog)


async def test_set_with_ascii_digits_still_sets_the_option(sosedi_lobby: tuple[World, StoredMessage],
                                                           caplog: pytest.LogCaptureFixture) -> None:
    (_, runner, users), lobby = sosedi_lobby
    await runner.say(users["anya"], "/set chips 017")
    assert "Фишек у каждого: 17" in lobby.caption
    game = await flow_of(runner).store.active_game(CHAT_ID)
    assert game is not None and game.options["chips"] == 17
    no_tracebacks(caplog)


# the parsers, with any text -------------------------------------------------------------------

ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=30)  # what a message can carry
NUMBERISH = st.text(st.sampled_from("0123456789-+ _.²¹⁰٣１\u00a0e"), max_size=8)  # near misses of a number
SETTINGS = settings(max_examples=300, deadline=None)


@SETTINGS
@given(st.one_of(ANY_TEXT, NUMBERISH), st.booleans())
def test_a_number_is_ascii_digits_and_nothing_else(text: str, negative: bool) -> None:
    spelled = r"-?[0-9]{1,6}" if negative else r"[0-9]{1,6}"
    value = parse_number(text, negative=negative)
    if re.fullmatch(spelled, text, re.ASCII):
        assert value == int(text)
    else:
        assert value is None


@SETTINGS
@given(st.integers(-999_999, 999_999))
def test_every_number_in_its_digits_reads_back(number: int) -> None:
    assert parse_number(str(number), negative=True) == number
    assert parse_number(str(number)) == (number if number >= 0 else None)


def option_cases() -> list[tuple[str, str]]:
    """(game code, option key) of every option of every game, and a key no game has."""
    cases = [(code, field.name) for code, spec in GAMES.items()
             for field in dataclasses.fields(spec.engine.options_from_json(None))]
    return [*cases, *((code, "nonsense") for code in GAMES)]


def spelled_as(value: Any, text: str, kind: type, limits: dict[str, Any]) -> bool:
    """Whether ``text`` (stripped, lower case) is a way to write ``value`` of an option of type ``kind``."""
    if value is None:
        return text in AUTO_WORDS
    if kind is bool:
        return text in (TRUE_WORDS if value else FALSE_WORDS)
    if kind is int:
        off = "off" in limits and value == limits["off"] and text in FALSE_WORDS
        return off or (re.fullmatch(r"[0-9]{1,6}", text, re.ASCII) is not None and int(text) == value)
    return text == value and value in limits.get("allowed", ())


@SETTINGS
@given(st.sampled_from(option_cases()), st.one_of(ANY_TEXT, NUMBERISH))
def test_an_option_takes_only_its_own_spelling_or_is_refused_in_words(translator: Translator, case: tuple[str, str],
                                                                      raw: str) -> None:
    code, key = case
    options = GAMES[code].engine.options_from_json(None)
    try:
        updated = set_option(options, key, raw)
    except OptionsError as exc:  # a refusal, in the words of both languages
        for lang in ("ru", "en"):
            assert_in_words(texts.option_error(exc, code, options, translate(translator, lang)), GAMES[code], exc,
                            translate(translator, lang))
        return
    found = option_type(options, key)
    assert found is not None
    updated.validate(None)
    assert dataclasses.replace(updated, **{key: getattr(options, key)}) == options  # nothing else changed
    assert spelled_as(getattr(updated, key), raw.strip().lower(), found[0], option_limits(options, key)), raw


@SETTINGS
@given(st.one_of(ANY_TEXT, st.text(max_size=80), st.binary(max_size=80).map(lambda b: b.decode("utf-8", "replace")),
                 st.sampled_from("nlgyurkvws").flatmap(lambda kind: ANY_TEXT.map(lambda tail: f"{kind}:{tail}"))))
def test_callback_data_is_parsed_strictly(data: str) -> None:
    """Any text: None, or a press whose data is ASCII and which the bot's own builders spell the same way."""
    parsed = cb.parse(data)
    if parsed is None:
        return
    assert data.isascii() and len(data) <= cb.MAX_BYTES
    assert cb.parse(rebuilt(parsed)) == parsed


def rebuilt(press: cb.Callback) -> str:
    """The data the bot would draw for ``press``."""
    builders = {"n": lambda: cb.picker(press.code), "l": lambda: cb.lobby(press.game_id, press.command, press.key,
                                                                          press.value),
                "g": lambda: cb.move(press.game_id, press.version, press.code),
                "y": lambda: cb.confirm(press.game_id, press.version, press.code),
                "u": lambda: cb.unconfirm(press.game_id, press.version),
                "k": lambda: cb.kick(press.game_id, press.version), "r": lambda: cb.rematch(press.game_id),
                "v": lambda: cb.check_dice(press.game_id), "w": lambda: cb.replay(press.game_id),
                "s": lambda: cb.chat_setting(press.key, press.value, press.code)}
    return builders[press.kind]()


# the same through the bot: a few of each -----------------------------------------------------

BOT_SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SOSEDI_KEYS = [field.name for field in dataclasses.fields(GAMES["sosedi"].engine.options_from_json(None))]


WORDS = [translate(Translator.load(strict=True), lang) for lang in SUPPORTED]


def expected_options(spec: GameSpec[Any, Any], options: Any, args: list[str], named: bool = True) -> Any:
    """The lobby's options after «/set» with ``args`` as the bot splits them (``named``: read by their names,
    as /set reads them; else as a button's key and value): changed only by a value the option parser
    takes, for an option the variant chosen plays with."""
    if len(args) < 2 or (not named and len(args) != 2):
        return options
    key, value = named_option(spec.code, options, args, WORDS) if named else (args[0], args[1])
    try:
        updated = set_option(options, key, value)
    except OptionsError:
        return options
    applies = spec.only_in_variants.get(key)
    return options if applies and getattr(updated, str(spec.variant_option)) not in applies else updated


async def assert_changed_only_as_parsed(runner: BotRunner, spec: GameSpec[Any, Any], before: GameRow,
                                        args: list[str], named: bool = True) -> None:
    """The lobby's options are ``before``'s with ``args`` applied as the pure parser would (``named``: the
    option and the value by their names too, as /set takes them; else as a button's data), or unchanged."""
    after = await flow_of(runner).store.active_game(CHAT_ID)
    assert after is not None
    wanted = expected_options(spec, spec.engine.options_from_json(before.options), args, named)
    assert spec.engine.options_from_json(after.options) == wanted, args


@BOT_SETTINGS
@given(key=st.sampled_from([*SOSEDI_KEYS, "nonsense"]), raw=st.one_of(ANY_TEXT, NUMBERISH))
async def test_set_with_any_text_answers_in_words_and_changes_only_what_it_may(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture, key: str, raw: str) -> None:
    (tg, runner, users), _ = sosedi_lobby
    spec = GAMES["sosedi"]
    game = await flow_of(runner).store.active_game(CHAT_ID)
    assert game is not None
    text = f"/set {key} {raw}"
    sent = len(tg.bot_messages(CHAT_ID))
    await runner.say(users["anya"], text)
    answers = tg.bot_messages(CHAT_ID)[sent:]
    assert answers and all(m.text and m.text.strip() for m in answers), (text, answers)  # an answer in words
    await assert_changed_only_as_parsed(runner, spec, game, text.split()[1:])
    no_tracebacks(caplog)


@BOT_SETTINGS
@given(key=st.sampled_from(["chips", "tower", *SOSEDI_KEYS, "nonsense", "x"]),  # the numbers twice as often
       value=st.one_of(st.from_regex(r"-{1,3}[0-9]{1,3}", fullmatch=True),  # near misses of a number
                       st.from_regex(r"[a-z0-9_\-]{1,20}", fullmatch=True)))  # all the data's shape lets through
async def test_a_forged_set_button_answers_in_words_and_changes_only_what_it_may(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture, key: str, value: str) -> None:
    (_, runner, users), lobby = sosedi_lobby
    spec = GAMES["sosedi"]
    game = await flow_of(runner).store.active_game(CHAT_ID)
    assert game is not None
    answer = await runner.press_data(users["anya"], lobby, cb.lobby(game.id, "set", key, value))
    assert answer.get("text"), (key, value, answer)
    await assert_changed_only_as_parsed(runner, spec, game, [key, value], named=False)
    no_tracebacks(caplog)


@BOT_SETTINGS
@given(data=st.one_of(ANY_TEXT, st.sampled_from("nlgyurkvws").flatmap(
    lambda kind: ANY_TEXT.map(lambda tail: f"{kind}:{tail}"))).filter(lambda d: 0 < len(d.encode()) <= cb.MAX_BYTES))
async def test_any_button_data_from_a_passer_by_is_answered_and_changes_nothing(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture, data: str) -> None:
    """Глеб, who is not in the lobby, presses buttons with any data: each is answered, none changes it."""
    (_, runner, users), lobby = sosedi_lobby
    parsed = cb.parse(data)
    assume(parsed is None or parsed.command != "join")  # the one press anyone may make in a lobby
    before = await lobby_state(runner, lobby)
    answer = await runner.press_data(users["gleb"], lobby, data)
    assert answer.get("text"), (data, answer)
    assert await lobby_state(runner, lobby) == before, data
    no_tracebacks(caplog)


COMMANDS = ("start", "help", "newgame", "rules", "lang", "stop", "leave", "kick", "tally", "set", "settings", "stats",
            "top", "history", "verify", "replay")  # every command but /table, which posts the lobby anew by design


@BOT_SETTINGS
@given(command=st.sampled_from(COMMANDS), raw=st.one_of(ANY_TEXT, NUMBERISH,
                                                        st.sampled_from(("reset", "sosedi", "en", "1", "#1"))))
async def test_every_command_with_any_text_from_a_passer_by_answers_in_words_and_changes_nothing(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture, command: str, raw: str) -> None:
    """Глеб, who is neither in the lobby nor an admin, types every command with any argument."""
    (tg, runner, users), lobby = sosedi_lobby
    before = await lobby_state(runner, lobby)
    sent = len(tg.bot_messages(CHAT_ID))
    await runner.say(users["gleb"], f"/{command} {raw}")
    for answer in tg.bot_messages(CHAT_ID)[sent:]:  # words, or silence
        assert (answer.text or answer.caption or "").strip(), (command, raw, answer)
    assert await lobby_state(runner, lobby) == before, (command, raw)
    no_tracebacks(caplog)


@BOT_SETTINGS
@given(key=st.sampled_from(("timer", "ping")), value=st.one_of(
    st.from_regex(r"-?[0-9]{1,4}", fullmatch=True), st.sampled_from(("²", "¹⁰", "٣", "１０", "+1", "1_0", "03")),
    st.from_regex(r"[a-z0-9_\-]{1,20}", fullmatch=True)))
async def test_a_forged_settings_button_sets_only_a_value_the_bot_offers(
        sosedi_lobby: tuple[World, StoredMessage], caplog: pytest.LogCaptureFixture, key: str, value: str) -> None:
    """Аня, an admin, presses a /settings button with any number: only one the buttons offer is stored,
    spelt as they spell it; the rest are answered as stale."""
    (tg, runner, users), _ = sosedi_lobby
    store, stored = flow_of(runner).store, {"timer": "turn_timer", "ping": "ping"}[key]
    offered = {str(choice): choice for choice in {"timer": TIMER_CHOICES, "ping": PING_CHOICES}[key]}
    await runner.say(users["anya"], "/settings")
    menu = tg.last_bot_message(CHAT_ID)
    before = (await store.chat(CHAT_ID)).settings.get(stored)
    answer = await runner.press_data(users["anya"], menu, f"s:{key}:{value}")  # forged: not always well-formed
    assert answer.get("text"), (key, value, answer)
    after = (await store.chat(CHAT_ID)).settings.get(stored)
    assert after == offered.get(value, before), (key, value)
    no_tracebacks(caplog)
