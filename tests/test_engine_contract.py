"""The engine contract (engines/base.py; docs/architecture.md, «Engine contract»), checked for every game.

Every engine plays the random games of tests/engine_setups.py here: games end; legal actions
are unique, short, ASCII and in the engine's fixed order; every state, event and log entry
survives JSON; the log replays to every state and a tampered log is refused; the engines
never change a state they are given; the starter is throw 0; every throw comes from the dice
an action is given (the game's seed by default); options and player counts are refused with
the key that is wrong. Each game's own test file holds its rules.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import GAMES
from engines import lions, ludo, parchis, shishbesh, sosedi, spichki, tishe
from engines.base import (
    Action,
    DiceSource,
    Engine,
    Event,
    IllegalActionError,
    LoadedDice,
    LogEntry,
    Outcome,
    ReplayMismatchError,
    draw_starter,
    replay,
)
from engines.playout import Choose, Step, playout
from tests.engine_helpers import (
    assert_ends_within,
    assert_nothing_legal,
    assert_options_refused,
    assert_player_count_refused,
    seed_str,
    states_of,
    valid_option_games,
)
from tests.engine_setups import GAME_SETUPS, Setup, prop_settings, random_choice

ENGINES = [spec.engine for spec in GAMES.values()]  # every game the bot offers (the registry, named only here)
every_game = pytest.mark.parametrize("engine", ENGINES, ids=lambda engine: engine.code)

# codes no engine offers, tried on every state (with the codes the state before offered)
JUNK_CODES = ("", "?", "x", "R", "r ", "roll", "zz9", "P0", "e0 ", "s-1", "p99")
OUTCOME_KINDS = ("win", "lose", "draw")
# option values of the wrong type, refused by every option; except «roller_immune», which
# SosediOptions.validate has never checked (refusing it now would change what is accepted)
NOT_OPTION_VALUES = ([1], {"on": True})
UNCHECKED_OPTIONS = {("sosedi", "roller_immune")}

# The order of the legal actions: by code, except where an engine lays out its keyboard
# otherwise. «Шиш-беш» (engines/shishbesh.py, die_moves): the dice left in the order thrown,
# each die's moves piece by piece (an entry at the first park piece), a step before its jumps.
# «Охота на львов» (engines/lions.py, legal_actions): the moving piece's steps, the pieces to
# pick, by circle, then «Готово» and «Отменить шаг» (or «Пас»), the draw offer, «Сдаться»;
# answering an offer, accept before decline.
_SHISHBESH_KINDS = ("roll", "enter", "step", "jump_forward", "jump_back", "jump_diagonal")
_LIONS_GROUPS = {"accept": 0, "decline": 1, "step": 0, "pick": 1, "done": 2, "pass": 2, "undo": 3, "offer": 4,
                 "resign": 5}


def _shishbesh_order(state: Any, action: Action) -> tuple[int, ...]:
    if action.kind == "roll":
        return (0,)
    dice = list(dict.fromkeys(state.dice))
    return dice.index(action.args["die"]), int(action.args["piece"]), _SHISHBESH_KINDS.index(action.kind)


def _lions_order(_state: Any, action: Action) -> tuple[int, int]:
    circle = int(action.code[1:]) if action.kind in ("step", "pick") else 0
    return _LIONS_GROUPS[action.kind], circle


ORDER: dict[str, Callable[[Any, Action], Any]] = {"shishbesh": _shishbesh_order, "lions": _lions_order}


def by_code(_state: Any, action: Action) -> str:
    return action.code


# ---------------------------------------------------------------- playing the random games


def prop(engine: Engine[Any, Any], check: Callable[[Setup], None], examples: int | None = None) -> None:
    """Run ``check(setup)`` over the random games of ``engine`` (tests/engine_setups.py)."""
    spec = GAME_SETUPS[engine.code]
    prop_settings(examples or spec.examples)(given(spec.setups)(check))()


def play(engine: Engine[Any, Any], setup: Setup, limit: int | None = None,
         choose: Choose[Any] | None = None) -> tuple[Any, list[Step[Any]]]:
    """A new game of ``setup`` with the game's own choices (or ``choose``): (start, steps)."""
    options, seats, seed, choice_seed = setup
    spec = GAME_SETUPS[engine.code]
    start, _ = engine.new_game(options, seats, seed)
    chosen = choose or spec.chooser(choice_seed)
    return start, list(playout(engine, start, chosen, limit or spec.max_actions))


