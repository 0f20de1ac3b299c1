"""Helpers for engine tests: throws that show what a test needs, and the checks every game shares.

A test that wants the next throw to be ``(1, 1, 5)`` says so: it passes
``LoadedDice((1, 1, 5))`` to ``apply`` (or the starter's face to ``new_game``), and the
engine rolls through its normal dice path with those faces. To put a mid-game state in
front of a chosen throw, build the state with :func:`dataclasses.replace` (chips, tower,
turn, ...) and apply the throw with :func:`apply_throw`.

The rest is what every engine's tests share: applying a loaded throw or a choice with the
checks every game makes, the starter and option checks, whole games played with random
legal choices (:func:`playthrough`, :func:`play_random`) and the property tests built on
them. The rules themselves are re-implemented in each test file, not here.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import (
    DiceSource,
    Event,
    IllegalActionError,
    LoadedDice,
    LogEntry,
    OptionsError,
    Outcome,
    ReplayMismatchError,
    replay,
)
from engines.playout import Choose, Step, at_random, first_legal, playout


def seed_str(i: int) -> str:
    """The i-th test seed: 64 hex digits, the shape real seeds have."""
    return f"{i:064x}"


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


def random_choice(seed: int | str) -> Choose[Any]:
    """A ``choose`` for :func:`play_out`: a random legal action, the same ones for the same seed."""
    return at_random(random.Random(seed))


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


def starter_games(engine: Any, options: Any, seats: int) -> list[tuple[Any, list[Any]]]:
    """For each seat, a new game (state, events) whose starter draw picks it, to start with throw 1."""
    games = []
    for seat in range(seats):
        state, events = engine.new_game(options, seats, seed_str(0), LoadedDice((seat + 1,)))
        assert state.turn == state.current_player == seat
        assert [(e.kind, e.seat) for e in events] == [("starter", seat)]
        assert state.throws == 1 and state.version == 0
        games.append((state, events))
    return games


def assert_starter_is_throw0(engine: Any, options: Any, games: int) -> None:
    """For ``games`` seeds and every player count in turn, the starter is throw 0 of the dice source."""
    counts = range(engine.min_players, engine.max_players + 1)
    for i in range(games):
        seed = seed_str(i * 7919)
        seats = counts[i % len(counts)]
        state, _ = engine.new_game(options, seats, seed)
        assert state.turn == DiceSource(seed).throw(0, 1, sides=seats)[0] - 1


def first_throws(engine: Any, options: Any, seed: str, count: int, throws: int = 1) -> list[Step]:
    """The first ``throws`` rolls of a 4-seat game: each is the roller's and shows throw n (``count`` dice)."""
    state, _ = engine.new_game(options, 4, seed)
    steps: list[Step] = []
    for n in range(1, throws + 1):
        after, events, entry = engine.apply(state, "r")
        assert entry.dice == DiceSource(seed).throw(n, count) == after.last_dice
        assert entry.seat == state.turn == after.last_seat
        steps.append((state, after, events, entry))
        state = after
    return steps


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

SEEDS = st.integers(0, 2**256 - 1).map(seed_str)
CHOICE_SEEDS = st.integers(0, 2**32)


def prop_settings(max_examples: int) -> settings:
    """Hypothesis settings for whole-game properties: ``max_examples`` games, no deadline."""
    return settings(max_examples=max_examples, deadline=None)


def setups(options: st.SearchStrategy[Any], seats: st.SearchStrategy[int]) -> st.SearchStrategy[tuple[Any, ...]]:
    """(options, seats, seed, choice seed): the arguments of :func:`playthrough` after the engine."""
    return st.tuples(options, seats, SEEDS, CHOICE_SEEDS)


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


def assert_ends_within(steps: Sequence[Step], limit: int) -> Any:
    """The playthrough ended within ``limit`` actions, by its last one only: the final state."""
    assert steps and steps[-1][1].finished, f"not over after {limit} actions"
    assert all(not before.finished for before, *_ in steps)
    return steps[-1][1]


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


def whole_game_properties(
    engine: Any, games: st.SearchStrategy[tuple[Any, ...]], props: settings, limit: int,
    check_final: Callable[[tuple[Any, ...], Any], None] | None = None,
) -> tuple[Callable[..., None], Callable[..., None], Callable[..., None]]:
    """Every engine's property tests over playthroughs of ``games``, for a test module to name."""

    @props
    @given(games)
    def ends_within_bound(setup: tuple[Any, ...]) -> None:
        """The game ends within ``limit`` actions, by its last one only, and passes ``check_final``."""
        final = assert_ends_within(playthrough(engine, *setup, limit=limit)[1], limit)
        if check_final is not None:
            check_final(setup, final)

    @props
    @given(games)
    def json_round_trip(setup: tuple[Any, ...]) -> None:
        """Every state, event and log entry of the game survives JSON."""
        assert_json_round_trip(engine, *playthrough(engine, *setup, limit=limit))

    @props
    @given(games, st.data())
    def replay_and_tampering(setup: tuple[Any, ...], data: st.DataObject) -> None:
        """The log replays to the final state; changing the dice or seat of a throw is caught."""
        _, steps = playthrough(engine, *setup, limit=limit)
        throws = [i for i, (*_, entry) in enumerate(steps) if entry.dice]
        options, seats, seed = setup[:3]
        assert_replay_and_tampering(engine, options, seats, seed, steps, data.draw(st.sampled_from(throws)))

    return ends_within_bound, json_round_trip, replay_and_tampering
