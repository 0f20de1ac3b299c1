"""«🔎 Проверить кости» under a result message: the chat is told what ``/verify <id>`` tells
(:func:`bot.verify.answer`), as a reply to the result.

Anyone in the chat may press it; a game's check is posted at most once a minute, however many
press it, so the button cannot flood the chat.
"""

from __future__ import annotations

from bot.flow.context import Chat, Game, Reply, Sources
from bot.flow.messages import Messages
from bot.verify import GameLogs, answer

AGAIN_AFTER = 60.0  # seconds (of the flow's clock) before a game's check is posted once more


class DiceCheck:
    """Posts the fair-dice check of a finished game when its result's button is pressed."""

    def __init__(self, logs: GameLogs, messages: Messages, sources: Sources) -> None:
        self.logs, self.messages, self.sources = logs, messages, sources
        # game id → when its check was last posted; bounded by expiry: only the last minute's are kept
        self._posted: dict[int, float] = {}

    def press(self, chat: Chat, game: Game, message_id: int | None) -> Reply:
        """The button under ``game``'s result (message ``message_id``) pressed; the caller holds the chat's lock
        and has checked that the game is this chat's."""
        row = game.row
        if row.status != "finished" or not game.spec.dice_per_roll:  # no result offers the button: forged data
            return Reply(chat.tr("toast-stale"))
        now = self.sources.clock()
        self._posted = {g: at for g, at in self._posted.items() if now - at < AGAIN_AFTER}  # only what still counts
        if row.id in self._posted:
            return Reply(chat.tr("toast-dice-checked"))
        self._posted[row.id] = now
        return Reply(chat.tr("toast-dice-check"), after=lambda: self._post(chat, row.id, row.thread_id, message_id))

    async def _post(self, chat: Chat, game_id: int, thread: int, reply_to: int | None) -> None:
        text = await answer(self.logs, chat.id, game_id, None, chat.tr)
        await self.messages.send(chat.id, text, thread=thread, reply_to=reply_to)
