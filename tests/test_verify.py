"""Fair dice end to end (issue #11): the commitment in the lobby and the first table caption,
the seed in the result message, and /verify re-deriving every roll (or naming the one that differs)."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import texts
from bot.fake_telegram import FakeTelegram, FakeUser
from bot.flow.context import Game
from bot.games import GAMES
from bot.games.sosedi import SosediUI
from bot.store import GameRow, Seat
from bot.verify import verdict, verify_log
from engines.base import DiceSource, LogEntry, Outcome, seed_digest
from locales import Translator
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, game_id_of, group_world
from tests.engine_helpers import play_random
from tests.test_e2e_sosedi import open_lobby, play_to_end

SEED = "5f" * 32
FIRST_SEED = 40  # group_world: the first game gets f"{40:064x}", the next one f"{41:064x}"
OTHER_CHAT = -100777


@pytest.fixture(scope="module")
def translator() -> Translator:
    return Translator.load(strict=True)


def ru(translator: Translator) -> Callable[..., str]:
    return lambda key, /, **args: translator.t("ru", key, **args)


def played(code: str, seats: int, seed: str = SEED) -> tuple[Any, Any, list[LogEntry]]:
    """A whole game of ``code`` with random legal choices: (options, final state, log)."""
    engine = GAMES[code].engine
    options = engine.options_from_json(None)
    final, _, log = play_random(engine, options, seats, seed, limit=20_000)
    return options, final, log


def check(code: str, seats: int, log: Sequence[LogEntry], final: Any = None, commitment: str | None = None) -> Any:
    engine = GAMES[code].engine
    state = None if final is None else json.loads(json.dumps(final.to_json()))
    return verify_log(engine, engine.options_from_json(None), seats, SEED, log, state, commitment)


def rolls_of(log: Sequence[LogEntry]) -> list[int]:
    """Indexes of the log entries that are rolls."""
    return [i for i, entry in enumerate(log) if entry.dice]


def other_face(value: int) -> int:
    return value % 6 + 1


# the pure check -------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(GAMES))
def test_a_real_game_verifies(code: str) -> None:
    seats = GAMES[code].engine.min_players + 1 if GAMES[code].engine.max_players > 2 else 2
    _, final, log = played(code, seats)
    result = check(code, seats, log, final)
    assert result.ok and result.mismatch is None
    assert result.rolls == len(rolls_of(log))
    assert result.digest == seed_digest(SEED) and len(result.digest) == 64
    assert (result.rolls > 0) == (code != "lions")


@pytest.mark.parametrize(("code", "seats"), [("sosedi", 3), ("ludo", 4), ("spichki", 5)])
def test_a_changed_die_is_named_by_roll_and_action(code: str, seats: int) -> None:
    _, _, log = played(code, seats)
    rolls = rolls_of(log)
    k = len(rolls) // 2  # roll k + 1, somewhere in the middle
    i = rolls[k]
    logged = log[i].dice
    forged = (other_face(logged[0]), *logged[1:])
    tampered = [*log[:i], log[i]._replace(dice=forged), *log[i + 1:]]
    result = check(code, seats, tampered)
    bad = result.mismatch
    assert not result.ok and bad is not None
    assert (bad.kind, bad.action, bad.roll, bad.seat) == ("dice", i, k + 1, log[i].seat)
    assert bad.logged == forged and bad.derived == logged
    assert bad.derived == DiceSource(SEED).throw(k + 1, len(logged))  # roll k is throw k
    assert result.rolls == k  # the rolls before it did match


def test_a_removed_roll_is_found_at_its_place() -> None:
    _, _, log = played("sosedi", 4)  # every action is a roll: the later ones all move up one throw
    i = 5
    result = check("sosedi", 4, [*log[:i], *log[i + 1:]])
    assert result.mismatch is not None and (result.mismatch.action, result.mismatch.roll) == (i, i + 1)


def test_a_removed_ludo_roll_leaves_its_move_illegal() -> None:
    _, _, log = played("ludo", 2)
    i = next(i for i in rolls_of(log) if i + 1 < len(log) and not log[i + 1].dice)  # a roll, then its move
    result = check("ludo", 2, [*log[:i], *log[i + 1:]])
    bad = result.mismatch
    assert bad is not None and (bad.kind, bad.action, bad.code) == ("code", i, log[i + 1].code)


def test_a_removed_last_action_is_found_only_against_the_stored_state() -> None:
    _, final, log = played("sosedi", 3)
    assert check("sosedi", 3, log[:-1]).ok  # the log alone cannot tell it was cut short
    result = check("sosedi", 3, log[:-1], final)
    assert result.mismatch is not None and result.mismatch.kind == "end"


def test_a_changed_code_is_named() -> None:
    _, final, log = played("ludo", 3)
    i = rolls_of(log)[4]
    result = check("ludo", 3, [*log[:i], log[i]._replace(code="p9"), *log[i + 1:]])
    bad = result.mismatch
    assert bad is not None and (bad.kind, bad.action, bad.roll, bad.code) == ("code", i, 5, "p9")
    # another legal move instead of the one played: the replay goes elsewhere and the check says so
    j, swap = first_choice("ludo", 3, log)
    result = check("ludo", 3, [*log[:j], log[j]._replace(code=swap), *log[j + 1:]], final)
    assert not result.ok and result.mismatch is not None and result.mismatch.action >= j


def first_choice(code: str, seats: int, log: Sequence[LogEntry]) -> tuple[int, str]:
    """The first action of the log that had a legal alternative, and that alternative."""
    engine = GAMES[code].engine
    state, _ = engine.new_game(engine.options_from_json(None), seats, SEED)
    for i, entry in enumerate(log):
        codes = [a.code for a in engine.legal_actions(state)]
        if len(codes) > 1:
            return i, next(c for c in codes if c != entry.code)
        state, _, _ = engine.apply(state, entry.code)
    raise AssertionError("no choice in the whole game")


def test_a_changed_seat_is_named() -> None:
    _, _, log = played("sosedi", 3)
    result = check("sosedi", 3, [log[0]._replace(seat=(log[0].seat + 1) % 3), *log[1:]])
    bad = result.mismatch
    assert bad is not None and (bad.kind, bad.action, bad.derived_seat) == ("seat", 0, log[0].seat)


def test_a_commitment_given_is_compared() -> None:
    _, final, log = played("sosedi", 2)
    assert check("sosedi", 2, log, final, seed_digest(SEED).upper()).commitment_ok is True
    wrong = check("sosedi", 2, log, final, seed_digest("00" * 32))
    assert wrong.commitment_ok is False and not wrong.ok and wrong.mismatch is None


def _row(code: str, seats: int, shown_version: int = -1, names: Sequence[str] = ()) -> GameRow:
    names = list(names) or [f"Игрок {i}" for i in range(seats)]
    return GameRow(id=1234, chat_id=CHAT_ID, code=code, options={}, seed=SEED, state=None, version=0,
                   shown_version=shown_version, status="finished", host_id=1, message_id=None, result=None,
                   seats=tuple(Seat(i, i + 1, names[i]) for i in range(seats)))


def test_verdict_names_the_roll_in_words(translator: Translator) -> None:
    _, final, log = played("sosedi", 3)
    game = _row("sosedi", 3, names=["<Аня>", "Борис", "Вера"])
    ok = verdict(game, check("sosedi", 3, log, final), ru(translator))
    assert ok.startswith(f"✅ Игра #1234: {len(log)} {rolls_word(len(log))} из журнала")  # every sosedi action rolls
    assert f"<code>{SEED}</code>" in ok and f"<code>{seed_digest(SEED)}</code>" in ok
    i = 3
    forged = (other_face(log[i].dice[0]), *log[i].dice[1:])
    bad = verdict(game, check("sosedi", 3, [*log[:i], log[i]._replace(dice=forged), *log[i + 1:]]), ru(translator))
    name = html_name(game, log[i].seat)
    expected = (f"❌ Игра #1234: бросок 4 (ход 4, {name}): в журнале {' · '.join(map(str, forged))}, "
                f"а зерно даёт {' · '.join(map(str, log[i].dice))}.")
    assert bad.split("\n")[0] == expected


def html_name(game: GameRow, seat: int | None) -> str:
    assert seat is not None
    return game.seats[seat].name.replace("<", "&lt;").replace(">", "&gt;")


@pytest.mark.parametrize(("count", "ru_text", "en_text"), [
    (1, "1 бросок из журнала совпадает", "the 1 logged roll matches"),
    (2, "2 броска из журнала совпадают", "all 2 logged rolls match"),
    (5, "5 бросков из журнала совпадают", "all 5 logged rolls match"),
    (11, "11 бросков из журнала совпадают", "all 11 logged rolls match"),
    (21, "21 бросок из журнала совпадает", "all 21 logged rolls match"),
])
def test_the_count_of_rolls_is_plural(translator: Translator, count: int, ru_text: str, en_text: str) -> None:
    assert ru_text in translator.t("ru", "verify-ok", id="7", count=count)
    assert en_text in translator.t("en", "verify-ok", id="7", count=count)


# captions ---------------------------------------------------------------------------


@pytest.mark.parametrize("code", sorted(GAMES))
def test_the_commitment_fits_every_start_caption(code: str, translator: Translator) -> None:
    """At most players with the longest names, the lobby and the first table caption carry the
    commitment and still end with the player list / «Ходит:»; a table shown once drops it."""
    spec, tr = GAMES[code], ru(translator)
    engine = spec.engine
    seats = engine.max_players
    names = [f"{i}" + "Щ" * (texts.NAME_LIMIT - 2) + "…" for i in range(seats)]
    row = _row(code, seats, names=names)
    line = f"🔒 Кости: sha256 <code>{seed_digest(SEED)}</code>"
    options = engine.options_from_json(None)
    lobby = texts.lobby_caption(Game(row, spec, options, None), tr)
    assert line in lobby and lobby.endswith(tr("lobby-hint", min=engine.min_players, max=engine.max_players))
    state, events = engine.new_game(options, seats, SEED)
    log = texts.event_lines(spec.ui, events, names, tr) * 20  # more log than fits: the oldest lines go
    first = texts.table_caption(Game(row, spec, options, state), log, tr)
    assert line in first and "Ходит: " in first.split("\n")[-1]
    assert texts.visible_length(first) <= texts.CAPTION_LIMIT
    later = texts.table_caption(Game(dataclasses.replace(row, shown_version=0), spec, options, state), log, tr)
    assert "sha256" not in later and "Ходит: " in later.split("\n")[-1]


def test_the_commitment_gives_way_to_the_turn_line(translator: Translator) -> None:
    tr, engine = ru(translator), GAMES["sosedi"].engine

    class Wordy(SosediUI):
        """A status as long as ``width``: the caption's tail alone nearly fills it."""

        width = 0

        def status_lines(self, state: Any, names: Sequence[str], tr: Any) -> list[str]:
            return ["ж" * self.width]

    ui = Wordy()
    options = engine.options_from_json(None)
    state, _ = engine.new_game(options, 3, SEED)
    game = Game(_row("sosedi", 3), dataclasses.replace(GAMES["sosedi"], ui=ui), options, state)
    ui.width = 800
    assert "sha256" in texts.table_caption(game, [], tr)
    ui.width = 950  # the commitment would push «Ходит:» out: the commitment goes
    caption = texts.table_caption(game, [], tr)
    assert "sha256" not in caption and caption.split("\n")[-1].startswith("Ходит: ")


