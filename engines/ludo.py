"""«Людо» (`ludo`): four pieces each race once round a 52-cell circuit into their lane.

Rules as settled in docs/rules/ludo.md; the numbered points below are cited in code.

1. A 52-cell circuit played clockwise; each colour has a start cell (13 × colour) and a
   star 8 cells after it. Start cells and stars are safe cells.
2. A piece leaves the yard only on a 6, onto its own start cell.
3. A 6 gives another throw; the third 6 in a row ends the turn at once and is not played
   (the earlier moves of the turn stand).
4. Landing on a single opposing piece sends it back to its yard (own pieces on the cell do
   not shield it), except on a safe cell, where pieces of different colours share.
5. After a full lap (51 cells) a piece turns into its own lane of 5 cells, where nobody
   else goes; from there on only exact throws: a throw larger than what is left cannot be
   played with that piece. All four pieces in the centre win.
6. Two own pieces may share a cell (base game: no effect).
7. If the throw can be played it must be; only legal moves are offered.
Option ``bonuses`` («Людо с бонусами»):
8. A capture, and bringing a piece into the centre, give another throw; these do not count
   toward the three sixes of rule 3.
9. Two own pieces on one cell form a block: opponents can neither land on it nor pass it.

Settled here where the texts are silent: the first player is drawn from the dice source
(throw 0); with two players the colours sit opposite (seats take colours 0 and 2); a 6
with no legal move still gives another throw (rule 3 speaks of the throw); landing on two
or more opposing pieces (possible only in the base game) captures nothing and the pieces
share the cell; with ``bonuses`` a block holds exactly two pieces, so a third own piece
may not join it, in the lane and at the start cell too; an opposing block on a safe cell
still blocks; pieces in one place are one choice (the lowest number); the losers rank by
the steps their pieces have made.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import getitem
from types import MappingProxyType

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
    dice_source,
    rank_after,
)

SEATS_RANGE = (2, 4)
PIECES = 4
CIRCUIT = 52
ARM = 13  # circuit cells between two start cells
STAR = 8  # rule 1: a star 8 cells after each start cell
YARD = -1
LAST_CIRCUIT = 50  # rule 5: progress 0..50 on the circuit (51 cells)
CENTRE = 56  # progress 51..55: the lane; 56: the centre
EXIT_DIE = 6
THIRD_SIX = 3
ROLL = Action(code="r", kind="roll")
COLOURS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # two players sit opposite
SAFE_CELLS = frozenset(ARM * c + k for c in range(4) for k in (0, STAR))  # rule 1

PHASE_ROLL = "roll"
PHASE_MOVE = "move"

# Effect codes carried in a move's Action args as "effect" (the button shows them).
EFFECT_NONE, EFFECT_CAPTURE, EFFECT_CENTRE, EFFECT_SAFE = range(4)

# progress + 1 -> circuit cell (or -1 off the circuit), per colour: the hot path looks cells up
_CELLS = tuple(tuple((ARM * c + p) % CIRCUIT if 0 <= p <= LAST_CIRCUIT else -1 for p in range(YARD, CENTRE + 1))
               for c in range(4))
_CODES = tuple(f"p{i}" for i in range(PIECES))
# per seat count: the cell table of each piece's colour, piece by piece
_PIECE_CELLS = {seats: tuple(_CELLS[c] for c in colours for _ in range(PIECES)) for seats, colours in COLOURS.items()}


def cell_of(colour: int, progress: int) -> int | None:
    """The circuit cell (0..51) of a piece at ``progress``, or None in the yard, lane or centre."""
    cell = _CELLS[colour][progress + 1]
    return None if cell < 0 else cell


@dataclass(frozen=True, slots=True)
class LudoOptions(JsonData):
    """Lobby settings: ``bonuses`` is «Людо с бонусами»."""

    bonuses: bool = False

    def validate(self, seats: int | None = None) -> None:
        if not isinstance(self.bonuses, bool):
            raise OptionsError("bonuses", "not a yes/no value")
        check_seats(seats, SEATS_RANGE)


# A pending move: (code, piece, from, to, effect).
Move = tuple[str, int, int, int, int]


@dataclass(slots=True)
class LudoState(TurnState, JsonData):
    """Whole game state. ``pieces[4 * seat + i]`` is the progress of piece i of a seat:
    YARD, 0..50 on the circuit from its start cell, 51..55 in its lane, CENTRE.

    Not frozen, for speed (a frozen dataclass costs five times as much to build, and the
    engine builds one per action); the engine never changes a state it was given.
    """

    seed: str
    options: LudoOptions
    seats: int
    pieces: tuple[int, ...]
    turn: int
    phase: str  # PHASE_ROLL, or PHASE_MOVE with ``die`` and its ``moves`` waiting for a choice
    sixes: int  # sixes thrown in a row this turn (rule 3)
    throws: int  # index of the next DiceSource throw
    version: int  # actions applied
    die: int = 0
    moves: tuple[Move, ...] = ()
    last_dice: tuple[int, ...] = ()
    last_seat: int | None = None
    last_move: tuple[int, ...] = ()  # seat, piece, from, to
    finished: bool = False
    winner: int | None = None

    def colour(self, seat: int) -> int:
        return COLOURS[self.seats][seat]

    def of(self, seat: int) -> tuple[int, ...]:
        """A seat's pieces, in order."""
        return self.pieces[PIECES * seat:PIECES * seat + PIECES]

    def on_cell(self, cell: int) -> list[tuple[int, int]]:
        """(seat, piece) of every piece on circuit cell ``cell``."""
        return [divmod(k, PIECES) for k, c in enumerate(_cells(self.seats, self.pieces)) if c == cell]


