"""The computer's own actions on a state: runs of computer turns, a timed-out person's turn,
and the roll of «автобросок». Pure functions: an engine, a policy and a state in, the actions out.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from typing import Any

from engines.base import Engine, Event, Policy

MAX_BOT_ACTIONS = 5000  # a guard for one run of computer turns (a whole game of bots takes less)

Applied = list[tuple[Any, list[Event]]]  # (log entry, events) of each action, in order


def is_bot(user_id: int) -> bool:
    """Whether a seat's user is a computer player (Telegram's user ids are positive)."""
    return user_id < 0


def free_bot_id(user_ids: Iterable[int]) -> int:
    """The id of the next computer player at a table: -1, -2, … (the first not taken)."""
    taken = set(user_ids)
    return next(-n for n in itertools.count(1) if -n not in taken)


def _play_policy(engine: Engine[Any, Any], policy: Policy, state: Any, moves: Callable[[int], bool],
                 applied: Applied) -> Any:
    """Let ``policy`` act while a seat for which ``moves(seat)`` holds is to move."""
    while (seat := state.current_player) is not None and moves(seat) and len(applied) < MAX_BOT_ACTIONS:
        codes = policy.plan(state)
        for code in codes:
            state, events, entry = engine.apply(state, code)
            applied.append((entry, events))
        if not codes:
            break
    return state


def bot_actions(engine: Engine[Any, Any], policy: Policy, state: Any, bots: tuple[bool, ...]) -> tuple[Any, Applied]:
    """Every action the computer players take from ``state`` until a person is to move (or the
    game ends): consecutive computer turns are played at once and shown in one edit."""
    applied: Applied = []
    return _play_policy(engine, policy, state, lambda s: bots[s], applied), applied


def turn_for(engine: Engine[Any, Any], policy: Policy, state: Any, seat: int) -> tuple[Any, Applied]:
    """The computer plays ``seat``'s turn (a timed-out player's): the steps they had begun are
    taken back first, then the policy acts until another seat is to move or the game ends."""
    applied: Applied = []
    while undo := [a.code for a in engine.legal_actions(state) if a.kind == "undo"]:
        state, events, entry = engine.apply(state, undo[0])
        applied.append((entry, events))
    return _play_policy(engine, policy, state, lambda s: s == seat, applied), applied


def roll_for(engine: Engine[Any, Any], state: Any, bots: tuple[bool, ...]) -> tuple[Any, Applied]:
    """«Автобросок»: the roll of the person to move if a roll is all they may do (design.md: a
    turn costs one edit); nothing if a computer or nobody is to move, or there is a choice."""
    seat = state.current_player
    if seat is None or bots[seat]:
        return state, []
    actions = engine.legal_actions(state)
    if len(actions) != 1 or actions[0].kind != "roll":
        return state, []
    state, events, entry = engine.apply(state, actions[0].code)
    return state, [(entry, events)]
