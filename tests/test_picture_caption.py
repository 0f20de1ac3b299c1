"""The picture and the caption tell the same story: what a player paid in
«наоборот», who is safe in «Башня», who answers a lions draw offer, and what «Спички» is played to.

Pictures are checked by the words their renderer writes (tests/drawn_words.py), drawn from the
very (state, labels, events) the bot passed to its drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot import drawing
from bot.fake_telegram import FakeUser, StoredMessage
from bot.games import GAMES
from bot.games.spichki import UI as SPICHKI_UI
from engines.base import Event
from engines.lions import ENGINE as LIONS
from engines.lions import LionsOptions
from engines.sosedi import ENGINE as SOSEDI
from engines.sosedi import SosediOptions, owner_of
from engines.spichki import ENGINE as SPICHKI
from engines.spichki import SpichkiOptions
from locales import Translator
from render import lions as lions_board
from render import sosedi as sosedi_board
from render import spichki as spichki_board
from tests.bot_harness import BotRunner, current_player_name, game_id_of, group_world, stored_state
from tests.drawn_words import Word, drawn_words
from tests.render_helpers import find_state, play_game
from tests.ui_helpers import translate, translator_fixture

translator = translator_fixture()
Box = tuple[int, int, int, int]
Drawn = list[tuple[Any, Sequence[str], dict[str, str], list[Event]]]


def labels_of(code: str, translator: Translator, lang: str = "ru") -> dict[str, str]:
    return {key: translator.t(lang, f"board-{key}") for key in GAMES[code].label_keys}


def words_of(render: Any, state: Any, names: Sequence[str], labels: dict[str, str],
             events: Sequence[Event] = ()) -> list[Word]:
    with drawn_words() as words:
        render(state, names, labels, events)
    return words


def inside(word: Word, box: Box) -> bool:
    x, y = word.xy
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def record_drawing(monkeypatch: pytest.MonkeyPatch, render: Any) -> Drawn:
    """Every (state, names, labels, events) the bot draws with ``render``, in order."""
    drawn: Drawn = []
    draw = drawing.Drawing.draw

    async def recording(self: Any, fn: Any, *args: Any) -> bytes:
        if fn is render:
            state, names, labels, events = args
            drawn.append((state, list(names), dict(labels), list(events)))
        return await draw(self, fn, *args)

    monkeypatch.setattr(drawing.Drawing, "draw", recording)
    return drawn


# seed 2: three players in «наоборот»; the last throw shows Аня's number twice when she holds one chip
pytestmark = pytest.mark.world(first_seed=2, count=3)  # group_world's arguments (tests/conftest.py)


async def roll_to_the_end(runner: BotRunner, users: dict[str, FakeUser], table: StoredMessage) -> None:
    by_name = {u.first_name: u for u in users.values()}
    for _ in range(2000):
        if not table.buttons:
            return
        await runner.press(by_name[current_player_name(table.caption)], table, "🎲")
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------- a: what was paid in «наоборот»


async def test_the_reverse_loser_is_shown_paying_what_she_had_not_what_the_dice_asked(world, monkeypatch) -> None:
    drawn = record_drawing(monkeypatch, sosedi_board.render_board)
    _tg, runner, users = world
    await runner.say(users["anya"], "/newgame sosedi")
    lobby = runner.table()
    await runner.press(users["anya"], lobby, "Вариант: ")
    assert "Вариант: наоборот" in lobby.caption
    for name in ("boris", "vera"):
        await runner.press(users[name], lobby, "Играю")
    await runner.press(users["anya"], lobby, "Начать")
    table = runner.table()
    game_id = game_id_of(table)
    await roll_to_the_end(runner, users, table)
    final = await stored_state(runner, SOSEDI, game_id)
    assert final.finished and drawn[-1][0] == final
    # every picture was drawn with the events of the throw that made its state
    for (prev, *_), (state, _names, _labels, events) in pairwise(drawn):
        if state.version != prev.version + 1:
            continue
        assert [e.kind for e in events][:1] == ["roll"] and events[0].data["dice"] == list(state.last_dice)
        throw = sosedi_board._throw(state, events)
        assert throw is not None
        assert throw.delta == tuple(a - b for a, b in zip(state.chips, prev.chips, strict=True))
    prev, (state, names, labels, events) = drawn[-2][0], drawn[-1]
    loser = state.result_seat
    due = sum(owner_of(d, state.seats) == loser for d in state.last_dice)
    paid = prev.chips[loser]
    assert due > paid  # the case once drawn wrong: two dice called her, one chip was left to pay
    panel = sosedi_board._layout(state.seats).panels[loser]
    badges = [w.text for w in words_of(sosedi_board.render_board, state, names, labels, events)
              if inside(w, panel) and w.text[:1] in "+\u2212"]
    assert badges == [f"\u2212{paid}"]


# ---------------------------------------------------------------- b: safe in «Башня»


@pytest.mark.parametrize(("lang", "word"), [("ru", "Спасён"), ("en", "Safe")])
def test_players_safe_in_the_tower_are_called_safe_not_out(translator: Translator, lang: str, word: str) -> None:
    state, events = find_state(lambda k: play_game(SOSEDI, SosediOptions(mode="tower"), 4, k),
                               lambda s, e: sum(s.safe) >= 2 and not s.finished, 200)
    labels = labels_of("sosedi", translator, lang)
    assert labels["safe"] == word
    words = words_of(sosedi_board.render_board, state, ["Аня", "Борис", "Вика", "Гриша"], labels, events)
    for seat, panel in enumerate(sosedi_board._layout(state.seats).panels):
        said = [w.text for w in words if inside(w, panel)]
        assert (word in said) == state.safe[seat], (seat, said)
    assert not any("Вне игры" in w.text for w in words)


# ---------------------------------------------------------------- c: a lions draw offer


def test_during_a_draw_offer_the_board_marks_the_side_that_must_answer(translator: Translator) -> None:
    state, _ = LIONS.new_game(LionsOptions(), 2, "a" * 64)
    offered, _events, _ = LIONS.apply(state, "o")
    assert offered.draw_offer == state.turn and offered.current_player == 1 - state.turn
    labels = labels_of("lions", translator)
    for shown in (state, offered):
        words = words_of(lions_board.render_board, shown, ["Аня", "Борис"], labels)
        marked = [seat for seat, card in enumerate(lions_board._cards()[0])
                  if any(w.text == labels["turn"] and inside(w, card) for w in words)]
        assert marked == [shown.current_player]


async def test_a_draw_offers_caption_and_picture_name_the_same_player(tmp_path: Path, monkeypatch) -> None:
    drawn = record_drawing(monkeypatch, lions_board.render_board)
    async with group_world(tmp_path, first_seed=21, count=2) as (_tg, runner, users):
        await runner.say(users["anya"], "/newgame lions")
        lobby = runner.table()
        await runner.press(users["boris"], lobby, "Играю")
        await runner.press(users["anya"], lobby, "Начать")
        table = runner.table()
        state = await stored_state(runner, LIONS, game_id_of(table))
        offerer = [users["anya"], users["boris"]][state.turn]
        await runner.press(offerer, table, "🤝 Ничья?")
        await runner.press(offerer, table, "🤝 Да, предложить")  # point 3: the offer asks first
        assert "предлагает ничью" in table.caption
        caption_name = current_player_name(table.caption)
    shown, names, labels, events = drawn[-1]
    assert shown.draw_offer is not None
    words = words_of(lions_board.render_board, shown, names, labels, events)
    (card,) = [card for card in lions_board._cards()[0]
               if any(w.text == labels["turn"] and inside(w, card) for w in words)]
    assert any(w.text == caption_name and inside(w, card) for w in words)


# ---------------------------------------------------------------- d: what «Спички» is played to


@pytest.mark.parametrize(("lang", "picture", "caption"), [("ru", "Играем до 11", "играем до 11"),
                                                          ("en", "First to 11", "first to 11")])
def test_the_goal_reads_as_the_goal(translator: Translator, lang: str, picture: str, caption: str) -> None:
    game = play_game(SPICHKI, SpichkiOptions(), 3, 1)
    state, events = game[len(game) // 2]
    assert state.options.goal == 11 and max(state.matches) < 11
    words = [w.text for w in words_of(spichki_board.render_board, state, ["Аня", "Борис", "Вика"],
                                      labels_of("spichki", translator, lang), events)]
    assert picture in words and not any("До победы" in w for w in words)
    status = " · ".join(SPICHKI_UI.status_lines(state, ["Аня", "Борис", "Вика"], translate(translator, lang)))
    assert caption in status and "до победы" not in status.lower()

