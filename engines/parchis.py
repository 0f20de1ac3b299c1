"""«Парчис» (`parchis`, Spanish parchís): four pieces each, 68 numbered cells, barriers and bonuses.

Rules as settled in docs/rules/parchis.md; the numbered points below are cited in code.

1. 68 numbered circuit cells; colour c exits at 5 + 17c (5, 22, 39, 56) and turns into its
   corridor after cell exit − 5 (68, 17, 34, 51): 7 corridor cells, then the centre (8
   steps after the turn-off cell). Seguros: 5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68,
   and every corridor cell.
2. At most two pieces on any cell but home and the centre; a move onto a full cell is
   illegal.
3. A piece leaves home on a 5, and must while one is at home and the exit allows it. Two
   own pieces on the exit: the 5 is played elsewhere. An opponent on the exit (alone or
   with an own piece) is captured; of two opponents the one that arrived last is.
4. A 6 gives another throw; with no piece at home (pieces in the centre are out) it counts
   as 7. The third 6 in a row sends the piece moved last home (unless it is in its
   corridor or the centre) and is not played.
5. Ending on a lone opposing piece outside the seguros captures it (rule 3 is the only
   capture on a seguro): it goes home, and the captor counts 20 with any one piece (not at
   home), played at once. Reaching the centre counts 10 the same way. A bonus no piece can
   use is lost.
6. On a seguro two pieces of different colours share the cell.
7. Two pieces of one colour on a cell (not home, not the centre) are a barrier: nobody
   passes it, its owner included. On a 6 (or 7) a player with a barrier must open one if a
   legal move does so; with several, they choose which.
8. The centre needs an exact count.
9. The first to bring all four pieces to the centre wins; the others rank by progress.

Settled here where the texts are silent: the first player is drawn from the dice source
(throw 0); with two players the colours sit opposite (colours 0 and 2); a 6 with no legal
move still gives another throw; "the piece moved last" is the last piece moved in this
turn (none moved: nothing goes home); a capture on the exit (rule 3) earns the 20 as any
capture does; bonuses chain (a bonus move that captures earns 20 more); the extra throw of
a 6 comes after its bonuses; pieces in one place are one choice (the lowest number).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any

from engines.base import (
    Action,
    Dice,
    Event,
    IllegalActionError,
    JsonData,
    LogEntry,
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
CELLS = 68
HOME = -1
LAST_CIRCUIT = 63  # progress 0 (the exit) .. 63 (the turn-off cell) on the circuit
CENTRE = 71  # progress 64..70: the corridor; 71: the centre
EXIT_DIE = 5
SIX = 6
SIX_AS = 7  # rule 4: a 6 counts 7 with nobody at home
THIRD_SIX = 3
CAPTURE_BONUS = 20  # rule 5
CENTRE_BONUS = 10
CAPACITY = 2  # rule 2
ROLL = Action(code="r", kind="roll")
COLOURS = {2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}  # two players sit opposite
SEGUROS = frozenset((5, 12, 17, 22, 29, 34, 39, 46, 51, 56, 63, 68))  # rule 1

PHASE_ROLL = "roll"
PHASE_MOVE = "move"

# Effect codes carried in a move's Action args as "effect" (the button shows them).
EFFECT_NONE, EFFECT_CAPTURE, EFFECT_CENTRE, EFFECT_SAFE = range(4)
# Where a position is, for the buttons: circuit (numbered cell), corridor (1..7), centre.
WHERE_HOME, WHERE_CIRCUIT, WHERE_CORRIDOR, WHERE_CENTRE = range(4)


def exit_cell(colour: int) -> int:
    return 5 + 17 * colour


def cell_number(colour: int, progress: int) -> int | None:
    """The circuit cell number (1..68) of a piece at ``progress``, None off the circuit."""
    if 0 <= progress <= LAST_CIRCUIT:
        return (exit_cell(colour) - 1 + progress) % CELLS + 1
    return None


def _key(colour: int, progress: int) -> int:
    """Where a piece stands, as one number: 1..68 on the circuit, 100 + 10c + k in corridor
    cell k of colour c, -1 at home or in the centre (no capacity there)."""
    if progress in (HOME, CENTRE):
        return -1
    if progress <= LAST_CIRCUIT:
        return (exit_cell(colour) - 1 + progress) % CELLS + 1
    return 100 + 10 * colour + progress - LAST_CIRCUIT


_KEYS = tuple(tuple(_key(c, p) for p in range(HOME, CENTRE + 1)) for c in range(4))  # progress + 1 -> key
_PIECE_KEYS = {seats: tuple(_KEYS[c] for c in colours for _ in range(PIECES)) for seats, colours in COLOURS.items()}
_SAFE_KEYS = SEGUROS | {100 + 10 * c + k for c in range(4) for k in range(1, 8)}  # rule 1: corridors are safe
_CODES = tuple(f"p{i}" for i in range(PIECES))


def describe_position(colour: int, progress: int) -> tuple[int, int]:
    """(where, number) for the buttons: a circuit cell number, a corridor cell 1..7, or the centre."""
    if progress == HOME:
        return WHERE_HOME, 0
    if progress == CENTRE:
        return WHERE_CENTRE, 0
    if progress <= LAST_CIRCUIT:
        return WHERE_CIRCUIT, (exit_cell(colour) - 1 + progress) % CELLS + 1
    return WHERE_CORRIDOR, progress - LAST_CIRCUIT


@dataclass(frozen=True, slots=True)
class ParchisOptions(JsonData):
    """Parchís has no variants here; the class keeps the engine contract."""

    def validate(self, seats: int | None = None) -> None:
        check_seats(seats, SEATS_RANGE)


# A pending move: (code, piece, from, to, effect).
Move = tuple[str, int, int, int, int]


@dataclass(slots=True)
class ParchisState(TurnState, JsonData):
    """Whole game state. ``pieces[4 * seat + i]``: HOME, 0..63 on the circuit from the exit,
    64..70 in the corridor, CENTRE. ``stamps`` order arrivals (rule 3: who came last).

    Not frozen, for speed (as in engines/ludo.py); the engine never changes a given state.
    """

    seed: str
    options: ParchisOptions
    seats: int
    pieces: tuple[int, ...]
    stamps: tuple[int, ...]
    turn: int
    phase: str  # PHASE_ROLL, or PHASE_MOVE with ``count`` and its ``moves`` waiting
    sixes: int  # sixes thrown in a row this turn (rule 4)
    throws: int  # index of the next DiceSource throw
    version: int  # actions applied
    count: int = 0  # the count to play: a throw, 7 for a 6, or a bonus
    bonus: bool = False  # the pending count is a bonus (rule 5)
    again: bool = False  # the throw being played was a 6: throw again after it and its bonuses
    moves: tuple[Move, ...] = ()
    moved: int = -1  # the piece moved last in this turn (rule 4)
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


def _keys(state: ParchisState) -> list[int]:
    return [table[p + 1] for table, p in zip(_PIECE_KEYS[state.seats], state.pieces)]  # noqa: B905 - same length


def _barriers(keys: list[int]) -> set[int]:
    """Rule 7: the cells holding two pieces of one colour."""
    barriers: set[int] = set()
    for base in range(0, len(keys), PIECES):
        own = [k for k in keys[base:base + PIECES] if k >= 0]
        barriers.update(k for k in own if own.count(k) >= CAPACITY)
    return barriers


def find_moves(state: ParchisState, seat: int, count: int, bonus: bool) -> list[Move]:
    """Every legal move of ``count`` (rules 2, 3, 5, 7, 8); pieces in one place are one move."""
    base = PIECES * seat
    own = state.pieces[base:base + PIECES]
    table = _PIECE_KEYS[state.seats][base]
    keys = _keys(state)
    barriers = _barriers(keys)
    moves: list[Move] = []
    if not bonus and count == EXIT_DIE and HOME in own:  # rule 3
        exit_key = table[1]
        if sum(1 for k in keys[base:base + PIECES] if k == exit_key) < CAPACITY:
            captured = _exit_victim(state, seat, keys)
            piece = own.index(HOME)
            return [("e", piece, HOME, 0, EFFECT_NONE if captured is None else EFFECT_CAPTURE)]  # compulsory
    seen: list[int] = []
    for piece, start in enumerate(own):
        if start in (HOME, CENTRE) or start in seen:
            continue
        target = start + count
        if target > CENTRE:  # rule 8
            continue
        if any(table[step + 1] in barriers for step in range(start + 1, target)):  # rule 7: nobody passes
            continue
        key = table[target + 1]
        if target == CENTRE:
            effect = EFFECT_CENTRE
        else:
            here = keys.count(key)
            if here >= CAPACITY:  # rule 2
                continue
            if key in _SAFE_KEYS:
                effect = EFFECT_SAFE
            elif here == 1 and keys.index(key) // PIECES != seat:  # rule 5
                effect = EFFECT_CAPTURE
            else:
                effect = EFFECT_NONE
        seen.append(start)
        moves.append((_CODES[piece], piece, start, target, effect))
    if not bonus and count in (SIX, SIX_AS):  # rule 7: a 6 must open a barrier if it can
        opening = [m for m in moves if table[m[2] + 1] in barriers and own.count(m[2]) >= CAPACITY]
        if opening:
            moves = opening
    return moves


def _exit_victim(state: ParchisState, seat: int, keys: list[int]) -> int | None:
    """Rule 3: the opponent's piece captured by coming out, if any (the last to arrive)."""
    exit_key = _PIECE_KEYS[state.seats][PIECES * seat][1]
    there = [k for k, key in enumerate(keys) if key == exit_key and k // PIECES != seat]
    if not there:
        return None
    return max(there, key=lambda k: state.stamps[k])


def _action(state: ParchisState, move: Move) -> Action:
    """A move as the bot shows it: an exit with its effect, or the piece (numbered from 1),
    where it goes from and to (:func:`describe_position`: ``*_where`` and the number), the
    effect, and the bonus count it plays (0 for a throw)."""
    code, piece, start, target, effect = move
    if start == HOME:
        return Action(code, "exit", {"effect": effect})
    colour = state.colour(state.turn)
    start_where, start_number = describe_position(colour, start)
    to_where, to_number = describe_position(colour, target)
    return Action(code, "move", {"piece": piece + 1, "start_where": start_where, "start": start_number,
                                 "to_where": to_where, "to": to_number, "effect": effect,
                                 "bonus": state.count if state.bonus else 0})


class ParchisEngine(RulesEngine[ParchisState, ParchisOptions]):
    """The `parchis` engine (see the module docstring for the rules)."""

    code = "parchis"
    options_type, state_type = ParchisOptions, ParchisState
    min_players, max_players = SEATS_RANGE

    def opening(self, options: ParchisOptions, seats: int, seed: str, starter: int) -> ParchisState:
        state = ParchisState(seed=seed, options=options, seats=seats, pieces=(HOME,) * (PIECES * seats),
                             stamps=(0,) * (PIECES * seats), turn=starter, phase=PHASE_ROLL, sixes=0, throws=1,
                             version=0)
        return state

    def legal_actions(self, state: ParchisState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == PHASE_MOVE:
            return [_action(state, m) for m in state.moves]
        return [ROLL]

    def outcome(self, state: ParchisState) -> Outcome | None:
        if not state.finished or state.winner is None:
            return None

        def progress(seat: int) -> tuple[int, int]:  # pieces in the centre, then steps made
            own = state.of(seat)
            return own.count(CENTRE), sum(p + 1 for p in own)

        ranking = rank_after(state.winner, state.seats, progress)
        return Outcome("win", winners=(state.winner,), ranking=ranking)  # rule 9

    def apply(self, state: ParchisState, code: str,
              dice: Dice | None = None) -> tuple[ParchisState, list[Event], LogEntry]:
        seat = state.turn
        if state.finished:
            raise IllegalActionError("the game is over")
        if state.phase == PHASE_MOVE:
            for move in state.moves:
                if move[0] == code:
                    break
            else:
                raise IllegalActionError(f"{code!r} is not legal here")
            state, events = self._play(state, seat, move, [])
            return state, events, LogEntry(seat, code)
        if code != ROLL.code:
            raise IllegalActionError(f"{code!r} is not legal here")
        die = throw_source(state.seed, dice).die(state.throws)
        sixes = state.sixes + 1 if die == SIX else 0
        events = [Event("roll", seat, {"die": die})]
        entry = LogEntry(seat, code, (die,))
        rolled = self._copy(state, throws=state.throws + 1, version=state.version + 1, last_dice=(die,),
                            last_seat=seat, sixes=sixes)
        if sixes == THIRD_SIX:  # rule 4: the last piece moved goes home, the throw is not played
            pieces = list(state.pieces)
            if state.moved >= 0 and 0 <= pieces[PIECES * seat + state.moved] <= LAST_CIRCUIT:
                pieces[PIECES * seat + state.moved] = HOME
                events.append(Event("third_six", seat, {"piece": state.moved}))
            else:
                events.append(Event("third_six", seat, {"piece": None}))
            return self._end_turn(self._copy(rolled, pieces=tuple(pieces))), events, entry
        count = SIX_AS if die == SIX and HOME not in state.of(seat) else die  # rule 4
        if count != die:
            events.append(Event("six_as_seven", seat))
        rolled = self._copy(rolled, again=die == SIX)
        state, more = self._offer(rolled, seat, count, bonus=False)
        return state, events + more, entry

    def _offer(self, state: ParchisState, seat: int, count: int, bonus: bool) -> tuple[ParchisState, list[Event]]:
        """Play a count: no move, a forced move at once, or a choice left to the player."""
        moves = find_moves(state, seat, count, bonus)
        if len(moves) == 1:
            return self._play(self._copy(state, count=count, bonus=bonus), seat, moves[0], [])
        if moves:
            waiting = self._copy(state, phase=PHASE_MOVE, count=count, bonus=bonus, moves=tuple(moves))
            return waiting, [Event("choose", seat, {"count": count, "bonus": bonus})]
        events = [Event("bonus_lost" if bonus else "no_move", seat, {"count": count})]
        return self._after(state, seat), events

    def _play(self, state: ParchisState, seat: int, move: Move, events: list[Event]) -> tuple[ParchisState,
                                                                                               list[Event]]:
        _, piece, start, target, effect = move
        base = PIECES * seat
        pieces, stamps = list(state.pieces), list(state.stamps)
        events.append(Event("exit" if start == HOME else "move", seat,
                            {"piece": piece, "from": start, "to": target, "count": state.count,
                             "bonus": state.bonus}))
        if effect == EFFECT_CAPTURE:
            keys = _keys(state)
            if start == HOME:  # rule 3
                victim = _exit_victim(state, seat, keys)
            else:  # rule 5
                victim = keys.index(_PIECE_KEYS[state.seats][base][target + 1])
            assert victim is not None
            pieces[victim] = HOME
            events.append(Event("capture", victim // PIECES, {"piece": victim % PIECES, "by": seat}))
        version = state.version + 1 if state.phase == PHASE_MOVE else state.version  # a throw counted already
        pieces[base + piece] = target
        stamps[base + piece] = version  # rule 3: who arrived last
        state = self._copy(state, pieces=tuple(pieces), stamps=tuple(stamps), phase=PHASE_ROLL, moves=(),
                           moved=piece, last_move=(seat, piece, start, target), version=version)
        if target == CENTRE:
            events.append(Event("centre", seat, {"piece": piece}))
            if all(p == CENTRE for p in pieces[base:base + PIECES]):  # rule 9
                return self._copy(state, finished=True, winner=seat), [*events, Event("win", seat)]
        if effect in (EFFECT_CAPTURE, EFFECT_CENTRE):  # rule 5: the bonus is played at once
            bonus = CAPTURE_BONUS if effect == EFFECT_CAPTURE else CENTRE_BONUS
            state, more = self._offer(state, seat, bonus, bonus=True)
            return state, events + more
        return self._after(state, seat), events

    def _after(self, state: ParchisState, seat: int) -> ParchisState:
        """After a move and its bonuses: throw again after a 6 (rule 4), else the turn passes."""
        if state.again:
            return self._copy(state, turn=seat, phase=PHASE_ROLL, count=0, bonus=False, again=False, moves=())
        return self._end_turn(state)

    def _end_turn(self, state: ParchisState) -> ParchisState:
        return self._copy(state, turn=next_seat(state.turn, state.seats), phase=PHASE_ROLL, sixes=0, count=0,
                          bonus=False, again=False, moves=(), moved=-1)

    @staticmethod
    def _copy(state: ParchisState, **changes: Any) -> ParchisState:
        copied = ParchisState(*_field_values(state))
        for name, value in changes.items():
            setattr(copied, name, value)
        return copied


# Every action copies the state a few times, so _copy was the engine's hottest function: read
# all fields in one C call and pass them positionally (dataclasses.fields lists them
# in __init__ order), then set the changed ones (the state is not frozen).
_field_values = attrgetter(*(field.name for field in fields(ParchisState)))


ENGINE = ParchisEngine()
