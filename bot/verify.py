"""/verify <id>: re-derive every roll of a finished game from its revealed seed («честные кости»).

:func:`verify_log` is the check itself, a pure function of the engine, the game's seed and its
action log; :func:`answer` is what the chat is told, the one text of both ways in: the /verify
command (``bot.handlers.verify``) and the «🔎 Проверить кости» button (``bot.flow.dice_check``).
Neither the flow nor the handlers are imported here, so both can import this.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from markupsafe import Markup

from bot import texts
from bot.games import Registry
from bot.games.common import Tr, html_words
from bot.store import GameRow, LoggedAction
from engines.base import COMMITMENT_DIGITS, Engine, EngineError, GameOptions, LogEntry, seed_digest

OVER = ("finished", "stopped")  # only then may the seed be told: before, it would predict the dice
_GAME_ID = re.compile(r"#?([0-9]{1,18})")  # ASCII digits only, and small enough for an SQLite integer
# the lobby's commitment (its first 32 hex digits) or the whole SHA-256
_COMMITMENT = re.compile(rf"[0-9a-fA-F]{{{COMMITMENT_DIGITS}}}(?:[0-9a-fA-F]{{{64 - COMMITMENT_DIGITS}}})?")


class GameLogs(Protocol):
    """Where /verify reads a game from (the flow): the games the bot knows, and a game with its log."""

    @property
    def games(self) -> Registry: ...

    async def game_log(self, game_id: int) -> tuple[GameRow, list[LoggedAction]] | None: ...


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first logged action the seed does not reproduce.

    ``kind``: ``dice`` (other dice), ``seat`` (another player rolled), ``code`` (not a legal
    action there) or ``end`` (every action replays, but not to the stored position).
    """

    kind: str
    action: int  # index in the log, 0-based (the stored action number)
    roll: int  # the roll's number in the game, 1-based (= its DiceSource throw); 0 if no dice were involved
    seat: int | None  # the seat the log names
    code: str = ""
    logged: tuple[int, ...] = ()
    derived: tuple[int, ...] = ()
    derived_seat: int | None = None


@dataclass(frozen=True, slots=True)
class VerifyResult:
    """What :func:`verify_log` found: the rolls that matched, and the first mismatch (if any)."""

    rolls: int  # rolls re-derived and equal to the log (all of them when ``ok``)
    digest: str  # SHA-256 of the seed: its first COMMITMENT_DIGITS are the commitment the lobby showed
    mismatch: Mismatch | None = None
    commitment_ok: bool | None = None  # the commitment the player gave is ``digest``'s (None: none given)

    @property
    def ok(self) -> bool:
        return self.mismatch is None and self.commitment_ok is not False


def verify_log(
    engine: Engine[Any, Any],
    options: GameOptions,
    seats: int,
    seed: str,
    actions: Sequence[LogEntry],
    final_state: Mapping[str, Any] | None = None,
    commitment: str | None = None,
) -> VerifyResult:
    """Replay ``actions`` from ``seed`` and compare every roll (and who made it) with the log.

    ``final_state`` (the stored state as JSON), when given, must be where the replay ends: that
    catches actions cut off the end of the log, which no later roll would betray.
    """
    digest = seed_digest(seed)
    given = None if commitment is None else commits_to(digest, commitment)
    state, _ = engine.new_game(options, seats, seed)
    rolls = 0
    for i, entry in enumerate(actions):
        try:
            state, _, produced = engine.apply(state, entry.code)
        except (EngineError, ValueError, LookupError):  # a forged code may not even parse
            roll = rolls + 1 if entry.dice else 0
            return VerifyResult(rolls, digest, Mismatch("code", i, roll, entry.seat, entry.code, entry.dice), given)
        roll = rolls + 1 if entry.dice or produced.dice else 0
        if produced.dice != entry.dice:
            return VerifyResult(rolls, digest, Mismatch("dice", i, roll, entry.seat, entry.code, entry.dice,
                                                        produced.dice, produced.seat), given)
        if produced.seat != entry.seat:
            return VerifyResult(rolls, digest, Mismatch("seat", i, roll, entry.seat, entry.code, entry.dice,
                                                        produced.dice, produced.seat), given)
        rolls += bool(produced.dice)
    if final_state is not None and json.loads(json.dumps(state.to_json())) != final_state:  # stored: lists, not tuples
        return VerifyResult(rolls, digest, Mismatch("end", len(actions), 0, None), given)
    return VerifyResult(rolls, digest, None, given)


