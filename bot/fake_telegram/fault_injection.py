"""Fault injection from a test: error answers, late answers and the group flood limit."""

from __future__ import annotations

from .faults import Delay, Fault
from .methods import METHODS
from .models import ApiError
from .world import World

_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
    409: "Conflict", 500: "Internal Server Error", 502: "Bad Gateway",
}


def _implemented(method: str) -> str:
    """The canonical name of a Bot API method the fake server implements (any spelling of case)."""
    entry = METHODS.get(method.lower())
    if entry is None:
        raise ValueError(f"the fake server does not implement {method!r}")
    return entry[0]


class FaultInjection(World):
    """The test-facing methods that make the next calls of a method fail or answer late."""

    def fail_next(
        self,
        method: str,
        error_code: int = 429,
        description: str | None = None,
        retry_after: int | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next ``times`` calls of ``method`` with this error (429 adds retry_after)."""
        name = _implemented(method)
        if error_code == 429 and retry_after is None:
            retry_after = 1
        if description is None:
            description = (f"Too Many Requests: retry after {retry_after}" if error_code == 429
                           else _DEFAULT_DESCRIPTIONS.get(error_code, f"Error {error_code}"))
        error = ApiError(error_code, description, retry_after=retry_after, violation=False)
        self.faults.add_fault(name, Fault(error, times))

    def delay_next(self, method: str, seconds: float, times: int = 1, *,
                   applied: bool = True) -> None:
        """Answer the next ``times`` calls of ``method`` only after ``seconds``, as a slow Telegram.

        ``applied=True``: the call takes effect at once and only the answer is late.
        ``applied=False``: the call waits, then takes effect, like a request stuck before
        Telegram processed it; it is performed even if the client gave up and hung up, because
        Telegram performs every request it received. Other calls are answered meanwhile;
        ``close()`` ends every wait at once. Delayed calls are recorded with ``delayed=seconds``.
        """
        name = _implemented(method)
        if seconds < 0 or times < 1:
            raise ValueError("seconds must be >= 0 and times >= 1")
        self.faults.add_delay(name, Delay(seconds, times, applied))

    def enforce_group_rate(self, per_minute: int | None = 20, period: float = 60.0,
                           private_per_second: int | None = None) -> None:
        """Answer 429 once the bot sends/edits more than ``per_minute`` times in any ``period``
        seconds in a group (tests shrink the minute to keep the suite fast), or more than
        ``private_per_second`` in a second in a private chat."""
        self.rate_limit.configure(per_minute, period, private_per_second)

    def flood_chat(self, chat_id: int, seconds: float) -> None:
        """Answer every send and edit of the bot in the chat with 429 for ``seconds`` (a flood wait)."""
        self.rate_limit.flood(chat_id, self.clock() + seconds)
