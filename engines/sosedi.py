"""«Помоги своему соседу» (`sosedi`): classic, «наоборот» and «Башня».

Rules as settled in docs/rules/sosedi.md; the numbered points below are cited in code.

1. Numbers: seats own numbers by the table of :data:`NUMBER_TABLE`; others are dead.
2. Classic: everyone starts with ``chips``; a throw of three dice makes the owner of each
   shown number pay one chip into the bowl (a number shown twice costs two).
3. The roller pays for their own numbers too, unless ``roller_immune``.
4. Classic: the first to put their last chip into the bowl wins at once; the winner
   takes the bowl.
5. A throw that would take the last chip of two or more players at once is void:
   nothing is paid and the same player throws again.
6. «Наоборот» (``mode=reverse``): the first to run out of chips loses and pays.
7. «Башня» (``mode=tower``): nobody holds coasters at start; the tower holds ``tower``
   coasters (default 5 × players). Phase 1: each die showing your number makes you take
   one coaster from the tower. Phase 2 (tower used up): each die showing your number lets
   you put one back. Dice resolve left to right, so one throw can end phase 1 and go on
   in phase 2.
8. When the tower is used up, every player holding no coaster is safe at once; in phase 2
   a player who puts back their last coaster is safe. Safe players no longer throw.
9. The last player still holding coasters loses and buys the round.
10. A tower throw that would let every player still holding coasters get out at once is
    void (nothing moves) and the same player throws again.

Settled here where the texts are silent: a number shown more often than its owner has
chips costs only the chips they have (the last one still empties them); the first player
is drawn from the dice source (throw 0, one die with as many faces as seats).
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
    next_seat,
    throw_source,
)

MODES = ("classic", "reverse", "tower")
CHIPS_RANGE = (5, 30)
TOWER_RANGE = (5, 60)
DICE = 3
ROLL = Action(code="r", kind="roll")

# rule 1: which numbers each seat owns, by player count
NUMBER_TABLE: dict[int, tuple[tuple[int, ...], ...]] = {
    2: ((1, 2, 3), (4, 5, 6)),
    3: ((1, 2), (3, 4), (5, 6)),
    4: ((1,), (2,), (3,), (4,)),
    5: ((1,), (2,), (3,), (4,), (5,)),
    6: ((1,), (2,), (3,), (4,), (5,), (6,)),
}


def owner_of(number: int, seats: int) -> int | None:
    """The seat owning a die face, or None for a dead number."""
    for seat, owned in enumerate(NUMBER_TABLE[seats]):
        if number in owned:
            return seat
    return None


@dataclass(frozen=True, slots=True)
class SosediOptions(JsonData):
    """Lobby settings. ``tower=None`` means 5 × number of players."""

    mode: str = "classic"
    chips: int = 10
    tower: int | None = None
    roller_immune: bool = False

    def validate(self, seats: int | None = None) -> None:
        if self.mode not in MODES:
            raise OptionsError("mode", "unknown mode", allowed=MODES)
        lo, hi = CHIPS_RANGE
        if not isinstance(self.chips, int) or not lo <= self.chips <= hi:
            raise OptionsError("chips", "out of range", min=lo, max=hi)
        lo, hi = TOWER_RANGE
        if self.tower is not None and (not isinstance(self.tower, int) or not lo <= self.tower <= hi):
            raise OptionsError("tower", "out of range", min=lo, max=hi)
        if seats is not None and seats not in NUMBER_TABLE:
            raise OptionsError("players", "out of range", min=2, max=6)

    def tower_size(self, seats: int) -> int:
        return self.tower if self.tower is not None else 5 * seats



@dataclass(frozen=True, slots=True)
class SosediState(TurnState, JsonData):
    """Whole game state; ``chips`` holds coasters in tower mode."""

    seed: str
    options: SosediOptions
    seats: int
    chips: tuple[int, ...]
    bowl: int
    tower: int
    phase: int  # tower mode: 1 while the tower stands, 2 after; 0 in other modes
    safe: tuple[bool, ...]  # tower mode: out and safe
    turn: int
    throws: int  # index of the next DiceSource throw
    version: int  # actions applied
    last_dice: tuple[int, ...] = ()
    last_seat: int | None = None
    finished: bool = False
    result_seat: int | None = None  # winner (classic) or loser (reverse, tower)

    @property
    def numbers(self) -> tuple[tuple[int, ...], ...]:
        return NUMBER_TABLE[self.seats]



class SosediEngine(RulesEngine[SosediState, SosediOptions]):
    """The `sosedi` engine (see the module docstring for the rules)."""

    code = "sosedi"
    options_type, state_type = SosediOptions, SosediState
    min_players = 2
    max_players = 6

    def opening(self, options: SosediOptions, seats: int, seed: str, starter: int) -> SosediState:
        tower_mode = options.mode == "tower"
        state = SosediState(
            seed=seed,
            options=options,
            seats=seats,
            chips=(0,) * seats if tower_mode else (options.chips,) * seats,
            bowl=0,
            tower=options.tower_size(seats) if tower_mode else 0,
            phase=1 if tower_mode else 0,
            safe=(False,) * seats,
            turn=starter,
            throws=1,
            version=0,
        )
        return state

    def legal_actions(self, state: SosediState) -> list[Action]:
        return [] if state.finished else [ROLL]

    def outcome(self, state: SosediState) -> Outcome | None:
        if not state.finished or state.result_seat is None:
            return None
        seat = state.result_seat
        if state.options.mode == "classic":
            others = sorted((s for s in range(state.seats) if s != seat), key=lambda s: state.chips[s])
            return Outcome("win", winners=(seat,), ranking=(seat, *others), data={"bowl": state.bowl})
        # rules 6 and 9: the one who pays buys the round; everyone else wins that round
        return Outcome("lose", winners=tuple(s for s in range(state.seats) if s != seat), losers=(seat,))

    def apply(self, state: SosediState, code: str,
              dice: Dice | None = None) -> tuple[SosediState, list[Event], LogEntry]:
        if state.finished or code != ROLL.code:
            raise IllegalActionError(f"{code!r} is not legal here")
        roller = state.turn
        thrown = throw_source(state.seed, dice).throw(state.throws, DICE)
        state = replace(state, throws=state.throws + 1, version=state.version + 1,
                        last_dice=thrown, last_seat=roller)
        events = [Event("roll", seat=roller, data={"dice": list(thrown)})]
        if state.options.mode == "tower":
            state, more = self._resolve_tower(state, roller, thrown)
        else:
            state, more = self._resolve_chips(state, roller, thrown)
        return state, events + more, LogEntry(seat=roller, code=code, dice=thrown)

    def _payers(self, state: SosediState, roller: int, dice: tuple[int, ...]) -> list[int | None]:
        """The seat each die calls on, left to right (None: dead, or the immune roller)."""
        out: list[int | None] = []
        for die in dice:
            owner = owner_of(die, state.seats)
            # rule 3: the roller pays for their own numbers unless roller_immune
            out.append(None if owner == roller and state.options.roller_immune else owner)
        return out

    def _resolve_chips(self, state: SosediState, roller: int, dice: tuple[int, ...]) -> tuple[SosediState, list[Event]]:
        due = [0] * state.seats
        for seat in self._payers(state, roller, dice):
            if seat is not None:
                due[seat] += 1
        # a number shown more often than its owner has chips costs only what they have
        paid = [min(d, c) for d, c in zip(due, state.chips, strict=True)]
        emptied = [s for s in range(state.seats) if paid[s] and paid[s] == state.chips[s]]
        if len(emptied) >= 2:  # rule 5: a throw that empties two players at once is void
            return state, [Event("void", seat=roller, data={"seats": emptied})]
        chips = tuple(c - p for c, p in zip(state.chips, paid, strict=True))
        events = [Event("pay", seat=s, data={"count": paid[s], "left": chips[s]})
                  for s in range(state.seats) if paid[s]]
        state = replace(state, chips=chips, bowl=state.bowl + sum(paid))
        if emptied:
            (seat,) = emptied
            state = replace(state, finished=True, result_seat=seat)
            if state.options.mode == "classic":  # rule 4
                events.append(Event("win", seat=seat, data={"bowl": state.bowl}))
            else:  # rule 6
                events.append(Event("lose", seat=seat))
            return state, events
        if not any(paid):
            events.append(Event("nothing", seat=roller))
        return replace(state, turn=next_seat(roller, state.seats)), events

    def _resolve_tower(self, state: SosediState, roller: int, dice: tuple[int, ...]) -> tuple[SosediState, list[Event]]:
        chips, safe = list(state.chips), list(state.safe)
        tower, phase = state.tower, state.phase
        events: list[Event] = []
        for seat in self._payers(state, roller, dice):  # rule 7: left to right
            if seat is None or safe[seat]:
                continue
            if phase == 1:
                chips[seat] += 1
                tower -= 1
                events.append(Event("take", seat=seat, data={"held": chips[seat], "tower": tower}))
                if tower == 0:  # rule 8: the tower is used up
                    phase = 2
                    freed = [s for s in range(state.seats) if chips[s] == 0]
                    for s in freed:
                        safe[s] = True
                    events.append(Event("tower_down", data={"safe": freed}))
            else:
                chips[seat] -= 1
                tower += 1
                events.append(Event("put", seat=seat, data={"held": chips[seat], "tower": tower}))
                if chips[seat] == 0:
                    safe[seat] = True
                    events.append(Event("safe", seat=seat))
        holding = [s for s in range(state.seats) if not safe[s]]
        if phase == 2 and not holding:  # rule 10: someone must be left to pay
            return state, [Event("void", seat=roller, data={"seats": []})]
        state = replace(state, chips=tuple(chips), safe=tuple(safe), tower=tower, phase=phase)
        if phase == 2 and len(holding) == 1:  # rule 9
            (loser,) = holding
            return replace(state, finished=True, result_seat=loser), [*events, Event("lose", seat=loser)]
        if not events:
            events.append(Event("nothing", seat=roller))
        return replace(state, turn=next_seat(roller, state.seats, skip=safe)), events


ENGINE = SosediEngine()
