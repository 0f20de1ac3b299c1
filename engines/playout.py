"""Playing a game on, action by action: the one loop of the tests, the benches and the goldens.

The caller brings the choices: a :data:`Choose` function, or any object with the
``random.Random`` method ``choice`` wrapped by :func:`at_random` (engines import no
``random``: a seeded generator is the caller's). Same engine, state and choices, same game.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Iterator, Sequence
from typing import Any, Protocol, TypeVar

from engines.base import Action, Engine, Event, GameState, IllegalActionError, LogEntry, Policy, S

T = TypeVar("T")

# picks the action to play among the legal ones of a state (never an empty list)
Choose = Callable[[S, Sequence[Action]], Action]


class Chooser(Protocol):
    """What :func:`at_random` needs of ``random.Random``."""

    def choice(self, seq: Sequence[T], /) -> T: ...


# One applied action: (the state before it, the state after it, its events, its log entry).
# A plain tuple: a named one costs four times as much to build, 5 % of the ludo bench.
Step = tuple[S, S, list[Event], LogEntry]


def at_random(rng: Chooser, skip: Collection[str] = ()) -> Choose[Any]:
    """Choose uniformly with ``rng`` (a seeded ``random.Random``) among the legal actions whose
    kind is not in ``skip`` (a random player of «Охота на львов» offers no draw, for one)."""
    if not skip:
        return lambda _state, actions: rng.choice(actions)
    return lambda _state, actions: rng.choice([a for a in actions if a.kind not in skip])


def first_legal(_state: GameState, actions: Sequence[Action]) -> Action:
    """Choose the first legal action (a game with dice still plays out at random)."""
    return actions[0]


def playout(engine: Engine[S, Any], state: S, choose: Choose[S], limit: int | None = None,
            until: Callable[[S], bool] | None = None) -> Iterator[Step[S]]:
    """Apply ``choose``'s pick of the legal actions, one step at a time, until the game is over,
    ``limit`` actions have been applied, or ``until(state)`` holds for the state reached."""
    applied = 0
    while not state.finished and (limit is None or applied < limit) and not (until and until(state)):
        after, events, entry = engine.apply(state, choose(state, engine.legal_actions(state)).code)
        yield state, after, events, entry
        state = after
        applied += 1


def play_on(engine: Engine[S, Any], state: S, choose: Choose[S], limit: int | None = None,
            until: Callable[[S], bool] | None = None) -> tuple[S, int]:
    """Play as :func:`playout` does: (the state it stops at, how many actions it applied).

    Its loop again rather than a walk over :func:`playout`'s steps: the engine bench plays through
    here, and resuming the generator and building each step it drops cost 3 % of a ludo game."""
    applied, legal_actions, apply = 0, engine.legal_actions, engine.apply
    while not state.finished and (limit is None or applied < limit) and not (until and until(state)):
        state = apply(state, choose(state, legal_actions(state)).code)[0]
        applied += 1
    return state, applied


def by_policy(policy: Policy[S], seats: Container[int], others: Choose[S], seed: int = 0) -> Choose[S]:
    """``policy`` chooses for the players in ``seats`` (the codes it plans, one after the other),
    ``others`` for everyone else. A planned code that is not legal raises IllegalActionError."""
    planned: list[str] = []

    def choose(state: S, actions: Sequence[Action]) -> Action:
        if state.current_player not in seats:
            return others(state, actions)
        if not planned:
            planned.extend(reversed(policy.plan(state, seed)))
        code = planned.pop()
        for action in actions:
            if action.code == code:
                return action
        raise IllegalActionError(f"the policy planned {code!r}, not legal here")

    return choose
