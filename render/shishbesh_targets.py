"""The moves on offer in «Шиш-беш» and where they land, for the picture and the buttons alike.

Every distinct landing place gets a letter (А, Б, В … in the chat's alphabet, the board label
``targets``), in the order of the first button that goes there; the picture draws the letter at
the place and every button going there names it («[3] Фишка 1 → Б»). Letters rather than cell
numbers: the player looks for one of a few big marks instead of reading 48–56 small numbers half
hidden under pieces (positions count from each player's own start, so a cell's number would change
with every turn), and a letter never reads as a die or a piece number, which the buttons show too.
"""

from __future__ import annotations

from dataclasses import dataclass

from engines import shishbesh as rules
from engines.shishbesh import PHASE_MOVE, ShishbeshState
from render.shishbesh_geometry import piece_spot

_MOVES = ("enter", "step", "jump_forward", "jump_back", "jump_diagonal")


@dataclass(frozen=True, slots=True)
class Target:
    """One landing place on offer: its centre and ring size on the picture, the pieces (from 0) that
    may land there."""

    centre: tuple[int, int]
    size: int
    pieces: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Offer:
    """The moves on offer: their landing places in button order, and each move code's place (an index)."""

    targets: tuple[Target, ...]
    place: dict[str, int]


def offered(state: ShishbeshState) -> Offer:
    """The landing places of the moves the mover may choose now (none outside phase move)."""
    if state.phase != PHASE_MOVE or state.finished:
        return Offer((), {})
    seat = state.turn
    spots: dict[tuple[tuple[int, int], int], list[int]] = {}
    place: dict[str, int] = {}
    for action in rules.ENGINE.legal_actions(state):
        if action.kind not in _MOVES:
            continue
        piece, end = int(action.args["piece"]) - 1, int(action.args.get("to", 0))
        spot = piece_spot(state, seat, piece, end, action.args["effect"] == rules.EFFECT_HUT)
        pieces = spots.setdefault(spot, [])
        if piece not in pieces:
            pieces.append(piece)
        place[action.code] = list(spots).index(spot)
    targets = tuple(Target(xy, size, tuple(sorted(pieces))) for (xy, size), pieces in spots.items())
    return Offer(targets, place)


def target_letter(letters: str, index: int) -> str:
    """The letter of landing place ``index`` from the space-separated ``letters`` (a number past their end)."""
    words = letters.split()
    return words[index] if index < len(words) else str(index + 1)
