"""What both databases do alike: every :class:`~bot.store.protocol.Store` method as statements of
:mod:`bot.store.sql` and the conversion of their rows; a database's module adds how it runs one
statement, one transaction, its schema and its three compound writes (a move, a new lobby, a lobby's
seating), whose parameters are built here so both take the same values in the same order.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from bot.store import claims, sql
from bot.store.batches import Batched
from bot.store.caches import ChatCache, RecentLog
from bot.store.protocol import ActiveGameExistsError, AlreadyHandledError, StaleVersionError
from bot.store.rows import (
    JSON,
    ChatRow,
    GameRow,
    GameTotals,
    LoggedAction,
    Move,
    PastGame,
    PlayerTotals,
    RatingRow,
    RecentEvents,
    Seat,
    TallyRow,
)


class Row(Protocol):
    """A row as either driver gives it: its columns by name (sqlite3.Row, asyncpg.Record)."""

    def __getitem__(self, key: str) -> Any: ...


class Transaction(Protocol):
    """Statements inside one transaction: what they change and what they read (their own writes too)."""

    async def _exec(self, statement: str, params: Sequence[Any]) -> int: ...

    async def _fetch(self, statement: str, params: Sequence[Any]) -> list[Row]: ...


def games_of(rows: Iterable[Row]) -> list[GameRow]:
    """Game rows joined with their seats (sql.GAME_COLUMNS, ordered by game) as GameRows."""
    games: list[GameRow] = []
    seats: list[Seat] = []
    last: Row | None = None
    for row in rows:
        if last is not None and row["id"] != last["id"]:
            games.append(game_of(last, seats))
            seats = []
        if row["s_seat"] is not None:
            seats.append(Seat(row["s_seat"], row["s_user_id"], row["s_name"], row["s_left_user_id"],
                              row["s_left_name"], row["s_left_at"]))
        last = row
    if last is not None:
        games.append(game_of(last, seats))
    return games


def game_of(row: Row, seats: Sequence[Seat]) -> GameRow:
    """A game row; a JSON column that is not JSON any more is named in ``unreadable`` instead of
    raising here, so one broken game neither fails a list of games nor hides which game it is."""
    unreadable: list[str] = []

    def parsed(column: str, empty: Any) -> Any:
        if not row[column]:
            return empty
        try:
            return json.loads(row[column])
        except ValueError:
            unreadable.append(column)
            return empty

    options, state = parsed("options", {}), parsed("state", None)
    result, timeouts = parsed("result", None), parsed("timeouts", {})
    return GameRow(
        id=row["id"], chat_id=row["chat_id"], code=row["code"], options=options,
        seed=row["seed"], state=state, version=row["version"],
        shown_version=row["shown_version"], status=row["status"], host_id=row["host_id"],
        message_id=row["message_id"], result=result,
        seats=tuple(seats), deadline=row["deadline"], timeouts=timeouts,
        paused=bool(row["paused"]), next_seed=row["next_seed"],
        active_at=row["updated_at"] if row["status"] == "lobby" or row["acted_at"] is None else row["acted_at"],
        thread_id=row["thread_id"], unreadable=", ".join(unreadable))


def move_params(move: Move, at: float, update_id: int | None = None) -> tuple[Any, ...]:
    """The 22 parameters of a save, in the order of both databases' compound write (the last: the
    update whose claim it takes, bot/store/claims.py)."""
    result = move.result or {}
    # a draw's «winners» share the first place; they did not win it
    winners = (result.get("winners") or []) if result.get("kind") in ("win", "lose") else []
    seat, payer = move.new_seat, move.pub_payer
    return (
        move.game_id, move.expected_version, json.dumps(move.state), move.version, move.status,
        json.dumps(move.result) if move.result else None, at, move.deadline,
        json.dumps(move.timeouts) if move.timeouts is not None else None, move.next_seed,
        json.dumps([{"seat": a.seat, "code": a.code, "dice": list(a.dice), "events": a.events}
                    for a in move.actions]), first_action(move),
        seat and seat.seat, seat and seat.user_id, seat and seat.name,
        payer and payer.user_id, payer and payer.name, json.dumps(winners),
        None if move.seating is None else json.dumps([[s.seat, s.user_id, s.name] for s in move.seating]),
        move.host_id, move.by_person, update_id)


def first_action(move: Move) -> int:
    """The action number of the move's first new action."""
    return move.version - len(move.actions)


