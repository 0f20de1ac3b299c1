"""The «Парчис» computer player (engines/parchis_ai.py) against the engine (engines/parchis.py).

Positions are written as in tests/test_engine_parchis.py: a piece's progress from its exit
(-1 at home, 0..63 on the circuit, 64..70 the corridor, 71 the centre); :func:`on` turns a
circuit cell number into that progress. Two players sit opposite: seat 0 is colour 0 (exit
5), seat 1 colour 2 (exit 39). Each heuristic has a scenario where its move is clear, and
the same scenario with that heuristic switched off (monkeypatched) plays something else.
The win rate over 1,000 games a player count is measured by a single-process loop like
:func:`play_vs_random`; the sample here is small and its bound well below the measurement.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator, Sequence

import pytest

from engines import parchis_ai
from engines.base import Action
from engines.parchis import ENGINE, ParchisOptions, ParchisState
from engines.parchis_ai import AI
from engines.playout import at_random, playout
from tests.engine_helpers import seed_str
from tests.parchis_steps import on, rolled

HOME = -1
CENTRE = 71
OPTIONS = (ParchisOptions(),)  # every option combination: the engine has no variants
TURN_CAP = 5000


def choice(state: ParchisState, seed: int = 0) -> str:
    codes = AI.plan(state, seed)
    assert len(codes) == 1
    return codes[0]


def piece_moved(state: ParchisState, seed: int = 0) -> int:
    """The piece (0..3) the policy moves, whichever of its equal pieces the code names."""
    code = choice(state, seed)
    return next(m[1] for m in state.moves if m[0] == code)


def play(state: ParchisState, policy_seats: set[int], seed: int) -> Iterator[tuple[ParchisState, str]]:
    """Play ``state`` out, the policy in ``policy_seats``, random legal actions elsewhere."""
    others = at_random(random.Random(seed))

    def choose(state: ParchisState, actions: Sequence[Action]) -> Action:
        if state.turn not in policy_seats:
            return others(state, actions)
        code = choice(state, seed)
        return next(a for a in actions if a.code == code)

    for before, after, _, entry in playout(ENGINE, state, choose, TURN_CAP):
        yield before, entry.code
        state = after
    assert state.finished, "game not over"


# ---------------------------------------------------------------- legality and determinism

@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("seats", [2, 3, 4])
def test_every_code_is_legal(options: ParchisOptions, seats: int) -> None:
    for game in range(3):
        state, _ = ENGINE.new_game(options, seats, seed_str(100 * seats + game))
        mixed = set(range(seats)) if game == 0 else {game % seats}  # self-play, then against random
        for before, code in play(state, mixed, game):
            if before.turn in mixed:
                assert code in [a.code for a in ENGINE.legal_actions(before)]


def test_deterministic() -> None:
    state, _ = ENGINE.new_game(ParchisOptions(), 4, seed_str(7))
    for seen, (before, code) in enumerate(play(state, {0, 1, 2, 3}, 7)):
        copy = ENGINE.state_from_json(json.loads(json.dumps(before.to_json())))
        assert choice(copy, 7) == code == choice(before, 7)
        if seen > 200:
            break


# ---------------------------------------------------------------- one scenario per heuristic

def test_capture_beats_fleeing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 5: a capture sends the victim home and earns 20, worth more than saving a piece."""
    state = rolled((on(0, 15), on(0, 31), HOME, HOME), (on(2, 18), on(2, 28), HOME, HOME), 3)
    assert piece_moved(state) == 0  # 15 -> 18 captures; 31 -> 34 would flee the piece on 28
    monkeypatch.setattr(parchis_ai, "CAPTURE", 0.0)
    monkeypatch.setattr(parchis_ai, "OPPONENT", 0.0)
    assert piece_moved(state) == 1


