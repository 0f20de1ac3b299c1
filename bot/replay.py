"""Which boards a replay clip shows, and for how long.

A game is replayed from its action log (the dice come again from its seed, as ``/verify`` checks):
one shot after each action, a short one for an ordinary action, a longer one for an action whose
events hold one of the game's moments (``GameSpec.replay_moment``: a capture, a piece home…), and
the longest for the end. A long game does not fit in ``MAX_TICKS``: its moments get shorter, then
ordinary shots are left out evenly over the game, then moments too, until it fits; the first and
the last board always stay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bot.clip import FPS, Shot
from engines.base import Engine, Event, LogEntry

START_TICKS = 1 * FPS  # the board as dealt
STEP_TICKS = 2  # half a second an action
QUICK_STEP_TICKS = 1  # … a quarter when the game is long
MOMENT_TICKS = 6  # a second and a half on a moment
SHORT_MOMENT_TICKS = 3  # … when the game is long
END_TICKS = 4 * FPS  # the end, held
MAX_TICKS = 38 * FPS  # at most 40 s (two to spare)


def shots_of(engine: Engine[Any, Any], options: Any, seats: int, seed: str, log: Sequence[LogEntry],
             moment: Callable[[Event], bool], max_ticks: int = MAX_TICKS) -> list[Shot]:
    """The shots of a game replayed from ``seed`` through ``log``, fitted into ``max_ticks``."""
    state, _ = engine.new_game(options, seats, seed)
    shots = [Shot(state, (), START_TICKS)]
    for entry in log:
        state, events, _ = engine.apply(state, entry.code)
        shots.append(Shot(state, events, MOMENT_TICKS if any(map(moment, events)) else STEP_TICKS))
    shots[-1] = shots[-1]._replace(ticks=END_TICKS)
    return fitted(shots, max_ticks)


def ticks(shots: Sequence[Shot]) -> int:
    return sum(s.ticks for s in shots)


def fitted(shots: Sequence[Shot], max_ticks: int) -> list[Shot]:
    """``shots`` cut to at most ``max_ticks`` (see the module's notes); the first and last stay."""
    if ticks(shots) <= max_ticks or len(shots) <= 2:
        return list(shots)
    first, *middle, last = shots
    moments = [i for i, s in enumerate(middle) if s.ticks > STEP_TICKS]
    steps = [i for i, s in enumerate(middle) if s.ticks <= STEP_TICKS]
    middle = [s._replace(ticks=SHORT_MOMENT_TICKS if i in moments else QUICK_STEP_TICKS) for i, s in enumerate(middle)]
    room = max_ticks - first.ticks - last.ticks
    moment_ticks = sum(middle[i].ticks for i in moments)
    if moment_ticks <= room:  # every moment, and as many ordinary shots as the rest holds
        kept = moments + evenly(steps, (room - moment_ticks) // QUICK_STEP_TICKS)
    else:  # moments alone are too many: as many of them as fit
        kept = evenly(moments, room // SHORT_MOMENT_TICKS)
    return [first, *(middle[i] for i in sorted(kept)), last]


def evenly(items: Sequence[int], count: int) -> list[int]:
    """``count`` of ``items`` spread evenly over them (all of them if there are no more)."""
    if count >= len(items):
        return list(items)
    if count <= 0:
        return []
    step = len(items) / count
    return [items[int(step * k + step / 2)] for k in range(count)]
