"""The computer's own actions on a state: runs of computer turns, a timed-out person's turn,
and the fast table's actions for a person who has no choice. Pure functions: an engine, a policy
and a state in, the actions out.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable
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


def _play_policy(engine: Engine[Any, Any], policy: Policy[Any], state: Any, moves: Callable[[int], bool],
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


def bot_actions(engine: Engine[Any, Any], policy: Policy[Any], state: Any,
                bots: tuple[bool, ...]) -> tuple[Any, Applied]:
    """Every action the computer players take from ``state`` until a person is to move (or the
    game ends): consecutive computer turns are played at once and shown in one edit."""
    applied: Applied = []
    return _play_policy(engine, policy, state, lambda s: bots[s], applied), applied


def turn_for(engine: Engine[Any, Any], policy: Policy[Any], state: Any, seat: int) -> tuple[Any, Applied]:
    """The computer plays ``seat``'s turn (a timed-out player's): the steps they had begun are
    taken back first, then the policy acts until another seat is to move or the game ends."""
    applied: Applied = []
    while undo := [a.code for a in engine.legal_actions(state) if a.kind == "undo"]:
        state, events, entry = engine.apply(state, undo[0])
        applied.append((entry, events))
    return _play_policy(engine, policy, state, lambda s: s == seat, applied), applied


Position = Callable[[Any], Hashable]  # GameSpec.position: what makes two outcomes of a choice the same


def only_choice(engine: Engine[Any, Any], state: Any, position: Position | None) -> str | None:
    """The action a person has no real choice about: their only legal one, or (with ``position``) the
    first of several that all lead to one position once the forced moves after them are made; None
    when they have a choice (or nothing to do)."""
    actions = engine.legal_actions(state)
    if len(actions) == 1:
        return actions[0].code
    if position is None or not actions:
        return None
    seat = state.current_player
    ends = {position(_forced_on(engine, engine.apply(state, a.code)[0], seat)) for a in actions}
    return actions[0].code if len(ends) == 1 else None


def _forced_on(engine: Engine[Any, Any], state: Any, seat: int) -> Any:
    """``state`` after the moves ``seat`` is forced to make now (never a throw: its dice are not known yet)."""
    while state.current_player == seat:
        actions = engine.legal_actions(state)
        if len(actions) != 1 or actions[0].kind == "roll":
            break
        state = engine.apply(state, actions[0].code)[0]
    return state


def until_choice(engine: Engine[Any, Any], policy: Policy[Any] | None, state: Any, bots: tuple[bool, ...],
                 for_people: bool, position: Position | None = None) -> tuple[Any, Applied]:
    """Every action the bot takes itself from ``state`` before the table is shown again: the computer
    players' turns and, on the fast table (``for_people``), each action a person has no real choice
    about (:func:`only_choice`: a roll; the engines play a forced move with its throw and take moves
    from one place for one). It stops where a person has a real choice, or the game ends; nothing if
    that is now."""
    applied: Applied = []
    while (seat := state.current_player) is not None and len(applied) < MAX_BOT_ACTIONS:
        if bots[seat]:
            if policy is None:
                break
            before = len(applied)
            state = _play_policy(engine, policy, state, lambda s: bots[s], applied)
            if len(applied) == before:
                break
            continue
        if not for_people or (code := only_choice(engine, state, position)) is None:
            break
        state, events, entry = engine.apply(state, code)
        applied.append((entry, events))
    return state, applied