def _cells(seats: int, pieces: tuple[int, ...]) -> list[int]:
    """The circuit cell of every piece (-1 when off the circuit)."""
    return [table[p + 1] for table, p in zip(_PIECE_CELLS[seats], pieces)]  # noqa: B905 - equal by construction


# find_moves runs once per throw, so what it needs about the board is looked up, not derived.
# A target's effect by its progress; safe cells sit at the same distances from every start
# cell (they repeat every ARM cells), so one table serves all colours. _OPEN: a plain circuit
# cell, where a single opposing piece is captured (rule 4).
_OPEN = -1
_TARGET_KIND = tuple(EFFECT_CENTRE if p == CENTRE else EFFECT_NONE if p > LAST_CIRCUIT
                     else EFFECT_SAFE if p % ARM in (0, STAR) else _OPEN for p in range(CENTRE + 1))


def _step(start: int, die: int) -> tuple[int, range, int] | None:
    """Where a piece at ``start`` goes with ``die``: (target, the circuit places it passes and
    lands on, the target's effect or _OPEN), or None when it cannot move (rules 2 and 5)."""
    if start == CENTRE:
        return None
    if start == YARD:
        if die != EXIT_DIE:  # rule 2
            return None
        target, first = 0, 0
    else:
        target, first = start + die, start + 1
        if target > CENTRE:  # rule 5: exact throws only
            return None
    return target, range(first, min(target, LAST_CIRCUIT) + 1), _TARGET_KIND[target]


def _made(die: int, start: int) -> tuple[int, range, int, tuple[tuple[Move, Move], ...]] | None:
    """:func:`_step`, and the move ready-made for each piece that could make it: (its Move if
    it captures nothing, its Move if it captures), equal unless the target is _OPEN."""
    step = _step(start, die)
    if step is None:
        return None
    target, path, effect = step
    made = []
    for piece in range(PIECES):
        code = "e" if start == YARD else _CODES[piece]
        if effect == _OPEN:
            made.append(((code, piece, start, target, EFFECT_NONE), (code, piece, start, target, EFFECT_CAPTURE)))
        else:
            move = (code, piece, start, target, effect)
            made.append((move, move))
    return target, path, effect, tuple(made)


# [die][progress]: _made, the yard's entry last (see _relative_tables): find_moves builds no tuple
_MOVES = tuple(tuple(_made(die, p) for p in (*range(CENTRE + 1), YARD)) for die in range(EXIT_DIE + 1))


