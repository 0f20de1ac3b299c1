"""Callback data: short ASCII strings, parsed strictly (never trusted).

Formats (all ≤ 64 bytes):
- ``n:<game code>``                       the picker: open a lobby of that game
- ``l:<game id>:<command>[:<key>:<value>]`` a lobby button (join, leave, start, cancel, set,
                                            ai: play against the computer, bot/unbot: seat
                                            or unseat a computer player, timer: this
                                            game's turn timer's next choice, ping: its
                                            turn ping's, level: its computer's next
                                            level, pace: fast or classic table)
- ``g:<game id>:<version>:<action code>`` a move; a press whose version is not current
  is stale and changes nothing (one the game has not reached yet, on a button its message
  carries, is on a table ahead of a store that lost its last commits: the stored table is
  posted anew, bot/flow/catch_up.py)
- ``y:<game id>:<version>:<action code>`` the second press of an action that asks first
                                            («Да, сдаюсь»): the move, if still current
- ``u:<game id>:<version>``               «Отмена» of such a question: the table's keyboard again
- ``r:<game id>``                         «Ещё раунд» after a finished game
- ``k:<game id>:<version>``               «⏭ Пропустить игрока»
- ``v:<game id>``                         «🔎 Проверить кости» under a finished game's result: post
                                            what ``/verify <id>`` says, as a reply to the result
- ``w:<game id>``                         «🎬 Повтор» under a finished game's result: its replay clip
                                            (what ``/replay <id>`` sends), as a reply to the result
- ``s:[<game code>.]<key>:<value>``       a /settings button: the chat's default
                                            ``<key>`` (lang, timer, ping, pace, tidy, zone, or a
                                            game's variant option) becomes ``<value>``
Game ids are base 36.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64
# a lobby button's key: «to» — the choice it sets (⏱, 🔔, 🎲 Стол, 🤖 Уровень: a second delivery or a double
# tap sets the same again); «seats» — how many seats it was drawn for (🤖 Добавить / Убрать бота: adds or
# removes one computer player only while the lobby still has as many)
TO, SEATS = "to", "seats"
_TOKEN = r"[a-z0-9_\-]{1,24}"
_SETTING = r"[a-z0-9_\-]{1,20}"  # lobby option names and values
_PATTERNS = {
    "n": re.compile(rf"n:(?P<code>{_TOKEN})"),
    "l": re.compile(rf"l:(?P<gid>[0-9a-z]{{1,10}}):"
                    rf"(?P<cmd>join|leave|start|cancel|set|ai|bot|unbot|timer|ping|level|pace)"
                    rf"(?::(?P<key>{_SETTING}):(?P<value>{_SETTING}))?"),
    "g": re.compile(rf"g:(?P<gid>[0-9a-z]{{1,10}}):(?P<ver>[0-9]{{1,7}}):(?P<code>{_TOKEN})"),
    "y": re.compile(rf"y:(?P<gid>[0-9a-z]{{1,10}}):(?P<ver>[0-9]{{1,7}}):(?P<code>{_TOKEN})"),
    "u": re.compile(r"u:(?P<gid>[0-9a-z]{1,10}):(?P<ver>[0-9]{1,7})"),
    "r": re.compile(r"r:(?P<gid>[0-9a-z]{1,10})"),
    "k": re.compile(r"k:(?P<gid>[0-9a-z]{1,10}):(?P<ver>[0-9]{1,7})"),
    "v": re.compile(r"v:(?P<gid>[0-9a-z]{1,10})"),
    "w": re.compile(r"w:(?P<gid>[0-9a-z]{1,10})"),
    "s": re.compile(rf"s:(?:(?P<code>[a-z0-9_]{{1,12}})\.)?(?P<key>{_SETTING}):(?P<value>{_SETTING})"),
}


@dataclass(frozen=True, slots=True)
class Callback:
    """A parsed press. Fields unused by ``kind`` are empty."""

    kind: str
    game_id: int = 0
    version: int = -1
    code: str = ""
    command: str = ""
    key: str = ""
    value: str = ""


def to_base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def picker(code: str) -> str:
    return _checked(f"n:{code}")


def lobby(game_id: int, command: str, key: str = "", value: str = "") -> str:
    tail = f":{key}:{value}" if key else ""
    return _checked(f"l:{to_base36(game_id)}:{command}{tail}")


def move(game_id: int, version: int, code: str) -> str:
    return _checked(f"g:{to_base36(game_id)}:{version}:{code}")


def confirm(game_id: int, version: int, code: str) -> str:
    """«Да, сдаюсь»: the action ``code`` at ``version``, confirmed by its second press."""
    return _checked(f"y:{to_base36(game_id)}:{version}:{code}")


def unconfirm(game_id: int, version: int) -> str:
    """«Отмена»: the question at ``version`` withdrawn, the table's keyboard back."""
    return _checked(f"u:{to_base36(game_id)}:{version}")


def kick(game_id: int, version: int) -> str:
    """«⏭ Пропустить игрока»: the host skips the player to move at ``version`` for good."""
    return _checked(f"k:{to_base36(game_id)}:{version}")


def rematch(game_id: int) -> str:
    return _checked(f"r:{to_base36(game_id)}")


def check_dice(game_id: int) -> str:
    """«🔎 Проверить кости»: the fair-dice check of the finished game ``game_id``, posted in the chat."""
    return _checked(f"v:{to_base36(game_id)}")


def replay(game_id: int) -> str:
    """«🎬 Повтор»: the replay clip of the finished game ``game_id``, sent in the chat."""
    return _checked(f"w:{to_base36(game_id)}")


def chat_setting(key: str, value: str, code: str = "") -> str:
    """A /settings button: the chat's default ``key`` (of the game ``code``, if given) becomes ``value``."""
    return _checked(f"s:{code}.{key}:{value}" if code else f"s:{key}:{value}")


def _checked(data: str) -> str:
    if len(data.encode()) > MAX_BYTES or parse(data) is None:
        raise ValueError(f"bad callback data {data!r}")
    return data


def parse(data: str | None) -> Callback | None:
    """The press described by ``data``, or None for anything malformed."""
    if not data or len(data.encode("utf-8", "replace")) > MAX_BYTES:
        return None
    pattern = _PATTERNS.get(data[0])
    match = pattern.fullmatch(data) if pattern else None
    if match is None:
        return None
    groups = match.groupdict()
    # the patterns' classes are ASCII ranges ([0-9], not \d, which takes «٣»), with lengths bounded:
    # int() below only ever meets a short run of ASCII digits or base 36 letters
    gid = int(groups["gid"], 36) if groups.get("gid") else 0
    return Callback(
        kind=data[0],
        game_id=gid,
        version=int(groups["ver"]) if groups.get("ver") else -1,
        code=groups.get("code") or "",
        command=groups.get("cmd") or "",
        key=groups.get("key") or "",
        value=groups.get("value") or "",
    )
