"""Security suite: who may do what.

**Permissions.** :data:`PERMISSIONS` is the table, one row per action and one column per
person; ``Y`` is allowed, ``N`` refused, ``-`` cannot happen (an anonymous admin posts as
the group, but presses buttons as themselves). The cast, in one supergroup:

========== ============================================================================
host       Борис: opens the lobby (``/newgame``) and sits at the table
admin      Дима: an administrator of the chat who does not play
creator    Аня: the chat's creator (owner) who does not play
anonymous  an anonymous admin: a message from GroupAnonymousBot whose ``sender_chat`` is
           the group itself
player     Вера: seated at the table, not the host (Глеб sits there too); at the «Охота на
           львов» lobby of the «ai» row only the host sits, so there she is a bystander
outsider   Женя: a member of the chat who does not play
========== ============================================================================

:func:`test_permission_row` plays one row in one group: every refused person first (they
get the refusal text of ``locales/ru`` and nothing changes: the stored game, the lobby
options and host, the chat's language, timer and tally, the table message, and no other
message is posted), then every allowed person on a fresh scene, each checked for the
action's effect. The anonymous column is :func:`test_anonymous_admin_row`; a post on behalf
of another chat gets no rights. Moves are no column:
:func:`test_only_the_player_to_move_may_move` (anyone else gets «Сейчас ходит …», and the
button of the version before is stale for everyone).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.fake_telegram import FakeTelegram, FakeUser, StoredMessage
from bot.flow import GameFlow
from bot.games import GAMES
from bot.store import GameRow
from tests.bot_harness import CHAT_ID, BotRunner, assert_replays, current_player_name, game_id_of, group_world
from tests.clock_steps import time_out
from tests.input_steps import snapshot
from tests.security_helpers import STOP_DENIED, Actor, Outcome, anonymous_message, command

Y, N, NA = "allowed", "refused", "-"
WHO = ("host", "admin", "creator", "anonymous", "player", "outsider")

PERMISSIONS: dict[str, tuple[str, ...]] = {
    # action             host admin creator anonymous player outsider
    "/stop in a lobby":   (Y,   Y,    Y,      Y,        N,     N),
    "/stop in a game":    (Y,   Y,    Y,      Y,        N,     N),
    "/kick":              (Y,   Y,    Y,      Y,        N,     N),
    "⏭ kick button":      (Y,   Y,    Y,      NA,       N,     N),
    "/set chips 15":      (Y,   Y,    Y,      Y,        N,     N),
    "lobby: set":         (Y,   Y,    Y,      NA,       N,     N),
    "lobby: cancel":      (Y,   Y,    Y,      NA,       N,     N),
    "lobby: start":       (Y,   Y,    Y,      NA,       N,     N),
    "lobby: bot":         (Y,   Y,    Y,      NA,       N,     N),
    "lobby: unbot":       (Y,   Y,    Y,      NA,       N,     N),
    "lobby: timer":       (Y,   Y,    Y,      NA,       N,     N),
    "lobby: ai":          (Y,   Y,    Y,      NA,       N,     N),
    "/lang en":           (N,   Y,    Y,      Y,        N,     N),
    "/tally reset":       (N,   Y,    Y,      Y,        N,     N),
}

# refusals, from locales/ru/main.ftl
HOST_ONLY = "Это может только хост (или админ)."
KICK_DENIED = "Пропускать игроков может только хост или администратор чата."
ADMINS_ONLY = "Это могут только администраторы чата."
NOT_YOUR_TURN = "Сейчас ходит {}."
STALE = "Кнопка устарела."
TIMER_TOASTS = {0: "Таймер хода выключен.", 1: "На ход — 1 мин; кто не успеет, за того сходит бот.",
                3: "На ход — 3 мин; кто не успеет, за того сходит бот.",
                10: "На ход — 10 мин; кто не успеет, за того сходит бот."}


@dataclass
class Cast:
    """The group and its people (see the module docstring)."""

    tg: FakeTelegram
    runner: BotRunner
    people: dict[str, FakeUser]  # by role; the anonymous admin is no user
    third: FakeUser  # Глеб, the host's other guest

    @property
    def flow(self) -> GameFlow:
        assert self.runner.app is not None
        return self.runner.app.bot_data["flow"]

    @property
    def seated(self) -> dict[str, FakeUser]:
        """The people at the «соседи» table, by first name."""
        return {u.first_name: u for u in (self.people["host"], self.people["player"], self.third)}


@pytest.fixture
async def cast(tmp_path: Path) -> AsyncIterator[Cast]:
    async with group_world(tmp_path, first_seed=31, count=5) as (tg, runner, users):
        tg.chats[CHAT_ID].set_admin(users["dima"].id)
        outsider = tg.add_user(6, "Женя")
        tg.chats[CHAT_ID].add_member(outsider.id)
        people = {"host": users["boris"], "admin": users["dima"], "creator": users["anya"],
                  "player": users["vera"], "outsider": outsider}
        yield Cast(tg, runner, people, users["gleb"])


async def press(runner: BotRunner, who: Actor, table: StoredMessage, label: str) -> Outcome:
    """``who`` presses the table's button whose label is or contains ``label``."""
    assert who is not None, "an anonymous admin presses buttons as themselves"
    before = len(runner.tg.bot_messages(CHAT_ID))
    answer = await runner.press(who, table, label)
    return Outcome(answer.get("text", ""), runner.tg.bot_messages(CHAT_ID)[before:])


