"""«Тише едешь — дальше будешь» (`tishe`): two checkers each race along circles 1..100.

Rules as settled in docs/rules/tishe.md; the numbered rules of the seed are cited in code.

1. A checker comes into play only on a throw with a 6 on one die; it starts from 0 and
   moves by the SUM of both dice (so the cell rules apply to 7..12).
2. One checker moves by the sum of both dice; the dice are never split. With a checker on
   the board and a 6, the player chooses: bring in the other checker or move one on the
   board. Moving is compulsory; the player chooses which checker.
3. On a circle with a 5 two checkers never stand together: after the step, the checker
   that was there first is taken off (own checkers included), however the newcomer came.
4. A direct landing on a circle with a 1 moves the checker 3 forward.
5. A direct landing on a circle with a 7 moves it 3 back; 17 and 71 (a 1 and a 7) stay.
6. A direct landing on a circle with a 0 takes the checker off; it re-enters by rule 1.
7. A direct landing on a double number (11, 22, …, 99) makes the player miss their next
   two turns (for 11 and 77 together with rules 4 and 5).
8. A double throw gives another throw after the move.
9. 100 must be reached exactly; the points beyond are counted back (98 + 8 → 94), and the
   circle reached is a direct landing.
10. A circle reached through a rule is not looked at again (73 → 70 stays on the board;
    11 → 14 and 27 → 24 do not move on).
Variant ``both_home`` («Вариант»): a player wins when both checkers are on 100; a checker
on 100 stays there. Otherwise the first checker on 100 wins.

Settled here where the texts are silent: the first player is drawn from the dice source
(throw 0); a double with no legal move still gives another throw (rule 8 speaks of the
throw, not the move); landing on a double number cancels the extra throw of that turn
(missing turns and throwing again contradict each other); two checkers of one player on
the same circle are one choice, not two; a player due to miss turns is skipped when the
turn comes to them, and each skip uses up one missed turn.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

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

SEATS_RANGE = (2, 6)
CHECKERS = 2
HOME = 100
OFF = 0
MISSED_TURNS = 2  # rule 7
ENTRY_DIE = 6  # rule 1
ROLL = Action(code="r", kind="roll")

PHASE_ROLL = "roll"
PHASE_CHOOSE = "choose"

# What a landing circle did to the checker (Event "land", data "rule").
RULE_ZERO = "zero"  # rule 6
RULE_ONE = "one"  # rule 4
RULE_SEVEN = "seven"  # rule 5
RULE_SEVENTEEN = "seventeen"  # rule 5's exception

# Effect codes carried in a move's Action args as "effect" (the button shows them).
EFFECT_NONE, EFFECT_FORWARD, EFFECT_BACK, EFFECT_OFF, EFFECT_HOME = range(5)
_EFFECTS = {None: EFFECT_NONE, RULE_SEVENTEEN: EFFECT_NONE, RULE_ONE: EFFECT_FORWARD, RULE_SEVEN: EFFECT_BACK,
            RULE_ZERO: EFFECT_OFF}


@dataclass(frozen=True, slots=True)
class Landing:
    """Where a checker ends up after one move (rules 4–10)."""

    direct: int  # the circle reached by the count (after the bounce of rule 9)
    final: int  # where it stays: OFF, 1..99 or HOME
    rule: str | None  # which of rules 4–6 moved it, if any
    double: bool  # rule 7: a double number was reached directly
    bounced: bool  # rule 9

    @property
    def effect(self) -> int:
        return EFFECT_HOME if self.final == HOME else _EFFECTS[self.rule]


def land(start: int, steps: int) -> Landing:
    """Move ``steps`` circles from ``start`` (OFF for a checker coming in) and apply rules 4–10."""
    direct = start + steps
    bounced = direct > HOME
    if bounced:  # rule 9: count back from 100
        direct = 2 * HOME - direct
    if direct == HOME:
        return Landing(direct, HOME, None, False, bounced)
    digits = str(direct)
    double = direct % 11 == 0  # rule 7: 11, 22, …, 99
    if "0" in digits:  # rule 6
        return Landing(direct, OFF, RULE_ZERO, double, bounced)
    if "1" in digits and "7" in digits:  # rule 5: 17 and 71 stay
        return Landing(direct, direct, RULE_SEVENTEEN, double, bounced)
    if "1" in digits:  # rule 4; rule 10: the new circle is not looked at again
        return Landing(direct, direct + 3, RULE_ONE, double, bounced)
    if "7" in digits:  # rule 5; rule 10: 73 → 70 stays on the board
        return Landing(direct, direct - 3, RULE_SEVEN, double, bounced)
    return Landing(direct, direct, None, double, bounced)


def is_five_circle(circle: int) -> bool:
    """Rule 3: circles with a 5 hold one checker."""
    return 0 < circle < HOME and "5" in str(circle)


@dataclass(frozen=True, slots=True)
class TisheOptions(JsonData):
    """Lobby settings: ``both_home`` is the seed's «Вариант»."""

    both_home: bool = False

    def validate(self, seats: int | None = None) -> None:
        if not isinstance(self.both_home, bool):
            raise OptionsError("both_home", "not a yes/no value")
        check_seats(seats, SEATS_RANGE)



