"""The «Тише едешь» computer player (engines/tishe_ai.py) against the engine (engines/tishe.py).

Every code it plays is legal, in both option variants and for 2–4 players; it is pure; each
part of its heuristic is pinned by a position where the right move is clear, checked over
several tie-break seeds where a player without the heuristic (every move scored alike)
would not always pick it, and, for the weighted parts, with the weight set to nothing; and
it beats random players in a small seeded sample (the 1,000-game rates are in
test_beats_random_players).

Positions are 2-player games: seat 0 (the AI) has thrown ``dice`` with its two checkers on
``mine``, seat 1's are on ``theirs`` (0 = off the board, as in tests/test_engine_tishe.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from engines import tishe_ai
from engines.base import BestScorePolicy
from engines.tishe import ENGINE, TisheOptions, TisheState
from engines.tishe_ai import AI
from tests.engine_helpers import apply_throw, new_state
from tests.policy_helpers import assert_same_state_same_code, play_game

TIE_SEEDS = range(8)
VARIANTS = [TisheOptions(both_home=False), TisheOptions(both_home=True)]
NEUTRAL = BestScorePolicy(ENGINE, lambda _state, _action: 0.0)  # no heuristic: the tie-break decides


def to_choose(mine: tuple[int, int], theirs: tuple[int, int], dice: tuple[int, int]) -> TisheState:
    """Seat 0 of a 2-player game has thrown ``dice`` and must choose among several moves."""
    state = new_state(ENGINE, TisheOptions(), 2, turn=0, checkers=(*mine, *theirs))
    state, _, _ = apply_throw(ENGINE, state, dice)
    assert state.phase == "choose" and len(ENGINE.legal_actions(state)) >= 2
    return state


def choices(state: TisheState) -> set[str]:
    """Every code the AI plays here over several tie-break seeds."""
    return {code for seed in TIE_SEEDS for code in AI.plan(state, seed)}


def chosen(mine: tuple[int, int], theirs: tuple[int, int], dice: tuple[int, int]) -> set[str]:
    """The AI's codes in the position, which a player without a heuristic would not all share."""
    state = to_choose(mine, theirs, dice)
    assert len({code for seed in TIE_SEEDS for code in NEUTRAL.plan(state, seed)}) > 1
    return choices(state)


def play(seats: int, options: TisheOptions, index: int, ai_seats: set[int]) -> Any:
    return play_game(ENGINE, AI, options, seats, index, ai_seats)


# ====================================================================== legality, purity


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("options", VARIANTS)
def test_every_code_is_legal_in_whole_games(seats: int, options: TisheOptions) -> None:
    for index in range(3):
        assert play(seats, options, index, set(range(seats))).finished  # the AI in every seat
        assert play(seats, options, 100 + index, {index % seats}).finished  # against random players


@pytest.mark.parametrize("options", VARIANTS)
def test_same_state_and_seed_same_code(options: TisheOptions) -> None:
    assert_same_state_same_code(ENGINE, AI, options)


# ====================================================================== one test per heuristic


def test_avoids_a_zero_circle() -> None:
    """Rule 6: 44 + 6 = 50 takes the leading checker off; 23 → 29 is a plain move."""
    assert chosen((44, 23), (34, 0), (4, 2)) == {"m1"}


def test_avoids_a_double_number() -> None:
    """Rule 7: 14 + 8 = 22 would miss two turns; 5 + 8 = 13 jumps on to 16 (rule 4)."""
    assert chosen((14, 5), (34, 0), (3, 5)) == {"m1"}


def test_prefers_a_one_circle_to_a_seven_circle() -> None:
    """Rules 4, 5: 28 + 3 = 31 jumps on to 34, while 44 + 3 = 47 falls back to 44."""
    assert chosen((28, 44), (34, 0), (2, 1)) == {"m0"}


def test_does_not_take_its_own_checker_off() -> None:
    """Rule 3, own checkers included: 54 + 4 = 58 would take off its own checker on 58."""
    assert chosen((58, 54), (34, 0), (3, 1)) == {"m0"}


def test_reaches_100_and_wins() -> None:
    """Rule 9: 92 + 8 is exactly 100, which wins at once."""
    assert chosen((92, 60), (34, 0), (5, 3)) == {"m0"}


def test_keeps_a_good_finishing_circle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 9: 100 must be hit exactly; from 92 an 8 (5 throws in 36) finishes, from 98 only
    1 + 1 does, so the leader stays and 39 → 45 moves instead, though 98 is nearer."""
    position = ((92, 39), (34, 0), (2, 4))
    assert chosen(*position) == {"m1"}
    plain = tuple([20.0] + [(100 - circle) / 7 for circle in range(1, 101)])
    monkeypatch.setattr(tishe_ai, "turns", lambda: plain)  # plain distance instead of expected turns
    assert choices(to_choose(*position)) == {"m0"}


def test_takes_an_opponent_off_a_five_circle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 3: 49 + 6 = 55 takes off the opponent's leading checker; 43 → 49 only moves."""
    position = ((49, 43), (55, 2), (4, 2))
    assert chosen(*position) == {"m0"}
    monkeypatch.setattr(tishe_ai, "BUMP", 0.0)
    assert choices(to_choose(*position)) == {"m1"}  # the opponent's loss is what decides


def test_keeps_off_a_five_circle_in_reach(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule 3: 39 + 6 = 45 stands 7 ahead of the opponent on 38, who lands there with any 7;
    8 + 6 = 14 goes on to 17 (rule 4), out of reach."""
    position = ((39, 8), (38, 2), (2, 4))
    assert chosen(*position) == {"m1"}
    monkeypatch.setattr(tishe_ai, "exposure", lambda *_args: 0.0)
    assert choices(to_choose(*position)) == {"m0"}  # the risk is what decides


def test_a_six_brings_the_second_checker_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rules 1, 2: with 6 + 2 the checker off the board enters (to 8) rather than the one on
    26 moving to 34: a spare checker on the board lets later throws dodge bad circles."""
    position = ((26, 0), (34, 0), (6, 2))
    assert chosen(*position) == {"e"}
    monkeypatch.setattr(tishe_ai, "SPARE", 0.0)
    assert choices(to_choose(*position)) == {"m0"}  # the spare checker's worth is what decides


# ====================================================================== against random players


@pytest.mark.parametrize(("seats", "games", "at_least"), [(2, 300, (0.75, 0.70)), (4, 150, (0.52, 0.45))])
@pytest.mark.parametrize("variant", [0, 1])
def test_beats_random_players(seats: int, games: int, at_least: tuple[float, float], variant: int) -> None:
    """Seats rotate. Measured over 1,000 games: 2 players 87.6 % / 82.5 % (first checker home /
    both_home), 4 players 70.6 % / 62.7 %; a random seat wins 50 % and 25 %."""
    options = VARIANTS[variant]
    wins = sum(play(seats, options, index, {index % seats}).winner == index % seats for index in range(games))
    assert wins / games >= at_least[variant]
