"""The «Тише едешь — дальше будешь» computer players: play the
move that leaves the best position. Three levels (``LEVELS``, engines.base.LEVELS):

* «Лёгкий» (``EASY``) plays like a casual player: the move whose checker gets farthest by what
  its button shows (a 1 circle's jump, a 7 circle's fall, a 0 circle's way back off the board,
  rules 4–6; 100 wins), judged with up to ``CASUAL_BLUR`` circles of error from ``tie_break``,
  so it often misses the better of two close moves and knows nothing of the rest below.
* «Средний» (``AI``, the default) is the heuristic described from here on.
* «Сильный» (``STRONG``) values both checkers together: ``chances()`` solves, once, the chance
  E[DRAW ** rounds] that a seat playing every throw as well as it can wins before the others,
  each round giving them the game with HAZARD; so it knows which pairs of circles let later
  throws dodge the 0, 7 and double circles, instead of the «best + SPARE × other» rule of
  thumb. The 5 circles and the opponents' loss are weighed as «Средний» weighs them.

«Средний»: valued in expected turns.

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
import math
from collections import Counter
from dataclasses import dataclass

from engines.base import Action, BestScorePolicy, Policy, tie_break
from engines.tishe import (
    CHECKERS,
    EFFECT_HOME,
    ENGINE,
    ENTRY_DIE,
    HOME,
    OFF,
    Landing,
    TisheState,
    is_five_circle,
    land,
)

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
    return sum(hit * (seat_cost(lost, state.options.both_home) - cost) for hit, lost in five_circle_hits(state, seat))


def five_circle_hits(state: TisheState, seat: int) -> list[tuple[float, tuple[int, ...]]]:
    """For each of ``seat``'s checkers on a 5 circle (rule 3): the chance some opponent's next throw
    lands on it, and ``seat``'s checkers as they would stand with it taken off."""
    own = state.of(seat)
    others = {c for i, c in enumerate(state.checkers) if i // CHECKERS != seat and c != HOME}
    out = []
    for k, circle in enumerate(own):
        if is_five_circle(circle):
            safe = 1.0
            for start in others:
                safe *= 1.0 - HITS[start].get(circle, 0.0)
            out.append((1.0 - safe, tuple(OFF if j == k else c for j, c in enumerate(own))))
    return out


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


# ====================================================================== «Сильный»: both checkers, solved

HAZARD = 0.05  # strong: the chance a round gives the game to someone else (measured best 0.05–0.1)
DRAW = 1.0 - HAZARD  # so a round of our own keeps the race open with this chance
STRONG_BUMP = 0.5  # the strongest opponent's lost chances, weighed against our own (rule 3)
STRONG_EXPOSED = 0.5  # opponents who move any checker land on ours half as often as they could (rule 3)
RING = HOME + 1  # chances() is indexed ``a * RING + b`` with a ≤ b, each OFF..HOME
SOLVED = 1e-6  # the chances() iteration stops when no value moves more than this
STEADY = 0.01  # ... and jumps ahead when two sweeps in a row shrank the change by the same ratio ±this
# A pair's move: (where the pair stands after it, or None when it wins; did it land on a double number)
PairMove = tuple[tuple[int, int] | None, bool]
Sweep = tuple[tuple[int, float], ...]  # (pair_index, weight) terms of one value in chances()


def pair_moves(own: tuple[int, int], steps: int, six: bool, both_home: bool) -> list[PairMove]:
    """Where one throw can take a seat's two checkers, as the engine's move_actions and _move
    do: rule 1's entry, rule 2's choice (one choice for two checkers on one circle), rule 3
    against its own checker, and the win (rule 9; with both_home the second checker home)."""
    movable = [own.index(OFF)] if six and OFF in own else []
    movable += [i for i, pos in enumerate(own) if pos not in (OFF, HOME) and pos not in own[:i]]
    out: list[PairMove] = []
    for i in movable:
        where = _land(own[i], steps)
        other = own[1 - i]
        if where.final == HOME and (not both_home or other == HOME):
            return [(None, False)]
        if is_five_circle(where.final) and other == where.final:  # rule 3: the one there first leaves
            other = OFF
        out.append(((where.final, other) if i == 0 else (other, where.final), where.double))
    return out


@functools.cache
def _land(start: int, steps: int) -> Landing:
    return land(start, steps)


def pair_index(own: tuple[int, ...]) -> int:
    a, b = own
    return a * RING + b if a <= b else b * RING + a


@functools.cache
def chances(both_home: bool) -> tuple[float, ...]:
    """``chances(both_home)[pair_index(own)]``: E[DRAW ** rounds] for a seat with checkers on
    ``own`` to win on its own, playing every throw as well as it can (1.0: won). Solved once, on
    first use (1–2 s on the bench machine; not at import), by Gauss–Seidel sweeps from the
    circles nearest 100 down, with a jump ahead once the error shrinks steadily (STEADY).

    DRAW ** rounds, not the expected turns of ``turns()``: against other players a slow game is
    lost however slow, so a steady move beats a gamble with the same average. Rounds are what the
    opponents get: a double throw's extra throw gives them none (rule 8) unless the move lands on
    a double number, whose two missed turns give them two more (rule 7)."""
    top = RING if both_home else HOME  # without both_home a checker on 100 has already won
    plan: list[tuple[int, float, float, Sweep, tuple[tuple[float, Sweep], ...]]] = []
    for b in range(top - 1, -1, -1):
        for a in range(b, -1, -1):
            if a == b == HOME:
                continue
            won = loop = 0.0  # the chance of winning with this throw; of a throw with no legal move
            linear: dict[int, float] = {}  # the throws with one move: where to, with chance × its worth
            choices: list[tuple[float, Sweep]] = []  # the throws with a choice: (chance, (where to, worth)…)
            for (steps, double, six), chance in THROWS:
                moves = pair_moves((a, b), steps, six, both_home)
                if not moves:  # the turn passes, or rule 8 throws again
                    loop += chance * (1.0 if double else DRAW)
                    continue
                options: dict[int, float] = {}
                for after, lands_double in moves:
                    if after is None:
                        break
                    worth = 1.0 if double and not lands_double else DRAW ** (1 + MISSED * lands_double)
                    where = pair_index(after)  # two moves may reach one pair (73 → 70, 77 → 74): the better
                    options[where] = max(worth, options.get(where, 0.0))
                else:
                    if len(options) == 1:
                        ((where, worth),) = options.items()
                        linear[where] = linear.get(where, 0.0) + chance * worth
                    else:
                        choices.append((chance, tuple(options.items())))
                    continue
                won += chance
            plan.append((a * RING + b, won, loop, tuple(linear.items()), tuple(choices)))
    values = [0.0] * (RING * RING)
    values[HOME * RING + HOME] = 1.0
    changes = [1.0, 1.0]
    while True:
        before = values.copy()
        change = 0.0
        for index, total, stay, sure, free in plan:
            for to, weight in sure:
                total += weight * values[to]
            for odds, picks in free:
                total += odds * max([w * values[to] for to, w in picks])
            if stay:  # solved for at once rather than iterated: the wait for a 6 (rule 1) is long
                total /= 1.0 - stay
            change = max(change, abs(total - values[index]))
            values[index] = total
        if change < SOLVED:
            return tuple(values)
        ratio, last = change / changes[-1], changes[-1] / changes[-2]
        changes.append(change)
        if abs(ratio - last) < STEADY:
            # the error now shrinks by one ratio a sweep (the dominant mode): jump to where it would end
            ahead = ratio / (1.0 - ratio)
            values = [v + ahead * (v - w) for v, w in zip(values, before, strict=True)]
            changes = [1.0, 1.0]


def chance_of(state: TisheState, seat: int) -> float:
    """``chances()`` of a seat's checkers, with the turns it still misses (rule 7) as rounds lost."""
    table = chances(state.options.both_home)
    return table[pair_index(state.of(seat))] * DRAW ** state.missed[seat]


def strong_score(state: TisheState, action: Action) -> float:
    """The position after ``action`` for the player making it, in log chances: its own
    ``chances()`` (rule 8's extra throw is the next throw of the same turn, rule 7's missed turns
    are rounds lost), the checkers a 5 circle leaves to the opponents' next throw (rule 3), and
    STRONG_BUMP × what the strongest opponent lost (rule 3, the newcomer stays)."""
    after, _, _ = ENGINE.apply(state, action.code)
    seat = state.turn
    if after.finished:
        return WIN
    table = chances(state.options.both_home)
    own = after.of(seat)
    now = table[pair_index(own)]
    value = now
    for hit, lost in five_circle_hits(after, seat):
        value += STRONG_EXPOSED * hit * (table[pair_index(lost)] - now)
    rounds = after.missed[seat] + (after.turn != seat)  # our own turn ends unless rule 8 throws again
    rival = max(chance_of(after, s) for s in range(state.seats) if s != seat)
    return math.log(value) + rounds * math.log(DRAW) - STRONG_BUMP * math.log(rival)


# ====================================================================== «Лёгкий»: a casual player

CASUAL_BLUR = 12.0  # easy: how many circles its judgement of a move may be off by («Средний» wins 72 %)


def casual_gain(action: Action) -> float:
    """What a casual player sees on a move's button: how far the checker gets, after the jump of
    a 1 circle, the fall of a 7 circle (rules 4, 5) or the way back off the board from a 0
    circle (rule 6), and that 100 wins (rule 9). Not the two turns a double number costs (rule
    7; measured: seeing them makes it too good), the spare checker, the 5 circles, the finish."""
    args = action.args
    if args["effect"] == EFFECT_HOME:
        return WIN
    return int(args["final"]) - int(args.get("start", OFF))


@dataclass(frozen=True)
class CasualPolicy:
    """Plays the move that looks farthest, judged with up to ``blur`` circles of error: the seeded
    ``tie_break`` stands for the dice of a human's attention (engines may not use ``random``)."""

    blur: float = CASUAL_BLUR

    def plan(self, state: TisheState, seed: int = 0) -> list[str]:
        actions = ENGINE.legal_actions(state)
        if len(actions) <= 1:
            return [a.code for a in actions]

        def judged(action: Action) -> tuple[float, int]:
            noise = tie_break(state.seed, state.version, seed, action.code)
            return casual_gain(action) + self.blur * noise / 2.0 ** 64, noise

        return [max(actions, key=judged).code]


STRONG = BestScorePolicy(ENGINE, strong_score)
EASY = CasualPolicy()
LEVELS: dict[str, Policy[TisheState]] = {"easy": EASY, "medium": AI, "strong": STRONG}