def finished_sosedi() -> tuple[Game, Outcome]:
    """A game of three played to its end, and its outcome."""
    spec = GAMES["sosedi"]
    _, final, _ = played("sosedi", 3)
    outcome = spec.engine.outcome(final)
    assert outcome is not None
    return Game(_row("sosedi", 3), spec, final.options, final), outcome


def test_the_result_message_reveals_the_seed(translator: Translator) -> None:
    text = texts.result_message(*finished_sosedi(), [], ru(translator))
    assert text.split("\n")[-2:] == [f"🔑 Зерно костей: <code>{SEED}</code>",
                                     "Проверить все броски: <code>/verify 1234</code>"]


def test_a_long_pub_tally_never_pushes_the_seed_out_of_the_result(translator: Translator) -> None:
    tally = [(f"<{'Я' * 30}{n:02d}>", 100 - n) for n in range(100)]  # 100 payers with long names
    text = texts.result_message(*finished_sosedi(), tally, ru(translator))
    assert len(text) < 4096  # Telegram's limit for a message
    assert text.count("&lt;ЯЯЯ") == texts.RESULT_TALLY_LINES  # the first payers, names escaped
    assert "…и ещё 90 человек — весь счёт: /tally" in text
    assert text.split("\n")[-2] == f"🔑 Зерно костей: <code>{SEED}</code>"
    assert texts.tally_lines(tally[:3], 10, ru(translator))[-1] == f"&lt;{'Я' * 30}02&gt; — 98 раундов"


