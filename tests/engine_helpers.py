"""Helpers for engine tests: throws that show what a test needs, and the checks every game shares.

A test that wants the next throw to be ``(1, 1, 5)`` says so: it passes
``LoadedDice((1, 1, 5))`` to ``apply`` (or the starter's face to ``new_game``), and the
engine rolls through its normal dice path with those faces. To put a mid-game state in
front of a chosen throw, build the state with :func:`dataclasses.replace` (chips, tower,
turn, ...) and apply the throw with :func:`apply_throw`.

The rest is what every engine's tests share: applying a loaded throw or a choice with the
checks every game makes, the option checks, and whole games played with random legal
choices (:func:`playthrough`, :func:`play_random`). The contract every engine keeps is
checked once, in tests/test_engine_contract.py; the rules are re-implemented in each game's
test file, not here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from engines.base import (
    Event,
    IllegalActionError,
    LoadedDice,
    LogEntry,
    OptionsError,
    Outcome,
    replay,
)
from engines.playout import Choose, Step, first_legal, playout
from tests.engine_setups import random_choice, seed_str


def new_state(engine: Any, options: Any, seats: int, seed: str | None = None, **changes: Any) -> Any:
    """A fresh game of ``engine`` with ``changes`` applied by :func:`dataclasses.replace`."""
    state, _ = engine.new_game(options, seats, seed or seed_str(0))
    return replace(state, **changes) if changes else state


def apply_throw(engine: Any, state: Any, dice: tuple[int, ...]) -> tuple[Any, list[Any], LogEntry]:
    """Apply one throw that shows exactly ``dice``, checking what every game's throw records."""
    after, events, entry = engine.apply(state, "r", LoadedDice(dice))
    assert entry == LogEntry(seat=state.turn, code="r", dice=dice)
    assert after.last_dice == dice and after.last_seat == state.turn
    assert after.throws == state.throws + 1 and after.version == state.version + 1
    return after, events, entry


def roll_die(engine: Any, state: Any, die: int) -> tuple[Any, list[Any]]:
    """Apply one throw of a single die that shows ``die``: (state, events), the first a ``roll`` of it."""
    after, events, _ = apply_throw(engine, state, (die,))
    assert events[0] == Event("roll", seat=state.turn, data={"die": die})
    return after, events


def apply_choice(engine: Any, state: Any, code: str, phase: str) -> tuple[Any, list[Any]]:
    """Apply the choice ``code`` in ``phase``, checking that it throws no dice: (state, events)."""
    assert state.phase == phase
    after, events, entry = engine.apply(state, code)
    assert entry == LogEntry(seat=state.turn, code=code)
    assert after.throws == state.throws and after.version == state.version + 1
    return after, events


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
    engine: Any, state: Any, limit: int = 1000, choose: Choose[Any] = first_legal
) -> tuple[Any, list[list[Any]], list[Any]]:
    """Play until the game is over: (final state, events per action, log entries).

    ``choose(state, actions)`` picks the action (default: the first legal one). Fails
    instead of hanging when the game is not over after ``limit`` actions.
    """
    steps = list(playout(engine, state, choose, limit))
    final = steps[-1][1] if steps else state
    if not final.finished:
        raise AssertionError(f"game not over after {limit} actions")
    return final, [events for _, _, events, _ in steps], [entry for *_, entry in steps]


def play_random(
    engine: Any, options: Any, seats: int, seed: str, *, limit: int, choice_seed: int | str | None = None
) -> tuple[Any, list[list[Any]], list[Any]]:
    """A new game played out with random legal choices (seeded by ``choice_seed``, else ``seed``)."""
    start, _ = engine.new_game(options, seats, seed)
    return play_out(engine, start, limit, random_choice(seed if choice_seed is None else choice_seed))


def assert_replays(engine: Any, options: Any, seats: int, seed: str, state: Any, log: Sequence[LogEntry]) -> None:
    """``state`` was reached by one version per logged action, and the log replays to it."""
    assert state.version == len(log)
    assert replay(engine, options, seats, seed, log) == state


def random_wins(engine: Any, options: Any, seats: int, seeds: Iterable[str], limit: int) -> list[tuple[Any, Outcome]]:
    """Games played out by :func:`play_random`, each checked to be won by one seat: (final state, outcome)."""
    games = []
    for seed in seeds:
        state, per_action, log = play_random(engine, options, seats, seed, limit=limit)
        out = engine.outcome(state)
        assert out.kind == "win" and out.winners == (state.winner,) and sorted(out.ranking) == list(range(seats))
        assert per_action[-1][-1] == Event("win", seat=state.winner)
        assert_replays(engine, options, seats, seed, state, log)
        games.append((state, out))
    return games