async def scene(cast: Cast, table: StoredMessage) -> tuple[Any, ...]:
    """Everything a refused action must leave alone."""
    store = cast.flow.store
    game = await store.game(game_id_of(table))
    assert game is not None
    active = await store.active_game(CHAT_ID)
    return (await snapshot(cast.tg, cast.runner, table), game.options, game.host_id, game.deadline, game.timeouts,
            active and active.id, (await store.chat(CHAT_ID)).locale, dict((await store.chat(CHAT_ID)).settings),
            await store.pub_tally(CHAT_ID))


# scenes ---------------------------------------------------------------------------------------

async def clear(cast: Cast) -> None:
    """End whatever the last allowed action left behind, so a fresh scene can be set."""
    store = cast.flow.store
    active = await store.active_game(CHAT_ID)
    if active is not None:
        await store.stop_game(active.id, {"kind": "stopped"})
    if (await store.chat(CHAT_ID)).locale == "en":
        await store.set_chat_locale(CHAT_ID, "ru")


async def sosedi_lobby(cast: Cast) -> StoredMessage:
    """Борис opens a «соседи» lobby; Вера and Глеб sit down."""
    await cast.runner.say(cast.people["host"], "/newgame sosedi")
    table = cast.runner.table()
    for guest in (cast.people["player"], cast.third):
        assert (await cast.runner.press(guest, table, "Играю"))["text"] == "Вы за столом!"
    return table


async def lobby_with_a_bot(cast: Cast) -> StoredMessage:
    table = await sosedi_lobby(cast)
    await cast.runner.press(cast.people["host"], table, "🤖 Добавить бота")
    return table


async def lions_lobby(cast: Cast) -> StoredMessage:
    """Борис opens an «Охота на львов» lobby and waits alone: «🤖 Играть с ботом» is offered."""
    await cast.runner.say(cast.people["host"], "/newgame lions")
    return cast.runner.table()


async def sosedi_game(cast: Cast) -> StoredMessage:
    table = await sosedi_lobby(cast)
    await cast.runner.press(cast.people["host"], table, "Начать")
    assert "Ходит:" in table.caption
    return table


async def game_with_a_timed_out_player(cast: Cast) -> StoredMessage:
    """A running game whose player to move has let the timer run out once: «⏭» is offered."""
    table = await sosedi_game(cast)
    slow = current_player_name(table.caption)
    await time_out(cast.runner, table)
    while current_player_name(table.caption) != slow:
        await cast.runner.press(cast.seated[current_player_name(table.caption)], table, "🎲")
    assert any(label == "⏭ Пропустить игрока" for label, _ in table.buttons)
    return table


async def game_and_a_tally(cast: Cast) -> StoredMessage:
    """A running game, and a pub tally in the chat: Вера paid two rounds before (written
    straight into storage: playing pub games to their end here would only cost time)."""
    table = await sosedi_game(cast)
    store = cast.flow.store
    if not await store.pub_tally(CHAT_ID):
        cast.runner.write_db("INSERT INTO pub_tally(chat_id, user_id, name, rounds) VALUES (?, ?, ?, ?)",
                             (CHAT_ID, cast.people["player"].id, "Вера", 2))
    return table


# what an allowed action must have done -------------------------------------------------------

Check = Callable[[Cast, StoredMessage, GameRow, Outcome], Awaitable[None]]


async def stored(cast: Cast, game_id: int) -> GameRow:
    game = await cast.flow.store.game(game_id)
    assert game is not None
    return game


def mover_of(before: GameRow) -> int:
    assert before.state is not None
    seat = GAMES[before.code].engine.state_from_json(before.state).current_player
    assert seat is not None
    return seat


