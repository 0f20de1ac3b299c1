"""End to end: three users in a supergroup play «Помоги своему соседу» through the fake Bot API."""

from __future__ import annotations

import asyncio

import pytest

from bot.flow.catch_up import CatchUp
from bot.games import GAMES
from tests.bot_harness import CHAT_ID, current_player_name, flow_of
from tests.sosedi_steps import game_requests, open_lobby, play_to_end

pytestmark = pytest.mark.world(first_seed=7, english=("vera",))  # group_world's arguments (tests/conftest.py)


@pytest.mark.parametrize(("mode_presses", "mode", "result_word"), [
    (0, "классика", "побеждает"), (1, "наоборот", "платит"), (2, "Башня", "проставляется"),
])
async def test_full_game_of_each_mode(world, mode_presses: int, mode: str, result_word: str) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users, mode_presses)
    assert f"Вариант: {mode}" in lobby.caption
    start_at = len(tg.requests)
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    assert table.message_id == lobby.message_id  # the lobby became the table
    assert "Жребий: начинает" in table.caption and "Ходит:" in table.caption
    rolls = await play_to_end(runner, users, table)
    result = tg.last_bot_message(CHAT_ID)
    assert result.text is not None and result_word in result.text
    assert result_word in table.caption and table.buttons == []
    assert [label for label, _ in result.buttons] == ["🔁 Ещё раунд", "🔎 Проверить кости", "🎬 Повтор"]
    if mode != "классика":
        assert "Счёт раундов" in result.text and "— 1 раунд" in result.text
    if mode == "Башня":  # it ends with the tower fallen: the caption says so, and counts no tower
        assert "🏚 Башня рухнула — возвращаем подставки\nНа руках: " in table.caption
        assert "В башне" not in table.caption
    # Telegram's budget: one edit per roll, plus the start edit and the result message
    calls = game_requests(tg, start_at)
    assert calls.count("editMessageMedia") == rolls + 1
    assert calls.count("sendMessage") == 1 and len(calls) == rolls + 2


async def test_others_and_stale_presses_change_nothing(world) -> None:
    _, runner, users = world
    lobby = await open_lobby(runner, users)
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    mover_name = current_player_name(table.caption)
    other = next(u for u in (users["anya"], users["boris"], users["vera"]) if u.first_name != mover_name)
    old_data = table.button("🎲 Бросить")
    edits, caption, photo = table.edit_count, table.caption, table.photo_hash
    answer = await runner.press(other, table, "🎲 Бросить")
    assert answer["text"] == f"Сейчас ходит {mover_name}."
    answer = await runner.press(users["gleb"], table, "🎲 Бросить")  # not seated at all
    assert answer["text"] == f"Сейчас ходит {mover_name}."
    assert (table.edit_count, table.caption, table.photo_hash) == (edits, caption, photo)
    mover = next(u for u in users.values() if u.first_name == mover_name)
    await runner.press(mover, table, "🎲 Бросить")
    assert table.edit_count == edits + 1
    edits, caption = table.edit_count, table.caption
    for user in (mover, other):  # the old button, pressed again by anyone: stale
        answer = await runner.press_data(user, table, old_data)
        assert answer["text"] == "Кнопка устарела."
    assert (table.edit_count, table.caption) == (edits, caption)
    # forged data for another chat's or a non-existent game, and plain junk
    for junk in ("g:zz:1:r", "g:1:999:r", "l:1:start", "Ж" * 20, "x" * 64):
        answer = await runner.press_data(users["anya"], table, junk)
        assert answer["text"] == "Кнопка устарела."
    assert (table.edit_count, table.caption) == (edits, caption)


async def test_restart_mid_game_keeps_the_game(world) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users)
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    rolls = await play_to_end(runner, users, table, restart_after=3)
    assert runner.starts == 2 and rolls > 3
    assert "🔁 Ещё раунд" in [label for label, _ in tg.last_bot_message(CHAT_ID).buttons]


