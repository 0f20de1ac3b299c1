"""Thin Telegram handlers: parse the update, check who sends it, call :class:`GameFlow`."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from markupsafe import Markup
from telegram import (
    Chat,
    ChatMember,
    ChatMemberRestricted,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    Message,
    Update,
    User,
)
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, NetworkError, TelegramError, TimedOut
from telegram.ext import ContextTypes

from bot import callback_data as cb
from bot import verify as fair_dice
from bot.flood import Verdict
from bot.flow import AdminCheck, BrokenGame, GameFlow, Reply, Say
from bot.games.common import Html, Tr, html_words
from bot.store import AlreadyHandledError, Seat, StorageError, claims
from bot.texts import TALLY_LINES, display_name, tally_lines
from locales import SUPPORTED

log = logging.getLogger(__name__)
GROUPS = (ChatType.GROUP, ChatType.SUPERGROUP)
ADMINS = (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


def flow_of(context: ContextTypes.DEFAULT_TYPE) -> GameFlow:
    """The application's GameFlow (made in post_init)."""
    flow: GameFlow = context.bot_data["flow"]
    return flow


def thread_of(message: Message | None) -> int:
    """The forum topic a message is in (0: General, or a chat that is not a forum). A reply in an
    ordinary supergroup carries a thread id too, of its reply thread: that is not a topic."""
    return message.message_thread_id or 0 if message is not None and message.is_topic_message else 0


def carries(message: Message, data: str | None) -> bool:
    """Whether ``data`` is on a button of ``message`` as Telegram keeps it: the data of a press is the
    client's to send, the message (its keyboard too) is Telegram's own copy."""
    markup = message.reply_markup
    return markup is not None and any(b.callback_data == data for row in markup.inline_keyboard for b in row)


def player(user: User) -> Seat:
    """The user as a seat at a table (which seat is up to the lobby)."""
    return Seat(seat=-1, user_id=user.id, name=display_name(user.first_name, user.last_name))


def admin_check(context: ContextTypes.DEFAULT_TYPE, chat: Chat, message: Message | None, user: User) -> AdminCheck:
    """Whether the user administers the chat, asked of Telegram only when the flow needs to know
    (anonymous admins post as the chat itself)."""

    async def is_admin() -> bool:
        if message is not None and message.sender_chat is not None and message.sender_chat.id == chat.id:
            return True
        try:
            member = await context.bot.get_chat_member(chat.id, user.id)
        except TelegramError:
            return False
        return member.status in ADMINS

    return is_admin


async def send_reply(update: Update, context: ContextTypes.DEFAULT_TYPE, text: Markup,
                     markup: InlineKeyboardMarkup | None = None, to: int | None = None,
                     transient: bool = False) -> None:
    """Answer in the update's chat (as a reply to ``to`` or the message), through the chat's outbox: a
    courtesy that merges with the same answer waiting and is dropped if the chat's budget keeps it
    back for long (see bot/outbox.py); a refusal is logged. A ``transient`` answer (a refusal) goes
    after a minute in a tidy group, with the command."""
    chat, command = update.effective_chat, update.effective_message
    if chat is None:
        return
    reply_to = to if to is not None else (command.message_id if command else None)
    thread, flow = thread_of(command), flow_of(context)

    async def post() -> None:
        try:
            sent = await context.bot.send_message(chat.id, text, parse_mode=ParseMode.HTML, reply_markup=markup,
                                                  reply_to_message_id=reply_to, allow_sending_without_reply=True,
                                                  message_thread_id=thread or None)
        except TelegramError as exc:
            log.warning("chat %s: reply failed: %s", chat.id, exc)
            flow.chat_refused(chat.id, exc)
            return
        if transient and chat.type in GROUPS:
            flow.tidy.later(await flow.chat(chat.id), sent.message_id, command.message_id if command else None)

    await flow.outbox.reply(chat.id, (thread, str(text), markup is not None), post)


