"""The random games every engine's property tests play: valid options and player counts, how
long a game may run, how many games a property plays, and how the choices are made.

tests/test_engine_contract.py plays these for the contract every engine keeps; each game's own
test file plays them against its rules.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from engines.base import Action
from engines.lions import LionsOptions, LionsState
from engines.ludo import LudoOptions
from engines.parchis import ParchisOptions
from engines.playout import Choose, at_random
from engines.shishbesh import ShishbeshOptions
from engines.sosedi import MODES, SosediOptions
from engines.spichki import SpichkiOptions
from engines.tishe import TisheOptions


def seed_str(i: int) -> str:
    """The i-th test seed: 64 hex digits, the shape real seeds have."""
    return f"{i:064x}"


SEEDS = st.integers(0, 2**256 - 1).map(seed_str)
CHOICE_SEEDS = st.integers(0, 2**32)
# one game of a property test: (options, seats, seed, choice seed)
Setup = tuple[Any, int, str, int]


def random_choice(seed: int | str) -> Choose[Any]:
    """A random legal action, the same ones for the same seed."""
    return at_random(random.Random(seed))


def prop_settings(max_examples: int) -> settings:
    """Hypothesis settings for whole-game properties: ``max_examples`` games, no deadline."""
    return settings(max_examples=max_examples, deadline=None)


@dataclass(frozen=True)
class GameSetups:
    """How the property tests play one game."""

    games: st.SearchStrategy[tuple[Any, int]]  # valid (options, seats)
    max_actions: int  # random games end well within this many actions
    examples: int  # games a whole-game property plays
    chooser: Callable[[int], Choose[Any]] = field(default=random_choice)  # the choices, from the choice seed

    @property
    def setups(self) -> st.SearchStrategy[Setup]:
        """(options, seats, seed, choice seed) of a game."""
        return st.builds(lambda game, seed, choice: (*game, seed, choice), self.games, SEEDS, CHOICE_SEEDS)

    @property
    def props(self) -> settings:
        return prop_settings(self.examples)


def _with_seats(options: st.SearchStrategy[Any], lo: int, hi: int) -> st.SearchStrategy[tuple[Any, int]]:
    return st.tuples(options, st.integers(lo, hi))


@st.composite
def _spichki_games(draw: st.DrawFn) -> tuple[SpichkiOptions, int]:
    """Options and seats with the goal never above the pile."""
    seats = draw(st.integers(2, 8))
    per_player = draw(st.integers(8, 15))
    goal = draw(st.integers(5, min(30, per_player * seats)))
    return SpichkiOptions(goal=goal, per_player=per_player, double_hit=draw(st.sampled_from((1, 2)))), seats


LIONS_META = ("offer", "resign")


def lions_chooser(seed: int | str, meta: float = 0.005) -> Choose[LionsState]:
    """Random legal actions, shaped like a player's turn: a picked piece mostly steps, «Отменить
    шаг» now and then; offers and resignations with probability ``meta``. (Uniformly random play
    resigns or offers a draw within a few actions, before anything is taken.)"""
    rng = random.Random(seed)

    def choose(state: LionsState, actions: Any) -> Action:
        if rng.random() < meta or state.draw_offer is not None:
            return rng.choice(actions)
        calm = [a for a in actions if a.kind not in LIONS_META]
        moves = [a for a in calm if a.kind == "step"]
        if moves and len(state.segments[-1]) == 1 and rng.random() < 0.9:
            return rng.choice(moves)  # a piece just picked steps
        undo = [a for a in calm if a.kind == "undo"]
        if undo and rng.random() < 0.05:
            return undo[0]
        return rng.choice([a for a in calm if a.kind != "undo"] or actions)

    return choose


GAME_SETUPS: dict[str, GameSetups] = {
    "sosedi": GameSetups(  # longest game seen in 20k+ seeded games: ~130 throws
        _with_seats(st.builds(SosediOptions, mode=st.sampled_from(MODES), chips=st.integers(5, 30),
                              tower=st.none() | st.integers(5, 60), roller_immune=st.booleans()), 2, 6),
        max_actions=1000, examples=150),
    "spichki": GameSetups(  # longest game seen in 15k seeded games (8 seats, 15 each, goal 30): 251
        _spichki_games(), max_actions=1500, examples=80),
    "tishe": GameSetups(  # longest of 3000 random 6-seat both_home games: 1357 actions
        _with_seats(st.builds(TisheOptions, both_home=st.booleans()), 2, 6), max_actions=6000, examples=40),
    "shishbesh": GameSetups(  # longest of 288 random games over every option: 779 actions
        _with_seats(st.builds(ShishbeshOptions, st.sampled_from(("standard", "long")),
                              st.sampled_from(("opposite", "staggered")),
                              st.sampled_from(("six", "double", "six_or_double")), st.booleans()), 2, 4),
        max_actions=2000, examples=8),
    "ludo": GameSetups(  # longest of 3000 random games (2-4 seats, either option): 984 actions
        _with_seats(st.builds(LudoOptions, bonuses=st.booleans()), 2, 4), max_actions=3000, examples=15),
    "parchis": GameSetups(  # longest of 1800 random games: 859 actions (4 players)
        _with_seats(st.just(ParchisOptions()), 2, 4), max_actions=3000, examples=15),
    "lions": GameSetups(  # about a hundred turns: long enough for captures, isolation and pushes
        _with_seats(st.builds(LionsOptions, lions_seat=st.sampled_from([0, 1])), 2, 2), max_actions=400,
        examples=25, chooser=lions_chooser),
}
