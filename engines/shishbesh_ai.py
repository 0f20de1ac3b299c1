"""The «Шиш-беш» computer player at three levels (``LEVELS``, engines.base.LEVELS):

* «Лёгкий» (``CasualPolicy``) plays like a casual player: one die at a time, the move that
  looks best by its own pips and effect (a capture, the home, a hut) after a whim from
  ``tie_break``; it sees neither the other die nor the risk nor the corners' jumps;
* «Средний» (``AI``, the default) plays the die that leads to the best position, as below;
* «Сильный» (``strong_score``) values the same positions by ``strong_value``: as «Средний»
  does, plus home pieces settled at the far end of the home (rule 8), pieces standing on a
  corner a jump leaves from (rule 6) and an extra throw ahead (rule 3).

«Средний»: a short look-ahead inside the player's own turn, not a search over the opponents: both dice
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
from collections.abc import Callable
from dataclasses import dataclass

from engines.base import Action, BestScorePolicy, Policy, tie_break
from engines.shishbesh import (
    EFFECT_CAPTURE,
    EFFECT_HOME,
    EFFECT_HUT,
    ENGINE,
    PARK,
    PHASE_MOVE,
    PIECES,
    Geometry,
    ShishbeshState,
)

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


def _after(state: ShishbeshState, seat: int, value: Callable[[ShishbeshState, int], float]) -> float:
    """``value`` of ``state`` once ``seat`` has played the dice left with the best moves."""
    if state.finished:
        return WIN if state.winner == seat else -WIN
    if state.phase == PHASE_MOVE and state.turn == seat:  # rule 2: the other die is still to play
        return max(_after(ENGINE.apply(state, a.code)[0], seat, value) for a in ENGINE.legal_actions(state))
    return value(state, seat)


def score(state: ShishbeshState, action: Action) -> float:
    """The value for the mover of playing ``action`` now and the other die at its best."""
    after, _, _ = ENGINE.apply(state, action.code)
    return _after(after, state.turn, board_value)


AI = BestScorePolicy(ENGINE, score)


# «Сильный»: the same look-ahead over both dice (rule 2) and the same pieces' values and risk, with
# three things «Средний» misses. Weights tuned by measurement against three random players (bench/policies.py's
# table, 300 games a try): the home term took one sample from 78% to 87%, the corner and the extra throw a
# few points each; larger weights gained nothing more (1,000 games: 85.2%, «Средний» 77.4%).
SETTLED = 60.0  # rule 8: a piece in the home with every deeper home cell taken by an own piece
CORNER = 0.4  # rule 6: the share of a corner's jump chances (``jump_option``) a piece standing there counts
AGAIN = 6.0  # rule 3: an extra throw ahead (after a capture; a double gives one whatever is played)
AGAIN_RISK = 0.3  # rule 3: with an extra throw ahead the opponents throw later, and that throw may move it on


@functools.cache
def jump_option(geo: Geometry) -> dict[int, float]:
    """Per corner position, what the next throw's best jump (rule 6) is expected to gain over a
    plain step: a 1 comes in 11 throws of 36, a 3 without a 1 in 9. From the first corner a 1
    is the «срез» (+3 quarters) and a 3 the diagonal (+2); from the second a 1 goes a quarter
    on and a 3 to the last corner; from the third only the 1 goes on; the last has no jump on."""
    first, second, third, _ = geo.corners
    q = geo.quarter
    gains = {first: (3 * q - 1, 2 * q - 3), second: (q - 1, 2 * q - 3), third: (q - 1, 0)}
    return {pos: (11 * max(one, three) + 9 * min(one, three)) / 36 for pos, (one, three) in gains.items()}


def strong_value(state: ShishbeshState, seat: int) -> float:
    """``board_value`` with three terms more, for ``seat``'s own pieces only (no guesses about how
    the opponents plan):

    * ``SETTLED`` for a piece settled in the home: every home cell deeper than it holds an own
      piece. Home pieces never share a cell nor are jumped over (rule 8), so a piece left at the
      front of the home blocks the lane behind it, and the last piece needs an exact count into
      the one cell left: filling the home from the far end first is what wins the race;
    * ``CORNER`` × ``jump_option`` for a piece standing on a corner, above all the first one
      (rule 6: a 1 from there is the «срез», three quarters in one step), so it stops there
      when it costs little and, once there, waits for the 1 while other pieces play the dice;
    * ``AGAIN`` when the turn ends with another throw (rule 3), the risk then counted at
      ``AGAIN_RISK``: the opponents throw only after it.
    """
    geo = state.options.geometry
    again = state.phase != PHASE_MOVE and state.turn == seat
    exposure = AGAIN_RISK if again else 1.0
    own_pieces = state.of(seat)
    corners = jump_option(geo)
    last = geo.home[-1]
    total = AGAIN if again else 0.0
    for k in range(PIECES * state.seats):
        owner = k // PIECES
        if owner != seat:
            total -= OPPONENT * piece_value(state, owner, k, with_risk=False)
            continue
        pos = state.pieces[k]
        if pos == PARK:
            continue
        value = OUT + pos + CORNER * corners.get(pos, 0.0)
        if pos > geo.end:  # rule 8: in the home, never captured
            value += HOME
            if all(cell in own_pieces for cell in range(pos + 1, last + 1)):
                value += SETTLED
        elif not state.huts[k]:  # rule 7: a piece inside a hut cannot be captured
            value *= 1.0 - exposure * risk(state, seat, pos)
        total += value
    return total


def strong_score(state: ShishbeshState, action: Action) -> float:
    """``score`` valued by ``strong_value``."""
    after, _, _ = ENGINE.apply(state, action.code)
    return _after(after, state.turn, strong_value)


# «Лёгкий»: a casual player, who looks at one die at a time and at the move's own look only: how far
# it goes and what the button shows it does (the effect: a capture, the home, a hut), never at the
# other die, at the risk to the piece left standing or at the corner it leaves from. A whim of up
# to ``WHIM`` pips (from ``tie_break``: engines may not use ``random``) often turns a choice,
# so a player paying attention beats it; a capture or a long step still looks best most of the time.
# rule 4: a casual player brings a piece out whenever a 6 allows, more exposed pieces and fewer steps
EASY_ENTRY = 20.0
EASY_EFFECT = {EFFECT_CAPTURE: 15.0, EFFECT_HOME: 5.0, EFFECT_HUT: 3.0}  # rules 5, 8, 7
WHIM = 25.0  # with 12, «Средний» won only 65% of 1,000 two-player games: too close to a fair match


def casual_score(action: Action) -> float:
    """How good a move looks to a casual player: its pips (negative for a jump back, rule 6),
    or ``EASY_ENTRY`` for leaving the park, plus what it does on arriving."""
    args = action.args
    pips = EASY_ENTRY if action.kind == "enter" else float(int(args["to"]) - int(args["start"]))
    return pips + EASY_EFFECT.get(int(args["effect"]), 0.0)


@dataclass(frozen=True)
class CasualPolicy:
    """«Лёгкий» (see above): the best-looking move after a whim of up to ``whim`` pips."""

    whim: float = WHIM

    def plan(self, state: ShishbeshState, seed: int = 0) -> list[str]:
        actions = ENGINE.legal_actions(state)
        if len(actions) <= 1:  # the roll, or a forced move
            return [a.code for a in actions]

        def looks(action: Action) -> tuple[float, int]:
            drawn = tie_break(state.seed, state.version, seed, action.code)
            return casual_score(action) + self.whim * (drawn >> 11) / 2**53, drawn

        return [max(actions, key=looks).code]


# The levels the lobby offers (engines.base.LEVELS), weakest first; «Средний» is ``AI``.
LEVELS: dict[str, Policy[ShishbeshState]] = {
    "easy": CasualPolicy(),
    "medium": AI,
    "strong": BestScorePolicy(ENGINE, strong_score),
}
