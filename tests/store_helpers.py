"""Helpers of the storage tests: moves written the short way."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.store import JSON, Move, NewAction


def moved(game_id: int, expected_version: int, state: JSON, version: int,
          actions: Sequence[tuple[int | None, str, Sequence[int], list[JSON]]], **changes: Any) -> Move:
    """A :class:`Move` whose actions are given as (seat, code, dice, events) tuples."""
    return Move(game_id, expected_version, state, version, [NewAction(*a) for a in actions], **changes)
