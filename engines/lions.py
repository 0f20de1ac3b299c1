"""«Охота на львов» (`lions`): six lions against six hunters on a board of circles and lines.

Rules as settled in docs/rules/lions.md (the board: engines/lions_board.py), cited in code:

1. Seat ``options.lions_seat`` plays the lions (on 1–6), the other seat the hunters (on
   А–Е). Who starts is drawn by lot.
2. A turn moves one, two or three pieces along the lines, at most three circles in total
   and at least one: one piece 1–3 circles, one piece 1 and another 2, or three pieces 1
   each. A piece steps to an adjacent free circle (never over or onto a piece) and may not
   come back over a circle it left this turn. Each piece moves in one go (a piece's part of
   the turn ends when the next piece starts or the turn is sent).
3. The turn is built step by step (pick a piece, step, …) and sent with «Готово»; a step can
   be undone before sending. Passing is allowed only when no step is possible.
4. Capture: a piece with no free neighbouring circle and at least one enemy neighbour is
   taken at once. Checked each time a piece of the mover stops (its part of the turn
   ends): the opponent's pieces first, then the mover's own. Several can fall at once;
   pieces passing by do not capture.
5. Isolation: when the free circles reachable from the lions and those reachable from the
   hunters no longer meet (flood fill), the push rule is on for the rest of the game.
6. Push («в затылок»): with the push rule on, a piece that has three enemy pieces behind it
   on consecutive circles of one straight line must move on its owner's next turn: the
   first piece picked must be a pushed one, if one can move.
7. Whoever captures all enemy pieces wins.
8. Once either side has two pieces or fewer, 60 consecutive turns (both sides counted)
   without a capture end the game in a draw. Option ``quiet_draw`` (default 100, 0 for off;
   docs/rules/lions.md): that many turns without a capture end it in a draw whatever the
   piece count, since careful players with more pieces can stand off for ever.
9. A player may offer a draw (once per turn, before stepping) — the other accepts or
   declines — or resign.

Settled here where the texts are silent: the game-ending check (rule 7) happens when the
turn is sent, so once a finished part has taken the last enemy piece no further piece can be
picked (the moving piece may still go on, which passes by and takes nothing more); a side
whose pieces cannot move at all passes; a declined offer lets the offerer go on with the
turn; resigning is possible at any moment of one's own turn.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

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
    check_seats,
)
from engines.lions_board import (
    HUNTERS_START,
    INDEX,
    LIONS_START,
    NEIGHBOUR_MASKS,
    PUSH_LINES,
    SIZE,
    label,
)

SEATS = (2, 2)
MAX_STEPS = 3  # rule 2
QUIET_TURNS = 60  # rule 8
FEW_PIECES = 2  # rule 8
QUIET_DRAW = 100  # rule 8's option ``quiet_draw``: its default, and the turns it may be set to
QUIET_DRAW_MIN, QUIET_DRAW_MAX, QUIET_DRAW_OFF = 10, 999, 0
LIONS, HUNTERS = "lions", "hunters"

DONE, PASS, UNDO, OFFER, ACCEPT, DECLINE, RESIGN = "d", "d", "u", "o", "y", "n", "x"
END_ALL_TAKEN, END_RESIGN, END_AGREED, END_QUIET = "all_taken", "resign", "agreed", "quiet"


def bits(mask: int) -> Iterator[int]:
    """The circles of a bit mask, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(circles: tuple[int, ...] | list[int]) -> int:
    out = 0
    for c in circles:
        out |= 1 << c
    return out


def trapped(pieces: int, occupied: int, enemies: int) -> int:
    """Rule 4: the ``pieces`` with no free neighbouring circle and an enemy beside them."""
    out = 0
    for c in bits(pieces):
        around = NEIGHBOUR_MASKS[c]
        if not around & ~occupied and around & enemies:
            out |= 1 << c
    return out


def close_part(mover: int, opp: int) -> tuple[int, int, int, int]:
    """Rule 4 after a piece of ``mover`` stops: (mover, opp, opp taken, mover taken) as masks."""
    taken_opp = trapped(opp, mover | opp, mover)  # the opponent's pieces first
    opp &= ~taken_opp
    taken_own = trapped(mover, mover | opp, opp)
    return mover & ~taken_own, opp, taken_opp, taken_own