@dataclass(frozen=True, slots=True)
class TisheState(TurnState, JsonData):
    """Whole game state. ``checkers[2 * seat + i]`` is checker i of a seat: OFF, 1..99 or HOME."""

    seed: str
    options: TisheOptions
    seats: int
    checkers: tuple[int, ...]
    missed: tuple[int, ...]  # turns each seat still has to miss (rule 7)
    turn: int
    phase: str  # PHASE_ROLL, or PHASE_CHOOSE with ``dice`` waiting for a choice
    throws: int  # index of the next DiceSource throw
    version: int  # actions applied
    dice: tuple[int, ...] = ()  # the throw waiting for a choice
    last_dice: tuple[int, ...] = ()
    last_seat: int | None = None
    last_move: tuple[int, ...] = ()  # seat, checker, from, direct, final of the last move
    finished: bool = False
    winner: int | None = None

    def of(self, seat: int) -> tuple[int, ...]:
        """A seat's checkers, in order."""
        return self.checkers[CHECKERS * seat:CHECKERS * seat + CHECKERS]



def move_actions(state: TisheState, seat: int, dice: tuple[int, ...]) -> list[Action]:
    """The legal moves for a throw (rules 1 and 2): enter ``e`` and/or move ``m<i>``.

    Args: a move's ``checker`` (numbered from 1) and ``start``; for both, ``to`` (the circle
    the count reaches), ``final`` (where the checker stays), the ``effect`` and ``double`` (1
    when rule 7 applies). Two checkers on one circle are one choice (the lower number).
    """
    own = state.of(seat)
    actions: list[Action] = []
    if ENTRY_DIE in dice and OFF in own:  # rule 1
        where = land(OFF, sum(dice))
        actions.append(Action("e", "enter", {"to": where.direct, "final": where.final, "effect": where.effect,
                                             "double": int(where.double)}))
    seen: set[int] = set()
    for i, pos in enumerate(own):
        if pos in (OFF, HOME) or pos in seen:
            continue
        seen.add(pos)
        where = land(pos, sum(dice))
        actions.append(Action(f"m{i}", "move", {"checker": i + 1, "start": pos, "to": where.direct,
                                                "final": where.final, "effect": where.effect,
                                                "double": int(where.double)}))
    return actions


