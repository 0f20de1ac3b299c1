"""The engines' fast paths against the straightforward computation they replace.

``engines.ludo.find_moves`` looks the board up in tables built at import (places relative to
the mover, blocks found by pairwise comparison, ready-made moves per die); the reference below is
the direct reading of the rules it replaced. Both must agree on every die in every position
of many seeded random games, for every player count and both variants. ``parchis`` copies
its state through a faster path than ``dataclasses.replace``; the two must agree. And
``engines.playout.play_on`` runs :func:`~engines.playout.playout`'s loop without the generator:
both must stop at the same state.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from engines.base import Action
from engines.ludo import (
    ARM,
    CENTRE,
    CIRCUIT,
    COLOURS,
    EFFECT_CAPTURE,
    EFFECT_CENTRE,
    EFFECT_NONE,
    EFFECT_SAFE,
    ENGINE,
    EXIT_DIE,
    LAST_CIRCUIT,
    PIECES,
    SAFE_CELLS,
    YARD,
    LudoOptions,
    LudoState,
    cell_of,
    find_moves,
)
from engines.parchis import ENGINE as PARCHIS
from engines.parchis import ParchisState
from engines.playout import at_random, play_on, playout


def reference_find_moves(state: LudoState, seat: int, die: int) -> list[tuple[str, int, int, int, int]]:
    """Rules 2, 4, 5, 7 and 9 read directly, as the engine computed them before the tables."""
    colours = COLOURS[state.seats]
    cells = [cell_of(colours[k // PIECES], p) for k, p in enumerate(state.pieces)]
    own = state.pieces[PIECES * seat:PIECES * seat + PIECES]
    blocks = set()
    for other in range(state.seats):
        theirs = state.pieces[PIECES * other:PIECES * other + PIECES]
        if other != seat:
            blocks |= {cell_of(colours[other], p) for p in theirs if 0 <= p <= LAST_CIRCUIT and theirs.count(p) >= 2}
    offset = ARM * colours[seat]
    moves, seen = [], set()
    for piece, start in enumerate(own):
        if start == CENTRE or start in seen:
            continue
        if start == YARD:
            if die != EXIT_DIE:
                continue
            target, first = 0, 0
        else:
            target, first = start + die, start + 1
            if target > CENTRE:
                continue
        if state.options.bonuses:
            if any(first <= (cell - offset) % CIRCUIT <= min(target, LAST_CIRCUIT) for cell in blocks):
                continue
            if target != CENTRE and own.count(target) >= 2:
                continue
        cell = cell_of(colours[seat], target) if target <= LAST_CIRCUIT else None
        opponents = sum(1 for k, c in enumerate(cells) if c == cell and k // PIECES != seat)
        if target == CENTRE:
            effect = EFFECT_CENTRE
        elif cell is None:
            effect = EFFECT_NONE
        elif cell in SAFE_CELLS:
            effect = EFFECT_SAFE
        else:
            effect = EFFECT_CAPTURE if cell is not None and opponents == 1 else EFFECT_NONE
        seen.add(start)
        moves.append(("e" if start == YARD else f"p{piece}", piece, start, target, effect))
    return sorted(moves)


@pytest.mark.parametrize("bonuses", [False, True])
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_ludo_find_moves_matches_the_reference_in_random_games(seats, bonuses):
    options, checked = LudoOptions(bonuses=bonuses), 0
    for game in range(12):
        rng = random.Random(f"{seats}-{bonuses}-{game}")
        state, _ = ENGINE.new_game(options, seats, f"{rng.getrandbits(256):064x}")
        for before, *_ in playout(ENGINE, state, at_random(rng)):
            for die in range(1, 7):
                assert find_moves(before, before.turn, die) == reference_find_moves(before, before.turn, die)
                checked += 1
    assert checked > 1000


@pytest.mark.parametrize("bonuses", [False, True])
def test_ludo_find_moves_matches_the_reference_in_crowded_positions(bonuses):
    """Random placements (blocks, shared safe cells, several pieces on one cell) that random
    play reaches rarely; the fast path may not rely on what the rules keep from happening."""
    rng = random.Random(bonuses)
    for _ in range(3000):
        seats = rng.choice((2, 3, 4))
        spots = (YARD, CENTRE, *rng.sample(range(CENTRE), 6))
        pieces = tuple(rng.choice(spots) for _ in range(PIECES * seats))
        state = LudoState(seed="0" * 64, options=LudoOptions(bonuses=bonuses), seats=seats, pieces=pieces,
                          turn=rng.randrange(seats), phase="roll", sixes=0, throws=1, version=0)
        for die in range(1, 7):
            assert find_moves(state, state.turn, die) == reference_find_moves(state, state.turn, die)


def test_parchis_copy_matches_dataclasses_replace():
    """ParchisEngine._copy passes the fields positionally and sets the changes afterwards;
    it must build exactly what dataclasses.replace builds, and leave the original alone."""
    options = PARCHIS.options_from_json({})
    rng = random.Random("parchis-copy")

    def copy_then_choose(state: ParchisState, actions: Sequence[Action]) -> Action:
        before = state.to_json()
        changes = {"turn": rng.randrange(4), "count": rng.randrange(8), "moves": (), "winner": None}
        assert PARCHIS._copy(state, **changes) == dataclasses.replace(state, **changes)
        assert PARCHIS._copy(state) == state
        assert state.to_json() == before
        return rng.choice(actions)

    for _ in range(4):
        state, _events = PARCHIS.new_game(options, 4, f"{rng.getrandbits(256):064x}")
        final, _ = play_on(PARCHIS, state, copy_then_choose)
        assert final.finished


@pytest.mark.parametrize("stop", ["the end", "a limit", "until"])
@pytest.mark.parametrize("seats", [2, 4])
def test_play_on_stops_where_playout_does(seats, stop):
    """play_on runs playout's loop itself, without the generator: the same choices must reach
    the same state after the same number of actions, however the game is stopped."""
    limit = 137 if stop == "a limit" else None

    def until(state: LudoState) -> bool:  # the first piece in the centre
        return CENTRE in state.pieces

    options = LudoOptions(bonuses=seats == 4)
    for game in range(5):
        state, _ = ENGINE.new_game(options, seats, f"{game:064x}")
        steps = list(playout(ENGINE, state, at_random(random.Random(game)), limit,
                             until if stop == "until" else None))
        reached, applied = play_on(ENGINE, state, at_random(random.Random(game)), limit,
                                   until if stop == "until" else None)
        assert steps and applied == len(steps)
        assert reached == steps[-1][1]
        assert reached.finished == (stop == "the end") and (stop != "until" or until(reached))
