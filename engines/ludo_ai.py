"""The «Людо» computer players, at the three levels the lobby offers (``LEVELS``).

«Средний» (``AI``, the default): play the move that leaves the best position.

A one-ply heuristic, not a search: the die is known when a move is chosen (rule 7 of
engines/ludo.py: a throw is rolled first, then the mover picks one of its legal moves), so
every candidate is applied with the engine itself and the resulting board is valued as

    own pieces' value - OPPONENT × opponents' pieces' value,

where a piece's value is what it would lose by being sent back to its yard:

* ``OUT`` + its progress once on the board — leaving the yard needs a 6 (rule 2), so a 6
  spent on an exit outweighs six steps of an old piece;
* ``LANE`` more in the lane and ``HOME`` more in the centre — nobody else enters the lane
  (rule 5), so a piece there is out of reach for good: reaching home is preferred;
* minus the expected loss ``risk × value`` while it stands on the circuit: the chance that
  an opposing piece 1–6 cells behind it lands on it next turn (rule 4). Safe cells (start
  cells and stars, rule 1) and two own pieces on one cell carry no risk: landing on two
  opposing pieces captures nothing in the base game, and with ``bonuses`` they form a block
  nobody may land on or pass (rule 9), which also shelters pieces behind it. ``PAIR`` adds
  a little to keep such a pair together.

So a capture scores the victim's whole value (the opponents' term drops), a threatened
piece — the rearmost one being the one with opponents close behind — flees to a safe cell,
its pair or out of range, and a 6 brings a new piece out unless something better is on.
Extra throws (rule 3; with ``bonuses`` rule 8) need no term of their own: capturing and
reaching the centre are already preferred. Ties are broken by ``tie_break`` (engines must
not use ``random``), so the player is pure: the same state and seed give the same move.

«Сильный» (``STRONG``) values the board the same way, with the danger counted as it is:

* every opponent moves before its next turn, so a piece survives only if none of them hits
  it — the chance is the product over the opponents, not one «next throw» for all of them;
* an opponent's 6 throws again (rule 3), so a piece 7–12 cells ahead of one of its pieces,
  or 1–6 cells past its start cell while it has a piece in the yard (rule 2: out on a 6,
  then the extra throw), is in reach too, at 1/36 per distance;
* a piece on a safe cell (rule 1) is worth ``SAFE`` more: it stays safe for the turns after
  the next as well, which the one-turn risk does not see; and ``STRONG_OUT`` makes a new
  piece out of the yard worth more than «Средний» thinks (rule 2: a 6 is rare).

Measured as bench/policies.py does (1,000 four-player games against three random players),
counting the danger this way took «Средний»'s 61.6 % to 68.1 %; the two weights, tuned on
other seeds, to 73.6 %. It thinks about a tenth of a millisecond per choice.

«Лёгкий» (``EASY``) plays like a casual player: it takes a capture it sees (rule 4),
otherwise pushes its front piece on, brings a piece out only when nothing else moves (a
6 goes to the front piece too) and never looks at danger; one move in five it plays any
legal move. «Средний» wins about three of four two-player games against it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engines.base import Action, BestScorePolicy, Policy, tie_break
from engines.ludo import (
    ARM,
    CENTRE,
    CIRCUIT,
    COLOURS,
    EFFECT_CAPTURE,
    ENGINE,
    LAST_CIRCUIT,
    PHASE_MOVE,
    PIECES,
    SAFE_CELLS,
    YARD,
    LudoState,
    cell_of,
)

OUT = 10.0  # rule 2: a piece needs a 6 to come out, worth more than a plain six steps
LANE = 8.0  # rule 5: a piece in its lane can never be captured again
HOME = 6.0  # rule 5: the centre is what wins; a piece there is done
PAIR = 2.0  # rules 4/9: two own pieces on one cell cannot be captured (a block with bonuses)
OPPONENT = 0.8  # a capture (rule 4) is worth nearly the whole of the victim's value
DIE = 6  # an opposing piece this many cells behind or fewer can land on a piece next throw
MISS = 5 / 6  # the chance that one given distance is not thrown
WIN = 1e9  # the last piece into the centre wins (rule 5)


def piece_value(progress: int, out: float = OUT) -> float:
    """What a piece is worth before risk: nothing in the yard, ``out`` once out, more the further it is."""
    if progress == YARD:
        return 0.0
    value = out + progress
    if progress > LAST_CIRCUIT:  # rule 5: in the lane or the centre
        value += LANE + (HOME if progress == CENTRE else 0.0)
    return value


def pairs(cells: list[int | None]) -> dict[int, int]:
    """Who owns each circuit cell holding two or more of one seat's pieces (``cells``: by piece)."""
    paired: dict[int, int] = {}
    for k, cell in enumerate(cells):
        if cell is not None and cells[PIECES * (k // PIECES):PIECES * (k // PIECES + 1)].count(cell) >= 2:
            paired[cell] = k // PIECES
    return paired


def board_value(state: LudoState, pieces: tuple[int, ...], seat: int) -> float:
    """The position from ``seat``'s side: own values minus OPPONENT × the others' values."""
    seats = state.seats
    colours = [state.colour(s) for s in range(seats)]
    cells = [cell_of(colours[k // PIECES], p) for k, p in enumerate(pieces)]
    paired = pairs(cells)
    blocks = paired if state.options.bonuses else {}  # rule 9: only with bonuses can nobody pass them
    total = 0.0
    for k, progress in enumerate(pieces):
        owner, cell = k // PIECES, cells[k]
        value = piece_value(progress)
        if cell is None or cell in SAFE_CELLS:
            pass  # rules 1, 5: the yard, the lane, the centre and safe cells are never captured
        elif cell in paired:
            value += PAIR
        else:
            value *= 1.0 - _risk(pieces, cells, owner, cell, blocks)
        total += value if owner == seat else -OPPONENT * value
    return total


def _risk(pieces: tuple[int, ...], cells: list[int | None], owner: int, cell: int, blocks: dict[int, int]) -> float:
    """The chance that some opposing piece 1–6 cells behind ``cell`` lands on it next throw
    (rule 4), counting each distance once; an opposing piece about to turn into its own lane
    (rule 5) or held up by a block in between (rule 9) is no threat."""
    distances: set[int] = set()
    for k, there in enumerate(cells):
        attacker = k // PIECES
        if there is None or attacker == owner:
            continue
        distance = (cell - there) % CIRCUIT
        if not 1 <= distance <= DIE or pieces[k] + distance > LAST_CIRCUIT:
            continue
        if any(blocks.get((there + step) % CIRCUIT, attacker) != attacker for step in range(1, distance + 1)):
            continue
        distances.add(distance)
    return 1.0 - MISS ** len(distances)


def score_by(value: Callable[[LudoState, tuple[int, ...], int], float]) -> Callable[[LudoState, Action], float]:
    """A move's score: ``value`` of the board after it for the player making it (rule 7: a legal move)."""

    def score(state: LudoState, action: Action) -> float:
        after, _, _ = ENGINE.apply(state, action.code)
        if after.finished:
            return WIN
        return value(after, after.pieces, state.turn)

    return score


score = score_by(board_value)


AI = BestScorePolicy(ENGINE, score)


# ====================================================================== «Сильный»

STRONG_OUT = 16.0  # rule 2: measured best above OUT; a piece out is a 6 not needed again
SAFE = 9.0  # rule 1: a safe cell keeps a piece safe for every turn it stays there, not just the next
THROW_AGAIN = 1 / 36  # rule 3: a 6 and then the one face that lands


def _hit_chance(pieces: tuple[int, ...], cells: list[int | None], attacker: int, start: int, cell: int,
                blocks: dict[int, int]) -> float:
    """The chance that seat ``attacker`` (start cell ``start``) lands on a lone piece on ``cell``
    in its next turn (rule 4): a distance of 1–6 on its first throw; failing that, after a 6
    (rule 3), 7–12 with the same piece or 1–6 with a piece just out of the yard (rule 2). A piece
    about to turn into its lane (rule 5) or held up by a block (rule 9) is no threat."""
    first = later = 0  # bit d: distance d can be thrown
    base = PIECES * attacker
    for k in range(base, base + PIECES):
        there = cells[k]
        if there is None:
            continue
        distance = (cell - there) % CIRCUIT
        if not 1 <= distance <= 2 * DIE or pieces[k] + distance > LAST_CIRCUIT:
            continue
        if blocks and any(blocks.get((there + step) % CIRCUIT, attacker) != attacker
                          for step in range(1, distance + 1)):
            continue
        if distance <= DIE:
            first |= 1 << distance
        else:
            later |= 1 << (distance - DIE)
    if YARD in pieces[base:base + PIECES]:
        distance = (cell - start) % CIRCUIT
        if 1 <= distance <= DIE:
            later |= 1 << distance
    chance = first.bit_count() / DIE
    if not first & 1 << DIE:  # a 6 that lands is no second chance
        chance += (first | later).bit_count() * THROW_AGAIN
    return chance


def strong_value(state: LudoState, pieces: tuple[int, ...], seat: int) -> float:
    """«Сильный»'s view of the position from ``seat``'s side: own values minus OPPONENT × the
    others', each lone piece on the circuit kept by its chance to survive every opponent's turn."""
    seats = state.seats
    colours = COLOURS[seats]
    cells = [cell_of(colours[k // PIECES], p) for k, p in enumerate(pieces)]
    paired = pairs(cells)
    blocks = paired if state.options.bonuses else {}  # rule 9: only with bonuses can nobody pass them
    total = 0.0
    for k, progress in enumerate(pieces):
        owner, cell = k // PIECES, cells[k]
        value = piece_value(progress, STRONG_OUT)
        if cell is None:
            pass  # rules 2, 5: the yard, the lane and the centre are never captured
        elif cell in SAFE_CELLS:
            value += SAFE
        elif cell in paired:
            value += PAIR
        else:
            survives = 1.0
            for other in range(seats):
                if other != owner:
                    survives *= 1.0 - _hit_chance(pieces, cells, other, ARM * colours[other], cell, blocks)
            value *= survives
        total += value if owner == seat else -OPPONENT * value
    return total


strong_score = score_by(strong_value)


STRONG = BestScorePolicy(ENGINE, strong_score)


# ====================================================================== «Лёгкий»

SLIP = 20  # per cent of choices «Лёгкий» plays any legal move: a casual player does not always look


@dataclass(frozen=True)
class CasualPolicy:
    """«Лёгкий»: a capture if it sees one (rule 4), else the front piece; an exit (rule 2) only
    when nothing else moves; ``miss`` per cent of its choices any legal move. Seeded by
    ``tie_break``, so it is pure like the others."""

    miss: int = SLIP

    def plan(self, state: LudoState, seed: int = 0) -> list[str]:
        actions = ENGINE.legal_actions(state)
        if len(actions) <= 1 or state.phase != PHASE_MOVE:
            return [a.code for a in actions[:1]]

        def order(code: str) -> int:
            return tie_break(state.seed, state.version, seed, code)

        if order("miss") % 100 < self.miss:  # "miss" is no move code: a draw of its own
            return [max((m[0] for m in state.moves), key=order)]
        # a move's start is its progress: the front piece has the highest, the yard (-1) the lowest
        best = max(state.moves, key=lambda m: (m[4] == EFFECT_CAPTURE, m[2], order(m[0])))
        return [best[0]]


EASY = CasualPolicy()

# The levels the lobby offers (engines.base.LEVELS), weakest first; «Средний» is ``AI``.
LEVELS: dict[str, Policy[LudoState]] = {"easy": EASY, "medium": AI, "strong": STRONG}