def commits_to(digest: str, commitment: str) -> bool:
    """Whether ``commitment``, the lobby's COMMITMENT_DIGITS hex digits or all of them, is ``digest``'s."""
    given = commitment.strip().lower()
    return len(given) in (COMMITMENT_DIGITS, len(digest)) and digest.startswith(given)


def _dice(values: Sequence[int]) -> str:
    return " · ".join(map(str, values)) or "—"


def _name(game: GameRow, seat: int | None, tr: Tr) -> str:
    if seat is None or not 0 <= seat < len(game.seats):
        return "?"
    return texts.shown_name(game.seats[seat].name, tr, seat)


def verdict(game: GameRow, result: VerifyResult, plain: Tr) -> Markup:
    """The answer to /verify for a game that is over: the verdict, then its seed and SHA-256."""
    tr, gid, bad = html_words(plain), str(game.id), result.mismatch
    if bad is None:
        lines = [tr("verify-ok", id=gid, count=result.rolls)]
    elif bad.kind == "dice":
        lines = [tr("verify-bad-dice", id=gid, roll=bad.roll, action=bad.action + 1, name=_name(game, bad.seat, plain),
                    logged=_dice(bad.logged), derived=_dice(bad.derived))]
    elif bad.kind == "seat":
        lines = [tr("verify-bad-seat", id=gid, action=bad.action + 1, name=_name(game, bad.seat, plain),
                    expected=_name(game, bad.derived_seat, plain))]
    elif bad.kind == "code":
        lines = [tr("verify-bad-code", id=gid, action=bad.action + 1, name=_name(game, bad.seat, plain),
                    code=bad.code[:16])]
    else:
        lines = [tr("verify-bad-end", id=gid)]
    if result.commitment_ok is not None:
        lines.append(tr("verify-commitment-ok" if result.commitment_ok else "verify-commitment-bad"))
    lines += [tr("verify-seed", seed=game.seed), tr("verify-digest", digest=result.digest), tr("verify-how")]
    return Markup("\n").join(lines)


def request(args: Sequence[str]) -> tuple[int, str | None] | None:
    """The game id and the commitment (if any) of «/verify <id> [commitment]»; None: not of that form."""
    match = _GAME_ID.fullmatch(args[0]) if 1 <= len(args) <= 2 else None
    commitment = args[1] if len(args) == 2 else None
    if match is None or (commitment is not None and not _COMMITMENT.fullmatch(commitment)):
        return None
    return int(match.group(1)), commitment


async def answer(logs: GameLogs, chat_id: int, game_id: int, commitment: str | None, plain: Tr) -> Markup:
    """What /verify ``game_id`` asked in ``chat_id`` says; the seed only of a game that is over."""
    tr = html_words(plain)
    logged = await logs.game_log(game_id)
    if logged is None or logged[0].chat_id != chat_id:  # another chat's game: the same answer, nothing leaks
        return tr("verify-unknown", id=str(game_id))
    game, actions = logged
    spec = logs.games[game.code]
    if not spec.dice_per_roll:  # no dice, so no commitment was shown: there is nothing to check
        return tr("verify-no-dice", id=str(game_id), game=plain(f"game-{game.code}"))
    if game.status not in OVER:
        return tr("verify-not-over", id=str(game_id))
    if game.state is None:  # a lobby closed before the start
        return tr("verify-not-started", id=str(game_id))
    engine = spec.engine
    log = [LogEntry(a.seat, a.code, a.dice) for a in actions if a.n >= 0]  # n = -1: the bot's own «start»
    options = engine.options_from_json(game.options)
    # a long game replays in tens of milliseconds: off the event loop, like the computer's turns
    result = await asyncio.to_thread(verify_log, engine, options, len(game.seats), game.seed, log, game.state,
                                     commitment)
    return verdict(game, result, plain)
