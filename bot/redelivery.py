"""Updates Telegram delivers again after the bot handled them change nothing.

Telegram delivers an update again when it did not learn that the bot took it: the bot restarted
before confirming it (polling's next offset, a webhook answer lost on SIGTERM or a crash). The store
keeps the ids of handled updates (bot/store/claims.py): a change takes its update's claim in its own
transaction (a move's in the one statement that saves it), so a second delivery of a press or a
command writes nothing; an update that changed nothing but was answered (a command, a press refused
with a toast) is recorded when it is done, so it is not answered twice. Only ids up to the highest
one stored when the bot started can have been handled by an earlier run, so only those cost a read;
in this run the webhook's filter and polling's offset keep each id to one delivery.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from telegram import Update
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot.store import StorageError, Store, claims

log = logging.getLogger(__name__)
FIRST, LAST = -1, 1  # the handler groups around the bot's own (group 0)
KEY = "redelivery"  # where bot_data keeps the Redelivery once the store is open
KEEP_S = 2 * 24 * 3600  # Telegram keeps an undelivered update for 24 hours


def unheard(update: Update) -> bool:
    """Whether the bot leaves ``update`` alone: a message that is neither a command nor a change of the
    chat it follows (a group's talk, which it never answers, costs no write)."""
    message = update.message
    if message is None or (message.text or "").startswith("/"):
        return False
    return not (message.migrate_to_chat_id or message.forum_topic_closed or message.forum_topic_reopened)


class Redelivery:
    """Handles each update once across restarts: its first handler (group :data:`FIRST`) stops an
    update a store says was handled; the last (group :data:`LAST`) records one that changed nothing."""

    def __init__(self, store: Callable[[], Store], earlier_up_to: int) -> None:
        self._store, self.earlier_up_to = store, earlier_up_to

    @classmethod
    async def opened(cls, store: Callable[[], Store]) -> Redelivery:
        """Forget the ids too old to come again first: after a week down, Telegram may number afresh from
        any id, and the ids of a week ago must not make its new updates look handled."""
        opened = store()
        await opened.forget_updates(opened.clock() - KEEP_S)
        return cls(store, await opened.latest_update())

    async def before(self, update: Update) -> None:
        """Stop ``update`` if an earlier run handled it; else its changes take its claim from here on."""
        if update.update_id <= self.earlier_up_to and await self._handled(update.update_id):
            log.info("update %d was handled before a restart: skipped", update.update_id)
            raise ApplicationHandlerStop
        claims.begin(update.update_id)

    async def after(self, update: Update) -> None:
        """Record ``update`` if it changed nothing yet may have posted (a command, a button not a move)."""
        claim = claims.pending()
        if claim is None or claim.update_id != update.update_id or claim.failed or unheard(update):
            return
        try:
            await self._store().record_update(update.update_id)
        except StorageError as exc:  # its reply is out: at worst a second delivery posts it again
            log.error("storage failed (%s) recording update %d as handled", exc, update.update_id)
            return
        claim.taken = True  # a task it started must not claim it again later

    async def _handled(self, update_id: int) -> bool:
        try:
            return await self._store().update_handled(update_id)
        except StorageError:  # handled again rather than lost: its change still checks its claim
            return False


async def stop_if_handled(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Skip an update an earlier run handled (the first handler of every update)."""
    await context.bot_data[KEY].before(update)


async def record_if_unchanged(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Remember an update that changed nothing but may have posted (the last handler of every update)."""
    await context.bot_data[KEY].after(update)