def seats_json(seats: Sequence[Seat]) -> str:
    return json.dumps([[s.seat, s.user_id, s.name] for s in seats])


Opened = TypeVar("Opened", bound="SQLStore")


class SQLStore:
    """The Store methods both databases share; a subclass supplies ``_read``, ``_write``,
    ``_transaction`` and the three compound writes."""

    INTEGRITY_ERRORS: tuple[type[Exception], ...] = ()  # the driver's «a constraint refused the write»

    def __init__(self) -> None:
        self.clock: Callable[[], float] = time.time  # the times it stores (the flow's clock, in tests moved on)
        self._chats = ChatCache()
        self._recent = RecentLog(self._read_recent)
        # a press reads its game and, once its table is edited, marks it shown: many chats' in one statement
        self._games: Batched[int, None, GameRow] = Batched(self._games_by_id)
        self._shown: Batched[int, int, None] = Batched(self._shown_versions, merge=max)

    async def close(self) -> None:
        raise NotImplementedError

    async def _migrate(self) -> None:
        raise NotImplementedError

    async def _migrated(self: Opened) -> Opened:
        """The store just connected, migrated; closed again if migrating fails."""
        try:
            await self._migrate()
        except BaseException:
            await self.close()
            raise
        return self

    async def _read(self, statement: str, params: Sequence[Any]) -> list[Row]:
        raise NotImplementedError

    async def _write(self, statement: str, params: Sequence[Any]) -> int:
        raise NotImplementedError

    def _transaction(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    @asynccontextmanager
    async def _changing(self) -> AsyncIterator[Transaction]:
        """A transaction for a change an update asked for, that update's claim taken first in it
        (bot/store/claims.py): AlreadyHandledError, and nothing written, if it was handled before."""
        claim = claims.pending()
        async with self._transaction() as tx:
            if claim is not None and not await tx._exec(sql.CLAIM_UPDATE, (claim.update_id, self.clock())):
                raise AlreadyHandledError(claim.update_id)
            yield tx
        if claim is not None:
            claim.taken = True

    async def _change(self, statement: str, params: Sequence[Any]) -> int:
        """One write an update may have asked for: with its claim, or alone (one statement) without one."""
        if claims.pending() is None:
            return await self._write(statement, params)
        async with self._changing() as tx:
            return await tx._exec(statement, params)

    # the compound writes, each atomic on its own: parameters as create_game, set_lobby, save_move build them
    async def _insert_game(self, tx: Transaction, params: Sequence[Any]) -> int:
        """A new lobby and its seats, in ``tx``; its id."""
        raise NotImplementedError

    async def _seat_lobby(self, tx: Transaction, params: Sequence[Any]) -> None:
        """A lobby's seats, host and options, in ``tx``."""
        raise NotImplementedError

    async def _save(self, params: Sequence[Any]) -> None:
        """A move; raises one of INTEGRITY_ERRORS saying sql.STALE if the version moved on."""
        raise NotImplementedError

    async def _read_games(self, params: Sequence[Any]) -> list[Row]:
        """The rows (sql.GAME_COLUMNS, ordered by game) of the games whose ids are the JSON array ``params[0]``."""
        raise NotImplementedError

    async def _save_shown(self, params: Sequence[Any]) -> None:
        """Each table of the JSON array ``params[0]`` of [game id, version] shown up to that version (never back)."""
        raise NotImplementedError

    async def schema_version(self) -> int:
        rows = await self._read(sql.SCHEMA_VERSION, ())
        return int(rows[0]["version"] or 0)

    # chats ------------------------------------------------------------------------

    async def chat(self, chat_id: int) -> ChatRow:
        """The chat's locale and settings, read once (every press needs them)."""
        cached = self._chats.get(chat_id)
        if cached is None:
            rows = await self._read(sql.CHAT, (chat_id,))
            cached = (ChatRow(chat_id, rows[0]["locale"], MappingProxyType(json.loads(rows[0]["settings"]))) if rows
                      else ChatRow(chat_id))
            self._chats.put(cached)
        return cached

    async def set_chat_setting(self, chat_id: int, key: str, value: Any) -> None:
        chat = await self.chat(chat_id)
        settings = {**chat.settings, key: value}
        await self._change(sql.SET_CHAT_SETTINGS, (chat_id, json.dumps(settings), self.clock()))
        self._chats.put(ChatRow(chat_id, chat.locale, MappingProxyType(settings)))

    async def set_chat_locale(self, chat_id: int, locale: str) -> None:
        chat = await self.chat(chat_id)
        await self._change(sql.SET_CHAT_LOCALE, (chat_id, locale, self.clock()))
        self._chats.put(ChatRow(chat_id, locale, chat.settings))

    async def migrate_chat(self, old: int, new: int) -> bool:
        async with self._changing() as tx:
            if await tx._fetch(sql.NEW_CHAT_HAS_GAME, (new,)):
                await tx._exec(sql.STOP_ACTIVE_OF_CHAT, (json.dumps({"kind": "stopped"}), old))
            moved = await tx._exec(sql.MOVE_GAMES, (new, old))
            moved += await tx._exec(sql.COPY_CHAT, (new, old))
            await tx._exec(sql.DELETE_CHAT, (old,))
            moved += await tx._exec(sql.COPY_TALLY, (new, old))
            await tx._exec(sql.RESET_PUB_TALLY, (old,))
            await tx._exec(sql.MOVE_RESULTS, (new, old))
            if await tx._fetch(sql.NEW_CHAT_HAS_RATINGS, (new,)):
                await tx._exec(sql.DROP_RATINGS_OF_CHATS, (old, new))
                await tx._exec(sql.DROP_RATED_OF_CHATS, (old, new))
            else:
                await tx._exec(sql.MOVE_RATINGS, (new, old))
                await tx._exec(sql.MOVE_RATED, (new, old))
        self._chats.forget(old, new)
        return moved > 0

    # games ------------------------------------------------------------------------

    async def load(self, chat_id: int, game_id: int | None = None, thread_id: int = 0
                   ) -> tuple[ChatRow, GameRow | None]:
        """The chat comes from memory once read, so a press reads only its game: one statement."""
        chat = await self.chat(chat_id)
        return chat, await (self.active_game(chat_id, thread_id) if game_id is None else self.game(game_id))

    async def game(self, game_id: int) -> GameRow | None:
        return await self._games(game_id, None)

    async def _games_by_id(self, ids: dict[int, None]) -> dict[int, GameRow]:
        return {game.id: game for game in self._seen(games_of(await self._read_games((json.dumps(list(ids)),))))}

    async def active_game(self, chat_id: int, thread_id: int = 0) -> GameRow | None:
        return next(iter(self._seen(games_of(await self._read(sql.ACTIVE_GAME, (chat_id, thread_id))))), None)

    def _seen(self, games: list[GameRow]) -> list[GameRow]:
        """``games`` as just read (a press's): the recent log forgets actions beyond a game's version."""
        for game in games:
            self._recent.read_at(game.id, game.version)
        return games

    async def active_games(self, chat_id: int) -> list[GameRow]:
        return games_of(await self._read(sql.ACTIVE_GAMES_OF_CHAT, (chat_id,)))

    async def create_game(self, chat_id: int, code: str, options: JSON, seed: str, host: Seat,
                          seats: Sequence[Seat] = (), thread_id: int = 0) -> GameRow:
        seated = tuple(seats) or (Seat(0, host.user_id, host.name),)
        try:
            async with self._changing() as tx:
                game_id = await self._insert_game(tx, (chat_id, thread_id, code, json.dumps(options), seed,
                                                       host.user_id, self.clock(), seats_json(seated)))
        except self.INTEGRITY_ERRORS as exc:  # games_one_active: the topic has a lobby or game already
            raise ActiveGameExistsError(chat_id) from exc
        return GameRow(id=game_id, chat_id=chat_id, code=code, options=options, seed=seed, state=None, version=0,
                       shown_version=-1, status="lobby", host_id=host.user_id, message_id=None, result=None,
                       seats=seated, active_at=self.clock(), thread_id=thread_id)

    async def set_lobby(self, game_id: int, seats: Sequence[tuple[int, str]], host_id: int, options: JSON) -> None:
        async with self._changing() as tx:
            await self._seat_lobby(tx, (game_id, host_id, json.dumps(options), self.clock(),
                                        json.dumps([[user_id, name] for user_id, name in seats])))

    async def save_move(self, move: Move) -> None:
        claim = claims.pending()
        try:
            await self._save(move_params(move, self.clock(), None if claim is None else claim.update_id))
        except self.INTEGRITY_ERRORS as exc:
            if sql.STALE in str(exc):
                raise StaleVersionError(move.game_id) from exc
            if claim is not None and sql.HANDLED_UPDATES in str(exc):
                raise AlreadyHandledError(claim.update_id) from exc
            raise
        if claim is not None:
            claim.taken = True
        # only after the commit: a stale save must not show up in the log
        self._recent.saved(move.game_id, first_action(move), [a.events for a in move.actions])

    async def set_message_id(self, game_id: int, message_id: int) -> None:
        await self._write(sql.SET_MESSAGE_ID, (message_id, game_id))

    async def set_shown_version(self, game_id: int, version: int) -> None:
        await self._shown(game_id, version)

    async def _shown_versions(self, versions: dict[int, int]) -> dict[int, None]:
        await self._save_shown((json.dumps(list(versions.items())),))
        return {}

    async def stop_game(self, game_id: int, result: JSON) -> bool:
        return await self._change(sql.STOP_GAME, (json.dumps(result), self.clock(), game_id)) == 1

    async def hand_seat(self, game_id: int, seat: Seat) -> bool:
        return await self._change(sql.HAND_SEAT, (seat.user_id, seat.name, game_id, seat.seat, game_id)) == 1

    async def pause_game(self, game_id: int) -> bool:
        return await self._change(sql.PAUSE_GAME, (game_id,)) == 1

    async def resume_game(self, game_id: int, deadline: float | None) -> bool:
        return await self._change(sql.RESUME_GAME, (deadline, game_id)) == 1

    async def seed_used(self, seed: str) -> bool:
        return bool(await self._read(sql.SEED_USED, (seed,)))

    async def actions(self, game_id: int) -> list[LoggedAction]:
        return [LoggedAction(r["n"], r["seat"], r["code"], tuple(json.loads(r["dice"])), json.loads(r["events"]))
                for r in await self._read(sql.ACTIONS, (game_id,))]

    async def recent_events(self, game_id: int, limit: int) -> RecentEvents:
        """From memory when the last save of this game went through here, else read (and kept)."""
        return await self._recent.get(game_id, limit)

    async def _read_recent(self, game_id: int, limit: int) -> RecentEvents:
        rows = await self._read(sql.RECENT_EVENTS, (game_id, limit))
        return [(r["n"], json.loads(r["events"])) for r in reversed(rows)]

    async def games_with_deadlines(self) -> list[GameRow]:
        return games_of(await self._read(sql.GAMES_WITH_DEADLINES, ()))

    async def running_games(self) -> dict[str, int]:
        return {r["code"]: int(r["games"]) for r in await self._read(sql.RUNNING_GAMES, ())}

    async def games_behind(self) -> list[GameRow]:
        return games_of(await self._read(sql.GAMES_BEHIND, ()))

    async def idle_games(self, lobby_since: float, game_since: float) -> list[GameRow]:
        return games_of(await self._read(sql.IDLE_GAMES, (lobby_since, game_since)))

    # updates handled (bot/store/claims.py) ------------------------------------------------

    async def update_handled(self, update_id: int) -> bool:
        return bool(await self._read(sql.UPDATE_HANDLED, (update_id,)))

    async def record_update(self, update_id: int) -> None:
        await self._write(sql.CLAIM_UPDATE, (update_id, self.clock()))

    async def latest_update(self) -> int:
        return int((await self._read(sql.LATEST_UPDATE, ()))[0]["latest"] or 0)

    async def forget_updates(self, before: float) -> int:
        return await self._write(sql.FORGET_UPDATES, (before,))

    # pub tally and results --------------------------------------------------------------

    async def pub_tally(self, chat_id: int) -> list[TallyRow]:
        return [TallyRow(r["user_id"], r["name"], r["rounds"]) for r in await self._read(sql.PUB_TALLY, (chat_id,))]

    async def reset_pub_tally(self, chat_id: int) -> None:
        await self._change(sql.RESET_PUB_TALLY, (chat_id,))

    async def pub_rounds(self, chat_id: int, user_id: int) -> int:
        """The pub rounds ``user_id`` paid in this chat's finished games (a /tally reset clears the
        tally, not the results)."""
        return int((await self._read(sql.PUB_ROUNDS, (chat_id, user_id)))[0]["rounds"])

    async def user_totals(self, chat_id: int, user_id: int) -> list[GameTotals]:
        return [GameTotals(r["code"], r["games"], r["wins"], r["pub"], r["paid"])
                for r in await self._read(sql.USER_TOTALS, (chat_id, user_id))]

    async def player_totals(self, chat_id: int, code: str | None = None) -> list[PlayerTotals]:
        rows = await (self._read(sql.PLAYER_TOTALS, (chat_id,)) if code is None
                      else self._read(sql.PLAYER_TOTALS_OF_GAME, (chat_id, code)))
        return [PlayerTotals(r["user_id"], r["name"], r["games"], r["wins"], r["pub"], r["paid"]) for r in rows]

    async def past_games(self, chat_id: int, limit: int) -> list[PastGame]:
        games: dict[int, tuple[Row, list[str], list[str | None], set[int]]] = {}
        for row in await self._read(sql.PAST_GAMES, (chat_id, limit)):
            _, names, left, computers = games.setdefault(row["id"], (row, [], [], set()))
            if row["user_id"] <= 0:
                computers.add(len(names))
            names.append(row["name"])
            left.append(row["left_name"])
        return [PastGame(g["id"], g["code"], g["status"], json.loads(g["result"] or "{}"), tuple(names),
                         g["updated_at"], tuple(left), frozenset(computers))
                for g, names, left, computers in games.values()]

    # ratings ----------------------------------------------------------------------------

    async def unrated_games(self, chat_id: int | None = None) -> list[GameRow]:
        if chat_id is None:
            return games_of(await self._read(sql.UNRATED_GAMES, ()))
        return games_of(await self._read(sql.UNRATED_GAMES_OF_CHAT, (chat_id,)))

    async def ratings(self, chat_id: int, code: str) -> list[RatingRow]:
        return [RatingRow(r["player"], r["name"], r["mu"], r["sigma"], r["games"])
                for r in await self._read(sql.RATINGS, (chat_id, code))]

    async def save_ratings(self, game: GameRow, ratings: Sequence[RatingRow], changes: list[JSON]) -> bool:
        async with self._transaction() as tx:
            if not await tx._exec(sql.MARK_RATED, (game.id, game.chat_id, json.dumps(changes))):
                return False  # rated already (by another catch-up): its ratings stand
            for r in ratings:
                await tx._exec(sql.SET_RATING, (game.chat_id, game.code, r.player, r.name, r.mu, r.sigma, r.games))
        return True

    async def rating_changes(self, game_id: int) -> list[JSON] | None:
        rows = await self._read(sql.RATING_CHANGES, (game_id,))
        return json.loads(rows[0]["changes"]) if rows else None

    async def replay_file(self, game_id: int) -> str | None:
        rows = await self._read(sql.REPLAY_FILE, (game_id,))
        return str(rows[0]["file_id"]) if rows else None

    async def save_replay_file(self, game_id: int, file_id: str) -> None:
        async with self._transaction() as tx:
            await tx._exec(sql.SAVE_REPLAY_FILE, (game_id, file_id))

    async def clear_ratings(self) -> None:
        async with self._transaction() as tx:
            await tx._exec(sql.CLEAR_RATINGS, ())
            await tx._exec(sql.CLEAR_RATED, ())