async def test_restart_resends_a_lost_edit(world) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users)
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption))
    caption = table.caption
    tg.fail_next("editMessageMedia", error_code=500, description="Internal Server Error")
    answer = await runner.press(mover, table, "🎲 Бросить")
    assert answer["text"].startswith("🎲")  # the move is committed even though the edit failed
    assert table.caption == caption
    await runner.restart()  # start-up re-sends the missing edit
    await tg.wait_for(lambda s: s.message(CHAT_ID, table.message_id).caption != caption)
    assert " бросает " in table.caption
    next_mover = next(u for u in users.values() if u.first_name == current_player_name(table.caption))
    answer = await runner.press(next_mover, table, "🎲 Бросить")
    assert answer["text"].startswith("🎲")


async def test_catching_up_after_a_restart_does_not_hold_new_updates_back(world, monkeypatch) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users)
    await runner.press(users["anya"], lobby, "Начать")
    await runner.stop()
    release = asyncio.Event()
    redraw = CatchUp.repair_tables

    async def slow_repair(self: CatchUp) -> int:  # many tables to redraw after a crash
        await release.wait()
        return await redraw(self)

    monkeypatch.setattr(CatchUp, "repair_tables", slow_repair)
    await runner.start(wait_catch_up=False)
    assert runner.app is not None
    flow = runner.app.bot_data["flow"]
    await runner.say(users["boris"], "/help")  # answered while start-up's catch-up still runs
    assert "/newgame" in tg.last_bot_message(CHAT_ID).text and not flow.caught_up.is_set()
    release.set()
    await asyncio.wait_for(flow.caught_up.wait(), 10)


async def test_stop_rights_and_rematch(world) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users)
    await runner.press(users["anya"], lobby, "Начать")
    await runner.say(users["boris"], "/stop")
    assert "только хост или администратор" in tg.last_bot_message(CHAT_ID).text
    await runner.say(users["anya"], "/newgame")
    assert "уже идёт" in tg.last_bot_message(CHAT_ID).text
    await runner.say(users["anya"], "/stop")
    assert tg.last_bot_message(CHAT_ID).text == "Игра «Помоги своему соседу» остановлена."
    table = runner.table()
    assert "Игра остановлена" in table.caption and table.buttons == []
    # a chat admin who is not the host may stop too
    tg.chats[CHAT_ID].set_admin(4)
    await runner.say(users["boris"], "/newgame sosedi")
    lobby = runner.table()
    await runner.press(users["vera"], lobby, "Играю")
    answer = await runner.press(users["vera"], lobby, "Начать")  # neither host nor admin
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(users["boris"], lobby, "Начать")
    table = runner.table()
    await play_to_end(runner, users, table)
    result = tg.last_bot_message(CHAT_ID)
    answer = await runner.press(users["gleb"], result, "Ещё раунд")
    assert answer["text"] == "Ещё раунд могут начать только игроки этой партии."
    answer = await runner.press(users["vera"], result, "Ещё раунд")  # not the host's: a lobby, Борис starts it
    assert answer["text"] == "Новое лобби с теми же игроками: начнёт хост, Борис."
    lobby = runner.table()
    assert lobby.message_id != table.message_id and "1. Борис\n2. Вера" in lobby.caption
    answer = await runner.press(users["vera"], result, "Ещё раунд")  # the same button again
    assert answer["text"] == "В чате уже идёт игра." and runner.table().message_id == lobby.message_id
    await runner.press(users["boris"], lobby, "Начать")
    assert "Ходит:" in runner.table().caption
    await runner.say(users["gleb"], "/stop")  # Глеб is an admin now
    assert "остановлена" in tg.last_bot_message(CHAT_ID).text


