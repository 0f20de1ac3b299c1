"""Parchís throws made to order, and where a player's pieces stand."""

from __future__ import annotations

from engines.parchis import ENGINE, ParchisOptions, ParchisState
from tests.engine_helpers import new_state, roll_die


def on(colour: int, cell: int) -> int:
    """The progress of a piece of ``colour`` standing on circuit cell ``cell``."""
    return (cell - EXITS[colour]) % 68


def rolled(mine: tuple[int, ...], theirs: tuple[int, ...], die: int) -> ParchisState:
    """A two-player game, seat 0 (colour 0) having thrown ``die`` with a choice to make."""
    state = new_state(ENGINE, ParchisOptions(), 2, turn=0, pieces=mine + theirs, stamps=(0,) * 8)
    state, _ = roll_die(ENGINE, state, die)
    assert state.phase == "move" and state.turn == 0
    return state


EXITS = {0: 5, 2: 39}  # the two colours of a two-player game
