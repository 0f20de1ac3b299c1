"""The games the bot offers, each declared once (:class:`bot.games.spec.GameSpec`), in the picker's order.

Each module here maps one engine's data to words, lobby buttons and its board picture, and holds
the game's spec; the bot's core only iterates :data:`GAMES`. Codes as in docs (docs/rules/README.md).
"""

from __future__ import annotations

from bot.games import lions, ludo, parchis, shishbesh, sosedi, spichki, tishe
from bot.games.spec import GameSpec, Registry, Variant

GAMES = Registry((sosedi.SPEC, spichki.SPEC, tishe.SPEC, shishbesh.SPEC, ludo.SPEC, parchis.SPEC, lions.SPEC))

__all__ = ["GAMES", "GameSpec", "Registry", "Variant"]