# Neighbours of a whole mask by table, a third of the board at a time (three lookups, no loop): the
# AI's search (engines/lions_ai.py) floods positions millions of times.
ALL = (1 << SIZE) - 1  # every circle
_CHUNK = -(-SIZE // 3)  # circles per table: three tables cover the board
_LOW = (1 << _CHUNK) - 1


def _spread_tables() -> tuple[tuple[int, ...], ...]:
    tables = []
    for base in range(0, 3 * _CHUNK, _CHUNK):
        table = [0] * (1 << _CHUNK)
        for value in range(1, 1 << _CHUNK):
            low = value & -value
            circle = base + low.bit_length() - 1
            table[value] = table[value ^ low] | (NEIGHBOUR_MASKS[circle] if circle < SIZE else 0)
        tables.append(tuple(table))
    return tuple(tables)


_SPREAD_LOW, _SPREAD_MID, _SPREAD_HIGH = _spread_tables()


def spread(mask: int) -> int:
    """Every circle next to a circle of ``mask``."""
    return (_SPREAD_LOW[mask & _LOW] | _SPREAD_MID[(mask >> _CHUNK) & _LOW]
            | _SPREAD_HIGH[(mask >> 2 * _CHUNK) & _LOW])


def reach(pieces: int, free: int) -> int:
    """The free circles reachable from ``pieces`` through free circles (rule 5's flood)."""
    seen = front = spread(pieces) & free
    while front:
        front = spread(front) & free & ~seen
        seen |= front
    return seen


@functools.lru_cache(maxsize=1 << 16)
def isolated(lions: int, hunters: int) -> bool:
    """Rule 5: the floods of free circles from the two sides never meet (the lions' flood is
    grown until it touches a free circle next to a hunter, which the hunters' flood holds)."""
    free = ALL & ~(lions | hunters)
    target = spread(hunters) & free
    seen = front = spread(lions) & free
    while front and not seen & target:
        front = spread(front) & free & ~seen
        seen |= front
    return not seen & target


def pushed(mover: int, opp: int) -> int:
    """Rule 6: the mover's pieces with three enemy pieces in a straight row behind them."""
    out = 0
    for a, b, c, target in PUSH_LINES:
        if mover >> target & 1 and opp >> a & 1 and opp >> b & 1 and opp >> c & 1:
            out |= 1 << target
    return out


@dataclass(frozen=True, slots=True)
class LionsOptions(JsonData):
    """Lobby settings: which seat plays the lions (rule 1); turns without a capture that draw the
    game whatever the piece count (rule 8's ``quiet_draw``, 0: off)."""

    lions_seat: int = 0
    quiet_draw: int = QUIET_DRAW

    def validate(self, seats: int | None = None) -> None:
        if type(self.lions_seat) is not int or self.lions_seat not in (0, 1):
            raise OptionsError("lions_seat", "not allowed", allowed=(0, 1))
        if type(self.quiet_draw) is not int or (
                self.quiet_draw != QUIET_DRAW_OFF and not QUIET_DRAW_MIN <= self.quiet_draw <= QUIET_DRAW_MAX):
            raise OptionsError("quiet_draw", "out of range", min=QUIET_DRAW_MIN, max=QUIET_DRAW_MAX,
                               off=QUIET_DRAW_OFF)
        check_seats(seats, SEATS)

    def quiet_limit(self, fewest: int) -> int | None:
        """Turns without a capture that end the game when a side has ``fewest`` pieces (rule 8), or None."""
        limits = [QUIET_TURNS] if fewest <= FEW_PIECES else []
        if self.quiet_draw != QUIET_DRAW_OFF:
            limits.append(self.quiet_draw)
        return min(limits, default=None)


@dataclass(frozen=True, slots=True)
class LionsState(JsonData):
    """Whole game state. ``lions``/``hunters`` are the circles at the start of the turn;
    ``segments`` is the turn being built, one path (start, circle, …) per piece."""

    seed: str
    options: LionsOptions
    lions: tuple[int, ...]
    hunters: tuple[int, ...]
    turn: int
    version: int
    segments: tuple[tuple[int, ...], ...] = ()
    push_on: bool = False  # rule 5, as of the start of the turn
    quiet: int = 0  # turns without a capture (rule 8)
    turns: int = 0  # turns sent
    draw_offer: int | None = None  # the seat waiting for an answer to its offer (rule 9)
    offered_turn: int = -1  # the turn of the last offer (one per turn)
    last_paths: tuple[tuple[int, ...], ...] = ()  # the previous turn, for the picture
    last_taken: tuple[int, ...] = ()  # circles where pieces fell in the previous turn
    last_seat: int | None = None
    finished: bool = False
    winner: int | None = None
    end: str = ""
    seats: int = 2

    @property
    def current_player(self) -> int | None:
        if self.finished:
            return None
        return 1 - self.draw_offer if self.draw_offer is not None else self.turn

    def side_of(self, seat: int) -> str:
        return LIONS if seat == self.options.lions_seat else HUNTERS

    @property
    def side(self) -> str:
        """The side to move."""
        return self.side_of(self.turn)

    def seat_of(self, side: str) -> int:
        return self.options.lions_seat if side == LIONS else 1 - self.options.lions_seat


class Built(NamedTuple):
    """The position after the steps of the turn so far (rule 4 applied to each finished part)."""

    mover: int
    opp: int
    steps: int
    moved: int  # circles of the mover's pieces that have finished their part
    taken: tuple[tuple[int, bool], ...]  # (circle, was the mover's) in order of falling
    push_on: bool
    current: tuple[int, ...]  # the path of the piece moving now ((): none picked)


def sides(state: LionsState) -> tuple[int, int]:
    lions, hunters = mask_of(state.lions), mask_of(state.hunters)
    return (lions, hunters) if state.side == LIONS else (hunters, lions)


def build(state: LionsState, close_last: bool = False) -> Built:
    """Replay the turn being built; ``close_last`` ends the last piece's part as «Готово» does."""
    mover, opp = sides(state)
    moved, steps, push_on = 0, 0, state.push_on
    taken: list[tuple[int, bool]] = []
    segments = state.segments
    for i, path in enumerate(segments):
        steps += len(path) - 1
        mover ^= (1 << path[0]) ^ (1 << path[-1])
        if i == len(segments) - 1 and not close_last:
            return Built(mover, opp, steps, moved, tuple(taken), push_on, path)
        if len(path) == 1:
            continue
        moved |= 1 << path[-1]
        mover, opp, t_opp, t_own = close_part(mover, opp)
        taken += [(c, False) for c in bits(t_opp)] + [(c, True) for c in bits(t_own)]
        moved &= mover
        lions, hunters = (mover, opp) if state.side == LIONS else (opp, mover)
        push_on = push_on or isolated(lions, hunters)
    return Built(mover, opp, steps, moved, tuple(taken), push_on, ())


def can_step(circle: int, occupied: int) -> bool:
    return bool(NEIGHBOUR_MASKS[circle] & ~occupied)


def movable(pieces: int, occupied: int) -> int:
    """The ``pieces`` (a mask) with a free neighbouring circle: those that can step."""
    out = 0
    while pieces:
        low = pieces & -pieces
        pieces ^= low
        if NEIGHBOUR_MASKS[low.bit_length() - 1] & ~occupied:
            out |= low
    return out


class LionsEngine(RulesEngine[LionsState, LionsOptions]):
    """The `lions` engine (see the module docstring for the rules)."""

    code = "lions"
    options_type, state_type = LionsOptions, LionsState
    min_players, max_players = SEATS

    def opening(self, options: LionsOptions, seats: int, seed: str, starter: int) -> LionsState:
        state = LionsState(
            seed=seed, options=options, turn=starter, version=0,
            lions=tuple(sorted(INDEX[c] for c in LIONS_START)),
            hunters=tuple(sorted(INDEX[c] for c in HUNTERS_START)),
        )
        return state

    def starter_data(self, state: LionsState) -> Mapping[str, Any]:
        return {"side": state.side}

    def pieces_to_pick(self, state: LionsState, built: Built) -> int:
        """The mover's pieces that may start their part of the turn now (rules 2 and 6)."""
        if built.steps >= MAX_STEPS or not built.opp or not built.mover:
            return 0
        free_to_go = movable(built.mover & ~built.moved, built.mover | built.opp)
        if built.steps == 0 and state.push_on:  # rule 6: a pushed piece goes first
            mover, opp = sides(state)
            must = pushed(mover, opp) & free_to_go
            if must:
                return must
        return free_to_go

    def legal_actions(self, state: LionsState) -> list[Action]:
        if state.finished:
            return []
        if state.draw_offer is not None:
            return [Action(ACCEPT, "accept"), Action(DECLINE, "decline")]
        built = build(state)
        actions: list[Action] = []
        picks_from = built
        if built.current:
            here = built.current[-1]
            if built.steps < MAX_STEPS:
                free = ~(built.mover | built.opp) & ~mask_of(built.current)  # rule 2: no coming back
                actions += [Action(f"s{c}", "step", {"start": label(here), "to": label(c)})
                            for c in bits(NEIGHBOUR_MASKS[here] & free)]
            if len(built.current) > 1:  # picking another piece ends this one's part (rule 4 first)
                picks_from = build(state, close_last=True)
        picks = self.pieces_to_pick(state, picks_from)
        if built.current:
            picks &= ~(1 << built.current[-1])
        actions += [Action(f"p{c}", "pick", {"circle": label(c), "side": state.side}) for c in bits(picks)]
        if built.steps:
            actions += [Action(DONE, "done"), Action(UNDO, "undo")]
        elif not actions:  # rule 3: nothing can move at all
            actions.append(Action(PASS, "pass"))
        if built.steps == 0 and state.offered_turn != state.turns:
            actions.append(Action(OFFER, "offer"))
        actions.append(Action(RESIGN, "resign"))
        return actions

    def outcome(self, state: LionsState) -> Outcome | None:
        if not state.finished:
            return None
        data = {"end": state.end, "lions": len(state.lions), "hunters": len(state.hunters)}
        if state.winner is None:
            return Outcome("draw", winners=(0, 1), ranking=(0, 1), data=data)
        return Outcome("win", winners=(state.winner,), losers=(1 - state.winner,),
                       ranking=(state.winner, 1 - state.winner), data=data)

    @staticmethod
    def resign_code(seat: int) -> str:
        """The code of ``seat`` resigning whoever is to move (rule 9; a player who leaves the
        game resigns even out of turn). Not among ``legal_actions``, which are the mover's."""
        return f"{RESIGN}{seat}"

    def apply(self, state: LionsState, code: str,
              dice: Dice | None = None) -> tuple[LionsState, list[Event], LogEntry]:
        """Apply ``code``; no action throws, so ``dice`` (the contract's) goes unused."""
        if not state.finished and code in (self.resign_code(0), self.resign_code(1)):
            leaving = int(code[1:])
            state = replace(state, version=state.version + 1, draw_offer=None)
            return (self._finish(state, 1 - leaving, END_RESIGN), [Event("resign", seat=leaving)],
                    LogEntry(seat=leaving, code=code))
        seat = state.current_player
        if seat is None or code not in {a.code for a in self.legal_actions(state)}:
            raise IllegalActionError(f"{code!r} is not legal here")
        entry = LogEntry(seat=seat, code=code)
        state = replace(state, version=state.version + 1)
        if code == ACCEPT:
            return self._finish(state, None, END_AGREED), [Event("draw_agreed", seat=seat)], entry
        if code == DECLINE:
            return replace(state, draw_offer=None), [Event("draw_declined", seat=seat)], entry
        if code == OFFER:
            return replace(state, draw_offer=seat, offered_turn=state.turns), [Event("draw_offered", seat=seat)], entry
        if code == RESIGN:  # rule 9
            return self._finish(state, 1 - seat, END_RESIGN), [Event("resign", seat=seat)], entry
        if code == DONE:
            state, events = self._send(state)
            return state, events, entry
        if code == UNDO:
            return replace(state, segments=_undo(state.segments)), [Event("undo", seat=seat)], entry
        circle = int(code[1:])
        segments = state.segments
        if code[0] == "p":  # a new piece; a picked piece that has not stepped is just replaced
            segments = (*segments[:-1], (circle,)) if segments and len(segments[-1]) == 1 else (*segments, (circle,))
            return replace(state, segments=segments), [Event("pick", seat=seat, data={"at": circle})], entry
        segments = (*segments[:-1], (*segments[-1], circle))
        return replace(state, segments=segments), [Event("step", seat=seat, data={"to": circle})], entry

    def _send(self, state: LionsState) -> tuple[LionsState, list[Event]]:
        """«Готово»: the last part ends (rule 4), then rules 5, 7 and 8, and the turn passes."""
        seat, side = state.turn, state.side
        built = build(state, close_last=True)
        lions, hunters = (built.mover, built.opp) if side == LIONS else (built.opp, built.mover)
        paths = tuple(p for p in state.segments if len(p) > 1)
        events = [Event("turn", seat=seat, data={
            "side": side,
            "paths": [list(p) for p in paths],
            "taken": [[c, own] for c, own in built.taken],
            "isolated": built.push_on and not state.push_on,
        })]
        quiet = 0 if built.taken else state.quiet + 1
        state = replace(
            state, lions=tuple(bits(lions)), hunters=tuple(bits(hunters)), segments=(), push_on=built.push_on,
            quiet=quiet, turns=state.turns + 1, turn=1 - seat, last_paths=paths,
            last_taken=tuple(c for c, _ in built.taken), last_seat=seat,
        )
        if not built.opp:  # rule 7 (the opponent's pieces are checked first)
            return self._finish(state, seat, END_ALL_TAKEN), events
        if not built.mover:
            return self._finish(state, 1 - seat, END_ALL_TAKEN), events
        limit = state.options.quiet_limit(min(len(state.lions), len(state.hunters)))
        if limit is not None and quiet >= limit:  # rule 8 (and its option quiet_draw)
            return self._finish(state, None, END_QUIET), [*events, Event("draw_quiet", data={"turns": quiet})]
        if state.push_on:
            mover, opp = sides(state)
            must = pushed(mover, opp)
            if must:
                events.append(Event("pushed", seat=state.turn, data={"circles": list(bits(must))}))
        return state, events

    @staticmethod
    def _finish(state: LionsState, winner: int | None, end: str) -> LionsState:
        return replace(state, finished=True, winner=winner, end=end, draw_offer=None)


def _undo(segments: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    """Take back the last step; its piece stays picked (rule 3)."""
    if segments and len(segments[-1]) == 1:  # a piece picked after the last step
        segments = segments[:-1]
    return (*segments[:-1], segments[-1][:-1])


ENGINE = LionsEngine()
