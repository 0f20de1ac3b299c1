"""Loading what a press needs in one read: the chat (its language and settings) and the game."""

from __future__ import annotations

from bot.bounded import LruDict
from bot.flow.context import Chat, Game, chat_of
from bot.games import Registry
from bot.games.common import Tr
from bot.store import ChatRow, Store, caches
from locales import Translator


class Loader:
    """The chat and the game of a press or command, decoded (:class:`Chat`, :class:`Game`)."""

    def __init__(self, store: Store, games: Registry, translator: Translator, default_lang: str) -> None:
        self.store, self.games, self.translator, self.default_lang = store, games, translator, default_lang
        self._chats: LruDict[int, tuple[ChatRow, Chat]] = LruDict(caches.CHATS_KEPT)  # as the store's rows

    def words(self, lang: str) -> Tr:
        """The messages of ``lang``: ``tr(key, **args)``."""
        return lambda key, /, **args: self.translator.t(lang, key, **args)

    async def chat(self, chat_id: int) -> Chat:
        return self._chat(await self.store.chat(chat_id))

    def _chat(self, row: ChatRow) -> Chat:
        """The chat ``row`` stores, made once per row (the store hands out the same row until it changes)."""
        made = self._chats.get(row.chat_id)
        if made is None or made[0] is not row:
            made = self._chats[row.chat_id] = (row, chat_of(row, self.default_lang, self.words))
        return made[1]

    async def load(self, chat_id: int, game_id: int | None = None, thread: int = 0) -> tuple[Chat, Game | None]:
        """The chat and its game ``game_id`` (whichever chat that game is of: the caller checks), or
        the active game of the chat's topic ``thread`` when ``game_id`` is None."""
        chat_row, row = await self.store.load(chat_id, game_id, thread)
        return self._chat(chat_row), None if row is None else Game.decode(row, self.games)

    async def game(self, game_id: int) -> tuple[Chat, Game] | None:
        """The game ``game_id`` and its chat (None: no such game)."""
        row = await self.store.game(game_id)
        if row is None:
            return None
        return await self.chat(row.chat_id), Game.decode(row, self.games)