# end to end -----------------------------------------------------------------------


def seed_of(n: int) -> str:
    return f"{n:064x}"


def everything_sent(tg: FakeTelegram) -> str:
    """Every text, caption and button the bot ever sent or edited in, as one string."""
    return "\n".join(json.dumps(r.params, ensure_ascii=False) for r in tg.requests)


async def ask(runner: BotRunner, user: FakeUser, text: str, chat_id: int = CHAT_ID) -> str:
    before = len(runner.tg.bot_messages(chat_id))
    await runner.tg.send_message(user, chat_id, text)
    await runner.handled()
    messages = runner.tg.bot_messages(chat_id)
    assert len(messages) == before + 1, runner.tg.dump()
    reply = messages[-1].text
    assert reply is not None
    return reply


async def set_dice(runner: BotRunner, game_id: int, n: int, dice: Sequence[int]) -> None:
    """Forge action ``n``'s dice in the stored log, behind the bot's back."""
    assert runner.app is not None
    await runner.app.bot_data["flow"].store._write("UPDATE actions SET dice = ? WHERE game_id = ? AND n = ?",
                                                  (json.dumps(list(dice)), game_id, n))


async def test_fair_dice_end_to_end(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        seed = seed_of(FIRST_SEED)
        digest = seed_digest(seed)
        lobby = await open_lobby(runner, users)
        assert f"🔒 Кости: sha256 {digest}" in lobby.caption
        at = len(lobby.caption[:lobby.caption.index(digest)].encode("utf-16-le")) // 2  # Telegram counts UTF-16
        assert {"type": "code", "offset": at, "length": 64} in lobby.caption_entities
        await runner.press(users["anya"], lobby, "Начать")
        table = runner.table()
        game_id = game_id_of(table)
        assert f"sha256 {digest}" in table.caption and "Ходит:" in table.caption  # the first table caption
        mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption))
        await runner.press(mover, table, "🎲")
        assert "sha256" not in table.caption  # later captions do not repeat it
        assert seed not in everything_sent(tg)  # the seed itself is never shown while the game runs
        assert "ещё идёт" in await ask(runner, users["boris"], f"/verify {game_id}")
        assert seed not in everything_sent(tg)

        rolls = 1 + await play_to_end(runner, users, table)
        result = tg.last_bot_message(CHAT_ID)
        assert result.text is not None and f"🔑 Зерно костей: {seed}" in result.text
        assert f"/verify {game_id}" in result.text
        revealed = re.search(r"Зерно костей: ([0-9a-f]{64})", result.text)
        assert revealed is not None and seed_digest(revealed.group(1)) == digest  # the lobby's commitment

        ok = await ask(runner, users["vera"], f"/verify {game_id}")
        plural = rolls_word(rolls)
        assert ok.startswith(f"✅ Игра #{game_id}: {rolls} {plural}"), ok
        assert f"Зерно: {seed}" in ok and f"sha256 зерна: {digest}" in ok
        assert "✅ Ваш sha256 совпадает" in await ask(runner, users["vera"], f"/verify #{game_id} {digest}")

        n = rolls // 2  # forge a roll in the middle: /verify names exactly that one
        actions = await runner.app.bot_data["flow"].store.actions(game_id)
        entry = next(a for a in actions if a.n == n)
        forged = [other_face(entry.dice[0]), *entry.dice[1:]]
        await set_dice(runner, game_id, n, forged)
        bad = await ask(runner, users["vera"], f"/verify {game_id}")
        name = ["Аня", "Борис", "Вера"][entry.seat]  # open_lobby seats them in this order
        assert bad.split("\n")[0] == (
            f"❌ Игра #{game_id}: бросок {n + 1} (ход {n + 1}, {name}): в журнале {' · '.join(map(str, forged))}, "
            f"а зерно даёт {' · '.join(map(str, entry.dice))}.")

        # a rematch: a new seed, committed in the result message before any of its rolls (and on its
        # first table), secret while it runs, told once stopped
        second_seed = seed_of(FIRST_SEED + 1)
        assert result.text.split("\n")[-1] == (
            f"🔒 Кости следующего раунда («Ещё раунд»): sha256 {seed_digest(second_seed)}")
        assert second_seed not in everything_sent(tg)
        await runner.press(users["anya"], result, "Ещё раунд")
        second = runner.table()
        second_id = game_id_of(second)
        assert f"sha256 {seed_digest(second_seed)}" in second.caption
        not_over = await ask(runner, users["anya"], f"/verify {second_id}")
        assert not_over.startswith(f"Игра #{second_id} ещё идёт. Зерно костей откроется, когда она закончится")
        assert second_seed not in everything_sent(tg)
        await ask(runner, users["anya"], "/stop")
        stopped = await ask(runner, users["anya"], f"/verify {second_id}")
        assert stopped.startswith(f"✅ Игра #{second_id}: ") and f"Зерно: {second_seed}" in stopped
        # the same result's button again: that seed has served a game, so this one gets a fresh seed
        await runner.press(users["anya"], result, "Ещё раунд")
        third = await runner.app.bot_data["flow"].store.game(game_id_of(runner.table()))
        assert third is not None and third.id != second_id and third.seed not in (seed, second_seed)


