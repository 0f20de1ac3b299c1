"""The «Тише едешь — дальше будешь» computer player (issue #8): play the move that leaves
the best position, valued in expected turns.

A one-ply heuristic, not a search: the dice are known when a move is chosen (rule 2 of
engines/tishe.py), so every candidate is applied with the engine itself and the board after
it is valued. The core is ``turns()[p]``: the expected number of turns a lone checker on
circle ``p`` needs to reach 100, solved once (on first use, not at import: start-up stays fast)
from the dice odds and ``land``. It
prices every circle rule at once, which plain distance does not: a 0 circle sends the
checker back to the wait for a 6 (rules 1, 6), a 1 circle jumps 3 on and a 7 circle 3 back
(rules 4, 5, 10), a double throw is a free throw (rule 8), and near 100 the exact finish
and the count back (rule 9) make some circles worth less than ones before them.

A seat's cost is ``turns()`` of its best checker plus ``SPARE`` × that of the other (with
``both_home`` both checkers must arrive, so the two add up); the spare is worth most of a
checker because two checkers on the board let every throw pick the better move and dodge
bad circles, so a 6 often brings the second checker in rather than moving the first
(rules 1, 2). Then the move's own price: the two turns missed on a double number (rule 7),
and the extra throw it cancels (settled in the engine). A checker left on a 5 circle may
be taken off by the next checker to land there (rule 3): its loss is weighted by the
chance that an opponent's next throw lands on it. Taking an opponent off a 5 circle
(rule 3, the newcomer stays) raises their cost, which counts ``BUMP`` × the strongest
opponent's cost. Measured against random players (tests/test_tishe_ai.py), ``SPARE`` is
what matters most; reaching 100 wins outright (rule 9). Ties go to ``tie_break`` (engines
must not use ``random``), so the player is pure: the same state and seed give the same move.
"""

from __future__ import annotations

import functools
from collections import Counter

from engines.base import Action, BestScorePolicy
from engines.tishe import CHECKERS, ENGINE, ENTRY_DIE, HOME, OFF, TisheState, is_five_circle, land

SPARE = 0.7  # the second checker: measured best between 0.4 and 1.0 against random players
BUMP = 0.5  # a turn the strongest opponent loses is worth half a turn of our own
WIN = 1e9  # a checker on 100 wins (rule 9; with both_home the second one)
MISSED = 2  # rule 7: turns missed after a direct landing on a double number
SETTLED = 1e-6  # the turns() iteration stops when no value moves more than this

# One throw as (sum, double, has a 6) with its chance: all the rules look at (rules 1, 2, 8).
THROWS = tuple((key, n / 36) for key, n in Counter(
    (a + b, a == b, ENTRY_DIE in (a, b)) for a in range(1, 7) for b in range(1, 7)).items())


@functools.cache
def turns() -> tuple[float, ...]:
    """Expected turns from each circle (OFF included) to 100 for a lone checker, by
    Gauss–Seidel iteration of E(p) = 1 + Σ chance × E(after the throw)."""
    turns = [0.0] * (HOME + 1)
    moves = {p: {s: land(p, s) for s in range(2, 13)} for p in range(HOME)}
    while True:
        change = 0.0
        for p in range(HOME - 1, -1, -1):
            total = 1.0
            for (steps, double, six), chance in THROWS:
                if p == OFF and not six:  # rule 1: no 6, no entry
                    after, missed = OFF, 0
                else:
                    where = moves[p][steps]
                    after, missed = where.final, MISSED if where.double else 0  # rule 7
                free = double and not missed  # rule 8: the extra throw costs no turn
                total += chance * (turns[after] + missed - free if after != HOME else 0.0)
            change, turns[p] = max(change, abs(total - turns[p])), total
        if change < SETTLED:
            return tuple(turns)


# HITS[p][q]: the chance that one throw takes a checker from p to q (the entry needs a 6).
HITS: tuple[dict[int, float], ...] = tuple(
    {q: sum(c for (s, _, six), c in THROWS if (p != OFF or six) and land(p, s).final == q)
     for q in {land(p, s).final for s in range(2, 13)}} for p in range(HOME))


def seat_cost(checkers: tuple[int, ...], both_home: bool) -> float:
    """A seat's expected turns to win, roughly: the best checker plus SPARE × the other."""
    table = turns()
    best, other = sorted(table[c] for c in checkers)
    return best + (1.0 if both_home else SPARE) * other


def exposure(state: TisheState, seat: int, cost: float) -> float:
    """Expected extra cost of ``seat``'s checkers on 5 circles being taken off by an opponent's
    next throw (rule 3): for each, the chance some opponent lands there × what its loss costs."""
    own = state.of(seat)
    others = {c for i, c in enumerate(state.checkers) if i // CHECKERS != seat and c != HOME}
    extra = 0.0
    for k, circle in enumerate(own):
        if is_five_circle(circle):
            safe = 1.0
            for start in others:
                safe *= 1.0 - HITS[start].get(circle, 0.0)
            lost = tuple(OFF if j == k else c for j, c in enumerate(own))
            extra += (1.0 - safe) * (seat_cost(lost, state.options.both_home) - cost)
    return extra


def score(state: TisheState, action: Action) -> float:
    """The position after ``action`` for the player making it: minus its own cost in turns,
    plus BUMP × the strongest opponent's."""
    after, _, _ = ENGINE.apply(state, action.code)
    seat, both = state.turn, state.options.both_home
    if after.finished:
        return WIN
    cost = seat_cost(after.of(seat), both)
    cost += exposure(after, seat, cost) + after.missed[seat]  # rules 3 and 7
    if after.turn == seat:  # rule 8's extra throw (lost when a double number is reached)
        cost -= 1.0
    rival = min(seat_cost(after.of(s), both) + after.missed[s] for s in range(state.seats) if s != seat)
    return BUMP * rival - cost


AI = BestScorePolicy(ENGINE, score)
