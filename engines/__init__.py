"""Pure game rules, one module per game; see engines/base.py for the contract."""

from __future__ import annotations

from typing import Any

from engines import lions, lions_ai, ludo, parchis, shishbesh, sosedi, spichki, tishe
from engines.base import Engine

# Game codes as in shared/rules/README.md; the picker lists them in this order.
GAMES: dict[str, Engine[Any, Any]] = {
    sosedi.ENGINE.code: sosedi.ENGINE,
    spichki.ENGINE.code: spichki.ENGINE,
    tishe.ENGINE.code: tishe.ENGINE,
    shishbesh.ENGINE.code: shishbesh.ENGINE,
    ludo.ENGINE.code: ludo.ENGINE,
    parchis.ENGINE.code: parchis.ENGINE,
    lions.ENGINE.code: lions.ENGINE,
}

# Games a player can play against the computer: each AI's plan(state) gives the codes of its turn.
AI_PLAYERS: dict[str, Any] = {lions.ENGINE.code: lions_ai.AI}


def get_engine(code: str) -> Engine[Any, Any] | None:
    """The engine for a game code, or None for an unknown code."""
    return GAMES.get(code)