def _relative_tables(seats: int, seat: int) -> tuple[tuple[int, ...], ...]:
    """Per piece k: progress -> where its cell lies on ``seat``'s own track (0..51 from the
    seat's start cell, so a target's place is the seat's progress there). A piece off the
    circuit, and every piece of ``seat`` itself, maps to -(k + 1): a value of that piece
    alone, so equal values only ever mean opposing pieces sharing a cell. The yard's entry
    is last, so a table is indexed by the progress itself (YARD == -1 picks the last entry)."""
    colours = COLOURS[seats]
    offset = ARM * colours[seat]
    tables = []
    for k in range(PIECES * seats):
        owner = k // PIECES
        start = ARM * colours[owner]
        tables.append(tuple((start + p - offset) % CIRCUIT if owner != seat and 0 <= p <= LAST_CIRCUIT
                            else -(k + 1) for p in (*range(CENTRE + 1), YARD)))
    return tuple(tables)


# per seat count, per seat: the tables above, and the first piece index of every opponent
_RELATIVE = {seats: tuple((_relative_tables(seats, seat),
                           tuple(PIECES * other for other in range(seats) if other != seat))
                          for seat in range(seats)) for seats in COLOURS}


def _blocks(rel: list[int], opponents: tuple[int, ...]) -> set[int]:
    """Rule 9: the places (``rel``'s values) of two opposing pieces of one colour; off the circuit
    no two values of ``rel`` are equal."""
    blocks: set[int] = set()
    for first in opponents:
        # six comparisons beat any general grouping (and chained == beats building a tuple)
        a, b, c, d = rel[first:first + PIECES]
        if a == b or a == c or a == d:  # noqa: SIM109
            blocks.add(a)
        if b == c or b == d:  # noqa: SIM109
            blocks.add(b)
        if c == d:
            blocks.add(c)
    return blocks


def find_moves(state: LudoState, seat: int, die: int) -> list[Move]:
    """Every legal move for ``die`` (rules 2, 4, 5, 7, 9); pieces in one place are one move."""
    pieces = state.pieces
    base = PIECES * seat
    own = pieces[base:base + PIECES]
    # Every piece's place as seen from this seat's track; opponents on a target: rel.count(target).
    # Built on first need: it is half the cost of a call, and a throw with no move onto an
    # open cell (rule 4) of the base game never needs it.
    tables, opponents = _RELATIVE[state.seats][seat]
    rel: list[int] | None = None
    blocks: set[int] | None = None  # with bonuses only (rule 9)
    if state.options.bonuses:
        rel = list(map(getitem, tables, pieces))
        blocks = _blocks(rel, opponents)
    moves: list[Move] = []
    row = _MOVES[die]
    for piece, start in enumerate(own):
        entry = row[start]
        if entry is None or own.index(start) != piece:  # pieces in one place: the lowest number moves
            continue
        target, path, effect, made = entry
        if blocks is not None:
            if blocks and not blocks.isdisjoint(path):
                continue  # rule 9: no landing on or passing a block
            if target != CENTRE and own.count(target) >= 2:
                continue  # a block holds two
        if effect == _OPEN:  # rule 4: a single opposing piece
            if rel is None:
                rel = list(map(getitem, tables, pieces))
            move = made[piece][rel.count(target) == 1]
        else:
            move = made[piece][0]
        if start == YARD:  # codes sort e < p0 < p1 < ...: the exit comes first
            moves.insert(0, move)
        else:
            moves.append(move)
    return moves


def _action(move: Move) -> Action:
    """A move as the bot shows it: an exit, or the piece (numbered from 1), from and to
    (progress counted 1..57) and the effect of arriving."""
    code, piece, start, target, effect = move
    if start == YARD:
        return Action(code, "exit")
    return Action(code, "move", {"piece": piece + 1, "start": start + 1, "to": target + 1, "effect": effect})


