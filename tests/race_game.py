"""«Гонка»: a tiny eighth game that lives only in the tests, to prove that a game is declared once.

One die, everyone starts on 0, a throw moves you on by its face, and the first to reach the goal
(10) wins. Its engine, words, picture, texts (tests/race/<lang>.ftl) and spec are all here: the
bot offers it when it is added to the registry (``GAMES.with_game(RACE)``), and no other file of
the project names it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from markupsafe import Markup
from PIL import Image, ImageDraw

from bot.games import GameSpec
from bot.games.common import Button, Html, Tr, UIBase
from engines.base import (
    Action,
    BestScorePolicy,
    Dice,
    Event,
    IllegalActionError,
    JsonData,
    LogEntry,
    OptionsError,
    Outcome,
    RulesEngine,
    TurnState,
    check_seats,
    next_seat,
    rank_after,
    throw_source,
)

CODE = "race"
GOAL_RANGE = (5, 20)
ROLL = Action(code="r", kind="roll")
TEXTS = Path(__file__).resolve().parent / "race"


@dataclass(frozen=True, slots=True)
class RaceOptions(JsonData):
    goal: int = 10

    def validate(self, seats: int | None = None) -> None:
        lo, hi = GOAL_RANGE
        if not isinstance(self.goal, int) or not lo <= self.goal <= hi:
            raise OptionsError("goal", "out of range", min=lo, max=hi)
        check_seats(seats, (RaceEngine.min_players, RaceEngine.max_players))


@dataclass(frozen=True, slots=True)
class RaceState(TurnState, JsonData):
    seed: str
    options: RaceOptions
    seats: int
    places: tuple[int, ...]
    turn: int
    throws: int  # index of the next throw of the game's dice
    version: int
    finished: bool = False


class RaceEngine(RulesEngine[RaceState, RaceOptions]):
    code = CODE
    options_type, state_type = RaceOptions, RaceState
    min_players = 2
    max_players = 4

    def opening(self, options: RaceOptions, seats: int, seed: str, starter: int) -> RaceState:
        return RaceState(seed, options, seats, (0,) * seats, starter, 1, 0)

    def legal_actions(self, state: RaceState) -> list[Action]:
        return [] if state.finished else [ROLL]

    def apply(self, state: RaceState, code: str, dice: Dice | None = None) -> tuple[RaceState, list[Event], LogEntry]:
        if state.finished or code != ROLL.code:
            raise IllegalActionError(f"{code!r} is not legal here")
        seat, die = state.turn, throw_source(state.seed, dice).die(state.throws)
        places = tuple(min(p + die, state.options.goal) if s == seat else p for s, p in enumerate(state.places))
        finished = places[seat] >= state.options.goal
        state = replace(state, places=places, throws=state.throws + 1, version=state.version + 1, finished=finished,
                        turn=seat if finished else next_seat(seat, state.seats))
        events = [Event("roll", seat=seat, data={"die": die, "at": places[seat]})]
        return state, events, LogEntry(seat=seat, code=code, dice=(die,))

    def outcome(self, state: RaceState) -> Outcome | None:
        if not state.finished:
            return None
        ranking = rank_after(state.turn, state.seats, state.places.__getitem__)
        return Outcome("win", winners=(state.turn,), ranking=ranking)


ENGINE = RaceEngine()


class RaceUI(UIBase):
    code = CODE

    def variant(self, options: RaceOptions, tr: Tr) -> str:
        return tr("race-variant", goal=options.goal)

    def lobby_lines(self, options: RaceOptions, seats: int, tr: Html) -> list[Markup]:
        return [tr("race-lobby-goal", goal=options.goal)]

    def lobby_buttons(self, options: RaceOptions, seats: int, tr: Tr) -> list[list[Button]]:
        lo, hi = GOAL_RANGE
        return [[Button(tr("race-btn-goal", goal=g), "goal", str(g)) for g in (options.goal - 5, options.goal + 5)
                 if lo <= g <= hi]]

    def describe(self, events: Sequence[Event], names: Sequence[str], tr: Html) -> list[Markup]:
        lines: list[Markup] = []
        for event in events:
            name = names[event.seat or 0]
            if event.kind == "starter":
                lines.append(tr("race-ev-starter", name=name))
            elif event.kind == "roll":
                lines.append(tr("race-ev-roll", name=name, die=event.data["die"], at=event.data["at"]))
        return lines

    def status_lines(self, state: RaceState, names: Sequence[str], tr: Html) -> list[Markup]:
        return [Markup(" · ").join(tr("race-status", name=names[s], at=state.places[s]) for s in range(state.seats))]

    def result_lines(self, state: RaceState, outcome: Outcome, names: Sequence[str], tr: Html) -> list[Markup]:
        return [tr("race-result", name=names[outcome.winners[0]])]


def render_board(state: RaceState, names: Sequence[str], labels: Mapping[str, str], events: Sequence[Any]) -> bytes:
    """A track of cells 0…goal with a dot per player."""
    goal = state.options.goal
    image = Image.new("RGB", (40 * (goal + 1), 30 * state.seats + 20), "white")
    draw = ImageDraw.Draw(image)
    for seat, place in enumerate(state.places):
        y = 10 + 30 * seat
        draw.line((20, y + 10, 40 * goal + 20, y + 10), fill="grey")
        draw.ellipse((40 * place + 10, y, 40 * place + 30, y + 20), fill=("red", "blue", "green", "orange")[seat])
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


RACE = GameSpec(engine=ENGINE, ui=RaceUI(), render_board=render_board, label_keys=(), dice_per_roll=1,
                policy=BestScorePolicy(ENGINE), roll_is_the_turn=True,
                locale_files={"ru": TEXTS / "ru.ftl", "en": TEXTS / "en.ftl"})
