"""«Шиш-беш» (`shishbesh`): four pieces each round a cross, corner jumps, shelters, two dice.

Rules as settled in docs/rules/shishbesh.md; the numbered points below are cited in code.

1. Board: a circuit of 4 quarters (12 cells, or 14 on the long board). Per player, positions
   count from their own arm's end cell (0, the start field); corners at 6, 18, 30, 42 (long:
   7, 21, 35, 49); the own end cell again at 48 (56), then the home lane 49..52 (57..61).
2. Each die of a throw is a separate move, in the order the player chooses; the same piece
   may take both. A die that can be played must be; if both can be played (one after the
   other), both must; if only one can, that one; if either but not both, the player picks.
3. A double, and a capture, give another throw after the turn.
4. Leaving the park: on a 6 (option ``start``: or on either die of a double, or either),
   onto the start field; the die is used up by that.
5. Two own pieces never stand on one cell; landing on an opponent's piece captures it (it
   goes back to its park).
6. Corners: a piece that begins a die move on a corner may jump instead of stepping: with
   a 1 to an adjacent corner (forward +12 or back −12), with a 3 to the diagonal corner.
   From corner 6 back lands on 42 (the «срез»); no jump ever passes position 42 otherwise
   (no forward jump from 42; diagonals from 30 and 42 land on 6 and 18). Jumps capture.
7. Shelters: on the 3rd cell from the outer end of every outer lane (option ``shelters``:
   ``staggered`` puts one lane of each arm on the 4th) a hut holds one piece, which cannot
   be captured. With the hut taken, an arriving piece stands on the open cell and can be
   captured there; the hut's piece cannot move while the open cell is occupied.
8. Home: entered only by an exact count, never jumping over own pieces inside; a piece
   inside moves on by an exact count. The first with all four pieces home wins; the others
   rank by pieces home, then by progress.
9. Option ``fast_charge``: while a player has no piece on the circuit, they get up to three
   throws in a row to leave the park; if none works, the turn passes. A step inside the home
   played with one of those throws does not end the charge: only leaving the park does.

Settled here where the texts are silent: the first player is drawn from the dice source
(throw 0); with two players the arms sit opposite; a double and a capture in one turn give
one extra throw; each die that qualifies may bring a piece out, but never onto an own
piece (so 6-6 brings one out and moves it on, unless the start field is left free); the
staggered shelters sit on the 3rd cell of the lane leaving an arm's end and the 4th of
the lane arriving at it; a piece on its own end cell again (48) stands on the circuit; a
double gives its extra throw even when nothing could be played, and that throw does not
count toward fast charge's three; a hut and its open cell are two places, so one player's
pieces may hold both (the open one then locks the hut one).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, replace
from typing import NamedTuple

from engines.base import (
    Action,
    Dice,
    Event,
    IllegalActionError,
    JsonData,
    LogEntry,
    OptionsError,
    Outcome,
    RulesEngine,
    TurnState,
    check_seats,
    next_seat,
    rank_after,
    throw_source,
)

SEATS_RANGE = (2, 4)
PIECES = 4
PARK = -1
BOARDS = ("standard", "long")
SHELTER_MODES = ("opposite", "staggered")
STARTS = ("six", "double", "six_or_double")
CHARGE_THROWS = 3  # rule 9
ARMS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # two players sit opposite
ROLL = Action(code="r", kind="roll")
PHASE_ROLL = "roll"
PHASE_MOVE = "move"

# Effect codes carried in a move's Action args as "effect" (the button shows them).
EFFECT_NONE, EFFECT_CAPTURE, EFFECT_HUT, EFFECT_HOME = range(4)


@dataclass(frozen=True, slots=True)
class Geometry:
    """One board size, in positions counted from a player's own end cell (rule 1)."""

    quarter: int  # circuit cells per quarter
    home_cells: int

    @property
    def circuit(self) -> int:
        return 4 * self.quarter

    @property
    def end(self) -> int:
        """The own end cell reached again after a full lap."""
        return self.circuit

    @property
    def home(self) -> range:
        return _home(self)

    @property
    def corners(self) -> tuple[int, ...]:
        return _corners(self)

    def cell(self, arm: int, position: int) -> int | None:
        """The absolute circuit cell of a position (None in the park or the home)."""
        if 0 <= position <= self.end:
            return self.circuit_cell(arm, position)
        return None

    def circuit_cell(self, arm: int, position: int) -> int:
        """The absolute circuit cell of a position on the circuit (0..end)."""
        return (arm * self.quarter + position) % self.circuit

    def shelters(self, staggered: bool) -> frozenset[int]:
        """Rule 7: absolute cells with a hut (3rd from the outer end of each outer lane)."""
        return _shelters(self, staggered)