class _ActionCache(dict[Move, Action]):
    """Move -> its Action, built on first use: legal_actions is asked after every action, and
    there are only a few thousand distinct moves (Actions are immutable, so sharing is safe)."""

    def __missing__(self, move: Move) -> Action:
        action = self[move] = _action(move)
        return action


_ACTIONS = _ActionCache()


def move_actions(state: LudoState, seat: int, die: int) -> list[Action]:
    """The legal moves for a throw (rule 7): exit ``e`` and/or move ``p<i>``."""
    return [_ACTIONS[m] for m in find_moves(state, seat, die)]


# Log entries and events without data are immutable (named tuples of ints and strings), so the
# hot path shares ready-made ones instead of building them per action.
_SEATS = range(SEATS_RANGE[1])
_ROLL_ENTRIES = tuple(tuple(LogEntry(seat, ROLL.code, (die,)) for die in range(EXIT_DIE + 1)) for seat in _SEATS)
_MOVE_ENTRIES = tuple({code: LogEntry(seat, code) for code in ("e", *_CODES)} for seat in _SEATS)
_PLAIN_EVENTS = {kind: tuple(Event(kind, seat) for seat in _SEATS) for kind in ("third_six", "choose", "no_move")}
# Events with data are shared too where the data is read-only (as Event's own default is): the throw,
# and the throw again of rule 3 (bonus False) or of rule 8 (bonus True).
_ROLL_EVENTS = tuple(tuple(Event("roll", seat, MappingProxyType({"die": die})) for die in range(EXIT_DIE + 1))
                     for seat in _SEATS)
_AGAIN_EVENTS = tuple(tuple(Event("again", seat, MappingProxyType({"bonus": bonus})) for bonus in (False, True))
                      for seat in _SEATS)


class _MoveEvents(dict[Move, Event]):
    """One seat's move -> its «exit» or «move» event, built on first use like _ACTIONS."""

    def __init__(self, seat: int) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, move: Move) -> Event:
        _, piece, start, target, _ = move
        data = MappingProxyType({"piece": piece, "from": start, "to": target})
        event = self[move] = Event("exit" if start == YARD else "move", self.seat, data)
        return event


_MOVE_EVENTS = tuple(_MoveEvents(seat) for seat in _SEATS)
_ALL_CENTRE = (CENTRE,) * PIECES


