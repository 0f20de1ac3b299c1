"""Computer players for «Парчис», at three levels (engines.base.LEVELS):

- «Лёгкий» (``easy``, :class:`Casual`): a casual player. It likes a capture, then reaching
  the centre, then a seguro, then moving its front-runner, but looks at nothing else and its
  preference is loose: a seeded jitter (:func:`engines.base.tie_break`) often outweighs it,
  so it walks into reach of opponents and misses better moves;
- «Средний» (``medium``, :data:`AI`): one greedy look at the position after each move;
- «Сильный» (``strong``, :data:`STRONG`): the same look with the chances worked out by the
  engine's own move list (:func:`engines.parchis.find_moves`): for every opponent and every
  face of its next throw whether it can capture one of our pieces, and for every face of our
  next throw whether we can capture (a capture earns 20, rule 5); and each move played on by
  the engine itself: its bonuses (rule 5) played as well as they can be, and the throw after a
  6 (rule 4) taken face by face, a third 6 sending the piece moved last home.
Measured (1,000 seeded games each, bench/policies.py's method): against three random players
«Сильный» wins 86.2 % (think p95 12 ms), «Средний» 81.1 %; with two players «Средний» beats
«Лёгкий» in 76.3 %. Playing moves on (the bonuses and the next throw) took «Сильный» from 84.7 %.

«Средний»: every legal move is played on a copy of the pieces (a captured piece goes home) and the
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
from dataclasses import dataclass

from engines.base import Action, BestScorePolicy, LoadedDice, Policy, tie_break
from engines.parchis import (
    CAPTURE_BONUS,
    CELLS,
    CENTRE,
    CENTRE_BONUS,
    COLOURS,
    EFFECT_CAPTURE,
    EFFECT_CENTRE,
    EFFECT_SAFE,
    ENGINE,
    HOME,
    LAST_CIRCUIT,
    PHASE_MOVE,
    PHASE_ROLL,
    PIECES,
    ROLL,
    SEGUROS,
    SIX,
    SIX_AS,
    Move,
    ParchisState,
    cell_number,
    exit_cell,
    find_moves,
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


# ---------------------------------------------------------------- «Сильный»

HIT_LOSS = LOSS  # a captured piece loses its progress, its 10 for being out (rule 3) and the 20 it gives (rule 5)
CHANCE = 20.0  # a capture certain on our next throw is worth the 20 it earns (rule 5) ...
VICTIM = 0.5  # ... and half its victim's progress (the opponent may move it first): measured best
FACES = tuple(range(1, DIE_FACES + 1))


def _count(face: int, pieces: Sequence[int], seat: int) -> int:
    """What a throw of ``face`` counts for ``seat``: rule 4, a 6 counts 7 with nobody at home."""
    return SIX_AS if face == SIX and HOME not in pieces[PIECES * seat:PIECES * seat + PIECES] else face


def _victim(state: ParchisState, seat: int, move: Move) -> int | None:
    """The piece a capturing ``move`` of ``seat`` sends home: the lone piece on its target
    (rule 5), or on the exit the opponent that arrived last (rule 3)."""
    if move[4] != EFFECT_CAPTURE:
        return None
    seats, pieces = state.seats, state.pieces
    colour = COLOURS[seats][seat]
    cell = exit_cell(colour) if move[2] == HOME else cell_number(colour, move[3])
    there = [k for k, q in enumerate(pieces) if k // PIECES != seat and 0 <= q <= LAST_CIRCUIT
             and cell_number(COLOURS[seats][k // PIECES], q) == cell]
    return max(there, key=lambda k: state.stamps[k]) if there else None


def capture_chances(state: ParchisState, seat: int) -> list[float]:
    """Per piece of ``seat``, the chance it is captured before ``seat`` throws again: every
    opponent's next throw, face by face, through the engine's own move list (so barriers,
    rule 7, full cells, rule 2, seguros, rules 5-6, and exits, rule 3, count as they do in
    play). An opponent is assumed to capture whenever it can (a person would); with two
    victims on one face each gets half. Opponents are taken one by one on this position."""
    base = PIECES * seat
    safe = [1.0] * PIECES
    if all(not 0 <= q <= LAST_CIRCUIT for q in state.pieces[base:base + PIECES]):
        return [0.0] * PIECES  # at home, in the corridor or the centre nothing can be hit (rule 1)
    for other in range(state.seats):
        if other == seat:
            continue
        hit = [0.0] * PIECES
        for face in FACES:
            victims = set()
            for move in find_moves(state, other, _count(face, state.pieces, other), False):
                victim = _victim(state, other, move)
                if victim is not None and base <= victim < base + PIECES:
                    victims.add(victim - base)
            for piece in victims:
                hit[piece] += 1 / DIE_FACES / len(victims)
        for piece in range(PIECES):
            safe[piece] *= 1.0 - min(hit[piece], 1.0)
    return [1.0 - s for s in safe]


def capture_reach(state: ParchisState, seat: int) -> float:
    """What the captures within reach of ``seat``'s next throw are worth, on average over its
    faces: per face offering one (rule 5; on the exit, rule 3), the 20 it earns and part of the
    progress the best victim would lose."""
    worth = 0.0
    for face in FACES:
        best = -1
        for move in find_moves(state, seat, _count(face, state.pieces, seat), False):
            victim = _victim(state, seat, move)
            if victim is not None:
                best = max(best, state.pieces[victim])
        if best >= 0:
            worth += CHANCE + VICTIM * best
    return worth / DIE_FACES


def strong_value(state: ParchisState, seat: int) -> float:
    """«Средний»'s valuation with its rough risk replaced by :func:`capture_chances`, plus the
    captures within reach of our next throw (:func:`capture_reach`): a capture earns a 20 that
    speeds a piece on more than any throw (rule 5), so staying within reach of a victim pays."""
    seats, pieces = state.seats, state.pieces
    colour = COLOURS[seats][seat]
    own = pieces[PIECES * seat:PIECES * seat + PIECES]
    cells = [cell_number(colour, p) for p in own]
    hits = capture_chances(state, seat)
    total = 0.0
    for progress, cell, hit in zip(own, cells, hits, strict=True):
        if progress == HOME:
            continue
        total += progress + OUT
        if progress == CENTRE:
            total += STRETCH + DONE
        elif cell is None:  # the corridor (rule 1)
            total += STRETCH
        else:
            if cells.count(cell) > 1:  # rule 7: counted once per piece, half for each
                total += (BARRIER + BLOCK * _blocked(seats, pieces, seat, cell)) / 2
            total -= hit * (progress + HIT_LOSS)
    if HOME in own and cells.count(exit_cell(colour)) > 1:  # rule 3
        total -= EXIT_BLOCKED
    for other in range(seats):
        if other != seat:
            total -= OPPONENT * sum(q + OUT for q in pieces[PIECES * other:PIECES * other + PIECES] if q != HOME)
    return total + capture_reach(state, seat)


WIN = 1000.0  # rule 9: all four pieces in the centre, worth more than any position
BONUS_CHAIN = 3  # rule 5: bonuses chain (a bonus move that captures earns 20 more); deeper is rare


def _worth(state: ParchisState, seat: int, chain: int = BONUS_CHAIN, throw: bool = True) -> float:
    """What ``state``, reached by the engine playing ``seat``'s move, is worth to ``seat``: a bonus
    to play (rule 5) is played as well as it can be, the throw after a 6 (rule 4) is taken face by
    face (once: :func:`_throw_again`), and the position the turn passes on with is valued by
    :func:`strong_value`."""
    if state.finished:
        return WIN if state.winner == seat else -WIN
    if state.turn == seat and state.phase == PHASE_MOVE and chain > 0:
        return max(_worth(ENGINE.apply(state, move[0])[0], seat, chain - 1, throw) for move in state.moves)
    if state.turn == seat and state.phase == PHASE_ROLL and throw:
        return _throw_again(state, seat)
    return strong_value(state, seat)


def _throw_again(state: ParchisState, seat: int) -> float:
    """The throw a 6 earns (rule 4), on average over its faces, each played as well as it can be;
    the engine plays the faces, so a third 6 sends the piece moved last home, as in play."""
    total = 0.0
    for face in FACES:
        thrown, _, _ = ENGINE.apply(state, ROLL.code, LoadedDice((face,)))
        total += _worth(thrown, seat, throw=False)
    return total / DIE_FACES


def strong_score(state: ParchisState, action: Action) -> float:
    """The worth of ``action`` played by the engine itself (:func:`_worth`): its bonuses and the
    throw after a 6 included, so a capture is worth the 20 as it can be used (rule 5), and on a
    second 6 the piece moved risks the third (rule 4)."""
    return _worth(ENGINE.apply(state, action.code)[0], state.turn)


STRONG = BestScorePolicy(ENGINE, strong_score)


# ---------------------------------------------------------------- «Лёгкий»

@dataclass(frozen=True)
class Casual:
    """«Лёгкий»: a capture first, then the centre, then a seguro (rules 5, 1), then the piece
    furthest on. ``jitter`` (seeded by :func:`tie_break`, never the clock or ``random``) is about
    as large as the liking for a capture: a capture is nearly always taken, but between other
    moves it is often a toss-up, as for a person not paying attention. It never looks at where
    the opponents' pieces could hit it."""

    capture: float = 3.0
    centre: float = 2.0
    safe: float = 1.0
    front: float = 1.0  # for a piece going all the way round
    jitter: float = 3.5

    def plan(self, state: ParchisState, seed: int = 0) -> list[str]:
        actions = ENGINE.legal_actions(state)
        if len(actions) <= 1:
            return [a.code for a in actions]  # the roll, or a lone move
        liking = {EFFECT_CAPTURE: self.capture, EFFECT_CENTRE: self.centre, EFFECT_SAFE: self.safe}
        moves = {m[0]: m for m in state.moves}

        def appeal(action: Action) -> float:
            _, _, _, target, effect = moves[action.code]
            noise = tie_break(state.seed, state.version, seed, action.code) / 2 ** 64
            return liking.get(effect, 0.0) + self.front * target / CENTRE + self.jitter * noise

        return [max(actions, key=appeal).code]


LEVELS: dict[str, Policy[ParchisState]] = {"easy": Casual(), "medium": AI, "strong": STRONG}

