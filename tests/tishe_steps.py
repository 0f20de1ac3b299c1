"""A throw of «Тише едешь»'s dice, as its tests use it."""

from __future__ import annotations

from engines.base import Action

ROLL = Action("r", "roll")