class LudoEngine(RulesEngine[LudoState, LudoOptions]):
    """The `ludo` engine (see the module docstring for the rules).

    Nobody is ever skipped, so the next seat is ``(seat + 1) % seats`` (base.next_seat
    without its skip loop: this runs after nearly every action)."""

    code = "ludo"
    options_type, state_type = LudoOptions, LudoState
    min_players, max_players = SEATS_RANGE

    def opening(self, options: LudoOptions, seats: int, seed: str, starter: int) -> LudoState:
        state = LudoState(seed=seed, options=options, seats=seats, pieces=(YARD,) * (PIECES * seats),
                          turn=starter, phase=PHASE_ROLL, sixes=0, throws=1, version=0)
        return state

    def legal_actions(self, state: LudoState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == PHASE_MOVE:
            return list(map(_ACTIONS.__getitem__, state.moves))
        return [ROLL]

    def outcome(self, state: LudoState) -> Outcome | None:
        if not state.finished or state.winner is None:
            return None

        def progress(seat: int) -> tuple[int, int]:  # pieces in the centre, then steps made
            own = state.of(seat)
            return own.count(CENTRE), sum(p + 1 for p in own)

        ranking = rank_after(state.winner, state.seats, progress)
        return Outcome("win", winners=(state.winner,), ranking=ranking)

    def apply(self, state: LudoState, code: str,
              dice: Dice | None = None) -> tuple[LudoState, list[Event], LogEntry]:
        seat = state.turn
        if state.finished:
            raise IllegalActionError("the game is over")
        if state.phase == PHASE_MOVE:
            for move in state.moves:
                if move[0] == code:
                    break
            else:
                raise IllegalActionError(f"{code!r} is not legal here")
            return self._play(state, seat, state.die, move, state.sixes, state.throws, state.last_dice, [],
                              _MOVE_ENTRIES[seat][code])
        if code != ROLL.code:
            raise IllegalActionError(f"{code!r} is not legal here")
        die = (dice_source(state.seed) if dice is None else dice).die(state.throws)  # throw_source, inlined
        sixes = state.sixes + 1 if die == EXIT_DIE else 0
        events = [_ROLL_EVENTS[seat][die]]
        entry = _ROLL_ENTRIES[seat][die]
        throws, last_dice = state.throws + 1, entry.dice
        if sixes == THIRD_SIX:  # rule 3: the turn burns
            events.append(_PLAIN_EVENTS["third_six"][seat])
            return _next(state, (seat + 1) % state.seats, 0, throws, last_dice, state.pieces,
                         state.last_move), events, entry
        moves = find_moves(state, seat, die)
        if len(moves) == 1:  # rule 7: a forced move is made with the throw
            return self._play(state, seat, die, moves[0], sixes, throws, last_dice, events, entry)
        if moves:
            events.append(_PLAIN_EVENTS["choose"][seat])
            waiting = LudoState(state.seed, state.options, state.seats, state.pieces, seat, PHASE_MOVE, sixes,
                                throws, state.version + 1, die, tuple(moves), last_dice, seat, state.last_move)
            return waiting, events, entry
        events.append(_PLAIN_EVENTS["no_move"][seat])
        if die == EXIT_DIE:  # rule 3: a 6 throws again, even with nothing to move
            events.append(_AGAIN_EVENTS[seat][False])
            return _next(state, seat, sixes, throws, last_dice, state.pieces, state.last_move), events, entry
        return _next(state, (seat + 1) % state.seats, 0, throws, last_dice, state.pieces,
                     state.last_move), events, entry

    @staticmethod
    def _play(state: LudoState, seat: int, die: int, move: Move, sixes: int, throws: int,
              last_dice: tuple[int, ...], events: list[Event], entry: LogEntry) -> tuple[LudoState, list[Event],
                                                                                         LogEntry]:
        _, piece, start, target, effect = move
        base = PIECES * seat
        pieces = list(state.pieces)
        events.append(_MOVE_EVENTS[seat][move])
        if effect == EFFECT_CAPTURE:  # rule 4
            cell = _PIECE_CELLS[state.seats][base][target + 1]
            cells = _cells(state.seats, state.pieces)
            (victim,) = [k for k, c in enumerate(cells) if c == cell and k // PIECES != seat]
            pieces[victim] = YARD
            events.append(Event("capture", victim // PIECES, {"piece": victim % PIECES, "by": seat}))
        pieces[base + piece] = target
        moved, last_move = tuple(pieces), (seat, piece, start, target)
        if target == CENTRE:
            events.append(Event("centre", seat, {"piece": piece}))
            if moved[base:base + PIECES] == _ALL_CENTRE:  # rule 5
                events.append(Event("win", seat))
                return _next(state, seat, sixes, throws, last_dice, moved, last_move, seat), events, entry
        bonus = state.options.bonuses and effect in (EFFECT_CAPTURE, EFFECT_CENTRE)  # rule 8
        if die == EXIT_DIE or bonus:  # rule 3 / rule 8: throw again
            events.append(_AGAIN_EVENTS[seat][die != EXIT_DIE])
            return _next(state, seat, sixes, throws, last_dice, moved, last_move), events, entry
        return _next(state, (seat + 1) % state.seats, 0, throws, last_dice, moved, last_move), events, entry


def _next(state: LudoState, turn: int, sixes: int, throws: int, last_dice: tuple[int, ...], pieces: tuple[int, ...],
          last_move: tuple[int, ...], winner: int | None = None) -> LudoState:
    """The state after an action, ready for a throw (or finished when ``winner`` is set)."""
    return LudoState(state.seed, state.options, state.seats, pieces, turn, PHASE_ROLL, sixes, throws,
                     state.version + 1, 0, (), last_dice, state.turn, last_move, winner is not None, winner)


ENGINE = LudoEngine()
