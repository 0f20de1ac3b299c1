"""Faults a test schedules for the next calls of a Bot API method: error answers and late answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from .models import ApiError


@dataclass
class Fault:
    """An injected error to return for the next call(s) of one method."""

    error: ApiError
    remaining: int


@dataclass
class Delay:
    """A late answer for the next call(s) of one method; ``applied`` says the effect is not late."""

    seconds: float
    remaining: int
    applied: bool


Injected = TypeVar("Injected", Fault, Delay)


def _take_next(queues: dict[str, list[Injected]], method: str) -> Injected | None:
    """Use up one call of the first injection queued for ``method`` (None when none is)."""
    queue = queues.get(method)
    if not queue:
        return None
    first = queue[0]
    first.remaining -= 1
    if first.remaining <= 0:
        queue.pop(0)
    return first


class InjectedFaults:
    """Per Bot API method (canonical name), the faults still to give, the first scheduled first."""

    def __init__(self) -> None:
        self._faults: dict[str, list[Fault]] = {}
        self._delays: dict[str, list[Delay]] = {}

    def add_fault(self, method: str, fault: Fault) -> None:
        """Answer the next ``fault.remaining`` calls of ``method`` with ``fault.error``."""
        self._faults.setdefault(method, []).append(fault)

    def add_delay(self, method: str, delay: Delay) -> None:
        """Answer the next ``delay.remaining`` calls of ``method`` late."""
        self._delays.setdefault(method, []).append(delay)

    def next_fault(self, method: str) -> Fault | None:
        """The fault this call of ``method`` gets, if any (using it up)."""
        return _take_next(self._faults, method)

    def next_delay(self, method: str) -> Delay | None:
        """The delay this call of ``method`` gets, if any (using it up)."""
        return _take_next(self._delays, method)
