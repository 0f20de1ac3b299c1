"""A game is declared once: «Гонка» (tests/race_game.py), which exists only in the tests, is added to
the registry and played through the fake Bot API from the picker to the result, with nothing else
of the project knowing it."""

from __future__ import annotations

from pathlib import Path

from bot import callback_data as cb
from bot.games import GAMES
from tests.bot_harness import CHAT_ID, current_player_name, game_id_of, group_world
from tests.race_game import CODE, ENGINE, RACE

WITH_RACE = GAMES.with_game(RACE)


def test_the_registry_takes_a_game_without_changing_its_own() -> None:
    assert list(WITH_RACE) == [*GAMES, CODE] and CODE not in GAMES
    assert WITH_RACE[CODE] is RACE and WITH_RACE.locale_files()["ru"] == [RACE.locale_files["ru"]]


async def test_a_game_from_outside_the_package_plays_from_the_picker_to_the_result(tmp_path: Path) -> None:
    async with group_world(tmp_path, first_seed=5, count=3, games=WITH_RACE) as (tg, runner, users):
        anya, boris = users["anya"], users["boris"]
        await runner.say(anya, "/newgame")
        picker = tg.last_bot_message(CHAT_ID)
        assert [label for label, _ in picker.buttons][-1] == "Гонка"  # the picker offers it, last
        await runner.press(anya, picker, "Гонка")
        lobby = runner.table()
        assert lobby.caption.startswith("🎲 Гонка") and "Цель: клетка 10" in lobby.caption
        await runner.press(anya, lobby, "Цель → 15")  # its own lobby setting
        assert "Цель: клетка 15" in lobby.caption
        await runner.press(anya, lobby, "Цель → 10")
        await runner.press(boris, lobby, "Играю")
        await runner.press(anya, lobby, "Начать")
        table = runner.table()
        assert table.message_id == lobby.message_id and table.photo is not None
        game_id = game_id_of(table)
        by_name = {u.first_name: u for u in users.values()}
        presses = 0
        while table.buttons and table.buttons[0][1].startswith("g:"):
            mover = by_name[current_player_name(table.caption)]
            answer = await runner.press(mover, table, "🎲 Бросить")
            assert answer["text"].startswith("🎲 ")  # the die, as every game's toast
            presses += 1
            assert presses < 40
        result = tg.last_bot_message(CHAT_ID)
        assert "первым дошёл до цели!" in result.text and "Ещё раунд" in result.buttons[0][0]
        assert "первым дошёл до цели!" in table.caption
        game = await runner.app.bot_data["flow"].store.game(game_id)  # type: ignore[union-attr]
        assert game is not None and game.status == "finished" and game.code == CODE
        state = ENGINE.state_from_json(game.state or {})
        assert max(state.places) == 10 and ENGINE.outcome(state) is not None
        await runner.say(boris, "/help")  # /help names every game, this one too, last
        help_lines = (tg.last_bot_message(CHAT_ID).text or "").splitlines()
        assert help_lines[2] == "• Помоги своему соседу — /newgame sosedi"
        assert help_lines[9] == "• Гонка — /newgame race"
        await runner.say(boris, "/rules race")
        assert tg.last_bot_message(CHAT_ID).text.startswith("Гонка: по очереди бросайте кубик")
        assert cb.parse(result.buttons[0][1]) == cb.Callback(kind="r", game_id=game_id)  # «Ещё раунд» of it
