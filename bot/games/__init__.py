"""Per-game presentation for the bot: lobby settings, event wording, rendering.

The engines know nothing of words or Telegram; each module here maps one engine's data
to locale keys, lobby buttons and its renderer. The bot core stays game-agnostic.
"""

from __future__ import annotations

from bot.games import lions, ludo, parchis, shishbesh, sosedi, spichki, tishe
from bot.games.common import GameUI

# Picker order; codes as in shared/rules/README.md.
GAME_UIS: dict[str, GameUI] = {
    ui.code: ui for ui in (sosedi.UI, spichki.UI, tishe.UI, shishbesh.UI, ludo.UI, parchis.UI, lions.UI)
}