def assert_nothing_legal(engine: Any, state: Any, codes: Iterable[str] = ("r",)) -> None:
    """``state`` is over: nobody to play, no legal action, and each of ``codes`` is refused."""
    assert state.finished and state.current_player is None and engine.legal_actions(state) == []
    for code in codes:
        with pytest.raises(IllegalActionError):
            engine.apply(state, code)


def kinds(events: Iterable[Any]) -> list[str]:
    """The event kinds, in order."""
    return [e.kind for e in events]


def of_kind(events: Iterable[Any], kind: str) -> list[Any]:
    """The events of one kind, in order."""
    return [e for e in events if e.kind == kind]


def states_of(start: Any, steps: Sequence[Step]) -> list[Any]:
    """Every state of a playthrough, the start included."""
    return [start] + [after for _, after, _, _ in steps]


# ---------------------------------------------------------------- starting a game, options


def starter_games(engine: Any, options: Any, seats: int) -> list[tuple[Any, list[Event]]]:
    """A new game for each seat as the starter (its throw 0 loaded), in seat order: (state, events)."""
    return [engine.new_game(options, seats, seed_str(0), LoadedDice((seat + 1,))) for seat in range(seats)]


def assert_options_refused(engine: Any, options_type: Any, raw: dict[str, Any], key: str, seats: int) -> None:
    """``raw`` is refused, naming ``key``: as JSON, by ``validate(seats)`` and by ``new_game``."""
    with pytest.raises(OptionsError) as err:
        engine.options_from_json(raw)
    assert err.value.key == key
    with pytest.raises(OptionsError) as err:
        options_type(**raw).validate(seats)
    assert err.value.key == key
    with pytest.raises(OptionsError) as err:
        engine.new_game(options_type(**raw), seats, seed_str(0))
    assert err.value.key == key


def assert_player_count_refused(engine: Any, options: Any, seats: int) -> None:
    """``new_game`` refuses ``seats`` players, naming the engine's limits."""
    with pytest.raises(OptionsError) as err:
        engine.new_game(options, seats, seed_str(0))
    assert err.value.key == "players"
    assert err.value.limits == {"min": engine.min_players, "max": engine.max_players}


NOT_BOOLS = (1, 0, "yes", "true", None, 1.0)  # refused for an on/off option


def flag_option_games(engine: Any, raw: dict[str, Any] | None, key: str) -> list[Any]:
    """``raw`` read as options sets the on/off option ``key`` as given, off by default: :func:`valid_option_games`."""
    options = engine.options_from_json(raw)
    assert getattr(options, key) is bool(raw and raw.get(key))
    assert type(options)().to_json() == {key: False}
    return valid_option_games(engine, options)


def valid_option_games(engine: Any, options: Any) -> list[Any]:
    """``options`` start a game for every player count and survive JSON: the new states."""
    states = []
    for seats in range(engine.min_players, engine.max_players + 1):
        options.validate(seats)
        state, _ = engine.new_game(options, seats, seed_str(seats))
        assert state.options == options
        states.append(state)
    assert engine.options_from_json(json.loads(json.dumps(options.to_json()))) == options
    return states


# ---------------------------------------------------------------- property tests over whole games


def playthrough(
    engine: Any, options: Any, seats: int, seed: str, choice_seed: int | str = 0, *, limit: int
) -> tuple[Any, list[Step]]:
    """A new game with random legal choices, to its end or ``limit`` actions: (start, steps)."""
    start, _ = engine.new_game(options, seats, seed)
    return start, list(playout(engine, start, random_choice(choice_seed), limit))


def assert_step_matches(before: Any, after: Any, entry: LogEntry, expected: dict[str, Any]) -> None:
    """An action of a game with choices: the player's, a throw just in the roll phase, leaving ``expected``."""
    assert entry.seat == before.turn
    assert (entry.code == "r") == (before.phase == "roll") == bool(entry.dice)
    for key, value in expected.items():
        assert getattr(after, key) == value, (key, before, entry)


def assert_won_alone(final: Any, done: Callable[[int], bool]) -> None:
    """A race is over, and its winner is the only seat with every piece ``done`` (in the centre, home)."""
    assert final.finished
    assert [all(done(p) for p in final.of(seat)) for seat in range(final.seats)] == \
        [seat == final.winner for seat in range(final.seats)]


def assert_ends_within(steps: Sequence[Step], limit: int) -> Any:
    """The playthrough ended within ``limit`` actions, by its last one only: the final state."""
    assert steps and steps[-1][1].finished, f"not over after {limit} actions"
    assert all(not before.finished for before, *_ in steps)
    return steps[-1][1]