def rolls_word(count: int) -> str:
    """The Russian word form for ``count`` rolls in «N бросков из журнала»."""
    if count % 10 == 1 and count % 100 != 11:
        return "бросок"
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return "броска"
    return "бросков"


async def test_verify_answers_only_for_this_chat(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        lobby = await open_lobby(runner, users)
        await runner.press(users["anya"], lobby, "Начать")
        table = runner.table()
        game_id = game_id_of(table)
        await play_to_end(runner, users, table)
        assert (await ask(runner, users["anya"], f"/verify {game_id}")).startswith("✅")
        tg.add_chat(OTHER_CHAT, "supergroup", "Другая группа", creator=users["gleb"].id)
        elsewhere = await ask(runner, users["gleb"], f"/verify {game_id}", OTHER_CHAT)
        unknown = await ask(runner, users["gleb"], "/verify 999", OTHER_CHAT)
        assert elsewhere == f"В этом чате нет игры #{game_id}."
        assert elsewhere.replace(str(game_id), "N") == unknown.replace("999", "N")
        assert all(seed_of(FIRST_SEED) not in (m.text or "") for m in tg.bot_messages(OTHER_CHAT))
        usage = "Использование: /verify <номер игры>"
        for wrong in ("/verify", "/verify abc", "/verify 1 2 3", f"/verify {game_id} 1234", "/verify ١٢",
                      "/verify " + "9" * 30):
            assert (await ask(runner, users["anya"], wrong)).startswith(usage), wrong