def assert_outcome_shape(engine: Engine[Any, Any], state: Any) -> None:
    """A finished game's outcome: a known kind, seats that are in the game, a full ranking or none,
    and JSON that reads back the same."""
    out = engine.outcome(state)
    assert isinstance(out, Outcome) and out.kind in OUTCOME_KINDS
    seats = range(state.seats)
    assert set(out.winners) <= set(seats) and set(out.losers) <= set(seats)
    assert not set(out.winners) & set(out.losers)
    assert out.ranking == () or sorted(out.ranking) == list(seats)
    assert json.loads(json.dumps(out.to_json())) == out.to_json()


def json_copy(engine: Engine[Any, Any], state: Any) -> Any:
    """``state`` read back from its JSON text, which must give the same state and the same JSON."""
    raw = state.to_json()
    back = engine.state_from_json(json.loads(json.dumps(raw)))
    assert back == state and back.to_json() == raw
    return back


# ---------------------------------------------------------------- the registry


def test_every_engine_is_registered_under_its_own_code():
    modules = (sosedi, spichki, tishe, shishbesh, ludo, parchis, lions)
    assert [GAMES[m.ENGINE.code].engine for m in modules] == [m.ENGINE for m in modules]
    assert len(GAMES) == len(modules) == len({m.ENGINE.code for m in modules})
    for engine in ENGINES:
        assert GAMES[engine.code].engine is engine and GAMES[engine.code].code == engine.code
        assert engine.code.isascii() and engine.code.isidentifier()
        assert 1 <= engine.min_players <= engine.max_players
    assert GAMES.get("nope") is None


# ---------------------------------------------------------------- whole games


@every_game
def test_prop_games_end_within_their_bound(engine):
    """Uniformly random legal play ends the game within the bound, by the last action only; then
    nothing is legal any more, the outcome is well formed, and every code of the game is refused."""
    limit = GAME_SETUPS[engine.code].max_actions

    def check(setup: Setup) -> None:
        _, steps = play(engine, setup, choose=random_choice(setup[3]))
        final = assert_ends_within(steps, limit)
        assert_outcome_shape(engine, final)
        assert_nothing_legal(engine, final, {"r", *(entry.code for *_, entry in steps)})

    prop(engine, check)


@every_game
def test_prop_every_state_keeps_the_contract(engine):
    """For every state of a random game: its legal actions are unique, short ASCII codes in the
    engine's order, there are some exactly while the game runs, and so is there a player to move
    (and an outcome once it ends); other codes, and the codes of the state before, are refused;
    the state, its events and the action's log entry survive JSON, and the JSON copy of a state
    offers and plays the same."""
    order = ORDER.get(engine.code, by_code)

    def check(setup: Setup) -> None:
        start, steps = play(engine, setup)
        offered: set[str] = set()
        copies = []
        for k, state in enumerate(states_of(start, steps)):
            actions = engine.legal_actions(state)
            codes = [a.code for a in actions]
            assert len(set(codes)) == len(codes)
            assert all(c.isascii() and 0 < len(c) <= 8 for c in codes)  # they travel in callback data
            assert actions == sorted(actions, key=lambda a: order(state, a))
            assert bool(actions) != state.finished
            assert (state.current_player is None) == state.finished
            assert (engine.outcome(state) is None) != state.finished
            for code in {*(JUNK_CODES if k % 4 == 0 else ()), *offered} - set(codes):  # junk: a sample
                with pytest.raises(IllegalActionError):
                    engine.apply(state, code)
            offered = set(codes)
            copies.append(json_copy(engine, state))
        for (before, after, events, entry), copy in zip(steps, copies[:-1], strict=True):
            for event in events:
                assert isinstance(event, Event)
                assert json.loads(json.dumps(event.to_json())) == event.to_json()
            assert LogEntry.from_json(json.loads(json.dumps(entry.to_json()))) == entry
            if len(engine.legal_actions(before)) > 1:  # a waiting choice: the copy plays it alike
                assert engine.legal_actions(copy) == engine.legal_actions(before)
                assert engine.apply(copy, entry.code) == (after, events, entry)

    prop(engine, check)


