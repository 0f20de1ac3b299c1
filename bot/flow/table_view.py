"""The table message of each game: its picture, caption and keyboard, edited in place (or posted anew
when it is gone), now or once the chat's budget has room; a newer picture replaces one still waiting.
"""

from __future__ import annotations

import itertools
import logging
import warnings
from collections.abc import Callable

from markupsafe import Markup
from telegram import InlineKeyboardMarkup, InputMediaPhoto
from telegram.constants import ParseMode
from telegram.error import BadRequest, NetworkError, RetryAfter, TelegramError
from telegram.warnings import PTBUserWarning

from bot import texts
from bot.bounded import LruDict
from bot.drawing import Drawing
from bot.flow.context import Chat, Game
from bot.flow.messages import Messages, not_modified
from bot.store import StorageError, Store
from engines.base import Event

log = logging.getLogger(__name__)
# the table's edit goes out raw (see TableView._edit); PTB asks to use its method instead, which is the point
warnings.filterwarnings("ignore", message=r"Please use 'Bot\.editMessageMedia'", category=PTBUserWarning)
LINES_KEPT = 8_000  # actions whose log lines are kept (a few hundred bytes each; least recently shown go first)
MAX_LOG_ACTIONS = 40  # the caption's log shows every action since the last edit (bot turns), up to this many
REPLACED_KEPT = 1_000  # table messages a restore replaced, kept so a second press on one posts no second table
Recent = list[tuple[int, list[Event]]]  # (action number, its events), oldest first


def idle_throw(events: list[Event]) -> bool:
    """Whether an action was a throw that moved nothing and passed the turn (its events: the roll, «хода нет»)."""
    return len(events) == 2 and events[0].kind == "roll" and events[1].kind == "no_move"


def throw_text(roll: Event) -> str:
    """A roll event's dice as the log shows them: «5», «6–2»."""
    die = roll.data.get("die")
    return str(die) if die is not None else "–".join(str(d) for d in roll.data.get("dice", ()))


def run_events(recent: Recent, game: Game) -> list[Event]:
    """What the picture marks: in a game with a fast table, the events of every action since the table was
    last shown (a person's move, the computer's turns and the throws after it, in order); otherwise, or when
    the table is shown again, those of the last action. Action n made version n + 1 (the deal is action −1)."""
    if not recent or recent[-1][0] != game.row.version - 1:
        return []
    if not game.spec.fast_table:  # one die linked to its owner's deed (sosedi, spichki): the last throw alone
        return recent[-1][1]
    run = [event for n, events in recent if n >= game.row.shown_version for event in events]
    return run or recent[-1][1]


