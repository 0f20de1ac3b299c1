"""A computer player for «Парчис» (issue #8): one greedy look at the position after each move.

Every legal move is played on a copy of the pieces (a captured piece goes home) and the
position is valued for the player to move; the best move is played, ties broken by
:func:`engines.base.tie_break`. Rolling needs no thought: :class:`BestScorePolicy` plays a
lone legal action as it is. The terms follow the rules as numbered in engines/parchis.py:

- capture (rule 5): the victim loses its progress and must come out again on a 5 (rule 3),
  and the captor counts 20 at once; reaching the centre counts 10 the same way;
- safety (rules 1, 5, 6): a lone piece off the seguros is worth less by the chance of being
  hit before our next turn (an opponent 1..6 cells behind it, 7 with nobody at home,
  rule 4) times what it would lose; seguros, corridor cells and barriers cannot be hit,
  except by an opponent coming out onto its own exit (rule 3);
- the home stretch (rule 1): corridor cells are safe for good and lead only to the centre;
- barriers (rule 7): nobody passes one, so keeping a barrier in front of opponents is
  worth something; when a 6 forces one open, the valuation picks the cheaper one;
- out of the house (rule 3): two own pieces on the exit stop a 5 from bringing a piece out,
  so the exit is cleared while pieces wait at home;
- bonus moves (rule 5) are valued like any move, so a 20 or a 10 goes to a capture, the
  corridor or a threatened piece rather than anywhere.
Fleeing follows from safety: a threatened piece (an opponent within reach behind it) gains
the most by reaching a seguro, the corridor or a cell out of reach.
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.base import Action, BestScorePolicy
from engines.parchis import (
    CAPTURE_BONUS,
    CELLS,
    CENTRE,
    CENTRE_BONUS,
    COLOURS,
    EFFECT_CAPTURE,
    EFFECT_CENTRE,
    ENGINE,
    HOME,
    LAST_CIRCUIT,
    PIECES,
    SEGUROS,
    ParchisState,
    cell_number,
    exit_cell,
)

CAPTURE = float(CAPTURE_BONUS)  # rule 5: the 20 counted at once
CENTRE_EARN = float(CENTRE_BONUS)  # rule 5: the 10 counted at once
OUT = 10.0  # a piece out of the house: coming out takes a 5 (rule 3)
LOSS = OUT + CAPTURE_BONUS  # a captured piece goes home and its captor counts 20 (rule 5)
STRETCH = 10.0  # rule 1: a corridor cell can never be hit again
DONE = 10.0  # a piece in the centre is finished (rule 9)
BARRIER = 3.0  # rule 7: a barrier protects both its pieces (and is passed by nobody) ...
BLOCK = 2.0  # ... worth more for each opponent it holds up (within 12 cells behind it)
BLOCK_REACH = 12
EXIT_BLOCKED = 12.0  # rule 3: two own pieces on the exit keep a waiting piece at home
OPPONENT = 1.0  # per step of an opponent's progress (what a capture takes away)
DIE_FACES = 6
REACH_AT_HOME = frozenset(range(1, 7))  # the faces an opponent with a piece at home moves
REACH_ALL_OUT = frozenset((1, 2, 3, 4, 5, 7))  # rule 4: with nobody at home a 6 counts 7


def _progress_on(colour: int, cell: int) -> int | None:
    """The progress of ``colour`` on circuit cell ``cell``; None for the cells it never enters."""
    progress = (cell - exit_cell(colour)) % CELLS
    return progress if progress <= LAST_CIRCUIT else None


def _risk(seats: int, pieces: Sequence[int], seat: int, cell: int, exposed: bool) -> float:
    """The chance, roughly, that a piece of ``seat`` on ``cell`` is captured before its owner
    plays again: per opponent, the dice faces that hit it, out of six. ``exposed``: a lone
    piece off the seguros (rule 5); any piece on an opponent's exit can be hit by a 5 (rule 3).
    Rough on purpose: barriers in an attacker's way and bonus counts (rule 5) are ignored."""
    chance = 0.0
    for other in range(seats):
        if other == seat:
            continue
        colour = COLOURS[seats][other]
        theirs = pieces[PIECES * other:PIECES * other + PIECES]
        faces: set[int] = set()
        if cell == exit_cell(colour) and HOME in theirs:
            faces.add(5)
        target = _progress_on(colour, cell)
        if exposed and target is not None:
            reach = REACH_AT_HOME if HOME in theirs else REACH_ALL_OUT
            faces.update(target - q for q in theirs if 0 <= q < target and target - q in reach)
        chance += len(faces) / DIE_FACES
    return min(chance, 1.0)


def _blocked(seats: int, pieces: Sequence[int], seat: int, cell: int) -> int:
    """How many opponent pieces a barrier on ``cell`` holds up (rule 7)."""
    count = 0
    for other in range(seats):
        if other == seat:
            continue
        colour = COLOURS[seats][other]
        target = _progress_on(colour, cell)
        if target is not None:
            theirs = pieces[PIECES * other:PIECES * other + PIECES]
            count += sum(1 for q in theirs if 0 <= q < target and target - q <= BLOCK_REACH)
    return count


def value(seats: int, pieces: Sequence[int], seat: int) -> float:
    """What the position is worth to ``seat``: its pieces' progress and safety, less the
    progress of the opponents (so that a capture counts)."""
    colour = COLOURS[seats][seat]
    own = pieces[PIECES * seat:PIECES * seat + PIECES]
    cells = [cell_number(colour, p) for p in own]
    total = 0.0
    for progress, cell in zip(own, cells, strict=True):
        if progress == HOME:
            continue
        total += progress + OUT
        if progress == CENTRE:
            total += STRETCH + DONE
        elif cell is None:  # the corridor
            total += STRETCH
        else:
            barrier = cells.count(cell) > 1
            if barrier:  # counted once per piece: half for each
                total += (BARRIER + BLOCK * _blocked(seats, pieces, seat, cell)) / 2
            exposed = not barrier and cell not in SEGUROS
            total -= _risk(seats, pieces, seat, cell, exposed) * (progress + LOSS)
    if HOME in own and cells.count(exit_cell(colour)) > 1:
        total -= EXIT_BLOCKED
    for other in range(seats):
        if other != seat:
            total -= OPPONENT * sum(q + OUT for q in pieces[PIECES * other:PIECES * other + PIECES] if q != HOME)
    return total


def score(state: ParchisState, action: Action) -> float:
    """The value of the position after ``action``, plus the bonus count it earns (rule 5)."""
    seat = state.turn
    move = next(m for m in state.moves if m[0] == action.code)
    _, piece, _, target, effect = move
    pieces = list(state.pieces)
    earned = 0.0
    if effect == EFFECT_CAPTURE:
        cell = cell_number(state.colour(seat), target)
        victims = [k for k in range(len(pieces)) if k // PIECES != seat and pieces[k] not in (HOME, CENTRE)
                   and cell_number(state.colour(k // PIECES), pieces[k]) == cell]
        pieces[max(victims, key=lambda k: state.stamps[k])] = HOME  # rule 3: the last to arrive
        earned = CAPTURE
    elif effect == EFFECT_CENTRE:
        earned = CENTRE_EARN
    pieces[PIECES * seat + piece] = target
    return value(state.seats, pieces, seat) + earned


AI = BestScorePolicy(ENGINE, score)
