"""The engine contract shared by every game.

Every game module exposes one object satisfying :class:`Engine`. Engines are pure:
they take a state and an action code and return a new state plus events. They never
produce user text (events carry data; ``locales/`` turns them into words), never touch
clocks, files or the global ``random``. All chance comes from :class:`DiceSource`, which
derives roll *n* of a game from HMAC-SHA256(seed, n), so a game replays exactly from its
seed and action log, and anyone holding the revealed seed can re-derive every roll. (A test
may hand an action other :class:`Dice`, such as :class:`LoadedDice`; the log then records
those faces, and a replay from the seed refuses them.)
"""

from __future__ import annotations

import copyreg
import dataclasses
import functools
import hashlib
import hmac
import secrets
import typing
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, Self, TypeVar

from engines.errors import EngineError as EngineError
from engines.errors import IllegalActionError as IllegalActionError
from engines.errors import OptionLimit as OptionLimit
from engines.errors import OptionsError as OptionsError
from engines.errors import ReplayMismatchError as ReplayMismatchError

JSON = dict[str, Any]  # decoded JSON: what crosses into storage and back


class _Dataclass(Protocol):
    """What ``dataclasses.asdict`` and ``fields`` take (typeshed's DataclassInstance, which an
    engine may not import: tests/test_layers.py allows the standard library only)."""

    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


class JsonData:
    """Mixin for the dataclasses of options and states: plain JSON out and back in.

    ``from_json`` is the inverse of ``to_json``: lists become tuples again (nested ones too)
    where a field is a tuple, nested dataclasses are rebuilt, and keys the class does not
    know are ignored.
    """

    __slots__ = ()

    def to_json(self) -> JSON:
        return dataclasses.asdict(typing.cast(_Dataclass, self))

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Self:
        values: dict[str, Any] = {}
        for name, nested, is_tuple in _field_plan(cls):
            if name not in raw:
                continue
            value = raw[name]
            if nested is not None:
                value = nested.from_json(value)
            elif is_tuple and value is not None:
                value = _tuples(value)
            values[name] = value
        return cls(**values)


# per field of a JsonData class: its name, the JsonData class it holds (if any), whether it is a tuple
_FieldPlan = tuple[tuple[str, type[JsonData] | None, bool], ...]
# a dict, not functools.cache: mypy takes ``type[X].__hash__`` for the instances' and refuses the call
_FIELD_PLANS: dict[type[JsonData], _FieldPlan] = {}


def _field_plan(cls: type[JsonData]) -> _FieldPlan:
    """The fields of ``cls``, planned once per class: resolving type hints costs far more than
    rebuilding a state, and every press rebuilds one."""
    plan = _FIELD_PLANS.get(cls)
    if plan is None:
        hints = typing.get_type_hints(cls)
        rows = []
        for f in dataclasses.fields(typing.cast(type[_Dataclass], cls)):
            hint = hints[f.name]
            nested = hint if isinstance(hint, type) and issubclass(hint, JsonData) else None
            rows.append((f.name, nested, nested is None and typing.get_origin(hint) is tuple))
        plan = _FIELD_PLANS[cls] = tuple(rows)
    return plan


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list | tuple) else value


# What a button shows of an action, by name: the arguments of its locale message
# ``action-<game>-<kind>`` (``{ $piece }``, ``{ $to }``). Read-only by contract: engines share
# Actions between states.
ActionArgs = Mapping[str, int | str]
_NO_ARGS: ActionArgs = MappingProxyType({})


class Action(NamedTuple):
    """One legal choice. ``code`` is short, stable and ASCII (it travels in callback data);
    ``args`` name what its button shows."""

    code: str
    kind: str
    args: ActionArgs = _NO_ARGS


_NO_DATA: Mapping[str, Any] = MappingProxyType({})
# events and states cross to the bot's drawing processes by pickle, which has no rule for
# a read-only mapping of its own: copy it out and wrap it again on the other side
def _read_only(data: dict[str, Any]) -> MappingProxyType[str, Any]:
    return MappingProxyType(data)


copyreg.pickle(MappingProxyType, lambda proxy: (_read_only, (dict(proxy),)))


