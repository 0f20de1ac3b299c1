"""Maps that cannot grow without end: every per-chat or per-user memory of the bot is one of these.

A bot in a million chats must not keep a kilobyte for each of them for ever; what a map forgets is
read again (a chat's row) or was only ever a courtesy (a rate mark, a flood counter).
"""

from __future__ import annotations

import collections
from collections.abc import Iterator, MutableMapping
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LruDict(MutableMapping[K, V]):
    """A dict of at most ``bound`` entries: setting a new key past it forgets the least recently used.

    Reading a key (``[]``, ``get``) or setting it counts as a use.
    """

    def __init__(self, bound: int) -> None:
        if bound < 1:
            raise ValueError("bound must be at least 1")
        self.bound = bound
        self._data: collections.OrderedDict[K, V] = collections.OrderedDict()

    def __getitem__(self, key: K) -> V:
        value = self._data[key]
        self._data.move_to_end(key)
        return value

    def __setitem__(self, key: K, value: V) -> None:
        self._data[key] = value
        self._data.move_to_end(key)
        while len(self._data) > self.bound:
            self._data.popitem(last=False)

    def __delitem__(self, key: K) -> None:
        del self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __contains__(self, key: object) -> bool:
        return key in self._data
