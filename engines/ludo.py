"""«Людо» (`ludo`): four pieces each race once round a 52-cell circuit into their lane.

Rules as settled in shared/rules/ludo.md; the numbered points below are cited in code.

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

from engines.base import (
    Action,
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
    draw_starter,
    next_seat,
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

# Effect codes carried in a move's Action args (the button shows them).
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


def _opponent_blocks(state: LudoState, seat: int) -> set[int]:
    """Rule 9: the cells where an opponent has a block (two pieces of one colour)."""
    blocks: set[int] = set()
    pieces, tables = state.pieces, _PIECE_CELLS[state.seats]
    for base in range(0, len(pieces), PIECES):
        if base == PIECES * seat:
            continue
        theirs = pieces[base:base + PIECES]
        for progress in set(theirs):
            if 0 <= progress <= LAST_CIRCUIT and theirs.count(progress) >= 2:
                blocks.add(tables[base][progress + 1])
    return blocks


def _opponents_on(cells: list[int], seat: int, cell: int) -> int:
    return sum(1 for k, c in enumerate(cells) if c == cell and k // PIECES != seat)


def find_moves(state: LudoState, seat: int, die: int) -> list[Move]:
    """Every legal move for ``die`` (rules 2, 4, 5, 7, 9); pieces in one place are one move."""
    base = PIECES * seat
    own = state.pieces[base:base + PIECES]
    table = _PIECE_CELLS[state.seats][base]
    bonuses = state.options.bonuses
    cells = _cells(state.seats, state.pieces)
    offset = ARM * COLOURS[state.seats][seat]
    blocks = _opponent_blocks(state, seat) if bonuses else set()
    moves: list[Move] = []
    seen: list[int] = []
    for piece, start in enumerate(own):
        if start == CENTRE or start in seen:
            continue
        if start == YARD:
            if die != EXIT_DIE:  # rule 2
                continue
            target, first = 0, 0
        else:
            target, first = start + die, start + 1
            if target > CENTRE:  # rule 5: exact throws only
                continue
        if bonuses:
            last = min(target, LAST_CIRCUIT)
            if any(first <= (cell - offset) % CIRCUIT <= last for cell in blocks):
                continue  # rule 9: no landing on or passing a block
            if target != CENTRE and own.count(target) >= 2:
                continue  # a block holds two
        cell = table[target + 1]
        if target == CENTRE:
            effect = EFFECT_CENTRE
        elif cell < 0:
            effect = EFFECT_NONE
        elif cell in SAFE_CELLS:
            effect = EFFECT_SAFE
        elif cell in cells and _opponents_on(cells, seat, cell) == 1:  # rule 4: a single opposing piece
            effect = EFFECT_CAPTURE
        else:
            effect = EFFECT_NONE
        seen.append(start)
        moves.append(("e" if start == YARD else _CODES[piece], piece, start, target, effect))
    moves.sort()
    return moves


def _action(move: Move) -> Action:
    """A move as the bot shows it: an exit, or (piece no., from, to, effect) counted 1..57."""
    code, piece, start, target, effect = move
    if start == YARD:
        return Action(code, "exit")
    return Action(code, "move", (piece + 1, start + 1, target + 1, effect))


def move_actions(state: LudoState, seat: int, die: int) -> list[Action]:
    """The legal moves for a throw (rule 7): exit ``e`` and/or move ``p<i>``."""
    return [_action(m) for m in find_moves(state, seat, die)]


class LudoEngine(RulesEngine[LudoState, LudoOptions]):
    """The `ludo` engine (see the module docstring for the rules)."""

    code = "ludo"
    options_type, state_type = LudoOptions, LudoState
    min_players, max_players = SEATS_RANGE

    def new_game(self, options: LudoOptions, seats: int, seed: str) -> tuple[LudoState, list[Event]]:
        options.validate(seats)
        starter = draw_starter(seed, seats)
        state = LudoState(seed=seed, options=options, seats=seats, pieces=(YARD,) * (PIECES * seats),
                          turn=starter, phase=PHASE_ROLL, sixes=0, throws=1, version=0)
        return state, [Event("starter", starter)]

    def legal_actions(self, state: LudoState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == PHASE_MOVE:
            return [_action(m) for m in state.moves]
        return [ROLL]

    def outcome(self, state: LudoState) -> Outcome | None:
        if not state.finished or state.winner is None:
            return None

        ranking = rank_after(state.winner, state.seats, lambda seat: sum(p + 1 for p in state.of(seat)))
        return Outcome("win", winners=(state.winner,), ranking=ranking)

    def apply(self, state: LudoState, code: str) -> tuple[LudoState, list[Event], LogEntry]:
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
                              LogEntry(seat, code))
        if code != ROLL.code:
            raise IllegalActionError(f"{code!r} is not legal here")
        die = dice_source(state.seed).die(state.throws)
        sixes = state.sixes + 1 if die == EXIT_DIE else 0
        events = [Event("roll", seat, {"die": die})]
        entry = LogEntry(seat, code, (die,))
        throws, last_dice = state.throws + 1, (die,)
        if sixes == THIRD_SIX:  # rule 3: the turn burns
            events.append(Event("third_six", seat))
            return self._next(state, next_seat(seat, state.seats), 0, throws, last_dice), events, entry
        moves = find_moves(state, seat, die)
        if len(moves) == 1:  # rule 7: a forced move is made with the throw
            return self._play(state, seat, die, moves[0], sixes, throws, last_dice, events, entry)
        if moves:
            events.append(Event("choose", seat))
            waiting = LudoState(state.seed, state.options, state.seats, state.pieces, seat, PHASE_MOVE, sixes,
                                throws, state.version + 1, die, tuple(moves), last_dice, seat, state.last_move)
            return waiting, events, entry
        events.append(Event("no_move", seat))
        if die == EXIT_DIE:  # rule 3: a 6 throws again, even with nothing to move
            events.append(Event("again", seat, {"bonus": False}))
            return self._next(state, seat, sixes, throws, last_dice), events, entry
        return self._next(state, next_seat(seat, state.seats), 0, throws, last_dice), events, entry

    @staticmethod
    def _next(state: LudoState, turn: int, sixes: int, throws: int, last_dice: tuple[int, ...],
              pieces: tuple[int, ...] | None = None, last_move: tuple[int, ...] | None = None,
              winner: int | None = None) -> LudoState:
        """The state after an action, ready for a throw (or finished when ``winner`` is set)."""
        return LudoState(state.seed, state.options, state.seats, state.pieces if pieces is None else pieces, turn,
                         PHASE_ROLL, sixes, throws, state.version + 1, 0, (), last_dice, state.turn,
                         state.last_move if last_move is None else last_move, winner is not None, winner)

    def _play(self, state: LudoState, seat: int, die: int, move: Move, sixes: int, throws: int,
              last_dice: tuple[int, ...], events: list[Event], entry: LogEntry) -> tuple[LudoState, list[Event],
                                                                                         LogEntry]:
        _, piece, start, target, effect = move
        base = PIECES * seat
        pieces = list(state.pieces)
        events.append(Event("exit" if start == YARD else "move", seat=seat,
                            data={"piece": piece, "from": start, "to": target}))
        if effect == EFFECT_CAPTURE:  # rule 4
            cell = _PIECE_CELLS[state.seats][base][target + 1]
            cells = _cells(state.seats, state.pieces)
            (victim,) = [k for k, c in enumerate(cells) if c == cell and k // PIECES != seat]
            pieces[victim] = YARD
            events.append(Event("capture", seat=victim // PIECES, data={"piece": victim % PIECES, "by": seat}))
        pieces[base + piece] = target
        moved, last_move = tuple(pieces), (seat, piece, start, target)
        if target == CENTRE:
            events.append(Event("centre", seat, {"piece": piece}))
            if moved[base:base + PIECES] == (CENTRE,) * PIECES:  # rule 5
                events.append(Event("win", seat))
                return self._next(state, seat, sixes, throws, last_dice, moved, last_move, winner=seat), events, entry
        bonus = state.options.bonuses and effect in (EFFECT_CAPTURE, EFFECT_CENTRE)  # rule 8
        if die == EXIT_DIE or bonus:  # rule 3 / rule 8: throw again
            events.append(Event("again", seat, {"bonus": die != EXIT_DIE}))
            return self._next(state, seat, sixes, throws, last_dice, moved, last_move), events, entry
        return self._next(state, next_seat(seat, state.seats), 0, throws, last_dice, moved, last_move), events, entry


ENGINE = LudoEngine()
