"""Loading what a press needs in one read: the chat (its language and settings) and the game.

A stored game that can no longer be decoded (not JSON, a game or option the bot no longer has, a
state of an older shape) raises :class:`BrokenGame` here, after ``on_broken`` has quarantined it
(:mod:`bot.flow.quarantine`): one poison row must cost only its own chat, never the start-up
catch-up, the sweep or the other chats' timers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.bounded import LruDict
from bot.flow.context import Chat, Game, chat_of
from bot.games import Registry
from bot.games.common import Tr
from bot.store import ChatRow, GameRow, Store, caches
from locales import Translator

# what decoding a stored game raises on data it cannot read (json's errors are ValueErrors, and so
# are the engines' OptionsErrors; a missing field is a TypeError, an unknown game a KeyError)
UNREADABLE = (LookupError, ValueError, TypeError, AttributeError)
OnBroken = Callable[[GameRow, Exception], Awaitable[None]]


class BrokenGame(Exception):
    """The stored game ``game_id`` cannot be decoded; it was quarantined where it was met, so whoever
    meets it only goes on with the rest (or tells the presser)."""

    def __init__(self, game_id: int, chat_id: int) -> None:
        super().__init__(f"game {game_id} cannot be decoded")
        self.game_id, self.chat_id = game_id, chat_id


class Loader:
    """The chat and the game of a press or command, decoded (:class:`Chat`, :class:`Game`)."""

    on_broken: OnBroken | None = None  # quarantines a game that cannot be decoded (set by GameFlow)

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
        the active game of the chat's topic ``thread`` when ``game_id`` is None (None once a broken one
        is quarantined, so a command there finds the topic free)."""
        chat_row, row = await self.store.load(chat_id, game_id, thread)
        chat = self._chat(chat_row)
        if row is None:
            return chat, None
        try:
            return chat, await self.decode(row)
        except BrokenGame:
            if game_id is not None:
                raise
            return chat, None  # quarantined just now: the topic has no active game any more

    async def game(self, game_id: int) -> tuple[Chat, Game] | None:
        """The game ``game_id`` and its chat (None: no such game)."""
        row = await self.store.game(game_id)
        if row is None:
            return None
        return await self.chat(row.chat_id), await self.decode(row)

    async def decode(self, row: GameRow) -> Game:
        """The game ``row`` stores, decoded; one that cannot be is quarantined and raises :class:`BrokenGame`."""
        try:
            if row.unreadable:
                raise ValueError(f"not JSON: {row.unreadable}")
            return Game.decode(row, self.games)
        except UNREADABLE as exc:
            if self.on_broken is not None:
                await self.on_broken(row, exc)
            raise BrokenGame(row.id, row.chat_id) from exc