@every_game
def test_prop_every_action_is_the_movers_and_changes_nothing_it_is_given(engine):
    """Each action is logged as the code played by the player to move and makes one version;
    the state it was applied to is left as it was (engines build new states)."""

    def check(setup: Setup) -> None:
        seen: list[Any] = []
        choose = GAME_SETUPS[engine.code].chooser(setup[3])

        def noting(state: Any, actions: Sequence[Action]) -> Action:
            seen.append(state.to_json())
            return choose(state, actions)

        _, steps = play(engine, setup, choose=noting)
        for (before, after, _, entry), before_json in zip(steps, seen, strict=True):
            assert entry.seat == before.current_player and entry.code in {a.code for a in engine.legal_actions(before)}
            assert after.version == before.version + 1
            assert before.to_json() == before_json

    prop(engine, check)


@every_game
def test_prop_every_legal_action_applies(engine):
    """Every legal action of every state (of the first 150 actions of a game) can be applied: it
    is logged with its code as the action of the player to move, and leaves the state alone."""

    def check(setup: Setup) -> None:
        start, steps = play(engine, setup, limit=150)
        for state in states_of(start, steps):
            before = state.to_json()
            for action in engine.legal_actions(state):
                after, _, entry = engine.apply(state, action.code)
                assert entry.code == action.code and entry.seat == state.current_player
                assert after.version == state.version + 1
            assert state.to_json() == before

    prop(engine, check, examples=max(3, GAME_SETUPS[engine.code].examples // 4))


# ---------------------------------------------------------------- replays and dice


@every_game
def test_prop_the_log_replays_to_every_state(engine):
    """Replaying the log from the seed gives the state at its start, its middle and its end, from
    the stored (JSON) log too."""

    def check(setup: Setup) -> None:
        options, seats, seed, _ = setup
        start, steps = play(engine, setup)
        states, log = states_of(start, steps), [entry for *_, entry in steps]
        for k in (0, len(log) // 2, len(log)):
            assert states[k].version == k
            assert replay(engine, options, seats, seed, log[:k]) == states[k]
            stored = json.loads(json.dumps([entry.to_json() for entry in log[:k]]))
            assert replay(engine, options, seats, seed, [LogEntry.from_json(raw) for raw in stored]) == states[k]

    prop(engine, check)


def _other_seeds(seed: str, seats: int) -> tuple[str, str]:
    """Two other seeds: one drawing the same starter as ``seed``, one another starter."""
    starter = draw_starter(seed, seats)
    others = [seed_str(k) for k in range(1, 100) if seed_str(k) != seed]
    same = next(s for s in others if draw_starter(s, seats) == starter)
    other = next(s for s in others if draw_starter(s, seats) != starter)
    return same, other


@every_game
def test_prop_a_tampered_log_is_refused(engine):
    """Changing the dice of a throw or the seat of any action is caught, a code that is not legal
    is refused, and so is the log under another seed: one with another starter always, one with
    the same starter wherever the game throws dice."""

    def check(setup: Setup, data: st.DataObject) -> None:
        options, seats, seed, _ = setup
        _, steps = play(engine, setup)
        log = [entry for *_, entry in steps]

        def tampered(i: int, entry: LogEntry) -> list[LogEntry]:
            return [*log[:i], entry, *log[i + 1:]]

        i = data.draw(st.integers(0, len(log) - 1))
        with pytest.raises(ReplayMismatchError, match=f"action {i} "):
            replay(engine, options, seats, seed, tampered(i, log[i]._replace(seat=(log[i].seat + 1) % seats)))
        with pytest.raises(IllegalActionError):
            replay(engine, options, seats, seed, tampered(i, log[i]._replace(code="?")))
        throws = [k for k, entry in enumerate(log) if entry.dice]
        if throws:
            k = data.draw(st.sampled_from(throws))
            wrong = (log[k].dice[0] % 6 + 1, *log[k].dice[1:])
            with pytest.raises(ReplayMismatchError, match=f"action {k} "):
                replay(engine, options, seats, seed, tampered(k, log[k]._replace(dice=wrong)))
        same_starter, other_starter = _other_seeds(seed, seats)
        # a game without dice (lions) may refuse its first code, which was the other side's move
        with pytest.raises(ReplayMismatchError if throws else (ReplayMismatchError, IllegalActionError)):
            replay(engine, options, seats, other_starter, log)
        if throws:
            with pytest.raises(ReplayMismatchError):
                replay(engine, options, seats, same_starter, log)

    spec = GAME_SETUPS[engine.code]
    prop_settings(spec.examples)(given(spec.setups, st.data())(check))()


class RecordingDice:
    """The game's fair dice, noting every throw an engine asks of them: (n, count, sides)."""

    def __init__(self, seed: str) -> None:
        self.fair = DiceSource(seed)
        self.asked: list[tuple[int, int, int]] = []

    def die(self, n: int) -> int:
        self.asked.append((n, 1, 6))
        return self.fair.die(n)

    def throw(self, n: int, count: int, sides: int = 6) -> tuple[int, ...]:
        self.asked.append((n, count, sides))
        return self.fair.throw(n, count, sides)


@every_game
def test_prop_throws_come_from_the_dice_an_action_is_given(engine):
    """Throw n of a game is throw n of the seed's dice (the first throw after the starter's is 1),
    logged and shown as the last throw of its player; an action asks the dice it is given for
    exactly its own throw, and loaded dice are played and logged as loaded."""

    def check(setup: Setup) -> None:
        _, _, seed, _ = setup
        _, steps = play(engine, setup)
        thrown = 0
        for before, after, events, entry in steps:
            dice = RecordingDice(seed)
            assert engine.apply(before, entry.code, dice) == (after, events, entry)
            if not entry.dice:
                assert dice.asked == [] and getattr(after, "throws", None) == getattr(before, "throws", None)
                continue
            thrown += 1
            assert dice.asked == [(thrown, len(entry.dice), 6)] and before.throws == thrown
            assert entry.dice == DiceSource(seed).throw(thrown, len(entry.dice))
            assert after.throws == thrown + 1 and after.last_dice == entry.dice and after.last_seat == entry.seat
            loaded = tuple(face % 6 + 1 for face in entry.dice)
            again, _, logged = engine.apply(before, entry.code, LoadedDice(loaded))
            assert logged == entry._replace(dice=loaded) and again.last_dice == loaded

    prop(engine, check, examples=max(3, GAME_SETUPS[engine.code].examples // 2))


@every_game
def test_the_starter_is_throw_0(engine):
    """The seat to move first is throw 0 of the seed's dice (one die with a face per seat), drawn
    from the dice new_game is given; the game then waits for throw 1 and no action is made yet."""
    options = engine.options_from_json(None)
    for seats in range(engine.min_players, engine.max_players + 1):
        for i in range(12):
            seed = seed_str(i * 7919 + seats)
            state, events = engine.new_game(options, seats, seed)
            starter = DiceSource(seed).throw(0, 1, sides=seats)[0] - 1
            assert state.current_player == starter == draw_starter(seed, seats)
            assert [(e.kind, e.seat) for e in events] == [("starter", starter)]
        for seat in range(seats):
            dice = LoadedDice((seat + 1,))
            state, events = engine.new_game(options, seats, seed_str(0), dice)
            assert dice.left == 0 and state.current_player == seat and state.version == 0
            assert [(e.kind, e.seat) for e in events] == [("starter", seat)]
            assert getattr(state, "throws", 1) == 1 and engine.legal_actions(state)


# ---------------------------------------------------------------- options


@every_game
def test_options_default_unknown_keys_ignored_and_json(engine):
    """No options (or unknown keys) give the defaults; options survive JSON and start a game of
    every player count, which keeps them."""
    options = engine.options_from_json(None)
    assert options == engine.options_from_json({}) == engine.options_from_json({"colour": "red"})
    assert options == type(options)()
    assert len(valid_option_games(engine, options)) == engine.max_players - engine.min_players + 1


@every_game
def test_player_counts_out_of_range_are_refused(engine):
    lo, hi = engine.min_players, engine.max_players
    for seats in sorted({0, 1, lo - 1, hi + 1, hi + 2, 2 * hi} - set(range(lo, hi + 1))):
        assert_player_count_refused(engine, engine.options_from_json(None), seats)


@every_game
def test_an_option_of_the_wrong_type_is_refused(engine):
    options_type = type(engine.options_from_json(None))
    for field in dataclasses.fields(options_type):
        if (engine.code, field.name) in UNCHECKED_OPTIONS:
            continue
        for value in NOT_OPTION_VALUES:
            assert_options_refused(engine, options_type, {field.name: value}, field.name, engine.min_players)
