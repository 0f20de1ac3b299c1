"""«Спички» (`spichki`): chase a target pair of dice and collect matches from the pile.

Rules as settled in docs/rules/spichki.md; the numbered points below are cited in code.

1. The pile holds ``per_player`` matches per player; the goal is ``goal`` matches.
2. Setting the target: the roller throws two dice. A double gives 2 matches and the same
   player throws again; two different numbers become the target and the other pair of
   dice passes to the next seat, who starts chasing.
3. Chasing a target {a, b}, the chaser throws two dice:
   3.1 both target numbers exactly (either order): 3 matches, then the same player sets a
       NEW target (rule 2 again, a double there again gives 2 and another throw);
   3.2 a double of a or b: ``double_hit`` matches (2 by default, the seed's worked
       example; 1 is the seed's rule list) and the same player throws again;
   3.3 exactly one die shows a or b (the dice differ): 1 match and throw again;
   3.4 nothing matches (a double of another number included): the dice pass to the
       next seat, and the target stays.
4. Awards are capped by what is left in the pile.
5. A player who reaches the goal wins at once.
6. If the pile runs out first, the player with the most matches wins; a tie for the most
   is a draw between those players.

Settled here where the texts are silent: the first roller is drawn from the dice source
(throw 0, one die with as many faces as seats); the goal may not exceed the pile (else
nobody could reach it), which is checked when the game starts; rule 5 is checked before
rule 6, so taking the last match of the pile to reach the goal wins outright.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

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
    throw_source,
)

GOAL_RANGE = (5, 30)
PER_PLAYER_RANGE = (8, 15)
DOUBLE_HIT_VALUES = (1, 2)
SEATS_RANGE = (2, 8)
DOUBLE_ON_TARGET = 2  # rule 2: a double while setting the target
EXACT_HIT = 3  # rule 3.1
ONE_HIT = 1  # rule 3.3

# Both phases take the same button; the kind says which throw it is (for its label).
ROLL_CODE = "r"
SET_TARGET = Action(code=ROLL_CODE, kind="target")
CHASE = Action(code=ROLL_CODE, kind="chase")

# Why matches were taken (Event "take", data "why").
WHY_DOUBLE = "double"  # rule 2
WHY_EXACT = "exact"  # rule 3.1
WHY_DOUBLE_HIT = "double_hit"  # rule 3.2
WHY_ONE = "one"  # rule 3.3


@dataclass(frozen=True, slots=True)
class SpichkiOptions(JsonData):
    """Lobby settings (rule 1 and the ``double_hit`` reading of rule 3.2)."""

    goal: int = 11
    per_player: int = 10
    double_hit: int = 2

    def validate(self, seats: int | None = None) -> None:
        lo, hi = GOAL_RANGE
        if not isinstance(self.goal, int) or not lo <= self.goal <= hi:
            raise OptionsError("goal", "out of range", min=lo, max=hi)
        lo, hi = PER_PLAYER_RANGE
        if not isinstance(self.per_player, int) or not lo <= self.per_player <= hi:
            raise OptionsError("per_player", "out of range", min=lo, max=hi)
        if type(self.double_hit) is not int or self.double_hit not in DOUBLE_HIT_VALUES:  # True == 1: refuse bools
            raise OptionsError("double_hit", "not allowed", allowed=DOUBLE_HIT_VALUES)
        if seats is None:
            return
        check_seats(seats, SEATS_RANGE)
        if self.goal > self.per_player * seats:  # nobody could ever reach the goal
            raise OptionsError("goal", "more than the pile", min=GOAL_RANGE[0], max=self.per_player * seats)



@dataclass(frozen=True, slots=True)
class SpichkiState(TurnState, JsonData):
    """Whole game state. ``target`` is () while the roller is setting one (rule 2)."""

    seed: str
    options: SpichkiOptions
    seats: int
    pile: int
    matches: tuple[int, ...]
    target: tuple[int, ...]
    turn: int
    throws: int  # index of the next DiceSource throw
    version: int  # actions applied
    last_dice: tuple[int, ...] = ()
    last_seat: int | None = None
    last_target: tuple[int, ...] = ()  # the target the last throw was judged against
    finished: bool = False
    winners: tuple[int, ...] = ()  # one winner, or the seats sharing a draw

    @property
    def setting_target(self) -> bool:
        return not self.target



def judge(target: tuple[int, ...], dice: tuple[int, ...], double_hit: int) -> tuple[str | None, int]:
    """What a chasing throw earns against ``target``: (why, matches), or (None, 0) on a miss."""
    a, b = dice
    if sorted(dice) == sorted(target):  # rule 3.1 (a target never holds a double)
        return WHY_EXACT, EXACT_HIT
    if a == b:
        return (WHY_DOUBLE_HIT, double_hit) if a in target else (None, 0)  # rule 3.2 / 3.4
    if (a in target) != (b in target):  # rule 3.3
        return WHY_ONE, ONE_HIT
    return None, 0  # rule 3.4


class SpichkiEngine(RulesEngine[SpichkiState, SpichkiOptions]):
    """The `spichki` engine (see the module docstring for the rules)."""

    code = "spichki"
    options_type, state_type = SpichkiOptions, SpichkiState
    min_players, max_players = SEATS_RANGE

    def opening(self, options: SpichkiOptions, seats: int, seed: str, starter: int) -> SpichkiState:
        state = SpichkiState(
            seed=seed,
            options=options,
            seats=seats,
            pile=options.per_player * seats,  # rule 1
            matches=(0,) * seats,
            target=(),
            turn=starter,
            throws=1,
            version=0,
        )
        return state

    def starter_data(self, state: SpichkiState) -> Mapping[str, Any]:
        return {"pile": state.pile}

    def legal_actions(self, state: SpichkiState) -> list[Action]:
        if state.finished:
            return []
        return [SET_TARGET if state.setting_target else CHASE]

    def outcome(self, state: SpichkiState) -> Outcome | None:
        if not state.finished:
            return None
        ranking = tuple(sorted(range(state.seats), key=lambda s: (-state.matches[s], s)))
        data = {"matches": list(state.matches), "pile": state.pile}
        if len(state.winners) > 1:  # rule 6: a tie for the most
            return Outcome("draw", winners=state.winners, ranking=ranking, data=data)
        return Outcome("win", winners=state.winners, ranking=ranking, data=data)

    def apply(self, state: SpichkiState, code: str,
              dice: Dice | None = None) -> tuple[SpichkiState, list[Event], LogEntry]:
        if state.finished or code != ROLL_CODE:
            raise IllegalActionError(f"{code!r} is not legal here")
        roller = state.turn
        thrown = throw_source(state.seed, dice).throw(state.throws, 2)
        target = state.target
        state = replace(state, throws=state.throws + 1, version=state.version + 1,
                        last_dice=thrown, last_seat=roller, last_target=target)
        events = [Event("throw", seat=roller, data={"dice": list(thrown), "target": list(target)})]
        if not target:
            state, more = self._set_target(state, roller, thrown)
        else:
            state, more = self._chase(state, roller, thrown)
        return state, events + more, LogEntry(seat=roller, code=code, dice=thrown)

    def _set_target(self, state: SpichkiState, roller: int, dice: tuple[int, ...]) -> tuple[SpichkiState, list[Event]]:
        if dice[0] == dice[1]:  # rule 2: a double pays and the roller throws again
            return self._award(state, roller, DOUBLE_ON_TARGET, WHY_DOUBLE)
        chaser = next_seat(roller, state.seats)
        state = replace(state, target=dice, turn=chaser)
        return state, [Event("target", seat=roller, data={"dice": list(dice)}),
                       Event("pass", seat=chaser, data={"from": roller})]

    def _chase(self, state: SpichkiState, roller: int, dice: tuple[int, ...]) -> tuple[SpichkiState, list[Event]]:
        why, count = judge(state.target, dice, state.options.double_hit)
        if why is None:  # rule 3.4: the dice pass on, the target stays
            chaser = next_seat(roller, state.seats)
            return replace(state, turn=chaser), [Event("pass", seat=chaser, data={"from": roller})]
        if why == WHY_EXACT:  # rule 3.1: the same player sets a new target
            state = replace(state, target=())
        return self._award(state, roller, count, why)

    def _award(self, state: SpichkiState, seat: int, count: int, why: str) -> tuple[SpichkiState, list[Event]]:
        """Give matches from the pile; unless the game ends, the same player throws again."""
        taken = min(count, state.pile)  # rule 4
        matches = list(state.matches)
        matches[seat] += taken
        state = replace(state, pile=state.pile - taken, matches=tuple(matches))
        events = [Event("take", seat=seat, data={"count": taken, "held": matches[seat], "pile": state.pile,
                                                 "why": why})]
        if matches[seat] >= state.options.goal:  # rule 5
            state = replace(state, finished=True, winners=(seat,))
            return state, [*events, Event("win", seat=seat, data={"matches": matches[seat]})]
        if state.pile == 0:  # rule 6
            best = max(matches)
            winners = tuple(s for s in range(state.seats) if matches[s] == best)
            state = replace(state, finished=True, winners=winners)
            return state, [*events, Event("pile_empty", data={"winners": list(winners), "matches": best})]
        events.append(Event("again", seat=seat, data={"setting": state.setting_target}))
        return replace(state, turn=seat), events


ENGINE = SpichkiEngine()
