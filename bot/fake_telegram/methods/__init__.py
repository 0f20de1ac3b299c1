"""The Bot API methods of the fake server, one module per area; importing this registers them all.

A new area is a new module here whose ``@api_method`` coroutines take the world, the call's
params and its files, plus its name in the import below (``topics`` is the forum topics').
"""

from . import bot, callbacks, chats, commands, messages, topics, updates  # noqa: F401  (they register their methods)
from .callbacks import QUERY_TOO_OLD
from .messages import NOT_MODIFIED, RATE_LIMITED
from .registry import METHODS, Files, Handler

__all__ = ["METHODS", "NOT_MODIFIED", "QUERY_TOO_OLD", "RATE_LIMITED", "Files", "Handler"]
