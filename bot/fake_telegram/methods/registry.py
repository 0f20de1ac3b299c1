"""The table of Bot API methods the fake server implements, filled by ``@api_method``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..models import JSONDict
from ..world import World

Files = dict[str, bytes]
"""Uploaded files of a call by form field name."""
Handler = Callable[[World, JSONDict, Files], Awaitable[Any]]
"""A Bot API method: the world, the call's decoded params and its files -> the ``result``."""
METHODS: dict[str, tuple[str, Handler]] = {}
"""Lower-cased method name -> (canonical name, handler); Telegram matches names case-insensitively."""


def api_method(name: str) -> Callable[[Handler], Handler]:
    """Register a coroutine as the implementation of Bot API method ``name``."""

    def register(func: Handler) -> Handler:
        METHODS[name.lower()] = (name, func)
        return func

    return register
