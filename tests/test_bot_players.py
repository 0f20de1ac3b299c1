"""Computer players of every game (issue #8): a table of bots alone plays a game to its end in
one run of :func:`bot.turns.bot_actions`, and every policy only ever answers legal codes."""

from __future__ import annotations

import pytest

from bot.games import GAMES
from bot.turns import MAX_BOT_ACTIONS, bot_actions, turn_for
from engines.base import BestScorePolicy, seed_digest

# A game one leaves by resigning («Охота на львов») is never left to bots alone, and two copies of
# its careful AI stand off (bench/lions_ai.py): it is played against a person instead.
BOTS_ALONE = sorted(code for code, spec in GAMES.items() if spec.resign is None)
POLICIES = {code: spec.policy for code, spec in GAMES.items()}


def test_every_game_has_a_computer_player() -> None:
    assert all(policy is not None for policy in POLICIES.values()) and BOTS_ALONE
    assert [code for code in GAMES if code not in BOTS_ALONE] == ["lions"]


@pytest.mark.parametrize("code", BOTS_ALONE)
@pytest.mark.parametrize("seats", [2, 4])
def test_a_table_of_bots_alone_plays_to_the_end(code: str, seats: int) -> None:
    engine = GAMES[code].engine
    for game in range(3):
        state, _ = engine.new_game(engine.options_from_json({}), seats, seed_digest(f"bots alone {code} {game}"))
        final, applied = bot_actions(engine, POLICIES[code], state, (True,) * seats)
        assert final.finished and engine.outcome(final) is not None
        assert 0 < len(applied) < MAX_BOT_ACTIONS
        assert final.version == state.version + len(applied)


@pytest.mark.parametrize("code", BOTS_ALONE)
def test_bots_stop_where_a_person_is_to_move(code: str) -> None:
    engine = GAMES[code].engine
    state, _ = engine.new_game(engine.options_from_json({}), 3, seed_digest(f"bots and a person {code}"))
    person = 1
    bots = tuple(seat != person for seat in range(3))
    for _ in range(5):
        state, applied = bot_actions(engine, POLICIES[code], state, bots)
        if state.finished:
            break
        assert state.current_player == person
        # the person times out: the computer plays exactly that turn
        state, applied = turn_for(engine, POLICIES[code], state, person)
        assert applied and all(entry.seat == person for entry, _ in applied)
        assert state.finished or state.current_player != person


def test_the_policy_of_a_game_without_choices_plays_its_only_action() -> None:
    policy = POLICIES["sosedi"]
    assert isinstance(policy, BestScorePolicy) and policy.score is None
    engine = GAMES["sosedi"].engine
    state, _ = engine.new_game(engine.options_from_json({}), 3, seed_digest("sosedi roll"))
    assert policy.plan(state) == [a.code for a in engine.legal_actions(state)]
