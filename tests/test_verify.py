"""Fair dice end to end: the commitment (32 hex digits) in the lobby and the first table
caption, the only hex a game puts into the chat; «🔎 Проверить кости» under the result and /verify,
which tell the seed and re-derive every roll (or name the one that differs)."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from bot import callback_data as cb
from bot import texts
from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.flow.context import Game
from bot.games import GAMES
from bot.games.sosedi import SosediUI
from bot.store import GameRow, Seat, TallyRow
from bot.verify import commits_to, request, verdict, verify_log
from engines.base import DiceSource, LogEntry, Outcome, seed_commitment, seed_digest
from locales import Translator
from tests.bot_harness import CHAT_ID, BotRunner, current_player_name, flow_of, game_id_of, group_world
from tests.clock_steps import later
from tests.engine_helpers import play_random
from tests.sosedi_steps import open_lobby, play_to_end

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


def commitment_text(seed: str) -> str:
    """The lobby's commitment line of ``seed``, as the caption's text shows it."""
    return f"🔒 Кости заверены: {seed_commitment(seed)}"


@pytest.mark.parametrize("code", sorted(GAMES))
def test_the_commitment_fits_every_start_caption(code: str, translator: Translator) -> None:
    """At most players with the longest names, the lobby and the first table caption carry the
    commitment (32 hex digits, a game without dice none) and still end with the player list /
    «Ходит:»; a table shown once drops it."""
    spec, tr = GAMES[code], ru(translator)
    engine = spec.engine
    seats = engine.max_players
    names = [f"{i}" + "Щ" * (texts.NAME_LIMIT - 2) + "…" for i in range(seats)]
    row = _row(code, seats, names=names)
    line = f"🔒 Кости заверены: <code>{seed_commitment(SEED)}</code>"
    options = engine.options_from_json(None)
    lobby = texts.lobby_caption(Game(row, spec, options, None), tr)
    assert lobby.endswith(tr("lobby-hint", min=engine.min_players, max=engine.max_players)
                          if engine.min_players < engine.max_players else tr("lobby-hint-exact", count=seats))
    state, events = engine.new_game(options, seats, SEED)
    log = texts.event_lines(spec.ui, events, names, tr) * 20  # more log than fits: the oldest lines go
    first = texts.table_caption(Game(row, spec, options, state), log, tr)
    assert "Ходит: " in first.split("\n")[-1]
    assert texts.visible_length(first) <= texts.CAPTION_LIMIT
    if spec.dice_per_roll:
        assert line in lobby and line in first
    else:  # no dice: nothing to commit to
        assert "🔒" not in lobby and "🔒" not in first
    later = texts.table_caption(Game(dataclasses.replace(row, shown_version=0), spec, options, state), log, tr)
    assert "🔒" not in later and "Ходит: " in later.split("\n")[-1]
    assert not HEX.search(later)


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
    assert "🔒" in texts.table_caption(game, [], tr)
    ui.width = 950  # the commitment would push «Ходит:» out: the commitment goes
    caption = texts.table_caption(game, [], tr)
    assert "🔒" not in caption and caption.split("\n")[-1].startswith("Ходит: ")


def finished(code: str, seats: int) -> tuple[Game, Outcome]:
    """A game of ``code`` played to its end, and its outcome."""
    spec = GAMES[code]
    _, final, _ = played(code, seats)
    outcome = spec.engine.outcome(final)
    assert outcome is not None
    return Game(dataclasses.replace(_row(code, seats), next_seed="6a" * 32), spec, final.options, final), outcome


@pytest.mark.parametrize(("code", "buttons"), [
    # game 1234 is «ya» in base 36; «🎬 Повтор» under every result
    ("sosedi", [("🔁 Ещё раунд", "r:ya"), ("🔎 Проверить кости", "v:ya"), ("🎬 Повтор", "w:ya")]),
    ("lions", [("🔁 Ещё раунд", "r:ya"), ("🎬 Повтор", "w:ya")]),  # no dice, nothing to check
])
def test_the_result_message_shows_no_seed_and_no_hash(translator: Translator, code: str,
                                                      buttons: list[tuple[str, str]]) -> None:
    game, outcome = finished(code, 2)
    text = texts.result_message(game, outcome, [], ru(translator))
    assert text.startswith("🏁 ") and not HEX.search(text)  # neither this seed nor the rematch's
    assert "🔑" not in text and "🔒" not in text and "/verify" not in text
    keyboard = texts.result_keyboard(game, ru(translator))
    assert [(b.text, b.callback_data) for row in keyboard.inline_keyboard for b in row] == buttons
    assert len(keyboard.inline_keyboard[0]) == len(buttons) - 1  # the check sits beside «Ещё раунд», the replay below


def test_a_long_pub_tally_is_cut_in_the_result(translator: Translator) -> None:
    tally = [TallyRow(n + 1, f"<{'Я' * 28}{n:02d}>", 100 - n) for n in range(100)]  # 100 payers, names of 32
    text = texts.result_message(*finished("sosedi", 3), tally, ru(translator))
    assert len(text) < 4096  # Telegram's limit for a message
    assert text.count("&lt;ЯЯЯ") == texts.RESULT_TALLY_LINES  # the first payers, names escaped
    assert text.split("\n")[-1] == "…и ещё 90 человек — весь счёт: /tally"
    assert texts.tally_lines(tally[:3], 10, ru(translator))[-1] == f"&lt;{'Я' * 28}02&gt; — 98 раундов"


def test_a_commitment_is_the_digest_or_its_first_32_digits() -> None:
    digest = seed_digest(SEED)
    assert seed_commitment(SEED) == digest[:32] == hashlib.sha256(SEED.encode()).hexdigest()[:32]
    assert commits_to(digest, digest) and commits_to(digest, digest[:32].upper())
    assert not commits_to(digest, digest[:31]) and not commits_to(digest, digest[:33]) and not commits_to(digest, "")
    assert not commits_to(digest, seed_commitment("00" * 32))
    assert request(["12", digest[:32]]) == (12, digest[:32]) and request(["#12", digest]) == (12, digest)
    for wrong in ([], ["x"], ["12", digest[:31]], ["12", digest[:40]], ["12", digest + "0"], ["1", "2", "3"]):
        assert request(wrong) is None, wrong


# end to end -----------------------------------------------------------------------

HEX = re.compile(r"[0-9a-fA-F]{16,}")  # a run this long is a seed or a hash, never a word or a number
SHOWN = ("sendMessage", "sendPhoto", "editMessageMedia", "editMessageCaption", "editMessageText")
CHECK = "Проверить кости"
CHECK_TOAST = "Проверка костей — ответом на итоги."
AGAIN_TOAST = "Проверку этой игры только что выложили — она чуть выше."
STALE = "Кнопка устарела."


def seed_of(n: int) -> str:
    return f"{n:064x}"


def everything_sent(tg: FakeTelegram) -> str:
    """Every text, caption and button the bot ever sent or edited in, as one string."""
    return "\n".join(json.dumps(r.params, ensure_ascii=False) for r in tg.requests)


def hex_shown(tg: FakeTelegram) -> dict[str, set[int]]:
    """Every run of hex digits the bot has put into a message (its text, caption or buttons, in any
    send or edit) → the messages it was in. Callback data and file ids are not shown, so not looked at."""
    found: dict[str, set[int]] = {}
    for r in tg.requests:
        if r.method not in SHOWN or not r.ok:
            continue
        media, markup = r.params.get("media") or {}, r.params.get("reply_markup") or {}
        words = [r.params.get("text"), r.params.get("caption"), media.get("caption"),
                 *(b.get("text") for row in markup.get("inline_keyboard", []) for b in row)]
        runs = HEX.findall("\n".join(w for w in words if w))
        assert len(runs) <= 1, (r.method, runs)  # one line of hex at most in any message, at any time
        for run in runs:
            found.setdefault(run, set()).add(r.params.get("message_id") or r.response["result"]["message_id"])
    return found


async def ask(runner: BotRunner, user: FakeUser, text: str, chat_id: int = CHAT_ID) -> str:
    before = len(runner.tg.bot_messages(chat_id))
    await runner.tg.send_message(user, chat_id, text)
    await runner.handled()
    messages = runner.tg.bot_messages(chat_id)
    assert len(messages) == before + 1, runner.tg.dump()
    reply = messages[-1].text
    assert reply is not None
    return reply


async def press_check(runner: BotRunner, user: FakeUser, result: StoredMessage,
                      data: str | None = None) -> tuple[str, list[StoredMessage]]:
    """``user`` presses «🔎 Проверить кости» under ``result`` (or sends ``data`` from it): the toast, and
    the messages the bot posted after it."""
    before = len(runner.tg.bot_messages(CHAT_ID))
    answer = await runner.press_data(user, result, data or result.button(CHECK))
    return answer.get("text", ""), runner.tg.bot_messages(CHAT_ID)[before:]


async def set_dice(runner: BotRunner, game_id: int, n: int, dice: Sequence[int]) -> None:
    """Forge action ``n``'s dice in the stored log, behind the bot's back."""
    assert runner.app is not None
    await runner.app.bot_data["flow"].store._write("UPDATE actions SET dice = ? WHERE game_id = ? AND n = ?",
                                                  (json.dumps(list(dice)), game_id, n))


async def sosedi_to_the_end(runner: BotRunner, users: dict[str, FakeUser]) -> tuple[int, int, StoredMessage]:
    """Аня, Борис and Вера play a «соседи» game from its lobby to the end: (game id, rolls, result)."""
    lobby = await open_lobby(runner, users)
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)  # read from its buttons, which go at the end
    rolls = await play_to_end(runner, users, table)
    return game_id, rolls, runner.tg.last_bot_message(CHAT_ID)


async def test_fair_dice_end_to_end(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        seed = seed_of(FIRST_SEED)
        digest, commitment = seed_digest(seed), seed_commitment(seed)
        lobby = await open_lobby(runner, users)
        assert commitment_text(seed) in lobby.caption
        at = len(lobby.caption[:lobby.caption.index(commitment)].encode("utf-16-le")) // 2  # Telegram counts UTF-16
        assert {"type": "code", "offset": at, "length": 32} in lobby.caption_entities
        await runner.press(users["anya"], lobby, "Начать")
        table = runner.table()
        game_id = game_id_of(table)
        assert commitment_text(seed) in table.caption and "Ходит:" in table.caption  # the first table caption
        mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption))
        await runner.press(mover, table, "🎲")
        assert "🔒" not in table.caption  # later captions do not repeat it
        assert seed not in everything_sent(tg) and digest not in everything_sent(tg)  # nor the whole hash
        assert "ещё идёт" in await ask(runner, users["boris"], f"/verify {game_id}")
        assert seed not in everything_sent(tg)

        rolls = 1 + await play_to_end(runner, users, table)
        result = tg.last_bot_message(CHAT_ID)
        assert result.text is not None and not HEX.search(result.text) and "/verify" not in result.text
        assert [label for label, _ in result.buttons] == ["🔁 Ещё раунд", "🔎 Проверить кости", "🎬 Повтор"]
        assert seed not in everything_sent(tg)

        # the button: what /verify says, as a reply to the result, whoever presses (Глеб did not play)
        toast, posted = await press_check(runner, users["gleb"], result)
        assert toast == CHECK_TOAST and len(posted) == 1 and posted[0].reply_to is result
        check = posted[0].text
        assert check is not None and check.startswith(f"✅ Игра #{game_id}: {rolls} {rolls_word(rolls)}"), check
        assert f"Зерно: {seed}" in check and f"sha256 зерна: {digest}" in check
        assert "HMAC-SHA256" in check  # how to check it by hand, in the message itself
        assert digest.startswith(commitment) and seed_digest(seed) == hashlib.sha256(seed.encode()).hexdigest()
        assert await ask(runner, users["vera"], f"/verify {game_id}") == check  # one text, both ways in

        for noted, verdict_line in ((commitment, "✅ Ваш sha256 совпадает"), (commitment.upper(), "✅ Ваш sha256"),
                                    (digest, "✅ Ваш sha256 совпадает"),
                                    (seed_commitment(seed_of(FIRST_SEED + 1)), "❌ Ваш sha256 не совпадает")):
            assert verdict_line in await ask(runner, users["vera"], f"/verify #{game_id} {noted}"), noted

        n = rolls // 2  # forge a roll in the middle: /verify names exactly that one
        actions = await flow_of(runner).store.actions(game_id)
        entry = next(a for a in actions if a.n == n)
        forged = [other_face(entry.dice[0]), *entry.dice[1:]]
        await set_dice(runner, game_id, n, forged)
        bad = await ask(runner, users["vera"], f"/verify {game_id}")
        name = ["Аня", "Борис", "Вера"][entry.seat]  # open_lobby seats them in this order
        assert bad.split("\n")[0] == (
            f"❌ Игра #{game_id}: бросок {n + 1} (ход {n + 1}, {name}): в журнале {' · '.join(map(str, forged))}, "
            f"а зерно даёт {' · '.join(map(str, entry.dice))}.")


async def test_the_check_is_posted_once_a_minute_per_game(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (_, runner, users):
        _, _, result = await sosedi_to_the_end(runner, users)
        toast, posted = await press_check(runner, users["anya"], result)
        assert toast == CHECK_TOAST and len(posted) == 1 and posted[0].reply_to is result
        first = posted[0].text
        flow = flow_of(runner)
        for user, seconds in ((users["anya"], 0), (users["boris"], 1), (users["gleb"], 58)):  # up to 59 s after
            later(flow, seconds)
            assert await press_check(runner, user, result) == (AGAIN_TOAST, [])  # no flood, whoever presses
        later(flow, 2)  # 61 s after the first
        toast, posted = await press_check(runner, users["boris"], result)
        assert toast == CHECK_TOAST and [m.text for m in posted] == [first] and posted[0].reply_to is result


async def test_the_rematch_first_table_carries_its_commitment(tmp_path: Path) -> None:
    """«Ещё раунд»'s commitment is not in the result: its first table shows it, and it is the start of
    the SHA-256 of the seed the rematch was played with (drawn when the first game ended)."""
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        first_id, _, result = await sosedi_to_the_end(runner, users)
        second_seed = seed_of(FIRST_SEED + 1)
        assert second_seed not in everything_sent(tg) and seed_commitment(second_seed) not in everything_sent(tg)
        await runner.press(users["anya"], result, "Ещё раунд")
        second = runner.table()
        second_id = game_id_of(second)
        assert second.message_id != result.message_id and "Ходит:" in second.caption
        shown = re.search(r"🔒 Кости заверены: ([0-9a-f]+)", second.caption)
        assert shown is not None and len(shown.group(1)) == 32
        stored = await flow_of(runner).store.game(second_id)
        assert stored is not None and stored.seed == second_seed  # the seed drawn at the first game's end
        assert shown.group(1) == hashlib.sha256(stored.seed.encode()).hexdigest()[:32]
        not_over = await ask(runner, users["anya"], f"/verify {second_id}")
        assert not_over.startswith(f"Игра #{second_id} ещё идёт. Зерно костей откроется, когда она закончится")
        assert second_seed not in everything_sent(tg)
        await ask(runner, users["anya"], "/stop")
        stopped = await ask(runner, users["anya"], f"/verify {second_id} {shown.group(1)}")
        assert stopped.startswith(f"✅ Игра #{second_id}: ") and f"Зерно: {second_seed}" in stopped
        assert "✅ Ваш sha256 совпадает" in stopped
        # the same result's button again: that seed has served a game, so this one gets a fresh seed
        await runner.press(users["anya"], result, "Ещё раунд")
        third = await flow_of(runner).store.game(game_id_of(runner.table()))
        assert third is not None and third.id not in (first_id, second_id)
        assert third.seed not in (seed_of(FIRST_SEED), second_seed)
        assert f"🔒 Кости заверены: {seed_commitment(third.seed)}" in runner.table().caption


async def test_one_line_of_hex_per_game_in_the_whole_chat(tmp_path: Path) -> None:
    """A game and its rematch, played to the end: in every send and edit of the bot, the only hex
    is each game's 32-digit commitment, in one message each (the lobby turned table; the rematch's table)."""
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        _, _, result = await sosedi_to_the_end(runner, users)
        await runner.press(users["anya"], result, "Ещё раунд")
        second = runner.table()
        await play_to_end(runner, users, second)
        assert "Ещё раунд" in tg.last_bot_message(CHAT_ID).buttons[0][0]
        lobby_id = min(m.message_id for m in tg.bot_messages(CHAT_ID) if m.photo is not None)
        assert hex_shown(tg) == {seed_commitment(seed_of(FIRST_SEED)): {lobby_id},
                                 seed_commitment(seed_of(FIRST_SEED + 1)): {second.message_id}}


async def test_a_game_without_dice_shows_no_dice_lines(tmp_path: Path) -> None:
    """«Охота на львов» rolls no dice: no commitment in its lobby or table, no check under its result,
    and /verify says plainly that there is nothing to check."""
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        assert GAMES["lions"].dice_per_roll == 0
        await runner.say(users["anya"], "/newgame lions")
        lobby = runner.table()
        assert "🔒" not in lobby.caption and "🦁 Львы: Аня · 🏹 Охотники: ждём игрока" in lobby.caption
        await runner.press(users["boris"], lobby, "Играю")
        await runner.press(users["anya"], lobby, "Начать")
        table = runner.table()
        game_id = game_id_of(table)
        assert "🔒" not in table.caption and "Ходит:" in table.caption
        assert await ask(runner, users["vera"], f"/verify {game_id}") == (
            f"В игре #{game_id} («Охота на львов») костей нет — проверять нечего.")
        await runner.say(users["anya"], "/leave")  # in «Охота на львов» leaving is resigning
        result = next(m for m in reversed(tg.bot_messages(CHAT_ID)) if m.text and m.text.startswith("🏁"))
        assert result.text is not None and "соперник сдался" in result.text
        assert [label for label, _ in result.buttons] == ["🔁 Ещё раунд", "🎬 Повтор"]
        assert hex_shown(tg) == {}
        assert "🔒" not in everything_sent(tg) and "sha256" not in everything_sent(tg)
        # its check forged from the result: nothing to check, nothing posted
        assert await press_check(runner, users["vera"], result, cb.check_dice(game_id)) == (STALE, [])
        assert await ask(runner, users["vera"], f"/verify {game_id}") == (
            f"В игре #{game_id} («Охота на львов») костей нет — проверять нечего.")
        assert await ask(runner, users["vera"], f"/verify {game_id + 1}") == f"В этом чате нет игры #{game_id + 1}."


async def test_forged_check_presses_post_nothing(tmp_path: Path) -> None:
    """A check of a running game (its seed would tell the coming dice), of a stopped one (no result
    offers it), of another chat's game, of no game, or junk: «Кнопка устарела.», nothing posted, nothing
    changed."""
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        first_id, _, result = await sosedi_to_the_end(runner, users)
        await runner.press(users["anya"], result, "Ещё раунд")
        running = runner.table()
        running_id = game_id_of(running)
        stored = await flow_of(runner).store.game(running_id)
        tg.add_chat(OTHER_CHAT, "supergroup", "Другая группа", creator=users["gleb"].id)
        junk = ("v:", "v:ZZ", f"v:{cb.to_base36(first_id)}:1", "v:" + "1" * 11)
        for data in (cb.check_dice(running_id), cb.check_dice(999_999), *junk):
            assert await press_check(runner, users["gleb"], result, data) == (STALE, []), data
            assert await press_check(runner, users["gleb"], running, data) == (STALE, []), data
        assert stored is not None and stored.seed not in everything_sent(tg)
        assert await flow_of(runner).store.game(running_id) == stored
        await ask(runner, users["anya"], "/stop")
        assert await press_check(runner, users["vera"], result, cb.check_dice(running_id)) == (STALE, [])
        # a press in another chat on this chat's game: the same answer as for no game, and nothing there
        await tg.send_message(users["gleb"], OTHER_CHAT, "/help")
        await runner.handled()
        elsewhere = tg.last_bot_message(OTHER_CHAT)
        handle = await tg.press(users["gleb"], OTHER_CHAT, elsewhere.message_id, cb.check_dice(first_id),
                                check_buttons=False)
        assert (await tg.wait_answer(handle)).get("text") == STALE
        await runner.handled()
        assert tg.bot_messages(OTHER_CHAT) == [elsewhere]
        # the real button still works after all that
        toast, posted = await press_check(runner, users["gleb"], result)
        assert toast == CHECK_TOAST and len(posted) == 1 and posted[0].text.startswith(f"✅ Игра #{first_id}: ")


def rolls_word(count: int) -> str:
    """The Russian word form for ``count`` rolls in «N бросков из журнала»."""
    if count % 10 == 1 and count % 100 != 11:
        return "бросок"
    if 2 <= count % 10 <= 4 and not 12 <= count % 100 <= 14:
        return "броска"
    return "бросков"


async def test_verify_answers_only_for_this_chat(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=FIRST_SEED) as (tg, runner, users):
        game_id, _, _ = await sosedi_to_the_end(runner, users)
        assert (await ask(runner, users["anya"], f"/verify {game_id}")).startswith("✅")
        tg.add_chat(OTHER_CHAT, "supergroup", "Другая группа", creator=users["gleb"].id)
        elsewhere = await ask(runner, users["gleb"], f"/verify {game_id}", OTHER_CHAT)
        unknown = await ask(runner, users["gleb"], "/verify 999", OTHER_CHAT)
        assert elsewhere == f"В этом чате нет игры #{game_id}."
        assert elsewhere.replace(str(game_id), "N") == unknown.replace("999", "N")
        assert all(seed_of(FIRST_SEED) not in (m.text or "") for m in tg.bot_messages(OTHER_CHAT))
        usage = "Использование: /verify <номер игры>"
        for wrong in ("/verify", "/verify abc", "/verify 1 2 3", f"/verify {game_id} 1234", "/verify ١٢",
                      "/verify " + "9" * 30, f"/verify {game_id} {'a' * 31}", f"/verify {game_id} {'a' * 48}"):
            assert (await ask(runner, users["anya"], wrong)).startswith(usage), wrong
