"""Shared checks for the dice games' computer players (engines/<game>_ai.py, issue #8)."""

from __future__ import annotations

import random
from typing import Any

from engines.base import Engine, Policy
from tests.engine_helpers import seed_str

MAX_ACTIONS = 5000


def play_game(engine: Engine[Any, Any], policy: Policy, options: Any, seats: int, index: int,
              ai_seats: set[int]) -> Any:
    """One game (seed ``index``): the policy in ``ai_seats``, uniformly random legal actions
    elsewhere; every policy answer must be exactly one legal code, and the roll when rolling
    is the only thing to do. Returns the final state."""
    state, _ = engine.new_game(options, seats, seed_str(index))
    rng = random.Random(index)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            return state
        legal = [a.code for a in engine.legal_actions(state)]
        if state.turn in ai_seats:
            plan = policy.plan(state, index)
            assert len(plan) == 1 and plan[0] in legal, (plan, legal)
            if legal == ["r"]:
                assert plan == ["r"]
            code = plan[0]
        else:
            code = rng.choice(legal)
        state, _, _ = engine.apply(state, code)
    raise AssertionError(f"game not over after {MAX_ACTIONS} actions")


def assert_same_state_same_code(engine: Engine[Any, Any], policy: Policy, options: Any, seats: int = 3) -> None:
    """Along a whole random game, the same state (or its JSON copy) and seed give the same code."""
    state, _ = engine.new_game(options, seats, seed_str(5))
    rng = random.Random(5)
    while not state.finished:
        copy = engine.state_from_json(state.to_json())
        for seed in (0, 1, 7):
            assert policy.plan(state, seed) == policy.plan(state, seed) == policy.plan(copy, seed)
        state, _, _ = engine.apply(state, rng.choice(engine.legal_actions(state)).code)
