"""The «Шиш-беш» computer player (issue #8): play the die that leads to the best position.

A short look-ahead inside the player's own turn, not a search over the opponents: both dice
are known when a move is chosen (rule 2 of engines/shishbesh.py: a throw is rolled, then each
die is a separate move in the order the player picks), so every candidate move is applied
with the engine itself, followed by the best move of the die still left, and the board at
the end of that is valued as

    own pieces' value - OPPONENT × opponents' pieces' value,

where a piece's value is what it would lose by being sent back to its park:

* ``OUT`` + its progress once on the circuit — leaving the park needs a 6 (or a double,
  rule 4), thrown about once in 3.3 throws of some 7 pips each, so an entry is worth about
  as much as the steps of the throws spent waiting for it. Progress is the piece's own count, so
  a corner jump forward (+12), a diagonal jump that gains ground and above all the «срез»
  (corner 6 back to 42, right before the home; rule 6) are taken when they gain the most;
  a backward jump is played only for a capture;
* ``HOME`` more once in the home — entered by an exact count only and never captured
  there (rule 8): an exact move home is preferred to a step on the circuit;
* minus the expected loss ``risk × value`` while it stands open on the circuit: the chance
  that some opponent hits it on their next throw (rule 5) — a piece 1–12 cells ahead of an
  opposing piece (one die or both dice), on a corner an opposing corner piece jumps to with
  a 1 or a 3 (rule 6), or on an opponent's start field while that opponent has pieces to
  bring out (rule 4). A piece inside a hut or in the home carries no risk (rules 7, 8), so
  pieces go into huts, and a threatened piece moves on to a hut or out of range.

So a capture scores the victim's whole value (the opponents' term drops), jumps included
(rule 6: jumps capture). Extra throws (rule 3) need no term of their own. The last piece
home wins outright. Ties are broken by ``tie_break`` (engines may not use ``random``), so
the player is pure: the same state and seed give the same move, in every option variant.
"""

from __future__ import annotations

import functools

from engines.base import Action, BestScorePolicy
from engines.shishbesh import ENGINE, PARK, PHASE_MOVE, PIECES, ShishbeshState

OUT = 24.0  # rule 4: a 6 comes about one throw in 3.3 (11/36): some 23 pips spent waiting for it
HOME = 8.0  # rule 8: a piece in the home can never be captured again
OPPONENT = 0.8  # a capture (rule 5) is worth nearly the whole of the victim's value
WIN = 1e9  # rule 8: the last piece home wins
ROLLS = tuple((a, b) for a in range(1, 7) for b in range(1, 7))  # the 36 throws of two dice


def _may_enter(start: str, a: int, b: int) -> bool:
    """Rule 4 (option ``start``): whether throw (a, b) brings a piece out of the park."""
    six, double = 6 in (a, b), a == b
    return {"six": six, "double": double, "six_or_double": six or double}[start]


@functools.cache
def hit_chance(steps: frozenset[int], faces: frozenset[int], entry: bool, start: str) -> float:
    """The chance that one opponent's throw hits a piece: with a die or both dice over a
    distance in ``steps`` (rule 2), a jump on a die showing one of ``faces`` (rule 6), or —
    when ``entry`` — by bringing a piece out onto it (rule 4). Cached: few distinct threats."""
    hits = sum(1 for a, b in ROLLS if a in steps or b in steps or a + b in steps or a in faces or b in faces
               or (entry and _may_enter(start, a, b)))
    return hits / len(ROLLS)


def _jumps(state: ShishbeshState, pos: int) -> list[tuple[int, int]]:
    """(die face, target position) of every jump from ``pos`` (rule 6; none off a corner)."""
    geo = state.options.geometry
    corners = geo.corners
    if pos not in corners:
        return []
    i, q = corners.index(pos), geo.quarter
    out = [(1, corners[-1] if i == 0 else pos - q), (3, corners[(i + 2) % 4])]  # back (the «срез»), diagonal
    return [*out, (1, pos + q)] if i < 3 else out  # no forward jump past 42


def risk(state: ShishbeshState, seat: int, pos: int) -> float:
    """The chance that ``seat``'s piece standing open on circuit position ``pos`` is captured
    before ``seat`` throws again: each other seat throws once (rules 4, 5, 6)."""
    geo = state.options.geometry
    cell = geo.circuit_cell(state.arm(seat), pos)
    safe = 1.0
    for other in range(state.seats):
        if other == seat:
            continue
        arm = state.arm(other)
        steps: set[int] = set()
        faces: set[int] = set()
        entry = False
        for their in state.of(other):
            if their == PARK:
                entry = entry or geo.cell(arm, 0) == cell  # rule 4: onto their start field
            elif 0 <= their <= geo.end:
                distance = (cell - geo.circuit_cell(arm, their)) % geo.circuit
                if 1 <= distance <= 12 and their + distance <= geo.end:  # beyond their end cell: their home
                    steps.add(distance)
                faces.update(face for face, target in _jumps(state, their) if geo.cell(arm, target) == cell)
        if steps or faces or entry:
            safe *= 1.0 - hit_chance(frozenset(steps), frozenset(faces), entry, state.options.start)
    return 1.0 - safe


def piece_value(state: ShishbeshState, seat: int, k: int, with_risk: bool) -> float:
    """What piece ``k`` (flat index) of ``seat`` would lose by going back to the park."""
    pos = state.pieces[k]
    if pos == PARK:
        return 0.0
    geo = state.options.geometry
    value = OUT + pos
    if pos > geo.end:  # rule 8: in the home
        return value + HOME
    if with_risk and not state.huts[k]:  # rule 7: a piece inside a hut cannot be captured
        value *= 1.0 - risk(state, seat, pos)
    return value


def board_value(state: ShishbeshState, seat: int) -> float:
    """The position from ``seat``'s side: own values (with risk) minus OPPONENT × the others'."""
    total = 0.0
    for k in range(PIECES * state.seats):
        owner = k // PIECES
        value = piece_value(state, owner, k, with_risk=owner == seat)
        total += value if owner == seat else -OPPONENT * value
    return total


def _after(state: ShishbeshState, seat: int) -> float:
    """The value of ``state`` once ``seat`` has played the dice left with the best moves."""
    if state.finished:
        return WIN if state.winner == seat else -WIN
    if state.phase == PHASE_MOVE and state.turn == seat:  # rule 2: the other die is still to play
        return max(_after(ENGINE.apply(state, a.code)[0], seat) for a in ENGINE.legal_actions(state))
    return board_value(state, seat)


def score(state: ShishbeshState, action: Action) -> float:
    """The value for the mover of playing ``action`` now and the other die at its best."""
    after, _, _ = ENGINE.apply(state, action.code)
    return _after(after, state.turn)


AI = BestScorePolicy(ENGINE, score)
