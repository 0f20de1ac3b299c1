"""The update a write answers, so that Telegram delivering it again changes nothing.

The bot handles each update after :func:`begin` (bot/redelivery.py). The first write of the
store that a person's update asks for (a new lobby, a seating, a stop, a setting …) records the
update's id in ``handled_updates`` in the same transaction as the change: a second delivery of that
update (after a restart, or a webhook answer that was lost) finds its id there and writes nothing
(:class:`~bot.store.protocol.AlreadyHandledError`). A move needs no claim: its save is checked
against the version it starts from, so a press delivered again is stale.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass
class Claim:
    """An update being handled; ``taken`` once its id is stored (by a change, or at the end)."""

    update_id: int
    taken: bool = False
    failed: bool = False  # the database failed while handling it: nothing is stored, not even the id


_CURRENT: ContextVar[Claim | None] = ContextVar("update_claim", default=None)


def pending() -> Claim | None:
    """The claim the next change must take with it: the update being handled, not yet stored."""
    claim = _CURRENT.get()
    return None if claim is None or claim.taken else claim


def storage_failed() -> None:
    """The update being handled met a database failure: it is not recorded, so a second delivery is
    handled afresh."""
    claim = _CURRENT.get()
    if claim is not None:
        claim.failed = True


def begin(update_id: int) -> Claim:
    """Update ``update_id`` is being handled in this task (PTB handles each update in a task of its own)."""
    claim = Claim(update_id)
    _CURRENT.set(claim)
    return claim


@contextmanager
def answering(update_id: int) -> Iterator[Claim]:
    """Handle update ``update_id`` in the body: the store's changes made there take its claim."""
    claim = Claim(update_id)
    token = _CURRENT.set(claim)
    try:
        yield claim
    finally:
        _CURRENT.reset(token)
