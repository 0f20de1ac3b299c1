"""A local playground: the real bot against the fake Bot API server, played in a browser page.

``python -m bot.playground`` (see ``__main__``); :func:`open_playground` for code and tests.
"""

from .server import ChatView, serve_view
from .world import MEMBERS, Playground, open_playground

__all__ = ["MEMBERS", "ChatView", "Playground", "open_playground", "serve_view"]