def _usable(update: Update) -> tuple[Chat, User] | None:
    """The chat and a human sender, or None for updates the bot ignores (bots, channels).

    An anonymous admin writes as the group itself (sender_chat), from Telegram's placeholder
    bot account: that is a person, and admin_check knows them by the sender_chat."""
    chat, user, message = update.effective_chat, update.effective_user, update.effective_message
    if chat is None or user is None or chat.type == ChatType.CHANNEL:
        return None
    anonymous_admin = message is not None and message.sender_chat is not None and message.sender_chat.id == chat.id
    if user.is_bot and not anonymous_admin:
        return None
    return chat, user


@dataclass(frozen=True, slots=True)
class Command:
    """A command from a human, with what every command handler needs."""

    chat: Chat
    user: User
    flow: GameFlow
    tr: Tr  # plain words
    html: Html  # words for messages
    args: list[str]
    say: Say  # a reply to the command
    is_admin: AdminCheck
    thread: int  # the forum topic it was typed in (0: General, or not a forum)

    @property
    def in_group(self) -> bool:
        return self.chat.type in GROUPS


async def command(update: Update, context: ContextTypes.DEFAULT_TYPE, admins_always: bool = False) -> Command | None:
    """A command from a person, with its chat, flow, language and arguments; None to ignore it (a
    person over their commands a minute is told once, then ignored for a minute; ``admins_always``
    lets the chat's admins through all the same)."""
    if (who := _usable(update)) is None:
        return None
    chat, user = who
    flow = flow_of(context)

    def say(text: Markup, markup: InlineKeyboardMarkup | None = None, to: int | None = None,
            transient: bool = False) -> Awaitable[None]:
        return send_reply(update, context, text, markup, to, transient)

    is_admin = admin_check(context, chat, update.effective_message, user)
    verdict = flow.flood.check(chat.id, user.id)
    if verdict is not Verdict.HANDLE and not (admins_always and await is_admin()):
        if verdict is Verdict.WARN:
            await say((await flow.chat(chat.id)).html("too-many-commands"), transient=True)
        return None
    words = await flow.chat(chat.id)
    return Command(chat, user, flow, words.tr, words.html, list(context.args or []), say, is_admin,
                   thread_of(update.effective_message))


async def group_command(update: Update, context: ContextTypes.DEFAULT_TYPE,
                        refusal: str = "groups-only") -> Command | None:
    """A command that only works in a group; anywhere else the sender is told so (``refusal``)."""
    if (cmd := await command(update, context)) is None:
        return None
    if not cmd.in_group:
        await cmd.say(cmd.html(refusal), transient=True)
        return None
    return cmd


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/start: in a private chat, explain how to add the bot to a group."""
    if (cmd := await command(update, context)) is None:
        return
    if cmd.in_group:
        await cmd.say(help_text(cmd))
        return
    url = f"https://t.me/{context.bot.username}?startgroup=play"
    await cmd.say(cmd.html("start-private"), InlineKeyboardMarkup([[InlineKeyboardButton(cmd.tr("btn-add-to-group"),
                                                                                         url=url)]]))


async def help_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/help: what the bot does and its commands."""
    if (cmd := await command(update, context)) is not None:
        await cmd.say(help_text(cmd))


def help_text(cmd: Command) -> Markup:
    """/help, naming every game the bot offers, a line each: its name and the command that opens it."""
    games = [cmd.html("help-game", name=cmd.tr(f"game-{code}"), code=code) for code in cmd.flow.games]
    return cmd.html("help-text", games=Markup("\n").join(games))


