"""Helpers for engine tests: seeds that make :class:`DiceSource` roll what a test needs.

Seeds are searched, never faked: a test that wants the next throw to be ``(1, 1, 5)``
asks :func:`seed_for` for a seed whose throw *n* really is ``(1, 1, 5)``, so the engine
under test rolls through its normal dice path. To put a mid-game state in front of a
chosen throw, build the state with :func:`dataclasses.replace` (chips, tower, turn, ...)
and let :func:`with_dice` swap in a seed whose next throw(s) are the wanted dice.

Keep searches cheap: every fully fixed three-dice throw multiplies the expected number of
tries by 216. One fixed throw (plus a starter) costs about a millisecond; use ``None`` for
faces that do not matter.
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from engines.base import DiceSource, LogEntry, ReplayMismatchError, replay

SEARCH_LIMIT = 2_000_000

# one wanted throw: (throw index, faces); a face of None matches anything
Wanted = tuple[int, Sequence[int | None]]


def seed_str(i: int) -> str:
    """The i-th candidate seed: 64 hex digits, the shape real seeds have."""
    return f"{i:064x}"


def _matches(got: tuple[int, ...], want: tuple[int | None, ...]) -> bool:
    return all(w is None or w == g for g, w in zip(got, want, strict=True))


@functools.cache
def _search(
    wanted: tuple[tuple[int, int, int, tuple[int | None, ...]], ...], start: int, limit: int
) -> str:
    # most selective throw first, so most candidates are rejected after one HMAC
    ordered = sorted(wanted, key=lambda w: -math.prod(w[2] for f in w[3] if f is not None))
    for i in range(start, start + limit):
        seed = seed_str(i)
        source = DiceSource(seed)
        if all(_matches(source.throw(n, c, s), p) for n, c, s, p in ordered):
            return seed
    raise LookupError(f"no seed in {start}..{start + limit} gives {wanted}")


def seed_for(
    throws: Iterable[Wanted] = (),
    count: int = 3,
    sides: int = 6,
    *,
    starter: tuple[int, int] | None = None,
    start: int = 0,
    limit: int = SEARCH_LIMIT,
) -> str:
    """A seed whose :class:`DiceSource` gives the wanted dice.

    ``throws``: ``(index, faces)`` pairs; ``faces`` has ``count`` entries in 1..sides, or
    ``None`` for "any face". ``starter=(seat, seats)`` also fixes throw 0, the engines'
    starter draw (one die with ``seats`` faces; face f means seat f - 1 starts).
    ``start`` shifts the search, to get a different seed with the same dice.
    """
    wanted: list[tuple[int, int, int, tuple[int | None, ...]]] = []
    for index, faces in throws:
        faces = tuple(faces)
        if len(faces) != count:
            raise ValueError(f"throw {index}: {len(faces)} faces given, count is {count}")
        if any(f is not None and not 1 <= f <= sides for f in faces):
            raise ValueError(f"throw {index}: faces {faces} not in 1..{sides}")
        wanted.append((index, count, sides, faces))
    if starter is not None:
        seat, seats = starter
        if not 0 <= seat < seats:
            raise ValueError(f"starter seat {seat} not in 0..{seats - 1}")
        if any(index == 0 for index, *_ in wanted):
            raise ValueError("throw 0 is the starter draw; give either starter or throw 0")
        wanted.append((0, 1, seats, (seat + 1,)))
    indices = [w[0] for w in wanted]
    if len(set(indices)) != len(indices):
        raise ValueError(f"a throw index is given twice: {indices}")
    tries = math.prod(w[2] ** sum(f is not None for f in w[3]) for w in wanted)
    if tries * 20 > limit:
        raise ValueError(
            f"about {tries} tries expected: fix fewer faces (None = any) or build the "
            "state with dataclasses.replace and fix only the next throw"
        )
    return _search(tuple(sorted(wanted)), start, limit)


def with_dice(state: Any, *throws: Sequence[int | None], count: int = 3, sides: int = 6) -> Any:
    """``state`` with a new seed so its next throws (from ``state.throws`` on) are ``throws``.

    Works for any state dataclass that keeps ``seed`` and ``throws`` (the next throw index).
    """
    wanted = [(state.throws + k, faces) for k, faces in enumerate(throws)]
    return replace(state, seed=seed_for(wanted, count=count, sides=sides))


def new_state(engine: Any, options: Any, seats: int, seed: str | None = None, **changes: Any) -> Any:
    """A fresh game of ``engine`` with ``changes`` applied by :func:`dataclasses.replace`."""
    state, _ = engine.new_game(options, seats, seed or seed_str(0))
    return replace(state, **changes) if changes else state


def play(engine: Any, state: Any, codes: Iterable[str]) -> tuple[Any, list[Any], list[Any]]:
    """Apply ``codes`` in order; returns (state, all events, log entries)."""
    events: list[Any] = []
    log: list[Any] = []
    for code in codes:
        state, more, entry = engine.apply(state, code)
        events.extend(more)
        log.append(entry)
    return state, events, log


def play_out(
    engine: Any, state: Any, limit: int = 1000, choose: Any = None
) -> tuple[Any, list[list[Any]], list[Any]]:
    """Play until the game is over: (final state, events per action, log entries).

    ``choose(state, actions)`` picks the action (default: the first legal one). Fails
    instead of hanging when the game is not over after ``limit`` actions.
    """
    per_action: list[list[Any]] = []
    log: list[Any] = []
    while not state.finished:
        if len(log) >= limit:
            raise AssertionError(f"game not over after {limit} actions")
        actions = engine.legal_actions(state)
        assert actions, "no legal action in an unfinished game"
        action = choose(state, actions) if choose else actions[0]
        state, events, entry = engine.apply(state, action.code)
        per_action.append(events)
        log.append(entry)
    return state, per_action, log


def kinds(events: Iterable[Any]) -> list[str]:
    """The event kinds, in order."""
    return [e.kind for e in events]


# one applied action of a playthrough: (state before, state after, events, log entry)
Step = tuple[Any, Any, list[Any], Any]


def states_of(start: Any, steps: Sequence[Step]) -> list[Any]:
    """Every state of a playthrough, the start included."""
    return [start] + [after for _, after, _, _ in steps]


def assert_json_round_trip(engine: Any, start: Any, steps: Sequence[Step]) -> None:
    """Every state, event and log entry survives JSON text unchanged."""
    for state in states_of(start, steps):
        raw = json.loads(json.dumps(state.to_json()))
        back = engine.state_from_json(raw)
        assert back == state
        assert back.to_json() == state.to_json()
    for _, _, events, entry in steps:
        for event in events:
            assert json.loads(json.dumps(event.to_json())) == event.to_json()
        assert LogEntry.from_json(json.loads(json.dumps(entry.to_json()))) == entry


def assert_replay_and_tampering(engine: Any, options: Any, seats: int, seed: str, steps: Sequence[Step],
                                tamper: int) -> None:
    """The log replays to the final state; changing the dice or the seat of entry ``tamper`` (a
    throw) is caught."""
    log = [entry for *_, entry in steps]
    assert replay(engine, options, seats, seed, log) == steps[-1][1]
    entry = log[tamper]
    assert entry.dice, "tamper with a throw"
    wrong_dice = [*log[:tamper], entry._replace(dice=(entry.dice[0] % 6 + 1, *entry.dice[1:])), *log[tamper + 1:]]
    with pytest.raises(ReplayMismatchError):
        replay(engine, options, seats, seed, wrong_dice)
    wrong_seat = [*log[:tamper], entry._replace(seat=(entry.seat + 1) % seats), *log[tamper + 1:]]
    with pytest.raises(ReplayMismatchError):
        replay(engine, options, seats, seed, wrong_seat)