async def test_lobby_settings_and_set_command(world) -> None:
    tg, runner, users = world
    lobby = await open_lobby(runner, users)
    answer = await runner.press(users["boris"], lobby, "Фишки +5")
    assert answer["text"] == "Это может только хост (или админ)."
    await runner.press(users["anya"], lobby, "Фишки +5")
    assert "Фишек у каждого: 15" in lobby.caption
    await runner.say(users["anya"], "/set chips 17")
    assert "Фишек у каждого: 17" in lobby.caption
    await runner.say(users["anya"], "/set chips 99")
    assert tg.last_bot_message(CHAT_ID).text == "Фишки: от 5 до 30"
    assert "Фишек у каждого: 17" in lobby.caption
    await runner.say(users["anya"], "/set colour red")
    assert tg.last_bot_message(CHAT_ID).text.startswith("Такой настройки нет: «colour». Настройки этой игры: "
                                                        "Вариант — mode, Фишки — chips")
    await runner.press(users["anya"], lobby, "Бросающий: платит")
    assert "Бросающий за свои числа не платит" in lobby.caption
    await runner.press(users["anya"], lobby, "Вариант: ")
    await runner.press(users["anya"], lobby, "Вариант: ")
    assert "В башне: 15 (по 5 на игрока)" in lobby.caption
    await runner.press(users["anya"], lobby, "Башня +5")
    assert "В башне: 20 подставок" in lobby.caption
    # a press with forged settings data changes nothing
    answer = await runner.press_data(users["anya"], lobby, f"l:{lobby.button('Играю').split(':')[1]}:set:tower:99")
    assert answer["text"] == "Башня: от 5 до 60 или «авто»"
    assert "В башне: 20 подставок" in lobby.caption
    await runner.press(users["vera"], lobby, "Выйти")
    assert "Игроки (2/6)" in lobby.caption
    await runner.press(users["anya"], lobby, "Выйти")  # the host leaves: Борис hosts now
    assert "Хост: Борис" in lobby.caption
    await runner.press(users["boris"], lobby, "Отмена")
    assert lobby.caption == "Лобби закрыто." and lobby.buttons == []


async def test_english_after_lang_and_private_start(world) -> None:
    tg, runner, users = world
    await runner.say(users["boris"], "/lang en")
    assert tg.last_bot_message(CHAT_ID).text == "Это могут только администраторы чата."
    await runner.say(users["anya"], "/lang de")
    assert tg.last_bot_message(CHAT_ID).text == "Использование: /lang ru | en"
    await runner.say(users["anya"], "/lang en")
    assert tg.last_bot_message(CHAT_ID).text == "Chat language: English."
    await runner.say(users["anya"], "/newgame@SosediBot sosedi")
    lobby = runner.table()
    await runner.press(users["boris"], lobby, "Play")
    await runner.press(users["anya"], lobby, "Variant: ")
    await runner.press(users["anya"], lobby, "Start")
    table = runner.table()
    assert "To move:" in table.caption and "Drawn by lot" in table.caption
    rolls = await play_to_end(runner, users, table)
    assert rolls > 0 and "pays" in tg.last_bot_message(CHAT_ID).text
    await runner.say(users["anya"], "/rules")  # no game running: which game?
    assert tg.last_bot_message(CHAT_ID).text == "Rules of which game? " + ", ".join(f"/rules {c}" for c in GAMES)
    await runner.say(users["anya"], "/rules sosedi")
    assert "Help Your Neighbour" in tg.last_bot_message(CHAT_ID).text
    before = len(tg.requests)
    await tg.send_message(users["anya"], CHAT_ID, "/newgame@OtherBot")  # not for us
    await tg.wait_idle()
    assert game_requests(tg, before) == []
    await tg.send_private(users["gleb"], "/start")
    await tg.wait_for(lambda s: any(m.text and "Добавьте меня в группу" in m.text for m in s.bot_messages(4)))
    await tg.send_private(users["gleb"], "/newgame")
    await tg.wait_for(lambda s: any(m.text and "только в группе" in m.text for m in s.bot_messages(4)))


async def test_commands_registered_in_both_languages(world) -> None:
    tg, _, _ = world
    for lang, word in (("ru", "Новая игра"), ("en", "New game"), ("", "Новая игра")):
        commands = {c["command"]: c["description"] for c in tg.commands_for(None, lang)}
        assert commands["newgame"] == word
        assert set(commands) >= {"newgame", "rules", "stop", "lang", "help"}


async def test_no_photo_rights_leaves_no_invisible_lobby(world) -> None:
    tg, runner, users = world
    tg.fail_next("sendPhoto", error_code=400, description="Bad Request: not enough rights to send photos to the chat")
    await runner.say(users["anya"], "/newgame sosedi")
    assert "Разрешите мне отправлять фото" in tg.last_bot_message(CHAT_ID).text
    await runner.say(users["anya"], "/newgame sosedi")  # once the rights are back, a lobby opens
    assert "Игроки (1/6)" in runner.table().caption