class Event(NamedTuple):
    """Something that happened, as data. ``seat`` is the acting seat when there is one.

    A named tuple rather than a dataclass: engines make a few per action, and a named
    tuple is built in half the time of a frozen dataclass (see bench/engine_speed.py).
    """

    kind: str
    seat: int | None = None
    data: Mapping[str, Any] = _NO_DATA

    def to_json(self) -> JSON:
        return {"kind": self.kind, "seat": self.seat, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: JSON) -> Event:
        return cls(kind=raw["kind"], seat=raw.get("seat"), data=raw.get("data") or {})


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``kind``: ``win`` (``winners`` won), ``lose`` (``losers`` pay: the pub modes, where
    ``winners`` are everyone who does not pay: not paying is that round's win), or ``draw``.
    ``ranking`` lists seats best first when the game defines one.
    """

    kind: str
    winners: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "kind": self.kind,
            "winners": list(self.winners),
            "losers": list(self.losers),
            "ranking": list(self.ranking),
            "data": dict(self.data),
        }


class LogEntry(NamedTuple):
    """One applied action as stored: who, which code, and the dice it produced (if any).

    A named tuple for the same reason as :class:`Event`: one is made per action."""

    seat: int | None
    code: str
    dice: tuple[int, ...] = ()

    def to_json(self) -> JSON:
        return {"seat": self.seat, "code": self.code, "dice": list(self.dice)}

    @classmethod
    def from_json(cls, raw: JSON) -> LogEntry:
        return cls(seat=raw.get("seat"), code=raw["code"], dice=tuple(raw.get("dice") or ()))


def new_seed() -> str:
    """A fresh secret per-game seed (64 hex characters)."""
    return secrets.token_hex(32)


def seed_digest(seed: str) -> str:
    """SHA-256 of the seed, as 64 hex digits: what the revealed seed is checked against afterwards."""
    return hashlib.sha256(seed.encode("ascii")).hexdigest()


# the lobby shows the first 128 bits of the digest: two seeds that share them take a birthday search of
# about 2**64 hashes to find, so they still bind the bot, and one line of 32 hex digits keeps the chat tidy
COMMITMENT_DIGITS = 32


def seed_commitment(seed: str) -> str:
    """The commitment shown before any roll: the first COMMITMENT_DIGITS hex digits of the seed's SHA-256."""
    return seed_digest(seed)[:COMMITMENT_DIGITS]


_SHA256_BLOCK = 64  # bytes; RFC 2104's ipad and opad below as bytes.translate tables
_IPAD, _OPAD = bytes(b ^ 0x36 for b in range(256)), bytes(b ^ 0x5C for b in range(256))


class DiceSource:
    """Deterministic dice from a secret seed.

    Throw *n* (0, 1, 2, ...) uses the bytes of HMAC-SHA256(key=seed, msg=str(n)); if those
    run out, HMAC-SHA256(seed, f"{n}:{k}") for k = 1, 2, ... follows. A byte b gives a
    value in 1..sides as ``b % sides + 1`` and is used only when ``b < 256 - 256 % sides``
    (rejection sampling keeps every face equally likely).
    """

    __slots__ = ("_inner", "_key", "_outer")

    def __init__(self, seed: str) -> None:
        self._key = key = seed.encode("ascii")
        # HMAC as RFC 2104 defines it, H((K ^ opad) + H((K ^ ipad) + msg)) with K the key zero-padded to
        # SHA-256's block (hashed first if longer): both padded keys hashed once, copied per throw; the
        # same bytes as hmac.HMAC's copy, update and digest in 40 % less time (its Python layer).
        if len(key) > _SHA256_BLOCK:
            key = hashlib.sha256(key).digest()
        key = key.ljust(_SHA256_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_IPAD))
        self._outer = hashlib.sha256(key.translate(_OPAD))

    def _block(self, n: int) -> bytes:
        """HMAC-SHA256(seed, str(n)): the same bytes as ``hmac.digest``."""
        inner = self._inner.copy()
        inner.update(b"%d" % n)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def _stream(self, n: int) -> Iterator[int]:
        yield from self._block(n)
        k = 1
        while True:
            yield from hmac.digest(self._key, f"{n}:{k}".encode("ascii"), "sha256")
            k += 1

    def die(self, n: int) -> int:
        """Throw number ``n`` of one six-sided die: ``throw(n, 1)[0]``, on the engines' hot path."""
        for byte in self._block(n):
            if byte < 252:  # 256 - 256 % 6
                return byte % 6 + 1
        return self.throw(n, 1)[0]

    def throw(self, n: int, count: int, sides: int = 6) -> tuple[int, ...]:
        """Throw number ``n``: ``count`` values, each uniform in 1..sides."""
        if not 1 < sides <= 256:
            raise ValueError("sides must be in 2..256")
        if count < 0:
            raise ValueError("count must not be negative")
        if count == 0:  # the loop below would never reach len(out) == 0 and never end
            return ()
        limit = 256 - 256 % sides
        if count == 1:  # the common single die: the first usable byte of the first block
            for byte in self._block(n):
                if byte < limit:
                    return (byte % sides + 1,)
        out: list[int] = []
        for byte in self._stream(n):
            if byte < limit:
                out.append(byte % sides + 1)
                if len(out) == count:
                    break
        return tuple(out)


