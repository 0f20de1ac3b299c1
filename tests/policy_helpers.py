"""Shared checks for the dice games' computer players (engines/<game>_ai.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engines.base import Action, Engine, Policy
from engines.playout import at_random, play_on, playout
from tests.engine_helpers import seed_str

MAX_ACTIONS = 5000


def play_game(engine: Engine[Any, Any], policy: Policy[Any], options: Any, seats: int, index: int,
              ai_seats: set[int]) -> Any:
    """One game (seed ``index``): the policy in ``ai_seats``, uniformly random legal actions
    elsewhere; every policy answer must be exactly one legal code, and the roll when rolling
    is the only thing to do. Returns the final state."""
    state, _ = engine.new_game(options, seats, seed_str(index))
    others = at_random(random.Random(index))

    def choose(state: Any, actions: Sequence[Action]) -> Action:
        if state.turn not in ai_seats:
            return others(state, actions)
        legal = [a.code for a in actions]
        plan = policy.plan(state, index)
        assert len(plan) == 1 and plan[0] in legal, (plan, legal)
        if legal == ["r"]:
            assert plan == ["r"]
        return actions[legal.index(plan[0])]

    final, _ = play_on(engine, state, choose, MAX_ACTIONS)
    assert final.finished, f"game not over after {MAX_ACTIONS} actions"
    return final


def assert_same_state_same_code(engine: Engine[Any, Any], policy: Policy[Any], options: Any, seats: int = 3) -> None:
    """Along a whole random game, the same state (or its JSON copy) and seed give the same code."""
    state, _ = engine.new_game(options, seats, seed_str(5))
    for before, *_ in playout(engine, state, at_random(random.Random(5))):
        copy = engine.state_from_json(before.to_json())
        for seed in (0, 1, 7):
            assert policy.plan(before, seed) == policy.plan(before, seed) == policy.plan(copy, seed)