def test_threatened_piece_flees_to_a_seguro(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules 1, 5: the piece on 31 (an opponent 3 behind it) goes to the seguro 34 rather
    than another piece making a barrier."""
    state = rolled((on(0, 31), on(0, 10), on(0, 13), HOME), (on(2, 28), HOME, HOME, HOME), 3)
    assert piece_moved(state) == 0
    monkeypatch.setattr(parchis_ai, "_risk", lambda *_: 0.0)
    assert piece_moved(state) == 1  # 10 -> 13: a barrier


def test_enters_the_home_stretch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 1: a corridor cell is safe for good."""
    state = rolled((on(0, 65), on(0, 10), on(0, 14), HOME), (HOME,) * 4, 4)
    assert piece_moved(state) == 0
    assert state.pieces[0] + 4 > 63
    monkeypatch.setattr(parchis_ai, "STRETCH", 0.0)
    assert piece_moved(state) == 1  # 10 -> 14: a barrier


def test_keeps_a_useful_barrier(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 7: the barrier on 30 holds up two opponents; stepping off the seguro 5 into
    reach of an opponent is the smaller loss."""
    state = rolled((on(0, 30), on(0, 30), on(0, 5), HOME), (on(2, 19), on(2, 20), on(2, 7), HOME), 3)
    assert piece_moved(state) == 2
    monkeypatch.setattr(parchis_ai, "BARRIER", 0.0)
    monkeypatch.setattr(parchis_ai, "BLOCK", 0.0)
    assert piece_moved(state) in (0, 1)


def test_forced_to_open_a_barrier_opens_the_safe_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 7: a 6 (counting 7, rule 4) must open a barrier. Opening the one on the seguro
    12 leaves a safe piece; opening the one on 62 would reach the corridor but leave a piece
    3 cells ahead of an opponent."""
    state = rolled((on(0, 12), on(0, 12), on(0, 62), on(0, 62)), (on(2, 59), on(2, 3), HOME, HOME), 6)
    assert state.count == 7 and len(state.moves) == 2
    assert piece_moved(state) in (0, 1)
    monkeypatch.setattr(parchis_ai, "_risk", lambda *_: 0.0)
    assert piece_moved(state) in (2, 3)


def test_clears_the_exit_for_a_piece_at_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 3: two own pieces on the exit stop the next 5 from bringing a piece out."""
    state = rolled((on(0, 5), on(0, 5), HOME, on(0, 40)), (HOME,) * 4, 3)
    assert piece_moved(state) in (0, 1)
    monkeypatch.setattr(parchis_ai, "EXIT_BLOCKED", 0.0)
    assert piece_moved(state) == 3


def test_capture_bonus_takes_a_piece_to_the_centre(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 5: the 20 of a capture is spent where it earns most: into the centre (another
    10), not merely saving a piece that two opponents threaten."""
    state = rolled((on(0, 15), 51, on(0, 45), HOME), (on(2, 18), on(2, 43), on(2, 42), HOME), 3)
    capture = next(m[0] for m in state.moves if m[1] == 0)
    state, _, _ = ENGINE.apply(state, capture)
    assert state.bonus and state.count == 20 and len(state.moves) == 3
    assert piece_moved(state) == 1 and state.pieces[1] + 20 == CENTRE
    monkeypatch.setattr(parchis_ai, "DONE", 0.0)
    monkeypatch.setattr(parchis_ai, "CENTRE_EARN", 0.0)
    assert piece_moved(state) == 2


# ---------------------------------------------------------------- against a random player

def play_vs_random(seats: int, game: int) -> bool:
    """One game, the policy in seat ``game % seats``: did it win?"""
    state, _ = ENGINE.new_game(ParchisOptions(), seats, seed_str(10_000 + game))
    me = game % seats
    final = state
    for before, code in play(state, {me}, game):
        final, _, _ = ENGINE.apply(before, code)
    return final.winner == me


@pytest.mark.parametrize(("seats", "games", "least"), [(2, 100, 0.75), (4, 60, 0.6)])
def test_beats_random(seats: int, games: int, least: float) -> None:
    """Measured over 1,000 games (seeds as here): 2 players 0.905, 4 players 0.836; a
    random player wins 1/seats."""
    wins = sum(play_vs_random(seats, game) for game in range(games))
    assert wins / games >= least
