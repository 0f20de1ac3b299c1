"""The «Людо» computer player (issue #8): play the move that leaves the best position.

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
"""

from __future__ import annotations

from engines.base import Action, BestScorePolicy
from engines.ludo import CENTRE, CIRCUIT, ENGINE, LAST_CIRCUIT, PIECES, SAFE_CELLS, YARD, LudoState, cell_of

OUT = 10.0  # rule 2: a piece needs a 6 to come out, worth more than a plain six steps
LANE = 8.0  # rule 5: a piece in its lane can never be captured again
HOME = 6.0  # rule 5: the centre is what wins; a piece there is done
PAIR = 2.0  # rules 4/9: two own pieces on one cell cannot be captured (a block with bonuses)
OPPONENT = 0.8  # a capture (rule 4) is worth nearly the whole of the victim's value
DIE = 6  # an opposing piece this many cells behind or fewer can land on a piece next throw
MISS = 5 / 6  # the chance that one given distance is not thrown
WIN = 1e9  # the last piece into the centre wins (rule 5)


def piece_value(progress: int) -> float:
    """What a piece is worth before risk: nothing in the yard, more the further it is."""
    if progress == YARD:
        return 0.0
    value = OUT + progress
    if progress > LAST_CIRCUIT:  # rule 5: in the lane or the centre
        value += LANE + (HOME if progress == CENTRE else 0.0)
    return value


def board_value(state: LudoState, pieces: tuple[int, ...], seat: int) -> float:
    """The position from ``seat``'s side: own values minus OPPONENT × the others' values."""
    seats = state.seats
    colours = [state.colour(s) for s in range(seats)]
    cells = [cell_of(colours[k // PIECES], p) for k, p in enumerate(pieces)]
    # who owns each circuit cell holding two or more of one seat's pieces
    paired: dict[int, int] = {}
    for k, cell in enumerate(cells):
        if cell is not None and cells[PIECES * (k // PIECES):PIECES * (k // PIECES + 1)].count(cell) >= 2:
            paired[cell] = k // PIECES
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


def score(state: LudoState, action: Action) -> float:
    """The value of the board after ``action`` for the player making it (rule 7: a legal move)."""
    after, _, _ = ENGINE.apply(state, action.code)
    if after.finished:
        return WIN
    return board_value(after, after.pieces, state.turn)


AI = BestScorePolicy(ENGINE, score)