class TableView:
    """Draws and shows each game's table; an edit lost to a server error or a timeout is handed to
    ``on_lost_edit`` (:class:`bot.flow.catch_up.CatchUp`, which tries once more a little later)."""

    def __init__(self, store: Store, messages: Messages, drawing: Drawing, clock: Callable[[], float]) -> None:
        self.store, self.messages, self.drawing, self.clock = store, messages, drawing, clock
        # game id → when /table last re-posted its table; bounded by expiry (repost_wait keeps the marks that count)
        self.reposted: dict[int, float] = {}
        self.on_lost_edit: Callable[[int], None] = lambda game_id: None
        self.on_shown: Callable[[int], None] = lambda game_id: None  # a game's table edit went out (bot/metrics.py)
        # (game, action, language, the seats' names then) → its log lines: every redraw shows the last few
        # actions again, and putting them into words took a twentieth of the bot's time under load
        self._lines: LruDict[tuple[int, int, str, tuple[str, ...]], tuple[list[Event], list[Markup]]] = \
            LruDict(LINES_KEPT)
        # (chat, message, the version it shows) of each table ahead of the store a restore replaces or replaced
        self._replaced: LruDict[tuple[int, int, int], None] = LruDict(REPLACED_KEPT)

    async def recent(self, game: Game) -> Recent:
        """The events of the last few actions, oldest first, with their action numbers: at least every
        action since the table was last shown (a run of bot turns), up to MAX_LOG_ACTIONS; the caption
        drops the oldest lines if they do not fit."""
        unseen = game.row.version - max(game.row.shown_version, -1)  # −1: never shown, the deal (action −1) too
        limit = min(MAX_LOG_ACTIONS, max(game.spec.log_actions, unseen))
        recent = await self.store.recent_events(game.id, limit)
        return [(n, [Event.from_json(e) for e in events]) for n, events in recent]

    def log_lines(self, recent: Recent, game: Game, chat: Chat) -> list[Markup]:
        """The caption's log of the actions ``recent``, each put into words once; two or more throws in a
        row that moved nothing (the start of «Людо», everyone waiting for a 6) share one line."""
        lines: list[Markup] = []
        for idle, run in itertools.groupby(recent, key=lambda action: idle_throw(action[1])):
            actions = list(run)
            if idle and len(actions) > 1:
                throws = Markup(" · ").join(
                    chat.html("log-idle-throw", name=texts.seat_names(game.seats, chat.tr, n)[events[0].seat or 0],
                              dice=throw_text(events[0])) for n, events in actions)
                lines.append(chat.html("log-idle-throws", throws=throws))
            else:
                lines += [line for n, events in actions for line in self._action_lines(n, events, game, chat)]
        return lines

    def _action_lines(self, n: int, events: list[Event], game: Game, chat: Chat) -> list[Markup]:
        # each line names the seats as they were then: a person's moves stay theirs once a computer took over
        names = tuple(texts.seat_names(game.seats, chat.tr, n))
        key = (game.id, n, chat.lang, names)
        kept = self._lines.get(key)
        if kept is None or kept[0] != events:  # the same action again (a store put back from a copy may differ)
            kept = self._lines[key] = (events, texts.event_lines(game.spec.ui, events, names, chat.tr))
        return kept[1]

    async def show(self, game: Game, chat: Chat) -> None:
        """Edit the table message to ``game``'s state, now or once the chat has room (coalesced)."""
        await self.messages.outbox.edit(game.row.chat_id, game.id, lambda: self._draw_logged(game, chat))

    async def show_stopped(self, game: Game, chat: Chat, how: str = "table-stopped") -> None:
        """The table of a stopped game: its last state and log, the line ``how`` («остановлена»,
        «брошена»), no buttons."""
        caption = texts.table_caption(game, self.log_lines(await self.recent(game), game, chat), chat.tr, stopped=how)
        await self.messages.edit_caption(game.row, caption, None)

    async def _draw_logged(self, game: Game, chat: Chat) -> None:
        try:
            await self._draw(game, chat)
        except StorageError as exc:  # the move is stored; the table catches up at the next press or start
            log.error("game %s: storage failed (%s) while redrawing the table", game.id, exc)

    async def _draw(self, game: Game, chat: Chat) -> None:
        """Edit the table message to the stored state (or post it anew if it is gone)."""
        if game.state is None:
            return
        png, caption, keyboard = await self._picture(game, chat)
        shown = await self._edit(game, png, caption, keyboard)
        if shown is None:
            return
        if not shown and not await self._post(game, png, caption, keyboard):  # the table message was deleted
            return
        self.on_shown(game.id)
        await self.store.set_shown_version(game.id, game.row.version)

    async def _picture(self, game: Game, chat: Chat,
                       notice: str | None = None) -> tuple[bytes, Markup, InlineKeyboardMarkup | None]:
        """The table of the stored state: its picture, caption (with the line ``notice``) and keyboard."""
        assert game.state is not None
        recent = await self.recent(game)
        caption = texts.table_caption(game, self.log_lines(recent, game, chat), chat.tr, notice=notice)
        keyboard = texts.table_keyboard(game, chat.tr)
        labels = {k: chat.tr(f"board-{k}") for k in game.spec.label_keys}
        png = await self.drawing.draw(game.spec.render_board, game.state, texts.seat_names(game.seats, chat.tr), labels,
                                     run_events(recent, game))
        return png, caption, keyboard

    async def _post(self, game: Game, png: bytes, caption: Markup, keyboard: InlineKeyboardMarkup | None) -> bool:
        """Post the table as a new message and remember it as the game's table (False if refused)."""
        try:
            message = await self.messages.bot.send_photo(game.row.chat_id, png, caption=caption,
                                                         parse_mode=ParseMode.HTML, reply_markup=keyboard,
                                                         message_thread_id=game.row.thread_id or None)
        except TelegramError as exc:
            log.warning("game %s: could not post the table: %s", game.id, exc)
            self.messages.refused(game.row.chat_id, exc, game.row.thread_id)
            return False
        await self.store.set_message_id(game.id, message.message_id)
        return True

    def repost_wait(self, game_id: int, every: float) -> float:
        """Seconds until /table may re-post the game's table (at most once per ``every``); when it may
        now, the time is marked and 0 is returned."""
        now = self.clock()  # only the marks that still count are kept: one per game ever would pile up
        self.reposted = {g: at for g, at in self.reposted.items() if now - at < every}
        wait = self.reposted.get(game_id, now - every) + every - now
        if wait <= 0:
            self.reposted[game_id] = now
        return max(0.0, wait)

    async def repost(self, game: Game, chat: Chat) -> None:
        """/table: the table posted anew at the bottom of the chat, and the old one deleted (or, where
        Telegram refuses that, left without its keyboard), so exactly one table can be pressed."""
        async def job() -> None:
            await self._repost_now(game, chat)
        await self.messages.outbox.edit(game.row.chat_id, game.id, job)

    def replaces(self, chat_id: int, pressed: int | None, version: int) -> bool:
        """Whether a restore is to replace the table message ``pressed``, which showed ``version``, ahead
        of the store; False once one has, or is under way: a second press on it, which waited for the
        chat's lock behind the first, must not post a second table. The message is marked."""
        if pressed is None:  # not known: the outbox coalesces the restores of one game still waiting
            return True
        if (chat_id, pressed, version) in self._replaced:
            return False
        self._replaced[chat_id, pressed, version] = None
        return True

    async def restore(self, game: Game, chat: Chat, pressed: int | None = None, version: int = -1) -> None:
        """The table shows moves the store has lost (it was put back from an earlier copy, or a replica
        took over before it had the last commits): the table of the stored state posted anew with the
        line «table-restored», and the table message ``pressed`` (which showed ``version``) retired with
        the stored one."""
        async def job() -> None:
            if not await self._repost_now(game, chat, "table-restored", pressed) and pressed is not None:
                self._replaced.pop((game.row.chat_id, pressed, version), None)  # not posted: a later press tries again
        await self.messages.outbox.edit(game.row.chat_id, game.id, job)

    async def _repost_now(self, game: Game, chat: Chat, notice: str | None = None, pressed: int | None = None) -> bool:
        """Post the table anew (with the line ``notice``) and retire the stored table message and the one
        ``pressed``; whether it was posted."""
        if game.state is None:
            return True
        png, caption, keyboard = await self._picture(game, chat, notice)
        if not await self._post(game, png, caption, keyboard):
            return False
        await self.store.set_shown_version(game.id, game.row.version)
        for old in dict.fromkeys(m for m in (game.row.message_id, pressed) if m is not None):
            await self.messages.retire(game.row.chat_id, old)
        return True

    async def _edit(self, game: Game, png: bytes, caption: Markup,
                    keyboard: InlineKeyboardMarkup | None) -> bool | None:
        """Edit the table message in place: True if it shows the picture now, False if the message is
        gone (or never was), None if the edit failed otherwise (retried, or the chat is refused)."""
        row = game.row
        if row.message_id is None:
            return False
        try:
            # the raw call: PTB would parse the whole edited message back, which nothing here reads (every
            # press pays for its table's edit, and the parse was a twentieth of the bot's time under load)
            await self.messages.bot.do_api_request("editMessageMedia", api_kwargs={
                "chat_id": row.chat_id, "message_id": row.message_id, "reply_markup": keyboard,
                "media": InputMediaPhoto(png, caption=caption, parse_mode=ParseMode.HTML)})
            return True
        except BadRequest as exc:
            if not_modified(exc):
                return True
            if "not found" in exc.message.lower():
                return False
            log.warning("game %s: edit failed: %s", game.id, exc.message)
            self.messages.refused(row.chat_id, exc)
        except TelegramError as exc:
            log.warning("game %s: edit failed: %s", game.id, exc)
            if isinstance(exc, NetworkError | RetryAfter):  # a 5xx or a timeout: likely to pass
                self.on_lost_edit(game.id)
            else:
                self.messages.refused(row.chat_id, exc)
        return None