class TisheEngine(RulesEngine[TisheState, TisheOptions]):
    """The `tishe` engine (see the module docstring for the rules)."""

    code = "tishe"
    options_type, state_type = TisheOptions, TisheState
    min_players, max_players = SEATS_RANGE

    def opening(self, options: TisheOptions, seats: int, seed: str, starter: int) -> TisheState:
        state = TisheState(seed=seed, options=options, seats=seats, checkers=(OFF,) * (CHECKERS * seats),
                           missed=(0,) * seats, turn=starter, phase=PHASE_ROLL, throws=1, version=0)
        return state

    def legal_actions(self, state: TisheState) -> list[Action]:
        if state.finished:
            return []
        if state.phase == PHASE_CHOOSE:
            return move_actions(state, state.turn, state.dice)
        return [ROLL]

    def outcome(self, state: TisheState) -> Outcome | None:
        if not state.finished or state.winner is None:
            return None

        ranking = rank_after(state.winner, state.seats, lambda seat: tuple(sorted(state.of(seat), reverse=True)))
        return Outcome("win", winners=(state.winner,), ranking=ranking)

    def apply(self, state: TisheState, code: str,
              dice: Dice | None = None) -> tuple[TisheState, list[Event], LogEntry]:
        seat = state.turn
        if state.finished:
            raise IllegalActionError("the game is over")
        if state.phase == PHASE_ROLL:
            if code != ROLL.code:
                raise IllegalActionError(f"{code!r} is not legal here")
            thrown = throw_source(state.seed, dice).throw(state.throws, 2)
            state = replace(state, throws=state.throws + 1, version=state.version + 1, last_dice=thrown,
                            last_seat=seat)
            events = [Event("roll", seat=seat, data={"dice": list(thrown)})]
            moves = move_actions(state, seat, thrown)
            if not moves:
                events.append(Event("no_move", seat=seat))
                state, more = self._end_move(state, seat, thrown, landed_double=False)
            elif len(moves) == 1:  # a single legal move is made with the throw
                state, more = self._move(state, seat, thrown, moves[0])
            else:
                state, more = replace(state, phase=PHASE_CHOOSE, dice=thrown), [Event("choose", seat=seat)]
            return state, events + more, LogEntry(seat=seat, code=code, dice=thrown)
        chosen = next((a for a in move_actions(state, seat, state.dice) if a.code == code), None)
        if chosen is None:
            raise IllegalActionError(f"{code!r} is not legal here")
        thrown = state.dice
        state = replace(state, version=state.version + 1, phase=PHASE_ROLL, dice=())
        state, events = self._move(state, seat, thrown, chosen)
        return state, events, LogEntry(seat=seat, code=code)

    def _move(self, state: TisheState, seat: int, dice: tuple[int, ...],
              action: Action) -> tuple[TisheState, list[Event]]:
        own = state.of(seat)
        index = own.index(OFF) if action.kind == "enter" else int(action.code[1:])
        start = own[index]
        where = land(start, sum(dice))
        checkers = list(state.checkers)
        slot = CHECKERS * seat + index
        checkers[slot] = where.final
        events = [Event("enter" if action.kind == "enter" else "move", seat=seat,
                        data={"checker": index, "from": start, "to": where.direct, "bounced": where.bounced})]
        if where.rule is not None:
            events.append(Event("land", seat=seat, data={"checker": index, "rule": where.rule, "at": where.direct,
                                                         "to": where.final}))
        if is_five_circle(where.final):  # rule 3: the one there first leaves
            for other, pos in enumerate(checkers):
                if other != slot and pos == where.final:
                    checkers[other] = OFF
                    events.append(Event("bump", seat=other // CHECKERS,
                                        data={"checker": other % CHECKERS, "at": pos, "by": seat}))
        state = replace(state, checkers=tuple(checkers), last_move=(seat, index, start, where.direct, where.final))
        if where.final == HOME:
            events.append(Event("home", seat=seat, data={"checker": index}))
            if not state.options.both_home or all(p == HOME for p in state.of(seat)):
                return replace(state, finished=True, winner=seat), [*events, Event("win", seat=seat)]
        if where.double:  # rule 7
            missed = list(state.missed)
            missed[seat] = MISSED_TURNS
            state = replace(state, missed=tuple(missed))
            events.append(Event("double_circle", seat=seat, data={"at": where.direct, "turns": MISSED_TURNS}))
        state, more = self._end_move(state, seat, dice, landed_double=where.double)
        return state, events + more

    def _end_move(self, state: TisheState, seat: int, dice: tuple[int, ...],
                  landed_double: bool) -> tuple[TisheState, list[Event]]:
        """Rule 8's extra throw, or the turn passes on, skipping players who miss turns."""
        if dice[0] == dice[1]:
            if not landed_double:
                return replace(state, turn=seat), [Event("again", seat=seat)]
            lost = [Event("again_lost", seat=seat)]
        else:
            lost = []
        missed = list(state.missed)
        events: list[Event] = []
        turn = seat
        while True:
            turn = next_seat(turn, state.seats)
            if not missed[turn]:
                break
            missed[turn] -= 1
            events.append(Event("skip", seat=turn, data={"left": missed[turn]}))
        return replace(state, turn=turn, missed=tuple(missed)), lost + events


ENGINE = TisheEngine()
