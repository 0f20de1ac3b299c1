"""Computer players of every game: a table of bots alone plays a game to its end in
one run of :func:`bot.turns.bot_actions`, and every policy only ever answers legal codes."""

from __future__ import annotations

import random

import pytest

from bot.games import GAMES
from bot.turns import MAX_BOT_ACTIONS, bot_actions, only_choice, turn_for, until_choice
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


FAST_TABLE = sorted(code for code, spec in GAMES.items() if spec.fast_table)


def test_the_fast_table_is_the_race_games() -> None:
    # a game has a fast table when it has dice and a roll is not its whole turn (docs/players.md: the fast table)
    with_dice = [code for code, spec in GAMES.items() if spec.dice_per_roll and not spec.roll_is_the_turn]
    assert sorted(with_dice) == FAST_TABLE
    assert set(FAST_TABLE) == {"ludo", "parchis", "shishbesh", "tishe"}


@pytest.mark.parametrize("code", FAST_TABLE)
def test_until_choice_plays_only_what_nobody_chooses(code: str) -> None:
    """From positions of random games, people at seats 0 and 2, the computer at 1 and 3: the run stops at a
    person's real choice (or the end), each of a person's actions in it was their only legal one, and without
    ``for_people`` nothing is played for a person."""
    engine, policy, position = GAMES[code].engine, POLICIES[code], GAMES[code].position
    bots = (False, True, False, True)
    rng = random.Random(code)
    for game in range(4):
        state, _ = engine.new_game(engine.options_from_json({}), 4, seed_digest(f"until choice {code} {game}"))
        for _ in range(60):
            final, applied = until_choice(engine, policy, state, bots, True, position)
            seat = final.current_player
            assert seat is None or (not bots[seat] and only_choice(engine, final, position) is None)
            replayed = state
            for entry, _ in applied:
                if not bots[replayed.current_player]:
                    assert only_choice(engine, replayed, position) == entry.code
                replayed, _, again = engine.apply(replayed, entry.code)
                assert again == entry  # the same fair throw from the seed
            assert replayed == final
            if seat is not None and not bots[seat]:
                assert until_choice(engine, policy, final, bots, False, position) == (final, [])
            if final.finished:
                break
            state, _, _ = engine.apply(final, rng.choice(engine.legal_actions(final)).code)


def test_two_orders_of_the_dice_to_one_position_are_one_choice() -> None:
    """«Шиш-беш», rule 2: one piece that takes both dice in either order ends in one place; the fast table
    plays that without asking, while a real choice (two places) is left to the person."""
    spec = GAMES["shishbesh"]
    engine = spec.engine
    collapsed = chosen = 0
    for game in range(30):
        rng = random.Random(game)
        state, _ = engine.new_game(engine.options_from_json({}), 2, seed_digest(f"one position {game}"))
        while not state.finished and (collapsed < 3 or chosen < 3):
            legal = engine.legal_actions(state)
            if len(legal) > 1:
                code = only_choice(engine, state, spec.position)
                assert only_choice(engine, state, None) is None  # without the position, every choice is asked
                ends = {spec.position(engine.apply(state, a.code)[0]) for a in legal}
                if code is not None:
                    collapsed += 1
                    assert code == legal[0].code
                elif len(ends) > 1:
                    chosen += 1
            state, _, _ = engine.apply(state, rng.choice(legal).code)
    assert collapsed >= 3 and chosen >= 3
