"""Pure game rules, one module per game; see engines/base.py for the contract."""

from __future__ import annotations

from typing import Any

from engines import (
    lions,
    lions_ai,
    ludo,
    ludo_ai,
    parchis,
    parchis_ai,
    shishbesh,
    shishbesh_ai,
    sosedi,
    spichki,
    tishe,
    tishe_ai,
)
from engines.base import BestScorePolicy, Engine, Policy

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

# The computer player of each game (issue #8): plan(state) gives the codes it plays now. In
# «Помоги своему соседу» and «Спички» the roll is the only action there ever is.
AI_PLAYERS: dict[str, Policy[Any]] = {
    sosedi.ENGINE.code: BestScorePolicy(sosedi.ENGINE),
    spichki.ENGINE.code: BestScorePolicy(spichki.ENGINE),
    tishe.ENGINE.code: tishe_ai.AI,
    shishbesh.ENGINE.code: shishbesh_ai.AI,
    ludo.ENGINE.code: ludo_ai.AI,
    parchis.ENGINE.code: parchis_ai.AI,
    lions.ENGINE.code: lions_ai.AI,
}


def get_engine(code: str) -> Engine[Any, Any] | None:
    """The engine for a game code, or None for an unknown code."""
    return GAMES.get(code)
