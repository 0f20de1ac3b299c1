"""«🎬 Повтор» under a result, and ``/replay <id>``: a short clip of a game that is over.

The clip is the board through the game, replayed from the action log (bot/replay.py picks the
shots), drawn and encoded by its own drawing worker (bot/clip.py), so the boards of the games
being played never wait behind it. It is sent with ``sendAnimation`` once; Telegram's file_id is
stored, and every later request sends it by that id. A chat makes at most one clip at a time;
asking again meanwhile is answered «готовится», and a game still being played has no replay yet.

The button is answered with a toast, which goes by itself. ``/replay`` is answered in the chat with
«🎬 Готовлю повтор…»: the clip's own task posts that line, in the chat's turn, so it knows the line
and deletes it once the clip is there (or turns it into the failure, if the clip fails).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from markupsafe import Markup
from telegram import InputFile, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, TelegramError

from bot import texts
from bot.clip import ClipTooBig, render_clip
from bot.drawing import Drawing, DrawingError, WorkerDied
from bot.flow.context import Chat
from bot.flow.messages import Messages
from bot.replay import shots_of
from bot.store import GameRow, LoggedAction, StorageError, Store
from bot.verify import OVER, GameLogs
from engines.base import EngineError, LogEntry

log = logging.getLogger(__name__)
SEND_WAIT = 600.0  # seconds a clip may wait in the chat's outbox before it is given up
Answer = tuple[str, dict[str, Any]]  # a locale key and its arguments
T = TypeVar("T")


class Replays:
    """Makes and sends the replay clips, one chat's at a time."""

    def __init__(self, logs: GameLogs, store: Store, messages: Messages, drawing: Drawing) -> None:
        self.logs, self.store, self.messages, self.drawing = logs, store, messages, drawing
        self._busy: set[int] = set()  # chats whose clip is being made or sent (each leaves when it is done)
        self._tasks: set[asyncio.Task[None]] = set()

    async def ask(self, chat: Chat, game_id: int, thread: int, reply_to: int | None) -> Answer:
        """«🎬 Повтор» pressed for ``game_id`` in ``chat``: the toast to answer with; the clip follows in
        the chat, in the topic ``thread``, as a reply to ``reply_to``."""
        refusal = await self._start(chat, game_id, thread, reply_to, announce=False)
        return refusal or ("replay-making", {"id": str(game_id)})

    async def command(self, chat: Chat, game_id: int, thread: int, reply_to: int | None) -> Answer | None:
        """``/replay`` of ``game_id`` (the command ``reply_to``): why there is no clip, to be said; or None,
        and the clip's task posts «🎬 Готовлю повтор…» itself, then the clip (see the module's notes)."""
        return await self._start(chat, game_id, thread, reply_to, announce=True)

    async def _start(self, chat: Chat, game_id: int, thread: int, reply_to: int | None,
                     announce: bool) -> Answer | None:
        """Start making the clip of ``game_id``; None if it is under way, else why not."""
        logged = await self.logs.game_log(game_id)
        if logged is None or logged[0].chat_id != chat.id:  # another chat's game: the same answer, nothing leaks
            return "replay-unknown", {"id": str(game_id)}
        game, actions = logged
        if game.status not in OVER:
            return "replay-running", {"id": str(game_id)}
        if game.state is None or game.code not in self.logs.games:  # a lobby closed before the start
            return "replay-not-started", {"id": str(game_id)}
        if chat.id in self._busy:
            return "replay-busy", {}
        self._busy.add(chat.id)
        task = asyncio.create_task(self._make(chat, game, actions, thread, reply_to, announce))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return None

    def close(self) -> None:
        """Give up the clips being made (at shutdown: a request is simply made again)."""
        for task in self._tasks:
            task.cancel()

    async def settled(self) -> None:
        """Wait for the clips being made (tests; shutdown)."""
        while self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _make(self, chat: Chat, game: GameRow, actions: list[LoggedAction], thread: int,
                    reply_to: int | None, announce: bool) -> None:
        notice = None
        try:
            if announce:
                notice = await self._announce(chat, game.id, thread, reply_to)
            await self._deliver(chat, game, actions, thread, reply_to)
        except (DrawingError, WorkerDied, ClipTooBig, EngineError, ValueError, StorageError) as exc:
            log.warning("game %s: no replay (%s)", game.id, exc)
            await self._failed(chat, game.id, thread, reply_to, notice)
        else:  # the clip is there (or the chat refused it): «готовлю» would say what is no longer so
            if notice is not None:
                await self.messages.delete(chat.id, notice)
        finally:
            self._busy.discard(chat.id)

    async def _announce(self, chat: Chat, game_id: int, thread: int, reply_to: int | None) -> int | None:
        """Post «🎬 Готовлю повтор игры #N…» in the chat's turn, before the clip; its id (None: not posted)."""
        text = chat.html("replay-making", id=str(game_id))
        posted = await self._in_turn(chat.id, lambda: self.messages.post_now(chat.id, text, thread=thread,
                                                                             reply_to=reply_to))
        return None if posted is None else posted.message_id

    async def _deliver(self, chat: Chat, game: GameRow, actions: list[LoggedAction], thread: int,
                       reply_to: int | None) -> None:
        """Send the clip: by the file_id Telegram gave it before, else made and uploaded (and its id kept)."""
        caption = chat.html("replay-caption", id=str(game.id), game=chat.tr(f"game-{game.code}"))
        known = await self.store.replay_file(game.id)
        if known is not None and await self._send(chat, known, caption, thread, reply_to) is not None:
            return
        clip = await self._clip(chat, game, actions)
        upload = InputFile(clip, filename=f"replay-{game.id}.mp4")
        sent = await self._send(chat, upload, caption, thread, reply_to)
        if sent is not None and sent.animation is not None:
            await self.store.save_replay_file(game.id, sent.animation.file_id)

    async def _failed(self, chat: Chat, game_id: int, thread: int, reply_to: int | None,
                      notice: int | None) -> None:
        """Say the clip failed: in place of «готовлю» where /replay posted it, else as a new reply."""
        text = chat.html("replay-failed", id=str(game_id))
        if notice is None:
            await self.messages.send(chat.id, text, thread=thread, reply_to=reply_to)
        else:
            await self.messages.edit_text(chat.id, notice, text, None)

    async def _clip(self, chat: Chat, game: GameRow, actions: list[LoggedAction]) -> bytes:
        spec = self.logs.games[game.code]
        engine = spec.engine
        options = engine.options_from_json(game.options)
        log_entries = [LogEntry(a.seat, a.code, a.dice) for a in actions if a.n >= 0]  # −1: the bot's «start»
        shots = await asyncio.to_thread(shots_of, engine, options, len(game.seats), game.seed, log_entries,
                                        spec.replay_moment)
        labels = {key: chat.tr(f"board-{key}") for key in spec.label_keys}
        return await self.drawing.draw(render_clip, spec.render_board, shots, texts.seat_names(game.seats, chat.tr),
                                     labels)

    async def _send(self, chat: Chat, animation: str | InputFile, caption: Markup, thread: int,
                    reply_to: int | None) -> Message | None:
        """Send the clip (an upload, or a file_id Telegram gave before) in the chat's turn; None if refused
        (or the outbox dropped the chat's queue: the bot may not post there)."""

        async def send() -> Message | None:
            try:
                return await self.messages.bot.send_animation(
                    chat.id, animation, caption=caption, parse_mode=ParseMode.HTML, message_thread_id=thread or None,
                    reply_to_message_id=reply_to, allow_sending_without_reply=True)
            except BadRequest as exc:
                if isinstance(animation, str):  # the stored file_id is no good any more: it is made again
                    log.info("chat %s: the replay's file id was refused (%s)", chat.id, exc)
                    return None
                log.warning("chat %s: replay refused: %s", chat.id, exc)
                self.messages.refused(chat.id, exc, thread)
            except TelegramError as exc:
                log.warning("chat %s: replay refused: %s", chat.id, exc)
                self.messages.refused(chat.id, exc, thread)
            return None

        return await self._in_turn(chat.id, send)

    async def _in_turn(self, chat_id: int, call: Callable[[], Awaitable[T | None]]) -> T | None:
        """What ``call`` gave, run in the chat's turn (bot/outbox.py: in order, within the chat's budget); None
        if it gave nothing or did not run within :data:`SEND_WAIT` (or the chat's queue was dropped)."""
        done: asyncio.Future[T | None] = asyncio.get_running_loop().create_future()

        async def job() -> None:
            result = None
            try:
                result = await call()
            finally:  # given up on meanwhile (SEND_WAIT), the future is cancelled: nobody waits for it
                if not done.done():
                    done.set_result(result)

        await self.messages.outbox.send(chat_id, job)
        try:
            return await asyncio.wait_for(done, SEND_WAIT)
        except TimeoutError:
            return None