@functools.lru_cache(maxsize=256)
def dice_source(seed: str) -> DiceSource:
    """The game's :class:`DiceSource`, kept for the next throw (engines throw once per action)."""
    return DiceSource(seed)


class Dice(Protocol):
    """Where an engine's throws come from: :class:`DiceSource` in play, :class:`LoadedDice` in
    a test that says which throw it wants. ``n`` is the game's throw number."""

    def die(self, n: int) -> int: ...

    def throw(self, n: int, count: int, sides: int = 6) -> tuple[int, ...]: ...


def throw_source(seed: str, dice: Dice | None) -> Dice:
    """The dice of an engine call: ``dice`` when the caller gives them, else the game's fair dice."""
    return dice_source(seed) if dice is None else dice


class LoadedDice:
    """Dice that show the given faces, one throw after another, whatever the throw number.

    Each throw asked must have the count of the next faces given, each face within its sides;
    asking for more throws than given is an error too. The log records these faces, so a game
    played with them does not replay from its seed (replay checks every roll).
    """

    def __init__(self, *throws: Sequence[int]) -> None:
        self._throws = [tuple(faces) for faces in reversed(throws)]

    def die(self, n: int) -> int:
        (face,) = self.throw(n, 1)
        return face

    def throw(self, n: int, count: int, sides: int = 6) -> tuple[int, ...]:
        if not self._throws:
            raise ValueError(f"throw {n}: no loaded faces left")
        faces = self._throws.pop()
        if len(faces) != count or not all(1 <= face <= sides for face in faces):
            raise ValueError(f"throw {n} wants {count} faces in 1..{sides}, loaded {faces}")
        return faces

    @property
    def left(self) -> int:
        """How many loaded throws have not been thrown yet."""
        return len(self._throws)


class GameOptions(Protocol):
    """A frozen dataclass of a game's options; ``validate`` raises :class:`OptionsError`
    (``seats`` None: the player count is not known yet)."""

    def validate(self, seats: int | None = None) -> None: ...

    def to_json(self) -> JSON: ...

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Self: ...


class GameState(Protocol):
    """A plain, JSON-able game state of a game played from ``seed``."""

    @property
    def seed(self) -> str: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def version(self) -> int: ...

    @property
    def finished(self) -> bool: ...

    def to_json(self) -> JSON: ...

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Self: ...


S = TypeVar("S", bound=GameState)
Opt = TypeVar("Opt", bound=GameOptions)


class TurnState:
    """Mixin for states with ``turn`` and ``finished`` fields: whose move it is."""

    __slots__ = ()
    turn: int
    finished: bool

    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.turn


def check_seats(seats: int | None, limits: tuple[int, int]) -> None:
    """Raise OptionsError("players") unless ``seats`` (None: not known yet) is within ``limits``."""
    lo, hi = limits
    if seats is not None and not lo <= seats <= hi:
        raise OptionsError("players", "out of range", min=lo, max=hi)


def rank_after(winner: int, seats: int, progress: Callable[[int], int | tuple[int, ...]]) -> tuple[int, ...]:
    """The winner, then the other seats by ``progress`` (most first; ties by seat order)."""
    others = sorted((s for s in range(seats) if s != winner), key=progress, reverse=True)
    return (winner, *others)


class Engine(Protocol[S, Opt]):
    """One game's rules. All methods are pure functions of their arguments.

    ``dice`` (default: the game's :class:`DiceSource` from its seed) gives the throws of a
    ``new_game`` (the starter, throw 0) or of an ``apply``; tests pass :class:`LoadedDice`."""

    code: str
    min_players: int
    max_players: int

    def options_from_json(self, raw: Mapping[str, Any] | None) -> Opt: ...

    def new_game(self, options: Opt, seats: int, seed: str, dice: Dice | None = None) -> tuple[S, list[Event]]: ...

    def legal_actions(self, state: S) -> list[Action]: ...

    def apply(self, state: S, code: str, dice: Dice | None = None) -> tuple[S, list[Event], LogEntry]: ...

    def outcome(self, state: S) -> Outcome | None: ...

    def state_from_json(self, raw: JSON) -> S: ...