async def test_the_title_card_is_uploaded_once_then_sent_by_file_id(world) -> None:
    tg, runner, users = world
    assert runner.app is not None
    flow = runner.app.bot_data["flow"]
    for round_ in range(3):
        if round_ == 2:  # an id Telegram no longer knows: the card is uploaded again
            flow.messages.cover_ids = {title: "no-such-file-id" for title in flow.messages.cover_ids}
        await runner.say(users["anya"], "/newgame sosedi")
        await runner.say(users["anya"], "/stop")
    sends = [r for r in tg.requests if r.method == "sendPhoto"]
    assert [bool(r.files) for r in sends] == [True, False, False, True]
    assert [r.ok for r in sends] == [True, True, False, True]
    assert sends[1].params["photo"] == sends[0].response["result"]["photo"][-1]["file_id"]
    assert len([m for m in tg.bot_messages(CHAT_ID) if m.photo]) == 3  # every lobby was posted
    # the stale id was sent on purpose: the fake server flags every Bad Request as a violation
    assert [v for v in tg.violations if "wrong file identifier" in v] == tg.violations != []
    tg.violations.clear()


async def test_the_lobby_card_follows_the_variant_and_each_card_is_uploaded_once(world) -> None:
    """«Башня» has a title card of its own (a tower of beer coasters): a lobby set to the tower by a press, by
    /set or by the chat's default shows it, set back it shows the game's card again; each card is uploaded
    once, then sent or put in by Telegram's file id."""
    tg, runner, users = world
    lobby = await open_lobby(runner, users)
    classic = lobby.photo_hash
    await runner.press(users["anya"], lobby, "Вариант: ")  # «наоборот» plays with chips too: the same card
    assert "Вариант: наоборот" in lobby.caption and lobby.photo_hash == classic
    await runner.press(users["anya"], lobby, "Вариант: ")
    assert "Вариант: Башня" in lobby.caption and lobby.photo_hash != classic
    tower = lobby.photo_hash
    await runner.press(users["anya"], lobby, "Бросающий: берёт")  # the card stays; the line speaks of coasters
    assert lobby.photo_hash == tower and "Бросающий за свои числа подставки не берёт" in lobby.caption
    await runner.say(users["anya"], "/set mode классика")
    assert lobby.photo_hash == classic and "Вариант: классика" in lobby.caption
    await runner.say(users["anya"], "/set mode башня")
    assert lobby.photo_hash == tower and "Вариант: Башня" in lobby.caption
    await runner.say(users["anya"], "/stop")
    await flow_of(runner).store.set_chat_setting(CHAT_ID, "defaults", {"sosedi": {"mode": "tower"}})
    await runner.say(users["anya"], "/newgame sosedi")
    assert runner.table().photo_hash == tower and "Вариант: Башня" in runner.table().caption
    cards = [r for r in tg.requests if r.method in ("sendPhoto", "editMessageMedia") and r.ok]
    assert [(r.method, bool(r.files)) for r in cards] == [
        ("sendPhoto", True), ("editMessageMedia", True),  # the classic card, then the tower's: uploaded
        ("editMessageMedia", False), ("editMessageMedia", False), ("sendPhoto", False)]  # then by file id


async def test_after_a_restart_the_lobby_card_still_follows_the_variant(world) -> None:
    """The bot does not keep which card a lobby shows across a restart: it is the card of the variant the
    lobby was set to."""
    _, runner, users = world
    lobby = await open_lobby(runner, users, mode_presses=1)
    classic = lobby.photo_hash
    await runner.restart()
    await runner.press(users["boris"], lobby, "Выйти")  # a press that leaves the variant: the card stays
    assert "Игроки (2/6)" in lobby.caption and lobby.photo_hash == classic
    await runner.press(users["anya"], lobby, "Вариант: ")
    assert "Вариант: Башня" in lobby.caption and lobby.photo_hash != classic