async def stopped(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Игра «Помоги своему соседу» остановлена."
    assert (await stored(cast, before.id)).status == "stopped"
    assert table.buttons == []
    if before.status == "lobby":
        assert table.caption == "Лобби закрыто."
    else:
        assert "⏹ Игра остановлена." in table.caption


async def kicked(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    seat = mover_of(before)
    name = before.seats[seat].name
    # who skipped whom: the host or an admin by name, an anonymous admin by the role
    lines = {f"{kicker} пропускает игрока {name} — его место занимает компьютер."
             for kicker in [*(u.first_name for u in cast.people.values()), "Администратор чата"]}
    if outcome.text not in lines:  # the button: answered silently, and the line posted
        assert not outcome.text and len(outcome.others) == 1 and outcome.others[0].text in lines
    else:
        assert outcome.others == []
    game = await stored(cast, before.id)
    assert game.seats[seat].name == f"🤖 {name}" and game.seats[seat].user_id < 0


async def chips_set(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Фишки: 15"  # what changed, not «Настройка изменена.»
    assert (await stored(cast, before.id)).options["chips"] == 15
    assert "Фишек у каждого: 15" in table.caption


async def lobby_closed(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Лобби закрыто."
    assert (await stored(cast, before.id)).status == "stopped"
    assert table.caption == "Лобби закрыто." and table.buttons == []


async def started(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Поехали!"
    game = await stored(cast, before.id)
    assert game.status == "running" and "Ходит:" in table.caption
    if game.code == "lions":  # «🤖 Играть с ботом»: the host against the computer
        assert game.names == ["Борис", "🤖 Кеша"]  # named as every game names its computers


async def bot_seated(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Бот сел за стол."
    assert (await stored(cast, before.id)).names == [*before.names, "🤖 Кеша"]
    assert "4. 🤖 Кеша" in table.caption


async def bot_unseated(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Бот встал из-за стола."
    assert (await stored(cast, before.id)).names == before.names[:-1] == ["Борис", "Вера", "Глеб"]


async def timer_moved(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    now = (await stored(cast, before.id)).options["table"]["turn_timer"]  # the lobby's own, stored with it
    assert "turn_timer" not in (await cast.flow.store.chat(CHAT_ID)).settings  # not the chat's
    assert outcome.text == TIMER_TOASTS[now]
    label = f"⏱ Таймер хода: {now} мин" if now else "⏱ Таймер хода: выкл."
    assert any(text == label for text, _ in table.buttons)


async def english(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Chat language: English."
    assert (await cast.flow.store.chat(CHAT_ID)).locale == "en"


async def tally_reset(cast: Cast, table: StoredMessage, before: GameRow, outcome: Outcome) -> None:
    assert outcome.text == "Счёт раундов обнулён."
    assert await cast.flow.store.pub_tally(CHAT_ID) == []


@dataclass(frozen=True)
class Action:
    """One row of the table: the scene it needs, how it is done, the refusal and the effect."""

    scene: Callable[[Cast], Awaitable[StoredMessage]]
    do: Callable[[Cast, Actor, StoredMessage], Awaitable[Outcome]]
    refusal: str
    allowed: Check


def says(text: str) -> Callable[[Cast, Actor, StoredMessage], Awaitable[Outcome]]:
    return lambda cast, who, table: command(cast.runner, who, text)


def presses(label: str) -> Callable[[Cast, Actor, StoredMessage], Awaitable[Outcome]]:
    return lambda cast, who, table: press(cast.runner, who, table, label)


ACTIONS: dict[str, Action] = {
    "/stop in a lobby": Action(sosedi_lobby, says("/stop"), STOP_DENIED, stopped),
    "/stop in a game": Action(sosedi_game, says("/stop"), STOP_DENIED, stopped),
    "/kick": Action(sosedi_game, says("/kick"), KICK_DENIED, kicked),
    "⏭ kick button": Action(game_with_a_timed_out_player, presses("⏭ Пропустить игрока"), KICK_DENIED, kicked),
    "/set chips 15": Action(sosedi_lobby, says("/set chips 15"), HOST_ONLY, chips_set),
    "lobby: set": Action(sosedi_lobby, presses("Фишки +5"), HOST_ONLY, chips_set),
    "lobby: cancel": Action(sosedi_lobby, presses("✖️ Отмена"), HOST_ONLY, lobby_closed),
    "lobby: start": Action(sosedi_lobby, presses("▶️ Начать"), HOST_ONLY, started),
    "lobby: bot": Action(sosedi_lobby, presses("🤖 Добавить бота"), HOST_ONLY, bot_seated),
    "lobby: unbot": Action(lobby_with_a_bot, presses("➖ Убрать бота"), HOST_ONLY, bot_unseated),
    "lobby: timer": Action(sosedi_lobby, presses("⏱ Таймер хода"), HOST_ONLY, timer_moved),
    "lobby: ai": Action(lions_lobby, presses("🤖 Играть с ботом"), HOST_ONLY, started),
    "/lang en": Action(sosedi_game, says("/lang en"), ADMINS_ONLY, english),
    "/tally reset": Action(game_and_a_tally, says("/tally reset"), ADMINS_ONLY, tally_reset),
}


def test_the_table_has_a_row_per_action_and_a_column_per_person() -> None:
    assert PERMISSIONS.keys() == ACTIONS.keys()
    assert all(len(row) == len(WHO) and set(row) <= {Y, N, NA} for row in PERMISSIONS.values())


@pytest.mark.parametrize("name", list(PERMISSIONS))
async def test_permission_row(cast: Cast, name: str) -> None:
    action, row = ACTIONS[name], dict(zip(WHO, PERMISSIONS[name], strict=True))
    people = [who for who in WHO if who != "anonymous"]  # test_anonymous_admin_row plays that column
    table: StoredMessage | None = None
    for who in sorted(people, key=lambda w: row[w] == Y):  # the refused first: they share one scene
        if table is None:
            await clear(cast)
            table = await action.scene(cast)
        actor = cast.people[who]
        if row[who] == N:
            before = await scene(cast, table)
            outcome = await action.do(cast, actor, table)
            assert (outcome.text, outcome.others) == (action.refusal, []), who
            assert await scene(cast, table) == before, who
        else:
            game = await stored(cast, game_id_of(table))
            await action.allowed(cast, table, game, await action.do(cast, actor, table))
            table = None


ANONYMOUS_ROWS = [name for name, row in PERMISSIONS.items() if row[WHO.index("anonymous")] == Y]


@pytest.mark.parametrize("name", ANONYMOUS_ROWS)
async def test_anonymous_admin_row(cast: Cast, name: str) -> None:
    action = ACTIONS[name]
    table = await action.scene(cast)
    game = await stored(cast, game_id_of(table))
    await action.allowed(cast, table, game, await action.do(cast, None, table))


async def test_posting_as_another_chat_is_no_admin_right(cast: Cast) -> None:
    """A message sent on behalf of a channel (``sender_chat`` is not this group) gets no admin
    rights: /stop, /kick, /tally reset and /lang change nothing (silence or the refusal)."""
    table = await game_and_a_tally(cast)
    channel = {"id": -100555, "type": "channel", "title": "Канал"}
    before = await scene(cast, table)
    for text, refusal in (("/stop", STOP_DENIED), ("/kick", KICK_DENIED), ("/tally reset", ADMINS_ONLY),
                          ("/lang en", ADMINS_ONLY)):
        update = anonymous_message(cast.tg, text)
        update["message"].update({"sender_chat": channel, "from": {
            "id": 136817688, "is_bot": True, "first_name": "Channel", "username": "Channel_Bot"}})
        count = len(cast.tg.bot_messages(CHAT_ID))
        await cast.tg.push_update(update)
        await cast.runner.handled()
        assert [m.text for m in cast.tg.bot_messages(CHAT_ID)[count:]] in ([], [refusal]), text
        assert await scene(cast, table) == before, text


async def test_only_the_player_to_move_may_move(cast: Cast) -> None:
    table = await sosedi_game(cast)
    game_id = game_id_of(table)
    everyone = [*cast.seated.values(), cast.people["admin"], cast.people["creator"], cast.people["outsider"]]
    for _ in range(2):
        mover = cast.seated[current_player_name(table.caption)]
        old = table.buttons[0][1]
        before = await scene(cast, table)
        for user in everyone:
            if user is not mover:  # the host, an admin and the creator no more than anyone else
                answer = await cast.runner.press_data(user, table, old)
                assert answer.get("text") == NOT_YOUR_TURN.format(mover.first_name), user.first_name
                assert await scene(cast, table) == before, user.first_name
        version = (await stored(cast, game_id)).version
        assert (await cast.runner.press_data(mover, table, old))["text"].startswith("🎲 ")
        assert (await stored(cast, game_id)).version == version + 1
        after = await scene(cast, table)
        for user in everyone:  # the button of the version before is stale, for the mover too
            assert (await cast.runner.press_data(user, table, old)).get("text") == STALE, user.first_name
        assert await scene(cast, table) == after
    await assert_replays(cast.runner, game_id)