# The geometry's derived tables, computed once per board (the legal-move search asks often).
@functools.cache
def _home(geo: Geometry) -> range:
    return range(geo.circuit + 1, geo.circuit + 1 + geo.home_cells)


@functools.cache
def _corners(geo: Geometry) -> tuple[int, ...]:
    first = geo.quarter // 2
    return tuple(first + k * geo.quarter for k in range(4))


@functools.cache
def _shelters(geo: Geometry, staggered: bool) -> frozenset[int]:
    arriving = geo.quarter - (4 if staggered else 3)
    return frozenset(k * geo.quarter + offset for k in range(4) for offset in (3, arriving))


GEOMETRY = {"standard": Geometry(12, 4), "long": Geometry(14, 5)}


@dataclass(frozen=True, slots=True)
class ShishbeshOptions(JsonData):
    """Lobby settings: board size, shelter layout, how pieces leave the park, fast charge."""

    board: str = "standard"
    shelters: str = "opposite"
    start: str = "six"
    fast_charge: bool = False

    def validate(self, seats: int | None = None) -> None:
        for key, value, allowed in (("board", self.board, BOARDS), ("shelters", self.shelters, SHELTER_MODES),
                                    ("start", self.start, STARTS)):
            if value not in allowed:
                raise OptionsError(key, "unknown value", allowed=allowed)
        if not isinstance(self.fast_charge, bool):
            raise OptionsError("fast_charge", "not a yes/no value")
        check_seats(seats, SEATS_RANGE)

    @property
    def geometry(self) -> Geometry:
        return GEOMETRY[self.board]


@dataclass(frozen=True, slots=True)
class ShishbeshState(TurnState, JsonData):
    """Whole game state. ``pieces[4 * seat + i]``: PARK, a circuit position 0..end, or a home
    position; ``huts[k]`` is True when piece k sits inside the hut of its shelter cell."""

    seed: str
    options: ShishbeshOptions
    seats: int
    pieces: tuple[int, ...]
    huts: tuple[bool, ...]
    turn: int
    phase: str  # PHASE_ROLL, or PHASE_MOVE with ``dice`` left to play
    throws: int  # index of the next DiceSource throw
    version: int  # actions applied
    dice: tuple[int, ...] = ()  # dice of the current throw still to play
    rolled: tuple[int, ...] = ()  # the current throw (a double leaves pieces on either die)
    bonus: bool = False  # rule 3: a capture this turn
    charges: int = 0  # rule 9: throws used trying to leave the park
    last_dice: tuple[int, ...] = ()
    last_seat: int | None = None
    last_move: tuple[int, ...] = ()  # seat, piece, from, to
    finished: bool = False
    winner: int | None = None

    def arm(self, seat: int) -> int:
        return ARMS[self.seats][seat]

    def of(self, seat: int) -> tuple[int, ...]:
        return self.pieces[PIECES * seat:PIECES * seat + PIECES]