async def newgame(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/newgame [code]: the game picker, or straight to a lobby."""
    if (cmd := await group_command(update, context)) is None:
        return
    if cmd.user.is_bot:  # an anonymous admin: presses come from their own account, so no seat is theirs
        await cmd.say(cmd.html("anonymous-cannot-play"), transient=True)
        return
    await cmd.flow.newgame(cmd.chat.id, player(cmd.user), cmd.args[0].lower() if cmd.args else None, cmd.say,
                           cmd.thread)


async def rules(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/rules [code]: the rules of the named or current game."""
    if (cmd := await command(update, context)) is not None:
        await cmd.say(await cmd.flow.rules(cmd.chat.id, cmd.args[0].lower() if cmd.args else None, cmd.thread))


async def lang(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/lang ru|en: the chat's language (admins only in groups)."""
    if (cmd := await command(update, context)) is None:
        return
    if len(cmd.args) != 1 or cmd.args[0].lower() not in SUPPORTED:
        await cmd.say(cmd.html("lang-usage", langs=" | ".join(SUPPORTED)), transient=True)
    elif cmd.in_group and not await cmd.is_admin():
        await cmd.say(cmd.html("admins-only"), transient=True)
    else:
        await cmd.say(await cmd.flow.set_language(cmd.chat.id, cmd.args[0].lower()))


async def settings_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/settings: the chat's defaults for new lobbies, with buttons to switch them (admins, groups)."""
    if (cmd := await group_command(update, context, "settings-groups-only")) is None:
        return
    if not await cmd.is_admin():
        await cmd.say(cmd.html("admins-only"), transient=True)
        return
    await cmd.say(*await cmd.flow.settings_view(cmd.chat.id))


async def stop(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/stop: the host or an admin ends the lobby or game (an admin even past the flood limit)."""
    if (cmd := await command(update, context, admins_always=True)) is not None:
        await cmd.flow.stop(cmd.chat.id, cmd.user.id, cmd.is_admin, cmd.say, cmd.thread)


async def table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/table: post the game's table again at the bottom of the chat."""
    if (cmd := await group_command(update, context)) is not None:
        await cmd.flow.repost_table(cmd.chat.id, cmd.say, cmd.thread)


async def leave(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/leave: leave the running game; a bot takes the seat (in «Охота на львов» you resign)."""
    if (cmd := await command(update, context)) is not None:
        await cmd.flow.leave(cmd.chat.id, cmd.user.id, cmd.say, cmd.thread)


async def kick(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/kick: the host or an admin skips the person to move for good (a bot takes the seat)."""
    if (cmd := await command(update, context)) is not None:
        by = player(cmd.user)
        if cmd.user.is_bot:  # an anonymous admin writes as the group, from a placeholder account: named by the role
            by = Seat(by.seat, by.user_id, cmd.tr("kick-by-anonymous-admin"))
        await cmd.flow.kick(cmd.chat.id, by, cmd.is_admin, cmd.say, cmd.thread)


async def tally(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/tally [reset]: who has paid how many pub rounds here; admins may reset it."""
    if (cmd := await command(update, context)) is None:
        return
    if cmd.args and cmd.args[0].lower() == "reset":
        if cmd.in_group and not await cmd.is_admin():
            await cmd.say(cmd.html("admins-only"), transient=True)
            return
        await cmd.flow.reset_tally(cmd.chat.id)
        await cmd.say(cmd.html("pub-tally-reset"))
        return
    rows = await cmd.flow.tally(cmd.chat.id)
    await cmd.say(Markup("\n").join(tally_lines(rows, TALLY_LINES, cmd.tr)) if rows else cmd.html("pub-tally-empty"))


async def verify(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/verify <id> [commitment]: check every roll of a finished or stopped game of this chat against its seed
    (the same text as «🔎 Проверить кости» under its result)."""
    if (cmd := await command(update, context)) is None:
        return
    if (asked := fair_dice.request(cmd.args)) is None:
        await cmd.say(cmd.html("verify-usage"))
        return
    game_id, commitment = asked
    await cmd.say(await fair_dice.answer(cmd.flow, cmd.chat.id, game_id, commitment, cmd.tr))


async def replay(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/replay <id>: a short clip of a game of this chat that is over (the same as «🎬 Повтор»)."""
    if (cmd := await command(update, context)) is None:
        return
    if (asked := fair_dice.request(cmd.args)) is None or asked[1] is not None:
        await cmd.say(cmd.html("replay-usage"), transient=True)
        return
    message = update.effective_message
    command_id = message.message_id if message else None
    chat = await cmd.flow.chat(cmd.chat.id)
    refusal = await cmd.flow.replays.command(chat, asked[0], cmd.thread, command_id)
    if refusal is not None:
        await cmd.say(cmd.html(refusal[0], **refusal[1]), transient=True)
    elif cmd.in_group:  # the clip stays (and takes «Готовлю повтор…» away); the command goes as ever, if tidy
        cmd.flow.tidy.later(chat, None, command_id)


async def set_command(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """/set <option> <value>: the lobby host sets any option value, e.g. /set chips 17."""
    if (cmd := await command(update, context)) is not None:
        await cmd.flow.set_option(cmd.chat.id, cmd.user.id, cmd.args, cmd.is_admin, cmd.say, cmd.thread)


async def on_button(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Every inline button: parse the data, check it, act, and always answer the query."""
    query = update.callback_query
    if query is None:
        return
    answered = False

    async def answer(reply: Reply) -> None:
        nonlocal answered
        answered = True
        await _answer_query(query.answer, reply)

    try:
        await _dispatch_button(update, context, answer)
    except StorageError as exc:  # nothing was stored: say so, and the press can simply be tried again
        flow_of(context).on_press("storage_error", 0, 0.0)
        chat = query.message.chat if query.message is not None else None
        storage_failed(exc, f"a button press in chat {chat.id if chat else '?'}")
        if not answered and chat is not None:
            await answer(Reply((await safe_tr(flow_of(context), chat.id))("storage-error"), alert=True))
    except BrokenGame as broken:  # quarantined where it was met (bot/flow/quarantine.py): only say so
        flow_of(context).on_press("broken", broken.game_id, 0.0)
        if not answered:
            where = query.message.chat.id if query.message is not None else broken.chat_id
            await answer(Reply((await safe_tr(flow_of(context), where))("toast-game-broken")))
    finally:
        if not answered:  # an unexpected error: still never leave the button spinning
            await answer(Reply())


async def _answer_query(send: Callable[..., Awaitable[bool]], reply: Reply) -> None:
    """answerCallbackQuery; a 5xx is tried once more (the button spins until answered), a timeout not
    (it may well have arrived, and a query is answered only once)."""
    for attempt in (1, 2):
        try:
            await send(reply.text[:200] or None, show_alert=reply.alert)
            return
        except TimedOut as exc:
            log.info("answerCallbackQuery timed out: %s", exc)
            return
        except BadRequest as exc:  # a NetworkError to PTB, but Telegram answered: «query is too old»
            log.info("answerCallbackQuery refused: %s", exc)
            return
        except NetworkError as exc:
            log.info("answerCallbackQuery failed (attempt %d): %s", attempt, exc)
        except TelegramError as exc:
            log.info("answerCallbackQuery failed: %s", exc)
            return


async def _dispatch_button(update: Update, context: ContextTypes.DEFAULT_TYPE,
                           answer: Callable[[Reply], Awaitable[None]]) -> None:
    """Refuse what is not a press in a group on the bot's own data; hand the rest to the flow."""
    query = update.callback_query
    assert query is not None
    flow = flow_of(context)
    message = query.message if isinstance(query.message, Message) else None
    chat = message.chat if message is not None else None
    if chat is None:
        await answer(Reply(flow.translator.t(flow.config.default_locale, "toast-stale")))
        return
    tr = (await flow.chat(chat.id)).tr
    if chat.type not in GROUPS:
        flow.on_press("invalid", 0, 0.0)
        await answer(Reply(tr("groups-only")))
        return
    data = cb.parse(query.data)
    if data is None or query.from_user.is_bot:  # not the bot's own data (or not a person's press)
        flow.on_press("invalid", 0, 0.0)
        await answer(Reply(tr("toast-stale")))
        return
    await flow.press(chat.id, player(query.from_user), data, message.message_id if message else None,
                     admin_check(context, chat, None, query.from_user), answer, thread_of(message),
                     on_message=message is not None and carries(message, query.data))


async def on_my_membership(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The bot was kicked, muted or let back in: pause the chat's game, or go on with it."""
    change = update.my_chat_member
    if change is None or change.chat.type not in GROUPS:
        return
    flow, member = flow_of(context), change.new_chat_member
    flow.tidy.rights_changed(change.chat.id, member)
    if _may_post(member):
        await flow.chat_life.back(change.chat.id)
    else:
        await flow.chat_life.lost(change.chat.id, f"the bot is {member.status} there")


def _may_post(member: ChatMember) -> bool:
    """Whether the bot, as this member of a group, may post the table there (text and photos)."""
    if member.status in (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED):
        return False
    if isinstance(member, ChatMemberRestricted):
        return member.is_member and member.can_send_messages and member.can_send_photos
    return True


async def on_topic_closed(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A forum topic was closed: its game pauses until it is reopened."""
    message = update.effective_message
    if message is not None and (thread := thread_of(message)):
        await flow_of(context).chat_life.topic_closed(message.chat.id, thread)


async def on_topic_reopened(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A forum topic was reopened: its paused game goes on."""
    message = update.effective_message
    if message is not None and (thread := thread_of(message)):
        await flow_of(context).chat_life.topic_reopened(message.chat.id, thread)


async def on_migration(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """The group became a supergroup: its games, settings and tally move to the new chat id."""
    message = update.effective_message
    if message is None:
        return
    if message.migrate_to_chat_id:
        old, new = message.chat.id, message.migrate_to_chat_id
    elif message.migrate_from_chat_id:
        old, new = message.migrate_from_chat_id, message.chat.id
    else:
        return
    await flow_of(context).chat_life.migrate(old, new)


def storage_failed(exc: StorageError, doing: str) -> None:
    """The one log line of a database failure (the traceback says nothing the message does not)."""
    log.error("storage failed (%s) during %s; nothing was stored", exc, doing)
    claims.storage_failed()  # delivered again, it is tried again


async def safe_tr(flow: GameFlow, chat_id: int) -> Tr:
    """The chat's language, or the default one when the database cannot say."""
    try:
        return (await flow.chat(chat_id)).tr
    except StorageError:
        return flow.loader.words(flow.config.default_locale)


async def on_error(update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
    """Log unexpected errors once; the update's game is untouched (its transaction rolled back). A
    game that cannot be decoded was quarantined, logged and its chat told where it was met."""
    if isinstance(context.error, BrokenGame):
        log.debug("an update met the broken game %s", context.error.game_id)
        return
    if isinstance(context.error, AlreadyHandledError):  # Telegram delivered it again (a press is answered anyway)
        log.info("update %s was handled before: its change is not made again", context.error)
        return
    if isinstance(context.error, StorageError) and isinstance(update, Update):
        chat = update.effective_chat
        storage_failed(context.error, f"a command in chat {chat.id if chat else '?'}")
        if chat is not None:
            await send_reply(update, context, html_words(await safe_tr(flow_of(context), chat.id))("storage-error"))
        return
    error = context.error
    where = update.update_id if isinstance(update, Update) else "?"
    # the type and where it was raised, not the message: an error's words may quote what people wrote
    frames = "".join(traceback.format_tb(error.__traceback__)) if error is not None else ""
    log.error("error while handling update %s: %s (its message left out of the log)\nTraceback (most recent call "
              "last):\n%s", where, type(error).__name__, frames.rstrip())
