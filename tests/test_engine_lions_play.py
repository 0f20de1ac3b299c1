"""engines/lions.py over whole games: properties of random legal play (JSON and replays, as for
every engine, in tests/test_engine_contract.py).

The scenario tests per rule are in tests/test_engine_lions.py. Here games are played with
random legal choices (the meta actions «Предложить ничью» and «Сдаться» only now and
then, so games run long enough to see captures, isolation and pushes) and every step is
checked against invariants that follow from the rules independently of the engine's code:
pieces on distinct circles, counts that never grow, no trapped piece left on the board
between turns (rule 4 checks every piece), a pushed piece picked first (rule 6), a turn of
one to three circles over at most three pieces each moving once (rule 2).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given

from engines.base import LogEntry
from engines.lions import (
    ENGINE,
    FEW_PIECES,
    QUIET_TURNS,
    LionsOptions,
    LionsState,
    build,
    can_step,
    close_part,
    pushed,
    sides,
)
from engines.lions_board import NEIGHBOUR_MASKS, SIZE
from engines.playout import playout
from tests.engine_helpers import assert_replays, kinds, seed_str, states_of
from tests.engine_setups import GAME_SETUPS, LIONS_META, lions_chooser

SPEC = GAME_SETUPS["lions"]
LIMIT, SETUPS, PROPS = SPEC.max_actions, SPEC.setups, SPEC.props


def run(options: LionsOptions, seats: int, seed: str, choice_seed: int | str, limit: int = LIMIT,
        meta: float = 0.005):
    """A new game played with :func:`lions_chooser`: (start, steps) as in tests/engine_helpers.py."""
    start, _ = ENGINE.new_game(options, seats, seed)
    return start, list(playout(ENGINE, start, lions_chooser(choice_seed, meta), limit))


def trapped(mover: int, opp: int) -> int:
    """Pieces of either side with no free neighbour and an enemy neighbour."""
    occupied, out = mover | opp, 0
    for own, enemy in ((mover, opp), (opp, mover)):
        for c in range(SIZE):
            if own >> c & 1 and not NEIGHBOUR_MASKS[c] & ~occupied and NEIGHBOUR_MASKS[c] & enemy:
                out |= 1 << c
    return out


def check_state(state: LionsState) -> None:
    lions, hunters = state.lions, state.hunters
    assert len(set(lions)) == len(lions) and len(set(hunters)) == len(hunters)
    assert not set(lions) & set(hunters)
    assert all(0 <= c < SIZE for c in (*lions, *hunters))
    assert 0 <= len(lions) <= 6 and 0 <= len(hunters) <= 6
    if state.finished:
        assert state.current_player is None and ENGINE.legal_actions(state) == []
        assert ENGINE.outcome(state) is not None
        return
    assert state.current_player in (0, 1) and ENGINE.outcome(state) is None
    assert lions and hunters
    built = build(state)
    assert not built.mover & built.opp
    assert built.steps <= 3 and len(state.segments) <= 3
    pieces = [seg[0] for seg in state.segments]
    assert len(set(pieces)) == len(pieces)  # each piece moves once
    for seg in state.segments:
        assert len(set(seg)) == len(seg)  # never back over a circle it left
        for a, b in itertools.pairwise(seg):
            assert NEIGHBOUR_MASKS[a] >> b & 1
    if not state.segments:
        assert not trapped(*sides(state))  # rule 4 missed nothing last turn
        if state.draw_offer is None and state.push_on:  # rule 6
            mover, opp = sides(state)
            occupied = mover | opp
            must = [c for c in range(SIZE) if pushed(mover, opp) >> c & 1 and can_step(c, occupied)]
            if must:
                assert {int(a.code[1:]) for a in ENGINE.legal_actions(state) if a.kind == "pick"} == set(must)


def check_step(before: LionsState, after: LionsState, events: list, entry: LogEntry) -> None:
    assert entry.seat == before.current_player and entry.dice == ()
    assert after.version == before.version + 1
    assert len(after.lions) <= len(before.lions) and len(after.hunters) <= len(before.hunters)
    assert after.push_on >= before.push_on  # once on, on for good
    if entry.code == "d":  # «Готово» (or a pass) sends the turn
        (sent,) = [e for e in events if e.kind == "turn"]
        lost = len(before.lions) + len(before.hunters) - len(after.lions) - len(after.hunters)
        assert lost == len(sent.data["taken"])
        assert after.quiet == (0 if lost else before.quiet + 1)
        assert after.turns == before.turns + 1 and after.segments == ()
        assert after.push_on == (before.push_on or sent.data["isolated"])
        assert after.turn == 1 - before.turn
    else:
        assert after.turns == before.turns and after.quiet == before.quiet
        assert (after.lions, after.hunters, after.push_on) == (before.lions, before.hunters, before.push_on)
    if after.end == "quiet":  # rule 8: 60 turns at two pieces or fewer, or the option's count at any
        fewest = min(len(after.lions), len(after.hunters))
        assert (after.quiet >= QUIET_TURNS and fewest <= FEW_PIECES) or after.quiet >= after.options.quiet_draw > 0
    if after.end == "all_taken":
        assert not after.lions or not after.hunters
        assert after.winner == (after.seat_of("lions") if after.lions else after.seat_of("hunters"))


# ====================================================================== properties


@PROPS
@given(SETUPS)
def test_prop_invariants_of_every_step(setup):
    start, steps = run(*setup)
    check_state(start)
    for before, after, events, entry in steps:
        check_step(before, after, events, entry)
        check_state(after)


@PROPS
@given(SETUPS)
def test_prop_every_legal_action_keeps_the_invariants(setup):
    start, steps = run(*setup, limit=150)
    for state in states_of(start, steps):
        for action in ENGINE.legal_actions(state):
            check_state(ENGINE.apply(state, action.code)[0])


@PROPS
@given(SETUPS)
def test_prop_captures_are_where_pieces_stop(setup):
    """Rule 4 re-checked: each sent turn takes exactly the pieces close_part finds, part by part."""
    for before, _, events, entry in run(*setup)[1]:
        if entry.code != "d":
            continue
        mover, opp = sides(before)
        expected = []
        for seg in before.segments:
            if len(seg) == 1:
                continue
            mover ^= (1 << seg[0]) ^ (1 << seg[-1])
            mover, opp, t_opp, t_own = close_part(mover, opp)
            expected += [[c, False] for c in range(SIZE) if t_opp >> c & 1]
            expected += [[c, True] for c in range(SIZE) if t_own >> c & 1]
        (sent,) = [e for e in events if e.kind == "turn"]
        assert sent.data["taken"] == expected


# ====================================================================== random play (OpenSpiel style)


def test_random_play_many_games():
    seen: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    for i in range(40):
        options = LionsOptions(lions_seat=i % 2)
        _, steps = run(options, 2, seed_str(9000 + i), i, limit=1500, meta=0.002)
        for before, after, events, entry in steps:
            check_step(before, after, events, entry)
            seen.update(kinds(events))
        final = steps[-1][1]
        check_state(final)
        ends[final.end or "running"] += 1
        assert_replays(ENGINE, options, 2, seed_str(9000 + i), final, [e for *_, e in steps])
    assert sum(ends.values()) == 40 and ends["running"] and len(ends) > 1
    assert {"pick", "step", "undo", "turn", "draw_offered"} <= set(seen)
    assert seen["turn"] > 1000


def test_random_play_reaches_every_ending():
    """Capture-seeking random play: games end by all taken and by the quiet draw, and isolate."""
    ends: Counter[str] = Counter()
    isolations = 0
    for i in range(12):
        state, _ = ENGINE.new_game(LionsOptions(lions_seat=i % 2), 2, seed_str(500 + i))
        steps = list(playout(ENGINE, state, hunter(i % 2, random.Random(i)), 4000))
        isolations += sum(1 for *_, events, _ in steps for e in events if e.kind == "turn" and e.data["isolated"])
        ends[steps[-1][1].end or "running"] += 1
    assert ends["all_taken"] >= 1 and ends["quiet"] >= 1
    assert isolations >= 1


def hunter(greedy: int, rng: random.Random):
    """Capture-seeking play: seat ``greedy`` takes the action that gains most (ties at random),
    the other a random one; neither offers, resigns or undoes."""

    def choose(state: LionsState, actions: list) -> Any:
        calm = [a for a in actions if a.kind not in (*LIONS_META, "undo")]
        if state.turn == greedy:
            return max(calm, key=lambda a: _gain(state, a.code) + rng.random())
        return rng.choice(calm)

    return choose


def _gain(state: LionsState, code: str) -> int:
    """Enemy pieces minus own pieces after ``code`` (as far as the turn is built)."""
    after, _, _ = ENGINE.apply(state, code)
    if after.finished:
        return 100 if after.winner == state.turn else -100
    built = build(after, close_last=after.turn == state.turn and bool(after.segments))
    mover, opp = (built.mover, built.opp) if after.turn == state.turn else (built.opp, built.mover)
    return mover.bit_count() - opp.bit_count()


@pytest.mark.parametrize("lions_seat", [0, 1])
def test_random_play_meta_actions_end_games(lions_seat):
    """With offers and resignations common, games end by them, and the outcome says so."""
    ends: Counter[str] = Counter()
    for i in range(30):
        _, steps = run(LionsOptions(lions_seat=lions_seat), 2, seed_str(i), i, limit=400, meta=0.2)
        final = steps[-1][1]
        if final.finished:
            ends[final.end] += 1
            out = ENGINE.outcome(final)
            assert (out.kind == "draw") == (final.winner is None)
    assert ends["resign"] and ends["agreed"]