class RulesEngine(Generic[S, Opt]):
    """The plumbing every engine shares: every game's opening, options and states back from JSON.

    Subclasses set ``options_type`` and ``state_type`` (JsonData dataclasses), implement
    :meth:`opening` and the rest of :class:`Engine`.
    """

    options_type: type[Opt]
    state_type: type[S]

    def new_game(self, options: Opt, seats: int, seed: str, dice: Dice | None = None) -> tuple[S, list[Event]]:
        """Every game opens alike: its options checked for ``seats``, the first player drawn by lot (throw 0
        of the dice), then the game's own first state, announced by one «starter» event."""
        options.validate(seats)
        starter = draw_starter(seed, seats, dice)
        state = self.opening(options, seats, seed, starter)
        return state, [Event("starter", seat=starter, data=self.starter_data(state))]

    def opening(self, options: Opt, seats: int, seed: str, starter: int) -> S:
        """The game's first state, ``starter`` to move."""
        raise NotImplementedError

    def starter_data(self, state: S) -> Mapping[str, Any]:
        """What the «starter» event tells besides the seat: nothing, unless the game says more."""
        return _NO_DATA

    def options_from_json(self, raw: Mapping[str, Any] | None) -> Opt:
        options = self.options_type.from_json(raw or {})  # unknown keys are ignored
        options.validate()
        return options

    def state_from_json(self, raw: JSON) -> S:
        return self.state_type.from_json(raw)


def replay(engine: Engine[S, Opt], options: Opt, seats: int, seed: str, log: Sequence[LogEntry]) -> S:
    """Rebuild a state from its seed and action log, checking every logged roll."""
    state, _ = engine.new_game(options, seats, seed)
    for i, entry in enumerate(log):
        state, _, produced = engine.apply(state, entry.code)
        if produced.dice != entry.dice or produced.seat != entry.seat:
            raise ReplayMismatchError(
                f"action {i} ({entry.code}): logged {entry.seat}/{list(entry.dice)}, "
                f"derived {produced.seat}/{list(produced.dice)}"
            )
    return state


STARTER_THROW = 0  # throw 0 of every game draws who starts


def draw_starter(seed: str, seats: int, dice: Dice | None = None) -> int:
    """The seat that starts, drawn fairly by throw 0 (one die with as many faces as seats)."""
    (face,) = throw_source(seed, dice).throw(STARTER_THROW, 1, sides=seats)
    return face - 1


def next_seat(seat: int, seats: int, skip: Sequence[bool] | None = None) -> int:
    """The next seat clockwise, skipping seats flagged in ``skip`` (if any seat is left)."""
    for step in range(1, seats + 1):
        cand = (seat + step) % seats
        if skip is None or not skip[cand]:
            return cand
    return seat


S_contra = TypeVar("S_contra", bound=GameState, contravariant=True)


class Policy(Protocol[S_contra]):
    """A computer player: the codes it plays now, for the player to move.

    ``plan`` is pure: the same state and ``seed`` give the same codes. Dice-game policies
    answer one code at a time (a roll, or a choice among the legal moves); the lions AI
    answers a whole turn. The caller applies the codes and asks again while a computer
    player is still to move."""

    def plan(self, state: S_contra, seed: int = 0) -> list[str]: ...


# The computer player's levels, weakest first: a game that offers levels maps
# each name to a Policy (bot/games/spec.py ``levels``); the lobby shows them as «Лёгкий», «Средний»,
# «Сильный» (locale keys «level-<name>»).
LEVELS: tuple[str, ...] = ("easy", "medium", "strong")
DEFAULT_LEVEL = "medium"


def tie_break(state_seed: str, version: int, seed: int, code: str) -> int:
    """A 64-bit number that orders equally good actions differently from game to game but
    always the same way for the same position (engines may not use the global ``random``)."""
    digest = hashlib.blake2b(f"{state_seed}:{version}:{seed}:{code}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


@dataclass(frozen=True)
class BestScorePolicy(Generic[S]):
    """Plays the legal action with the highest ``score(state, action)`` (ties broken by
    :func:`tie_break`); a lone legal action, such as a roll, is played without scoring."""

    engine: Engine[S, Any]  # any options: the policy only asks for legal actions
    score: Callable[[S, Action], float] | None = None

    def plan(self, state: S, seed: int = 0) -> list[str]:
        actions = self.engine.legal_actions(state)
        if not actions:
            return []
        score = self.score
        if len(actions) == 1 or score is None:
            return [actions[0].code]
        best = max(actions, key=lambda a: (score(state, a), tie_break(state.seed, state.version, seed, a.code)))
        return [best.code]