def _occupant(state: ShishbeshState, cell: int, hut: bool) -> int | None:
    """The piece (flat index) on circuit cell ``cell``: inside its hut, or on the open cell."""
    quarter = state.options.geometry.quarter
    circuit = 4 * quarter
    arms, huts = ARMS[state.seats], state.huts
    for k, pos in enumerate(state.pieces):  # the legal-move search's hot loop: no method calls
        if 0 <= pos <= circuit and huts[k] == hut and (arms[k // PIECES] * quarter + pos) % circuit == cell:
            return k
    return None


def _can_enter(state: ShishbeshState, die: int) -> bool:
    """Rule 4: whether this die may bring a piece out of the park."""
    six = die == 6
    double = len(state.rolled) == 2 and state.rolled[0] == state.rolled[1]
    return {"six": six, "double": double, "six_or_double": six or double}[state.options.start]


def _target(state: ShishbeshState, seat: int, piece: int, die: int) -> list[tuple[str, int]]:
    """Where a piece may go with ``die``: (kind, position) for a step and any jumps (rules 6, 8)."""
    geo = state.options.geometry
    pos = state.pieces[PIECES * seat + piece]
    if pos == PARK:
        return [("enter", 0)] if _can_enter(state, die) else []
    out: list[tuple[str, int]] = []
    last = geo.home[-1]
    if pos + die <= last:  # rule 8: exact count only
        out.append(("step", pos + die))
    corners = geo.corners
    if pos in corners:  # rule 6
        i, q = corners.index(pos), geo.quarter
        if die == 1:
            if i < 3:
                out.append(("jump_forward", pos + q))
            out.append(("jump_back", corners[-1] if i == 0 else pos - q))  # from the first corner: the срез
        elif die == 3:
            out.append(("jump_diagonal", corners[(i + 2) % 4]))
    return out


def _check(state: ShishbeshState, seat: int, piece: int, start: int, target: int) -> int | None:
    """The effect of moving a piece from ``start`` to ``target``, or None if it may not."""
    geo = state.options.geometry
    k = PIECES * seat + piece
    own = state.of(seat)
    open_cell = geo.cell(state.arm(seat), start)
    if state.huts[k] and open_cell is not None and _occupant(state, open_cell, hut=False) is not None:
        return None  # rule 7: the hut's piece is locked while the open cell is taken
    if target in geo.home:  # rule 8: no jumping over own pieces in the home
        if any(p in geo.home and start < p <= target for i, p in enumerate(own) if i != piece):
            return None
        return EFFECT_HOME
    cell = geo.circuit_cell(state.arm(seat), target)  # neither the park nor the home: the circuit
    shelter = cell in geo.shelters(state.options.shelters == "staggered")
    if shelter and _occupant(state, cell, hut=True) is None:
        return EFFECT_HUT  # rule 7: into the empty hut
    other = _occupant(state, cell, hut=False)
    if other is None:
        return EFFECT_NONE
    if other // PIECES == seat:  # rule 5
        return None
    return EFFECT_CAPTURE


class Move(NamedTuple):
    """One die's legal move: its action code and kind, the die, the piece (from 0), where it
    goes from and to (PARK and 0 for an entry) and the effect of arriving there."""

    code: str
    kind: str
    die: int
    piece: int
    start: int
    target: int
    effect: int


def die_moves(state: ShishbeshState, seat: int, die: int) -> list[Move]:
    """Every legal move of one die (before rule 2's «both dice» filter); park pieces are one move."""
    moves: list[Move] = []
    entered = False
    for piece, pos in enumerate(state.of(seat)):
        for kind, target in _target(state, seat, piece, die):
            if kind == "enter":
                if entered:
                    continue
                effect = _check(state, seat, piece, 0, 0)
                if effect is not None:  # the same for every park piece: the first one goes
                    entered = True
                    moves.append(Move(f"e{die}", kind, die, piece, PARK, 0, effect))
                continue
            effect = _check(state, seat, piece, pos, target)
            if effect is None:
                continue
            code = f"s{die}{piece}" if kind == "step" else f"j{kind[5]}{piece}"
            moves.append(Move(code, kind, die, piece, pos, target, effect))
    return moves


def _action(move: Move) -> Action:
    """A move as the bot shows it: the die, the piece (numbered from 1), from and to (not for
    an entry) and the effect of arriving."""
    if move.kind == "enter":
        return Action(move.code, move.kind, {"die": move.die, "piece": move.piece + 1, "effect": move.effect})
    return Action(move.code, move.kind, {"die": move.die, "piece": move.piece + 1, "start": move.start,
                                         "to": move.target, "effect": move.effect})


class ShishbeshEngine(RulesEngine[ShishbeshState, ShishbeshOptions]):
    """The `shishbesh` engine (see the module docstring for the rules)."""

    code = "shishbesh"
    options_type, state_type = ShishbeshOptions, ShishbeshState
    min_players, max_players = SEATS_RANGE

    def opening(self, options: ShishbeshOptions, seats: int, seed: str, starter: int) -> ShishbeshState:
        state = ShishbeshState(seed=seed, options=options, seats=seats, pieces=(PARK,) * (PIECES * seats),
                               huts=(False,) * (PIECES * seats), turn=starter, phase=PHASE_ROLL, throws=1, version=0)
        return state

    def legal_actions(self, state: ShishbeshState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == PHASE_ROLL:
            return [ROLL]
        return [_action(move) for move in self._playable(state, state.turn)]

    def _playable(self, state: ShishbeshState, seat: int) -> list[Move]:
        """Rule 2: the moves of the dice left; with two left, those after which the other is playable."""
        moves: list[Move] = []
        for die in dict.fromkeys(state.dice):
            moves.extend(die_moves(state, seat, die))
        if len(state.dice) == 2 and moves:
            both = [m for m in moves if self._other_playable(state, seat, m)]
            if both:
                return both
        return moves

    def _other_playable(self, state: ShishbeshState, seat: int, move: Move) -> bool:
        after, _ = self._move(state, seat, move)
        rest = list(state.dice)
        rest.remove(move.die)
        return any(die_moves(after, seat, die) for die in rest)

    def outcome(self, state: ShishbeshState) -> Outcome | None:
        if not state.finished or state.winner is None:
            return None
        home = state.options.geometry.home

        def progress(seat: int) -> tuple[int, int]:
            own = state.of(seat)
            return sum(p in home for p in own), sum(p + 1 for p in own)

        return Outcome("win", winners=(state.winner,), ranking=rank_after(state.winner, state.seats, progress))

    def apply(self, state: ShishbeshState, code: str,
              dice: Dice | None = None) -> tuple[ShishbeshState, list[Event], LogEntry]:
        seat = state.turn
        if state.finished:
            raise IllegalActionError("the game is over")
        if state.phase == PHASE_ROLL:
            if code != ROLL.code:
                raise IllegalActionError(f"{code!r} is not legal here")
            thrown = throw_source(state.seed, dice).throw(state.throws, 2)
            state = replace(state, throws=state.throws + 1, version=state.version + 1, last_dice=thrown,
                            last_seat=seat, phase=PHASE_MOVE, dice=thrown, rolled=thrown)
            state, events = self._continue(state, seat, [Event("roll", seat, {"dice": list(thrown)})])
            return state, events, LogEntry(seat, code, thrown)
        chosen = next((m for m in self._playable(state, seat) if m.code == code), None)
        if chosen is None:
            raise IllegalActionError(f"{code!r} is not legal here")
        state, events = self._move(replace(state, version=state.version + 1), seat, chosen)
        if not state.finished:
            state, events = self._continue(state, seat, events)
        return state, events, LogEntry(seat, code)

    def _continue(self, state: ShishbeshState, seat: int, events: list[Event]) -> tuple[ShishbeshState,
                                                                                          list[Event]]:
        """Play forced moves at once (rule 2) until a choice is left, or end the turn."""
        while not state.finished and state.dice:
            moves = self._playable(state, seat)
            if not moves:
                events.append(Event("no_move", seat, {"dice": list(state.dice)}))
                break
            if len(moves) > 1:
                return state, [*events, Event("choose", seat, {"dice": list(state.dice)})]
            state, more = self._move(state, seat, moves[0])
            events += more
        if state.finished:
            return state, events
        return self._end_turn(state, seat, events)

    def _move(self, state: ShishbeshState, seat: int, move: Move) -> tuple[ShishbeshState, list[Event]]:
        geo = state.options.geometry
        _, kind, die, piece, start, target, effect = move
        k = PIECES * seat + piece
        pieces, huts = list(state.pieces), list(state.huts)
        events = [Event(kind, seat, {"piece": piece, "from": start, "to": target, "die": die})]
        bonus = state.bonus
        if effect == EFFECT_CAPTURE:  # rule 5
            victim = _occupant(state, geo.circuit_cell(state.arm(seat), target), hut=False)
            assert victim is not None
            pieces[victim], huts[victim] = PARK, False
            events.append(Event("capture", victim // PIECES, {"piece": victim % PIECES, "by": seat}))
            bonus = True
        pieces[k], huts[k] = target, effect == EFFECT_HUT
        if effect == EFFECT_HUT:
            events.append(Event("hut", seat, {"piece": piece}))
        elif effect == EFFECT_HOME and start not in geo.home:  # a piece reaches the home (a replay's moment)
            events.append(Event("home", seat, {"piece": piece}))
        dice = list(state.dice)
        dice.remove(die)
        # rule 9: only leaving the park ends a fast charge; a step inside the home keeps its count
        charges = 0 if kind == "enter" else state.charges
        state = replace(state, pieces=tuple(pieces), huts=tuple(huts), dice=tuple(dice), bonus=bonus,
                        last_move=(seat, piece, start, target), charges=charges)
        if effect == EFFECT_HOME and all(p in geo.home for p in state.of(seat)):  # rule 8
            return replace(state, finished=True, winner=seat, dice=(), phase=PHASE_ROLL), [*events, Event("win", seat)]
        return state, events

    def _end_turn(self, state: ShishbeshState, seat: int, events: list[Event]) -> tuple[ShishbeshState, list[Event]]:
        """Rule 3: another throw after a double or a capture; rule 9: fast charge; else the next seat."""
        rolled = state.rolled
        left_park = any(e.kind == "enter" for e in events)  # rule 9: what ends a charge
        base = replace(state, phase=PHASE_ROLL, dice=(), rolled=())
        if rolled[0] == rolled[1] or state.bonus:
            # a double's extra throw is not one of fast charge's three: the count stands
            return replace(base, bonus=False), [*events, Event("again", seat, {"capture": state.bonus})]
        on_circuit = any(0 <= p <= state.options.geometry.end for p in state.of(seat))
        if state.options.fast_charge and not left_park and not on_circuit and state.charges + 1 < CHARGE_THROWS:
            charges = state.charges + 1
            return replace(base, charges=charges), [*events, Event("charge", seat, {"left": CHARGE_THROWS - charges})]
        return replace(base, turn=next_seat(seat, state.seats), bonus=False, charges=0), events


ENGINE = ShishbeshEngine()


def position(state: ShishbeshState) -> tuple[object, ...]:
    """What the players see of a state, without its bookkeeping (the version, the last move): two
    orders of one throw's dice that put the same pieces in the same places (rule 2) give the same
    position, so they are one choice (the fast table plays it)."""
    return (state.pieces, state.huts, state.turn, state.phase, state.dice, state.bonus, state.charges,
            state.finished, state.winner)


def describe_position(geo: Geometry, position: int) -> tuple[int, int]:
    """(where, number) for the buttons: 0 park, 1 circuit (steps from the start), 2 home cell."""
    if position == PARK:
        return 0, 0
    if position in geo.home:
        return 2, position - geo.home[0] + 1
    return 1, position
