"""The errors an engine raises on purpose (typed, as data: the bot puts them into words)."""

from __future__ import annotations


class EngineError(Exception):
    """Base class of every error an engine raises on purpose."""


class IllegalActionError(EngineError):
    """The action is not legal in this state (wrong code, game over, not your turn)."""


# what an OptionsError names as the limits of a value: min=, max= or allowed=
OptionLimit = int | tuple[int, ...] | tuple[str, ...]


class OptionsError(EngineError, ValueError):
    """An option value is out of range; ``key`` names the option, ``limits`` the limits as data
    (``min`` and ``max``, or ``allowed``): the bot puts them into words, an engine has none."""

    def __init__(self, key: str, message: str, **limits: OptionLimit) -> None:
        super().__init__(f"{key}: {message}")
        self.key = key
        self.limits = limits

    @property
    def min(self) -> int | None:
        low = self.limits.get("min")
        return low if isinstance(low, int) else None

    @property
    def max(self) -> int | None:
        high = self.limits.get("max")
        return high if isinstance(high, int) else None

    @property
    def allowed(self) -> tuple[int | str, ...]:
        """The values the option takes, if it names them (empty for a range or a yes/no option)."""
        values = self.limits.get("allowed")
        return tuple(values) if isinstance(values, tuple) else ()


class ReplayMismatchError(EngineError):
    """A logged roll differs from the roll the seed derives (a tampered log or seed)."""
